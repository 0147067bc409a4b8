// replay_test.cpp — recording player actions and playing them back: the same state hash
// at every tick, whatever the player does during playback; a changed recording is
// caught at the tick it diverges; bad replay files are refused with one line.
#include <algorithm>
#include <xxhash.h>

#include <cstring>

#include "replay.h"
#include "save_test_util.h"

namespace colony {
namespace {

using test::make_from;
using test::temp_path;

// Ticks at which the "player" acts, and what they do.
void play(Game& g) {
  Command c;
  switch (g.tick) {
    case 10: c.kind = CommandKind::Bomb, c.x = g.colonies[0].nest_x + 5, c.y = g.colonies[0].nest_y; break;
    case 40: c.kind = CommandKind::SpawnAnts, c.x = 90, c.y = 60, c.count = 30, c.colony = 2; break;
    case 41: c.kind = CommandKind::PaintTerrain, c.x = 70, c.y = 70, c.radius = 4, c.terrain = Terrain::Water; break;
    case 60: c.kind = CommandKind::Ignite, c.x = 100, c.y = 40, c.radius = 3; break;
    case 90: c.kind = CommandKind::KillPercent, c.count = 20; break;
    case 120: set_sim_region(g, 32, 0, 96, 64); return;
    case 150: c.kind = CommandKind::BigBomb, c.x = g.colonies[3].nest_x, c.y = g.colonies[3].nest_y; break;
    default: return;
  }
  queue_command(g, c);
}

// Records ticks of play and returns the recorder and the final hash (hash_interval 0:
// the recorder's choice for the world's size).
Recorder record(Game& g, u64 ticks, u64* final_hash, std::uint32_t hash_interval = 0) {
  Recorder rec;
  std::string err;
  EXPECT_TRUE(rec.start(g, &err, hash_interval)) << err;
  for (u64 i = 0; i < ticks; ++i) {
    play(g);
    rec.before_tick(g);
    simulate_tick(g);
    rec.after_tick(g);
  }
  *final_hash = state_hash(g);
  return rec;
}

// Plays back; returns the game. `meddle` runs before every tick (player input during playback).
std::unique_ptr<Game> play_back(Replayer& r, bool meddle) {
  std::string err;
  auto g = r.start_game("replay", &err);
  EXPECT_NE(g, nullptr) << err;
  while (g && !r.finished(*g)) {
    if (meddle) {
      Command c;
      c.kind = CommandKind::BigBomb, c.x = 60, c.y = 60;
      queue_command(*g, c);
      set_sim_region(*g, 0, 0, 10, 10);
    }
    r.before_tick(*g);
    // The queue is the recording's now, and so is what it has spent of the tick's budget.
    EXPECT_EQ(g->pending_command_cells, commands_cells(*g, g->pending_commands)) << "tick " << g->tick;
    simulate_tick(*g);
    if (!r.after_tick(*g)) break;
  }
  return g;
}

TEST(Replay, PlaysBackToTheSameHashAtEveryTick) {
  auto g = make_from("default.json");
  u64 final_hash = 0;
  Recorder rec = record(*g, 200, &final_hash, 1);
  EXPECT_EQ(rec.replay.hash_interval, 1u);
  EXPECT_EQ(rec.replay.hashes.size(), 200u);
  EXPECT_EQ(rec.replay.digests.size(), 200u);
  EXPECT_GE(rec.replay.events.size(), 7u);
  const std::string path = temp_path("play.replay");
  std::string err;
  ASSERT_TRUE(rec.write(path, &err)) << err;
  Replayer r;
  ASSERT_TRUE(load_replay(path, r, &err)) << err;
  auto back = play_back(r, false);
  ASSERT_NE(back, nullptr);
  EXPECT_FALSE(r.diverged) << r.divergence;
  EXPECT_EQ(r.verified, 200u);
  EXPECT_EQ(r.checked, 200u);
  EXPECT_EQ(back->tick, 200u);
  EXPECT_EQ(state_hash(*back), final_hash);
}

TEST(Replay, PlayerInputDuringPlaybackChangesNothing) {
  auto g = make_from("default.json");
  u64 final_hash = 0;
  Recorder rec = record(*g, 160, &final_hash);
  // The default map (~26,000 entities) is fully hashed every ~26th tick, digested every tick.
  const std::uint32_t interval = rec.replay.hash_interval;
  EXPECT_GT(interval, 10u);
  EXPECT_LT(interval, 60u);
  EXPECT_EQ(rec.replay.hashes.size(), 160u / interval);
  Replayer r;
  r.replay = rec.replay;
  auto back = play_back(r, true);
  ASSERT_NE(back, nullptr);
  EXPECT_FALSE(r.diverged) << r.divergence;
  EXPECT_EQ(r.checked, 160u);
  EXPECT_EQ(r.verified, 160u / interval);
  EXPECT_EQ(state_hash(*back), final_hash);
}

TEST(Replay, AChangedRecordingIsCaughtWhereItDiverges) {
  // A changed command shows in the tick digest of the very tick it acts in.
  auto g = make_from("default.json");
  u64 final_hash = 0;
  Recorder rec = record(*g, 100, &final_hash);
  Replayer r;
  r.replay = rec.replay;
  bool moved = false;
  for (ReplayEvent& e : r.replay.events)
    if (e.type == ReplayEvent::Command && e.command.kind == CommandKind::SpawnAnts) e.command.x += 9, moved = true;
  ASSERT_TRUE(moved);
  auto back = play_back(r, false);
  EXPECT_EQ(r.checked, 40u);
  EXPECT_TRUE(r.diverged);
  EXPECT_EQ(back->tick, 41u);  // the spawn was queued for tick 40: the state after it differs
  EXPECT_EQ(r.divergence.rfind("tick 41: tick digest ", 0), 0u) << r.divergence;
}

// A recorded state hash that differs from the playback's is caught at its tick, though
// every tick digest before and at it agrees: the full hash is checked, not only the digest.
TEST(Replay, AChangedStateHashIsCaughtAtItsTick) {
  auto g = make_from("default.json");
  u64 final_hash = 0;
  Recorder rec = record(*g, 30, &final_hash, 10);
  Replayer r;
  r.replay = rec.replay;
  ASSERT_EQ(r.replay.hashes.size(), 3u);
  r.replay.hashes[1] ^= 1;  // the hash after tick 20 of the recording
  auto back = play_back(r, false);
  EXPECT_TRUE(r.diverged);
  EXPECT_EQ(r.checked, 20u);
  EXPECT_EQ(r.verified, 1u);
  EXPECT_EQ(r.divergence.rfind("tick " + std::to_string(r.replay.start_tick + 20) + ": state hash ", 0), 0u)
      << r.divergence;
}

TEST(Replay, StartsFromALoadedSaveMidGame) {
  auto g = make_from("default.json");
  test::run(*g, 300);
  const std::string save = temp_path("mid.colony");
  std::string err;
  ASSERT_TRUE(save_game(*g, save, &err)) << err;
  auto loaded = load_game(save, &err);
  ASSERT_NE(loaded, nullptr) << err;
  u64 final_hash = 0;
  Recorder rec = record(*loaded, 120, &final_hash);
  EXPECT_EQ(rec.replay.start_tick, 300u);
  Replayer r;
  r.replay = rec.replay;
  auto back = play_back(r, false);
  EXPECT_FALSE(r.diverged) << r.divergence;
  EXPECT_EQ(back->tick, 420u);
  EXPECT_EQ(state_hash(*back), final_hash);
}

TEST(Replay, BadFilesAreRefusedWithOneLine) {
  auto g = make_from("default.json");
  u64 h = 0;
  Recorder rec = record(*g, 20, &h);
  std::vector<std::uint8_t> good = encode_replay(rec.replay);
  const std::string path = temp_path("bad.replay");
  auto refused = [&](const std::vector<std::uint8_t>& bytes, const std::string& problem) {
    test::write_bytes(path, bytes);
    Replayer r;
    std::string err;
    EXPECT_FALSE(load_replay(path, r, &err));
    EXPECT_EQ(err.rfind(path + ": ", 0), 0u) << err;
    EXPECT_NE(err.find(problem), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  };
  refused({}, "not a Colony replay");
  refused(test::read_bytes(test::scenario_path("default.json")), "not a Colony replay");
  refused({good.begin(), good.begin() + 12}, "truncated");
  refused({good.begin(), good.end() - 9}, "truncated");
  auto bad = good;
  bad[bad.size() / 2] ^= 1;
  refused(bad, "corrupted: checksum mismatch");
  bad = good;
  std::uint32_t v = 7;
  std::memcpy(bad.data() + 8, &v, 4);
  refused(bad, "replay format version 7");
  // A damaged starting save inside a well-sealed replay is the save loader's refusal.
  Replay broken = rec.replay;
  broken.start_save.resize(broken.start_save.size() - 10);
  test::write_bytes(path, encode_replay(broken));
  Replayer r;
  std::string err;
  ASSERT_TRUE(load_replay(path, r, &err)) << err;
  EXPECT_EQ(r.start_game(path, &err), nullptr);
  EXPECT_EQ(err.rfind(path + ": starting world: truncated", 0), 0u) << err;
  // A tick whose recorded commands pass the budget queue_command holds play to is refused
  // before the first tick: 300 whole-map bombs on the 192 x 128 map.
  Replay crowded = rec.replay;
  ReplayEvent bomb;
  bomb.tick = crowded.start_tick + 5;
  bomb.command = Command{CommandKind::BigBomb, 10, 10, 4096, 0};
  auto at = std::find_if(crowded.events.begin(), crowded.events.end(),
                         [&](const ReplayEvent& e) { return e.tick > bomb.tick; });
  crowded.events.insert(at, 300, bomb);
  test::write_bytes(path, encode_replay(crowded));
  Replayer c;
  ASSERT_TRUE(load_replay(path, c, &err)) << err;
  EXPECT_EQ(c.start_game(path, &err), nullptr);
  EXPECT_EQ(err, path + ": tick " + std::to_string(bomb.tick) +
                     ": the commands of one tick touch 7372800 cells, more than 256 times the map's 24576")
      << err;
}

}  // namespace
}  // namespace colony
