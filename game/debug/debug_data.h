// debug_data.h — what the debugger's panels show, computed by pure functions from the
// engine (no ImGui here). Drawing code only formats these structs; tests compare them
// with the engine's stats and validator.
//
// Table of contents
//   [SECTION] Pool access by index (any ColonyEcs pool, no per-type code)
//   [SECTION] Pools panel
//   [SECTION] Pool map (cells, hit test)
//   [SECTION] Entity inspector
//   [SECTION] Chunk minimap
//   [SECTION] Release theatre (the journal's releases, replayed move by move; what-if)
#pragma once
#include <array>
#include <span>
#include <string>
#include <vector>

#include "components.h"

namespace colony {

// [SECTION] Pool access by index

inline constexpr int kMaxPools = int(ColonyEcs::kPoolCount);

// The type-free view of one pool: its stats and back-pointers (entries [0, taken)).
struct PoolView {
  const ecs::PoolStats* stats = nullptr;
  const ecs::BackPointer* owners = nullptr;
  unsigned component_bytes = 0;
};
PoolView pool_view(const ColonyEcs& ecs, int pool);
const char* pool_name(int pool);

// Owner kind for colouring: the record header's kind; Kind::Count when the owner is not alive.
Kind owner_kind(const ColonyEcs& ecs, Handle owner);
// One colour per kind (0xAABBGGRR, ImGui's packed order), plus free and mixed cells.
unsigned kind_color(Kind k);
inline constexpr unsigned kFreeCellColor = 0xFF302820u;
inline constexpr unsigned kMixedCellColor = 0xFF8080A0u;

// [SECTION] Pools panel

struct PoolPanelRow {
  std::string name;
  unsigned capacity = 0, taken = 0, high_water = 0, max_per_entity = 0, owners = 0;
  unsigned long long reserved_unused = 0;
  unsigned long long slack_bytes = 0;      // reserved_unused * component size
  unsigned long long component_bytes = 0;  // size of one component
  unsigned long long fixed_max_slots = 0;  // owners * max_per_entity: what per-entity fixed arrays would hold
  unsigned long long pool_bytes = 0;       // capacity * (component + back-pointer): the address space taken
  ecs::PoolCounters tick;                  // this tick's reserves, adds, removes, rewires, failed
  ecs::PoolCounters total;
  std::vector<unsigned> histogram;  // owners by component count, 0..max_per_entity
};

struct PoolPanelData {
  std::vector<PoolPanelRow> pools;
  unsigned live_entities = 0, simulated_entities = 0, max_entities = 0;
  unsigned long long failed_creates = 0;
  unsigned pending_destructions = 0;
  // The latest batched release (a bomb, a fire, a kill %): its victims and how long each
  // pass took (World::last_release; a batch small enough to go one at a time is not timed).
  ColonyEcs::ReleaseTimes last_release;
  // How the next batch goes: one at a time while the footprint is at most
  // small_world_bytes or the batch at most swap_release_max victims, else the timed passes.
  unsigned long long release_footprint = 0, small_world_bytes = 0;
  unsigned swap_release_max = 0;
  bool small_world = false;  // World::is_small_world
};
PoolPanelData gather_pool_panel(const ColonyEcs& ecs);

// [SECTION] Pool map

// How the dense array is laid out on screen: `columns` cells per row, each covering
// `entries_per_cell` consecutive entries, entries [0, range) shown.
struct PoolMapLayout {
  int pool = 0;
  unsigned range = 0;  // entries shown (high-water or capacity)
  unsigned entries_per_cell = 1;
  int columns = 1, rows = 1;
  float cell_px = 6;
  unsigned taken = 0;  // boundary marker
};
// Chooses entries_per_cell so [0, range) fits into columns x max_rows cells; with `exact`
// every cell is one entry and the rows run as long as the range needs (the view scrolls).
PoolMapLayout layout_pool_map(const ColonyEcs& ecs, int pool, bool whole_capacity, float width_px, float max_height_px,
                              float cell_px, bool exact = false);

struct PoolMapCell {
  unsigned color = kFreeCellColor;
  float fill = 0;      // fraction of the cell's entries below `taken`
  Handle first_owner;  // owner of the cell's first entry (null when free)
};
// One colour per cell of rows [row_begin, row_end) (cell (row, col) at index
// (row - row_begin) * columns + col); an aggregated cell takes the most common owner kind
// of three sampled entries (kMixedCellColor when no kind has a majority).
std::vector<PoolMapCell> gather_pool_map(const ColonyEcs& ecs, const PoolMapLayout& layout, int row_begin = 0,
                                         int row_end = 1 << 30);

struct PoolMapHit {
  bool valid = false;   // inside the map and on a live entry
  bool on_map = false;  // over a cell that shows entries (the last row ends where the range does)
  int pool = 0;
  unsigned entry = 0;  // first entry of the cell
  unsigned cell_entries = 0;
  Handle owner;
  unsigned owner_chunk = 0;
  unsigned local = 0;  // the entry's index in its owner's slot list
  Kind kind = Kind::Count;
};
// Maps a point relative to the map's top-left corner to a cell, its first entry and owner.
PoolMapHit hit_test_pool_map(const ColonyEcs& ecs, const PoolMapLayout& layout, float x, float y);
// The entry at a known index (used by the hit test and by tests).
PoolMapHit pool_entry_info(const ColonyEcs& ecs, int pool, unsigned entry);

// [SECTION] Entity inspector

struct SlotRow {
  unsigned local = 0;
  unsigned entry = 0;
  bool added = false;  // holds a component (else reserved only)
  bool back_pointer_ok = false;
  std::string data;  // the component's fields, formatted
};
struct PoolSlots {
  std::string name;
  unsigned reserved = 0, added = 0, max = 0;
  std::vector<SlotRow> slots;
};
struct InspectorData {
  bool found = false;
  Handle handle;
  unsigned chunk = 0;
  ecs::Tier tier = ecs::Tier::Free;
  bool dying = false;
  Body body;
  Kind header_kind = Kind::Count;
  std::vector<PoolSlots> pools;
  unsigned bad_back_pointers = 0;
};
InspectorData gather_inspector(const ColonyEcs& ecs, Handle h);
const char* part_name(Part p);
std::string describe_component(const RenderPiece& c);
std::string describe_component(const CollisionVolume& c);
std::string describe_component(const Sensor& c);

// [SECTION] Chunk minimap

// What the minimap colours chunks by.
enum class ChunkCount : unsigned char {
  Entities,  // everything in the chunk (O(chunks), from the store's membership counts)
  NonTiles,  // minus one tile per cell (O(chunks); tiles never move)
  Ants,      // workers, soldiers and queens (walks every entity of every chunk once)
};
struct ChunkCell {
  unsigned simulated = 0, dormant = 0;  // entities of each tier in the chunk
  unsigned tiles = 0;                   // cells of the map in the chunk (NonTiles)
  unsigned ants = 0;                    // (Ants)
  unsigned value = 0;                   // what the minimap shows, by mode
};
struct ChunkMapData {
  unsigned chunks_x = 0, chunks_y = 0, chunk_cells = 0;
  ChunkCount mode = ChunkCount::Entities;
  std::vector<ChunkCell> chunks;
  unsigned max_value = 0;
};
ChunkMapData gather_chunk_map(const ColonyEcs& ecs, ChunkCount mode);
// Chunk under a minimap point (x, y relative to its top-left, cell_px per chunk); -1 outside.
int hit_test_chunk_map(const ChunkMapData& d, float cell_px, float x, float y);

// [SECTION] Release theatre

// One line of the list of recent releases (World::journal()).
struct ReleaseRow {
  unsigned long long serial = 0, tick = 0;
  std::string cause;  // release_cause_text
  ecs::ReleasePath path = ecs::ReleasePath::None;
  unsigned victims = 0;
  unsigned long long moves = 0;    // all pools, as made
  unsigned long long dropped = 0;  // steps the ring had no room for
  double cpu_ms = 0;               // thread CPU clock
};
// The journal's releases, newest first, at most `max`; single remove_one releases (a
// bomb's torn-off legs) only with `with_removes`.
std::vector<ReleaseRow> gather_release_list(const ColonyEcs& ecs, size_t max, bool with_removes);
// Why the engine released this way, in a newcomer's words: the world's size, the batch's,
// and for the batch passes each pool's choice of tail fill or compaction.
std::string explain_release(const ColonyEcs& ecs, const ColonyEcs::JournalRelease& r);

// The state of a pool entry in a replay.
enum class EntryState : unsigned char {
  Live,    // a survivor where it stood before the release
  Hole,    // freed, not (yet) filled
  Vacant,  // a survivor moved away from here
  Moved,   // a survivor moved in here
};
// One pool's part of one release, replayed on its own copy of the entries' states: the
// steps are copied out of the journal when the release is picked, so the replay stays
// whole while the game runs on and the ring moves past it.
struct ReleaseReplay {
  bool loaded = false;
  unsigned long long serial = 0, tick = 0;
  int pool = 0;
  ecs::ReleasePath path = ecs::ReleasePath::None;
  unsigned lo = 0, hi = 0;  // the entries the steps touch lie in [lo, hi); hi = taken before
  unsigned taken_after = 0;
  unsigned long long dropped = 0;       // steps the journal had no room for
  std::vector<ecs::JournalStep> steps;  // this pool's steps, in order
  std::vector<Handle> victims;
  std::vector<EntryState> state;               // [lo, hi) after `cursor` steps
  std::vector<EntryState> undo_from, undo_to;  // per step: its entries' states before it
  size_t cursor = 0;                           // steps applied
  unsigned boundary = 0;                       // taken as the replay stands: last live entry + 1
  unsigned long long moves_done = 0;           // moves among the applied steps
  EntryState at(unsigned entry) const {
    return entry < lo ? EntryState::Live : entry >= hi ? EntryState::Hole : state[entry - lo];
  }
};
// Loads pool `pool`'s part of release `serial`; false (and r.loaded false) when the journal
// has dropped it or the pool took no part.
bool load_replay(ReleaseReplay& r, const ColonyEcs& ecs, unsigned long long serial, int pool);
// Applies or undoes steps until `cursor` steps are applied.
void replay_seek(ReleaseReplay& r, size_t cursor);
// The pool's entries in [lo, hi) as they stand at the replay's cursor, per pool-map cell:
// counts of each state among the cell's entries (sampled in huge cells).
struct ReplayCell {
  unsigned live = 0, holes = 0, vacant = 0, moved = 0;
  unsigned moves_through = 0;  // applied moves whose source or destination lies in the cell
};
std::vector<ReplayCell> gather_replay_cells(const ReleaseReplay& r, unsigned entries_per_cell, size_t first_cell,
                                            size_t cells);

// What-if: the release's victims released again, from the pool's before-state (rebuilt
// from the journal's steps: each entry a step touched gets the owner the earliest such step
// names), in scratch memory, under each strategy.
struct WhatIfResult {
  const char* name = "";
  unsigned long long moves = 0;    // entries moved, each one rewire
  unsigned long long wasted = 0;   // moves of an entry that died later in the same release
  double cpu_ms = 0;               // thread CPU clock, on the scratch copy
  std::vector<EntryState> layout;  // [lo, hi) after
};
struct WhatIf {
  bool done = false;
  std::string problem;  // why it could not run (steps dropped, no victims)
  unsigned long long serial = 0;
  int pool = 0;
  unsigned lo = 0, hi = 0, holes = 0;
  std::array<WhatIfResult, 3> results;  // one at a time, tail fill, compaction
};
WhatIf run_what_if(const ReleaseReplay& r, unsigned component_bytes);

}  // namespace colony
