// no_alloc_test.cpp — proves the hot operations never touch the heap. This binary replaces
// the global operator new/delete (and, outside sanitizer builds, malloc and friends) with
// counting versions; after the world is built, a full workload of create, reserve, add,
// remove_one, release_all, destroy, queue_destroy, apply_destructions, release_batch,
// destroy_batch (small and large), move_chunk, move_chunks and set_tier must not allocate once.
#include <gtest/gtest.h>

#include <vector>

#include "../common/counting_allocator.h"
#include "test_world.h"

using namespace ecs_test;

namespace {

TEST(NoAlloc, TheCounterSeesAllocations) {
  // The test below could not fail if the counter were blind.
  AllocationWatch watch;
  auto* p = new int(7);
  std::vector<int> v(100);
  delete p;
  EXPECT_GE(watch.count(), 2u);
  if (kCountsMalloc) {
    unsigned long before = watch.count();
    void* m = std::malloc(64);
    void* c = std::calloc(8, 8);
    std::free(m);
    std::free(c);
    EXPECT_EQ(watch.count(), before + 2);
  }
}

// The workload below, with the release journal off or on. Its rings are small on purpose:
// they wrap many times, and the large batches overflow the step ring (dropped steps counted).
void hot_operations_never_allocate(bool journal) {
  // Batches of up to 16 go one entity at a time, larger ones through the batch passes.
  TestWorld::Config config = make_config(4000, 60000, 20000, 8000);
  config.swap_release_max = 16;
  config.journal_steps = 1 << 14;
  config.journal_victims = 1024;
  config.journal_releases = 32;
  TestWorld w(config);
  ASSERT_EQ(w.set_journal(journal), journal);
  // Scratch for the checks, sized before counting starts.
  std::vector<Handle> hs;
  hs.reserve(4000);
  std::vector<Handle> batch;
  batch.reserve(4000);
  std::vector<TestWorld::ChunkMove> moves;
  moves.reserve(4000);
  unsigned long bad = 0;  // operations that did not return Ok where they should
  auto ok = [&](Result r) { bad += r != Result::Ok; };

  AllocationWatch watch;
  for (u32 round = 0; round < 3; ++round) {
    // create + reserve + add, both tiers, all pools
    for (u32 i = 0; i < 1500; ++i) {
      Handle h = w.create(i % 256, i % 3 ? Tier::Simulated : Tier::Dormant, 1, Pos{float(i % 256), float(i / 8), i});
      bad += h.is_null();
      ok(w.reserve<Piece>(h, 16));
      for (u32 k = 0; k < 12; ++k) ok(w.add<Piece>(h, Piece{.tag = k}));
      ok(w.reserve<Volume>(h, 3));
      for (u32 k = 0; k < 3; ++k) ok(w.add<Volume>(h, Volume{.tag = k}));
      ok(w.reserve<Sensor>(h, 2));
      ok(w.add<Sensor>(h, Sensor{.tag = 1}));
      hs.push_back(h);
    }
    // refused operations do not allocate either
    bad += w.reserve<Piece>(hs[0], 20) != Result::EntityMaxReached;
    bad += w.add<Volume>(hs[0], Volume{}) != Result::NoReservedSlot;
    bad += w.reserve<Piece>(Handle{}, 1) != Result::StaleHandle;
    // remove one, moves, tiers
    for (u32 i = 0; i < hs.size(); i += 2) {
      ok(w.remove_one<Piece>(hs[i], 3));
      ok(w.move_chunk(hs[i], (hs[i].index * 7) % 256));
      ok(w.set_tier(hs[i], i % 4 ? Tier::Dormant : Tier::Simulated));
    }
    for (u32 i = 1; i < hs.size(); i += 5) ok(w.release_all<Volume>(hs[i]));
    // deferred moves, applied in one call
    moves.clear();
    for (u32 i = 1; i < hs.size(); i += 4)
      moves.push_back({hs[i], (hs[i].index * 5) % 256, i % 8 == 1 ? Tier::Simulated : Tier::Dormant});
    bad += w.move_chunks(moves) != moves.size();
    // immediate batches: a small one (one entity at a time), then a large one
    batch.clear();
    for (u32 i = 1; i < 160; i += 16) batch.push_back(hs[i]);
    bad += w.destroy_batch(batch) != batch.size();
    batch.clear();
    for (u32 i = 3; i < hs.size(); i += 16) batch.push_back(hs[i]);
    bad += w.destroy_batch(batch) != batch.size();
    // deferred destruction during iteration, applied as one batch
    w.for_each_simulated([&](TestWorld::Record& r) {
      if (r.payload.id % 3 == 0) ok(w.queue_destroy(r.header.handle));
    });
    w.for_each_in_radius(128, 100, 40, [&](TestWorld::Record& r) {
      if (!w.dying(r.header.handle)) ok(w.queue_destroy(r.header.handle));
    });
    w.apply_destructions();
    // direct batched release, both ways
    batch.clear();
    for (u32 i = 0; i < hs.size(); i += 3) batch.push_back(hs[i]);
    w.release_batch<Piece>(batch, ReleaseStrategy::TailFill);
    w.release_batch<Volume>(batch, ReleaseStrategy::Compact);
    w.release_batch<Sensor>(batch);
    // immediate destruction of the rest
    for (Handle h : hs)
      if (w.alive(h)) ok(w.destroy(h));
    hs.clear();
    w.begin_tick();
  }
  EXPECT_EQ(watch.count(), 0u);
  EXPECT_EQ(bad, 0u);
  EXPECT_EQ(w.live_count(), 0u);
  EXPECT_EQ(violations(w), "");  // the validator may allocate: after the watch
  if (!journal) {
    EXPECT_EQ(w.journal().release_count(), 0u);
    return;
  }
  EXPECT_GT(w.journal().release_count(), 6000u);  // every release journaled, the rings wrapped
}

TEST(NoAlloc, HotOperationsNeverAllocate) { hot_operations_never_allocate(false); }
TEST(NoAlloc, HotOperationsNeverAllocateWithTheJournalOn) { hot_operations_never_allocate(true); }

}  // namespace
