// entity_test.cpp — entity handles, lookup, generations, and moves between chunks and tiers.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "snapshot.h"
#include "test_world.h"

using namespace ecs_test;

namespace {

TEST(Entity, CreateAndLookupInBothTiers) {
  TestWorld w(make_config(16, 100, 10, 10));
  Handle s = w.create(3, Tier::Simulated, 7, Pos{1, 2, 11});
  Handle d = w.create(5, Tier::Dormant, 8, Pos{3, 4, 22});
  ASSERT_FALSE(s.is_null());
  ASSERT_FALSE(d.is_null());
  EXPECT_NE(s, d);
  ASSERT_NE(w.lookup(s, 3), nullptr);
  ASSERT_NE(w.lookup(d, 5), nullptr);
  EXPECT_EQ(w.lookup(s, 3)->payload.id, 11u);
  EXPECT_EQ(w.lookup(d, 5)->payload.id, 22u);
  EXPECT_EQ(w.lookup(s, 3)->header.tag, 7);
  EXPECT_EQ(Tier(w.lookup(s, 3)->header.tier), Tier::Simulated);
  EXPECT_EQ(Tier(w.lookup(d, 5)->header.tier), Tier::Dormant);
  EXPECT_EQ(w.live_count(), 2u);
  EXPECT_EQ(w.simulated_count(), 1u);
  EXPECT_EQ(w.store().dormant(5).count, 1u);
  EXPECT_EQ(w.payload(d)->x, 3.f);
}

TEST(Entity, LookupWithTheWrongChunkFindsNothing) {
  TestWorld w(make_config(16, 100, 10, 10));
  Handle s = w.create(3, Tier::Simulated, 0);
  Handle d = w.create(5, Tier::Dormant, 0);
  EXPECT_EQ(w.lookup(s, 4), nullptr);
  EXPECT_EQ(w.lookup(d, 3), nullptr);
  EXPECT_EQ(w.lookup(d, 100000), nullptr);
  EXPECT_NE(w.find(d), nullptr);  // find() ignores the chunk
}

TEST(Entity, SlotZeroIsNeverValid) {
  TestWorld w(make_config(4, 10, 10, 10));
  std::vector<Handle> hs;
  for (int i = 0; i < 4; ++i) hs.push_back(w.create(0, Tier::Simulated, 0));
  for (Handle h : hs) EXPECT_NE(h.index, 0u);
  for (u32 g = 0; g < 4; ++g) {
    Handle zero{0, g};
    EXPECT_TRUE(zero.is_null());
    EXPECT_FALSE(w.alive(zero));
    EXPECT_EQ(w.find(zero), nullptr);
    EXPECT_EQ(w.reserve<Piece>(zero, 1), Result::StaleHandle);
    EXPECT_EQ(w.destroy(zero), Result::StaleHandle);
  }
  // Generation 0 of a real index never names an entity either.
  EXPECT_FALSE(w.alive(Handle{hs[0].index, 0}));
  // Indices past the directory are rejected, not read.
  EXPECT_FALSE(w.alive(Handle{5, 1}));
  EXPECT_FALSE(w.alive(Handle{0xFFFFFFFFu, 1}));
}

TEST(Entity, StoreFullRefusesAndCounts) {
  TestWorld w(make_config(3, 10, 10, 10));
  for (int i = 0; i < 3; ++i) ASSERT_FALSE(w.create(u32(i), Tier(1 + i % 2), 0).is_null());
  EXPECT_TRUE(w.create(0, Tier::Simulated, 0).is_null());
  EXPECT_TRUE(w.create(0, Tier::Dormant, 0).is_null());
  EXPECT_EQ(w.failed_creates(), 2u);
  EXPECT_EQ(w.live_count(), 3u);
  EXPECT_EQ(violations(w), "");
}

// A back-pointer keeps the owner's index in 28 bits, the chunk in 22 and the local index
// in 6: the largest values round-trip, and a grid with more chunks, or a directory with
// more entities, than that can name is refused when the world is made.
TEST(Entity, BackPointersNameEveryIndexChunkAndLocalIndexAWorldCanHave) {
  BackPointer bp{kMaxEntityIndex, generation_check(0x1234), kMaxChunks - 1, kMaxLocal - 1};
  EXPECT_EQ(bp.owner_index, kMaxEntityIndex);
  EXPECT_EQ(bp.owner_generation, 0x34u);
  EXPECT_EQ(bp.chunk, kMaxChunks - 1);
  EXPECT_EQ(bp.local, kMaxLocal - 1);
  EXPECT_TRUE(bp.names(Handle{kMaxEntityIndex, 0x1234}));
  EXPECT_FALSE(bp.names(Handle{kMaxEntityIndex, 0x1235}));
  EXPECT_FALSE(bp.names(Handle{kMaxEntityIndex - 1, 0x1234}));
  auto c = make_config(10, 10, 10, 10);
  c.grid = ChunkGrid::make(2049, 2048, 1);  // 2049 x 2048 chunks: 2048 more than 2^22
  EXPECT_THROW(TestWorld w(c), std::length_error);
  auto big = make_config(10, 10, 10, 10);
  big.max_entities = kMaxEntityIndex + 1;  // refused before any memory is taken
  EXPECT_THROW(TestWorld w(big), std::length_error);
}

// Back-pointers keep only the low bits of the owner's generation; the whole handle comes
// back through the directory. An index reused 300 times (its generation past 255) still
// resolves its entries to the live owner, and an entry naming an earlier generation of
// that index does not resolve.
TEST(Entity, OwnerOfAnEntryIsTheWholeHandleAfterTheGenerationWraps) {
  TestWorld w(make_config(4, 100, 10, 10));
  Handle h = w.create(0, Tier::Simulated, 1);
  for (int i = 0; i < 300; ++i) {
    ASSERT_EQ(w.destroy(h), Result::Ok);
    Handle next = w.create(0, Tier::Simulated, 1);
    ASSERT_EQ(next.index, h.index);  // the freed index is taken again
    h = next;
  }
  ASSERT_GT(h.generation, 300u);
  ASSERT_EQ(w.reserve<Piece>(h, 3), Result::Ok);
  const BackPointer bp = w.pool<Piece>().owners[w.list<Piece>(*w.find(h)).slot[1]];  // a copy: it outlives the entry
  EXPECT_EQ(w.owner_of(bp), h);
  BackPointer old = bp;
  old.owner_generation = generation_check(h.generation - 1);
  EXPECT_TRUE(w.owner_of(old).is_null());
  ASSERT_EQ(w.destroy(h), Result::Ok);
  EXPECT_TRUE(w.owner_of(bp).is_null());  // the entry's owner is gone
  EXPECT_EQ(violations(w), "");
}

// Byte buffers for a snapshot round trip.
struct BytesOut : ByteSink {
  std::vector<unsigned char> bytes;
  void write(const void* p, size_t n) override {
    bytes.insert(bytes.end(), (const unsigned char*)p, (const unsigned char*)p + n);
  }
};
struct BytesIn : ByteSource {
  const std::vector<unsigned char>& bytes;
  size_t at = 0;
  explicit BytesIn(const std::vector<unsigned char>& b) : bytes(b) {}
  bool read(void* p, size_t n) override {
    if (bytes.size() - at < n) return false;
    std::memcpy(p, bytes.data() + at, n);
    at += n;
    return true;
  }
};

// An index whose generation runs out is retired when its entity dies, never reused: the
// next generation would wrap to 0 and then 1, which the index's first handle holds.
TEST(Entity, AnIndexWhoseGenerationRunsOutIsRetired) {
  TestWorld w(make_config(4, 100, 10, 10));
  Handle first = w.create(0, Tier::Simulated, 1);
  ASSERT_EQ(first.generation, 1u);
  ASSERT_EQ(w.destroy(first), Result::Ok);
  // Stands for 2^32 - 2 more lives of the index (a minute and a half of create/destroy).
  w.store().dir_mut(first.index).generation = kLastGeneration - 1;
  Handle last = w.create(0, Tier::Simulated, 1);
  ASSERT_EQ(last.index, first.index);
  ASSERT_EQ(last.generation, kLastGeneration);
  ASSERT_EQ(w.destroy(last), Result::Ok);
  EXPECT_EQ(w.store().retired_count(), 1u);
  EXPECT_EQ(violations(w), "");
  // The other three indices are still handed out, the retired one never again.
  std::vector<Handle> made;
  for (Handle h; !(h = w.create(0, Tier::Simulated, 1)).is_null();) made.push_back(h);
  ASSERT_EQ(made.size(), 3u);
  for (Handle h : made) EXPECT_NE(h.index, first.index);
  EXPECT_FALSE(w.alive(first));
  EXPECT_FALSE(w.alive(last));
  EXPECT_EQ(violations(w), "");
  // A snapshot keeps it retired.
  BytesOut out;
  write_snapshot(w, out);
  TestWorld back(make_config(4, 100, 10, 10));
  BytesIn in(out.bytes);
  std::string err;
  ASSERT_TRUE(read_snapshot(back, in, &err)) << err;
  EXPECT_EQ(back.store().retired_count(), 1u);
  for (Handle h : made) ASSERT_EQ(back.destroy(h), Result::Ok);
  for (int i = 0; i < 3; ++i) EXPECT_NE(back.create(0, Tier::Simulated, 1).index, first.index);
  EXPECT_TRUE(back.create(0, Tier::Simulated, 1).is_null());
  EXPECT_EQ(violations(back), "");
}

// A grid must have chunks (a default ChunkGrid has none), and its count is taken in 64
// bits: 65,536 x 65,536 one-cell chunks wrap a 32-bit count to 0.
TEST(Entity, AGridWithNoChunksOrTooManyIsRefused) {
  TestWorld::Config c = make_config(4, 10, 10, 10);
  c.grid = ChunkGrid{};
  c.grid.cells_x = c.grid.cells_y = 64;  // cells but no chunks: not from ChunkGrid::make
  EXPECT_THROW(TestWorld{c}, std::invalid_argument);
  c.grid = ChunkGrid::make(65536, 65536, 1);
  EXPECT_EQ(c.grid.chunk_count(), 0u);  // what a 32-bit product gives
  EXPECT_THROW(TestWorld{c}, std::length_error);
}

TEST(Entity, BadChunkOrTierRefusesCreate) {
  TestWorld w(make_config(3, 10, 10, 10));
  EXPECT_TRUE(w.create(w.grid().chunk_count(), Tier::Simulated, 0).is_null());
  EXPECT_TRUE(w.create(0, Tier::Free, 0).is_null());
  // A value past the last tier: stored, it would be neither tier's, and a later tier move
  // would unlink a member its chunk never listed.
  EXPECT_TRUE(w.create(0, Tier(3), 0).is_null());
  EXPECT_EQ(w.failed_creates(), 3u);
  EXPECT_EQ(w.live_count(), 0u);
}

TEST(Entity, StaleHandleAfterDestroyIsRejectedEverywhere) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle h = w.create(2, Tier::Simulated, 0);
  ASSERT_EQ(give<Piece>(w, h, 3, 0), Result::Ok);
  ASSERT_EQ(w.destroy(h), Result::Ok);
  EXPECT_FALSE(w.alive(h));
  EXPECT_EQ(w.find(h), nullptr);
  EXPECT_EQ(w.lookup(h, 2), nullptr);
  EXPECT_EQ(w.payload(h), nullptr);
  EXPECT_EQ(w.destroy(h), Result::StaleHandle);
  EXPECT_EQ(w.reserve<Piece>(h, 1), Result::StaleHandle);
  EXPECT_EQ(w.add<Piece>(h, Piece{}), Result::StaleHandle);
  EXPECT_EQ(w.remove_one<Piece>(h, 0), Result::StaleHandle);
  EXPECT_EQ(w.release_all<Piece>(h), Result::StaleHandle);
  EXPECT_EQ(w.queue_destroy(h), Result::StaleHandle);
  EXPECT_EQ(w.move_chunk(h, 3), Result::StaleHandle);
  EXPECT_EQ(w.set_tier(h, Tier::Dormant), Result::StaleHandle);
  EXPECT_EQ(w.stats<Piece>().taken, 0u);
  EXPECT_EQ(violations(w), "");
}

TEST(Entity, StaleHandleNeverResolvesToTheEntityReusingItsIndex) {
  TestWorld w(make_config(1, 100, 10, 10));  // one index: every create reuses it
  Handle old = w.create(1, Tier::Simulated, 0, Pos{0, 0, 1});
  ASSERT_EQ(give<Piece>(w, old, 2, 10), Result::Ok);
  ASSERT_EQ(w.destroy(old), Result::Ok);
  Handle fresh = w.create(1, Tier::Simulated, 0, Pos{0, 0, 2});
  ASSERT_FALSE(fresh.is_null());
  ASSERT_EQ(fresh.index, old.index);
  EXPECT_NE(fresh.generation, old.generation);
  EXPECT_EQ(w.find(old), nullptr);
  EXPECT_EQ(w.lookup(old, 1), nullptr);
  EXPECT_EQ(w.reserve<Piece>(old, 1), Result::StaleHandle);
  EXPECT_EQ(w.destroy(old), Result::StaleHandle);
  EXPECT_EQ(w.queue_destroy(old), Result::StaleHandle);
  EXPECT_EQ(w.move_chunk(old, 0), Result::StaleHandle);
  EXPECT_EQ(w.set_tier(old, Tier::Dormant), Result::StaleHandle);
  ASSERT_TRUE(w.alive(fresh));
  EXPECT_EQ(w.find(fresh)->payload.id, 2u);
  EXPECT_EQ(w.stats<Piece>().taken, 0u);
  // Many generations later an old handle is still rejected, and so is one whose
  // generation agrees with the live one's in its low bits: a back-pointer keeps only
  // kGenerationCheckBits of them, but a handle is checked against the whole generation.
  std::vector<Handle> before{old, fresh};
  Handle cur = fresh;
  for (int i = 0; i < 600; ++i) {
    ASSERT_EQ(w.destroy(cur), Result::Ok);
    cur = w.create(0, Tier(1 + i % 2), 0);
    before.push_back(cur);
  }
  int same_low_bits = 0;
  for (size_t k = 0; k + 1 < before.size(); ++k) {
    const Handle h = before[k];
    ASSERT_EQ(h.index, cur.index);
    same_low_bits += ecs::generation_check(h.generation) == ecs::generation_check(cur.generation);
    EXPECT_FALSE(w.alive(h)) << h.generation;
    EXPECT_EQ(w.find(h), nullptr) << h.generation;
    EXPECT_EQ(w.lookup(h, w.find(cur)->header.chunk), nullptr) << h.generation;
    EXPECT_EQ(w.destroy(h), Result::StaleHandle) << h.generation;
  }
  EXPECT_GE(same_low_bits, 2);  // two earlier generations share the live one's low bits
  EXPECT_TRUE(w.alive(cur));
  EXPECT_EQ(violations(w), "");
}

// A snapshot of a pool's bytes in [0, taken): items and back-pointers.
template <class C>
std::vector<unsigned char> pool_bytes(TestWorld& w) {
  auto& p = w.pool<C>();
  std::vector<unsigned char> out(p.taken() * (sizeof(C) + sizeof(BackPointer)));
  std::memcpy(out.data(), p.items.get(), p.taken() * sizeof(C));
  std::memcpy(out.data() + p.taken() * sizeof(C), p.owners.get(), p.taken() * sizeof(BackPointer));
  return out;
}

// Makes a buffer's whole pages read-only (or writable again). The buffer must start on a
// page, as the engine's mapped buffers (2 MiB and more) do, and its protected pages must
// hold the first `used` bytes: no entry in use is left writable.
void protect_pages(const void* begin, size_t bytes, size_t used, int prot) {
  const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t lo = uintptr_t(begin), hi = (lo + bytes) / page * page;
  ASSERT_EQ(lo % page, 0u) << "a buffer not on a page: its first entries could not be protected";
  ASSERT_GE(hi - lo, used);
  EXPECT_EQ(mprotect(reinterpret_cast<void*>(lo), hi - lo, prot), 0);
}
// Every array of pool C, items and back-pointers.
template <class C>
void protect_pool(TestWorld& w, int prot) {
  auto& p = w.pool<C>();
  protect_pages(p.items.get(), p.capacity() * sizeof(C), p.taken() * sizeof(C), prot);
  protect_pages(p.owners.get(), p.capacity() * sizeof(BackPointer), p.taken() * sizeof(BackPointer), prot);
}

TEST(Entity, TierMovesTouchNoPoolEntry) {
  // Every pool array 2 MiB or more, so that the engine maps it from a page boundary.
  TestWorld w(make_config(64, 300000, 300000, 600000));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 40; ++i) {
    Handle h = w.create(i % 7, i % 2 ? Tier::Dormant : Tier::Simulated, 0, Pos{0, 0, i});
    ASSERT_EQ(give<Piece>(w, h, 1 + i % 30, i * 100), Result::Ok);
    ASSERT_EQ(give<Volume>(w, h, 1 + i % 8, i * 100), Result::Ok);
    ASSERT_EQ(give<Sensor>(w, h, i % 4, i * 100), Result::Ok);
    hs.push_back(h);
  }
  auto before_p = pool_bytes<Piece>(w), before_v = pool_bytes<Volume>(w), before_s = pool_bytes<Sensor>(w);
  PoolCounters before_counts = w.stats<Piece>().total;
  std::vector<std::vector<u32>> before_tags;
  for (Handle h : hs) before_tags.push_back(tags<Piece>(w, h));

  // Every pool page read-only: any write from a tier move would fault.
  protect_pool<Piece>(w, PROT_READ);
  protect_pool<Volume>(w, PROT_READ);
  protect_pool<Sensor>(w, PROT_READ);
  u32 sim_before = w.simulated_count();
  for (Handle h : hs) {
    Tier t = Tier(w.find(h)->header.tier);
    const void* old_addr = w.find(h);
    ASSERT_EQ(w.set_tier(h, t == Tier::Simulated ? Tier::Dormant : Tier::Simulated), Result::Ok);
    EXPECT_NE(static_cast<const void*>(w.find(h)), old_addr);  // the record itself moved
  }
  EXPECT_EQ(w.simulated_count(), 40 - sim_before);
  for (Handle h : hs) ASSERT_EQ(w.set_tier(h, Tier(w.find(h)->header.tier)), Result::Ok);  // no-op
  protect_pool<Piece>(w, PROT_READ | PROT_WRITE);
  protect_pool<Volume>(w, PROT_READ | PROT_WRITE);
  protect_pool<Sensor>(w, PROT_READ | PROT_WRITE);

  EXPECT_EQ(pool_bytes<Piece>(w), before_p);
  EXPECT_EQ(pool_bytes<Volume>(w), before_v);
  EXPECT_EQ(pool_bytes<Sensor>(w), before_s);
  EXPECT_EQ(w.stats<Piece>().total.rewires, before_counts.rewires);
  for (size_t i = 0; i < hs.size(); ++i) {
    const auto* r = w.find(hs[i]);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->payload.id, i);
    EXPECT_EQ(Tier(r->header.tier), i % 2 ? Tier::Simulated : Tier::Dormant);
    EXPECT_EQ(w.lookup(hs[i], u32(i % 7)), r);
    EXPECT_EQ(tags<Piece>(w, hs[i]), before_tags[i]);
  }
  EXPECT_EQ(violations(w), "");
}

TEST(Entity, TierMoveRejectsFree) {
  TestWorld w(make_config(4, 10, 10, 10));
  Handle h = w.create(0, Tier::Simulated, 0);
  EXPECT_EQ(w.set_tier(h, Tier::Free), Result::BadTier);
  EXPECT_EQ(w.set_tier(h, Tier(3)), Result::BadTier);
  EXPECT_EQ(w.store().set_tier(h, Tier(3)), nullptr);
  EXPECT_TRUE(w.alive(h));
  EXPECT_EQ(violations(w), "");
}

TEST(Entity, ChunkMoveMovesDormantRecordAndRewritesEveryBackPointerChunk) {
  TestWorld w(make_config(64, 1000, 1000, 1000));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 10; ++i) {
    Handle h = w.create(4, Tier::Dormant, 0, Pos{0, 0, i});
    ASSERT_EQ(give<Piece>(w, h, 5 + i, i * 100), Result::Ok);
    ASSERT_EQ(w.reserve<Volume>(h, 3), Result::Ok);  // reserved, not added: chunk must follow too
    ASSERT_EQ(give<Sensor>(w, h, 2, i * 100), Result::Ok);
    hs.push_back(h);
  }
  ASSERT_EQ(w.store().dormant(4).count, 10u);
  Handle mover = hs[3];
  const void* old_addr = w.find(mover);
  auto before = tags<Piece>(w, mover);
  ASSERT_EQ(w.move_chunk(mover, 9), Result::Ok);
  EXPECT_NE(static_cast<const void*>(w.find(mover)), old_addr);
  EXPECT_EQ(w.store().dormant(4).count, 9u);
  EXPECT_EQ(w.store().dormant(9).count, 1u);
  EXPECT_EQ(w.lookup(mover, 4), nullptr);
  ASSERT_NE(w.lookup(mover, 9), nullptr);
  EXPECT_EQ(w.find(mover)->payload.id, 3u);
  EXPECT_EQ(tags<Piece>(w, mover), before);
  const auto& rec = *w.find(mover);
  for (u32 k = 0; k < w.list<Piece>(rec).reserved; ++k)
    EXPECT_EQ(w.pool<Piece>().owners[w.list<Piece>(rec).slot[k]].chunk, 9u);
  for (u32 k = 0; k < w.list<Volume>(rec).reserved; ++k)
    EXPECT_EQ(w.pool<Volume>().owners[w.list<Volume>(rec).slot[k]].chunk, 9u);
  for (u32 k = 0; k < w.list<Sensor>(rec).reserved; ++k)
    EXPECT_EQ(w.pool<Sensor>().owners[w.list<Sensor>(rec).slot[k]].chunk, 9u);
  // The others were not disturbed (one of them filled the hole in chunk 4's storage).
  for (Handle h : hs) {
    if (h == mover) continue;
    EXPECT_NE(w.lookup(h, 4), nullptr);
  }
  EXPECT_EQ(violations(w), "");

  // Simulated entities change chunk membership without moving their record.
  Handle sim = w.create(4, Tier::Simulated, 0);
  ASSERT_EQ(give<Piece>(w, sim, 2, 0), Result::Ok);
  const void* sim_addr = w.find(sim);
  ASSERT_EQ(w.move_chunk(sim, 200), Result::Ok);
  EXPECT_EQ(static_cast<const void*>(w.find(sim)), sim_addr);
  EXPECT_EQ(w.store().sim_count_in(4), 0u);
  EXPECT_EQ(w.store().sim_count_in(200), 1u);
  EXPECT_EQ(w.pool<Piece>().owners[slots<Piece>(w, sim).slot[1]].chunk, 200u);
  EXPECT_EQ(w.move_chunk(sim, w.grid().chunk_count()), Result::BadChunk);
  EXPECT_EQ(w.move_chunk(sim, 200), Result::Ok);  // same chunk: nothing to do
  EXPECT_EQ(violations(w), "");
}

TEST(Entity, ChunkMoveThenTierMoveKeepsMembershipStraight) {
  TestWorld w(make_config(64, 1000, 1000, 1000));
  Handle h = w.create(1, Tier::Simulated, 0);
  ASSERT_EQ(give<Piece>(w, h, 4, 0), Result::Ok);
  ASSERT_EQ(w.move_chunk(h, 2), Result::Ok);
  ASSERT_EQ(w.set_tier(h, Tier::Dormant), Result::Ok);
  EXPECT_EQ(w.store().dormant(2).count, 1u);
  EXPECT_EQ(w.store().sim_count_in(2), 0u);
  ASSERT_EQ(w.move_chunk(h, 3), Result::Ok);
  ASSERT_EQ(w.set_tier(h, Tier::Simulated), Result::Ok);
  EXPECT_EQ(w.store().dormant(3).count, 0u);
  EXPECT_EQ(w.store().sim_count_in(3), 1u);
  EXPECT_EQ(tags<Piece>(w, h), (std::vector<u32>{0, 1, 2, 3}));
  EXPECT_EQ(violations(w), "");
}

// A walk's deferred moves applied as one batch: each entity reaches its chunk and tier
// with every back-pointer's chunk rewritten, a stale handle in the batch is skipped, and
// the result is what move_chunk and set_tier one at a time give.
TEST(Entity, MoveChunksAppliesEachMoveAndItsTierInOrder) {
  auto build = [](TestWorld& w, std::vector<Handle>& hs) {
    for (u32 i = 0; i < 40; ++i) {
      Handle h = w.create(i % 5, i % 2 ? Tier::Dormant : Tier::Simulated, 0, Pos{0, 0, i});
      ASSERT_EQ(give<Piece>(w, h, 3 + i % 7, i * 100), Result::Ok);
      ASSERT_EQ(give<Sensor>(w, h, 1 + i % 3, i * 100), Result::Ok);
      hs.push_back(h);
    }
    w.destroy(hs[7]);  // stale by the time its move comes
  };
  TestWorld batched(make_config(64, 1000, 1000, 1000)), single(make_config(64, 1000, 1000, 1000));
  std::vector<Handle> hb, hs1;
  build(batched, hb);
  build(single, hs1);
  // (entity, chunk, tier): every even entity; the destroyed one; entity 2 a second time.
  struct Plan {
    u32 entity, chunk;
    Tier tier;
  };
  std::vector<Plan> plan;
  for (u32 i = 0; i < 40; i += 2) plan.push_back({i, 10 + i, i % 4 ? Tier::Dormant : Tier::Simulated});
  plan.push_back({7, 3, Tier::Dormant});
  plan.push_back({2, 60, Tier::Simulated});
  std::vector<TestWorld::ChunkMove> moves;
  for (const Plan& p : plan) moves.push_back({hb[p.entity], p.chunk, p.tier});
  EXPECT_EQ(batched.move_chunks(moves), u32(plan.size() - 1));
  for (const Plan& p : plan)
    if (single.move_chunk(hs1[p.entity], p.chunk) == Result::Ok) single.set_tier(hs1[p.entity], p.tier);
  for (u32 i = 0; i < 40; i += 2) {
    if (i == 2) continue;
    u32 chunk = 10 + i;
    ASSERT_NE(batched.lookup(hb[i], chunk), nullptr) << "entity " << i;
    EXPECT_EQ(Tier(batched.lookup(hb[i], chunk)->header.tier), i % 4 ? Tier::Dormant : Tier::Simulated)
        << "entity " << i;
    const auto& l = batched.list<Piece>(*batched.find(hb[i]));
    for (u32 k = 0; k < l.reserved; ++k) EXPECT_EQ(batched.pool<Piece>().owners[l.slot[k]].chunk, chunk);
    EXPECT_EQ(tags<Piece>(batched, hb[i]), tags<Piece>(single, hs1[i]));
  }
  ASSERT_NE(batched.lookup(hb[2], 60), nullptr);
  EXPECT_EQ(Tier(batched.find(hb[2])->header.tier), Tier::Simulated);
  EXPECT_FALSE(batched.alive(hb[7]));
  for (u32 c = 0; c < batched.grid().chunk_count(); ++c) {
    EXPECT_EQ(batched.store().dormant(c).count, single.store().dormant(c).count) << "chunk " << c;
    EXPECT_EQ(batched.store().sim_count_in(c), single.store().sim_count_in(c)) << "chunk " << c;
  }
  EXPECT_EQ(violations(batched), "");
}

TEST(Entity, DormantStorageSpansManyBlocks) {
  // 100 records per chunk over 32-record blocks: removals from the middle fill holes
  // from the list's last block and give emptied blocks back.
  TestWorld w(make_config(300, 1000, 1000, 1000));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 100; ++i) hs.push_back(w.create(7, Tier::Dormant, 0, Pos{0, 0, i}));
  u32 free_before = w.store().free_blocks();
  for (u32 i = 0; i < 100; i += 3) ASSERT_EQ(w.destroy(hs[i]), Result::Ok);
  EXPECT_GT(w.store().free_blocks(), free_before);
  for (u32 i = 0; i < 100; ++i) {
    if (i % 3 == 0) continue;
    ASSERT_NE(w.lookup(hs[i], 7), nullptr);
    EXPECT_EQ(w.lookup(hs[i], 7)->payload.id, i);
  }
  EXPECT_EQ(violations(w), "");
}

TEST(Entity, BlockSizeIsRoundedUpToAPowerOfTwo) {
  // A block of 20 records becomes 32 (the store finds a list's last record with a mask):
  // 70 simulated records then need exactly three blocks, and batched and single removals
  // from the middle keep every survivor findable and the storage consistent.
  TestWorld::Config c = make_config(300, 1000, 1000, 1000);
  c.block_records = 20;
  TestWorld w(c);
  EXPECT_EQ(w.store().block_records(), 32u);
  std::vector<Handle> hs;
  for (u32 i = 0; i < 70; ++i) hs.push_back(w.create(5, Tier::Simulated, 0, Pos{0, 0, i}));
  EXPECT_EQ(w.store().total_blocks() - w.store().free_blocks(), 3u);
  std::vector<Handle> batch;
  for (u32 i = 0; i < 70; i += 2) batch.push_back(hs[i]);
  EXPECT_EQ(w.destroy_batch(batch), 35u);
  ASSERT_EQ(w.destroy(hs[1]), Result::Ok);
  EXPECT_EQ(w.store().simulated().count, 34u);
  EXPECT_EQ(w.store().total_blocks() - w.store().free_blocks(), 2u);
  for (u32 i = 3; i < 70; i += 2) {
    ASSERT_NE(w.lookup(hs[i], 5), nullptr) << i;
    EXPECT_EQ(w.lookup(hs[i], 5)->payload.id, i);
  }
  EXPECT_EQ(violations(w), "");
}

// Directory rows are padded to whole cache lines and start on one, also in a world
// small enough for its directory to come from the heap rather than a mapping: the
// batched release prefetches a row's lines by their offsets in the row.
TEST(Entity, DirectoryRowsStartOnACacheLine) {
  for (u32 max : {3u, 100u, 20000u}) {
    TestWorld w(make_config(max, 10, 10, 10));
    EXPECT_EQ(w.store().dir_stride() % 64, 0u) << max;
    for (u32 i : {1u, max}) EXPECT_EQ(reinterpret_cast<uintptr_t>(&w.store().dir(i)) % 64, 0u) << max << " row " << i;
  }
}

}  // namespace
