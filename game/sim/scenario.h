// scenario.h — a scenario: everything needed to build a world (map, terrain recipe,
// colonies, food, simulation region, pool capacities, rules, timed events), read from
// JSON by load_scenario. Every value is checked there; nothing here is validated again.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "components.h"

namespace colony {

enum class Terrain : u8 { Grass = 0, Dirt, Water, Rock, Count };
inline bool passable(Terrain t) { return t == Terrain::Grass || t == Terrain::Dirt; }
const char* terrain_name(Terrain t);

// A painted rectangle or circle of one terrain kind, applied after the noise.
struct TerrainShape {
  Terrain terrain = Terrain::Water;
  bool circle = false;
  float x = 0, y = 0, w = 0, h = 0;  // rectangle: corner and size; circle: centre in x, y
  float r = 0;                       // circle radius
};

// Seeded value noise thresholds: cells whose noise falls below water become water,
// above 1 - rock become rock, and the band next to water becomes dirt.
struct TerrainNoise {
  bool enabled = false;
  float scale = 32;     // cells per noise feature
  float water = 0.15f;  // fraction-ish of the map under water
  float rock = 0.05f;
  float dirt = 0.1f;
};

// A colony's colour when its file names none, by its place in the list (0xAABBGGRR):
// red, blue, yellow, purple.
inline constexpr u32 kDefaultColonyColors[4] = {0xFF3040E0u, 0xFFE08030u, 0xFF30C0E0u, 0xFFD040C0u};

struct ColonySpec {
  float nest_x = 0, nest_y = 0;
  u32 color = 0xFFFFFFFFu;  // 0xAABBGGRR
  u32 workers = 0, soldiers = 0;
  float spread = 6;   // starting ants scatter this far around the nest (cells)
  double food = 100;  // starting food store
};

struct FoodSpec {
  float x = 0, y = 0;
  u32 crumbs = 20;  // 1..31 (one render piece each)
};

// Tops the map up with random food sources while it holds fewer than `count` sources of
// any kind (starting, event, placed and random food alike).
struct RandomFood {
  u32 count = 0;
  u32 crumbs_min = 10, crumbs_max = 30;
};

enum class EventKind : u8 { Bomb = 0, Fire, Spawn, Food };
const char* event_kind_name(EventKind k);

// A timed event; with `every` > 0 it repeats every that many ticks until `until`.
struct EventSpec {
  EventKind kind = EventKind::Bomb;
  u64 tick = 0, every = 0, until = ~u64(0);
  float x = 0, y = 0;
  float spread = 0;  // the position is jittered uniformly within this radius (seeded)
  float radius = 5;  // bomb: kill radius; fire: ignition radius; spawn: scatter radius
  float outer = 0;   // bomb: maim ring outer radius (0 = 1.5 x radius)
  u32 count = 0;     // spawn: ants; food: crumbs
  u8 colony = 0;
  Kind caste = Kind::Worker;
};

// Pool and store capacities. Zero means "derive from the scenario". A scenario names a
// pool's capacity by the pool's kPoolName (capacity.render_pieces, ...).
struct Capacity {
  u32 entities = 0;
  PerPool<u32> pools;  // pools.of<RenderPiece>(), ...
  u32 max_ants = 0;    // population the derived capacities are sized for
};

// The fastest an ant may walk, in cells per tick with six legs (rules, saved bodies).
inline constexpr float kMaxAntSpeed = 0.9f;
// Nests stand at least this far apart (cells): two nests' mounds (kNestRadius, 2.5 cells)
// side by side. Closer, one would hide the other and their colonies mix on it.
inline constexpr float kMinNestDistance = 5.0f;

// Tunable rules (all per tick at 60 ticks per second).
struct Rules {
  float worker_speed = 0.25f;  // cells per tick with six legs
  float soldier_speed = 0.2f;
  u32 worker_lifespan = 60 * 180;  // ticks
  u32 soldier_lifespan = 60 * 240;
  float upkeep = 0.0005f;  // food per ant per tick
  float ant_cost = 4;      // food per egg
  u32 lay_interval = 6;    // ticks between eggs per queen
  float soldier_fraction = 0.15f;
  u32 max_population = 0;     // per colony; 0 = no limit but the pools
  float fire_spread = 0.06f;  // chance per burning neighbour per tick
  u32 burn_ticks = 90;
  float evaporation = 0.004f;  // fraction of scent lost per tick
  float deposit = 1.0f;        // scent laid per tick
  u32 dormant_period = 8;      // a dormant chunk is advanced once every this many ticks
  u32 corpse_ticks = 60 * 60;  // a corpse rots away after this long
  // Burnt land heals: a burnt dirt cell turns back to grass with this chance per tick,
  // once more for each grass cell beside it (ecology.cpp). 0 = never.
  float regrowth = 0.00005f;
  // A colony left with no workers or soldiers for refound_delay ticks is founded again:
  // its queen (a new one, when she died) gets refound_food to lay from. 0 food = never.
  float refound_food = 60;
  u32 refound_delay = 600;
  // The chance that an ant in a meeting with an enemy lands a blow, each tick they touch.
  float strike_chance = 0.3f;
};

struct Scenario {
  std::string path;  // where it was read from (error messages)
  std::string name, description;
  u64 seed = 1;
  u32 width = 128, height = 128, chunk_size = 32;
  Terrain base = Terrain::Grass;
  TerrainNoise noise;
  std::vector<TerrainShape> shapes;
  std::vector<ColonySpec> colonies;
  std::vector<FoodSpec> food;
  RandomFood random_food;
  float region_x = 0, region_y = 0, region_w = 0, region_h = 0;  // w/h 0 = whole map
  Capacity capacity;
  Rules rules;
  std::vector<EventSpec> events;
};

// The largest scenario file read (the shipped ones are a few KiB).
inline constexpr std::uint64_t kMaxScenarioBytes = 16u << 20;
// How much a scenario may ask of the machine, in cells touched, as multiples of its map's
// cells: the shapes painted when the world is built, the events that fire once, and the
// repeating events per tick (each event's disc, its area over its period). A scenario past
// one is refused with the totals: a file of a few MiB could otherwise ask for hours.
inline constexpr double kShapeCellsBudget = 64, kOnceEventCellsBudget = 256, kRepeatEventCellsBudget = 16;

// How far a bomb reaches: past its maim ring `outer` it leaves danger for the ants to flee,
// half as far again. A bomb's cells are counted to there.
inline constexpr float kBombDangerScale = 1.5f;
inline float bomb_reach(float outer) { return outer * kBombDangerScale; }
// A bomb event's maim ring: its "outer", or half as far again as its kill radius.
inline float event_bomb_outer(const EventSpec& e) { return e.outer > 0 ? e.outer : e.radius * 1.5f; }

// A number as the error lines print it (six significant digits: 3.2768e+06).
std::string number_text(double v);
// The cells a disc of radius r covers on the map of s, at most: its area, or the whole map.
double disc_cells(const Scenario& s, double r);

// Whether a shape paints cell (cx, cy): a circle the cells whose centre it holds, a
// rectangle the columns floor(x) .. floor(x + w) - 1 and the rows floor(y) .. floor(y + h) - 1.
// The world builder paints exactly these, and the scenario's checks ask the same question.
bool shape_covers_cell(const TerrainShape& sh, int cx, int cy);
// Paints the scenario's shapes, in order, onto a grid of its map (width x height, row by
// row): the cells shape_covers_cell names, walked over each shape's bounding box.
void paint_shapes(const Scenario& s, std::vector<Terrain>& grid);

// Reads and checks a scenario. On failure returns false and sets *err to one line:
// "<file>: <key path>: <problem>" (key path "(file)" when the file cannot be read).
bool load_scenario(const std::string& path, Scenario& out, std::string* err);
// Same, from text already in memory (fuzzing, tests); `path` only names it in errors.
bool parse_scenario(const std::string& text, const std::string& path, Scenario& out, std::string* err);

// What the world holds the moment it is built (tiles, queens, starting ants, food).
struct StartingNeeds {
  std::uint64_t entities = 0, ants = 0;
  PerPool<std::uint64_t> pools;  // components in each pool
};
StartingNeeds starting_needs(const Scenario& s);

// Capacities after derivation (what make_game builds the pools with).
Capacity resolved_capacity(const Scenario& s);

}  // namespace colony
