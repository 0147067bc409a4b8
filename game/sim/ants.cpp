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

// Ants sense on alternate ticks and lay scent on the others (half the random reads).
bool senses_this_tick(u32 tick, u32 index) { return ((index + tick) & 1) == 0; }
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

// The cells an ant's sensors sample this tick, in the order of its sensor list: found
// once, where the walk prefetches them (prefetch_cells), and read there again by the turn.
struct SensedCells {
  std::array<u32, Sensor::kMaxPerEntity> cell;
};

// Sense: each sensor samples the trail field ahead at its angle (at `sensed`, the cells
// prefetch_cells found), the best one wins; then steer by it with some randomness, back
// from danger felt just ahead, home when carrying, and (soldiers) back toward the nest
// when strayed.
void sense_and_steer(const TickView& v, ColonyEcs& w, Body& b, u32 id, bool returning, bool sense_tick,
                     const SensedCells& sensed) {
  const glm::vec2 nest = v.nests[b.colony];
  const float* trail = v.fields[followed_field(b)];
  const auto& sl = w.list_at<Sensor>(id);
  Sensor* sensors = v.sensors;
  float best = 0, best_angle = 0;
  for (u32 k = 0; sense_tick && k < sl.added; ++k) {
    Sensor& sn = sensors[sl.slot[k]];
    sn.reading = trail[sensed.cell[k]];
    if (sn.reading > best) best = sn.reading, best_angle = sn.angle;
  }
  float wander = draw_float(v.key, id, kWander) - 0.5f;
  b.heading += best > 0.01f ? best_angle * 0.6f + wander * 0.2f : wander * 0.45f;
  const glm::vec2 dir = direction(b.heading);
  // Danger (explosions, fire) is felt just ahead: the ant turns back.
  if (v.flags[cell_at(v, position(b) + dir * 2.0f)] & kCellDanger) {
    b.heading += kPi * (0.75f + 0.5f * wander);
    b.state = AntState::Fleeing;
  }
  if (returning) {
    steer_toward(b, dir, nest, 0.08f);
  } else if (b.kind == Kind::Soldier) {
    // Soldiers patrol a ring around the nest: pulled home when they stray too far.
    if (length_squared(position(b) - nest) > 40.0f * 40.0f) steer_toward(b, dir, nest, 0.1f);
  }
  b.heading = wrap_angle(b.heading);
}

// One step along the heading, slower with every lost leg; returns the cell it ends in
// (the one it stood on when water, rock or the map's edge blocked it).
u32 walk(const TickView& v, Body& b, u32 id) {
  float dist = b.speed * float(b.legs) / 6.0f;
  u32 cell = step_forward(v, b, direction(b.heading), dist, id);
  if (cell == ecs::kNone) cell = b.cell;
  b.cell = cell;
  return cell;
}

// [SECTION] The full model's passes
//
// A tick of the full model is a walk of every simulated ant, cut into jobs of whole
// storage blocks (ecs::RecordJobs) that the simulation's threads share, then three
// steps that run on one thread:
//   pass 1 (jobs)   each ant ages, senses, steers and walks; it writes its own record and
//                   sensors, claims its cell in the occupancy grid, and notes for later
//                   what touches anything else: a death, a bite or a delivery, a change
//                   of chunk, and the scent it lays.
//   pass 2 (jobs)   each walker lays its scent and looks for an enemy in its cell.
//   orders          deaths, bites and deliveries, fights, chunk changes, job by job.
// Within a pass nothing an ant reads is written: pass 1 reads the trail fields and pass
// 2 alone writes them (an atomic max), pass 1 writes the occupancy grid (an atomic
// claim: the lowest entity index standing in a cell holds it) and pass 2 alone reads
// it. Everything else goes through the orders, in job order. So the world after a tick
// is the same for any thread count.

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
// An ant that walked this tick: where it stands, and the scent it lays there (field
// kNoScent when it senses this tick instead).
struct Walker {
  u32 index, cell, chunk;
  float lay;
  u8 colony, field;
};
constexpr u8 kNoScent = 0xFF;
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
void claim_cell(const TickView& v, u32 cell, u8 colony, u32 index) {
  const u64 stamp = v.stamp;
  std::atomic_ref<u64> occ(v.occupancy[cell]);
  const u64 mine = stamp | u64(colony) << kOccupantBits | index;
  u64 held = occ.load(std::memory_order_relaxed);
  while (((held & 0xFFFFFFFF00000000ull) != stamp || (held & kOccupantMask) > index) &&
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

// Pass 1 for one ant: age, sense and steer, walk; what touches more than its own record
// is noted in the job's arrays.
struct JobOut {
  Order* orders;
  ChunkChange* changes;
  Walker* walkers;
  u32 n_orders = 0, n_changes = 0, n_walkers = 0;
};

// The turn of ant `id`, whose record places it in chunk `chunk_was`.
void turn_ant(const TickView& v, ColonyEcs& w, u32 tick, u32 id, u32 chunk_was, Body& b, JobOut& out,
              const SensedCells& sensed) {
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
  // A fight or a flight lasts the tick it happens in (the HUD and inspector show it).
  if (b.state == AntState::Fighting || b.state == AntState::Fleeing)
    b.state = b.carrying ? AntState::Returning : AntState::Searching;
  const bool returning = b.carrying != 0;
  const bool sense_tick = senses_this_tick(tick, id);
  sense_and_steer(v, w, b, id, returning, sense_tick, sensed);
  const Game::Stand from{b.x, b.y, b.cell, chunk_was};
  const u32 cell = walk(v, b, id);
  // Every step stays on the map (step_forward), so the chunk is the one of its cell.
  const u32 chunk = v.grid.chunk_of_cell(u32(b.x), u32(b.y));
  // Scent: to-home while searching, to-food while carrying; it fades with distance walked.
  Walker& walker = out.walkers[out.n_walkers++];
  walker = {id, cell, chunk, b.scent * v.deposit, b.colony, kNoScent};
  // Only a positive scent can raise a cell (raise_trail compares bits, which order as the
  // values do for positive floats alone).
  if (!sense_tick && walker.lay > 0) walker.field = u8(laid_field(b));
  b.scent *= kScentFade;
  // Food and home: a searching worker on food takes a bite, a carrier at the nest
  // delivers, and an ant at the nest starts its to-home trail afresh.
  if (!returning && b.kind == Kind::Worker && (v.flags[cell] & kCellFood))
    out.orders[out.n_orders++] = {id, OrderKind::TakeFood, DeathCause::Count};
  if (length_squared(position(b) - v.nests[b.colony]) < kNestRadius * kNestRadius) {
    if (returning) out.orders[out.n_orders++] = {id, OrderKind::Deliver, DeathCause::Count};
    else b.scent = 1;
  }
  claim_cell(v, cell, b.colony, id);
  if (chunk != chunk_was) out.changes[out.n_changes++] = {id, chunk, from};
}

void think_ant(const TickView& v, ColonyEcs& w, u32 tick, Record& r, JobOut& out, const SensedCells& sensed) {
  turn_ant(v, w, tick, r.header.handle.index, r.header.chunk, r.payload, out, sensed);
}

// Prefetches the cells the ant's turn reads from the per-cell grids, each at an address
// its record and sensors give before the turn: on a sensing tick the trail cell under
// each sensor, on the other ticks the trail cell it lays scent in; the occupancy word,
// the flags and the terrain of its cell (its step and the danger it feels lie a cell or
// two away, mostly on the same lines).
void prefetch_cells(const TickView& v, const ColonyEcs& w, u32 tick, const Record& r, SensedCells& sensed) {
  const Body& b = r.payload;
  if (!takes_turn(r) || b.kind == Kind::Queen) return;
  if (senses_this_tick(tick, r.header.handle.index)) {
    const float* trail = v.fields[followed_field(b)];
    const auto& sl = w.list_at<Sensor>(r.header.handle.index);
    for (u32 k = 0; k < sl.added; ++k) {
      sensed.cell[k] = sensor_cell(v, b, v.sensors[sl.slot[k]]);
      ecs::prefetch_for_read(&trail[sensed.cell[k]]);
    }
  } else {
    ecs::prefetch_for_read(&v.fields[laid_field(b)][b.cell]);
  }
  ecs::prefetch_for_read(&v.occupancy[b.cell]);
  ecs::prefetch_for_read(&v.flags[b.cell]);
  ecs::prefetch_for_read(&v.terrain[b.cell]);
}

// fn(Record&, const SensedCells&) for the records of job j, prefetching what the full
// model reads that no hardware stream predicts, each step once the one before has
// brought in what it needs. 4 x kAhead records ahead: the record itself (a storage block
// is 2 KiB, too short for the hardware's stream to lock on). 3 x kAhead ahead: the line
// of the directory row holding its sensor list (its address follows from the record's
// index alone). 2 x kAhead ahead: its first sensor (sensor entries lie anywhere in their
// pool until it is put in space order). kAhead ahead: the grid cells its turn reads
// (prefetch_cells). The first step finds each record from its place in the store
// (RecordJobs::places), a few instructions, and the later steps take it from a ring of
// the last records found; a cursor per distance would follow the block chain at every
// step. The row is prefetched one step before it is read, never
// read in the step that prefetches it: on the million map, whose rows are never in
// cache, a read straight after its prefetch is where the walk waits.
// The row and the sensor are prefetched on the ticks an ant lays scent too, when its
// turn reads neither: leaving them out there (a branch on the tick's parity, which the
// walk's order makes random) measured no faster.
template <class Fn>
void for_each_prefetching(const TickView& v, ColonyEcs& w, u32 tick, const ecs::RecordJobs<Record>& jobs, u32 j,
                          Fn&& fn) {
  constexpr u32 kAhead = 8;
  // The records of the last 4 x kAhead places, found once each, and the sensed cells of
  // the last kAhead, each at its place modulo the ring's size.
  constexpr u32 kRecords = 64, kSensed = 2 * kAhead;
  static_assert(kRecords > 4 * kAhead && std::has_single_bit(kRecords) && std::has_single_bit(kSensed));
  const Sensor* sensors = v.sensors;
  const u32 first = jobs.first(j), n = jobs.count(j);
  const auto at = jobs.places();
  std::array<Record*, kRecords> rec;
  std::array<SensedCells, kSensed> sensed;
  // Whether the place `back` steps behind step t is one of the job's (one comparison:
  // a place before the first wraps round to a large number).
  auto in_job = [&](u32 t, u32 back) { return t - back - first < n; };
  for (u32 t = first; t < first + n + 4 * kAhead; ++t) {
    if (in_job(t, 0)) ecs::prefetch_for_read(rec[t % kRecords] = &at(t));
    if (in_job(t, kAhead))
      ecs::prefetch_for_read(&w.list_at<Sensor>(rec[(t - kAhead) % kRecords]->header.handle.index));
    if (in_job(t, 2 * kAhead)) {
      const auto& sl = w.list_at<Sensor>(rec[(t - 2 * kAhead) % kRecords]->header.handle.index);
      if (sl.added) ecs::prefetch_for_read(&sensors[sl.slot[0]]);
    }
    if (in_job(t, 3 * kAhead)) {
      const u32 p = t - 3 * kAhead;
      prefetch_cells(v, w, tick, *rec[p % kRecords], sensed[p % kSensed]);
    }
    if (in_job(t, 4 * kAhead)) {
      const u32 p = t - 4 * kAhead;
      fn(*rec[p % kRecords], sensed[p % kSensed]);
    }
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
  for (u32 j = 0; j < jobs.size(); ++j) {
    const ChunkChange* c = &p.changes[jobs.first(j)];
    for (u32 k = 0; k < p.counts[j].changes; ++k) note_chunk_change(g, w.record_at(c[k].index), c[k].chunk, c[k].from);
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
  if ((occ & 0xFFFFFFFF00000000ull) != occupancy_stamp(g.tick - 1)) return ecs::kNone;
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
    for_each_prefetching(jv, w, tick, jobs, j, [&](Record& r, const SensedCells& sensed) {
      if (takes_turn(r)) think_ant(jv, w, tick, r, out, sensed);
    });
    p.counts[j] = {out.n_orders, out.n_changes, out.n_walkers, 0};
  });
  u8* chunk_scent = g.chunk_scent.data();
  run_sim_jobs(n, [&](u32 j) {
    const size_t at = jobs.first(j);
    const Walker* walkers = &p.walkers[at];
    Meeting* meetings = &p.meetings[at];
    const TickView jv = v;
    const u32 walked = p.counts[j].walkers;
    u32 met = 0;
    // The cells of the walker kAhead on: written by the other job's ants, or by this
    // one's long before, they are seldom in cache.
    constexpr u32 kAhead = 16;
    for (u32 k = 0; k < walked; ++k) {
      if (k + kAhead < walked) {
        const Walker& next = walkers[k + kAhead];
        ecs::prefetch_for_read(&jv.occupancy[next.cell]);
        if (next.field != kNoScent) ecs::prefetch_for_write(&jv.fields[next.field][next.cell]);
      }
      const Walker& wk = walkers[k];
      if (wk.field != kNoScent && raise_trail(jv.fields[wk.field][wk.cell], wk.lay)) {
        std::atomic_ref<u8> flags(chunk_scent[wk.chunk]);
        if (!(flags.load(std::memory_order_relaxed) & kChunkTrail))
          flags.fetch_or(kChunkTrail, std::memory_order_relaxed);
      }
      // Combat: the ant holding this cell this tick, if it is an enemy.
      const u64 occ = jv.occupancy[wk.cell];
      const u32 holder = u32(occ & kOccupantMask);
      if ((occ & 0xFFFFFFFF00000000ull) == stamp && holder != wk.index && u32(occ >> kOccupantBits & 3) != wk.colony)
        meetings[met++] = {wk.index, holder};
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
