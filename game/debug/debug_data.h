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
#pragma once
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
  unsigned long long slack_bytes = 0;        // reserved_unused * component size
  unsigned long long component_bytes = 0;    // size of one component
  unsigned long long fixed_max_slots = 0;    // owners * max_per_entity: what per-entity fixed arrays would hold
  unsigned long long pool_bytes = 0;         // capacity * (component + back-pointer): the address space taken
  ecs::PoolCounters tick;                    // this tick's reserves, adds, removes, rewires, failed
  ecs::PoolCounters total;
  std::vector<unsigned> histogram;           // owners by component count, 0..max_per_entity
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
  unsigned range = 0;             // entries shown (high-water or capacity)
  unsigned entries_per_cell = 1;
  int columns = 1, rows = 1;
  float cell_px = 6;
  unsigned taken = 0;             // boundary marker
};
// Chooses entries_per_cell so [0, range) fits into columns x max_rows cells; with `exact`
// every cell is one entry and the rows run as long as the range needs (the view scrolls).
PoolMapLayout layout_pool_map(const ColonyEcs& ecs, int pool, bool whole_capacity, float width_px, float max_height_px,
                              float cell_px, bool exact = false);

struct PoolMapCell {
  unsigned color = kFreeCellColor;
  float fill = 0;       // fraction of the cell's entries below `taken`
  Handle first_owner;   // owner of the cell's first entry (null when free)
};
// One colour per cell of rows [row_begin, row_end) (cell (row, col) at index
// (row - row_begin) * columns + col); an aggregated cell takes the most common owner kind
// of three sampled entries (kMixedCellColor when no kind has a majority).
std::vector<PoolMapCell> gather_pool_map(const ColonyEcs& ecs, const PoolMapLayout& layout, int row_begin = 0,
                                         int row_end = 1 << 30);

struct PoolMapHit {
  bool valid = false;    // inside the map and on a live entry
  bool on_map = false;   // over a cell that shows entries (the last row ends where the range does)
  int pool = 0;
  unsigned entry = 0;    // first entry of the cell
  unsigned cell_entries = 0;
  Handle owner;
  unsigned owner_chunk = 0;
  unsigned local = 0;    // the entry's index in its owner's slot list
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
  bool added = false;          // holds a component (else reserved only)
  bool back_pointer_ok = false;
  std::string data;            // the component's fields, formatted
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

}  // namespace colony
