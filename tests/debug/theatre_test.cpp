// theatre_test.cpp — the release theatre through the real game in a hidden window on
// SDL's offscreen driver, as a newcomer meets it at 1280x800: F3 opens the debugger (the
// release journal turns on), a big bomb falls on a nest, and its release is picked, played
// and stepped move by move, each step true to what the engine did; the what-if's run of the
// engine's own path gives the engine's layout; the Pools panel's release time is the
// Frame panel's `destroy` of that tick; the map keeps half the window, and a click at the
// top left corner, where the HUD sat, bombs the world.
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "../common/offscreen_app.h"
#include "../common/sdl_input.h"
#include "debugger.h"
#include "game.h"

namespace colony {
namespace {

std::string scenario(const char* name) { return std::string(COLONY_SCENARIOS) + "/" + name; }

struct App : colony_test::OffscreenApp {
  App() : OffscreenApp(scenario("default.json"), 1280, 800) {}
  Debugger& dbg() { return app.debugger; }
  void press_f3() { ASSERT_TRUE(colony_test::push_key_press(app.window, SDLK_F3)); }
  void click_at(int x, int y) {
    SDL_WarpMouseInWindow(app.window, x, y);
    for (Uint32 type : {Uint32(SDL_MOUSEBUTTONDOWN), Uint32(SDL_MOUSEBUTTONUP)}) {
      SDL_Event e{};
      e.type = type;
      e.button.windowID = SDL_GetWindowID(app.window);
      e.button.button = SDL_BUTTON_LEFT;
      e.button.state = type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED;
      e.button.clicks = 1;
      e.button.x = x, e.button.y = y;
      ASSERT_EQ(SDL_PushEvent(&e), 1);
    }
  }
  // A big bomb on the first colony's nest, as the toolbar's big bomb clicked there queues it.
  void big_bomb_on_nest() {
    const Colony& c = game().colonies[0];
    ASSERT_TRUE(queue_command(game(), Command{CommandKind::BigBomb, c.nest_x + 3, c.nest_y, 0, 0}));
  }
};

// The entries' states as the engine's pool has them after the release, for [lo, hi):
// below taken live, above it gone.
TEST(Theatre, ABigBombOnANestIsReplayedMoveByMoveAsTheEngineMadeIt) {
  App a;
  ASSERT_TRUE(a.ok) << a.err;
  a.frames(30);
  a.press_f3();
  a.frames(2);
  ASSERT_TRUE(a.dbg().open);
  ASSERT_TRUE(a.game().ecs->journal_on());
  a.big_bomb_on_nest();
  a.frames(2);
  ReleaseReplay& r = a.dbg().replay;
  ASSERT_TRUE(r.loaded) << "the bomb's release was not picked";
  const ColonyEcs::JournalRelease* rel = a.game().ecs->journal().release(r.serial);
  ASSERT_NE(rel, nullptr);
  EXPECT_TRUE(rel->cause & release_cause_bit(DeathCause::Explosion));
  EXPECT_GT(rel->victims, 100u);
  EXPECT_EQ(r.pool, 0);  // render pieces: the Pool map's pool
  ASSERT_GT(r.steps.size(), 100u);
  EXPECT_EQ(r.dropped, 0u);
  EXPECT_TRUE(a.dbg().playing);
  // Playing moves the cursor on; stepping back and forth lands on the same states.
  a.frames(30);
  EXPECT_GT(r.cursor, 0u);
  a.dbg().playing = false;
  replay_seek(r, r.steps.size() / 2);
  const std::vector<EntryState> half = r.state;
  const unsigned half_boundary = r.boundary;
  replay_seek(r, r.steps.size());
  EXPECT_EQ(r.boundary, r.taken_after);  // the boundary walked down to where the engine left taken
  replay_seek(r, 0);
  EXPECT_EQ(r.boundary, r.hi);
  for (EntryState s : r.state) ASSERT_EQ(s, EntryState::Live);
  replay_seek(r, r.steps.size() / 2);
  EXPECT_EQ(r.state, half);
  EXPECT_EQ(r.boundary, half_boundary);
  // At the end, every entry below taken_after holds a survivor and none above it does.
  replay_seek(r, r.steps.size());
  for (unsigned e = r.lo; e < r.hi; ++e) {
    const bool live = r.at(e) == EntryState::Live || r.at(e) == EntryState::Moved;
    ASSERT_EQ(live, e < r.taken_after) << "entry " << e;
  }
  // The what-if, run the engine's way, makes the engine's moves and leaves its layout.
  WhatIf w = run_what_if(r, unsigned(sizeof(RenderPiece)));
  ASSERT_TRUE(w.done) << w.problem;
  const size_t engine = r.path == ecs::ReleasePath::OneAtATime ? 0 : r.path == ecs::ReleasePath::TailFill ? 1 : 2;
  EXPECT_EQ(w.results[engine].moves, r.moves_done) << w.results[engine].name;
  for (unsigned e = r.lo; e < r.hi; ++e)
    ASSERT_EQ(w.results[engine].layout[e - r.lo] == EntryState::Vacant, e >= r.taken_after) << "entry " << e;
  // A move of an entry that dies later in the same release is waste: the what-if counts the
  // engine's own such moves (the journal's moves whose owner is a victim); the batch passes
  // make none.
  unsigned long long engine_waste = 0;
  for (const ecs::JournalStep& s : r.steps)
    if (s.kind == ecs::StepKind::Move)
      engine_waste += std::any_of(r.victims.begin(), r.victims.end(), [&](Handle v) { return v == s.owner; });
  EXPECT_EQ(w.results[engine].wasted, engine_waste);
  EXPECT_EQ(w.results[1].wasted, 0u);
  EXPECT_EQ(w.results[2].wasted, 0u);
  EXPECT_LE(w.results[1].moves, w.results[0].moves);
  // The rewind's entry point finds the same release by its tick.
  EXPECT_TRUE(debugger_show_release_of_tick(a.dbg(), a.game(), rel->tick));
  EXPECT_EQ(a.dbg().replay.serial, rel->serial);
  EXPECT_EQ(a.dbg().replay.cursor, 0u);
  // Each step the panel shows names the owner the journal names, and the map draws it.
  a.dbg().playing = false;
  replay_seek(a.dbg().replay, 1);
  a.frames(1);
  EXPECT_TRUE(a.dbg().replay.loaded);
}

// The Pools panel's release time is the tick's `destroy`, the measure the Frame panel plots.
TEST(Theatre, TheReleaseTimeIsTheFramePanelsDestroyForTheSameTick) {
  App a;
  ASSERT_TRUE(a.ok) << a.err;
  a.frames(10);
  a.press_f3();
  a.frames(2);
  a.big_bomb_on_nest();
  const unsigned long long tick = a.game().tick;
  a.frames(1);  // one tick a frame at 1x
  ASSERT_EQ(a.game().tick, tick + 1);
  ASSERT_TRUE(a.dbg().release_seen);
  EXPECT_EQ(a.dbg().release_tick, tick);
  EXPECT_GT(a.dbg().release_victims, 0u);
  EXPECT_EQ(a.dbg().release_destroy_ms, a.game().times.last_ms[SystemTimes::Destroy]);
  // The Frame panel takes a frame's ticks as the next frame builds its windows (the ticks
  // run on the simulation thread while a frame draws): one frame on, it shows that tick.
  a.frames(1);
  const Series& destroy = a.dbg().system_history[SystemTimes::Destroy];
  EXPECT_EQ(float(a.dbg().release_destroy_ms), float(destroy.last()));
  // The journal's own time of that release is part of it, on the same clock.
  const ColonyEcs::JournalRelease* rel = a.game().ecs->journal().release(a.dbg().replay.serial);
  ASSERT_NE(rel, nullptr);
  EXPECT_LE(rel->cpu_ms, a.dbg().release_destroy_ms);
}

// With F3 open at 1280x800, at least half the window's pixels are map: none of the
// debugger's windows, the HUD or the toolbar drawn over them.
TEST(Theatre, TheDebuggerLeavesHalfTheWindowToTheMap) {
  App a;
  ASSERT_TRUE(a.ok) << a.err;
  a.press_f3();
  a.frames(3);
  ASSERT_TRUE(a.dbg().open);
  std::vector<unsigned char> covered(1280 * 800, 0);
  int windows = 0;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_ChildWindow) || (w->Flags & ImGuiWindowFlags_Tooltip))
      continue;
    ++windows;
    const ImRect r = w->Rect();
    for (int y = std::max(0, int(r.Min.y)); y < std::min(800, int(r.Max.y)); ++y)
      for (int x = std::max(0, int(r.Min.x)); x < std::min(1280, int(r.Max.x)); ++x) covered[size_t(y * 1280 + x)] = 1;
  }
  EXPECT_GE(windows, 3);  // the debugger's two, the HUD and the toolbar at least
  const long map = std::count(covered.begin(), covered.end(), 0);
  EXPECT_GE(double(map) / (1280.0 * 800.0), 0.5) << map << " map pixels of " << 1280 * 800;
}

// The HUD's top-left corner is map while the debugger is open: a click there bombs.
TEST(Theatre, AClickAtTheHudsFormerCornerBombsTheWorld) {
  App a;
  ASSERT_TRUE(a.ok) << a.err;
  a.press_f3();
  a.frames(3);
  ASSERT_TRUE(a.dbg().open);
  ASSERT_EQ(a.app.tool, render::Tool::Bomb);
  const size_t blasts = a.game().blasts.size();
  a.click_at(150, 120);
  a.frames(2);
  EXPECT_EQ(a.game().blasts.size(), blasts + 1) << "the click at (150, 120) did not reach the world";
}

}  // namespace
}  // namespace colony
