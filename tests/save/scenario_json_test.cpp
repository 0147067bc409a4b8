// scenario_json_test.cpp — a save carries its scenario as JSON: every shipped scenario
// must survive the trip (text -> scenario -> JSON -> scenario) and build the same world.
#include <nlohmann/json.hpp>

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

// Values at their smallest or largest allowed survive the trip too: a scenario keeps them
// as floats, and a save writes the float back (0.01 is 0.0099999998 there, which compared
// as a double would read as below the smallest radius, and the save be refused).
TEST(ScenarioJson, LimitValuesRoundTrip) {
  Scenario s, back;
  std::string err;
  ASSERT_TRUE(load_scenario(test::scenario_path("default.json"), s, &err)) << err;
  nlohmann::json doc = nlohmann::json::parse(scenario_to_json(s));
  doc["events"] = nlohmann::json::parse(R"([
    { "kind": "fire", "tick": 5, "at": [60, 60], "radius": 0.01 },
    { "kind": "bomb", "tick": 6, "at": [60, 60], "radius": 0.01, "outer": 0.01 } ])");
  ASSERT_TRUE(parse_scenario(doc.dump(), "limits.json", s, &err)) << err;
  ASSERT_EQ(s.events.size(), 2u);
  std::string again = scenario_to_json(s);
  ASSERT_TRUE(parse_scenario(again, "limits.json", back, &err)) << err;
  EXPECT_EQ(scenario_to_json(back), again);
  EXPECT_EQ(back.events[0].radius, s.events[0].radius);
}

}  // namespace
}  // namespace colony
