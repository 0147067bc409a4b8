// lookahead_test.cpp — the cursor the batched release's fills run ahead of their moves:
// every position handed out once, in order, each found its distance before its turn.
#include "lookahead.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

#include "bits.h"

namespace {

using ecs::u32;
using ecs::u64;

// Finds 0, 1, ..., n - 1, counting in *found how many it has found.
struct Counter {
  u32 n;
  u32* found;
  bool operator()(u32& pos) {
    if (*found == n) return false;
    pos = (*found)++;
    return true;
  }
};

TEST(Lookahead, HandsOutEveryPositionInOrderEachFoundItsDistanceBefore) {
  constexpr std::size_t kAhead = 8;
  constexpr u32 kCount = 100;
  u32 found = 0;
  std::array<u32, kAhead> ring;
  auto cursor = ecs::lookahead(ring, Counter{kCount, &found});
  EXPECT_EQ(found, kAhead);  // the constructor runs the cursor kAhead ahead
  u32 expected = 0;
  for (u32 pos; cursor.next(pos); ++expected) {
    EXPECT_EQ(pos, expected);
    // When position k is handed out, the cursor has found k + kAhead (or all there are).
    EXPECT_EQ(found, std::min<u32>(pos + 1 + kAhead, kCount));
  }
  EXPECT_EQ(expected, kCount);
  u32 pos = 12345;
  EXPECT_FALSE(cursor.next(pos));
  EXPECT_EQ(pos, 12345u);
}

TEST(Lookahead, FewerPositionsThanItsDistance) {
  u32 found = 0;
  std::array<u32, 16> ring;
  auto cursor = ecs::lookahead(ring, Counter{3, &found});
  std::vector<u32> out;
  for (u32 pos; cursor.next(pos);) out.push_back(pos);
  EXPECT_EQ(out, (std::vector<u32>{0, 1, 2}));
}

TEST(Lookahead, NothingToFind) {
  u32 found = 0;
  std::array<u32, 4> ring;
  auto cursor = ecs::lookahead(ring, Counter{0, &found});
  u32 pos;
  EXPECT_FALSE(cursor.next(pos));
  EXPECT_EQ(found, 0u);
}

// The tail fill's use: the set bits of a bitmap in [from, end), through the ring, are
// exactly the bitmap's set bits there, lowest first.
TEST(Lookahead, OverABitmapYieldsItsSetBitsInOrder) {
  std::array<u64, 8> bits{};
  std::vector<u32> set = {3, 4, 5, 63, 64, 65, 130, 200, 201, 202, 203, 204, 300, 511};
  for (u32 s : set) ecs::set_bit(bits.data(), s);
  const u32 from = 4, end = 302;
  ecs::SetBits walk{bits.data(), from, end};
  std::array<u32, 4> ring;
  auto cursor = ecs::lookahead(ring, [&](u32& pos) { return walk.next(pos); });
  std::vector<u32> out;
  for (u32 pos; cursor.next(pos);) out.push_back(pos);
  std::vector<u32> expected;
  for (u32 s : set)
    if (s >= from && s < end) expected.push_back(s);
  EXPECT_EQ(out, expected);
}

}  // namespace
