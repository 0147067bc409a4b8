// components.h — the component types Colony keeps in pools, the per-entity payload, and
// the world type built from them. Plain data only: no SDL, no ImGui.
//
// Adding a pool: declare a trivially copyable struct with kMaxPerEntity and kPoolName,
// add it to ColonyEcs below and give it a capacity in the world config.
#pragma once
#include "world.h"

namespace colony {

using ecs::Handle;
using ecs::i16;
using ecs::i32;
using ecs::i64;
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
  Head, Thorax, Abdomen, Leg, Antenna, Mandible, CarriedFood, Crumb, Tile, QueenAbdomen, Wing, Count
};

// One drawn quad, placed relative to its owner's position and heading.
// 16 bytes, four to a cache line: the render batch reads every visible piece each frame
// and a bomb's release moves thousands, so the placement is stored in fixed point
// (offsets in 1/1024 cell, sizes in 1/128 cell, the rotation in 1/65536 of a turn).
// place() and the float accessors convert; nothing else needs to know the units.
struct RenderPiece {
  static constexpr float kOffsetScale = 1024.0f;  // offset units per cell (range +-32 cells)
  static constexpr float kSizeScale = 128.0f;     // size units per cell (at most 255/128)
  static constexpr float kTurn = 6.28318531f;     // radians in a turn
  u32 color = {};                    // 0xAABBGGRR tint
  i16 offset_x = {}, offset_y = {};  // owner frame (x forward), in 1/kOffsetScale cell
  u16 turn = {};                     // rotation relative to the owner's heading, 1/65536 turn
  u8 size_x = {}, size_y = {};       // in 1/kSizeScale cell; x runs along the heading
  u8 sprite = {};                    // atlas sprite index
  Part part = {};
  u8 side = {};                      // legs/antennae: 0 left, 1 right; else 0
  u8 pad = {};
  static constexpr u32 kMaxPerEntity = 32;
  static constexpr const char* kPoolName = "render_pieces";

  // Placement in cells and radians (sizes clamp to the representable range).
  constexpr void place(float x, float y, float rotation, float width, float height) {
    offset_x = i16(round_clamped(x * kOffsetScale, -32768, 32767));
    offset_y = i16(round_clamped(y * kOffsetScale, -32768, 32767));
    float t = rotation / kTurn;
    t -= float(i64(t)) - (t < float(i64(t)) ? 1.0f : 0.0f);  // the fraction of a turn, [0, 1]
    turn = u16(u32(round_clamped(t * 65536.0f, 0, 65536)) & 0xFFFFu);
    size_x = u8(round_clamped(width * kSizeScale, 0, 255));
    size_y = u8(round_clamped(height * kSizeScale, 0, 255));
  }
  constexpr float x() const { return float(offset_x) / kOffsetScale; }
  constexpr float y() const { return float(offset_y) / kOffsetScale; }
  constexpr float rotation() const { return float(turn) * (kTurn / 65536.0f); }  // [0, 2 pi)
  constexpr float width() const { return float(size_x) / kSizeScale; }
  constexpr float height() const { return float(size_y) / kSizeScale; }

 private:
  static constexpr i32 round_clamped(float v, i32 lo, i32 hi) {
    if (!(v > float(lo))) return lo;  // NaN lands here too
    if (v >= float(hi)) return hi;
    return i32(v + (v < 0 ? -0.5f : 0.5f));
  }
};
static_assert(sizeof(RenderPiece) == 16);

// A circle used for contact tests (combat, food pick-up).
struct CollisionVolume {
  float offset_x = {}, offset_y = {};  // in cells, owner frame
  float radius = {};
  u8 role = {};                   // 0 body, 1 head, 2 mandibles
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
const char* state_name(AntState s);

// Per-entity payload stored in the entity record (both tiers). Positions are in cells.
struct Body {
  float x = {}, y = {};
  float heading = {};
  float speed = {};      // cells per tick at full legs
  Kind kind = {};
  u8 colony = {};        // 0..3
  AntState state = {};
  u8 legs = {};          // legs left (workers/soldiers start with 6)
  u8 antennae = {};      // antennae left
  u8 carrying = {};      // 1 while a carried-food piece is added
  u16 health = {};
  u32 age = {};          // ticks lived
  u32 lifespan = {};     // dies of age at this many ticks
  u32 amount = {};       // food: crumbs left; corpse: food value; ant: food carried
  u32 cell = {};         // tiles: cell index; others: 0
  u32 last_tick = {};    // last tick this entity was advanced (dormant catch-up)
  float scent = {};      // ants: strength of the trail being laid (1 at nest/food, fading)
};

using ColonyEcs = ecs::World<Body, RenderPiece, CollisionVolume, Sensor>;
using Record = ColonyEcs::Record;
// A record (header + Body) is one cache line: it is what every system walks each tick,
// and the slot lists live beside the directory entry instead (ecs/world.h).
static_assert(sizeof(Record) == 64, "an entity record should stay one cache line");

}  // namespace colony
