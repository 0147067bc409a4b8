// threads_test.cpp — the simulation's threads change nothing but the time a tick takes:
// every shipped scenario, bombed, burnt and with a spawn, leaves the same state hash
// after each tick on one, two and four threads, and the validator finds nothing wrong
// after threaded ticks; as shipped and with the whole map simulated. The million-ant
// worlds are in the slow test (threads_million_test.cpp).
#include <unordered_map>

#include "sim_internal.h"
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

// The occupancy claim's rule, on any count: each cell an ant stood in after its step is
// held by the lowest index that stood there (an ant that died in the tick may hold it, so
// the holder is at most the lowest survivor). A claim kept by whichever thread wrote last
// breaks it on one thread too, where a comparison of thread counts can only catch it when
// two threads happen to meet in a cell.
void expect_each_cell_held_by_its_lowest_index(const Game& g) {
  std::unordered_map<u32, u32> lowest;  // cell -> lowest surviving index standing in it
  u32 checked = 0;
  g.ecs->for_each_simulated([&](const Record& r) {
    const Body& b = r.payload;
    if (!is_ant(b.kind) || b.kind == Kind::Queen || (r.header.flags & ecs::kFlagDying)) return;
    auto [it, fresh] = lowest.try_emplace(b.cell, r.header.handle.index);
    if (!fresh) it->second = std::min(it->second, r.header.handle.index);
  });
  for (const auto& [cell, index] : lowest) {
    const u32 holder = cell_holder(g, cell);
    ASSERT_NE(holder, ecs::kNone) << "cell " << cell << " has an ant and no claim";
    EXPECT_LE(holder, index) << "cell " << cell;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
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
    for (int t = 0; t < 30; ++t) {
      simulate_tick(*g), h.push_back(state_hash(*g));
      expect_each_cell_held_by_its_lowest_index(*g);
    }
    for (const Colony& c : g->colonies) combat += c.died.by_cause[size_t(DeathCause::Combat)];
    EXPECT_GT(combat, 0u) << "the crowd fought";
    EXPECT_TRUE(validate_game(*g, 4).empty());
    if (first.empty()) first = h;
    else EXPECT_EQ(h, first) << threads << " threads";
  }
}

}  // namespace
}  // namespace colony
