// components.h — the component types Colony keeps in pools, the per-entity payload, and
// the world type built from them. Plain data only: no SDL, no ImGui.
//
// Adding a pool: declare a trivially copyable struct with kMaxPerEntity and kPoolName and
// name it in COLONY_POOLS below. The capacity key in scenarios (capacity.<kPoolName>),
// the save, the state hash, the headless report, the debugger and the benchmarks visit
// the pools through that list.
#pragma once
#include "world.h"

namespace colony {

using ecs::Handle;
using ecs::u16;
using ecs::u32;
using ecs::u64;
using ecs::u8;

// What an entity is. Stored in the record header (the debugger colours pool cells by it)
// and in the payload.
enum class Kind : u8 { Tile = 0, Worker, Soldier, Queen, Food, Corpse, Count };
const char* kind_name(Kind k);

// Which part of a body a render piece draws; the renderer picks a sprite from it.
enum class Part : u8 {
  Head,
  Thorax,
  Abdomen,
  Leg,
  Antenna,
  Mandible,
  CarriedFood,
  Crumb,
  Tile,
  QueenAbdomen,
  Wing,
  Count
};
// Legs, antennae and mandibles: the thin paired limbs, each on the left or right of the body.
constexpr bool is_paired_limb(Part p) { return p == Part::Leg || p == Part::Antenna || p == Part::Mandible; }

// One drawn quad, placed relative to its owner's position and heading.
// 16 bytes, so that a pool entry with its 8-byte back-pointer is 24 where five floats
// would make it 36: a mass release moves every survivor it pulls into a hole, and a third
// fewer bytes moves a quarter fewer cache lines (docs/performance-notes.md, the release).
// Offsets and sizes are fixed point, kUnitsPerCell to a cell (+-8 cells, far more than
// any body spans); the rotation is a fraction of a turn, which wraps as an angle does.
// Read and write them in cells and radians through the accessors.
struct RenderPiece {
  static constexpr float kUnitsPerCell = 4096.0f;
  static constexpr float kRadiansPerTurn = 6.28318531f;
  static constexpr float kRadiansPerUnit = kRadiansPerTurn / 65536.0f;

  u32 color = {};                                // 0xAABBGGRR tint
  ecs::i16 x_units = {}, y_units = {};           // offset in the owner's frame (x forward, y left)
  ecs::i16 width_units = {}, height_units = {};  // size along x and y
  u16 turn_units = {};                           // rotation relative to the owner's heading, 65536 to a turn
  u8 sprite = {};                                // atlas sprite index
  Part part = {};

  constexpr float offset_x() const { return float(x_units) / kUnitsPerCell; }
  constexpr float offset_y() const { return float(y_units) / kUnitsPerCell; }
  constexpr float size_x() const { return float(width_units) / kUnitsPerCell; }
  constexpr float size_y() const { return float(height_units) / kUnitsPerCell; }
  constexpr float rotation() const { return float(ecs::i16(turn_units)) * kRadiansPerUnit; }
  // A paired limb's side: 0 on the left (+y), 1 on the right (-y).
  constexpr u8 side() const { return y_units < 0 ? 1 : 0; }

  constexpr void set_offset(float x, float y) { x_units = to_units(x), y_units = to_units(y); }
  constexpr void set_size(float x, float y) { width_units = to_units(x), height_units = to_units(y); }
  constexpr void set_rotation(float radians) {
    float turns = radians / kRadiansPerTurn;
    float whole = float(ecs::i64(turns) - (turns < float(ecs::i64(turns)) ? 1 : 0));  // floor
    turn_units = u16(u32((turns - whole) * 65536.0f + 0.5f) & 0xFFFFu);
  }
  // Rounded to the nearest unit, clamped to the range.
  static constexpr ecs::i16 to_units(float cells) {
    float u = cells * kUnitsPerCell;
    u = u < -32768.0f ? -32768.0f : u > 32767.0f ? 32767.0f : u;
    return ecs::i16(u < 0 ? u - 0.5f : u + 0.5f);
  }

  static constexpr u32 kMaxPerEntity = 32;
  static constexpr const char* kPoolName = "render_pieces";
};
static_assert(sizeof(RenderPiece) == 16);

// How far from its owner's centre any part reaches, in cells (a render piece's fixed point
// holds +-8): what a loaded save's volumes and sensors are checked against.
inline constexpr float kMaxPartCells = 8.0f;

// A circle used for contact tests (combat, food pick-up).
struct CollisionVolume {
  float offset_x = {}, offset_y = {};  // in cells, owner frame
  float radius = {};
  u8 role = {};  // 0 body, 1 head, 2 mandibles
  u8 pad[3] = {};
  static constexpr u32 kMaxPerEntity = 8;
  static constexpr const char* kPoolName = "collision_volumes";
};
static_assert(sizeof(CollisionVolume) <= 32);

// A pheromone sensor: samples the grid at an angle and distance ahead of the ant.
struct Sensor {
  float angle = {};    // radians relative to heading
  float reach = {};    // cells ahead
  float reading = {};  // last sampled strength
  static constexpr u32 kMaxPerEntity = 4;
  static constexpr const char* kPoolName = "sensors";
};
static_assert(sizeof(Sensor) <= 16);

enum class AntState : u8 { Searching, Returning, Fighting, Fleeing, Idle };

// Per-entity payload stored in the entity record (both tiers). Positions are in cells.
struct Body {
  float x = {}, y = {};
  float heading = {};
  float speed = {};  // cells per tick at full legs
  Kind kind = {};
  u8 colony = {};  // 0..3
  AntState state = {};
  u8 legs = {};      // legs left (workers/soldiers start with 6)
  u8 antennae = {};  // antennae left
  u8 carrying = {};  // 1 while a carried-food piece is added
  u16 health = {};
  u32 age = {};        // ticks lived
  u32 lifespan = {};   // dies of age at this many ticks
  u32 amount = {};     // food: crumbs left; corpse: food value; ant: food carried
  u32 cell = {};       // the cell under it (tiles and food: theirs; ants: the last they stood on)
  u32 last_tick = {};  // last tick this entity was advanced (dormant catch-up)
  float scent = {};    // ants: strength of the trail being laid (1 at nest/food, fading)
};

// What an ant is doing, as the HUD and the debugger name it. A queen never leaves the
// nest: she lays (her state field keeps its spawn value).
const char* activity_name(const Body& b);

// The game's pools, declared once. A macro because the explicit instantiation at the end
// of this file must name the world's template arguments, outside this namespace (an
// alias is not allowed there).
#define COLONY_POOLS ::colony::RenderPiece, ::colony::CollisionVolume, ::colony::Sensor
using ColonyPools = ecs::PoolList<COLONY_POOLS>;
using ColonyEcs = ColonyPools::World<Body>;
// A value per pool, named by type: capacities, counts.
template <class T>
using PerPool = ColonyEcs::PerPool<T>;
using Record = ColonyEcs::Record;
// A record (header + Body) is one cache line: it is what every system walks each tick,
// and the slot lists live beside the directory entry instead (ecs/world.h).
static_assert(sizeof(Record) == 64, "an entity record should stay one cache line");
// The release journal's rings in every world the game builds (20 MiB of steps, committed
// only as they are written): a release past a million steps keeps its first million.
inline constexpr u32 kJournalSteps = 1u << 20, kJournalVictims = 1u << 18, kJournalReleases = 256;

}  // namespace colony

// Instantiated once, in components.cpp: every unit that includes this header would
// otherwise compile the whole world (release, validator) again.
extern template class ecs::World<colony::Body, COLONY_POOLS>;
