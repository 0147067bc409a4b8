// no_alloc_test.cpp — proves the hot operations never touch the heap. This binary replaces
// the global operator new/delete (and, outside sanitizer builds, malloc and friends) with
// counting versions; after the world is built, a full workload of create, reserve, add,
// remove_one, release_all, destroy, queue_destroy, apply_destructions, release_batch,
// destroy_batch (small and large), move_chunk, move_chunks and set_tier must not allocate once.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "test_world.h"

// [SECTION] Counting allocator

namespace {
std::atomic<unsigned long> g_allocations{0};
std::atomic<bool> g_counting{false};
void note_allocation() {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}
void* checked(void* p) {
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) { note_allocation(); return checked(std::malloc(n ? n : 1)); }
void* operator new[](std::size_t n) { note_allocation(); return checked(std::malloc(n ? n : 1)); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { note_allocation(); return std::malloc(n ? n : 1); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { note_allocation(); return std::malloc(n ? n : 1); }
void* operator new(std::size_t n, std::align_val_t a) {
  note_allocation();
  std::size_t al = std::size_t(a);
  return checked(std::aligned_alloc(al, (n + al - 1) / al * al));
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

#if !defined(COLONY_NO_MALLOC_HOOK) && !defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__)
// The engine takes its big arrays with calloc, so malloc and friends are counted too:
// they forward to glibc's own entry points. (Sanitizer builds keep their own allocator.)
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
void* malloc(std::size_t n) { note_allocation(); return __libc_malloc(n); }
void* calloc(std::size_t n, std::size_t s) { note_allocation(); return __libc_calloc(n, s); }
void* realloc(void* p, std::size_t n) { note_allocation(); return __libc_realloc(p, n); }
void free(void* p) { __libc_free(p); }
}
constexpr bool kCountsMalloc = true;
#else
constexpr bool kCountsMalloc = false;
#endif

using namespace ecs_test;

namespace {

// Counts allocations between construction and count().
struct AllocationWatch {
  unsigned long start;
  AllocationWatch() : start(g_allocations.load()) { g_counting = true; }
  ~AllocationWatch() { g_counting = false; }
  unsigned long count() const { return g_allocations.load() - start; }
};

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

TEST(NoAlloc, HotOperationsNeverAllocate) {
  // Batches of up to 16 go one entity at a time, larger ones through the batch passes.
  TestWorld::Config config = make_config(4000, 60000, 20000, 8000);
  config.swap_release_max = 16;
  TestWorld w(config);
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
    for (u32 i = 1; i < hs.size(); i += 4) moves.push_back({hs[i], (hs[i].index * 5) % 256, i % 8 == 1 ? Tier::Simulated : Tier::Dormant});
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
}

}  // namespace
