// view_test.cpp — the engine's views walk what the World's walks walk, skip the tags they
// are told to (whole blocks unread, single records elsewhere), and a world without a grid
// or moved to a new owner works as any other.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "test_world.h"

using namespace ecs_test;

namespace {

enum : u16 { kGround = 0, kMobile = 1, kOther = 2 };

std::vector<u32> ids_of(auto&& walk) {
  std::vector<u32> out;
  walk([&](TestWorld::Record& r) { out.push_back(r.payload.id); });
  return out;
}

TEST(View, SimulatedViewIsTheSimulatedWalkAsARange) {
  TestWorld w(make_config(200, 10, 10, 10));
  for (u32 i = 0; i < 100; ++i) w.create(i % 7, i % 3 ? Tier::Simulated : Tier::Dormant, 0, Pos{0, 0, i});
  std::vector<u32> walked = ids_of([&](auto fn) { w.for_each_simulated(fn); });
  std::vector<u32> ranged;
  for (TestWorld::Record& r : w.simulated()) ranged.push_back(r.payload.id);
  EXPECT_EQ(ranged, walked);
  EXPECT_EQ(ids_of([&](auto fn) { w.simulated().for_each(fn); }), walked);
  EXPECT_EQ(w.simulated().size(), w.simulated_count());
  EXPECT_EQ(walked.size(), 66u);
}

// A chunk holding ground records first (two whole blocks and part of a third), then
// mobile ones of which some die and some leave: the view with ground skipped visits the
// mobile ones in the engine's chunk order, and reads no record of a ground-only block.
TEST(View, ChunkViewSkipsTagsAndWholeBlocks) {
  TestWorld::Config c = make_config(400, 10, 10, 10);
  c.block_records = 8;
  TestWorld w(c);
  for (u32 i = 0; i < 20; ++i) w.create(5, Tier::Dormant, kGround, Pos{0, 0, 1000 + i});
  std::vector<Handle> mobile;
  for (u32 i = 0; i < 30; ++i)
    mobile.push_back(w.create(5, i % 4 ? Tier::Dormant : Tier::Simulated, i % 5 ? kMobile : kOther, Pos{0, 0, i}));
  w.create(6, Tier::Dormant, kMobile, Pos{0, 0, 999});  // another chunk: never seen
  for (u32 i = 3; i < 30; i += 7) ASSERT_EQ(w.destroy(mobile[i]), Result::Ok);
  ASSERT_EQ(w.move_chunk(mobile[1], 6), Result::Ok);

  std::vector<u32> expect;
  w.for_each_in_chunk(5, [&](TestWorld::Record& r) {
    if (r.header.tag != kGround) expect.push_back(r.payload.id);
  });
  EXPECT_EQ(ids_of([&](auto fn) { w.in_chunk(5, tag_set(kGround)).for_each(fn); }), expect);
  EXPECT_EQ(expect.size(), 30u - 4 - 1);
  // Two tags skipped.
  std::vector<u32> only_other = ids_of([&](auto fn) { w.in_chunk(5, tag_set(kGround, kMobile)).for_each(fn); });
  for (u32 id : only_other) EXPECT_EQ(id % 5, 0u) << id;
  EXPECT_FALSE(only_other.empty());
  // Nothing skipped: the chunk walk itself.
  EXPECT_EQ(ids_of([&](auto fn) { w.in_chunk(5).for_each(fn); }), ids_of([&](auto fn) { w.for_each_in_chunk(5, fn); }));

  // Ground-only blocks are passed unread: break the ground records' tags in the first two
  // blocks (what a read would then hand over) and they still do not show.
  u32 broken = 0;
  w.dormant_in(5).for_each([&](TestWorld::Record& r) {
    if (broken < 16) r.header.tag = kMobile, ++broken;
  });
  EXPECT_EQ(ids_of([&](auto fn) { w.in_chunk(5, tag_set(kGround)).for_each(fn); }), expect);
}

TEST(View, ComponentViewGivesEachEntryWithItsOwner) {
  TestWorld w(make_config(16, 100, 10, 10));
  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(3, Tier::Dormant, 0);
  ASSERT_EQ(give<Piece>(w, a, 3, 10), Result::Ok);
  ASSERT_EQ(give<Piece>(w, b, 2, 20), Result::Ok);
  ASSERT_EQ(w.destroy(w.create(1, Tier::Simulated, 0)), Result::Ok);  // a's index reused later
  std::multiset<std::pair<u32, u32>> seen;
  w.components<Piece>().for_each_with_owner([&](Piece& p, Handle owner) {
    seen.insert({p.tag, owner == a ? 1u : owner == b ? 2u : 0u});
  });
  EXPECT_EQ(seen, (std::multiset<std::pair<u32, u32>>{{10, 1}, {11, 1}, {12, 1}, {20, 2}, {21, 2}}));
  u32 sum = 0;
  for (Piece& p : w.components<Piece>()) sum += p.tag;
  EXPECT_EQ(sum, 10u + 11 + 12 + 20 + 21);
  EXPECT_EQ(w.components<Piece>().size(), 5u);
}

TEST(View, AWorldWithoutAGridHasOneChunk) {
  TestWorld::Config c;
  c.max_entities = 8;
  c.pool_capacity = TestWorld::PerPool<u32>::filled(16);
  TestWorld w(c);
  EXPECT_EQ(w.grid().chunk_count(), 1u);
  Handle h = w.create(Pos{123.f, -5.f, 1}, 7);
  ASSERT_FALSE(h.is_null());
  EXPECT_EQ(w.find(h)->header.tag, 7);
  EXPECT_EQ(give<Volume>(w, h, 2, 0), Result::Ok);
  EXPECT_EQ(violations(w), "");
}

TEST(View, AMovedWorldKeepsItsEntities) {
  TestWorld w(make_config(16, 100, 10, 10));
  Handle h = w.create(2, Tier::Dormant, 0, Pos{1, 2, 3});
  ASSERT_EQ(give<Piece>(w, h, 4, 0), Result::Ok);
  TestWorld moved(std::move(w));
  EXPECT_EQ(moved.find(h)->payload.id, 3u);
  EXPECT_EQ(tags<Piece>(moved, h), (std::vector<u32>{0, 1, 2, 3}));
  TestWorld other(make_config(4, 4, 4, 4));
  other = std::move(moved);
  EXPECT_EQ(other.live_count(), 1u);
  EXPECT_EQ(violations(other), "");
}

}  // namespace
