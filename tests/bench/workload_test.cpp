// workload_test.cpp — the iterate benchmarks' work per piece (bench/workload.h) does what
// it says: each piece's offset moves by its size times dt and its rotation by a fixed step,
// its other fields stay; a long run (taken four pieces a step) and short runs (rolled)
// leave the same bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "workload.h"

namespace {

using colony::RenderPiece;

// n pieces whose widths sweep the whole range (-8..8 cells) and whose height is 6 cells:
// a size past two cells is where a 16-bit product of size and step wraps.
std::vector<RenderPiece> sweep(ecs::u32 n) {
  std::vector<RenderPiece> pieces(n);
  for (ecs::u32 k = 0; k < n; ++k) {
    RenderPiece& p = pieces[k];
    p.color = 0xFF102030u + k;
    p.set_offset(0.5f, -0.25f);
    p.set_size(-7.9f + 15.8f * float(k) / float(n - 1), 6.0f);
    p.set_rotation(0.3f);
    p.sprite = ecs::u8(k);
  }
  return pieces;
}

// Within a unit and a half (1/2731 of a cell): the product's high half rounds down, and dt
// in whole 65536ths is off by up to one of them, a tenth of a unit at the largest size.
constexpr double kUnitsOff = 1.5;

TEST(IterateWork, EachPieceMovesBySizeTimesDtAcrossTheWholeRangeOfSizes) {
  std::vector<RenderPiece> pieces = sweep(2 * bench::kUnrolledRun + 3);
  const std::vector<RenderPiece> before = pieces;
  bench::move_pieces(pieces.data(), ecs::u32(pieces.size()), bench::kDt);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const RenderPiece &a = pieces[k], &b = before[k];
    SCOPED_TRACE(testing::Message() << "piece " << k << ", width " << b.width_units << " units");
    EXPECT_NEAR(a.x_units, b.x_units + b.width_units * bench::kDt, kUnitsOff);
    EXPECT_NEAR(a.y_units, b.y_units + b.height_units * bench::kDt, kUnitsOff);
    EXPECT_EQ(ecs::u16(a.turn_units - b.turn_units), ecs::u16(bench::kDt * 1024.0f));
    EXPECT_EQ(a.color, b.color);
    EXPECT_EQ(a.width_units, b.width_units);
    EXPECT_EQ(a.height_units, b.height_units);
    EXPECT_EQ(a.sprite, b.sprite);
    EXPECT_EQ(a.part, b.part);
  }
}

TEST(IterateWork, ALongRunAndShortRunsMoveEveryPieceAlike) {
  const ecs::u32 n = 3 * bench::kUnrolledRun + 1, short_run = 13;
  std::vector<RenderPiece> whole = sweep(n), in_pieces = whole;
  bench::move_pieces(whole.data(), n, bench::kDt);
  for (ecs::u32 i = 0; i < n; i += short_run) bench::move_pieces(&in_pieces[i], std::min(short_run, n - i), bench::kDt);
  EXPECT_EQ(std::memcmp(whole.data(), in_pieces.data(), n * sizeof(RenderPiece)), 0);
}

}  // namespace
