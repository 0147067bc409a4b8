// shipped_scenarios_test.cpp — every scenario in assets/scenarios/ is built (the million-ant
// world too), runs a few ticks and passes the validator: parsing alone misses what only the
// build checks (land after the noise, the memory budget, pool capacities). Slow: the
// million-ant world takes seconds, a minute under the sanitizers, which skip this label.
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
  EXPECT_GE(built, 6);
}

}  // namespace
}  // namespace colony
