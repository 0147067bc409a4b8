// ecology_hour_test.cpp — the default world left alone for an hour (216,000 ticks) at
// seeds 1 to 5: at every 10,000-tick mark at least three colonies are alive (a queen and
// at least one worker or soldier), and combat is a share of the deaths, not nearly all.
// Minutes of simulation: labelled slow.
#include <gtest/gtest.h>

#include "game.h"

namespace colony {
namespace {

class DefaultWorldForAnHour : public ::testing::TestWithParam<u64> {};

TEST_P(DefaultWorldForAnHour, KeepsThreeColoniesAliveAndDiesOfMoreThanFights) {
  Scenario s;
  std::string err;
  ASSERT_TRUE(load_scenario(COLONY_SCENARIO_DIR "/default.json", s, &err)) << err;
  auto g = make_game(s, GetParam(), &err);
  ASSERT_TRUE(g) << err;
  constexpr u64 kHour = 216'000, kMark = 10'000;
  while (g->tick < kHour) {
    simulate_tick(*g);
    if (g->tick % kMark != 0) continue;
    int living = 0;
    for (const Colony& c : g->colonies) living += !c.queen.is_null() && c.alive > 1;
    EXPECT_GE(living, 3) << "tick " << g->tick;
  }
  const DeathCounts d = ants_died(*g);
  const double combat = double(d.by_cause[size_t(DeathCause::Combat)]) / double(d.total());
  EXPECT_LT(combat, 0.75) << d.total() << " deaths";
  EXPECT_GT(d.by_cause[size_t(DeathCause::Age)], d.total() / 5);
  EXPECT_TRUE(validate_game(*g, 1).empty());
}

INSTANTIATE_TEST_SUITE_P(Seeds, DefaultWorldForAnHour, ::testing::Values(1, 2, 3, 4, 5));

}  // namespace
}  // namespace colony
