// index_sort_test.cpp — the radix sort that orders a dense batch of victims by directory
// index: sorted, stable, nothing lost or added, for one, two and three passes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "index_sort.h"

namespace ecs {
namespace {

// Sorts n handles of indices below 2^bits (the generation numbers them in input order,
// so stability shows) and checks the result against std::stable_sort.
void expect_sorted(u32 n, u32 bits, u32 distinct, u64 seed) {
  std::mt19937_64 rng(seed);
  std::vector<Handle> batch(n);
  const u32 top = bits >= 32 ? ~0u : (1u << bits) - 1;
  std::vector<u32> indices(distinct);
  for (u32& i : indices) i = u32(rng() % (u64(top) + 1));
  for (u32 k = 0; k < n; ++k) batch[k] = Handle{indices[rng() % distinct], k};
  std::vector<Handle> a(n), b(n);
  std::span<const Handle> sorted = sort_by_index(batch, bits, {a.data(), b.data()});
  ASSERT_EQ(sorted.size(), n);
  ASSERT_TRUE(sorted.data() == a.data() || sorted.data() == b.data());
  std::vector<Handle> want = batch;
  std::stable_sort(want.begin(), want.end(), [](Handle x, Handle y) { return x.index < y.index; });
  EXPECT_TRUE(std::equal(want.begin(), want.end(), sorted.begin())) << n << " handles, " << bits << " bits";
}

TEST(IndexSort, OnePassTwoPassesAndThree) {
  for (u32 bits : {1u, 11u, 12u, 22u, 23u, 28u}) {
    SCOPED_TRACE(bits);
    expect_sorted(5000, bits, 5000, bits);
    expect_sorted(5000, bits, 7, bits + 100);  // many equal indices: stability
  }
}

TEST(IndexSort, EmptyAndSingle) {
  expect_sorted(0, 20, 1, 1);
  expect_sorted(1, 20, 1, 2);
}

}  // namespace
}  // namespace ecs
