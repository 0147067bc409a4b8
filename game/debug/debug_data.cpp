// debug_data.cpp — pure functions computing what the debugger's panels show from the
// engine's pools, records and chunk grid. No ImGui, no drawing.
//
// Table of contents
//   [SECTION] Pool access by index
//   [SECTION] Pools panel
//   [SECTION] Pool map
//   [SECTION] Entity inspector
//   [SECTION] Chunk minimap
#include "debug_data.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

namespace colony {

// [SECTION] Pool access by index

namespace {

// fn(std::type_identity<C>) for the pool with index `pool` in the game's pool list;
// nothing for a bad index.
template <class Fn>
void visit_pool(int pool, Fn&& fn) {
  if (pool >= 0) ColonyPools::visit(size_t(pool), fn);
}
// fn(std::type_identity<C>) for every pool, in order.
template <class Fn>
void visit_pools(Fn&& fn) {
  ColonyPools::for_each(fn);
}

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

}  // namespace

PoolView pool_view(const ColonyEcs& ecs, int pool) {
  PoolView v;
  visit_pool(pool, [&]<class C>(std::type_identity<C>) {
    const auto& p = ecs.pool<C>();
    v = PoolView{&p.stats, p.owners.get(), unsigned(sizeof(C))};
  });
  return v;
}

const char* pool_name(int pool) {
  const char* name = "?";
  visit_pool(pool, [&]<class C>(std::type_identity<C>) { name = C::kPoolName; });
  return name;
}

Kind owner_kind(const ColonyEcs& ecs, Handle owner) {
  const Record* r = ecs.find(owner);
  if (!r || r->header.tag >= u16(Kind::Count)) return Kind::Count;
  return Kind(r->header.tag);
}

unsigned kind_color(Kind k) {
  // 0xAABBGGRR
  switch (k) {
    case Kind::Tile: return 0xFF3C7A3Cu;     // green
    case Kind::Worker: return 0xFF2090F0u;   // orange
    case Kind::Soldier: return 0xFF3030E0u;  // red
    case Kind::Queen: return 0xFFE040E0u;    // magenta
    case Kind::Food: return 0xFF30E0E8u;     // yellow
    case Kind::Corpse: return 0xFF909090u;   // grey
    case Kind::Count: break;
  }
  return kMixedCellColor;
}

// [SECTION] Pools panel

PoolPanelData gather_pool_panel(const ColonyEcs& ecs) {
  PoolPanelData d;
  visit_pools([&]<class C>(std::type_identity<C>) {
    const ecs::PoolStats& s = ecs.stats<C>();
    PoolPanelRow row;
    row.name = s.name;
    row.capacity = s.capacity;
    row.taken = s.taken;
    row.high_water = s.high_water;
    row.max_per_entity = s.max_per_entity;
    row.owners = s.owners;
    row.reserved_unused = s.reserved_unused;
    row.component_bytes = sizeof(C);
    row.slack_bytes = s.reserved_unused * sizeof(C);
    row.fixed_max_slots = (unsigned long long)s.owners * s.max_per_entity;
    row.pool_bytes = (unsigned long long)s.capacity * (sizeof(C) + sizeof(ecs::BackPointer));
    row.tick = s.tick;
    row.total = s.total;
    row.histogram.assign(s.histogram, s.histogram + s.max_per_entity + 1);
    d.pools.push_back(std::move(row));
  });
  d.live_entities = ecs.live_count();
  d.simulated_entities = ecs.simulated_count();
  d.last_release = ecs.last_release();
  d.release_footprint = ecs.release_footprint();
  d.small_world_bytes = ecs.small_world_bytes();
  d.swap_release_max = ecs.swap_release_max();
  d.small_world = ecs.is_small_world();
  d.max_entities = ecs.max_entities();
  d.failed_creates = ecs.failed_creates();
  d.pending_destructions = unsigned(ecs.pending_destructions().size());
  return d;
}

// [SECTION] Pool map

PoolMapLayout layout_pool_map(const ColonyEcs& ecs, int pool, bool whole_capacity, float width_px, float max_height_px,
                              float cell_px, bool exact) {
  PoolMapLayout l;
  PoolView v = pool_view(ecs, pool);
  if (!v.stats) return l;
  l.pool = pool;
  l.cell_px = cell_px < 1 ? 1 : cell_px;
  l.taken = v.stats->taken;
  l.range = whole_capacity ? v.stats->capacity : std::max(v.stats->high_water, v.stats->taken);
  l.columns = std::max(1, int(width_px / l.cell_px));
  int max_rows = exact ? (1 << 30) : std::max(1, int(max_height_px / l.cell_px));
  unsigned long long cells = (unsigned long long)l.columns * unsigned(max_rows);
  l.entries_per_cell = unsigned(std::max(1ull, (l.range + cells - 1) / cells));
  unsigned used = (l.range + l.entries_per_cell - 1) / l.entries_per_cell;
  l.rows = std::max(1, int((used + unsigned(l.columns) - 1) / unsigned(l.columns)));
  return l;
}

std::vector<PoolMapCell> gather_pool_map(const ColonyEcs& ecs, const PoolMapLayout& l, int row_begin, int row_end) {
  row_begin = std::clamp(row_begin, 0, l.rows);
  row_end = std::clamp(row_end, row_begin, l.rows);
  std::vector<PoolMapCell> cells(size_t(l.columns) * size_t(row_end - row_begin));
  PoolView v = pool_view(ecs, l.pool);
  if (!v.stats) return cells;
  const size_t first_cell = size_t(row_begin) * size_t(l.columns);
  const unsigned taken = v.stats->taken;
  // One sample per entry when cells are single entries, else three spread over the cell.
  constexpr unsigned kMaxSamples = 3;
  const unsigned max_samples = l.entries_per_cell == 1 ? 1 : kMaxSamples;
  // Pass 1: fill, first owner and the sampled owners' records, prefetched. The owners'
  // records are scattered over the store; asking for all of them before reading any lets
  // the memory system fetch many at once instead of one miss after another.
  std::vector<const Record*> records(cells.size() * kMaxSamples, nullptr);
  std::vector<unsigned char> sample_count(cells.size(), 0);
  for (size_t i = 0; i < cells.size(); ++i) {
    unsigned long long first = (unsigned long long)(first_cell + i) * l.entries_per_cell;
    if (first >= l.range) break;
    unsigned n = unsigned(std::min<unsigned long long>(l.entries_per_cell, l.range - first));
    unsigned live = first >= taken ? 0 : unsigned(std::min<unsigned long long>(n, taken - first));
    cells[i].fill = float(live) / float(n);
    if (live == 0) continue;
    cells[i].first_owner = ecs.owner_of(v.owners[first]);
    unsigned samples = std::min(live, max_samples);
    sample_count[i] = (unsigned char)samples;
    for (unsigned k = 0; k < samples; ++k) {
      unsigned e = unsigned(first) + (samples == 1 ? 0 : unsigned((unsigned long long)k * (live - 1) / (samples - 1)));
      const Record* r = ecs.find(ecs.owner_of(v.owners[e]));
      if (r) ecs::prefetch_for_read(r);
      records[i * kMaxSamples + k] = r;
    }
  }
  // Pass 2: majority kind of the samples.
  for (size_t i = 0; i < cells.size(); ++i) {
    unsigned samples = sample_count[i];
    if (samples == 0) continue;
    unsigned votes[size_t(Kind::Count) + 1] = {};
    for (unsigned k = 0; k < samples; ++k) {
      const Record* r = records[i * kMaxSamples + k];
      ++votes[r && r->header.tag < u16(Kind::Count) ? r->header.tag : size_t(Kind::Count)];
    }
    size_t best = 0;
    for (size_t k = 1; k <= size_t(Kind::Count); ++k)
      if (votes[k] > votes[best]) best = k;
    cells[i].color = votes[best] * 2 > samples ? kind_color(Kind(best)) : kMixedCellColor;
  }
  return cells;
}

PoolMapHit pool_entry_info(const ColonyEcs& ecs, int pool, unsigned entry) {
  PoolMapHit hit;
  hit.pool = pool;
  hit.entry = entry;
  hit.cell_entries = 1;
  PoolView v = pool_view(ecs, pool);
  if (!v.stats || entry >= v.stats->taken) return hit;
  const ecs::BackPointer& bp = v.owners[entry];
  hit.owner = ecs.owner_of(bp);
  hit.owner_chunk = bp.chunk;
  hit.local = bp.local;
  hit.kind = owner_kind(ecs, hit.owner);
  hit.valid = ecs.alive(hit.owner);
  return hit;
}

PoolMapHit hit_test_pool_map(const ColonyEcs& ecs, const PoolMapLayout& l, float x, float y) {
  PoolMapHit miss;
  miss.pool = l.pool;
  if (x < 0 || y < 0) return miss;
  int col = int(x / l.cell_px), row = int(y / l.cell_px);
  if (col >= l.columns || row >= l.rows) return miss;
  unsigned long long entry = ((unsigned long long)row * unsigned(l.columns) + unsigned(col)) * l.entries_per_cell;
  if (entry >= l.range) return miss;
  PoolMapHit hit = pool_entry_info(ecs, l.pool, unsigned(entry));
  hit.on_map = true;
  hit.cell_entries = unsigned(std::min<unsigned long long>(l.entries_per_cell, l.range - entry));
  return hit;
}

// [SECTION] Entity inspector

const char* part_name(Part p) {
  static constexpr const char* kNames[] = {"head", "thorax", "abdomen", "leg", "antenna", "mandible",
                                           "carried food", "crumb", "tile", "queen abdomen", "wing"};
  static_assert(std::size(kNames) == size_t(Part::Count));
  return size_t(p) < std::size(kNames) ? kNames[size_t(p)] : "?";
}

std::string describe_component(const RenderPiece& c) {
  return format("%s%s off (%.2f, %.2f) rot %.2f size %.2fx%.2f sprite %u color %08X", part_name(c.part),
                is_paired_limb(c.part) ? (c.side() ? " R" : " L") : "", c.offset_x(), c.offset_y(), c.rotation(),
                c.size_x(), c.size_y(), unsigned(c.sprite), c.color);
}
std::string describe_component(const CollisionVolume& c) {
  static constexpr const char* kRoles[] = {"body", "head", "mandibles"};
  if (c.role < std::size(kRoles)) return format("%s off (%.2f, %.2f) radius %.2f", kRoles[c.role], c.offset_x, c.offset_y, c.radius);
  return format("role %u off (%.2f, %.2f) radius %.2f", unsigned(c.role), c.offset_x, c.offset_y, c.radius);
}
std::string describe_component(const Sensor& c) {
  return format("angle %.2f reach %.2f reading %.3f", c.angle, c.reach, c.reading);
}

InspectorData gather_inspector(const ColonyEcs& ecs, Handle h) {
  InspectorData d;
  d.handle = h;
  const Record* r = ecs.find(h);
  if (!r) return d;
  d.found = true;
  d.chunk = r->header.chunk;
  d.tier = ecs::Tier(r->header.tier);
  d.dying = ecs.dying(h);
  d.body = r->payload;
  d.header_kind = r->header.tag < u16(Kind::Count) ? Kind(r->header.tag) : Kind::Count;
  visit_pools([&]<class C>(std::type_identity<C>) {
    const auto& p = ecs.pool<C>();
    const auto& l = ecs.template list<C>(*r);
    PoolSlots ps;
    ps.name = C::kPoolName;
    ps.reserved = l.reserved;
    ps.added = l.added;
    ps.max = C::kMaxPerEntity;
    unsigned n = std::min<unsigned>(l.reserved, C::kMaxPerEntity);
    for (unsigned k = 0; k < n; ++k) {
      SlotRow row;
      row.local = k;
      row.entry = l.slot[k];
      row.added = k < l.added;
      if (row.entry < p.stats.taken) {
        const ecs::BackPointer& bp = p.owners[row.entry];
        row.back_pointer_ok = bp.names(h) && bp.local == k &&
                              bp.chunk == r->header.chunk;
        row.data = row.added ? describe_component(p.items[row.entry]) : "(reserved)";
      } else {
        row.data = "(slot points past taken)";
      }
      if (!row.back_pointer_ok) ++d.bad_back_pointers;
      ps.slots.push_back(std::move(row));
    }
    d.pools.push_back(std::move(ps));
  });
  return d;
}

// [SECTION] Chunk minimap

ChunkMapData gather_chunk_map(const ColonyEcs& ecs, ChunkCount mode) {
  ChunkMapData d;
  const ecs::ChunkGrid& g = ecs.grid();
  d.chunks_x = g.chunks_x;
  d.chunks_y = g.chunks_y;
  d.chunk_cells = g.chunk_cells;
  d.mode = mode;
  d.chunks.resize(g.chunk_count());
  for (unsigned c = 0; c < g.chunk_count(); ++c) {
    ChunkCell& cc = d.chunks[c];
    cc.simulated = ecs.simulated_in_chunk(c);
    cc.dormant = ecs.dormant_in_chunk(c);
    // Border chunks may be cut by the map's edge.
    unsigned x0 = g.chunk_col(c) * g.chunk_cells, y0 = g.chunk_row(c) * g.chunk_cells;
    cc.tiles = std::min(g.chunk_cells, g.cells_x - std::min(g.cells_x, x0)) * std::min(g.chunk_cells, g.cells_y - std::min(g.cells_y, y0));
  }
  if (mode == ChunkCount::Ants) {
    // The chunk walk is not const in the engine; it only reads here.
    ColonyEcs& walkable = const_cast<ColonyEcs&>(ecs);
    for (unsigned c = 0; c < g.chunk_count(); ++c)
      walkable.in_chunk(c, ecs::tag_set(Kind::Tile, Kind::Food, Kind::Corpse)).for_each([&](const Record& r) {
        Kind k = r.payload.kind;
        d.chunks[c].ants += k == Kind::Worker || k == Kind::Soldier || k == Kind::Queen;
      });
  }
  for (ChunkCell& cc : d.chunks) {
    unsigned all = cc.simulated + cc.dormant;
    cc.value = mode == ChunkCount::Entities ? all : mode == ChunkCount::NonTiles ? all - std::min(all, cc.tiles) : cc.ants;
    d.max_value = std::max(d.max_value, cc.value);
  }
  return d;
}

int hit_test_chunk_map(const ChunkMapData& d, float cell_px, float x, float y) {
  if (x < 0 || y < 0 || cell_px <= 0) return -1;
  unsigned col = unsigned(x / cell_px), row = unsigned(y / cell_px);
  if (col >= d.chunks_x || row >= d.chunks_y) return -1;
  return int(row * d.chunks_x + col);
}

}  // namespace colony
