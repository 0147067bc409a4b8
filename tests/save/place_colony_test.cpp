// place_colony_test.cpp — a colony placed by the player's command crosses the save and
// the replay as every command does: pending in a save, applied after loading; recorded,
// and played back to the same hashes.
#include "replay.h"
#include "save_test_util.h"

namespace colony {
namespace {

using test::make_from;
using test::run;
using test::temp_path;

Command place_at(float x, float y) { return Command{.kind = CommandKind::PlaceColony, .x = x, .y = y}; }

TEST(PlaceColonySave, ASaveWithThePlacementPendingRoundTrips) {
  auto straight = make_from("kingdom_fire.json");
  auto first = make_from("kingdom_fire.json");
  run(*straight, 30), run(*first, 30);
  ASSERT_TRUE(queue_command(*straight, place_at(20.5f, 20.5f)));
  ASSERT_TRUE(queue_command(*first, place_at(20.5f, 20.5f)));
  const std::string path = temp_path("placing.colony");
  std::string err;
  ASSERT_TRUE(save_game(*first, path, &err)) << err;
  auto loaded = load_game(path, &err);
  ASSERT_NE(loaded, nullptr) << err;
  ASSERT_EQ(loaded->pending_commands.size(), 1u);
  EXPECT_EQ(loaded->pending_commands[0].kind, CommandKind::PlaceColony);
  EXPECT_EQ(state_hash(*loaded), state_hash(*first));
  run(*straight, 200), run(*loaded, 200);
  ASSERT_EQ(loaded->colonies.size(), 3u);
  EXPECT_EQ(state_hash(*loaded), state_hash(*straight));
  // The placed colony crosses a second save, its fields and queen with it.
  const std::string again = temp_path("placed.colony");
  ASSERT_TRUE(save_game(*loaded, again, &err)) << err;
  auto back = load_game(again, &err);
  ASSERT_NE(back, nullptr) << err;
  EXPECT_EQ(back->colonies.size(), 3u);
  EXPECT_EQ(state_hash(*back), state_hash(*loaded));
  run(*back, 100), run(*straight, 100);
  EXPECT_EQ(state_hash(*back), state_hash(*straight));
  EXPECT_TRUE(validate_game(*back).empty());
}

TEST(PlaceColonyReplay, ARecordingWithPlacedColoniesPlaysBackToTheSameHashes) {
  auto g = make_from("kingdom_fire.json");
  Recorder rec;
  std::string err;
  ASSERT_TRUE(rec.start(*g, &err, 1)) << err;
  for (u64 i = 0; i < 240; ++i) {
    if (g->tick == 20) queue_command(*g, place_at(20.5f, 20.5f));
    if (g->tick == 90) queue_command(*g, place_at(80.5f, 90.5f));
    rec.before_tick(*g);
    simulate_tick(*g);
    rec.after_tick(*g);
  }
  ASSERT_EQ(g->colonies.size(), 4u);
  EXPECT_GT(g->colonies[3].alive, 1u);
  const std::string path = temp_path("placed.replay");
  ASSERT_TRUE(rec.write(path, &err)) << err;
  Replayer r;
  ASSERT_TRUE(load_replay(path, r, &err)) << err;
  auto back = r.start_game("placed.replay", &err);
  ASSERT_NE(back, nullptr) << err;
  EXPECT_EQ(back->colonies.size(), 2u);
  while (!r.finished(*back)) {
    r.before_tick(*back);
    simulate_tick(*back);
    if (!r.after_tick(*back)) break;
  }
  EXPECT_FALSE(r.diverged) << r.divergence;
  EXPECT_EQ(r.verified, 240u);
  EXPECT_EQ(back->colonies.size(), 4u);
  EXPECT_EQ(state_hash(*back), state_hash(*g));
}

}  // namespace
}  // namespace colony
