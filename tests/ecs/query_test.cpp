// query_test.cpp — the chunk grid and the per-chunk queries: entities in a chunk and
// entities within a radius, visiting only the chunks the circle touches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

TEST(ChunkGrid, MapsPositionsToChunksAndClampsOffTheMap) {
  ChunkGrid g = ChunkGrid::make(100, 50, 16);  // partial chunks at the right and bottom
  EXPECT_EQ(g.chunks_x, 7u);
  EXPECT_EQ(g.chunks_y, 4u);
  EXPECT_EQ(g.chunk_at(0, 0), 0u);
  EXPECT_EQ(g.chunk_at(15.99f, 15.99f), 0u);
  EXPECT_EQ(g.chunk_at(16, 0), 1u);
  EXPECT_EQ(g.chunk_at(0, 16), 7u);
  EXPECT_EQ(g.chunk_at(99.5f, 49.5f), 3u * 7 + 6);
  EXPECT_EQ(g.chunk_at(-5, -5), 0u);
  EXPECT_EQ(g.chunk_at(1e9f, 1e9f), g.chunk_count() - 1);
  EXPECT_EQ(g.chunk_at(std::numeric_limits<float>::infinity(), 0), 6u);
  EXPECT_EQ(g.chunk_at(std::nanf(""), std::nanf("")), 0u);
  EXPECT_EQ(g.chunk_of_cell(17, 33), 2u * 7 + 1);
  EXPECT_EQ(g.chunk_col(2 * 7 + 1), 1u);
  EXPECT_EQ(g.chunk_row(2 * 7 + 1), 2u);
  // A chunk size that is not a power of two maps whole cells like chunk_of_cell.
  ChunkGrid h = ChunkGrid::make(100, 100, 10);
  EXPECT_EQ(h.chunk_at(29.9999f, 0), h.chunk_of_cell(29, 0));
  EXPECT_EQ(h.chunk_at(30.f, 0), h.chunk_of_cell(30, 0));
}

// Brute force: which chunks' squares does the circle touch (border chunks reach out to
// infinity)?
std::set<u32> touched_chunks(const ChunkGrid& g, float x, float y, float r) {
  std::set<u32> out;
  for (u32 row = 0; row < g.chunks_y; ++row)
    for (u32 col = 0; col < g.chunks_x; ++col) {
      double lo_x = col == 0 ? -1e30 : double(col) * g.chunk_cells,
             hi_x = col + 1 == g.chunks_x ? 1e30 : double(col + 1) * g.chunk_cells;
      double lo_y = row == 0 ? -1e30 : double(row) * g.chunk_cells,
             hi_y = row + 1 == g.chunks_y ? 1e30 : double(row + 1) * g.chunk_cells;
      double dx = x < lo_x ? lo_x - x : (x > hi_x ? x - hi_x : 0);
      double dy = y < lo_y ? lo_y - y : (y > hi_y ? y - hi_y : 0);
      if (dx * dx + dy * dy <= double(r) * r) out.insert(row * g.chunks_x + col);
    }
  return out;
}

TEST(ChunkGrid, CircleTouchesExactlyTheChunksItOverlaps) {
  ChunkGrid g = ChunkGrid::make(256, 256, 16);
  struct C {
    float x, y, r;
  };
  for (C c : {C{100, 100, 10}, C{8, 8, 0}, C{16, 16, 0.5f}, C{128, 40, 40}, C{0, 0, 300}, C{250, 3, 7}, C{-20, 100, 25},
              C{-20, 100, 15}, C{300, 300, 60}, C{47.9f, 47.9f, 0.2f}}) {
    std::set<u32> got;
    g.for_each_chunk_in_circle(c.x, c.y, c.r,
                               [&](u32 ch) { EXPECT_TRUE(got.insert(ch).second) << "chunk visited twice"; });
    EXPECT_EQ(got, touched_chunks(g, c.x, c.y, c.r)) << c.x << "," << c.y << " r " << c.r;
  }
  // A circle of radius 10 at (104,104) touches the 3x3 block around chunk (6,6) minus the
  // corners (each corner square is sqrt(128) away).
  std::set<u32> got;
  g.for_each_chunk_in_circle(104, 104, 10, [&](u32 ch) { got.insert(ch); });
  EXPECT_EQ(got, (std::set<u32>{5 * 16 + 6, 6 * 16 + 5, 6 * 16 + 6, 6 * 16 + 7, 7 * 16 + 6}));
  // Nonsense radii and centres touch nothing, and never crash.
  u32 n = 0;
  g.for_each_chunk_in_circle(100, 100, -1, [&](u32) { ++n; });
  g.for_each_chunk_in_circle(100, 100, std::nanf(""), [&](u32) { ++n; });
  g.for_each_chunk_in_circle(std::nanf(""), 100, 5, [&](u32) { ++n; });
  EXPECT_EQ(n, 0u);
  g.for_each_chunk_in_circle(100, 100, std::numeric_limits<float>::infinity(), [&](u32) { ++n; });
  EXPECT_EQ(n, g.chunk_count());
}

TEST(Query, ForEachInChunkVisitsBothTiersOfThatChunkOnly) {
  TestWorld w(make_config(100, 10, 10, 10));
  std::set<u32> expect;
  for (u32 i = 0; i < 40; ++i) {
    u32 chunk = i % 4 == 0 ? 9 : i % 4;
    w.create(chunk, i % 2 ? Tier::Dormant : Tier::Simulated, 0, Pos{0, 0, i});
    if (chunk == 9) expect.insert(i);
  }
  std::set<u32> got;
  w.for_each_in_chunk(9, [&](TestWorld::Record& r) {
    EXPECT_TRUE(got.insert(r.payload.id).second);
    EXPECT_EQ(r.header.chunk, 9u);
  });
  EXPECT_EQ(got, expect);
  u32 n = 0;
  w.for_each_in_chunk(10, [&](TestWorld::Record&) { ++n; });
  EXPECT_EQ(n, 0u);
  std::set<u32> dormant;
  w.for_each_dormant_in_chunk(2, [&](TestWorld::Record& r) { dormant.insert(r.payload.id); });
  EXPECT_EQ(dormant.size(), 0u);  // i % 4 == 2 means even i: simulated
  w.for_each_dormant_in_chunk(1, [&](TestWorld::Record& r) { dormant.insert(r.payload.id); });
  EXPECT_EQ(dormant.size(), 10u);
}

// The walk rules (world.h): an entity created during a walk is not visited by it, in
// either tier, also by the per-chunk walks, which walk two lists.
TEST(Query, EntitiesCreatedDuringAChunkWalkAreNotVisited) {
  TestWorld w(make_config(100, 10, 10, 10));
  for (u32 i = 0; i < 6; ++i) w.create(9, i % 2 ? Tier::Dormant : Tier::Simulated, 0, Pos{0, 0, i});
  u32 visited = 0;
  w.for_each_in_chunk(9, [&](TestWorld::Record& r) {
    ++visited;
    if (r.payload.id < 100) {
      w.create(9, Tier::Simulated, 0, Pos{0, 0, 100 + r.payload.id});
      w.create(9, Tier::Dormant, 0, Pos{0, 0, 200 + r.payload.id});
    }
  });
  EXPECT_EQ(visited, 6u);
  u32 after = 0;
  w.for_each_in_chunk(9, [&](TestWorld::Record&) { ++after; });
  EXPECT_EQ(after, 18u);
  EXPECT_EQ(violations(w), "");
}

TEST(ChunkGrid, ChunkCountsRoundUpWithoutWrapping) {
  // 2^32 - 1 cells in chunks of 2^30: four chunks, the last one partial (a 32-bit sum of
  // cells and chunk side wrapped to one).
  ChunkGrid g = ChunkGrid::make(0xFFFFFFFFu, 1, 1u << 30);
  EXPECT_EQ(g.chunks_x, 4u);
  EXPECT_EQ(g.chunks_y, 1u);
  EXPECT_EQ(g.chunk_of_cell(0xFFFFFFFEu, 0), 3u);
  // A position past 2^32 cells but inside the last chunk's rounded-up span (2^32 - 1 cells
  // in chunks of 3 x 2^30: two chunks reaching 6 x 2^30) is in the last chunk; a 32-bit
  // conversion of the position wrapped it into the first.
  ChunkGrid wide = ChunkGrid::make(0xFFFFFFFFu, 1, 3u << 30);
  ASSERT_EQ(wide.chunks_x, 2u);
  EXPECT_EQ(wide.chunk_at(5e9f, 0), 1u);
  EXPECT_EQ(wide.chunk_at(4.3e9f, 0), 1u);
  EXPECT_EQ(wide.chunk_at(1e9f, 0), 0u);
}

TEST(Query, ForEachInRadiusFindsJustInsideNotJustOutside) {
  TestWorld w(make_config(200, 10, 10, 10));
  const float cx = 100, cy = 100, r = 10;
  std::set<u32> expect;
  u32 id = 0;
  auto put = [&](float x, float y, Tier t, bool inside) {
    w.create_at(t, 0, Pos{x, y, id});
    if (inside) expect.insert(id);
    ++id;
  };
  for (int k = 0; k < 16; ++k) {
    float a = float(k) * 0.3927f;
    Tier t = k % 2 ? Tier::Dormant : Tier::Simulated;
    put(cx + 9.9f * std::cos(a), cy + 9.9f * std::sin(a), t, true);     // just inside
    put(cx + 10.1f * std::cos(a), cy + 10.1f * std::sin(a), t, false);  // just outside
  }
  put(cx, cy, Tier::Simulated, true);
  put(cx + 10, cy, Tier::Dormant, true);  // exactly on the circle counts
  for (float far : {5.f, 30.f, 200.f}) put(far, far, Tier::Simulated, false);
  std::set<u32> got;
  w.for_each_in_radius(cx, cy, r, [&](TestWorld::Record& rec) { EXPECT_TRUE(got.insert(rec.payload.id).second); });
  EXPECT_EQ(got, expect);
}

TEST(Query, ForEachInRadiusNeverLooksAtChunksTheCircleMisses) {
  // An entity filed under a far chunk but whose position lies inside the circle: a query
  // that scanned every entity would report it; one that visits only the touched chunks
  // cannot see it.
  TestWorld w(make_config(100, 10, 10, 10));
  Handle near_ok = w.create_at(Tier::Simulated, 0, Pos{100, 100, 1});
  Handle far_sim = w.create(w.grid().chunk_at(240, 240), Tier::Simulated, 0, Pos{101, 101, 2});
  Handle far_dormant = w.create(w.grid().chunk_at(5, 240), Tier::Dormant, 0, Pos{99, 99, 3});
  ASSERT_FALSE(far_sim.is_null());
  ASSERT_FALSE(far_dormant.is_null());
  std::set<u32> got;
  w.for_each_in_radius(100, 100, 10, [&](TestWorld::Record& rec) { got.insert(rec.payload.id); });
  EXPECT_EQ(got, (std::set<u32>{1}));
  // Filed under the right chunk they are found.
  ASSERT_EQ(w.move_chunk(far_sim, w.grid().chunk_at(101, 101)), Result::Ok);
  ASSERT_EQ(w.move_chunk(far_dormant, w.grid().chunk_at(99, 99)), Result::Ok);
  got.clear();
  w.for_each_in_radius(100, 100, 10, [&](TestWorld::Record& rec) { got.insert(rec.payload.id); });
  EXPECT_EQ(got, (std::set<u32>{1, 2, 3}));
  EXPECT_TRUE(w.alive(near_ok));
}

TEST(Query, QueueDestroyFromARadiusQueryIsSafe) {
  // The bomb: kill everything in a circle while walking it; applied afterwards.
  TestWorld w(make_config(3000, 40000, 10, 10));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 2500; ++i) {
    float x = float((i * 37) % 256) + 0.5f, y = float((i * 101) % 256) + 0.5f;
    Handle h = w.create_at(i % 3 ? Tier::Simulated : Tier::Dormant, 0, Pos{x, y, i});
    ASSERT_EQ(give<Piece>(w, h, 1 + i % 12, i), Result::Ok);
    hs.push_back(h);
  }
  u32 hit = 0;
  w.for_each_in_radius(128, 128, 60, [&](TestWorld::Record& r) {
    ASSERT_EQ(w.queue_destroy(r.header.handle), Result::Ok);
    ++hit;
  });
  EXPECT_GT(hit, 100u);
  EXPECT_EQ(w.apply_destructions(), hit);
  for (u32 i = 0; i < hs.size(); ++i) {
    float x = float((i * 37) % 256) + 0.5f - 128, y = float((i * 101) % 256) + 0.5f - 128;
    EXPECT_EQ(w.alive(hs[i]), x * x + y * y > 3600.f) << i;
  }
  EXPECT_EQ(violations(w), "");
}

}  // namespace
