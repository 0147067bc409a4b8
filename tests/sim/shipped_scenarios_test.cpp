// shipped_scenarios_test.cpp — every scenario in assets/scenarios/ is built (the two
// million-ant worlds too), runs a few ticks and passes the validator: parsing alone misses
// what only the build checks (land after the noise, the memory budget, pool capacities).
// Slow: each million-ant world takes seconds (full_1m.json simulates every ant, about half
// a second a tick on one core), a minute under the sanitizers, which skip this label.
#include <gtest/gtest.h>

#include <filesystem>

#include "game.h"

namespace colony {
namespace {

TEST(ShippedScenarios, EveryOneBuildsRunsAndValidates) {
  int built = 0;
  for (const auto& entry : std::filesystem::directory_iterator(COLONY_SCENARIO_DIR)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().filename().string());
    Scenario s;
    std::string err;
    ASSERT_TRUE(load_scenario(entry.path().string(), s, &err)) << err;
    auto g = make_game(s, s.seed, &err);
    ASSERT_NE(g, nullptr) << err;
    EXPECT_GT(ants_alive(*g), 0u);
    for (int t = 0; t < 3; ++t) simulate_tick(*g);
    EXPECT_TRUE(validate_game(*g, 1).empty());
    EXPECT_EQ(g->tick, 3u);
    ++built;
  }
  EXPECT_GE(built, 7);
}

// The demo's bombs are releases the debugger's theatre replays: with the journal on (as
// while the debugger is open) every bomb of carpet_bombing.json's first round is journaled
// with its cause and all its steps, and at least one takes the batch passes.
TEST(ShippedScenarios, CarpetBombingsBombsAreJournaledAndOneTakesTheBatchPasses) {
  Scenario s;
  std::string err;
  ASSERT_TRUE(load_scenario(std::string(COLONY_SCENARIO_DIR) + "/carpet_bombing.json", s, &err)) << err;
  auto g = make_game(s, s.seed, &err);
  ASSERT_NE(g, nullptr) << err;
  ASSERT_TRUE(g->ecs->set_journal(true));
  int bombs = 0, batched = 0;
  unsigned most = 0;
  for (int t = 0; t <= 730; ++t) {
    const u64 before = g->ecs->journal().release_count();
    simulate_tick(*g);
    for (u64 k = before; k < g->ecs->journal().release_count(); ++k) {
      // A bomb tears off more legs (each a release) than the ring keeps; its kill, the
      // tick's last release, is kept.
      const ColonyEcs::JournalRelease* r = g->ecs->journal().release(k);
      if (!r) continue;
      if (!(r->cause & release_cause_bit(DeathCause::Explosion)) || r->path == ecs::ReleasePath::RemoveOne) continue;
      ++bombs;
      EXPECT_EQ(r->dropped(), 0u);
      most = std::max(most, r->victims);
      batched += r->path != ecs::ReleasePath::OneAtATime;
    }
  }
  EXPECT_EQ(bombs, 4) << "one release per bomb of the first round";
  EXPECT_GE(batched, 1) << "no bomb took the batch passes (most victims " << most << ")";
}

}  // namespace
}  // namespace colony
