// ants.cpp — the ants: the full model for simulated chunks (sensing, steering, scent,
// food, combat) and the cheaper model for dormant ones.
//
// Table of contents
//   [SECTION] Ants, fully simulated
//   [SECTION] The full model's passes (threads, and the order that keeps them deterministic)
//   [SECTION] Ants, dormant (cheaper model, every dormant_period ticks)
#include <array>
#include <atomic>
#include <bit>
#include <memory>
#include <thread>

#include "sim_internal.h"

namespace colony {

// [SECTION] Ants, fully simulated

namespace {

// A cell's occupancy entry: this tick's stamp (high 32 bits), the ant's colony (2 bits)
// and its entity index (kOccupantBits; the engine's indices need 28).
constexpr u32 kOccupantBits = 30;
constexpr u64 kOccupantMask = (u64(1) << kOccupantBits) - 1;
static_assert(ecs::kMaxEntityIndex <= kOccupantMask);
constexpr u64 kStampMask = ~u64(0) << 32;
// The stamp of a tick: never 0, the stamp of a cell no ant has stood in. It comes round
// again every 2^32 - 1 ticks, and simulate_ants then clears every cell, so that an entry
// left from that long ago is not taken for this tick's.
u64 occupancy_stamp(u64 tick) { return (tick % 0xFFFFFFFFull + 1) << 32; }

// The longest piece of a dormant ant's walk checked against the terrain: under a cell, so
// that a wall one cell thick always holds one checked point.
constexpr float kDormantPiece = 0.5f;
constexpr u32 kDormantLeg = 64;  // ticks of a dormant forager's walk in one direction

// Age and hunger; true when the ant died.
constexpr float kStarveChance = 0.0008f;

// What the ants' walks read of the game in a tick, copied out of it once: a walk keeps
// these in registers or on its stack. Read through the Game, each would be loaded again
// after every store to a record, since a byte stored to a record may alias any of them.
struct TickView {
  u64 key = 0;    // the tick's random key (tick_key)
  u64 stamp = 0;  // the tick's occupancy stamp
  u32 width = 0, height = 0;
  int last_x = 0, last_y = 0;  // the last column and row
  float map_w = 0, map_h = 0;  // the map's size, for positions
  ecs::ChunkGrid grid;
  const Terrain* terrain = nullptr;
  const u8* flags = nullptr;  // cell_flags
  u64* occupancy = nullptr;
  std::array<float*, 2 * kMaxColonies> fields{};
  std::array<glm::vec2, kMaxColonies> nests{};
  u32 starving = 0;  // bit c: colony c is starving
  float deposit = 0;
  Sensor* sensors = nullptr;
  u8* chunk_scent = nullptr;
  u32 deciding = 0;     // the low bit of the entity indices that decide this tick; 2: none
  bool laying = false;  // whether the ants lay scent this tick
};
TickView view_of_tick(Game& g) {
  TickView v;
  v.key = tick_key(g.seed, g.tick);
  v.stamp = occupancy_stamp(g.tick);
  v.width = g.width, v.height = g.height;
  v.last_x = int(g.width) - 1, v.last_y = int(g.height) - 1;
  v.map_w = float(g.width), v.map_h = float(g.height);
  v.grid = g.ecs->grid();
  v.terrain = g.terrain.data();
  v.flags = g.cell_flags.data();
  v.occupancy = g.occupancy.data();
  for (size_t f = 0; f < g.fields.size() && f < v.fields.size(); ++f) v.fields[f] = g.fields[f].data();
  for (size_t c = 0; c < g.colonies.size() && c < kMaxColonies; ++c) {
    v.nests[c] = nest_of(g.colonies[c]);
    if (g.colonies[c].starving) v.starving |= 1u << c;
  }
  v.deposit = g.scenario.rules.deposit;
  v.sensors = g.ecs->pool<Sensor>().items.get();
  v.chunk_scent = g.chunk_scent.data();
  // The cadence (decides, lays_scent): the even ticks are shared by the even and the odd
  // indices in turn.
  v.deciding = g.tick & 1 ? 2 : u32(g.tick >> 1) & 1;
  v.laying = g.tick & 1;
  return v;
}
// The cell under a position, clamped onto the map (cell_of).
u32 cell_at(const TickView& v, glm::vec2 p) {
  const int cx = std::clamp(int(p.x), 0, v.last_x), cy = std::clamp(int(p.y), 0, v.last_y);
  return u32(cy) * v.width + u32(cx);
}

// Age and hunger over dt ticks: the cause when the ant dies of them, else Count.
// Inlined into both walks: left to GCC it was called as a function once the walks went
// through the engine's views, 4 % more instructions a tick (callgrind, tick/full/10000).
[[gnu::always_inline]] inline DeathCause age_ant(const TickView& v, Body& b, u32 id, u32 dt) {
  b.age += dt;
  if (b.age >= b.lifespan) return DeathCause::Age;
  // A starving colony's ant dies with a chance of kStarveChance a tick: over dt ticks at
  // once, 1 - (1 - chance)^dt (dt x chance overshot it, 0.82 against 0.56 at dt 1,024).
  if ((v.starving >> b.colony & 1) && draw_float(v.key, id, kStarve) < 1.0f - std::pow(1.0f - kStarveChance, float(dt)))
    return DeathCause::Starvation;
  return DeathCause::Count;
}

// Turns toward (tx, ty) by at most `step` radians.
void steer_toward(Body& b, glm::vec2 dir, glm::vec2 target, float step) {
  const glm::vec2 to = target - position(b);
  const float cross = dir.x * to.y - dir.y * to.x;  // > 0: the target lies to the left
  b.heading += cross > 0 ? step : -step;
}

// One step forward; blocked by water, rock and the map edge (the ant turns instead).
// Returns the new cell, or kNone when blocked.
// A step into a diagonal neighbour also needs one of the two cells beside both open: two
// rock or water cells that touch at a corner are a wall (fire, which spreads to the four
// neighbours, stops there, and so do ants).
bool corner_blocked(const TickView& v, float x, float y, float nx, float ny) {
  const u32 cx = u32(x), cy = u32(y), nxc = u32(nx), nyc = u32(ny);
  if (cx == nxc || cy == nyc) return false;
  return !passable(v.terrain[cy * v.width + nxc]) && !passable(v.terrain[nyc * v.width + cx]);
}

u32 step_forward(const TickView& v, Body& b, glm::vec2 dir, float dist, u32 turn_salt_id) {
  const glm::vec2 next = position(b) + dir * dist;
  const bool on_map = next.x >= 0 && next.y >= 0 && next.x < v.map_w && next.y < v.map_h;
  if (!on_map || !passable(v.terrain[u32(next.y) * v.width + u32(next.x)]) ||
      corner_blocked(v, b.x, b.y, next.x, next.y)) {
    b.heading = wrap_angle(b.heading + kPi * (0.5f + draw_float(v.key, turn_salt_id, kTurn)));
    return ecs::kNone;
  }
  b.x = next.x;
  b.y = next.y;
  return u32(next.y) * v.width + u32(next.x);
}

// How far from its nest a worker defends its ground, and a soldier (cells).
constexpr float kTerritory = 24.0f;
constexpr float kSoldierGround = 28.0f;

bool on_home_ground(const Game& g, const Body& b) {
  const float ground = b.kind == Kind::Soldier ? kSoldierGround : kTerritory;
  return length_squared(position(b) - nest_of(g.colonies[b.colony])) <= ground * ground;
}

// A meeting of two enemies. Each lands a blow with the rules' strike_chance, on its own
// ground only. A worker away from home breaks off and runs from every meeting it
// survives (soldiers, and workers at home, stand): most meetings far from the nests are
// skirmishes, and a worker's wounds heal when it next brings food home (deliver_food).
void fight(Game& g, Record& a, Record& e) {
  // Contact: the two bodies' first collision volumes overlap.
  ColonyEcs& w = *g.ecs;
  float ra = w.list<CollisionVolume>(a).added ? w.component<CollisionVolume>(a, 0).radius : 0.3f;
  float re = w.list<CollisionVolume>(e).added ? w.component<CollisionVolume>(e, 0).radius : 0.3f;
  float dx = a.payload.x - e.payload.x, dy = a.payload.y - e.payload.y;
  if (dx * dx + dy * dy > (ra + re) * (ra + re) * 2.0f) return;
  auto blow = [&](const Record& r) -> u16 {
    const Body& b = r.payload;
    if (hash_float(g.seed, g.tick, r.header.handle.index, kStrike) >= g.scenario.rules.strike_chance) return 0;
    if (!on_home_ground(g, b)) return 0;
    return body_plan(b.kind).attack;
  };
  const u16 from_a = blow(a), from_e = blow(e);
  auto take = [&](Record& victim, u16 damage) {
    Body& v = victim.payload;
    v.health = v.health > damage ? u16(v.health - damage) : 0;
    v.state = AntState::Fighting;
    if (v.health == 0) {
      kill_ant(g, victim, DeathCause::Combat);
      return;
    }
    if (damage > 15 && hash_float(g.seed, g.tick, victim.header.handle.index, kMaim) < 0.25f && v.legs > 1)
      maim_ant(g, victim, false, 2);
    if (v.kind == Kind::Worker && !on_home_ground(g, v))
      v.heading = wrap_angle(v.heading + kPi), v.state = AntState::Fleeing;
  };

  take(e, from_a);
  take(a, from_e);
  if (from_a + from_e > 0)
    note_spark(g, (a.payload.x + e.payload.x) * 0.5f, (a.payload.y + e.payload.y) * 0.5f, a.payload.colony,
               e.payload.colony);
}

// An ant's tick follows a cadence that keeps most ticks to its own record and cell:
// - it decides (senses the trail ahead, steers, feels for danger ahead) on one tick in
//   four, the even ticks taken by the even and the odd entity indices in turn: at a
//   worker's quarter of a cell a tick, about once for every cell it crosses;
// - it lays scent on every odd tick; no ant reads a trail then, so the walk lays it
//   itself (raise_trail, the same result in any order);
// - it ages, steps, eats or delivers and claims its cell on every tick.
bool decides(const TickView& v, u32 index) { return (index & 1) == v.deciding; }
bool lays_scent(const TickView& v) { return v.laying; }
// Whether a record takes the full model's turn: a living ant's (a queen's turn is her age
// alone).
bool takes_turn(const Record& r) { return is_ant(r.payload.kind) && !(r.header.flags & ecs::kFlagDying); }

// The trails an ant follows and lays, as indices into Game::fields: a searcher follows
// to-food scent and lays to-home, a carrier the reverse.
u32 followed_field(const Body& b) { return b.colony * 2 + u32(b.carrying ? Field::ToHome : Field::ToFood); }
u32 laid_field(const Body& b) { return b.colony * 2 + u32(b.carrying ? Field::ToFood : Field::ToHome); }
// The cell a sensor samples: `reach` cells ahead at its angle from the heading.
u32 sensor_cell(const TickView& v, const Body& b, const Sensor& sn) {
  return cell_at(v, position(b) + direction(b.heading + sn.angle) * sn.reach);
}

// A fight or a flight lasts the tick it happens in (the HUD and inspector show it): it
// ends before the ant decides or steps.
void end_fight_or_flight(Body& b) {
  if (b.state == AntState::Fighting || b.state == AntState::Fleeing)
    b.state = b.carrying ? AntState::Returning : AntState::Searching;
}

// The cells an ant's sensors sample this tick, in the order of its sensor list: found
// once, where decide_walk prefetches them, and read there again by the decision.
struct SensedCells {
  std::array<u32, Sensor::kMaxPerEntity> cell;
};

// Decide: each sensor samples the trail field ahead at its angle (at `sensed`, the cells
// decide_walk found), the best one wins; then steer by it with some randomness, back
// from danger felt just ahead, home when carrying, and (soldiers) back toward the nest
// when strayed. The turns are those of four ticks: the random part twice a tick's (a
// random walk's spread grows with the square root of its steps), the pull home four times.
void decide(const TickView& v, ColonyEcs& w, Body& b, u32 id, const SensedCells& sensed) {
  end_fight_or_flight(b);
  const bool returning = b.carrying != 0;
  const glm::vec2 nest = v.nests[b.colony];
  const float* trail = v.fields[followed_field(b)];
  const auto& sl = w.list_at<Sensor>(id);
  Sensor* sensors = v.sensors;
  float best = 0, best_angle = 0;
  for (u32 k = 0; k < sl.added; ++k) {
    Sensor& sn = sensors[sl.slot[k]];
    sn.reading = trail[sensed.cell[k]];
    if (sn.reading > best) best = sn.reading, best_angle = sn.angle;
  }
  float wander = draw_float(v.key, id, kWander) - 0.5f;
  b.heading += best > 0.01f ? best_angle * 0.6f + wander * 0.4f : wander * 0.9f;
  const glm::vec2 dir = direction(b.heading);
  // Danger (explosions, fire) is felt just ahead: the ant turns back.
  if (v.flags[cell_at(v, position(b) + dir * 2.0f)] & kCellDanger) {
    b.heading += kPi * (0.75f + 0.5f * wander);
    b.state = AntState::Fleeing;
  }
  if (returning) {
    steer_toward(b, dir, nest, 0.32f);
  } else if (b.kind == Kind::Soldier) {
    // Soldiers patrol a ring around the nest: pulled home when they stray too far.
    if (length_squared(position(b) - nest) > 40.0f * 40.0f) steer_toward(b, dir, nest, 0.4f);
  }
  b.heading = wrap_angle(b.heading);
}

// One step along the heading, slower with every lost leg; returns the cell it ends in
// (the one it stood on when water, rock or the map's edge blocked it).
u32 walk(const TickView& v, Body& b, u32 id) {
  const float dist = b.speed * float(b.legs) / 6.0f;
  const glm::vec2 dir = direction(b.heading);
  // A step within the cell it stands in, as most are (a worker walks a quarter of a cell
  // a tick), meets no new terrain. (A step off the map's right or bottom edge never
  // gives the cell it left: the row or column past the edge is another cell's.)
  const glm::vec2 next = position(b) + dir * dist;
  if (next.x >= 0 && next.y >= 0 && u32(next.y) * v.width + u32(next.x) == b.cell) {
    b.x = next.x;
    b.y = next.y;
    return b.cell;
  }
  u32 cell = step_forward(v, b, dir, dist, id);
  if (cell == ecs::kNone) cell = b.cell;
  b.cell = cell;
  return cell;
}

// [SECTION] The full model's passes
//
// A tick of the full model is a walk of every simulated ant, cut into jobs of whole
// storage blocks (ecs::RecordJobs) that the simulation's threads share, then three
// steps that run on one thread:
//   pass 1 (jobs)   each ant ages, decides (one tick in four), walks and lays scent (odd
//                   ticks); it writes its own record and sensors, raises the trail it
//                   lays (an atomic max), claims its cell in the occupancy grid, and
//                   notes for later what touches anything else: a death, a bite or a
//                   delivery, a change of chunk.
//   pass 2 (jobs)   each walker looks for an enemy in its cell.
//   orders          deaths, bites and deliveries, fights, chunk changes, job by job.
// Within a pass nothing an ant reads is written: the trail fields are read on even ticks
// and raised on odd ones, and raising is order-free; pass 1 writes the occupancy grid
// (an atomic claim: the lowest entity index standing in a cell holds it) and pass 2 alone
// reads it. Everything else goes through the orders, in job order. So the world after a
// tick is the same for any thread count.

// Records per job: a 32nd of the simulated ants, in whole storage blocks, from 256 to
// 4,096. Enough jobs for two or four threads to share evenly at any size (a small world's
// 2,000 ants make 8), few enough that each job writes its scratch in long runs. It
// follows from the count alone, never from the threads.
constexpr u32 kMinRecordsPerJob = 256, kMaxRecordsPerJob = 4096;
u32 records_per_job(u32 simulated) { return std::clamp(simulated / 32, kMinRecordsPerJob, kMaxRecordsPerJob); }

enum class OrderKind : u8 { Die, TakeFood, Deliver };
struct Order {
  u32 index;
  OrderKind kind;
  DeathCause cause;
};
struct ChunkChange {
  u32 index, chunk;
  Game::Stand from;
};
// An ant that walked this tick and the cell it stands in. Its tag is what its claim
// writes in a cell's occupancy entry: colony << kOccupantBits | entity index.
struct Walker {
  u32 tag, cell;
};
// An ant that found an enemy holding its cell.
struct Meeting {
  u32 index, enemy;
};

}  // namespace

// Each array has an entry for every place of the simulated store: a job writes from its
// first record's place on, at most one entry per ant. The counts are per job.
struct Game::AntPasses {
  ecs::Buffer<Order> orders;
  ecs::Buffer<ChunkChange> changes;
  ecs::Buffer<Walker> walkers;
  ecs::Buffer<Meeting> meetings;
  struct Counts {
    u32 orders, changes, walkers, meetings;
  };
  ecs::Buffer<Counts> counts;
};

void Game::AntPassesDeleter::operator()(AntPasses* p) const { delete p; }

u64 ant_passes_bytes(u64 entities) {
  return (entities + 1) * (sizeof(Order) + sizeof(ChunkChange) + sizeof(Walker) + sizeof(Meeting));
}

void size_ant_passes(Game& g) {
  auto p = std::unique_ptr<Game::AntPasses, Game::AntPassesDeleter>(new Game::AntPasses);
  const size_t n = size_t(g.ecs->max_entities()) + 1;
  const size_t most_jobs = n / kMinRecordsPerJob + 1;
  p->orders = ecs::make_buffer<Order>(n);
  p->changes = ecs::make_buffer<ChunkChange>(n);
  p->walkers = ecs::make_buffer<Walker>(n);
  p->meetings = ecs::make_buffer<Meeting>(n);
  p->counts = ecs::make_buffer<Game::AntPasses::Counts>(most_jobs);
  g.ant_passes = std::move(p);
}

namespace {

// Claims a cell for this tick for the ant with the lowest index standing in it: the same
// holder whatever order the ants arrive in.
void claim_cell(const TickView& v, u32 cell, u32 tag) {
  const u64 stamp = v.stamp;
  const u32 index = tag & kOccupantMask;
  std::atomic_ref<u64> occ(v.occupancy[cell]);
  const u64 mine = stamp | tag;
  u64 held = occ.load(std::memory_order_relaxed);
  while (((held & kStampMask) != stamp || (held & kOccupantMask) > index) &&
         !occ.compare_exchange_weak(held, mine, std::memory_order_relaxed)) {}
}

// Raises a trail cell to a positive `lay` when that is stronger (a trail cell is never
// negative, and non-negative floats' bits order as their values do): the same result in
// any order.
bool raise_trail(float& cell, float lay) {
  std::atomic_ref<u32> bits(reinterpret_cast<u32&>(cell));
  const u32 want = std::bit_cast<u32>(lay);
  u32 held = bits.load(std::memory_order_relaxed);
  while (held < want)
    if (bits.compare_exchange_weak(held, want, std::memory_order_relaxed)) return true;
  return false;
}

// What a job's ants note in its arrays.
struct JobOut {
  Order* orders;
  ChunkChange* changes;
  Walker* walkers;
  u32 n_orders = 0, n_changes = 0, n_walkers = 0;
};

// Pass 1 for ant `id`, whose record places it in chunk `chunk_was`: age, walk, claim the
// cell, lay scent; what touches more than its own record is noted in `out`.
void step_ant(const TickView& v, u32 tick, u32 id, u32 chunk_was, Body& __restrict b, JobOut& out) {
  // Every tick since the ant was last advanced: one when it stays simulated, up to the
  // dormant period when its chunk has just joined the region (it ages and eats for them).
  const u32 dt = std::max(1u, tick - b.last_tick);
  b.last_tick = tick;
  if (b.kind == Kind::Queen) {
    b.age += dt;
    return;
  }
  if (DeathCause died = age_ant(v, b, id, dt); died != DeathCause::Count) {
    out.orders[out.n_orders++] = {id, OrderKind::Die, died};
    return;
  }
  // An ant that decided this tick (decide_walk) ended its fight or flight then, and may
  // have begun a flight.
  if (!decides(v, id)) end_fight_or_flight(b);
  const bool returning = b.carrying != 0;
  const float x_was = b.x, y_was = b.y;
  const u32 cell_was = b.cell;
  const u32 cell = walk(v, b, id);
  const u32 tag = u32(b.colony) << kOccupantBits | id;
  out.walkers[out.n_walkers++] = {tag, cell};
  claim_cell(v, cell, tag);
  u32 chunk = chunk_was;
  if (cell != cell_was) {
    // A cell entered: its chunk (every step stays on the map, step_forward), and food and
    // home: a searching worker on food takes a bite, a carrier at the nest delivers, and
    // an ant at the nest starts its to-home trail afresh.
    chunk = v.grid.chunk_of_cell(u32(b.x), u32(b.y));
    if (chunk != chunk_was) out.changes[out.n_changes++] = {id, chunk, {x_was, y_was, cell_was, chunk_was}};
    if (!returning && b.kind == Kind::Worker && (v.flags[cell] & kCellFood))
      out.orders[out.n_orders++] = {id, OrderKind::TakeFood, DeathCause::Count};
    if (length_squared(position(b) - v.nests[b.colony]) < kNestRadius * kNestRadius) {
      if (returning) out.orders[out.n_orders++] = {id, OrderKind::Deliver, DeathCause::Count};
      else b.scent = 1;
    }
  }
  // Scent: to-home while searching, to-food while carrying; it fades with distance walked.
  // Only a positive scent can raise a cell (raise_trail compares bits, which order as the
  // values do for positive floats alone).
  const float lay = b.scent * v.deposit;
  if (lays_scent(v) && lay > 0 && raise_trail(v.fields[laid_field(b)][cell], lay)) {
    std::atomic_ref<u8> flags(v.chunk_scent[chunk]);
    if (!(flags.load(std::memory_order_relaxed) & kChunkTrail)) flags.fetch_or(kChunkTrail, std::memory_order_relaxed);
  }
  b.scent *= kScentFade;
}

// The full model's walk of a job, in spans of kSpan records: first the span's deciders
// decide (decide_walk), then every record of the span takes its step (step_walk), while
// the span's records are still in cache. Each walk prefetches, in stages a few records
// apart, what its turn will read at addresses no hardware stream predicts, each stage
// once the one before has brought in its address; every stage takes its record from
// the span's list.
constexpr u32 kSpan = 512;
constexpr u32 kAhead = 8;  // records between two stages

// The deciders among `list`: 3 x kAhead ahead, the line of the directory row holding the
// sensor list (its address follows from the index alone); 2 x kAhead ahead, the first
// sensor (sensor entries lie anywhere in their pool until it is put in space order);
// kAhead ahead, the trail cell under each sensor (found here once, and read there by
// the decision); then the decision. The row is prefetched one stage before it is read,
// never read in the stage that prefetches it: on the million map, whose rows are never
// in cache, a read straight after its prefetch is where the walk waits.
void decide_walk(const TickView& v, ColonyEcs& w, Record* const* list, u32 n) {
  constexpr u32 kSensed = 2 * kAhead;
  static_assert(std::has_single_bit(kSensed));
  std::array<SensedCells, kSensed> sensed;
  for (u32 t = 0; t < n + 3 * kAhead; ++t) {
    if (t < n) ecs::prefetch_for_read(&w.list_at<Sensor>(list[t]->header.handle.index));
    if (t - kAhead < n) {
      const auto& sl = w.list_at<Sensor>(list[t - kAhead]->header.handle.index);
      if (sl.added) ecs::prefetch_for_read(&v.sensors[sl.slot[0]]);
    }
    if (t - 2 * kAhead < n) {
      const u32 k = t - 2 * kAhead;
      const Body& b = list[k]->payload;
      const float* trail = v.fields[followed_field(b)];
      const auto& sl = w.list_at<Sensor>(list[k]->header.handle.index);
      for (u32 s = 0; s < sl.added; ++s) {
        sensed[k % kSensed].cell[s] = sensor_cell(v, b, v.sensors[sl.slot[s]]);
        ecs::prefetch_for_read(&trail[sensed[k % kSensed].cell[s]]);
      }
    }
    if (t - 3 * kAhead < n) {
      const u32 k = t - 3 * kAhead;
      decide(v, w, list[k]->payload, list[k]->header.handle.index, sensed[k % kSensed]);
    }
  }
}

// Every record of `list`: 2 x kAhead ahead the record itself (a storage block is 2 KiB,
// too short for the hardware's stream to lock on); kAhead ahead the cells its step
// reads: the occupancy word, the flags and the terrain of its cell, and on a laying tick
// the trail it lays in (its step lies within the cell or a cell away, mostly on the same
// lines); then fn(Record&).
template <class Fn>
void step_walk(const TickView& v, Record* const* list, u32 n, Fn&& fn) {
  for (u32 t = 0; t < n + 2 * kAhead; ++t) {
    if (t < n) ecs::prefetch_for_read(list[t]);
    if (t - kAhead < n) {
      const Body& b = list[t - kAhead]->payload;
      if (lays_scent(v)) ecs::prefetch_for_write(&v.fields[laid_field(b)][b.cell]);
      ecs::prefetch_for_read(&v.occupancy[b.cell]);
      ecs::prefetch_for_read(&v.flags[b.cell]);
      ecs::prefetch_for_read(&v.terrain[b.cell]);
    }
    if (t - 2 * kAhead < n) fn(*list[t - 2 * kAhead]);
  }
}

// Pass 1 of job j: the deciders of each span decide, then every ant of it steps. The
// span's records are listed block by block first (the block's records lie side by side).
void walk_job(const TickView& v, ColonyEcs& w, u32 tick, const ecs::RecordJobs<Record>& jobs, u32 j, JobOut& out) {
  const auto at = jobs.places();
  const u32 block_mask = (1u << at.shift) - 1;
  const u32 first = jobs.first(j), end = first + jobs.count(j);
  std::array<Record*, kSpan> records, deciders;
  for (u32 from = first; from < end; from += kSpan) {
    const u32 n = std::min(kSpan, end - from);
    Record* next = &at(from);
    for (u32 k = 0; k < n; ++k) {
      if (((from + k) & block_mask) == 0) next = &at(from + k);
      records[k] = next++;
    }
    if (v.deciding <= 1) {
      u32 m = 0;
      for (u32 t = 0; t < n; ++t) {
        if (t + 2 * kAhead < n) ecs::prefetch_for_read(records[t + 2 * kAhead]);
        Record* r = records[t];
        deciders[m] = r;
        m += decides(v, r->header.handle.index) && takes_turn(*r) && r->payload.kind != Kind::Queen;
      }
      decide_walk(v, w, deciders.data(), m);
    }
    step_walk(v, records.data(), n, [&](Record& r) {
      if (takes_turn(r)) step_ant(v, tick, r.header.handle.index, r.header.chunk, r.payload, out);
    });
  }
}

// The orders, job by job: first deaths, bites and deliveries, then fights, then changes
// of chunk (an ant a fight killed stays where it is).
void carry_out_orders(Game& g, const ecs::RecordJobs<Record>& jobs) {
  Game::AntPasses& p = *g.ant_passes;
  ColonyEcs& w = *g.ecs;
  for (u32 j = 0; j < jobs.size(); ++j) {
    const Order* o = &p.orders[jobs.first(j)];
    for (u32 k = 0; k < p.counts[j].orders; ++k) {
      Record& r = w.record_at(o[k].index);
      if (o[k].kind == OrderKind::Die) kill_ant(g, r, o[k].cause);
      else if (o[k].kind == OrderKind::TakeFood) take_food(g, r);
      else deliver_food(g, r);
    }
  }
  for (u32 j = 0; j < jobs.size(); ++j) {
    const Meeting* m = &p.meetings[jobs.first(j)];
    for (u32 k = 0; k < p.counts[j].meetings; ++k) {
      Record& r = w.record_at(m[k].index);
      Record& enemy = w.record_at(m[k].enemy);
      if (!((r.header.flags | enemy.header.flags) & ecs::kFlagDying)) fight(g, r, enemy);
    }
  }
  // A changer's directory entry and record lie anywhere (about one ant in a hundred
  // changes chunk a tick): the entry is read 2 x kAhead changes ahead, the record kAhead.
  constexpr u32 kAhead = 8;
  const ecs::EntityStore& store = w.store();
  for (u32 j = 0; j < jobs.size(); ++j) {
    const ChunkChange* c = &p.changes[jobs.first(j)];
    const u32 n = p.counts[j].changes;
    for (u32 k = 0; k < n; ++k) {
      if (k + 2 * kAhead < n) ecs::prefetch_for_read(&store.dir(c[k + 2 * kAhead].index));
      if (k + kAhead < n) ecs::prefetch_for_read(&w.record_at(c[k + kAhead].index));
      note_chunk_change(g, w.record_at(c[k].index), c[k].chunk, c[k].from);
    }
  }
}

}  // namespace

namespace {
ecs::Workers* g_workers = nullptr;  // the simulation's threads; none while there is one
}  // namespace

ecs::Workers* sim_workers() { return g_workers; }

void set_sim_threads(u32 n) {
  static std::unique_ptr<ecs::Workers> crew;
  n = n ? n : std::max(1u, std::thread::hardware_concurrency());
  crew.reset();
  g_workers = nullptr;
  if (n > 1) crew = std::make_unique<ecs::Workers>(n), g_workers = crew.get();
}
u32 sim_threads() { return g_workers ? g_workers->threads() : 1; }

u32 cell_holder(const Game& g, u32 cell) {
  if (g.tick == 0 || cell >= g.occupancy.size()) return ecs::kNone;
  const u64 occ = g.occupancy[cell];
  if ((occ & kStampMask) != occupancy_stamp(g.tick - 1)) return ecs::kNone;
  return u32(occ & kOccupantMask);
}

void simulate_ants(Game& g) {
  if (g.tick != 0 && occupancy_stamp(g.tick) == occupancy_stamp(0))
    std::fill(g.occupancy.begin(), g.occupancy.end(), 0);
  ColonyEcs& w = *g.ecs;
  Game::AntPasses& p = *g.ant_passes;
  const TickView v = view_of_tick(g);
  const u64 stamp = v.stamp;
  const u32 tick = u32(g.tick);
  const ecs::RecordJobs<Record> jobs = w.simulated_jobs(records_per_job(w.simulated_count()));
  const u32 n = jobs.size();
  run_sim_jobs(n, [&](u32 j) {
    const size_t at = jobs.first(j);
    JobOut out{&p.orders[at], &p.changes[at], &p.walkers[at]};
    // A copy for the job: the compiler then knows that no store of the walk reaches it.
    const TickView jv = v;
    walk_job(jv, w, tick, jobs, j, out);
    p.counts[j] = {out.n_orders, out.n_changes, out.n_walkers, 0};
  });
  run_sim_jobs(n, [&](u32 j) {
    const size_t at = jobs.first(j);
    const Walker* walkers = &p.walkers[at];
    Meeting* meetings = &p.meetings[at];
    const u64* occupancy = v.occupancy;
    const u32 walked = p.counts[j].walkers;
    u32 met = 0;
    // The cell of the walker kAhead on: written by the other job's ants, or by this
    // one's long before, it is seldom in cache.
    constexpr u32 kAhead = 48;
    for (u32 k = 0; k < walked; ++k) {
      if (k + kAhead < walked) ecs::prefetch_for_read(&occupancy[walkers[k + kAhead].cell]);
      // Combat: the ant holding this cell this tick, if it is of another colony (and so
      // not this one).
      const Walker& wk = walkers[k];
      const u64 occ = occupancy[wk.cell];
      const u32 holder = u32(occ);
      if ((occ & kStampMask) == stamp && (holder ^ wk.tag) >> kOccupantBits)
        meetings[met++] = {wk.tag & u32(kOccupantMask), holder & u32(kOccupantMask)};
    }
    p.counts[j].meetings = met;
  });
  carry_out_orders(g, jobs);
  apply_deferred_moves(g);
}

namespace {

// [SECTION] Ants, dormant (cheaper model, every dormant_period ticks)

// Dormant ants wander (carriers head home), age, starve, eat and deliver, and cross
// chunks; they lay no scent and do not fight. Corpses rot here too.
void advance_dormant(Game& g, const TickView& v, Record& r) {
  Body& b = r.payload;
  if (r.header.flags & ecs::kFlagDying) return;
  u32 dt = u32(g.tick) - b.last_tick;
  if (dt == 0) return;
  b.last_tick = u32(g.tick);
  if (b.kind == Kind::Corpse) {
    b.age += dt;
    if (b.age >= g.scenario.rules.corpse_ticks) {
      forget_food(g, b, r.header.handle);
      g.ecs->queue_destroy(r.header.handle);
    }
    return;
  }
  if (!is_ant(b.kind)) return;
  if (b.kind == Kind::Queen) {
    b.age += dt;
    return;
  }
  if (DeathCause died = age_ant(v, b, r.header.handle.index, dt); died != DeathCause::Count) {
    kill_ant(g, r, died);
    return;
  }
  const u32 id = r.header.handle.index;
  const Colony& home = g.colonies[b.colony];
  // The trail's strength fades over the gap as it would tick by tick (kept whole, an ant
  // waking far from home would lay full-strength to-home scent there); taking or
  // delivering food below renews it.
  b.scent *= std::pow(kScentFade, float(dt));
  // The gap's walk, in pieces of at most kDormantPiece cells, each checked, so that no
  // water or rock is jumped over. Carriers head straight home at full speed for every tick
  // of the gap and stop at the nest (a cap on the ticks would leave them short at longer
  // periods, and a step past the nest would carry them beyond). Ants without food mill about:
  // a leg of up to kDormantLeg ticks at 0.4 of their speed, in a new direction each, and
  // a worker looks for food on every piece of the way, not only where it ends (found at
  // the ends alone, food comes to fewer updates as the period grows: a colony out of view
  // starves past a period of about 32).
  const float per_tick = b.speed * float(b.legs) / 6.0f;
  const Game::Stand from{b.x, b.y, b.cell, r.header.chunk};
  const bool looking = !b.carrying && b.kind == Kind::Worker;
  auto walk_leg = [&](float dist) {  // false once the ant stops (blocked, or on food)
    const glm::vec2 dir = direction(b.heading);
    const u32 pieces = std::max(1u, u32(std::ceil(dist / kDormantPiece)));
    for (u32 k = 0; k < pieces; ++k) {
      if (step_forward(v, b, dir, dist / float(pieces), id) == ecs::kNone) return false;
      if (looking && (g.cell_flags[cell_of(g, b.x, b.y)] & kCellFood)) return false;
    }
    return true;
  };
  if (b.carrying) {
    const glm::vec2 to_nest = nest_of(home) - position(b);
    b.heading = std::atan2(to_nest.y, to_nest.x);
    walk_leg(std::min(per_tick * float(dt), glm::length(to_nest)));
  } else {
    for (u32 done = 0, leg = 0; done < dt; done += kDormantLeg, ++leg) {
      b.heading = wrap_angle(b.heading + (hash_float(g.seed, g.tick + leg, id, kDormantWalk) - 0.5f) * 1.2f);
      if (!walk_leg(per_tick * float(std::min(dt - done, kDormantLeg)) * 0.4f)) break;
    }
  }
  b.cell = cell_of(g, b.x, b.y);
  if (looking && (g.cell_flags[b.cell] & kCellFood)) take_food(g, r);
  if (b.carrying && length_squared(position(b) - nest_of(home)) < kNestRadius * kNestRadius * 4) deliver_food(g, r);
  note_chunk_change(g, r, g.ecs->grid().chunk_at(b.x, b.y), from);
}

}  // namespace

void simulate_dormant(Game& g) {
  u32 period = std::max(1u, g.scenario.rules.dormant_period);
  u32 phase = u32(g.tick % period);
  const TickView v = view_of_tick(g);
  for (u32 c = phase; c < g.chunk_simulated.size(); c += period) {
    for_each_dormant_mobile(g, c, [&](Record& r) {
      if (r.payload.kind != Kind::Food) advance_dormant(g, v, r);
    });
    apply_deferred_moves(g);
  }
}

}  // namespace colony
