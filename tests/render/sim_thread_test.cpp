// sim_thread_test.cpp — the window's simulation thread (app.h, sim_thread.h) in the real
// window on SDL's offscreen driver: a windowed run leaves the world a serial run and a
// headless run leave, bombs and all; the ticks run on a thread of their own while the
// main thread draws and presents the frame; the Frame panel's figures for both threads
// are filled; a paused game runs nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "../common/offscreen_app.h"
#include "app.h"
#include "debugger.h"
#include "game.h"
#include "scenario.h"

using namespace colony;
using namespace colony::render;

namespace {

std::string scenario(const std::string& name) { return std::string(COLONY_SCENARIOS) + "/" + name; }

// The carpet-bombing scenario (a bomb falls at tick 180) at 4x: four ticks a frame, and a
// big bomb of the player's queued between frames 30 and 31 (before tick 121).
constexpr int kFrames = 70, kSpeed = 4, kBombAfterFrame = 30;
Command player_bomb() {
  Command c;
  c.kind = CommandKind::BigBomb, c.x = 44, c.y = 120, c.radius = kBigBombRadius;
  return c;
}

// A timed windowed run of kFrames frames (the last one ticks before it draws, as a
// screenshot's does): the state hash at its end, and the ticks run.
struct RunEnd {
  u64 hash = 0, tick = 0, alive = 0;
};
RunEnd windowed_run(bool sim_thread) {
  colony_test::OffscreenApp a(scenario("carpet_bombing.json"), 800, 600, [&](WindowConfig& c) {
    c.sim_thread = sim_thread;
    c.frames = kFrames;
  });
  EXPECT_TRUE(a.ok) << a.err;
  if (!a.ok) return {};
  EXPECT_EQ(a.app.sim_thread != nullptr, sim_thread) << "sim_thread " << sim_thread;
  a.app.speed = kSpeed;
  int frames = 0;
  bool more = true;
  while (more) {
    if (frames == kBombAfterFrame) { EXPECT_TRUE(queue_command(a.game(), player_bomb())); }
    more = app_frame(a.app);
    ++frames;
  }
  EXPECT_EQ(frames, kFrames);
  return {state_hash(a.game()), a.game().tick, ants_alive(a.game())};
}

TEST(SimThread, AWindowedRunLeavesTheWorldOfASerialRunAndOfAHeadlessOne) {
  // The simulation's own crew of two threads, called from the simulation thread.
  set_sim_threads(2);
  const RunEnd threaded = windowed_run(true);
  set_sim_threads(1);
  const RunEnd serial = windowed_run(false);

  Scenario sc;
  std::string err;
  ASSERT_TRUE(load_scenario(scenario("carpet_bombing.json"), sc, &err)) << err;
  auto g = make_game(sc, sc.seed, &err);
  ASSERT_TRUE(g) << err;
  u64 before_bomb = 0, after_bomb = 0;
  while (g->tick < u64(kFrames * kSpeed)) {
    const bool bomb = g->tick == u64(kBombAfterFrame * kSpeed);
    if (bomb) {
      ASSERT_TRUE(queue_command(*g, player_bomb()));
      before_bomb = ants_alive(*g);
    }
    simulate_tick(*g);
    if (bomb) after_bomb = ants_alive(*g);
  }
  ASSERT_EQ(threaded.tick, u64(kFrames * kSpeed));
  EXPECT_EQ(serial.tick, threaded.tick);
  EXPECT_EQ(threaded.hash, state_hash(*g));
  EXPECT_EQ(serial.hash, state_hash(*g));
  // The player's bomb fell on a nest: the run is not a quiet one.
  EXPECT_LT(after_bomb + 100, before_bomb);
  EXPECT_EQ(threaded.alive, ants_alive(*g));
}

// A tick held until the main thread has presented the frame it belongs to, from the
// after_tick hook: the main thread gets there only when it draws while the tick runs.
// Without the thread the hold can only end by its guard (a deadlock's, not a timing).
struct HeldTicks {
  colony_test::OffscreenApp a;
  std::vector<std::thread::id> threads;
  u64 calls = 0, guard_ends = 0;
  explicit HeldTicks(bool sim_thread, std::chrono::milliseconds guard)
      : a(scenario("default.json"), 800, 600, [&](WindowConfig& c) { c.sim_thread = sim_thread; }) {
    a.app.after_tick = [this, guard](Game&) {
      threads.push_back(std::this_thread::get_id());
      const u64 frame = ++calls;  // one tick a frame at 1x: tick k is frame k's
      const auto until = std::chrono::steady_clock::now() + guard;
      // Once one guard has ended, no tick waits: a failing run ends soon.
      while (guard_ends == 0 && a.app.presents.load() < frame) {
        if (std::chrono::steady_clock::now() > until) {
          ++guard_ends;
          return;
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    };
  }
};

TEST(SimThread, TheTicksRunOnTheirOwnThreadWhileTheFrameIsDrawnAndPresented) {
  HeldTicks h(true, std::chrono::seconds(10));
  ASSERT_TRUE(h.a.ok) << h.a.err;
  ASSERT_NE(h.a.app.sim_thread, nullptr);
  h.a.frames(12);
  EXPECT_EQ(h.a.game().tick, 12u);
  EXPECT_EQ(h.calls, 12u);
  EXPECT_EQ(h.guard_ends, 0u);  // each frame was presented while its tick was held
  EXPECT_EQ(h.a.app.presents.load(), 12u);
  ASSERT_EQ(h.threads.size(), 12u);
  for (const std::thread::id& t : h.threads) {
    EXPECT_NE(t, std::this_thread::get_id());
    EXPECT_EQ(t, h.a.app.sim_thread->id());
  }
  EXPECT_EQ(h.a.app.tick_run.thread, h.a.app.sim_thread->id());
}

TEST(SimThread, WithoutTheThreadATickHeldForItsPresentWaitsInVain) {
  HeldTicks h(false, std::chrono::milliseconds(50));
  ASSERT_TRUE(h.a.ok) << h.a.err;
  ASSERT_EQ(h.a.app.sim_thread, nullptr);
  h.a.frames(3);
  EXPECT_EQ(h.calls, 3u);
  EXPECT_EQ(h.guard_ends, 1u);
  for (const std::thread::id& t : h.threads) { EXPECT_EQ(t, std::this_thread::get_id()); }
}

TEST(SimThread, TheFramePanelShowsBothThreads) {
  colony_test::OffscreenApp a(scenario("carpet_bombing.json"));
  ASSERT_TRUE(a.ok) << a.err;
  a.app.debugger.open = true;
  a.app.speed = 2;
  a.frames(20);
  const Debugger& d = a.app.debugger;
  // The frames before the last one: two ticks each, on the simulation thread.
  EXPECT_EQ(a.app.stats.ticks_per_frame, 2u);
  EXPECT_GT(a.app.stats.sim_ms, 0.0);
  EXPECT_EQ(d.ticks_history.last(), 2.0);
  EXPECT_GT(d.sim_history.last(), 0.0);
  EXPECT_GT(d.build_history.last(), 0.0);
  EXPECT_GT(d.present_history.last(), 0.0);
  EXPECT_EQ(d.wait_history.count, d.sim_history.count);
  EXPECT_GE(d.wait_history.count, 18);
  EXPECT_GE(d.wait_history.last(), 0.0);
  EXPECT_GE(a.app.stats.sum_wait_ms, 0.0);
}

TEST(SimThread, APausedGameRunsNoTicksAndChangesNothing) {
  colony_test::OffscreenApp a(scenario("carpet_bombing.json"));
  ASSERT_TRUE(a.ok) << a.err;
  a.frames(5);
  a.app.paused = true;
  a.frames(1);
  const u64 tick = a.game().tick, hash = state_hash(a.game());
  a.frames(10);
  EXPECT_EQ(a.game().tick, tick);
  EXPECT_EQ(state_hash(a.game()), hash);
  EXPECT_EQ(a.app.stats.ticks_per_frame, 0u);
}

}  // namespace
