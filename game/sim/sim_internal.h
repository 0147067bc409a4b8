// sim_internal.h — what the simulation's systems share and nobody outside game/sim/
// sees: constants, random-stream salts, angle helpers, chunk and cell walks, the
// food/danger grid writers, and the systems each file defines for
// the tick and for the others. Included only by game/sim/*.cpp.
//
// Table of contents
//   [SECTION] Constants and random-stream salts
//   [SECTION] Helpers: angles, records, chunk and cell walks, grid writers
//   [SECTION] Systems and steps shared between the simulation's files
#pragma once
#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/vec2.hpp>

#include "body_plans.h"
#include "game.h"
#include "workers.h"

namespace colony {

// [SECTION] Constants and random-stream salts

inline constexpr float kPi = 3.14159265f;
inline constexpr float kTwoPi = 6.28318531f;
inline constexpr float kNestRadius = 2.5f;
inline constexpr float kFoodPerBite = 2.0f;
inline constexpr float kScentFade = 0.994f;   // trail strength kept per tick after leaving nest/food
inline constexpr float kScentFloor = 0.002f;  // weaker scent is flushed to zero (no denormals)

// Salts for per-entity random numbers (hash_float(seed, tick, index, salt)).
enum Salt : u32 {
  kWander = 1,
  kStarve,
  kTurn,
  kMaim,
  kMaimSide,
  kSpread,
  kIgnite,
  kKill,
  kDormantWalk,
  kLifespan,
  kRegrow,
  kStrike
};

// [SECTION] Helpers: angles, records, chunk and cell walks, grid writers

inline float wrap_angle(float a) {
  if (a >= -kPi && a <= kPi) return a;
  // Within a turn and a quarter of the range, as nearly every angle here is (a heading
  // plus a turn, a sensor's angle or the quarter turn of a cosine), a single turn added
  // or taken off gives what the general case below gives, without its division.
  constexpr float kNear = kTwoPi + kPi / 2;
  if (a > kPi && a < kNear) return a - kTwoPi;
  if (a < -kPi && a > -kNear) return a + kTwoPi;
  return a - kTwoPi * std::floor((a + kPi) / kTwoPi);
}

// Directions come from a table of sines over kTurnSteps steps of a turn, built at compile
// time in double precision and rounded once to float: the same bits on every machine, so
// saves and replays agree, and a direction costs an index and two loads. A step is 0.006
// radians; headings are rounded to the nearest, within 0.003 of the exact one.
inline constexpr u32 kTurnSteps = 1024;
struct SineTable {
  // sin of step i at [i], and its cosine a quarter turn on at [i + kTurnSteps / 4].
  float v[kTurnSteps + kTurnSteps / 4];
  constexpr SineTable() : v() {
    for (u32 i = 0; i < kTurnSteps + kTurnSteps / 4; ++i) {
      // The step's angle within [-pi, pi), where the series below converges fast.
      const double turn = double(i % kTurnSteps) / kTurnSteps;
      const double x = 6.283185307179586 * (turn < 0.5 ? turn : turn - 1.0);
      double term = x, sum = x;
      for (int n = 1; n < 14; ++n) {
        term *= -x * x / double((2 * n) * (2 * n + 1));
        sum += term;
      }
      v[i] = float(sum);
    }
  }
};
inline constexpr SineTable kSines{};

// The table step nearest angle a (radians, any angle within eight turns of 0).
inline u32 turn_step(float a) {
  constexpr float kStepsPerRadian = float(kTurnSteps) / kTwoPi;
  // An offset of eight turns keeps the value positive, so the conversion's truncation
  // rounds to the nearest step.
  constexpr float kOffset = 8.0f * float(kTurnSteps) + 0.5f;
  return u32(a * kStepsPerRadian + kOffset) & (kTurnSteps - 1);
}

// Positions and directions as glm vectors; records keep their plain floats (trivially
// copyable, sizes fixed).
inline glm::vec2 direction(float heading) {
  const u32 i = turn_step(heading);
  return {kSines.v[i + kTurnSteps / 4], kSines.v[i]};
}
inline glm::vec2 position(const Body& b) { return {b.x, b.y}; }
inline glm::vec2 nest_of(const Colony& c) { return {c.nest_x, c.nest_y}; }
inline float length_squared(glm::vec2 v) { return glm::dot(v, v); }

// The tags the walks for ants, food and corpses skip: tiles, which are most of a chunk's
// records. A chunk's tiles are created first and never move or die, so they fill whole
// storage blocks that the engine's views pass unread (ecs/view.h).
inline constexpr ecs::TagSet kTileTags = ecs::tag_set(Kind::Tile);

// fn(Record&) for every dormant ant, food source and corpse of chunk c.
template <class Fn>
inline void for_each_dormant_mobile(Game& g, u32 c, Fn&& fn) {
  g.ecs->dormant_in(c, kTileTags).for_each(fn);
}

// fn(Record&) for every simulated entity of chunk c.
template <class Fn>
inline void for_each_simulated_in_chunk(Game& g, u32 c, Fn&& fn) {
  g.ecs->in_chunk(c).for_each_simulated(fn);
}

// fn(Record&) for every ant, food source and corpse in chunk c (both tiers), in the order
// of the engine's chunk walk. Walking every record and dropping the tiles read every
// tile's record (400 in a chunk of kingdom_fire.json, 1,024 in one of million.json), where
// the view skips their blocks: the fire looks for victims this way in every burning chunk
// each tick, a bomb in every chunk it reaches.
template <class Fn>
inline void for_each_mobile_in_chunk(Game& g, u32 c, Fn&& fn) {
  g.ecs->in_chunk(c, kTileTags).for_each(fn);
}

// fn(Record&) for every ant, food source and corpse within r of (x, y): the chunk
// grid's circle query, never a scan of all entities.
template <class Fn>
inline void for_each_mobile_in_radius(Game& g, float x, float y, float r, Fn&& fn) {
  g.ecs->grid().for_each_chunk_in_circle(x, y, r, [&](u32 c) {
    for_each_mobile_in_chunk(g, c, [&](Record& rec) {
      float dx = rec.payload.x - x, dy = rec.payload.y - y;
      if (dx * dx + dy * dy <= r * r) fn(rec);
    });
  });
}

inline u32 cell_of(const Game& g, float x, float y) {
  int cx = std::clamp(int(x), 0, int(g.width) - 1), cy = std::clamp(int(y), 0, int(g.height) - 1);
  return u32(cy) * g.width + u32(cx);
}
inline u32 cell_of(const Game& g, glm::vec2 p) { return cell_of(g, p.x, p.y); }

inline void mark_dirty(Game& g, u32 cell) {
  u32 chunk = g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width);
  g.dirty_chunks_stamp[chunk] = g.tick + 1;
}

// The food grid and its flag bit change together.
inline void put_food(Game& g, u32 cell, Handle h) {
  g.food_at[cell] = h;
  g.cell_flags[cell] = u8(h.is_null() ? g.cell_flags[cell] & ~kCellFood : g.cell_flags[cell] | kCellFood);
}
inline void put_danger(Game& g, u32 cell, float v) {
  g.danger[cell] = v;
  g.chunk_scent[g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width)] |= kChunkDanger;
  g.cell_flags[cell] = u8(v > kDangerFelt ? g.cell_flags[cell] | kCellDanger : g.cell_flags[cell] & ~kCellDanger);
}

// Calls fn(cell, distance) for every cell whose centre is within r of (x, y).
template <class Fn>
inline void for_each_cell_in_circle(const Game& g, float x, float y, float r, Fn&& fn) {
  int x0 = std::max(0, int(std::floor(x - r))), x1 = std::min(int(g.width) - 1, int(std::ceil(x + r)));
  int y0 = std::max(0, int(std::floor(y - r))), y1 = std::min(int(g.height) - 1, int(std::ceil(y + r)));
  for (int cy = y0; cy <= y1; ++cy)
    for (int cx = x0; cx <= x1; ++cx) {
      float dx = float(cx) + 0.5f - x, dy = float(cy) + 0.5f - y;
      float d2 = dx * dx + dy * dy;
      if (d2 <= r * r) fn(u32(cy) * g.width + u32(cx), std::sqrt(d2));
    }
}

// [SECTION] Systems and steps shared between the simulation's files

// The simulation's threads (set_sim_threads); nullptr while there is one.
ecs::Workers* sim_workers();
// fn(u32 job) for every job in [0, jobs), shared between the simulation's threads. A job
// writes only what its number names, or combines with an order-free operation
// (ecs/workers.h): the state after a tick is then the same on any thread count.
template <class Fn>
void run_sim_jobs(u32 jobs, Fn&& fn) {
  if (ecs::Workers* crew = sim_workers()) crew->run(jobs, fn);
  else
    for (u32 j = 0; j < jobs; ++j) fn(j);
}

// The tier an entity created in this chunk starts in.
ecs::Tier tier_for_chunk(const Game& g, u32 chunk);
// count ants of a caste (workers unless soldiers) scattered within radius of (x, y), each
// on land (the centre when its own spot is not; none when the centre is water or rock).
// When one finds no room in the pools the rest of the group is refused with it, counted.
// Spawns up to count ants around (x, y); returns how many were refused for want of room.
u32 spawn_group(Game& g, u8 colony, Kind caste, float x, float y, float radius, u32 count);
// A corpse where an ant died (food for the others).
Handle spawn_corpse(Game& g, const Game::CorpseOrder& o);
// Sizes what the ticks fill for the world's capacity once, when a world is built or
// loaded, so that no tick allocates (sim_no_alloc_test): the occupancy grid, room for
// every cell in the burning list and for every entity in the deferred chunk moves, tier
// changes and corpse orders (address space, touched only as far as a tick fills it), and
// for kMaxBlasts explosions on show.
void size_scratch(Game& g);
// Sets one grass cell burning.
void ignite_cell(Game& g, u32 cell);
// Fire system: burning cells spread, kill, burn out.
void simulate_fire(Game& g);
// Clears a food source or corpse from the food grid.
void forget_food(Game& g, const Body& food, Handle h);
// Every simulated ant, one full step: a walk shared between the simulation's threads
// (sim_threads), then the steps that touch more than each ant's own record, in order.
void simulate_ants(Game& g);
// The entity index of the ant holding `cell` in the last tick's occupancy grid (the
// lowest index that stood in it), or ecs::kNone when none stood there.
u32 cell_holder(const Game& g, u32 cell);
// The scratch simulate_ants' jobs write, for the world's capacity (size_scratch).
void size_ant_passes(Game& g);
// Its bytes for a world of `entities` entities, all of it written when every one walks.
u64 ant_passes_bytes(u64 entities);
// The dormant chunks due this tick, the cheaper model.
void simulate_dormant(Game& g);
// Pheromone system: every field fades.
void evaporate(Game& g);
// Whether chunk c touches the simulation region (its entities are then simulated).
bool chunk_in_region(const Game& g, u32 c);
// Regions system: chunks entering or leaving the region change tier.
void move_chunks_between_tiers(Game& g);
// Regions system, every few seconds: the simulated store back in chunk order, the
// sensors in the store's order.
void keep_space_order(Game& g);
// An ant whose step took it into another chunk moves there after the walk
// (apply_deferred_moves): a walk must not have storage move under it, and the moves of a
// whole walk made together read ahead of each other (a million ants make some ten
// thousand a tick, each on rows no cache holds). `from` is where it stood before the
// step: a move the store refuses puts it back there. A dying ant is not moved.
void note_chunk_change(Game& g, Record& r, u32 chunk, const Game::Stand& from);
// The moves a walk deferred, made after it.
void apply_deferred_moves(Game& g);
// Colonies: hunger, and queens laying ants from delivered food.
void simulate_colonies(Game& g);
// One player command (bomb, fire, food, paint, spawn, kill).
void apply_command(Game& g, Command cmd);
// The scenario events due this tick.
void run_events(Game& g);
// The next tick an event fires in a game about to run tick `now`: the first tick of its
// schedule (tick, tick + every, ... up to until) not before now, or ~0 when none is left.
// It follows from the scenario and the tick alone: the world starts with it, each firing
// takes the next, and a save's copy is checked against it.
u64 event_next_due(const EventSpec& e, u64 now);
// Random food keeps the scenario's count.
void replenish_food(Game& g);
// Ecology (ecology.cpp): colonies that fell are founded again, and each colony's turns
// of fate (collapse, hunger, refounding) are noted for the window.
void tend_colonies(Game& g);
// Ecology: a PlaceColony command's new colony (nothing when place_colony_problem names
// a reason).
void found_colony(Game& g, const Command& cmd);
// Ecology: burnt land grows grass again, a sweep of the map every kRegrowSweep ticks.
void regrow_grass(Game& g);
// A fight's contact, noted for the renderer's sparks (dropped when the list is full).
void note_spark(Game& g, float x, float y, u8 colony_a, u8 colony_b);

}  // namespace colony
