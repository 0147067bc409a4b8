// test_world.h — the small world the engine tests run on: three pools shaped like the
// game's (32 pieces, 8 volumes, 4 sensors per entity), a positioned payload, and helpers
// that read an entity's components back in order.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "world.h"

namespace ecs {
// GoogleTest prints results by name.
inline void PrintTo(Result r, std::ostream* os) { *os << result_name(r); }
inline void PrintTo(ReleaseStrategy s, std::ostream* os) {
  *os << (s == ReleaseStrategy::TailFill ? "TailFill" : s == ReleaseStrategy::Compact ? "Compact" : "Auto");
}

// What the tests reach behind the interfaces: the batched release's scratch bitmaps,
// which must be all zero between releases, and the storage's block links.
struct WorldTestAccess {
  template <class C, class W>
  static u64* dead_bits(W& w) {
    return w.dead_bits_[W::template index_of<C>()].get();
  }
  static u64* dead_places(EntityStore& s) { return s.dead_places_.get(); }
  static size_t dead_place_words(const EntityStore& s) { return s.dead_place_words(); }
  // The block chains' links, for the validator tests to break.
  static u32* block_next(EntityStore& s) { return s.block_next_.get(); }
};
}  // namespace ecs

namespace ecs_test {

using namespace ecs;

// Every component carries a tag so a test can tell which one sits where.
// Default member initialisers on purpose: the game's components have them too.
struct Piece {
  u32 tag = 0;
  float x = 0, y = 0, size = 1;
  u32 color = 0xFFFFFFFFu;
  u16 sprite = 0;
  u8 part = 0, side = 0;
  static constexpr u32 kMaxPerEntity = 32;
  static constexpr const char* kPoolName = "pieces";
};
struct Volume {
  u32 tag = 0;
  float radius = 0.5f;
  static constexpr u32 kMaxPerEntity = 8;
  static constexpr const char* kPoolName = "volumes";
};
struct Sensor {
  u32 tag = 0;
  static constexpr u32 kMaxPerEntity = 4;
  static constexpr const char* kPoolName = "sensors";
};

struct Pos {
  float x = 0, y = 0;
  u32 id = 0;
};

using TestWorld = World<Pos, Piece, Volume, Sensor>;

// A 256 x 256 cell map in 16-cell chunks (16 x 16 = 256 chunks).
inline TestWorld::Config make_config(u32 max_entities, u32 pieces, u32 volumes, u32 sensors, u32 cells = 256,
                                     u32 chunk_cells = 16) {
  TestWorld::Config c;
  c.max_entities = max_entities;
  c.grid = ChunkGrid::make(cells, cells, chunk_cells);
  c.pool_capacity.of<Piece>() = pieces;
  c.pool_capacity.of<Volume>() = volumes;
  c.pool_capacity.of<Sensor>() = sensors;
  // Every queued batch takes the batched release, which these tests are about, in worlds
  // far smaller than small_world_bytes; the one-at-a-time path for small batches and small
  // worlds has its own tests (SmallBatchesReleaseOneAtATime, ASmallWorldReleasesOneAtATime).
  c.swap_release_max = 0;
  c.small_world_bytes = 0;
  return c;
}

// The tags of h's added components in pool C, in local order.
template <class C, class W>
std::vector<u32> tags(W& w, Handle h) {
  std::vector<u32> out;
  auto* r = w.find(h);
  if (!r) return out;
  w.template for_each_component<C>(*r, [&](u32, const C& c) { out.push_back(c.tag); });
  return out;
}

template <class C, class W>
const SlotList<C::kMaxPerEntity>& slots(W& w, Handle h) {
  return w.template list<C>(*w.find(h));
}

// Reserves n and adds n components tagged base, base+1, ...
template <class C, class W>
Result give(W& w, Handle h, u32 n, u32 base) {
  Result r = w.template reserve<C>(h, n);
  if (r != Result::Ok) return r;
  for (u32 i = 0; i < n; ++i) {
    C c{};
    c.tag = base + i;
    if (Result a = w.template add<C>(h, c); a != Result::Ok) return a;
  }
  return Result::Ok;
}

// All violations as one string (empty when the world is consistent), for EXPECT_EQ.
template <class W>
std::string violations(const W& w) {
  std::string s;
  for (const Violation& v : w.validate()) s += describe(v) + "\n";
  return s;
}

}  // namespace ecs_test
