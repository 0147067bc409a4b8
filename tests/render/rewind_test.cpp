// rewind_test.cpp — rewind in the real window (SDL's offscreen driver): the step-back key
// and the timeline go to past ticks whose world the map, the HUD and the debugger show
// (the tick plots cut there), stepping forward re-simulates, "back to live" returns to
// the present untouched, a fork drops the recorded future, and a recording made across a
// fork plays back to the forked future. A loaded world's history begins at its own tick.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../common/offscreen_app.h"
#include "../common/scratch.h"
#include "../common/sdl_input.h"
#include "app.h"
#include "history.h"
#include "replay.h"
#include "save.h"
#include "timeline.h"
#include "window.h"

using namespace colony;
using namespace colony::render;

namespace {

std::string scenario(const std::string& name) { return std::string(COLONY_SCENARIOS) + "/" + name; }

void key(colony_test::OffscreenApp& a, SDL_Keycode k) {
  ASSERT_TRUE(colony_test::push_key_press(a.app.window, k));
  a.frames(1);
}

Command big_bomb_at(float x, float y) {
  Command c;
  c.kind = CommandKind::BigBomb, c.x = x, c.y = y, c.radius = kBigBombRadius;
  return c;
}

u32 taken_of(const Game& g, int pool) { return g.ecs->all_stats()[size_t(pool)]->taken; }

TEST(Rewind, StepBackKeyShowsThePastEverywhereAndBackToLiveReturnsUntouched) {
  colony_test::OffscreenApp a(scenario("default.json"));
  ASSERT_TRUE(a.ok) << a.err;
  a.app.debugger.open = true;
  a.frames(120);
  // A big bomb on the first nest, then two more seconds.
  ASSERT_TRUE(queue_command(a.game(), big_bomb_at(a.game().colonies[0].nest_x + 4, a.game().colonies[0].nest_y)));
  const u64 bomb_tick = a.game().tick;
  const u32 taken_before = taken_of(a.game(), 0);
  const u64 alive_before = ants_alive(a.game());
  a.frames(1);
  const u32 taken_after = taken_of(a.game(), 0);
  const u64 alive_after = ants_alive(a.game());
  ASSERT_LT(alive_after + 20, alive_before);
  a.frames(120);
  a.app.paused = true;
  a.frames(1);
  const u64 live = a.game().tick, live_hash = state_hash(a.game());
  const Game* live_world = a.app.game.get();
  const int plotted = a.app.debugger.taken_history[0].count;

  // The step-back key: one tick back, paused, the live world held aside.
  key(a, SDLK_COMMA);
  ASSERT_TRUE(rewound(a.app)) << a.app.error;
  EXPECT_EQ(a.game().tick, live - 1);
  EXPECT_EQ(a.app.live_game.get(), live_world);
  EXPECT_EQ(a.app.debugger.taken_history[0].count, plotted - 1) << "the Pools plots end at the tick shown";

  // Straight to the tick before the bomb (the timeline's drag asks for a tick the same way).
  a.app.rewind_request = {RewindRequest::ToTick, bomb_tick};
  a.frames(1);
  ASSERT_EQ(a.game().tick, bomb_tick);
  EXPECT_EQ(taken_of(a.game(), 0), taken_before);
  EXPECT_EQ(ants_alive(a.game()), alive_before);
  EXPECT_EQ(a.app.debugger.taken_history[0].count, plotted - int(live - bomb_tick));
  EXPECT_EQ(a.app.debugger.pools_shown.pools[0].taken, taken_before) << "the Pools panel draws the tick shown";
  EXPECT_EQ(a.app.debugger.taken_history[0].last(), double(taken_before));
  // One step forward: the explosion, as it was live; the window sees the blast again.
  const u64 blasts_seen = a.app.effects.started;
  key(a, SDLK_PERIOD);
  EXPECT_EQ(a.game().tick, bomb_tick + 1);
  EXPECT_EQ(taken_of(a.game(), 0), taken_after);
  EXPECT_EQ(ants_alive(a.game()), alive_after);
  EXPECT_EQ(a.app.effects.started, blasts_seen + 1);
  EXPECT_EQ(a.app.debugger.taken_history[0].last(), double(taken_after));
  EXPECT_TRUE(a.app.history.mismatch.empty()) << a.app.history.mismatch;
  // Paused, frames pass and the past stays put; tools do nothing there.
  a.app.paused = false;
  a.frames(5);
  EXPECT_EQ(a.game().tick, bomb_tick + 1);
  apply_tool(a.app, 50, 50, true);
  EXPECT_TRUE(a.game().pending_commands.empty());

  // Back to live: the very world left, at its tick.
  key(a, SDLK_END);
  EXPECT_FALSE(rewound(a.app));
  EXPECT_EQ(a.app.game.get(), live_world);
  EXPECT_EQ(a.game().tick, live);
  EXPECT_EQ(state_hash(a.game()), live_hash);
  EXPECT_EQ(a.app.debugger.taken_history[0].count, plotted);
  EXPECT_EQ(a.app.history.last, live) << "nothing forked";
}

// The biggest kill the world's journal holds for `tick`, its steps in order (all pools).
struct JournaledKill {
  bool found = false;
  unsigned victims = 0;
  ecs::ReleasePath path = ecs::ReleasePath::None;
  std::vector<ecs::JournalStep> steps;
};
JournaledKill kill_of_tick(const Game& g, u64 tick) {
  JournaledKill out;
  const auto& j = g.ecs->journal();
  for (u64 s = 0; s < j.release_count(); ++s) {
    const ColonyEcs::JournalRelease* r = j.release(s);
    if (!r || r->tick != tick || r->path == ecs::ReleasePath::RemoveOne || r->victims <= out.victims) continue;
    out.found = true, out.victims = r->victims, out.path = r->path;
    out.steps.clear();
    for (u64 k = 0; k < r->steps_recorded; ++k) out.steps.push_back(j.step(*r, k));
  }
  return out;
}

void expect_same_moves(const JournaledKill& live, const JournaledKill& again) {
  ASSERT_TRUE(again.found) << "the re-simulated tick journaled no kill";
  EXPECT_EQ(again.victims, live.victims);
  EXPECT_EQ(again.path, live.path);
  ASSERT_EQ(again.steps.size(), live.steps.size());
  for (size_t i = 0; i < live.steps.size(); ++i) {
    const ecs::JournalStep &a = live.steps[i], &b = again.steps[i];
    ASSERT_TRUE(a.kind == b.kind && a.pool == b.pool && a.from == b.from && a.to == b.to && a.owner == b.owner &&
                a.local == b.local)
        << "step " << i << " differs from live";
  }
}

// Rewound to the tick before a big bomb and stepped once, the engine's journal records the
// release move for move as it did live, and the theatre picks it ready to play; going
// straight to the tick after the bomb (a keyframe restored and re-simulated) does the same.
TEST(Rewind, SteppingThroughABombTickJournalsTheSameMovesAsLive) {
  colony_test::OffscreenApp a(scenario("default.json"));
  ASSERT_TRUE(a.ok) << a.err;
  a.app.debugger.open = true;
  a.frames(90);
  ASSERT_TRUE(queue_command(a.game(), big_bomb_at(a.game().colonies[0].nest_x + 4, a.game().colonies[0].nest_y)));
  const u64 bomb_tick = a.game().tick;
  a.frames(1);
  const JournaledKill live = kill_of_tick(a.game(), bomb_tick);
  ASSERT_TRUE(live.found);
  ASSERT_GT(live.victims, 20u);
  ASSERT_FALSE(live.steps.empty());
  a.frames(60);
  a.app.paused = true;
  a.frames(1);

  a.app.rewind_request = {RewindRequest::ToTick, bomb_tick};
  a.frames(1);
  ASSERT_EQ(a.game().tick, bomb_tick);
  key(a, SDLK_PERIOD);
  ASSERT_EQ(a.game().tick, bomb_tick + 1);
  expect_same_moves(live, kill_of_tick(a.game(), bomb_tick));
  const ReleaseReplay& shown = a.app.debugger.replay;
  EXPECT_TRUE(shown.loaded);
  EXPECT_EQ(shown.tick, bomb_tick);
  EXPECT_EQ(shown.cursor, 0u) << "ready at the first move, not played through";
  EXPECT_TRUE(a.app.debugger.show_pool_map);

  key(a, SDLK_END);
  a.app.rewind_request = {RewindRequest::ToTick, bomb_tick + 1};
  a.frames(1);
  ASSERT_TRUE(rewound(a.app));
  ASSERT_EQ(a.game().tick, bomb_tick + 1);
  expect_same_moves(live, kill_of_tick(a.game(), bomb_tick));
  EXPECT_TRUE(a.app.debugger.replay.loaded);
  EXPECT_EQ(a.app.debugger.replay.tick, bomb_tick);
  EXPECT_TRUE(a.app.history.mismatch.empty()) << a.app.history.mismatch;
}

TEST(Rewind, SteppingForwardToTheLiveTickIsLiveAgain) {
  colony_test::OffscreenApp a(scenario("default.json"));
  ASSERT_TRUE(a.ok) << a.err;
  a.frames(80);
  const u64 live = a.game().tick;
  key(a, SDLK_COMMA);
  key(a, SDLK_COMMA);
  ASSERT_EQ(a.game().tick, live - 2);
  key(a, SDLK_PERIOD);
  key(a, SDLK_PERIOD);
  EXPECT_FALSE(rewound(a.app));
  EXPECT_EQ(a.game().tick, live);
}

TEST(Rewind, PlayFromAPastTickAsksThenDropsTheFutureAndARecordingFollowsTheFork) {
  const std::string path = colony_test::scratch_path("fork.colonyreplay");
  Recorder recorder;
  u64 forked_hash = 0, fork_tick = 0, end_tick = 0;
  {
    colony_test::OffscreenApp a(scenario("default.json"));
    ASSERT_TRUE(a.ok) << a.err;
    std::string err;
    ASSERT_TRUE(recorder.start(a.game(), &err)) << err;
    record_into(a.app, recorder, path);
    a.frames(60);
    ASSERT_TRUE(queue_command(a.game(), big_bomb_at(a.game().colonies[1].nest_x, a.game().colonies[1].nest_y + 3)));
    a.frames(90);
    const u64 live = a.game().tick;
    fork_tick = live - 100;
    a.app.rewind_request = {RewindRequest::ToTick, fork_tick};
    a.frames(1);
    ASSERT_TRUE(rewound(a.app));
    // Space asks first: nothing forks until the question is answered.
    key(a, SDLK_SPACE);
    EXPECT_TRUE(a.app.fork_asked);
    EXPECT_TRUE(rewound(a.app));
    EXPECT_EQ(a.app.history.last, live);
    ASSERT_TRUE(fork_here(a.app, &err)) << err;
    EXPECT_FALSE(rewound(a.app));
    EXPECT_FALSE(a.app.paused);
    EXPECT_EQ(a.app.history.last, fork_tick);
    EXPECT_EQ(recorder.replay.start_tick + recorder.replay.ticks, fork_tick);
    // The fork's own future: a spawn and a bomb elsewhere.
    Command spawn;
    spawn.kind = CommandKind::SpawnAnts, spawn.x = a.game().colonies[2].nest_x, spawn.y = a.game().colonies[2].nest_y;
    spawn.count = 30, spawn.radius = 3, spawn.colony = 2;
    ASSERT_TRUE(queue_command(a.game(), spawn));
    a.frames(40);
    ASSERT_TRUE(queue_command(a.game(), big_bomb_at(a.game().colonies[3].nest_x, a.game().colonies[3].nest_y)));
    a.frames(40);
    EXPECT_GT(a.app.history.last, fork_tick);
    forked_hash = state_hash(a.game());
    end_tick = a.game().tick;
    ASSERT_TRUE(write_run_outputs(a.game(), {{}, {}, {}, path, &recorder}, &err)) << err;
  }
  Replayer player;
  std::string err;
  ASSERT_TRUE(load_replay(path, player, &err)) << err;
  std::unique_ptr<Game> g = player.start_game(path, &err);
  ASSERT_NE(g, nullptr) << err;
  while (!player.finished(*g)) {
    player.before_tick(*g);
    simulate_tick(*g);
    ASSERT_TRUE(player.after_tick(*g)) << player.divergence;
  }
  EXPECT_EQ(g->tick, end_tick);
  EXPECT_EQ(state_hash(*g), forked_hash);
}

TEST(Rewind, AReplaysWindowRewindsToLookButDoesNotFork) {
  const std::string path = colony_test::scratch_path("look.colonyreplay");
  {
    colony_test::OffscreenApp a(scenario("default.json"));
    ASSERT_TRUE(a.ok) << a.err;
    Recorder recorder;
    std::string err;
    ASSERT_TRUE(recorder.start(a.game(), &err)) << err;
    record_into(a.app, recorder, path);
    a.frames(90);
    ASSERT_TRUE(write_run_outputs(a.game(), {{}, {}, {}, path, &recorder}, &err)) << err;
  }
  Replayer replayer;
  std::string err;
  ASSERT_TRUE(load_replay(path, replayer, &err)) << err;
  WindowConfig c;
  c.hidden = true, c.vsync = false, c.fixed_step = true, c.width = 800, c.height = 600;
  c.make_world = [&](std::string* e) { return replayer.start_game(path, e); };
  App app;
  ASSERT_TRUE(app_init(app, c, &err)) << err;
  play_back(app, replayer, path);
  // The history starts at the replay's first tick.
  EXPECT_EQ(app.history.first, replayer.replay.start_tick);
  for (int i = 0; i < 40; ++i) app_frame(app);
  ASSERT_TRUE(rewind_to(app, app.game->tick - 20, &err)) << err;
  EXPECT_FALSE(fork_here(app, &err));
  EXPECT_NE(err.find("in a replay's window"), std::string::npos) << err;
  EXPECT_TRUE(rewound(app));
  back_to_live(app);
  for (int i = 0; i < 10; ++i) app_frame(app);
  EXPECT_FALSE(replayer.diverged) << replayer.divergence;
  app_shutdown(app);
}

TEST(Rewind, AWorldLoadedFromASaveHasHistoryFromItsFirstTick) {
  const std::string path = colony_test::scratch_path("rewind.colony");
  std::string err;
  {
    Scenario s;
    ASSERT_TRUE(load_scenario(scenario("default.json"), s, &err)) << err;
    auto g = make_game(s, s.seed, &err);
    ASSERT_NE(g, nullptr) << err;
    for (int i = 0; i < 75; ++i) simulate_tick(*g);
    ASSERT_TRUE(save_game(*g, path, &err)) << err;
  }
  WindowConfig c;
  c.hidden = true, c.vsync = false, c.fixed_step = true, c.width = 800, c.height = 600;
  c.make_world = [&](std::string* e) { return load_game(path, e); };
  App app;
  ASSERT_TRUE(app_init(app, c, &err)) << err;
  EXPECT_EQ(app.history.first, 75u);
  ASSERT_EQ(app.history.keyframes.size(), 1u);
  EXPECT_EQ(app.history.keyframes.front().tick, 75u);
  for (int i = 0; i < 30; ++i) app_frame(app);
  ASSERT_TRUE(rewind_to(app, 75, &err)) << err;
  EXPECT_EQ(app.game->tick, 75u);
  app_shutdown(app);
}

TEST(Rewind, AMismatchIsShownNeverPlayed) {
  colony_test::OffscreenApp a(scenario("default.json"));
  ASSERT_TRUE(a.ok) << a.err;
  a.frames(40);
  a.app.history.assert_match = false;  // made on purpose below
  a.app.history.digests[5] ^= 1;
  const u64 live = a.game().tick;
  std::string err;
  EXPECT_FALSE(rewind_to(a.app, a.app.history.first + 10, &err));
  EXPECT_FALSE(rewound(a.app)) << "a world that differs from live play is not shown";
  EXPECT_EQ(a.game().tick, live);
  EXPECT_NE(a.app.history.mismatch.find("tick digest"), std::string::npos) << a.app.history.mismatch;
  EXPECT_NE(a.app.error.find("rewind"), std::string::npos) << a.app.error;
}

TEST(Rewind, NoHistoryWhenTurnedOff) {
  WindowConfig c;
  c.scenario = scenario("default.json");
  c.hidden = true, c.vsync = false, c.fixed_step = true, c.width = 800, c.height = 600;
  c.history_off = true;
  App app;
  std::string err;
  ASSERT_TRUE(app_init(app, c, &err)) << err;
  for (int i = 0; i < 10; ++i) app_frame(app);
  EXPECT_TRUE(app.history.keyframes.empty());
  EXPECT_FALSE(rewind_to(app, 3, &err));
  app_shutdown(app);
}

}  // namespace
