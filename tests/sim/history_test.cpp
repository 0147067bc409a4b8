// history_test.cpp — the rewind history through the real engine: a rewound bomb tick kills
// the same ants and frees the same pool entries as it did live, every restored tick hashes
// as it did live, the memory bound holds under a long run of big bombs, a fork drops the
// future (and a recording made across it plays back to the forked future), a loaded world's
// history starts at its own tick, and a re-simulation that differs is caught.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "history.h"
#include "replay.h"
#include "save.h"

namespace colony {
namespace {

std::unique_ptr<Game> make(const char* name) {
  Scenario s;
  std::string err;
  EXPECT_TRUE(load_scenario(std::string(COLONY_SCENARIO_DIR) + "/" + name, s, &err)) << err;
  auto g = make_game(s, s.seed, &err);
  EXPECT_NE(g, nullptr) << err;
  return g;
}

// One tick as the window runs it: the history around simulate_tick.
void tick(History& h, Game& g) {
  history_before_tick(h, g);
  simulate_tick(g);
  history_after_tick(h, g);
}

std::set<u64> live_ants(Game& g) {
  std::set<u64> out;
  g.ecs->for_each_entity([&](Record& r) {
    if (is_ant(r.payload.kind) && !(r.header.flags & ecs::kFlagDying))
      out.insert(u64(r.header.handle.index) << 32 | r.header.handle.generation);
  });
  return out;
}

std::vector<u32> taken(const Game& g) {
  std::vector<u32> out;
  for (const ecs::PoolStats* st : g.ecs->all_stats()) out.push_back(st->taken);
  return out;
}

Command big_bomb_at(float x, float y) {
  Command c;
  c.kind = CommandKind::BigBomb, c.x = x, c.y = y, c.radius = kBigBombRadius;
  return c;
}

TEST(History, RewoundBombTickKillsTheSameAntsAndFreesTheSameEntries) {
  auto g = make("default.json");
  History h;
  std::string err;
  ASSERT_TRUE(history_start(h, *g, &err)) << err;
  for (int i = 0; i < 150; ++i) tick(h, *g);
  // Live: the bomb's tick, with what it killed and freed.
  const u64 before_tick = g->tick;
  ASSERT_TRUE(queue_command(*g, big_bomb_at(g->colonies[0].nest_x + 4, g->colonies[0].nest_y)));
  const std::set<u64> alive_before = live_ants(*g);
  const std::vector<u32> taken_before = taken(*g);
  tick(h, *g);
  const std::set<u64> alive_after = live_ants(*g);
  const std::vector<u32> taken_after = taken(*g);
  std::vector<u64> died;
  std::set_difference(alive_before.begin(), alive_before.end(), alive_after.begin(), alive_after.end(),
                      std::back_inserter(died));
  ASSERT_GE(died.size(), kMassRelease) << "the bomb must kill a crowd for the test to mean anything";
  for (int i = 0; i < 100; ++i) tick(h, *g);

  // Rewound to the tick before the bomb, then one step.
  std::unique_ptr<Game> past = history_restore(h, before_tick, &err);
  ASSERT_NE(past, nullptr) << err;
  EXPECT_EQ(past->tick, before_tick);
  EXPECT_TRUE(past->pending_commands.empty()) << "the bomb is the recorded future, not queued in the restored world";
  EXPECT_EQ(live_ants(*past), alive_before);
  EXPECT_EQ(taken(*past), taken_before);
  ASSERT_TRUE(history_step(h, *past)) << h.mismatch;
  const std::set<u64> after = live_ants(*past);
  std::vector<u64> died_again;
  std::set_difference(alive_before.begin(), alive_before.end(), after.begin(), after.end(),
                      std::back_inserter(died_again));
  EXPECT_EQ(died_again, died);
  const std::vector<u32> taken_again = taken(*past);
  ASSERT_EQ(taken_again.size(), taken_before.size());
  for (size_t p = 0; p < taken_before.size(); ++p)
    EXPECT_EQ(std::int64_t(taken_before[p]) - std::int64_t(taken_again[p]),
              std::int64_t(taken_before[p]) - std::int64_t(taken_after[p]))
        << "pool " << p;
  EXPECT_TRUE(h.mismatch.empty()) << h.mismatch;
  // The timeline marks the bomb and the mass release in that tick.
  auto marked = [&](MarkerKind k) {
    return std::any_of(h.markers.begin(), h.markers.end(),
                       [&](const Marker& m) { return m.kind == k && m.tick == before_tick; });
  };
  EXPECT_TRUE(marked(MarkerKind::Bomb));
  EXPECT_TRUE(marked(MarkerKind::Release));
}

TEST(History, EveryRestoredTickHashesAsItDidLive) {
  auto g = make("carpet_bombing.json");
  History h;
  std::string err;
  HistorySettings settings;
  settings.keyframe_ticks = 60;
  ASSERT_TRUE(history_start(h, *g, &err, settings)) << err;
  std::map<u64, u64> live;
  for (int i = 0; i < 400; ++i) {
    if (i == 70) queue_command(*g, big_bomb_at(120, 40));
    if (i == 75) set_sim_region(*g, 0, 0, 64, 64);
    tick(h, *g);
    live[g->tick] = state_hash(*g);
  }
  for (u64 t :
       {h.first + 1, h.first + 59, h.first + 60, h.first + 61, h.first + 71, h.first + 76, h.first + 250, h.last}) {
    std::unique_ptr<Game> past = history_restore(h, t, &err);
    ASSERT_NE(past, nullptr) << err;
    EXPECT_EQ(state_hash(*past), live[t]) << "tick " << t;
  }
  u64 checked = 0;
  EXPECT_TRUE(history_check(h, 8, 1, &checked).empty());
  EXPECT_GT(checked, 8u);
}

TEST(History, MemoryBoundHoldsUnderALongRunOfBigBombs) {
  auto g = make("carpet_bombing.json");
  History h;
  std::string err;
  HistorySettings settings;
  settings.max_bytes = 24u << 20;  // at least twice a save of the world (history_start)
  settings.keyframe_ticks = 60;    // a keyframe a second whatever their size: the bound is soon reached
  ASSERT_TRUE(history_start(h, *g, &err, settings)) << err;
  const u64 first_keyframe = h.keyframes.front().zstd.size();
  ASSERT_LT(first_keyframe * 4, settings.max_bytes) << "the bound must hold several keyframes for the test to thin";
  ASSERT_GT(first_keyframe * 60, settings.max_bytes) << "a minute of keyframes must not fit for the test to thin";
  u64 most = 0;
  for (int i = 0; i < 4500; ++i) {
    if (i % 40 == 0) queue_command(*g, big_bomb_at(float(20 + (i * 7) % 120), float(20 + (i * 13) % 120)));
    tick(h, *g);
    most = std::max(most, history_bytes(h));
    ASSERT_LE(history_bytes(h), settings.max_bytes) << "tick " << g->tick;
  }
  EXPECT_GT(h.thinned, 0u) << "a long run past the bound thins old keyframes";
  EXPECT_GT(most, settings.max_bytes / 2);
  // A minute or more still reachable, the oldest tick too.
  EXPECT_GE(history_seconds(h), 60.0);
  const u64 live = state_hash(*g);
  std::unique_ptr<Game> oldest = history_restore(h, h.first + 1, &err);
  ASSERT_NE(oldest, nullptr) << err;
  std::unique_ptr<Game> newest = history_restore(h, h.last, &err);
  ASSERT_NE(newest, nullptr) << err;
  EXPECT_EQ(state_hash(*newest), live);
}

TEST(History, ForkDropsTheFutureAndARecordingPlaysBackToTheForkedFuture) {
  auto g = make("default.json");
  History h;
  Recorder rec;
  std::string err;
  ASSERT_TRUE(history_start(h, *g, &err)) << err;
  ASSERT_TRUE(rec.start(*g, &err)) << err;
  auto both = [&](Game& w) {
    rec.before_tick(w);
    history_before_tick(h, w);
    simulate_tick(w);
    rec.after_tick(w);
    history_after_tick(h, w);
  };
  for (int i = 0; i < 200; ++i) {
    if (i == 150) queue_command(*g, big_bomb_at(g->colonies[1].nest_x, g->colonies[1].nest_y + 3));
    both(*g);
  }
  const u64 fork_tick = 120;
  std::unique_ptr<Game> past = history_restore(h, fork_tick, &err);
  ASSERT_NE(past, nullptr) << err;
  history_cut_after(h, *past);
  rec.cut_after(*past);
  EXPECT_EQ(h.last, fork_tick);
  EXPECT_TRUE(std::none_of(h.markers.begin(), h.markers.end(), [&](const Marker& m) { return m.tick >= fork_tick; }))
      << "the bomb at tick 150 is the dropped future";
  EXPECT_TRUE(
      std::none_of(h.inputs.begin(), h.inputs.end(), [&](const ReplayEvent& e) { return e.tick >= fork_tick; }));
  EXPECT_EQ(rec.replay.ticks, fork_tick - rec.replay.start_tick);
  // The fork: another future (a spawn and a bomb elsewhere).
  for (int i = 0; i < 150; ++i) {
    if (i == 10) {
      Command c;
      c.kind = CommandKind::SpawnAnts, c.x = past->colonies[2].nest_x, c.y = past->colonies[2].nest_y, c.count = 40,
      c.radius = 3, c.colony = 2;
      queue_command(*past, c);
    }
    if (i == 30) queue_command(*past, big_bomb_at(past->colonies[3].nest_x + 2, past->colonies[3].nest_y));
    both(*past);
  }
  const u64 forked_hash = state_hash(*past);
  EXPECT_NE(forked_hash, state_hash(*g)) << "the fork's future differs from the dropped one";
  // The history now holds the fork's ticks: restoring one gives the forked world.
  std::unique_ptr<Game> again = history_restore(h, past->tick, &err);
  ASSERT_NE(again, nullptr) << err;
  EXPECT_EQ(state_hash(*again), forked_hash);
  // The recording, written and read back, plays to the forked future.
  Replayer player;
  ASSERT_TRUE(decode_replay(encode_replay(rec.replay).data(), encode_replay(rec.replay).size(), "fork.colonyreplay",
                            player.replay, &err))
      << err;
  std::unique_ptr<Game> replayed = player.start_game("fork.colonyreplay", &err);
  ASSERT_NE(replayed, nullptr) << err;
  while (!player.finished(*replayed)) {
    player.before_tick(*replayed);
    simulate_tick(*replayed);
    ASSERT_TRUE(player.after_tick(*replayed)) << player.divergence;
  }
  EXPECT_EQ(state_hash(*replayed), forked_hash);
}

TEST(History, ALoadedWorldHasHistoryFromItsFirstTick) {
  auto g = make("default.json");
  for (int i = 0; i < 90; ++i) simulate_tick(*g);
  std::vector<std::uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
  std::unique_ptr<Game> loaded = load_game_from_bytes(bytes.data(), bytes.size(), "save", &err);
  ASSERT_NE(loaded, nullptr) << err;
  History h;
  ASSERT_TRUE(history_start(h, *loaded, &err)) << err;
  EXPECT_EQ(h.first, 90u);
  for (int i = 0; i < 30; ++i) tick(h, *loaded);
  std::unique_ptr<Game> start = history_restore(h, 90, &err);
  ASSERT_NE(start, nullptr) << err;
  EXPECT_EQ(state_hash(*start), state_hash(*g));
  EXPECT_EQ(history_restore(h, 89, &err), nullptr);
  EXPECT_NE(err.find("outside the history"), std::string::npos) << err;
}

TEST(History, AReSimulationThatDiffersIsCaught) {
  auto g = make("default.json");
  History h;
  std::string err;
  ASSERT_TRUE(history_start(h, *g, &err)) << err;
  for (int i = 0; i < 30; ++i) tick(h, *g);
  h.assert_match = false;  // the mismatch below is made on purpose
  h.digests[10] ^= 1;
  EXPECT_EQ(history_restore(h, h.first + 20, &err), nullptr);
  EXPECT_NE(h.mismatch.find("tick " + std::to_string(h.first + 11)), std::string::npos) << h.mismatch;
  EXPECT_FALSE(history_check(h, 4, 2).empty());
}

TEST(History, AWorldWhoseSaveIsPastHalfTheBoundKeepsNone) {
  auto g = make("carpet_bombing.json");
  History h;
  std::string err;
  HistorySettings settings;
  settings.max_bytes = 8u << 20;
  EXPECT_FALSE(history_start(h, *g, &err, settings));
  EXPECT_NE(err.find("more than half the 8.4 MB the history may take"), std::string::npos) << err;
  EXPECT_TRUE(h.keyframes.empty());
  history_before_tick(h, *g);
  simulate_tick(*g);
  history_after_tick(h, *g);  // a history that never started records nothing
  EXPECT_TRUE(h.keyframes.empty());
}

TEST(History, DefaultBoundIsTheLesserOf256MBAndAnEighthOfTheBudget) {
  const MemoryBudget b = memory_budget();
  const u64 want = b.problem.empty() ? std::min<u64>(u64(256) << 20, u64(b.bytes / 8)) : u64(256) << 20;
  EXPECT_EQ(default_history_bytes(), want);
  // A minute of keyframes fits half the bound: big keyframes are taken less often.
  EXPECT_EQ(keyframe_interval(1 << 20, 256u << 20), 60u);
  EXPECT_EQ(keyframe_interval(16u << 20, 256u << 20), 450u);
}

}  // namespace
}  // namespace colony
