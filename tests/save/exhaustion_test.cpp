// exhaustion_test.cpp — assets/scenarios/exhaustion.json spawns far more ants than its
// pools hold: every refused spawn is counted (spawn_refused, failed_reservations), the
// world runs on with the validator clean, and an exhausted world saves and continues
// exactly (full pools are where slot order matters most).
#include "save_test_util.h"

namespace colony {
namespace {

u64 failed_reservations(const Game& g) {
  u64 n = 0;
  for (const ecs::PoolStats* st : g.ecs->all_stats()) n += st->total.failed_reservations;
  return n;
}

TEST(Exhaustion, RefusedSpawnsAreCountedTheWorldRunsOnAndSavesExactly) {
  auto g = test::make_from("exhaustion.json");
  auto straight = test::make_from("exhaustion.json");
  for (int t = 0; t < 450; ++t) {
    simulate_tick(*g), simulate_tick(*straight);
    if (t % 50 == 0) { EXPECT_TRUE(validate_game(*g).empty()) << "tick " << g->tick; }
  }
  EXPECT_GT(g->spawn_refused, 1000u);
  EXPECT_GT(failed_reservations(*g), 0u);
  EXPECT_GT(ants_alive(*g), 0u);
  bool a_pool_filled = false;
  for (const ecs::PoolStats* st : g->ecs->all_stats()) a_pool_filled |= st->high_water + 64 >= st->capacity;
  EXPECT_TRUE(a_pool_filled);

  std::vector<std::uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
  auto loaded = load_game_from_bytes(bytes.data(), bytes.size(), "exhausted", &err);
  ASSERT_NE(loaded, nullptr) << err;
  u64 refused_before = loaded->spawn_refused;
  for (int t = 0; t < 450; ++t) simulate_tick(*loaded), simulate_tick(*straight);
  EXPECT_GT(loaded->spawn_refused, refused_before);  // still refusing, still running
  EXPECT_EQ(state_hash(*loaded), state_hash(*straight));
  EXPECT_TRUE(validate_game(*loaded).empty());
}

}  // namespace
}  // namespace colony
