// scenario_json_test.cpp — a save carries its scenario as JSON: every shipped scenario
// must survive the trip (text -> scenario -> JSON -> scenario) and build the same world.
#include <filesystem>

#include "save_test_util.h"

namespace colony {
namespace {

TEST(ScenarioJson, EveryShippedScenarioRoundTrips) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::scenario_path(""))) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    Scenario s, back;
    std::string err;
    ASSERT_TRUE(load_scenario(entry.path().string(), s, &err)) << err;
    std::string text = scenario_to_json(s);
    ASSERT_TRUE(parse_scenario(text, s.path, back, &err)) << err;
    EXPECT_EQ(scenario_to_json(back), text);
    ++checked;
    // Small worlds: both build the same world and run the same for a while.
    if (u64(s.width) * s.height > 300'000 || resolved_capacity(s).max_ants > 200'000) continue;
    auto a = make_game(s, s.seed, &err), b = make_game(back, back.seed, &err);
    ASSERT_TRUE(a && b) << err;
    test::run(*a, 30), test::run(*b, 30);
    EXPECT_EQ(state_hash(*a), state_hash(*b));
  }
  EXPECT_GE(checked, 3);
}

}  // namespace
}  // namespace colony
