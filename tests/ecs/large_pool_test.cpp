// large_pool_test.cpp — a world with pools of 16,000,000+ entries: address space is taken
// up front, pages are committed only as the pools fill, and the operations work at the
// far end of the index range.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

// Resident set size of this process in bytes (0 when /proc is unavailable).
size_t resident_bytes() {
  long pages = 0, resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  int got = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return got == 2 ? size_t(resident) * size_t(sysconf(_SC_PAGESIZE)) : 0;
}

constexpr u32 kBig = 16'000'000;

TEST(LargePool, SixteenMillionEntriesPerPool) {
  size_t rss_before = resident_bytes();
  TestWorld w(make_config(200'000, kBig, kBig, kBig));
  size_t rss_empty = resident_bytes();
  EXPECT_EQ(w.stats<Piece>().capacity, kBig);
  EXPECT_EQ(w.stats<Volume>().capacity, kBig);
  (void)rss_before;
  (void)rss_empty;
#if !defined(__SANITIZE_ADDRESS__)
  // Pools alone are 16M * (24 + 8) + 16M * (8 + 8) + 16M * (4 + 8) bytes = ~1 GB of
  // address space; an empty world must not have touched it.
  if (rss_before && rss_empty) {
    EXPECT_LT(std::int64_t(rss_empty) - std::int64_t(rss_before), std::int64_t(64) << 20);
  }
#endif

  // ~3.2M pieces over 100,000 entities, the first half added.
  std::vector<Handle> hs;
  for (u32 i = 0; i < 100'000; ++i) {
    Handle h = w.create(i % w.grid().chunk_count(), i % 4 ? Tier::Dormant : Tier::Simulated, 0, Pos{0, 0, i});
    ASSERT_FALSE(h.is_null());
    ASSERT_EQ(w.reserve<Piece>(h, 32), Result::Ok);
    if (i < 50'000)
      for (u32 k = 0; k < 32; ++k) w.add<Piece>(h, Piece{.tag = i * 32 + k});
    hs.push_back(h);
  }
  EXPECT_EQ(w.stats<Piece>().taken, 3'200'000u);
  EXPECT_EQ(w.stats<Piece>().reserved_unused, 1'600'000u);

  // Removal far into the pool rewires across millions of entries.
  ASSERT_EQ(w.remove_one<Piece>(hs[10], 5), Result::Ok);
  EXPECT_EQ(w.stats<Piece>().taken, 3'199'999u);
  auto t = tags<Piece>(w, hs[10]);
  ASSERT_EQ(t.size(), 31u);
  EXPECT_EQ(t[5], 10u * 32 + 6);
  // A mass death of a tenth of the entities, batched.
  for (u32 i = 0; i < hs.size(); i += 10) ASSERT_EQ(w.queue_destroy(hs[i]), Result::Ok);
  EXPECT_EQ(w.apply_destructions(), 10'000u);
  // hs[10] (31 pieces left) is among the dead: 3,199,999 - 9,999 * 32 - 31.
  EXPECT_EQ(w.stats<Piece>().taken, 2'880'000u);
  auto t2 = tags<Piece>(w, hs[11]);
  ASSERT_EQ(t2.size(), 32u);
  EXPECT_EQ(t2[31], 11u * 32 + 31);
  EXPECT_EQ(violations(w), "");
}

// Minor page faults of this process so far.
long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// A mass release works in scratch committed when the world was made: the first dense
// batch of a large world faults in no page of its own (lazily committed, the sort's two
// buffers of a handle per directory entry would be faulted in by the first 50 % kill:
// about a fifth of its time in a million-ant world).
TEST(LargePool, TheFirstMassReleaseFaultsInNoPage) {
  // A small world's dense batch first: the release's own stack (the sort's digit counts)
  // is touched once per thread, whatever the world.
  {
    TestWorld small(make_config(1'000, 1'000, 100, 100));
    std::vector<Handle> some;
    for (u32 i = 0; i < 1'000; ++i) some.push_back(small.create(0, Tier::Simulated, 0, Pos{0, 0, i}));
    some.resize(600);
    ASSERT_EQ(small.destroy_batch(some), 600u);
  }
  TestWorld w(make_config(600'000, 600'000, 1'000, 1'000));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 300'000; ++i) {
    Handle h = w.create(i % w.grid().chunk_count(), Tier::Simulated, 0, Pos{0, 0, i});
    ASSERT_FALSE(h.is_null());
    ASSERT_EQ(w.reserve<Piece>(h, 1), Result::Ok);
    ASSERT_EQ(w.add<Piece>(h, Piece{.tag = i}), Result::Ok);
    hs.push_back(h);
  }
  std::vector<Handle> half;
  for (u32 i = 0; i < hs.size(); i += 2) half.push_back(hs[i]);
  const long before = minor_faults();
  const u32 died = w.destroy_batch(half);
  const long faults = minor_faults() - before;
  EXPECT_EQ(died, 150'000u);
  // The sort's two buffers of a handle per directory entry fault in over two thousand
  // pages when they are not committed with the world; the kernel may fault a few pages
  // of its own (its count is not the release's), so the bound is a few dozen.
  EXPECT_LT(faults, 32) << "the release faulted in pages";
  EXPECT_EQ(violations(w), "");
}

}  // namespace
