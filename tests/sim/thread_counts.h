// thread_counts.h — what the thread-count tests share: a scenario run tick by tick on a
// given number of threads, bombed, burnt, spawned into and culled, hashed after each tick.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "game.h"

namespace colony {

// Restores one thread when a test ends, whatever it set.
struct ThreadsGuard {
  ~ThreadsGuard() { set_sim_threads(1); }
};

inline Scenario load(const std::string& name) {
  Scenario s;
  std::string err;
  EXPECT_TRUE(load_scenario(std::string(COLONY_SCENARIO_DIR) + "/" + name, s, &err)) << err;
  return s;
}

// Every shipped scenario with at most `most` ants at the start.
inline std::vector<std::string> scenarios_up_to(u64 most) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(COLONY_SCENARIO_DIR)) {
    if (e.path().extension() != ".json") continue;
    const Scenario s = load(e.path().filename().string());
    u64 ants = 0;
    for (const auto& c : s.colonies) ants += c.workers + c.soldiers;
    if (ants <= most) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// The state hash after each of `ticks` ticks on `threads` threads, with the scenario's
// own simulation region or the whole map simulated, and with a bomb on the first nest at tick 3, a big bomb and a fire
// on the second at tick 5, a spawn at tick 6 and a cull at tick 8.
inline std::vector<u64> hashes(const Scenario& s, u32 threads, u32 ticks, bool whole_map) {
  set_sim_threads(threads);
  std::string err;
  auto g = make_game(s, s.seed, &err);
  EXPECT_NE(g, nullptr) << err;
  if (!g) return {};
  if (whole_map) set_sim_region(*g, 0, 0, float(g->width), float(g->height));
  const Colony& a = g->colonies.front();
  const Colony& b = g->colonies.back();
  std::vector<u64> out;
  for (u32 t = 0; t < ticks; ++t) {
    if (t == 3) queue_command(*g, {CommandKind::Bomb, a.nest_x + 3, a.nest_y, 0});
    if (t == 5) queue_command(*g, {CommandKind::BigBomb, b.nest_x, b.nest_y + 6, 0});
    if (t == 5) queue_command(*g, {CommandKind::Ignite, b.nest_x - 8, b.nest_y, 3});
    if (t == 6) queue_command(*g, {CommandKind::SpawnAnts, a.nest_x, a.nest_y, 4, 300});
    if (t == 8) queue_command(*g, Command{CommandKind::KillPercent, 0, 0, 0, 10});
    simulate_tick(*g);
    out.push_back(state_hash(*g));
  }
  EXPECT_TRUE(validate_game(*g, 4).empty()) << s.name << " on " << threads << " threads";
  return out;
}

inline void expect_same_on_one_two_and_four(const std::string& name, u32 ticks, bool whole_map) {
  SCOPED_TRACE(name + (whole_map ? ", the whole map simulated" : ", as shipped"));
  ThreadsGuard guard;
  const Scenario s = load(name);
  const std::vector<u64> one = hashes(s, 1, ticks, whole_map);
  ASSERT_EQ(one.size(), ticks);
  for (u32 threads : {2u, 4u}) {
    const std::vector<u64> many = hashes(s, threads, ticks, whole_map);
    ASSERT_EQ(many.size(), ticks);
    for (u32 t = 0; t < ticks; ++t)
      ASSERT_EQ(many[t], one[t]) << "first differs after tick " << t + 1 << " on " << threads << " threads";
  }
}

}  // namespace colony
