// game.h — the whole state of a running Colony world and the verbs that advance it.
// Everything the window, the debugger, save/replay and the benchmarks need is here.
//
// Table of contents
//   [SECTION] Terrain and fields
//   [SECTION] Colonies and counters
//   [SECTION] Player commands (the only way input changes the world; recorded for replay)
//   [SECTION] Visual effects (for the renderer; never read by the simulation)
//   [SECTION] Game state
//   [SECTION] Verbs
//   [SECTION] Building blocks (used by the verbs, the tests and the benchmarks)
//
// Entities and tiers:
//   tiles        one per cell, one render piece, always dormant (chunk-local storage);
//                the terrain grid below is what the systems read, the tile's piece is
//                what the renderer and the debugger see (kept in step by set_terrain).
//   ants         workers, soldiers, queens: simulated when their chunk touches the
//                simulation region, otherwise dormant and advanced every
//                rules.dormant_period ticks by a cheaper model.
//   food, corpse static, always dormant; found through the food grid.
#pragma once
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "components.h"
#include "random.h"
#include "scenario.h"

namespace colony {

// [SECTION] Terrain and fields

inline constexpr int kTicksPerSecond = 60;
inline constexpr float kDt = 1.0f / kTicksPerSecond;
inline constexpr u32 kMaxColonies = 4;

enum class Field : u8 { ToFood = 0, ToHome = 1 };  // per colony; danger is shared

enum CellFlag : u8 { kCellFood = 1, kCellDanger = 2 };
inline constexpr float kDangerFelt = 0.05f;  // danger above this turns ants back
enum ChunkScent : u8 { kChunkTrail = 1, kChunkDanger = 2 };

// Culled: killed by the debugger's Stress panel (kill %, CommandKind::KillPercent).
enum class DeathCause : u8 { Explosion = 0, Fire, Combat, Age, Starvation, Culled, Count };
const char* death_cause_name(DeathCause c);
// What the engine's release journal is told caused a release (World::journal_context): a
// bit per death cause of the ants it freed, kReleaseMaim for a leg or antenna a bomb tore
// off; none for the rest (food eaten, corpses cleared, terrain painted over a world).
inline constexpr u32 kReleaseMaim = 1u << 8;
constexpr u32 release_cause_bit(DeathCause c) { return 1u << u32(c); }
// "explosion", "explosion + combat", "maimed by a bomb", "other".
std::string release_cause_text(u32 cause);

// [SECTION] Colonies and counters

struct DeathCounts {
  std::array<u64, size_t(DeathCause::Count)> by_cause{};
  u64 total() const;
};

// A turn in a colony's fate, as the window announces it.
enum class Fate : u8 { None = 0, Collapsed, Starving, Refounded, Founded };
const char* fate_name(Fate f);

struct Colony {
  float nest_x = 0, nest_y = 0;
  u32 color = 0xFF'FF'FF'FFu;  // 0xAABBGGRR
  Handle queen;
  double food = 0;          // stored food units
  u64 alive = 0, born = 0;  // ants (workers, soldiers, queen)
  DeathCounts died;
  u64 delivered = 0;      // food units delivered to the nest
  bool starving = false;  // food ran out: ants die of hunger until it comes back
  // Refounding (ecology.cpp): the tick after the colony fell to no workers or soldiers
  // (0 while it has some), and how often its queen has founded it again.
  u64 down_since = 0;
  u64 refounds = 0;
  // The latest turn of its fate and when, for the window's messages. Not saved or
  // hashed: the simulation never reads it.
  Fate fate = Fate::None;
  u64 fate_tick = 0;
};

// [SECTION] Player commands

// PlaceColony founds a new colony (nest and queen) at x, y: one more, up to kMaxColonies.
enum class CommandKind : u8 {
  Bomb,
  BigBomb,
  Ignite,
  PlaceFood,
  PaintTerrain,
  SpawnAnts,
  KillPercent,
  PlaceColony,
  Count
};
const char* command_kind_name(CommandKind k);

struct Command {
  CommandKind kind = CommandKind::Bomb;
  float x = 0, y = 0;  // world position in cells
  float radius = 0;    // bomb kill radius (0 = default), fire/paint radius, spawn scatter
  u32 count = 0;       // spawn count, food crumbs, kill percent
  u8 colony = 0;
  Kind caste = Kind::Worker;
  Terrain terrain = Terrain::Grass;
};
inline constexpr float kBombRadius = 6, kBigBombRadius = 16;
// A bomb maims in a ring out to its kill radius times this.
inline constexpr float kBombMaimScale = 1.6f, kBigBombMaimScale = 1.4f;

// Per-system time of the last tick and totals (ms), for the HUD, debugger and report,
// measured in CPU time summed over the simulation's threads (time a thread spends
// descheduled on a busy machine is not charged to a system). Measured only; never read
// by the simulation.
struct SystemTimes {
  // Destroy is the engine's batched release of the tick's dead (apply_destructions);
  // Corpses is the game spawning what they leave behind.
  enum Id { Simulate = 0, Pheromones, Fire, Destroy, Regions, Dormant, Corpses, Count };
  std::array<double, Count> last_ms{};
  std::array<double, Count> total_ms{};
};
const char* system_name(SystemTimes::Id id);

// [SECTION] Visual effects

// A recent explosion, for the renderer's flash, shockwave and debris.
struct Blast {
  float x = 0, y = 0, radius = 0, outer = 0;
  u64 tick = 0;
  u32 killed = 0, maimed = 0;
};
// Game::blasts keeps the explosions of the last kBlastTicks, oldest first, at most
// kMaxBlasts: a bomb that finds the list full drops its oldest quarter in one erase, so a
// tick of hundreds of bombs neither allocates nor shifts the list once per bomb.
inline constexpr u64 kBlastTicks = 5 * kTicksPerSecond;
inline constexpr size_t kMaxBlasts = 1024;

// A fight's contact, for the renderer's sparks: where, when, and the two colonies.
struct Spark {
  float x = 0, y = 0;
  u64 tick = 0;
  u8 colony_a = 0, colony_b = 0;
};
// Game::sparks keeps the contacts of the last kSparkTicks, oldest first, at most
// kMaxSparks (a contact that finds the list full is not shown). Not saved or hashed.
inline constexpr u64 kSparkTicks = 12;
inline constexpr size_t kMaxSparks = 2048;

// [SECTION] Game state

struct Game {
  Scenario scenario;
  u64 seed = 0;
  u64 tick = 0;
  std::unique_ptr<ColonyEcs> ecs;

  // Tiles: one entity per cell plus the terrain grid the systems read.
  u32 width = 0, height = 0;  // in cells
  std::vector<Terrain> terrain;
  std::vector<Handle> tiles;
  std::vector<u16> fire;           // remaining burn ticks per cell, 0 = not burning
  std::vector<u8> scorch;          // 0..255 scorch darkness per cell (bomb marks)
  std::vector<u32> burning;        // cells on fire, in ignition order
  std::vector<u32> chunk_burning;  // burning cells per chunk (fire victims are looked up by chunk)

  // Pheromones: per colony to-food and to-home, plus one shared danger field.
  std::vector<std::vector<float>> fields;  // index colony * 2 + Field
  std::vector<float> danger;

  // Food sources and corpses by cell (a food source covers the 3x3 cells around it).
  std::vector<Handle> food_at;
  u32 food_sources = 0;  // live food-source entities
  // Per cell, derived (rebuild_cell_flags): kCellFood when food_at names something,
  // kCellDanger when danger > kDangerFelt. One byte per cell keeps the ants' checks in cache.
  std::vector<u8> cell_flags;
  // Per chunk, derived: kChunkTrail while any trail scent there may be above zero,
  // kChunkDanger likewise for danger (evaporation skips the rest). Rebuilt with cell_flags.
  std::vector<u8> chunk_scent;

  std::vector<Colony> colonies;
  Rng rng;                      // the world's random stream (spawns, random food)
  Rng event_rng;                // scenario events (bomb jitter)
  std::vector<u64> event_next;  // per scenario event: next tick it fires (~0 = done)

  // Simulation region in cells: chunks intersecting it are simulated, the rest dormant.
  float region_x = 0, region_y = 0, region_w = 0, region_h = 0;
  std::vector<u8> chunk_simulated;  // per chunk: 1 when its ants are in the simulated tier

  std::vector<Command> pending_commands;  // applied at the start of the next tick
  // The cells pending_commands touch (commands_cells), kept beside the queue wherever it
  // changes, so that queue_command checks the tick's budget without summing the queue.
  double pending_command_cells = 0;
  std::vector<u64> dirty_chunks_stamp;  // tick at which each chunk's tiles last changed (renderer cache)
  u64 spawn_refused = 0;                // births refused for lack of pool capacity
  // Of those, the ants of spawn commands (the player's): the window names their refusals.
  // Not saved or hashed, as refused_commands.
  u64 command_spawns_refused = 0;
  u64 moves = 0;          // ants moved between chunks or tiers
  u64 refused_moves = 0;  // of those, refused by the entity store and undone (regions.cpp)
  u64 invariant_violations = 0;
  // Commands queue_command refused (past kTickCommandCellsBudget). Not saved or hashed:
  // a refused command never reached the world.
  u64 refused_commands = 0;
  SystemTimes times;
  std::vector<Blast> blasts;  // explosions of the last kBlastTicks (see kMaxBlasts)
  std::vector<Spark> sparks;  // fight contacts of the last kSparkTicks (see kMaxSparks)

  // Scratch, reused every tick (not state: empty between ticks).
  std::vector<ColonyEcs::ChunkMove> scratch_moves;  // chunk changes a walk defers to its end
  // Where each deferred move's ant stood before its step, beside scratch_moves (a refused
  // move puts the ant back there).
  struct Stand {
    float x, y;
    u32 cell, chunk;
  };
  std::vector<Stand> scratch_stands;
  std::vector<Handle> scratch_handles;
  struct CorpseOrder {
    float x, y, heading;
    u8 colony;
    Kind kind;
  };
  std::vector<CorpseOrder> scratch_corpses;
  std::vector<u64> occupancy;  // per cell: tick << 32 | ant index (combat contacts)
  // The full model's passes (ants.cpp): what each job of the parallel walk leaves for the
  // steps after it. Sized by size_scratch.
  struct AntPasses;
  struct AntPassesDeleter {
    void operator()(AntPasses* p) const;
  };
  std::unique_ptr<AntPasses, AntPassesDeleter> ant_passes;
  std::vector<u32> scratch_cells;
};

// [SECTION] Verbs

// Builds a world from a parsed scenario. Returns nullptr and fills err on failure (also
// when the world would not fit in memory: see memory_problem).
std::unique_ptr<Game> make_game(const Scenario& scenario, u64 seed, std::string* err);
// The bytes a scenario's world takes once built (tiles, starting ants and food, the
// per-cell grids), from the engine's record, row and entry sizes.
u64 world_bytes_at_start(const Scenario& s);
// The same at the pools' and the store's capacities: what the world comes to as it fills.
u64 world_bytes_at_capacity(const Scenario& s);
// Why this machine should not build the scenario's world, or "": at its capacities it
// would take more than the memory budget, 80 % of physical memory or of the process's control group
// limit, whichever is less (COLONY_MEMORY_BUDGET_MB sets it instead). A world past the
// machine's memory would otherwise die half-built, swap, or be killed by the kernel.
std::string memory_problem(const Scenario& s);
// The memory a world may take: bytes, and how they were decided; or why the setting is
// unusable (problem, when COLONY_MEMORY_BUDGET_MB is not a positive number).
struct MemoryBudget {
  double bytes = 0;
  const char* how = "";
  std::string problem;
};
MemoryBudget memory_budget();
// "1.4 GB" or "903 MB": sizes as the error lines give them.
std::string size_text(double bytes);
// The memory limit on this process's control group (cgroup v2 memory.max, v1
// memory.limit_in_bytes), the smallest of its group and the groups above; 0 when none
// is set or none can be read. `root` is where the hierarchy is mounted and `self` lists
// the process's groups.
u64 cgroup_memory_limit(const std::string& root = "/sys/fs/cgroup", const std::string& self = "/proc/self/cgroup");
// Advances exactly one fixed time step: commands, scenario events, systems, deaths.
void simulate_tick(Game& g);
// The threads the full model's passes share, for every world in the process (1 until
// set): 0 asks for the machine's cores. The state after any tick is the same whatever
// the count (the state hash, saves, replays and the rewind agree across machines).
void set_sim_threads(u32 n);
u32 sim_threads();
// One tick's commands touch at most this many times the map's cells, the bound a
// scenario's once-only events have (a bomb its maim ring, a fire or a brush its disc, a
// spawn or a food drop a cell per ant or crumb, kill-percent the whole map): a tick's
// work stays bounded whatever a file or the Stress panel asks for.
inline constexpr double kTickCommandCellsBudget = kOnceEventCellsBudget;
// The cells a command touches at most, as apply_command will carry it out.
double command_cells(const Game& g, const Command& c);
// The cells a list of commands touches, summed in its order (the queue's check and the
// loaders' add them up alike, so a queue the game accepted is never refused on load).
double commands_cells(const Game& g, const std::vector<Command>& cmds);
// The cells the commands in `cmds` touch, summed; "" when they fit one tick's budget,
// else why not ("the commands of one tick touch N cells, more than ...").
std::string tick_commands_problem(const Game& g, const std::vector<Command>& cmds);
// Player input enters here (applied at the start of the next tick, recorded by replay).
// False, and counted in refused_commands, when the tick's commands would pass
// kTickCommandCellsBudget with it.
bool queue_command(Game& g, const Command& c);
// Why a colony cannot be founded at x, y now ("" when it can): the colonies are
// already kMaxColonies, the cell is off the map or not land (grass or dirt), or another
// nest is closer than kMinNestDistance. A PlaceColony command that meets one of these
// when it is applied does nothing.
std::string place_colony_problem(const Game& g, float x, float y);
// Moves the simulation region (cells); entities change tier on the next tick.
void set_sim_region(Game& g, float x, float y, float w, float h);
// Hash of everything that affects the future.
u64 state_hash(const Game& g);

// Totals over all colonies.
u64 ants_alive(const Game& g);
u64 ants_born(const Game& g);
DeathCounts ants_died(const Game& g);

// [SECTION] Building blocks

inline bool in_map(const Game& g, int cx, int cy) {
  return cx >= 0 && cy >= 0 && u32(cx) < g.width && u32(cy) < g.height;
}
// A world position (cells, fractional) on the map.
inline bool in_map(const Game& g, float x, float y) {
  return x >= 0 && y >= 0 && x < float(g.width) && y < float(g.height);
}
inline u32 cell_index(const Game& g, int cx, int cy) { return u32(cy) * g.width + u32(cx); }
inline bool is_ant(Kind k) { return k == Kind::Worker || k == Kind::Soldier || k == Kind::Queen; }

// Spawns one ant with its pieces, volumes and sensors. Returns the null handle (and
// counts a refused spawn) when the store or a pool has no room.
Handle spawn_ant(Game& g, u8 colony, Kind caste, float x, float y, float heading);
// Places a food source (crumbs 1..31) centred on a cell. Null handle when refused.
Handle spawn_food(Game& g, float x, float y, u32 crumbs);

// Explosion: kills every ant within radius, maims ants in the ring out to outer, sets
// grass on fire, scorches and leaves danger scent. Deaths are queued (see apply_deaths).
Blast apply_bomb(Game& g, float x, float y, float radius, float outer);
void ignite(Game& g, float x, float y, float radius);
void set_terrain(Game& g, u32 cell, Terrain t);
// Recomputes cell_flags and chunk_scent from food_at, danger and the fields (after loading a save).
void rebuild_cell_flags(Game& g);
// Kills an ant (queued): counts the death, leaves a corpse where the cause does.
// Returns false if it was already dying.
bool kill_ant(Game& g, Record& r, DeathCause cause);
// Removes one leg (side 0/1, or either when side > 1) or, when legs are gone or
// prefer_antenna, one antenna. Returns false when there was nothing to remove.
bool maim_ant(Game& g, Record& r, bool prefer_antenna, u32 side);
// The one point where queued deaths happen (batched release), then corpses are laid:
// apply_destructions followed by spawn_corpses (the tick times them apart).
u32 apply_deaths(Game& g);
void spawn_corpses(Game& g);
// Food: one bite from a food source or corpse under the ant, picked up as a carried
// piece. Returns true when the ant now carries food.
bool take_food(Game& g, Record& ant);
// Delivers carried food to the ant's colony (removes the carried piece).
bool deliver_food(Game& g, Record& ant);
// Runs the engine's validator and the game's own checks; counts every violation found
// into g.invariant_violations (and *found, when given). Returns at most about
// max_reports of them (the engine's list may end in its "N more" line).
std::vector<ecs::Violation> validate_game(Game& g, size_t max_reports = 16, u64* found = nullptr);

// Render piece local index of the carried-food piece, or -1.
int carried_piece(ColonyEcs& ecs, const Record& r);

}  // namespace colony
