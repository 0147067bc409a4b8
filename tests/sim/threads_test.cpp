// threads_test.cpp — the simulation's threads change nothing but the time a tick takes:
// every shipped scenario, bombed, burnt and with a spawn, leaves the same state hash
// after each tick on one, two and four threads, and the validator finds nothing wrong
// after threaded ticks; as shipped and with the whole map simulated. The million-ant
// worlds are in the slow test (threads_million_test.cpp).
#include "thread_counts.h"

namespace colony {
namespace {

TEST(SimThreads, EveryShippedScenarioHashesTheSameOnOneTwoAndFourThreads) {
  const std::vector<std::string> names = scenarios_up_to(200'000);
  EXPECT_GE(names.size(), 5u);
  for (const std::string& name : names)
    for (bool whole_map : {false, true})
      expect_same_on_one_two_and_four(name, name == "full_100k.json" ? 12 : 40, whole_map);
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
