// debug_data_test.cpp — the debugger's panel data against the engine: a ColonyEcs is
// populated directly (tiles, workers, a queen, food), a mass death is applied, and what the
// Pools, Pool map, Inspector and Chunks panels are given is compared with the engine's own
// stats, slot lists and chunk storage.
#include <gtest/gtest.h>

#include <set>

#include <map>
#include <memory>

#include "debug_data.h"

namespace colony {
namespace {

struct Populated {
  std::unique_ptr<ColonyEcs> ecs;
  std::vector<Handle> entities;
  std::map<Handle, Kind, bool (*)(Handle, Handle)> kinds{
      [](Handle a, Handle b) { return a.index != b.index ? a.index < b.index : a.generation < b.generation; }};
};

// Gives h `added` components of pool C (and `reserved - added` empty reserved slots).
template <class C>
void give(ColonyEcs& ecs, Handle h, u32 reserved, u32 added, float tag) {
  ASSERT_EQ(ecs.reserve<C>(h, reserved), ecs::Result::Ok);
  for (u32 k = 0; k < added; ++k) {
    C c{};
    if constexpr (std::is_same_v<C, RenderPiece>) c.set_offset(tag + 0.01f * float(k), 0);
    else if constexpr (requires { c.offset_x; }) c.offset_x = tag + 0.01f * float(k);
    else c.angle = tag + 0.01f * float(k);
    ASSERT_EQ(ecs.add<C>(h, c), ecs::Result::Ok);
  }
}

Handle make(Populated& p, Kind kind, float x, float y, ecs::Tier tier, u32 pieces, u32 pieces_added, u32 volumes,
            u32 sensors) {
  Body b;
  b.x = x;
  b.y = y;
  b.kind = kind;
  Handle h = p.ecs->create_at(tier, u16(kind), b);
  EXPECT_FALSE(h.is_null());
  give<RenderPiece>(*p.ecs, h, pieces, pieces_added, float(h.index));
  if (volumes) give<CollisionVolume>(*p.ecs, h, volumes, volumes, float(h.index));
  if (sensors) give<Sensor>(*p.ecs, h, sensors, sensors, float(h.index));
  p.entities.push_back(h);
  p.kinds[h] = kind;
  return h;
}

// 64 x 64 cells in 16-cell chunks: 300 tiles (dormant), 200 workers and 40 soldiers
// (simulated), a queen, 5 food sources; then every third worker dies in one batch.
Populated populate() {
  Populated p;
  ColonyEcs::Config c;
  c.max_entities = 2000;
  c.grid = ecs::ChunkGrid::make(64, 64, 16);
  c.pool_capacity.of<RenderPiece>() = 20000;
  c.pool_capacity.of<CollisionVolume>() = 3000;
  c.pool_capacity.of<Sensor>() = 2000;
  c.small_world_bytes = 0;  // a world this small would release every batch one at a time
  p.ecs = std::make_unique<ColonyEcs>(c);
  ColonyEcs& ecs = *p.ecs;
  for (u32 i = 0; i < 300; ++i)
    make(p, Kind::Tile, float(i % 64) + 0.5f, float(i / 64) + 0.5f, ecs::Tier::Dormant, 1, 1, 0, 0);
  std::vector<Handle> workers;
  for (u32 i = 0; i < 200; ++i)
    workers.push_back(make(p, Kind::Worker, float(i % 50), 20.0f + float(i % 40), ecs::Tier::Simulated, 12, 11, 2, 3));
  for (u32 i = 0; i < 40; ++i)
    make(p, Kind::Soldier, 40.0f + float(i % 20), 30.0f + float(i), ecs::Tier::Simulated, 15, 15, 3, 2);
  make(p, Kind::Queen, 32, 32, ecs::Tier::Simulated, 30, 30, 8, 0);
  for (u32 i = 0; i < 5; ++i) make(p, Kind::Food, 10.0f * float(i) + 5, 60, ecs::Tier::Dormant, 21, 21, 0, 0);
  ecs.begin_tick();
  for (size_t i = 0; i < workers.size(); i += 3) {
    EXPECT_EQ(ecs.queue_destroy(workers[i]), ecs::Result::Ok);
    p.kinds.erase(workers[i]);
  }
  ecs.apply_destructions();
  std::erase_if(p.entities, [&](Handle h) { return !ecs.alive(h); });
  EXPECT_TRUE(ecs.validate().empty());
  return p;
}

// Entry -> owner, computed from the entities' own slot lists (not from back-pointers).
template <class C>
std::vector<Handle> owners_by_entry(const Populated& p) {
  std::vector<Handle> out(p.ecs->stats<C>().taken);
  for (Handle h : p.entities) {
    const auto& l = p.ecs->template list<C>(*p.ecs->find(h));
    for (u32 k = 0; k < l.reserved; ++k) out.at(l.slot[k]) = h;
  }
  return out;
}

TEST(DebugData, PoolsPanelEqualsEngineStats) {
  Populated p = populate();
  PoolPanelData d = gather_pool_panel(*p.ecs);
  auto stats = p.ecs->all_stats();
  ASSERT_EQ(d.pools.size(), stats.size());
  for (size_t i = 0; i < stats.size(); ++i) {
    const ecs::PoolStats& s = *stats[i];
    const PoolPanelRow& r = d.pools[i];
    SCOPED_TRACE(s.name);
    EXPECT_EQ(r.name, s.name);
    EXPECT_EQ(r.capacity, s.capacity);
    EXPECT_EQ(r.taken, s.taken);
    EXPECT_EQ(r.high_water, s.high_water);
    EXPECT_EQ(r.owners, s.owners);
    EXPECT_EQ(r.reserved_unused, s.reserved_unused);
    EXPECT_EQ(r.slack_bytes, s.reserved_unused * pool_view(*p.ecs, int(i)).component_bytes);
    EXPECT_EQ(r.fixed_max_slots, u64(s.owners) * s.max_per_entity);
    EXPECT_EQ(r.pool_bytes, u64(s.capacity) * (r.component_bytes + sizeof(ecs::BackPointer)));
    EXPECT_EQ(r.tick.reserves, s.tick.reserves);
    EXPECT_EQ(r.tick.removes, s.tick.removes);
    EXPECT_EQ(r.tick.rewires, s.tick.rewires);
    EXPECT_EQ(r.total.adds, s.total.adds);
    EXPECT_EQ(r.total.failed_reservations, s.total.failed_reservations);
    ASSERT_EQ(r.histogram.size(), s.max_per_entity + 1);
    for (size_t k = 0; k < r.histogram.size(); ++k) EXPECT_EQ(r.histogram[k], s.histogram[k]) << "bucket " << k;
  }
  // And the numbers themselves are what this world holds: 67 of 200 workers died.
  const PoolPanelRow& pieces = d.pools[0];
  EXPECT_EQ(pieces.name, "render_pieces");
  EXPECT_EQ(pieces.taken, 300u * 1 + 133u * 12 + 40u * 15 + 30u + 5u * 21);
  EXPECT_EQ(pieces.high_water, 300u * 1 + 200u * 12 + 40u * 15 + 30u + 5u * 21);
  EXPECT_EQ(pieces.reserved_unused, 133u);  // one reserved carried-food slot per worker
  EXPECT_EQ(pieces.tick.removes, 67u * 12);
  EXPECT_EQ(pieces.fixed_max_slots, (300u + 133u + 40u + 1u + 5u) * 32u);
  EXPECT_EQ(pieces.pool_bytes, 20000u * (sizeof(RenderPiece) + sizeof(ecs::BackPointer)));
  EXPECT_EQ(pieces.histogram[1], 300u);
  EXPECT_EQ(pieces.histogram[11], 133u);
  EXPECT_EQ(pieces.histogram[30], 1u);
  EXPECT_EQ(d.live_entities, p.ecs->live_count());
  EXPECT_EQ(d.simulated_entities, 133u + 40u + 1u);
}

// The Pools panel shows the latest batched release as the engine timed it: a batch of
// 300 tiles goes through the batched passes; the 67 workers of populate() went one at a
// time and were not timed.
TEST(DebugData, PoolsPanelShowsTheLatestMassRelease) {
  Populated p = populate();
  EXPECT_EQ(gather_pool_panel(*p.ecs).last_release.batches, 0u);
  std::vector<Handle> tiles;
  for (Handle h : p.entities)
    if (p.kinds[h] == Kind::Tile) tiles.push_back(h);
  ASSERT_EQ(tiles.size(), 300u);
  ASSERT_EQ(p.ecs->destroy_batch(tiles), 300u);
  const ColonyEcs::ReleaseTimes& engine = p.ecs->last_release();
  PoolPanelData d = gather_pool_panel(*p.ecs);
  EXPECT_EQ(d.last_release.batches, 1u);
  EXPECT_EQ(d.last_release.victims, 300u);
  EXPECT_EQ(d.last_release.mark_ms, engine.mark_ms);
  EXPECT_EQ(d.last_release.close_ms, engine.close_ms);
  EXPECT_GT(d.last_release.total_ms(), 0.0);
  // How the next batch goes, as the panel's line above the release says it.
  EXPECT_EQ(d.release_footprint, p.ecs->release_footprint());
  EXPECT_GT(d.release_footprint, 0u);
  EXPECT_EQ(d.small_world_bytes, 0u);
  EXPECT_FALSE(d.small_world);  // no rule at 0
  EXPECT_EQ(d.small_world, p.ecs->is_small_world());
  EXPECT_EQ(d.swap_release_max, ColonyEcs::kDefaultSwapReleaseMax);
}

TEST(DebugData, PoolsPanelCountsFailedReservation) {
  Populated p = populate();
  p.ecs->begin_tick();
  Handle queen = p.entities.back();
  for (Handle h : p.entities)
    if (p.kinds[h] == Kind::Queen) queen = h;
  EXPECT_EQ(p.ecs->reserve<RenderPiece>(queen, 5), ecs::Result::EntityMaxReached);  // 30 + 5 > 32
  PoolPanelData d = gather_pool_panel(*p.ecs);
  EXPECT_EQ(d.pools[0].tick.failed_reservations, 1u);
  EXPECT_EQ(d.pools[0].tick.removes, 0u);
}

// Every cell of the pool map, hit in its centre, names the entry and the owner that the
// entities' slot lists say; the owner resolves, and its slot list points back.
void check_hits(const Populated& p, int pool, const PoolMapLayout& l, const std::vector<Handle>& owner_of) {
  ASSERT_GE(u64(l.columns) * u64(l.rows) * l.entries_per_cell, u64(l.range));
  unsigned hits = 0;
  for (int row = 0; row < l.rows; ++row)
    for (int col = 0; col < l.columns; ++col) {
      float x = (float(col) + 0.5f) * l.cell_px, y = (float(row) + 0.5f) * l.cell_px;
      PoolMapHit h = hit_test_pool_map(*p.ecs, l, x, y);
      unsigned first = unsigned((row * l.columns + col)) * l.entries_per_cell;
      // A cell shows entries up to the range; past it (the rest of the last row) nothing.
      EXPECT_EQ(h.on_map, first < l.range) << "entry " << first;
      if (first >= l.taken) {
        EXPECT_FALSE(h.valid) << "cell past taken resolves";
        continue;
      }
      ASSERT_TRUE(h.valid) << "entry " << first;
      ASSERT_EQ(h.entry, first);
      ASSERT_EQ(h.owner, owner_of[first]) << "entry " << first;
      EXPECT_EQ(h.kind, p.kinds.at(h.owner));
      const Record* r = p.ecs->find(h.owner);
      ASSERT_NE(r, nullptr);
      EXPECT_EQ(h.owner_chunk, r->header.chunk);
      if (pool == 0) {
        EXPECT_EQ(p.ecs->list<RenderPiece>(*r).slot[h.local], first);
      } else if (pool == 1) {
        EXPECT_EQ(p.ecs->list<CollisionVolume>(*r).slot[h.local], first);
      }
      ++hits;
    }
  EXPECT_GT(hits, 0u);
}

TEST(DebugData, PoolMapSelectionResolvesToTheOwner) {
  Populated p = populate();
  // One entry per cell: 40 columns of 6 px, tall enough for every entry.
  PoolMapLayout one = layout_pool_map(*p.ecs, 0, false, 240, 10000, 6);
  EXPECT_EQ(one.entries_per_cell, 1u);
  EXPECT_EQ(one.columns, 40);
  EXPECT_EQ(one.range, p.ecs->stats<RenderPiece>().high_water);
  check_hits(p, 0, one, owners_by_entry<RenderPiece>(p));
  // Aggregated: the pool does not fit, each cell covers several entries.
  PoolMapLayout many = layout_pool_map(*p.ecs, 0, false, 120, 60, 6);
  EXPECT_GT(many.entries_per_cell, 1u);
  EXPECT_LE(many.rows, 10);
  check_hits(p, 0, many, owners_by_entry<RenderPiece>(p));
  // Another pool, and the whole capacity.
  PoolMapLayout vols = layout_pool_map(*p.ecs, 1, true, 200, 200, 4);
  EXPECT_EQ(vols.range, 3000u);
  check_hits(p, 1, vols, owners_by_entry<CollisionVolume>(p));
  // Outside the map.
  EXPECT_FALSE(hit_test_pool_map(*p.ecs, one, -1, 3).valid);
  EXPECT_FALSE(hit_test_pool_map(*p.ecs, one, 241, 3).valid);
  EXPECT_FALSE(hit_test_pool_map(*p.ecs, one, 241, 3).on_map);
}

TEST(DebugData, PoolMapCellsColouredByOwnerKind) {
  Populated p = populate();
  PoolMapLayout l = layout_pool_map(*p.ecs, 0, false, 300, 10000, 6);
  ASSERT_EQ(l.entries_per_cell, 1u);
  std::vector<PoolMapCell> cells = gather_pool_map(*p.ecs, l);
  std::vector<Handle> owner_of = owners_by_entry<RenderPiece>(p);
  for (unsigned e = 0; e < l.range; ++e) {
    if (e < l.taken) {
      EXPECT_EQ(cells[e].fill, 1.0f);
      EXPECT_EQ(cells[e].color, kind_color(p.kinds.at(owner_of[e]))) << "entry " << e;
    } else {
      EXPECT_EQ(cells[e].fill, 0.0f) << "entry " << e;
    }
  }
  // The batch release left no hole below taken and the tail (804 dead pieces) is free.
  EXPECT_EQ(l.range - l.taken, 67u * 12);

  // Aggregated, several entries a cell: the fill is the cell's live share, a cell whose
  // entries all belong to one kind shows that kind, and a mixed cell shows one of its
  // kinds or the mixed colour, never a kind it does not hold.
  PoolMapLayout many = layout_pool_map(*p.ecs, 0, false, 60, 60, 6);
  ASSERT_GT(many.entries_per_cell, 2u);
  std::vector<PoolMapCell> agg = gather_pool_map(*p.ecs, many);
  unsigned uniform = 0, mixed = 0, partial = 0;
  for (size_t i = 0; i < agg.size(); ++i) {
    unsigned first = unsigned(i) * many.entries_per_cell;
    if (first >= many.range) break;
    unsigned n = std::min(many.entries_per_cell, many.range - first);
    unsigned live = first >= many.taken ? 0 : std::min(n, many.taken - first);
    EXPECT_FLOAT_EQ(agg[i].fill, float(live) / float(n)) << "cell " << i;
    partial += live > 0 && live < n;
    if (live == 0) continue;
    std::set<Kind> kinds;
    for (unsigned e = first; e < first + live; ++e) kinds.insert(p.kinds.at(owner_of[e]));
    if (kinds.size() == 1) {
      ++uniform;
      EXPECT_EQ(agg[i].color, kind_color(*kinds.begin())) << "cell " << i;
    } else {
      ++mixed;
      bool allowed = agg[i].color == kMixedCellColor;
      for (Kind k : kinds) allowed = allowed || agg[i].color == kind_color(k);
      EXPECT_TRUE(allowed) << "cell " << i << " shows a kind it does not hold";
    }
  }
  EXPECT_GT(uniform, 0u);
  EXPECT_GT(mixed, 0u);
  EXPECT_EQ(partial, many.taken % many.entries_per_cell ? 1u : 0u);
}

TEST(DebugData, InspectorListsSlotsAndChecksBackPointers) {
  Populated p = populate();
  Handle worker;
  for (Handle h : p.entities)
    if (p.kinds[h] == Kind::Worker) worker = h;
  InspectorData d = gather_inspector(*p.ecs, worker);
  ASSERT_TRUE(d.found);
  EXPECT_EQ(d.tier, ecs::Tier::Simulated);
  EXPECT_EQ(d.body.kind, Kind::Worker);
  EXPECT_EQ(d.header_kind, Kind::Worker);
  ASSERT_EQ(d.pools.size(), 3u);
  const PoolSlots& pieces = d.pools[0];
  EXPECT_EQ(pieces.name, "render_pieces");
  EXPECT_EQ(pieces.reserved, 12u);
  EXPECT_EQ(pieces.added, 11u);
  ASSERT_EQ(pieces.slots.size(), 12u);
  const auto& l = p.ecs->list<RenderPiece>(*p.ecs->find(worker));
  for (u32 k = 0; k < 12; ++k) {
    EXPECT_EQ(pieces.slots[k].entry, l.slot[k]);
    EXPECT_TRUE(pieces.slots[k].back_pointer_ok);
    EXPECT_EQ(pieces.slots[k].added, k < 11);
  }
  EXPECT_EQ(pieces.slots[11].data, "(reserved)");
  EXPECT_EQ(pieces.slots[0].data, describe_component(p.ecs->pool<RenderPiece>().items[l.slot[0]]));
  EXPECT_EQ(d.pools[1].added, 2u);
  EXPECT_EQ(d.pools[2].added, 3u);
  EXPECT_EQ(d.bad_back_pointers, 0u);

  // Break one back-pointer by hand: the inspector shows that slot red, and only that one.
  ecs::BackPointer& bp =
      p.ecs->pool<CollisionVolume>().owners[p.ecs->list<CollisionVolume>(*p.ecs->find(worker)).slot[1]];
  bp.local = 0;
  InspectorData broken = gather_inspector(*p.ecs, worker);
  EXPECT_EQ(broken.bad_back_pointers, 1u);
  EXPECT_TRUE(broken.pools[1].slots[0].back_pointer_ok);
  EXPECT_FALSE(broken.pools[1].slots[1].back_pointer_ok);
  bp.local = 1;
  EXPECT_EQ(gather_inspector(*p.ecs, worker).bad_back_pointers, 0u);

  // A destroyed entity's handle is reported stale, even after its index is reused.
  ASSERT_EQ(p.ecs->destroy(worker), ecs::Result::Ok);
  Body b;
  Handle reused = p.ecs->create_at(ecs::Tier::Simulated, u16(Kind::Food), b);
  ASSERT_FALSE(reused.is_null());
  EXPECT_FALSE(gather_inspector(*p.ecs, worker).found);
  EXPECT_TRUE(gather_inspector(*p.ecs, reused).found);
}

TEST(DebugData, ChunkMapCountsEveryEntityInItsChunk) {
  Populated p = populate();
  ChunkMapData d = gather_chunk_map(*p.ecs, ChunkCount::Ants);
  ASSERT_EQ(d.chunks.size(), 16u);
  EXPECT_EQ(d.chunks_x, 4u);
  std::vector<ChunkCell> expect(16);
  for (Handle h : p.entities) {
    const Record* r = p.ecs->find(h);
    if (ecs::Tier(r->header.tier) == ecs::Tier::Simulated) ++expect[r->header.chunk].simulated;
    else ++expect[r->header.chunk].dormant;
    Kind k = p.kinds.at(h);
    if (k == Kind::Worker || k == Kind::Soldier || k == Kind::Queen) ++expect[r->header.chunk].ants;
  }
  unsigned ants = 0;
  unsigned total = 0;
  for (size_t c = 0; c < 16; ++c) {
    EXPECT_EQ(d.chunks[c].simulated, expect[c].simulated) << "chunk " << c;
    EXPECT_EQ(d.chunks[c].dormant, expect[c].dormant) << "chunk " << c;
    EXPECT_EQ(d.chunks[c].ants, expect[c].ants) << "chunk " << c;
    EXPECT_EQ(d.chunks[c].value, expect[c].ants) << "chunk " << c;
    EXPECT_EQ(d.chunks[c].tiles, 256u);
    ants += d.chunks[c].ants;
    total += d.chunks[c].simulated + d.chunks[c].dormant;
  }
  EXPECT_EQ(total, p.ecs->live_count());
  EXPECT_EQ(ants, 133u + 40u + 1u);
  // Without the walk: all entities, and all but one tile per cell (the 300 tiles sit in
  // the top row of chunks, which the non-tile count cannot know is only partly tiled).
  ChunkMapData all = gather_chunk_map(*p.ecs, ChunkCount::Entities);
  ChunkMapData non_tiles = gather_chunk_map(*p.ecs, ChunkCount::NonTiles);
  for (size_t c = 0; c < 16; ++c) {
    EXPECT_EQ(all.chunks[c].ants, 0u);
    EXPECT_EQ(all.chunks[c].value, expect[c].simulated + expect[c].dormant);
    unsigned n = expect[c].simulated + expect[c].dormant;
    EXPECT_EQ(non_tiles.chunks[c].value, n > 256 ? n - 256 : 0u);
  }
  EXPECT_EQ(hit_test_chunk_map(d, 10, 35, 15), 1 * 4 + 3);
  EXPECT_EQ(hit_test_chunk_map(d, 10, 40, 5), -1);
}

TEST(DebugData, ChunkMapTileCountFollowsTheMapEdge) {
  ColonyEcs::Config c;
  c.max_entities = 16;
  c.grid = ecs::ChunkGrid::make(40, 24, 16);  // 3 x 2 chunks, the last column and row cut
  c.pool_capacity = PerPool<u32>::filled(16);
  ColonyEcs ecs(c);
  ChunkMapData d = gather_chunk_map(ecs, ChunkCount::NonTiles);
  ASSERT_EQ(d.chunks.size(), 6u);
  const unsigned expect[6] = {256, 256, 128, 128, 128, 64};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(d.chunks[i].tiles, expect[i]) << "chunk " << i;
}

}  // namespace
}  // namespace colony
