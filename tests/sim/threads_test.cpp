// threads_test.cpp — the simulation's threads change nothing but the time a tick takes:
// every shipped scenario, bombed, burnt and with a spawn, leaves the same state hash
// after each tick on one, two and four threads, and the validator finds nothing wrong
// after threaded ticks. The million-ant worlds are in the slow test.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "game.h"

namespace colony {
namespace {

// Restores one thread when a test ends, whatever it set.
struct ThreadsGuard {
  ~ThreadsGuard() { set_sim_threads(1); }
};

Scenario load(const std::string& name) {
  Scenario s;
  std::string err;
  EXPECT_TRUE(load_scenario(std::string(COLONY_SCENARIO_DIR) + "/" + name, s, &err)) << err;
  return s;
}

// Every shipped scenario with at most `most` ants at the start.
std::vector<std::string> scenarios_up_to(u64 most) {
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

// The state hash after each of `ticks` ticks on `threads` threads, the whole map
// simulated, with a bomb on the first nest at tick 3, a big bomb and a fire on the
// second at tick 5, a spawn at tick 6 and a cull at tick 8.
std::vector<u64> hashes(const Scenario& s, u32 threads, u32 ticks) {
  set_sim_threads(threads);
  std::string err;
  auto g = make_game(s, s.seed, &err);
  EXPECT_NE(g, nullptr) << err;
  if (!g) return {};
  set_sim_region(*g, 0, 0, float(g->width), float(g->height));
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

void expect_same_on_one_two_and_four(const std::string& name, u32 ticks) {
  SCOPED_TRACE(name);
  ThreadsGuard guard;
  const Scenario s = load(name);
  const std::vector<u64> one = hashes(s, 1, ticks);
  ASSERT_EQ(one.size(), ticks);
  for (u32 threads : {2u, 4u}) {
    const std::vector<u64> many = hashes(s, threads, ticks);
    ASSERT_EQ(many.size(), ticks);
    for (u32 t = 0; t < ticks; ++t)
      ASSERT_EQ(many[t], one[t]) << "first differs after tick " << t + 1 << " on " << threads << " threads";
  }
}

TEST(SimThreads, EveryShippedScenarioHashesTheSameOnOneTwoAndFourThreads) {
  const std::vector<std::string> names = scenarios_up_to(200'000);
  EXPECT_GE(names.size(), 5u);
  for (const std::string& name : names) expect_same_on_one_two_and_four(name, name == "full_100k.json" ? 12 : 40);
}

// The threads really share the work: a crew of four is four threads.
TEST(SimThreads, TheCountIsTheCrewsAndZeroIsTheMachines) {
  ThreadsGuard guard;
  set_sim_threads(4);
  EXPECT_EQ(sim_threads(), 4u);
  set_sim_threads(1);
  EXPECT_EQ(sim_threads(), 1u);
  set_sim_threads(0);
  EXPECT_EQ(sim_threads(), std::max(1u, std::thread::hardware_concurrency()));
}

// A fight decided by the occupancy grid must not depend on which thread claimed a cell
// first: a crowd of two colonies packed into a few cells fights the same on any count.
TEST(SimThreads, ACrowdedBattleIsTheSameOnAnyCount) {
  ThreadsGuard guard;
  Scenario s = load("default.json");
  std::vector<u64> first;
  for (u32 threads : {1u, 2u, 4u}) {
    set_sim_threads(threads);
    std::string err;
    auto g = make_game(s, 7, &err);
    ASSERT_NE(g, nullptr) << err;
    set_sim_region(*g, 0, 0, float(g->width), float(g->height));
    const float x = g->colonies[0].nest_x + 10, y = g->colonies[0].nest_y + 10;
    for (u8 c = 0; c < 2; ++c) queue_command(*g, {CommandKind::SpawnAnts, x, y, 2, 2000, c, Kind::Soldier});
    std::vector<u64> h;
    u64 combat = 0;
    for (int t = 0; t < 30; ++t) simulate_tick(*g), h.push_back(state_hash(*g));
    for (const Colony& c : g->colonies) combat += c.died.by_cause[size_t(DeathCause::Combat)];
    EXPECT_GT(combat, 0u) << "the crowd fought";
    EXPECT_TRUE(validate_game(*g, 4).empty());
    if (first.empty()) first = h;
    else EXPECT_EQ(h, first) << threads << " threads";
  }
}

}  // namespace
}  // namespace colony
