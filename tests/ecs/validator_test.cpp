// validator_test.cpp — the validator catches corruption: each test breaks one invariant
// on purpose through the public arrays and expects a violation naming the pool, the entry
// and the entity involved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

struct Corruptible {
  TestWorld w{make_config(32, 200, 50, 50)};
  Handle a, b, c;
  Corruptible() {
    a = w.create(3, Tier::Simulated, 0);
    b = w.create(4, Tier::Dormant, 0);
    c = w.create(4, Tier::Dormant, 0);
    give<Piece>(w, a, 5, 0);
    give<Piece>(w, b, 6, 100);
    w.reserve<Piece>(b, 2);
    give<Volume>(w, a, 2, 0);
    give<Sensor>(w, c, 3, 0);
  }
  TestWorld::Record& rec(Handle h) { return *w.find(h); }
};

// True when some violation matches every given field (empty pool / kNone entry / null
// entity mean "any") and its text contains `text`.
bool reported(const std::vector<Violation>& vs, const std::string& pool, u32 entry, Handle entity,
              const std::string& text) {
  return std::any_of(vs.begin(), vs.end(), [&](const Violation& v) {
    return (pool.empty() || v.pool == pool) && (entry == kNone || v.entry == entry) &&
           (entity.is_null() || v.entity == entity) && v.what.find(text) != std::string::npos;
  });
}

std::string all_text(const std::vector<Violation>& vs) {
  std::string s;
  for (const auto& v : vs) s += describe(v) + "\n";
  return s;
}

TEST(Validator, CleanWorldHasNoViolations) {
  Corruptible f;
  EXPECT_EQ(violations(f.w), "");
}

// The batched release's scratch is all zero between releases: a bit left set in a pool's
// dead-entry bitmap would have the next batch take a live entry for a dead one, and one
// in the store's would have it fill a live record's place.
TEST(Validator, AReleaseScratchBitLeftSet) {
  Corruptible f;
  WorldTestAccess::dead_bits<Piece>(f.w)[0] |= u64(1) << 3;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "pieces", 3, {}, "dead-entry bitmap has a bit set")) << all_text(vs);
  WorldTestAccess::dead_bits<Piece>(f.w)[0] = 0;
  EXPECT_EQ(violations(f.w), "");
  WorldTestAccess::dead_places(f.w.store())[0] = 1;
  vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, {}, "batched-free bitmap has bits set")) << all_text(vs);
  WorldTestAccess::dead_places(f.w.store())[0] = 0;
  EXPECT_EQ(violations(f.w), "");
  // Its last word too: the check covers every place the simulated store can have.
  WorldTestAccess::dead_places(f.w.store())[WorldTestAccess::dead_place_words(f.w.store()) - 1] = 1;
  vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, {}, "batched-free bitmap has bits set")) << all_text(vs);
}

// A chain link naming a block past the arena is reported, and the validator follows it
// no further: the next link would be read from past the block table.
TEST(Validator, ABlockChainLeavingTheArenaIsReportedNotFollowed) {
  Corruptible f;
  u32 first = f.w.store().dormant(4).first;
  WorldTestAccess::block_next(f.w.store())[first] = 1000000;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, {}, "chunk 4 dormant storage names block 1000000, past the arena"))
      << all_text(vs);
  EXPECT_TRUE(reported(vs, "", kNone, {}, "chunk 4 dormant storage holds 2 records in a chain of 1 blocks"))
      << all_text(vs);
  WorldTestAccess::block_next(f.w.store())[first] = kNone;
  EXPECT_EQ(violations(f.w), "");
}

// A directory entry naming a block past the arena is reported, and no pass reads the
// record it names (the pool pass takes the owner's chunk from the directory).
TEST(Validator, ADirectoryEntryPointingPastTheArenaIsReportedNotFollowed) {
  Corruptible f;
  const u32 block = f.w.store().dir(f.a.index).block;
  f.w.store().dir_mut(f.a.index).block = 0xFFFF0000u;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, f.a, "directory does not point at the record")) << all_text(vs);
  f.w.store().dir_mut(f.a.index).block = block;
  EXPECT_EQ(violations(f.w), "");
}

TEST(Validator, BackPointerToTheWrongOwner) {
  Corruptible f;
  u32 entry = f.w.list<Piece>(f.rec(f.a)).slot[2];
  f.w.pool<Piece>().owners[entry].owner_index = f.b.index;
  f.w.pool<Piece>().owners[entry].owner_generation = generation_check(f.b.generation);
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "pieces", entry, f.a, "back-pointer does not round-trip")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "pieces", entry, f.b, "does not point back")) << all_text(vs);
  // describe() names all three.
  std::string text = all_text(vs);
  EXPECT_NE(text.find("pool pieces: entry " + std::to_string(entry)), std::string::npos) << text;
  EXPECT_NE(text.find("entity " + std::to_string(f.a.index) + "#"), std::string::npos) << text;
}

TEST(Validator, BackPointerWithTheWrongLocalIndex) {
  Corruptible f;
  u32 entry = f.w.list<Piece>(f.rec(f.b)).slot[1];
  f.w.pool<Piece>().owners[entry].local = 4;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "pieces", entry, f.b, "does not point back")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "pieces", entry, f.b, "round-trip (slot 1)")) << all_text(vs);
}

TEST(Validator, BackPointerWithAStaleGeneration) {
  Corruptible f;
  u32 entry = f.w.list<Volume>(f.rec(f.a)).slot[0];
  f.w.pool<Volume>().owners[entry].owner_generation += 1;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "volumes", entry, Handle{f.a.index, f.a.generation + 1}, "dead or stale")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "volumes", entry, f.a, "round-trip")) << all_text(vs);
}

TEST(Validator, BackPointerWithTheWrongChunk) {
  Corruptible f;
  u32 entry = f.w.list<Sensor>(f.rec(f.c)).slot[2];
  f.w.pool<Sensor>().owners[entry].chunk = 7;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "sensors", entry, f.c, "chunk 7 but the owner is in chunk 4")) << all_text(vs);
}

TEST(Validator, SlotIndexPastTaken) {
  Corruptible f;
  f.w.list<Piece>(f.rec(f.a)).slot[4] = 150;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "pieces", 150, f.a, "points past taken")) << all_text(vs);
  // The entry a owned through slot 4 now has an owner that does not point at it.
  EXPECT_TRUE(reported(vs, "pieces", 4, f.a, "does not point back")) << all_text(vs);
}

TEST(Validator, TwoEntitiesClaimingOneEntry) {
  Corruptible f;
  u32 entry = f.w.list<Piece>(f.rec(f.a)).slot[0];
  u32 lost = f.w.list<Piece>(f.rec(f.b)).slot[0];
  f.w.list<Piece>(f.rec(f.b)).slot[0] = entry;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "pieces", entry, f.b, "round-trip (slot 0)")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "pieces", lost, f.b, "does not point back")) << all_text(vs);
}

TEST(Validator, CountsOutOfRange) {
  Corruptible f;
  f.w.list<Sensor>(f.rec(f.c)).added = 4;  // more added than reserved
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "sensors", kNone, f.c, "counts out of range")) << all_text(vs);
}

// A reserved count past the per-entity maximum (as a corrupt save can hold) and a
// back-pointer naming a local index past it: both are reported, and no slot past the
// list is read (the save fuzzer found that read). The bytes where slot 40 would lie, in
// the lists after the sensors' in the entity's row, are made to hold the entry's index:
// a validator reading them would find the entry pointed back at and report nothing.
TEST(Validator, ACountPastTheMaximumIsReportedNotFollowed) {
  Corruptible f;
  auto& list = f.w.list<Sensor>(f.rec(f.c));
  u32 entry = list.slot[1];
  list.reserved = 60;
  f.w.pool<Sensor>().owners[entry].local = 40;
  char* row = reinterpret_cast<char*>(&list);
  size_t past = offsetof(SlotList<Sensor::kMaxPerEntity>, slot) + 40 * sizeof(u32);
  ASSERT_LE(past + sizeof(u32) + size_t(row - reinterpret_cast<const char*>(&f.w.store().dir(f.c.index))),
            f.w.store().dir_stride());
  std::memcpy(row + past, &entry, sizeof entry);
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "sensors", kNone, f.c, "counts out of range")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "sensors", entry, f.c, "does not point back")) << all_text(vs);
}

TEST(Validator, TakenDisagreesWithTheEntities) {
  Corruptible f;
  f.w.pool<Volume>().stats.taken += 1;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "volumes", kNone, {}, "entities hold 2 slots, taken is 3")) << all_text(vs);
}

TEST(Validator, StatsThatDisagree) {
  Corruptible f;
  f.w.pool<Piece>().stats.reserved_unused += 1;
  f.w.pool<Piece>().stats.histogram[5] -= 1;
  f.w.pool<Sensor>().stats.owners += 1;
  f.w.pool<Volume>().stats.high_water = 1;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "pieces", kNone, {}, "reserved-unused")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "pieces", kNone, {}, "histogram bucket 5")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "sensors", kNone, {}, "owner count")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "volumes", kNone, {}, "high-water")) << all_text(vs);
}

TEST(Validator, RecordInTheWrongChunkStorage) {
  Corruptible f;
  f.rec(f.b).header.chunk = 5;  // stored in chunk 4's storage
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, f.b, "dormant record stored in chunk 4 but says chunk 5")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "", kNone, f.b, "record chunk disagrees with the directory")) << all_text(vs);
}

TEST(Validator, TierDisagreesWithStorage) {
  Corruptible f;
  f.rec(f.a).header.tier = u8(Tier::Dormant);
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, f.a, "tier disagrees")) << all_text(vs);
}

TEST(Validator, SimulatedMemberListedUnderTheWrongChunk) {
  Corruptible f;
  f.w.store().dir_mut(f.a.index).chunk = 9;  // directory says 9, chunk 3's list holds it
  auto vs = f.w.validate();
  EXPECT_TRUE(
      reported(vs, "", kNone, Handle{f.a.index, f.a.generation}, "chunk 3 lists a member that is not simulated there"))
      << all_text(vs);
}

TEST(Validator, DyingFlagWithoutAQueueEntry) {
  Corruptible f;
  f.w.store().dir_mut(f.c.index).flags |= kFlagDying;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, f.c, "flagged dying but not at its place")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "", kNone, {}, "1 entities flagged dying, 0 queued")) << all_text(vs);
}

TEST(Validator, QueuedEntityThatLostItsFlag) {
  Corruptible f;
  ASSERT_EQ(f.w.queue_destroy(f.b), Result::Ok);
  EXPECT_EQ(violations(f.w), "");
  f.w.store().dir_mut(f.b.index).flags = 0;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, f.b, "queued for destruction but not alive and flagged")) << all_text(vs);
}

// The next create takes the free stack's top: a live or retired index there would be
// handed out again, killing an entity or reviving a spent generation.
TEST(Validator, AFreeIndexThatIsLiveOrRetired) {
  Corruptible f;
  const u32 top = f.w.store().next_free_index(0);
  ASSERT_NE(top, 0u);
  f.w.store().dir_mut(top).generation = kLastGeneration;
  auto vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, {}, "on the free index stack but live or retired")) << all_text(vs);
  EXPECT_TRUE(reported(vs, "", kNone, {}, "live, free and retired indices do not add up")) << all_text(vs);
  f.w.store().dir_mut(top).generation = 1;
  EXPECT_EQ(violations(f.w), "");
  f.w.store().dir_mut(top).tier = u8(Tier::Dormant);
  vs = f.w.validate();
  EXPECT_TRUE(reported(vs, "", kNone, {}, "on the free index stack but live or retired")) << all_text(vs);
}

TEST(Validator, ListsAtMostTheRequestedNumberOfViolations) {
  Corruptible f;
  for (u32 s = 0; s < f.w.stats<Piece>().taken; ++s) f.w.pool<Piece>().owners[s].local = 31;
  u64 found = 0;
  auto vs = f.w.validate(3, &found);
  ASSERT_EQ(vs.size(), 4u);
  EXPECT_NE(vs.back().what.find("more violations not listed"), std::string::npos);
  // The count is of every violation, not of the lines listed: as many as an unlimited list.
  u64 all = 0;
  EXPECT_EQ(f.w.validate(100000, &all).size(), all);
  EXPECT_EQ(found, all);
  EXPECT_GT(found, 4u);
  EXPECT_EQ(vs.back().what, std::to_string(found - 3) + " more violations not listed");
}

}  // namespace
