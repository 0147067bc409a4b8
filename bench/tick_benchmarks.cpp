// tick_benchmarks.cpp — the real game at scale, through the simulation's own verbs
// (make_game, simulate_tick, queue_command, set_sim_threads from game/sim/game.h):
//   tick/full/<N>/threads:<T>  N ants, every chunk simulated, the simulation on T threads;
//                          counters ticks_per_s, ns_per_ant (wall time), bytes_per_ant
//                          (the full model's memory traffic), mem_gb_per_s
//   tick/chunked/<N>       N ants alive, a small simulation region, one thread; counter
//                          ticks_per_s
//   tick/bomb/<N>          a tick in which a bomb kills about N ants; counter ms = that
//                          tick's destruction and rewiring (the Destroy system: the
//                          engine's apply_destructions), system_ms = the same plus the
//                          Corpses system
//   tick/bomb_cold/<N>     the same release with the caches flushed after the bomb
//
// Table of contents
//   [SECTION] Scenarios: the shipped benchmark scenarios, scaled to the asked size
//   [SECTION] One game per benchmark, kept across Google Benchmark's calls
//   [SECTION] The full model's memory traffic
//   [SECTION] tick/full and tick/chunked
//   [SECTION] tick/bomb
//   [SECTION] Registration
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "game.h"
#include "cpu_speed.h"
#include "registry.h"
#include "variants.h"

namespace bench {

using colony::Game;
using colony::Scenario;

// [SECTION] Scenarios: the shipped benchmark scenarios, scaled to the asked size

// full_100k.json: 100,000 ants, the whole map simulated. million.json: 1,000,000 ants,
// a 128x128 simulation region.
constexpr u32 kFullScenarioAnts = 100'000;

Scenario load_benchmark_scenario(const char* file) {
  Scenario s;
  std::string err;
  std::string path = std::string(COLONY_SCENARIO_DIR) + "/" + file;
  require(colony::load_scenario(path, s, &err), err.c_str());
  return s;
}

u32 scenario_ants(const Scenario& s) {
  u32 n = 0;
  for (const auto& c : s.colonies) n += c.workers + c.soldiers;
  return n;
}

// The same scenario with `ants` starting ants: colonies, food and population caps scale
// with the ant count, the map's area with it too (so the density stays), and every
// position, radius and the simulation region with the map. The region keeps its size
// when the map would shrink below it, so "small region" stays small against the map.
Scenario scaled_scenario(Scenario s, u32 ants) {
  double f = double(ants) / double(std::max<u32>(1, scenario_ants(s)));
  if (std::abs(f - 1.0) < 1e-9) return s;
  auto side = [&](u32 v) { return std::max<u32>(64, u32(std::lround(double(v) * std::sqrt(f)))); };
  u32 w = side(s.width), h = side(s.height);
  float sx = float(w) / float(s.width), sy = float(h) / float(s.height);
  s.width = w;
  s.height = h;
  s.noise.scale *= std::sqrt(sx * sy);
  for (auto& c : s.colonies) {
    c.nest_x *= sx;
    c.nest_y *= sy;
    c.spread *= std::sqrt(sx * sy);
    c.workers = u32(std::lround(c.workers * f));
    c.soldiers = u32(std::lround(c.soldiers * f));
    c.food *= f;
  }
  for (auto& sh : s.shapes) sh.x *= sx, sh.y *= sy, sh.w *= sx, sh.h *= sy, sh.r *= std::sqrt(sx * sy);
  for (auto& fd : s.food) fd.x *= sx, fd.y *= sy;
  s.random_food.count = std::max<u32>(1, u32(std::lround(s.random_food.count * f)));
  s.region_x *= sx;
  s.region_y *= sy;
  s.region_w *= sx;
  s.region_h *= sy;
  if (s.capacity.max_ants) s.capacity = {};  // derive every capacity again
  if (s.rules.max_population) s.rules.max_population = std::max<u32>(2, u32(std::lround(s.rules.max_population * f)));
  s.events.clear();
  return s;
}

// [SECTION] One game per benchmark, kept across Google Benchmark's calls

// Google Benchmark calls a benchmark function once per repetition (and more while it
// sizes the iteration count); building a million-ant world each time would dominate the
// run. One game is kept and handed back while the same benchmark asks again.
struct GameCache {
  std::string key;
  std::unique_ptr<Game> game;
};

Game& cached_game(const std::string& key, const Scenario& s) {
  static GameCache cache;
  if (cache.key != key || !cache.game) {
    cache.game.reset();  // free the previous world before building the next
    std::string err;
    cache.game = colony::make_game(s, s.seed, &err);
    require(cache.game != nullptr, err.c_str());
    cache.key = key;
  }
  return *cache.game;
}

// Tiny runs also check the engine's invariants after the ticks they measured.
bool checked(benchmark::State& st, Game& g, bool tiny) {
  if (!tiny) return true;
  auto v = g.ecs->validate(1);
  if (v.empty()) return true;
  st.SkipWithError(("validator: " + ecs::describe(v.front())).c_str());
  return false;
}

// [SECTION] The full model's memory traffic

// What the full model's walk (turn_ant, game/sim/ants.cpp) reads and writes for one ant
// in one tick, in bytes, each touch counted as the cache lines it moves: a touch at a
// place unrelated to the last moves a whole 64-byte line however few of its bytes it
// uses, and a line it writes moves twice (read in, written back). Every touch is counted
// as a miss, so this is the traffic of a walk whose data the caches do not hold; a walk
// whose neighbours share lines moves less. Per ant and tick:
//   its record (header + Body, one line), read and written          2 lines
//   the occupancy word of its cell, claimed (read and written)      2 lines
//   the flags and the terrain of its cell (the walk prefetches both
//   for every ant; its step and a cell's food read them)            1 line each
//   its walker entry for the combat pass, written and read           8 bytes each way
//   on a laying tick (every odd one), the trail of its cell, read
//   and written                                                      2 lines
//   on a deciding tick (one in four):
//     the directory row's line holding its sensor slot list, read    1 line
//     its sensor entries (contiguous in their pool), read, written   1 + 1 lines
//     one trail field sample per sensor                              1 line each
//     the cell flags two cells ahead (danger), read                  1 line
// A worker has three sensors, a soldier two: `sensors` is the simulated ants' mean. Not
// counted: what stays in cache whatever the map (the colonies, the per-chunk scent
// flags, the chunk grid's arithmetic), the rare touches (a fight's other record and
// volumes, food taken or delivered, a chunk change) and the systems outside the walk
// (the pheromone pass, per cell and not per ant).
constexpr double kLineBytes = 64;
constexpr double kLayShare = 0.5, kDecideShare = 0.25;

// The lines a touch of `bytes` contiguous bytes moves.
double lines(double bytes) { return std::max(1.0, std::ceil(bytes / kLineBytes)); }

double full_model_bytes_per_ant(double sensors) {
  using colony::Record;
  using colony::Sensor;
  constexpr double kReadWrite = 2;
  constexpr double kWalkerBytes = 8;
  const double flag = lines(sizeof(decltype(Game::cell_flags)::value_type));
  const double trail = lines(sizeof(decltype(Game::fields)::value_type::value_type));
  double n = 0;
  n += kReadWrite * lines(sizeof(Record));
  n += kReadWrite * lines(sizeof(decltype(Game::occupancy)::value_type));
  n += flag + lines(sizeof(decltype(Game::terrain)::value_type));
  n += kReadWrite * kWalkerBytes / kLineBytes;
  n += kLayShare * kReadWrite * trail;
  n += kDecideShare * (lines(sizeof(ecs::SlotList<Sensor::kMaxPerEntity>)) +
                       kReadWrite * lines(sensors * sizeof(Sensor)) + sensors * trail + flag);
  return n * kLineBytes;
}

// [SECTION] tick/full and tick/chunked

// Ticks before timing starts, so the ants have left the nests and laid scent.
constexpr u32 kWarmupTicks = 30;
// Ticks a run of tick/full or tick/chunked measures, a fixed count: the game is kept
// across Google Benchmark's calls (GameCache), so its repetitions measure consecutive
// windows of one game (ticks 31-70, 71-110, 111-150), the same ones whatever the speed.
// Left to Google Benchmark, the count followed the speed, and so did the windows.
constexpr u32 kMeasuredTicks = 40;
// The simulation's thread counts tick/full runs each size with.
constexpr u32 kFullThreads[] = {1, 2};

// tick/chunked: one thread, timed with the thread's CPU clock as the pool benchmarks are.
void bench_chunked(benchmark::State& st, const std::string& key, const Scenario& s, bool tiny) {
  colony::set_sim_threads(1);
  Game& g = cached_game(key, s);
  while (g.tick < kWarmupTicks) colony::simulate_tick(g);
  double timed = 0;
  u64 ticks = 0;
  CpuSpeed speed(st);
  for (auto _ : st) {
    double t0 = thread_seconds();
    colony::simulate_tick(g);
    double t = thread_seconds() - t0;
    speed.end_iteration(t);
    timed += t;
    ++ticks;
  }
  if (!checked(st, g, tiny)) return;
  st.counters["ticks_per_s"] = timed > 0 ? double(ticks) / timed : 0.0;
  st.counters["ants_alive"] = double(colony::ants_alive(g));
  st.counters["simulated"] = double(g.ecs->simulated_count());
}

// tick/full on `threads` threads, warm-up included (each thread count builds its own
// world, so every count measures the same ticks of the same game). Timed with the wall
// clock: a thread's CPU clock would not see the work of the others, nor the waits for
// them. ns_per_ant is wall time per simulated ant per tick (every living ant is simulated
// here); mem_gb_per_s the full model's bytes per ant moved at that rate.
void bench_full(benchmark::State& st, const std::string& key, const Scenario& s, u32 threads, bool tiny) {
  Unpinned unpinned(threads > 1);
  colony::set_sim_threads(threads);
  Game& g = cached_game(key, s);
  while (g.tick < kWarmupTicks) colony::simulate_tick(g);
  double timed = 0;
  u64 ticks = 0, ant_ticks = 0;
  CpuSpeed speed(st);
  for (auto _ : st) {
    ant_ticks += colony::ants_alive(g);
    auto t0 = std::chrono::steady_clock::now();
    colony::simulate_tick(g);
    double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    speed.end_iteration(t);
    timed += t;
    ++ticks;
  }
  if (!checked(st, g, tiny)) return;
  const u64 ants = colony::ants_alive(g);
  const double sensors = ants ? double(g.ecs->pool<colony::Sensor>().stats.taken) / double(ants) : 0.0;
  const double ns_per_ant = ant_ticks ? timed * 1e9 / double(ant_ticks) : 0.0;
  const double bytes_per_ant = full_model_bytes_per_ant(sensors);
  st.counters["ticks_per_s"] = timed > 0 ? double(ticks) / timed : 0.0;
  st.counters["ants_alive"] = double(ants);
  st.counters["simulated"] = double(g.ecs->simulated_count());
  st.counters["sim_threads"] = double(colony::sim_threads());
  st.counters["cpus"] = double(usable_cpus());
  st.counters["ns_per_ant"] = ns_per_ant;
  st.counters["bytes_per_ant"] = bytes_per_ant;
  st.counters["mem_gb_per_s"] = ns_per_ant > 0 ? bytes_per_ant / ns_per_ant : 0.0;
}

// [SECTION] tick/bomb

// Counts living ants within r of (x, y) through the chunk grid's radius query.
// The bomb spares the queen (she lives underground), so she is not counted.
u32 ants_within(Game& g, float x, float y, float r) {
  u32 n = 0;
  g.ecs->for_each_in_radius(x, y, r, [&](colony::Record& rec) {
    const colony::Kind k = rec.payload.kind;
    if (colony::is_ant(k) && k != colony::Kind::Queen && !(rec.header.flags & ecs::kFlagDying)) ++n;
  });
  return n;
}

// Writes a buffer twice the size of the last-level cache, so what follows starts cold.
void flush_caches() {
  static std::vector<u64> junk(size_t(64) << 20 >> 3);
  for (size_t i = 0; i < junk.size(); i += 8) junk[i] += i;
  benchmark::DoNotOptimize(junk.data());
  benchmark::ClobberMemory();
}

// The smallest radius (to 1/8 cell) around (x, y) holding at least `victims` ants.
float radius_for(Game& g, float x, float y, u32 victims) {
  float lo = 0, hi = float(std::max(g.width, g.height));
  for (int i = 0; i < 24 && hi - lo > 0.125f; ++i) {
    float mid = 0.5f * (lo + hi);
    (ants_within(g, x, y, mid) >= victims ? hi : lo) = mid;
  }
  return hi;
}

// A fresh world per run (Google Benchmark calls this once per repetition: the bombs
// run a fixed count). Each iteration drops one bomb on the next colony's nest, sized so
// that it kills about `victims` ants, and measures the destruction and rewiring: the
// engine's apply_destructions (every victim's pieces, volumes and sensors released,
// survivors rewired, records freed), timed with the thread's CPU clock.
//
// tick/bomb — the bomb is a command inside a real tick, exactly as a player's bomb:
//   the Simulate system explodes it (finding the victims through the chunk grid,
//   maiming the ring, fire, scent), the rest of the tick runs, then the Destroy system
//   releases the dead. ms is that tick's Destroy system; system_ms adds the Corpses
//   system (the game spawning what the dead leave behind).
// tick/bomb_cold — the same release with every cache flushed between the bomb and the
//   release: a bound for a tick whose other systems evicted everything the bomb touched.
// The world then ticks on (untimed) to the next bomb.
constexpr u32 kBombsPerRun = 4;  // one per nest of the four-colony scenario

void bench_bomb(benchmark::State& st, const Scenario& s, u32 victims, bool tiny, bool cold) {
  colony::set_sim_threads(1);
  std::string err;
  std::unique_ptr<Game> game = colony::make_game(s, s.seed, &err);
  require(game != nullptr, err.c_str());
  Game& g = *game;
  while (g.tick < kWarmupTicks) colony::simulate_tick(g);
  double destroy_ms = 0, system_ms = 0, slowest_ms = 0;
  u64 bombs = 0, killed = 0;
  colony::ColonyEcs::ReleaseTimes passes;  // the bombs' releases, summed
  // Adds the bomb's release when it went through the timed batch passes (a bomb whose
  // victims went one at a time leaves last_release naming an earlier batch).
  auto add_release_since = [&](u64 batches_before) {
    if (g.ecs->release_totals().batches != batches_before) passes.add(g.ecs->last_release());
  };
  CpuSpeed speed(st);
  for (auto _ : st) {
    const colony::Colony& c = g.colonies[bombs % g.colonies.size()];
    float r = radius_for(g, c.nest_x, c.nest_y, victims);
    double destroy = 0, system = 0;
    const u64 batches_before = g.ecs->release_totals().batches;
    if (cold) {
      colony::Blast blast = colony::apply_bomb(g, c.nest_x, c.nest_y, r, 1.6f * r);
      flush_caches();
      double t0 = thread_seconds();
      g.ecs->apply_destructions();
      double t1 = thread_seconds();
      add_release_since(batches_before);
      colony::spawn_corpses(g);
      double t2 = thread_seconds();
      destroy = (t1 - t0) * 1e3;
      system = (t2 - t0) * 1e3;
      killed += blast.killed;
      colony::simulate_tick(g);
    } else {
      colony::queue_command(g, colony::Command{colony::CommandKind::Bomb, c.nest_x, c.nest_y, r});
      colony::simulate_tick(g);
      add_release_since(batches_before);
      destroy = g.times.last_ms[colony::SystemTimes::Destroy];
      system = destroy + g.times.last_ms[colony::SystemTimes::Corpses];
      killed += g.blasts.empty() ? 0 : g.blasts.back().killed;
    }
    speed.end_iteration(destroy * 1e-3);
    destroy_ms += destroy;
    system_ms += system;
    slowest_ms = std::max(slowest_ms, destroy);
    ++bombs;
    colony::simulate_tick(g);
  }
  if (!checked(st, g, tiny)) return;
  st.counters["ms"] = bombs ? destroy_ms / double(bombs) : 0.0;
  st.counters["system_ms"] = bombs ? system_ms / double(bombs) : 0.0;
  st.counters["killed"] = bombs ? double(killed) / double(bombs) : 0.0;
  // The run's slowest release: later bombs find victims and survivors the earlier fills
  // have scattered over the pools (docs/performance-notes.md, "The fourth bomb").
  st.counters["slowest_ms"] = slowest_ms;
  count_release_passes(st, *g.ecs, passes);
}

// [SECTION] Registration

void register_tick_benchmarks(const Sizes& sz) {
  bool tiny = sz.tiny;
  Scenario full = load_benchmark_scenario("full_100k.json");
  Scenario million = load_benchmark_scenario("million.json");
  // Every size is full_100k.json scaled (the density stays), the million too: the per-ant
  // cost across sizes then measures the size alone. (full_1m.json, the same ants on
  // million.json's map, is 2.5 times as dense.)
  for (u32 n : sz.tick_full_ants) {
    Scenario s = scaled_scenario(full, n);
    for (u32 threads : kFullThreads) {
      std::string name = "tick/full/" + std::to_string(n) + "/threads:" + std::to_string(threads);
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { bench_full(st, name, s, threads, tiny); })
          ->UseManualTime()
          ->Iterations(tiny ? 2 : kMeasuredTicks)
          ->Unit(benchmark::kMillisecond);
    }
  }
  {
    u32 n = sz.tick_chunked_ants;
    std::string name = "tick/chunked/" + std::to_string(n);
    Scenario s = scaled_scenario(million, n);
    benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { bench_chunked(st, name, s, tiny); })
        ->UseManualTime()
        ->Iterations(tiny ? 2 : kMeasuredTicks)
        ->Unit(benchmark::kMillisecond);
  }
  {
    // The bombed world: the full-simulation scenario at 10x the victims (100,000 ants
    // for a 10,000-ant bomb), so one bomb takes a tenth of the population.
    u32 victims = sz.tick_bomb_victims;
    Scenario s = scaled_scenario(full, std::min<u32>(kFullScenarioAnts, victims * 10));
    for (bool cold : {false, true}) {
      std::string name = std::string(cold ? "tick/bomb_cold/" : "tick/bomb/") + std::to_string(victims);
      benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) { bench_bomb(st, s, victims, tiny, cold); })
          ->UseManualTime()
          ->Iterations(kBombsPerRun)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace bench
