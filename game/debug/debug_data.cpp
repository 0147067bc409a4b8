// debug_data.cpp — pure functions computing what the debugger's panels show from the
// engine's pools, records and chunk grid. No ImGui, no drawing.
//
// Table of contents
//   [SECTION] Pool access by index
//   [SECTION] Pools panel
//   [SECTION] Pool map
//   [SECTION] Entity inspector
//   [SECTION] Chunk minimap
//   [SECTION] Release theatre
#include "debug_data.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <tuple>
#include <type_traits>
#include <utility>

#include "game.h"

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
  static constexpr const char* kNames[] = {"head",         "thorax", "abdomen", "leg",           "antenna", "mandible",
                                           "carried food", "crumb",  "tile",    "queen abdomen", "wing"};
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
  if (c.role < std::size(kRoles))
    return format("%s off (%.2f, %.2f) radius %.2f", kRoles[c.role], c.offset_x, c.offset_y, c.radius);
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
        row.back_pointer_ok = bp.names(h) && bp.local == k && bp.chunk == r->header.chunk;
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
    cc.tiles = std::min(g.chunk_cells, g.cells_x - std::min(g.cells_x, x0)) *
               std::min(g.chunk_cells, g.cells_y - std::min(g.cells_y, y0));
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
    cc.value = mode == ChunkCount::Entities   ? all
               : mode == ChunkCount::NonTiles ? all - std::min(all, cc.tiles)
                                              : cc.ants;
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

// [SECTION] Release theatre

namespace colony {

namespace {

std::string thousands(unsigned long long v) {
  const std::string digits = std::to_string(v);
  std::string s;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) s += ',';
    s += digits[i];
  }
  return s;
}
bool is_gone(EntryState s) { return s == EntryState::Hole || s == EntryState::Vacant; }

}  // namespace

std::vector<ReleaseRow> gather_release_list(const ColonyEcs& ecs, size_t max, bool with_removes) {
  std::vector<ReleaseRow> rows;
  const auto& j = ecs.journal();
  for (unsigned long long s = j.release_count(); s-- > 0 && rows.size() < max;) {
    const ColonyEcs::JournalRelease* r = j.release(s);
    if (!r) break;
    if (r->path == ecs::ReleasePath::RemoveOne && !with_removes) continue;
    ReleaseRow row{r->serial, r->tick, release_cause_text(r->cause), r->path, r->victims, 0, r->dropped(), r->cpu_ms};
    for (const ecs::JournalPool& p : r->pools) row.moves += p.moves;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string explain_release(const ColonyEcs& ecs, const ColonyEcs::JournalRelease& r) {
  const double mib = double(r.footprint_bytes) / (1024.0 * 1024.0),
               small = double(ecs.small_world_bytes()) / (1024.0 * 1024.0);
  const std::string victims = thousands(r.victims) + (r.victims == 1 ? " victim" : " victims");
  switch (r.path) {
    case ecs::ReleasePath::None: return "nothing released";
    case ecs::ReleasePath::RemoveOne:
      return "one component removed: the pool's last entry moves into its hole, and the owner's later slots shift down "
             "one place";
    case ecs::ReleasePath::OneAtATime:
      if (r.victims <= 1)
        return "one entity released: each of its slots is filled by the pool's last entry (swap-with-last)";
      if (r.victims <= ecs.swap_release_max())
        return format(
            "%s, at most %u: one at a time by swap-with-last (each freed slot takes the pool's last entry); "
            "for so few, that beats the batch's extra passes",
            victims.c_str(), ecs.swap_release_max());
      return format(
          "%s in a %.1f MiB world, at most %.1f MiB: the caches hold it all, so one at a time by swap-with-last "
          "beats the batch passes",
          victims.c_str(), mib, small);
    case ecs::ReleasePath::TailFill:
    case ecs::ReleasePath::Compact:
    case ecs::ReleasePath::Mixed: break;
  }
  std::string s = format(
      "%s in a %.1f MiB world: batch passes (mark every victim's slots, then close each pool's holes in one pass).",
      victims.c_str(), mib);
  for (int i = 0; i < kMaxPools; ++i) {
    const ecs::JournalPool& p = r.pools[size_t(i)];
    if (p.holes == 0) continue;
    const unsigned long long survivors = p.taken_before - p.holes, past = p.taken_before - p.first_hole - p.holes;
    const int percent = survivors ? int(100.0 * double(past) / double(survivors) + 0.5) : 0;
    if (p.path == ecs::ReleasePath::TailFill)
      s += format(
          " %s: tail fill because %d %% of the survivors (%s) lie past the first hole, more than a quarter of its %s "
          "holes: "
          "moving the tail's survivors into the holes moves fewer.",
          pool_name(i), percent, thousands(past).c_str(), thousands(p.holes).c_str());
    else
      s += format(
          " %s: compaction because only %s survivors (%d %%) lie past the first hole, at most a quarter of its %s "
          "holes: "
          "they slide down in order.",
          pool_name(i), thousands(past).c_str(), percent, thousands(p.holes).c_str());
  }
  return s;
}

bool load_replay(ReleaseReplay& r, const ColonyEcs& ecs, unsigned long long serial, int pool) {
  r = ReleaseReplay{};
  const auto& j = ecs.journal();
  const ColonyEcs::JournalRelease* rel = j.release(serial);
  if (!rel || !j.steps_kept(*rel) || pool < 0 || pool >= kMaxPools) return false;
  const ecs::JournalPool& part = rel->pools[size_t(pool)];
  if (part.path == ecs::ReleasePath::None) return false;
  r.serial = serial;
  r.tick = rel->tick;
  r.pool = pool;
  r.path = part.path;
  r.hi = part.taken_before;
  r.taken_after = part.taken_after;
  r.dropped = part.dropped;
  unsigned lo = r.hi;
  for (unsigned long long k = 0; k < rel->steps_recorded; ++k) {
    const ecs::JournalStep& s = j.step(*rel, k);
    if (s.pool != pool) continue;
    r.steps.push_back(s);
    lo = std::min(lo, s.from);
    if (s.kind == ecs::StepKind::Move) lo = std::min(lo, s.to);
  }
  if (j.victims_kept(*rel))
    for (unsigned k = 0; k < rel->victims_recorded; ++k) r.victims.push_back(j.victim(*rel, k));
  r.lo = lo;
  r.state.assign(r.hi - lo, EntryState::Live);
  r.undo_from.assign(r.steps.size(), EntryState::Live);
  r.undo_to.assign(r.steps.size(), EntryState::Live);
  r.boundary = r.hi;
  r.loaded = true;
  return true;
}

void replay_seek(ReleaseReplay& r, size_t cursor) {
  if (!r.loaded) return;
  cursor = std::min(cursor, r.steps.size());
  auto cell = [&](unsigned e) -> EntryState& { return r.state[e - r.lo]; };
  while (r.cursor < cursor) {
    const size_t k = r.cursor++;
    const ecs::JournalStep& s = r.steps[k];
    if (s.kind == ecs::StepKind::Renumber) continue;
    r.undo_from[k] = cell(s.from);
    if (s.kind == ecs::StepKind::Hole) {
      cell(s.from) = EntryState::Hole;
    } else {
      r.undo_to[k] = cell(s.to);
      cell(s.to) = EntryState::Moved;
      cell(s.from) = EntryState::Vacant;
      ++r.moves_done;
    }
    while (r.boundary > r.lo && is_gone(cell(r.boundary - 1))) --r.boundary;
  }
  while (r.cursor > cursor) {
    const size_t k = --r.cursor;
    const ecs::JournalStep& s = r.steps[k];
    if (s.kind == ecs::StepKind::Renumber) continue;
    if (s.kind == ecs::StepKind::Move) {
      cell(s.to) = r.undo_to[k];
      if (!is_gone(cell(s.to))) r.boundary = std::max(r.boundary, s.to + 1);
      --r.moves_done;
    }
    cell(s.from) = r.undo_from[k];
    if (!is_gone(cell(s.from))) r.boundary = std::max(r.boundary, s.from + 1);
  }
}

std::vector<ReplayCell> gather_replay_cells(const ReleaseReplay& r, unsigned entries_per_cell, size_t first_cell,
                                            size_t cells) {
  std::vector<ReplayCell> out(cells);
  if (!r.loaded || entries_per_cell == 0) return out;
  constexpr unsigned kSamples = 256;  // a huge cell is sampled, not walked
  for (size_t i = 0; i < cells; ++i) {
    const unsigned long long begin = (first_cell + i) * entries_per_cell, end = begin + entries_per_cell;
    const unsigned long long a = std::max<unsigned long long>(begin, r.lo), b = std::min<unsigned long long>(end, r.hi);
    if (a >= b) continue;
    const unsigned long long stride = std::max<unsigned long long>(1, (b - a) / kSamples);
    ReplayCell& c = out[i];
    for (unsigned long long e = a; e < b; e += stride) {
      switch (r.state[size_t(e - r.lo)]) {
        case EntryState::Live: ++c.live; break;
        case EntryState::Hole: ++c.holes; break;
        case EntryState::Vacant: ++c.vacant; break;
        case EntryState::Moved: ++c.moved; break;
      }
    }
  }
  const unsigned long long first_entry = first_cell * entries_per_cell,
                           last_entry = (first_cell + cells) * entries_per_cell;
  for (size_t k = 0; k < r.cursor; ++k) {
    const ecs::JournalStep& s = r.steps[k];
    if (s.kind != ecs::StepKind::Move) continue;
    for (unsigned e : {s.from, s.to})
      if (e >= first_entry && e < last_entry) ++out[size_t((e - first_entry) / entries_per_cell)].moves_through;
  }
  return out;
}

namespace {

// The scratch copy a what-if runs on: each entry's owner (0: a survivor no step named),
// its slot in the owner's list, whether it dies, and its component's bytes.
struct Scratch {
  std::vector<unsigned> owner;
  std::vector<unsigned char> local, dead;
  std::vector<unsigned char> bytes;
  std::vector<EntryState> layout;
  unsigned size = 0;
  void move(unsigned from, unsigned to, unsigned component_bytes) {
    owner[to] = owner[from], local[to] = local[from], dead[to] = dead[from];
    std::memcpy(&bytes[size_t(to) * component_bytes], &bytes[size_t(from) * component_bytes], component_bytes);
    layout[to] = EntryState::Moved;
  }
};

}  // namespace

WhatIf run_what_if(const ReleaseReplay& r, unsigned component_bytes) {
  WhatIf w;
  w.serial = r.serial, w.pool = r.pool, w.lo = r.lo, w.hi = r.hi;
  if (!r.loaded) return w.problem = "no release picked", w;
  if (r.dropped) return w.problem = "the journal had no room for all of this release's steps", w;
  if (r.path == ecs::ReleasePath::RemoveOne)
    return w.problem = "a single remove has no victims to release another way", w;
  if (r.victims.empty()) return w.problem = "the journal no longer holds this release's victims", w;
  const unsigned n = r.hi - r.lo;
  component_bytes = std::max(component_bytes, 1u);
  // The before-state, rebuilt backwards: each entry a step touched gets the owner the
  // earliest step touching it names.
  Scratch before;
  before.size = n;
  before.owner.assign(n, 0);
  before.local.assign(n, 0);
  before.dead.assign(n, 0);
  for (size_t k = r.steps.size(); k-- > 0;) {
    const ecs::JournalStep& s = r.steps[k];
    if (s.kind == ecs::StepKind::Renumber) continue;
    before.owner[s.from - r.lo] = s.owner.index;
    before.local[s.from - r.lo] = s.local;
  }
  std::vector<unsigned char> victim_index;  // by entity index: 1 for this release's victims
  for (Handle v : r.victims) {
    if (v.index >= victim_index.size()) victim_index.resize(size_t(v.index) + 1, 0);
    victim_index[v.index] = 1;
  }
  for (unsigned e = 0; e < n; ++e) {
    const unsigned o = before.owner[e];
    before.dead[e] = o != 0 && o < victim_index.size() && victim_index[o];
    w.holes += before.dead[e];
  }
  before.bytes.assign(size_t(n) * component_bytes, 0);
  before.layout.assign(n, EntryState::Live);
  auto finish = [&](WhatIfResult& res, Scratch& s, unsigned taken) {
    for (unsigned e = taken; e < n; ++e) s.layout[e] = EntryState::Vacant;
    res.layout = std::move(s.layout);
  };

  // One at a time: each victim's slots from the back of its list, each freed entry taking
  // the pool's last; an entry moved that belongs to a later victim is a wasted move.
  {
    WhatIfResult& res = w.results[0];
    res.name = "one at a time";
    Scratch s = before;
    std::vector<std::vector<unsigned>> lists(r.victims.size());
    std::vector<unsigned> slot_of(victim_index.size(), ~0u);  // victim index -> its list
    for (size_t v = 0; v < r.victims.size(); ++v) slot_of[r.victims[v].index] = unsigned(v);
    for (unsigned e = 0; e < n; ++e) {
      if (!s.dead[e]) continue;
      std::vector<unsigned>& l = lists[slot_of[s.owner[e]]];
      if (l.size() <= s.local[e]) l.resize(size_t(s.local[e]) + 1, ~0u);
      l[s.local[e]] = e;
    }
    unsigned taken = n;
    const double t0 = ecs::thread_cpu_ms();
    for (std::vector<unsigned>& l : lists)
      for (size_t k = l.size(); k-- > 0;) {
        const unsigned at = l[k];
        if (at == ~0u) continue;
        const unsigned last = --taken;
        if (at == last) continue;
        s.move(last, at, component_bytes);
        ++res.moves;
        if (s.dead[at]) {
          ++res.wasted;
          lists[slot_of[s.owner[at]]][s.local[at]] = at;  // the rewire a later victim's release reads
        }
      }
    res.cpu_ms = ecs::thread_cpu_ms() - t0;
    finish(res, s, taken);
  }
  // Tail fill: the tail's survivors into the holes below the new end, lowest hole first.
  {
    WhatIfResult& res = w.results[1];
    res.name = "tail fill";
    Scratch s = before;
    const unsigned new_taken = n - w.holes;
    unsigned tail = n;
    const double t0 = ecs::thread_cpu_ms();
    for (unsigned hole = 0; hole < new_taken; ++hole) {
      if (!s.dead[hole]) continue;
      do { --tail; } while (s.dead[tail]);
      s.move(tail, hole, component_bytes);
      s.dead[hole] = 0;
      ++res.moves;
    }
    res.cpu_ms = ecs::thread_cpu_ms() - t0;
    finish(res, s, new_taken);
  }
  // Compaction: the survivors from the first hole on slide down in order.
  {
    WhatIfResult& res = w.results[2];
    res.name = "compaction";
    Scratch s = before;
    unsigned to = 0;
    const double t0 = ecs::thread_cpu_ms();
    for (unsigned e = 0; e < n; ++e) {
      if (s.dead[e]) continue;
      if (e != to) {
        s.move(e, to, component_bytes);
        s.dead[to] = 0;
        ++res.moves;
      }
      ++to;
    }
    res.cpu_ms = ecs::thread_cpu_ms() - t0;
    finish(res, s, to);
  }
  w.done = true;
  return w;
}

}  // namespace colony
