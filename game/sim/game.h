// game.h — the whole state of a running Colony world and the verbs that advance it.
// Everything the window, the debugger, save/replay and the benchmarks need is here.
//
// Table of contents
//   [SECTION] Terrain and fields
//   [SECTION] Colonies and counters
//   [SECTION] Player commands (the only way input changes the world; recorded for replay)
//   [SECTION] Game state
//   [SECTION] Verbs
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

enum class Terrain : u8 { Grass = 0, Dirt, Water, Rock };
inline bool passable(Terrain t) { return t == Terrain::Grass || t == Terrain::Dirt; }

enum class Field : u8 { ToFood = 0, ToHome = 1 };  // per colony; danger is shared

enum class DeathCause : u8 { Explosion = 0, Fire, Combat, Age, Starvation, Count };
const char* death_cause_name(DeathCause c);

// [SECTION] Colonies and counters

struct DeathCounts {
  std::array<u64, size_t(DeathCause::Count)> by_cause{};
  u64 total() const;
};

struct Colony {
  float nest_x = 0, nest_y = 0;
  u32 color = 0xFF'FF'FF'FFu;  // 0xAABBGGRR
  Handle queen;
  double food = 0;            // stored food units
  u64 alive = 0, born = 0;
  DeathCounts died;
  u64 delivered = 0;          // food units delivered to the nest
};

// [SECTION] Player commands

enum class CommandKind : u8 { Bomb, BigBomb, Ignite, PlaceFood, PaintTerrain, SpawnAnts, KillPercent };

struct Command {
  CommandKind kind = CommandKind::Bomb;
  float x = 0, y = 0;       // world position in cells
  float radius = 0;         // bomb radius, paint radius
  u32 count = 0;            // spawn count, food crumbs, kill percent
  u8 colony = 0;
  Kind caste = Kind::Worker;
  Terrain terrain = Terrain::Grass;
};

// Per-system wall time of the last tick and totals (ms), for the HUD, debugger and report.
struct SystemTimes {
  enum Id { Simulate = 0, Pheromones, Fire, Destroy, Regions, Dormant, Count };
  std::array<double, Count> last_ms{};
  std::array<double, Count> total_ms{};
};
const char* system_name(SystemTimes::Id id);

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
  std::vector<u16> fire;      // remaining burn ticks per cell, 0 = not burning
  std::vector<u8> scorch;     // 0..255 scorch darkness per cell (bomb marks)

  // Pheromones: per colony to-food and to-home, plus one shared danger field.
  std::vector<std::vector<float>> fields;  // index colony * 2 + Field
  std::vector<float> danger;

  std::vector<Colony> colonies;
  Rng rng;  // the world's random stream (seeded)

  // Simulation region in cells: chunks intersecting it are simulated, the rest dormant.
  float region_x = 0, region_y = 0, region_w = 0, region_h = 0;

  std::vector<Command> pending_commands;  // applied at the start of the next tick
  std::vector<u64> dirty_chunks_stamp;    // tick at which each chunk's tiles last changed (renderer cache)
  u64 spawn_refused = 0;                  // births refused for lack of pool capacity
  u64 invariant_violations = 0;
  SystemTimes times;
};

// [SECTION] Verbs

// Builds a world from a parsed scenario. Returns nullptr and fills err on failure.
std::unique_ptr<Game> make_game(const Scenario& scenario, u64 seed, std::string* err);
// Advances exactly one fixed time step: commands, scenario events, systems, deaths.
void simulate_tick(Game& g);
// Player input enters here (applied at the start of the next tick, recorded by replay).
void queue_command(Game& g, const Command& c);
// Moves the simulation region (cells); entities change tier on the next tick.
void set_sim_region(Game& g, float x, float y, float w, float h);
// Hash of everything that affects the future.
u64 state_hash(const Game& g);

}  // namespace colony
