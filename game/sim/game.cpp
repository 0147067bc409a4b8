// game.cpp — the game's public face: names, counters, the tick (every system in order, each
// timed) and the state hash and validator.
//
// Table of contents
//   [SECTION] Names and counters
//   [SECTION] The tick
//   [SECTION] Hash and validation
#include <xxhash.h>

#include <array>
#include <cstring>
#include <ctime>

#include "sim_internal.h"
#include "world_report.h"

namespace colony {

// [SECTION] Names and counters

const char* death_cause_name(DeathCause c) {
  switch (c) {
    case DeathCause::Explosion: return "explosion";
    case DeathCause::Fire: return "fire";
    case DeathCause::Combat: return "combat";
    case DeathCause::Age: return "age";
    case DeathCause::Starvation: return "starvation";
    case DeathCause::Culled: return "culled";
    case DeathCause::Count: break;
  }
  return "?";
}

const char* system_name(SystemTimes::Id id) {
  switch (id) {
    case SystemTimes::Simulate: return "simulate";
    case SystemTimes::Pheromones: return "pheromones";
    case SystemTimes::Fire: return "fire";
    case SystemTimes::Destroy: return "destroy";
    case SystemTimes::Regions: return "regions";
    case SystemTimes::Dormant: return "dormant";
    case SystemTimes::Corpses: return "corpses";
    case SystemTimes::Count: break;
  }
  return "?";
}

const char* command_kind_name(CommandKind k) {
  switch (k) {
    case CommandKind::Bomb: return "bomb";
    case CommandKind::BigBomb: return "big_bomb";
    case CommandKind::Ignite: return "ignite";
    case CommandKind::PlaceFood: return "place_food";
    case CommandKind::PaintTerrain: return "paint_terrain";
    case CommandKind::SpawnAnts: return "spawn_ants";
    case CommandKind::KillPercent: return "kill_percent";
    case CommandKind::PlaceColony: return "place_colony";
    case CommandKind::Count: break;
  }
  return "?";
}

std::string release_cause_text(u32 cause) {
  std::string s;
  for (u32 c = 0; c < u32(DeathCause::Count); ++c)
    if (cause & release_cause_bit(DeathCause(c)))
      s += (s.empty() ? "" : " + ") + std::string(death_cause_name(DeathCause(c)));
  if (cause & kReleaseMaim) s += s.empty() ? "maimed by a bomb" : " (maimed)";
  return s.empty() ? "other" : s;
}

// The causes of the deaths between two counts, as release_cause_bit bits.
u32 death_bits(const DeathCounts& before, const DeathCounts& after) {
  u32 bits = 0;
  for (u32 c = 0; c < u32(DeathCause::Count); ++c)
    if (after.by_cause[c] != before.by_cause[c]) bits |= release_cause_bit(DeathCause(c));
  return bits;
}

u64 DeathCounts::total() const {
  u64 t = 0;
  for (u64 n : by_cause) t += n;
  return t;
}

u64 ants_alive(const Game& g) {
  u64 n = 0;
  for (const Colony& c : g.colonies) n += c.alive;
  return n;
}
u64 ants_born(const Game& g) {
  u64 n = 0;
  for (const Colony& c : g.colonies) n += c.born;
  return n;
}
DeathCounts ants_died(const Game& g) {
  DeathCounts d;
  for (const Colony& c : g.colonies)
    for (size_t i = 0; i < d.by_cause.size(); ++i) d.by_cause[i] += c.died.by_cause[i];
  return d;
}

// [SECTION] The tick

namespace {

// The CPU time of the calling thread and of the simulation's other threads.
double sim_cpu_ms() {
  const ecs::Workers* crew = sim_workers();
  return ecs::thread_cpu_ms() + (crew ? crew->crew_cpu_ms() : 0.0);
}

// Adds a system's CPU time, on all the simulation's threads, to the tick's and the run's
// totals.
class ScopedTimer {
 public:
  ScopedTimer(SystemTimes& t, SystemTimes::Id id) : t_(t), id_(id), start_ms_(sim_cpu_ms()) {}
  ~ScopedTimer() {
    double ms = sim_cpu_ms() - start_ms_;
    t_.last_ms[id_] += ms;
    t_.total_ms[id_] += ms;
  }

 private:
  SystemTimes& t_;
  SystemTimes::Id id_;
  double start_ms_;
};

}  // namespace

void simulate_tick(Game& g) {
  SystemTimes& t = g.times;
  t.last_ms.fill(0);
  ColonyEcs& w = *g.ecs;
  w.begin_tick();
  // The release journal (on while the debugger is open) is told each release's tick and
  // cause: nothing in particular until the tick's deaths are applied.
  const DeathCounts died_before = ants_died(g);
  w.journal_context(g.tick, 0);
  {
    ScopedTimer timer(t, SystemTimes::Regions);
    move_chunks_between_tiers(g);
    keep_space_order(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Simulate);
    for (const Command& c : g.pending_commands) apply_command(g, c);
    g.pending_commands.clear();
    g.pending_command_cells = 0;
    run_events(g);
    simulate_colonies(g);
    tend_colonies(g);
    simulate_ants(g);
    replenish_food(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Dormant);
    simulate_dormant(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Fire);
    simulate_fire(g);
    regrow_grass(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Pheromones);
    evaporate(g);
  }
  {
    w.journal_context(g.tick, death_bits(died_before, ants_died(g)));
    ScopedTimer timer(t, SystemTimes::Destroy);
    w.apply_destructions();
  }
  {
    ScopedTimer timer(t, SystemTimes::Corpses);
    spawn_corpses(g);
  }
  // Explosions older than kBlastTicks leave the list together (it is in tick order).
  auto shown =
      std::find_if(g.blasts.begin(), g.blasts.end(), [&](const Blast& b) { return b.tick + kBlastTicks >= g.tick; });
  g.blasts.erase(g.blasts.begin(), shown);
  auto lit =
      std::find_if(g.sparks.begin(), g.sparks.end(), [&](const Spark& s) { return s.tick + kSparkTicks >= g.tick; });
  g.sparks.erase(g.sparks.begin(), lit);
  ++g.tick;
}

// [SECTION] Hash and validation

namespace {

struct Hasher {
  XXH3_state_t* s = XXH3_createState();
  Hasher() { XXH3_64bits_reset(s); }
  ~Hasher() { XXH3_freeState(s); }
  void bytes(const void* p, size_t n) { XXH3_64bits_update(s, p, n); }
  template <class T>
  void pod(const T& v) {
    bytes(&v, sizeof v);
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(v.size());
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  u64 digest() { return XXH3_64bits_digest(s); }
};

}  // namespace

u64 state_hash(const Game& gc) {
  Game& g = const_cast<Game&>(gc);  // walking the store needs non-const access; nothing changes
  Hasher h;
  h.pod(g.seed);
  h.pod(g.tick);
  h.pod(g.width);
  h.pod(g.height);
  h.vec(g.terrain);
  h.vec(g.fire);
  h.vec(g.scorch);
  h.vec(g.burning);
  h.vec(g.chunk_burning);
  for (const auto& f : g.fields) h.vec(f);
  h.vec(g.danger);
  h.vec(g.food_at);
  h.pod(g.food_sources);
  for (const Colony& c : g.colonies) {
    h.pod(c.nest_x), h.pod(c.nest_y), h.pod(c.color), h.pod(c.queen), h.pod(c.food);
    h.pod(c.alive), h.pod(c.born), h.pod(c.died.by_cause), h.pod(c.delivered), h.pod(c.starving);
    h.pod(c.down_since), h.pod(c.refounds);
  }
  h.pod(g.rng);
  h.pod(g.event_rng);
  h.vec(g.event_next);
  h.pod(g.region_x), h.pod(g.region_y), h.pod(g.region_w), h.pod(g.region_h);
  h.vec(g.chunk_simulated);
  h.pod(g.spawn_refused);
  for (const Command& c : g.pending_commands) {
    h.pod(c.kind), h.pod(c.x), h.pod(c.y), h.pod(c.radius), h.pod(c.count), h.pod(c.colony), h.pod(c.caste),
        h.pod(c.terrain);
  }
  hash_records(*g.ecs, [&](const void* p, size_t n) { h.bytes(p, n); });
  return h.digest();
}

std::vector<ecs::Violation> validate_game(Game& g, size_t max_reports, u64* found) {
  u64 total = 0;
  std::vector<ecs::Violation> out = g.ecs->validate(max_reports, &total);
  auto report = [&](Handle h, std::string what) {
    ++total;
    if (out.size() < max_reports) out.push_back({"", ecs::kNone, h, std::move(what)});
  };
  // Game-level invariants: colony counts match the ants in storage, every ant sits in
  // the tier its chunk calls for and in the cell it notes, what the render pieces show
  // agrees with the body (an ant's legs, antennae and carried food, a food source's
  // crumbs: the pool operations change both together), the food count matches the food
  // sources, the burning counts per chunk match the fire, and the food grid names only
  // live food.
  ColonyEcs& w = *g.ecs;
  std::vector<u64> counted(g.colonies.size(), 0);
  u64 food_sources = 0;
  auto pieces = [&](Record& r, Part part) {
    u32 n = 0;
    w.for_each_component<RenderPiece>(r, [&](u32, const RenderPiece& p) { n += p.part == part; });
    return n;
  };
  auto check = [&](Record& r) {
    const Body& b = r.payload;
    if (r.header.flags & ecs::kFlagDying) return;
    if (b.kind == Kind::Food) {
      ++food_sources;
      if (pieces(r, Part::Crumb) != b.amount)
        report(r.header.handle, "food source's crumb pieces disagree with its amount " + std::to_string(b.amount));
    }
    if (!is_ant(b.kind)) return;
    if (b.colony < counted.size()) ++counted[b.colony];
    ecs::Tier want = tier_for_chunk(g, r.header.chunk);
    if (ecs::Tier(r.header.tier) != want)
      report(r.header.handle, std::string("ant in the wrong tier for chunk ") + std::to_string(r.header.chunk));
    if (r.header.chunk != w.grid().chunk_at(b.x, b.y)) report(r.header.handle, "ant's chunk is not the chunk under it");
    if (b.cell != cell_of(g, b.x, b.y)) report(r.header.handle, "ant's cell is not the cell under it");
    if (pieces(r, Part::Leg) != b.legs || pieces(r, Part::Antenna) != b.antennae ||
        pieces(r, Part::CarriedFood) != b.carrying)
      report(r.header.handle, "ant's leg, antenna or carried-food pieces disagree with its body");
  };
  w.for_each_entity(check);
  if (food_sources != g.food_sources)
    report({}, "the game counts " + std::to_string(g.food_sources) + " food sources, storage holds " +
                   std::to_string(food_sources));
  std::vector<u32> burning(g.chunk_burning.size(), 0);
  for (u32 cell = 0; cell < g.fire.size(); ++cell)
    if (g.fire[cell] > 0) ++burning[w.grid().chunk_of_cell(cell % g.width, cell / g.width)];
  for (u32 c = 0; c < burning.size(); ++c)
    if (burning[c] != g.chunk_burning[c])
      report({}, "chunk " + std::to_string(c) + " counts " + std::to_string(g.chunk_burning[c]) +
                     " burning cells, the fire grid " + std::to_string(burning[c]));
  for (size_t i = 0; i < g.colonies.size(); ++i)
    if (counted[i] != g.colonies[i].alive)
      report({}, "colony " + std::to_string(i) + " counts " + std::to_string(g.colonies[i].alive) +
                     " ants, storage holds " + std::to_string(counted[i]));
  for (size_t cell = 0; cell < g.food_at.size(); ++cell) {
    Handle h = g.food_at[cell];
    if (h.is_null()) continue;
    const Record* r = w.find(h);
    if (!r || (r->payload.kind != Kind::Food && r->payload.kind != Kind::Corpse))
      report(h, "food grid cell " + std::to_string(cell) + " names no live food");
  }
  g.invariant_violations += total;
  if (found) *found = total;
  return out;
}

}  // namespace colony
