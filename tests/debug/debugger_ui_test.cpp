// debugger_ui_test.cpp — every debugger window drawn headless (an ImGui context with a
// built font atlas and no renderer) for hundreds of frames while bombs fall on a running
// game; ImGui's own asserts are live in libimgui and the debugger's IM_ASSERT/DEBUG_CHECK
// abort in Release too. Also: selection through the pool map with a real mouse click, the
// F3 toggle, the chunk minimap's camera jump, pause on violation and the stress actions.
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <vector>

#include "debug_check.h"
#include "debugger.h"
#include "game.h"
#include "headless_imgui.h"

namespace colony {
namespace {

// Two colonies on a 128 x 128 map in 16-cell chunks, the simulation region covering the
// left half (so there are dormant chunks too).
Scenario test_scenario() {
  Scenario s;
  s.path = "debugger_ui_test";
  s.name = "debugger test";
  s.width = 128;
  s.height = 128;
  s.chunk_size = 16;
  ColonySpec a;
  a.nest_x = 30;
  a.nest_y = 40;
  a.color = 0xFF2040E0u;
  a.workers = 500;
  a.soldiers = 80;
  ColonySpec b = a;
  b.nest_x = 40;
  b.nest_y = 90;
  b.color = 0xFFE04020u;
  s.colonies = {a, b};
  s.food = {FoodSpec{50, 60, 25}, FoodSpec{20, 100, 25}, FoodSpec{100, 30, 25}};
  s.region_x = 0;
  s.region_y = 0;
  s.region_w = 64;
  s.region_h = 128;
  return s;
}

std::unique_ptr<Game> start_game() {
  std::string err;
  std::unique_ptr<Game> g = make_game(test_scenario(), 7, &err);
  EXPECT_TRUE(g) << err;
  return g;
}

// What the Pools window was handed equals the engine's stats, field by field.
void expect_pools_shown_match(const Debugger& dbg, const ColonyEcs& ecs) {
  auto stats = ecs.all_stats();
  ASSERT_EQ(dbg.pools_shown.pools.size(), stats.size());
  for (size_t i = 0; i < stats.size(); ++i) {
    const PoolPanelRow& r = dbg.pools_shown.pools[i];
    const ecs::PoolStats& s = *stats[i];
    ASSERT_EQ(r.name, s.name);
    ASSERT_EQ(r.taken, s.taken);
    ASSERT_EQ(r.capacity, s.capacity);
    ASSERT_EQ(r.high_water, s.high_water);
    ASSERT_EQ(r.reserved_unused, s.reserved_unused);
    ASSERT_EQ(r.tick.reserves, s.tick.reserves);
    ASSERT_EQ(r.tick.adds, s.tick.adds);
    ASSERT_EQ(r.tick.removes, s.tick.removes);
    ASSERT_EQ(r.tick.rewires, s.tick.rewires);
    ASSERT_EQ(r.tick.failed_reservations, s.tick.failed_reservations);
    for (size_t k = 0; k < r.histogram.size(); ++k) ASSERT_EQ(r.histogram[k], s.histogram[k]);
  }
  ASSERT_EQ(dbg.pools_shown.live_entities, ecs.live_count());
}

SDL_Event key_event(SDL_Keycode sym) {
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = sym;
  return e;
}

// A running game of test_scenario() and an open debugger, drawn into a headless ImGui
// context; what the window would hand the debugger passes through link.
class DebuggerUi : public testing::Test {
 protected:
  void SetUp() override {
    g = start_game();
    ASSERT_TRUE(g);
    debugger_init(dbg, true);
    // The map shows the live pool: the release theatre (theatre_test.cpp) picks no kill.
    dbg.theatre_follow = false;
  }
  // One game tick (unless tick is false) and one debugger frame, with the mouse at (mx, my)
  // and button 0 as given.
  void step(float mx, float my, bool down, bool tick = true) {
    if (tick) {
      simulate_tick(*g);
      debugger_after_tick(dbg, *g);
    }
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2(mx, my);
    io.MouseDown[0] = down;
    FrameTimes ft{1.5, 2.5, 0.5, 60, 60};
    ui.frame([&] { draw_debugger(dbg, *g, ft, link); });
  }

  HeadlessImGui ui;
  std::unique_ptr<Game> g;
  Debugger dbg;
  DebugLink link;
};

// The drawing tests rely on ImGui's asserts being compiled into the library: a misuse of
// the API aborts the process (and so fails the test) instead of passing silently.
TEST(DebuggerUiDeathTest, ImGuiAssertsAreLive) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        HeadlessImGui ui;
        ui.frame([] { ImGui::End(); });  // End without Begin
      },
      "Assertion .* failed");
  EXPECT_DEATH(debug_check_failed("1 == 2", "here.cpp", 7), "here.cpp:7: check failed: 1 == 2");
}

// The debugger's own checks are live in Release too: a panel state that cannot be drawn
// (a pool the map does not have) aborts with the check's text, through the real drawing.
class DebuggerChecksDeathTest : public DebuggerUi {};
TEST_F(DebuggerChecksDeathTest, AnImpossiblePanelStateAbortsWithItsCheck) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  step(0, 0, false);
  dbg.map_pool = 99;
  EXPECT_DEATH(step(0, 0, false, false), "check failed: dbg.map_pool >= 0 && dbg.map_pool < kMaxPools");
}

TEST_F(DebuggerUi, DrawsEveryWindowWhileBombsFall) {
  dbg.validate_every_tick = true;
  dbg.auto_bomb = true;
  dbg.auto_bomb_seconds = 0.5f;  // every 30 ticks
  dbg.bomb_count = 3;
  double max_taken_drop = 0;
  int flashed_cells = 0;  // pool-map cells whose owner changed since the previous frame
  for (int frame = 0; frame < 300; ++frame) {
    // Sweep the mouse over the whole display so every hover path and tooltip runs.
    float mx = float((frame * 37) % 1280), my = float((frame * 53) % 800);
    // Every 50 frames, hover the pool map and pick a different pool.
    if (frame % 50 == 25) {
      dbg.map_pool = (frame / 50) % kMaxPools;
      mx = dbg.map_origin_x + 3;
      my = dbg.map_origin_y + 3;
    }
    // Frames 200..259 show the pool map one entry per cell, scrolled to the taken boundary.
    if (frame == 200) dbg.map_exact = dbg.map_scroll_to_taken = true;
    if (frame == 260) dbg.map_exact = false;
    double before = dbg.taken_history[0].last();
    step(mx, my, false);
    for (float f : dbg.map_flash) flashed_cells += f == 1.0f;
    max_taken_drop = std::max(max_taken_drop, before - dbg.taken_history[0].last());
    expect_pools_shown_match(dbg, *g->ecs);
    ASSERT_EQ(dbg.taken_history[0].last(), double(g->ecs->stats<RenderPiece>().taken));
    ImDrawData* dd = ImGui::GetDrawData();
    ASSERT_TRUE(dd && dd->Valid);
    ASSERT_GT(dd->TotalVtxCount, 1000) << "the windows drew next to nothing";
  }
  EXPECT_EQ(dbg.validated_ticks, 300u);
  EXPECT_EQ(dbg.violation_count, 0u) << dbg.first_violation;
  EXPECT_FALSE(link.pause_request);
  // Bombs fell and killed: the explosion count rose and the render pool's `taken` shows a cliff.
  EXPECT_GT(ants_died(*g).by_cause[size_t(DeathCause::Explosion)], 100u);
  EXPECT_GT(max_taken_drop, 200.0);
  // Holes filled from the tail show as flashing cells in the pool map.
  EXPECT_GT(flashed_cells, 50);
  EXPECT_EQ(dbg.ticks_seen, 300u);
}

// In 1:1 mode the pool map scrolled to the taken boundary once ("to taken") stays where it
// was when a kill moves the boundary far away; following the boundary keeps it in view.
TEST_F(DebuggerUi, ThePoolMapFollowsTheTakenBoundaryThroughAKill) {
  auto taken_row_shown_after_a_kill = [&](bool follow) {
    g = start_game();
    dbg = Debugger{};
    debugger_init(dbg, true);
    dbg.theatre_follow = false;
    dbg.map_pool = 0;
    dbg.map_exact = dbg.map_scroll_to_taken = true;
    dbg.map_follow_taken = follow;
    for (int i = 0; i < 5; ++i) step(0, 0, false);
    const unsigned columns = unsigned(dbg.map_layout.columns), before = dbg.map_layout.taken;
    EXPECT_GE(int(before / columns), dbg.map_cells_row_begin);
    EXPECT_LT(int(before / columns), dbg.map_cells_row_end);
    queue_command(*g, Command{CommandKind::KillPercent, 0, 0, 0, 90});
    for (int i = 0; i < 3; ++i) step(0, 0, false);
    const unsigned row = dbg.map_layout.taken / columns;
    EXPECT_GT(before / columns, row + unsigned(dbg.map_cells_row_end - dbg.map_cells_row_begin))
        << "the kill moved the boundary too little";
    return int(row) >= dbg.map_cells_row_begin && int(row) < dbg.map_cells_row_end;
  };
  EXPECT_FALSE(taken_row_shown_after_a_kill(false));
  EXPECT_TRUE(taken_row_shown_after_a_kill(true));
}

TEST_F(DebuggerUi, ClickInPoolMapSelectsTheOwner) {
  for (int i = 0; i < 3; ++i) step(0, 0, false);  // windows appear and settle
  // Aim at a cell well inside the map: 10 cells right, 8 down.
  const PoolMapLayout& l = dbg.map_layout;
  ASSERT_GT(l.columns, 12);
  ASSERT_GT(l.rows, 10);
  float mx = dbg.map_origin_x + (10 + 0.5f) * l.cell_px, my = dbg.map_origin_y + (8 + 0.5f) * l.cell_px;
  PoolMapHit expect = hit_test_pool_map(*g->ecs, l, mx - dbg.map_origin_x, my - dbg.map_origin_y);
  ASSERT_TRUE(expect.valid);
  step(mx, my, false, false);  // hover
  EXPECT_TRUE(dbg.map_hover.valid);
  EXPECT_EQ(dbg.map_hover.owner, expect.owner);
  EXPECT_EQ(debugger_highlight(dbg, *g), expect.owner);
  step(mx, my, true, false);   // press
  step(mx, my, false, false);  // release
  EXPECT_EQ(link.selected, expect.owner);
  EXPECT_EQ(dbg.selected, expect.owner);
  // The selected entity really holds that entry at that local index.
  const Record* r = g->ecs->find(link.selected);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(g->ecs->list<RenderPiece>(*r).slot[expect.local], expect.entry);
  // Mouse away: the highlight is the selection; the inspector shows it with good back-pointers.
  step(640, 5, false, false);
  EXPECT_EQ(debugger_highlight(dbg, *g), expect.owner);
  InspectorData d = gather_inspector(*g->ecs, link.selected);
  EXPECT_TRUE(d.found);
  EXPECT_EQ(d.bad_back_pointers, 0u);
  // The window's own selection (a click on an ant in the world) reaches the debugger.
  Handle other = g->colonies[1].queen;
  ASSERT_TRUE(g->ecs->alive(other));
  ASSERT_NE(other, expect.owner);
  link.selected = other;
  step(640, 5, false, false);
  EXPECT_EQ(dbg.selected, other);
  EXPECT_EQ(debugger_highlight(dbg, *g), other);
  // A new world (a load while paused: no tick, no debugger frame yet) highlights nothing:
  // the old world's handle may name another entity in it.
  std::unique_ptr<Game> old = std::move(g);
  g = start_game();
  ASSERT_TRUE(g);
  ASSERT_TRUE(g->ecs->alive(other)) << "the same scenario again: the old handle names an entity here too";
  EXPECT_EQ(debugger_highlight(dbg, *g), Handle{});
}

TEST_F(DebuggerUi, ChunkClickJumpsTheCamera) {
  // The Chunks tab in front: the first of the tabs shown.
  dbg.show_pool_map = dbg.show_inspector = false;
  for (int i = 0; i < 3; ++i) step(0, 0, false);
  ASSERT_GT(dbg.chunk_px, 1.0f);
  // Chunk (5, 2) of the 8 x 8 grid; its centre in cells is (88, 40).
  float mx = dbg.chunk_origin_x + 5.5f * dbg.chunk_px, my = dbg.chunk_origin_y + 2.5f * dbg.chunk_px;
  step(mx, my, false, false);
  step(mx, my, true, false);
  step(mx, my, false, false);
  EXPECT_TRUE(link.camera_jump);
  EXPECT_FLOAT_EQ(link.camera_x, 88.0f);
  EXPECT_FLOAT_EQ(link.camera_y, 40.0f);
}

TEST_F(DebuggerUi, F3TogglesAndClosedDebuggerDrawsNothing) {
  debugger_init(dbg, false);  // starts closed
  step(0, 0, false);
  EXPECT_EQ(ImGui::GetDrawData()->TotalVtxCount, 0);
  EXPECT_TRUE(debugger_handle_key(dbg, key_event(SDLK_F3)));
  EXPECT_TRUE(dbg.open);
  EXPECT_FALSE(debugger_handle_key(dbg, key_event(SDLK_F4)));
  step(0, 0, false);
  EXPECT_GT(ImGui::GetDrawData()->TotalVtxCount, 1000);
  dbg.show_stress = false;  // a closed window comes back when the debugger is reopened
  EXPECT_TRUE(debugger_handle_key(dbg, key_event(SDLK_F3)));
  EXPECT_FALSE(dbg.open);
  EXPECT_TRUE(debugger_handle_key(dbg, key_event(SDLK_F3)));
  EXPECT_TRUE(dbg.show_stress);
}

// The window shrinks to almost nothing and grows back: the debugger's two windows are
// placed again for each size, docked to the right edge, inside the window.
TEST_F(DebuggerUi, PanelsComeBackInsideTheWindowAfterItShrankAndGrew) {
  for (int i = 0; i < 3; ++i) step(0, 0, false, false);
  for (ImVec2 size : {ImVec2(200, 150), ImVec2(1, 1), ImVec2(1600, 1000)}) {
    ImGui::GetIO().DisplaySize = size;
    for (int i = 0; i < 3; ++i) step(0, 0, false, false);
  }
  for (const char* name : {"Pools", "Pool debugger"}) {
    SCOPED_TRACE(name);
    ImGuiWindow* w = ImGui::FindWindowByName(name);
    ASSERT_NE(w, nullptr);
    EXPECT_GE(w->Pos.x, 0);
    EXPECT_GE(w->Pos.y, 0);
    EXPECT_LE(w->Pos.x + w->Size.x, 1600);
    EXPECT_NEAR(w->Pos.x + w->Size.x, 1600 - 4, 1);  // docked right
    EXPECT_LE(w->Pos.y + w->Size.y, 1000);
  }
}

// At any display size the debugger keeps to one column on the right: the Pools panel and
// one window of tabs under it, the pool map's first, the map in view on the left. A click
// on an ant in the world brings the inspector's tab forward.
TEST_F(DebuggerUi, TheDebuggerKeepsOneColumnOnTheRight) {
  for (ImVec2 display : {ImVec2(800, 600), ImVec2(1280, 800)}) {
    SCOPED_TRACE(display.x);
    ImGui::GetIO().DisplaySize = display;
    dbg.top_clear = 90;
    dbg.show_inspector = false;  // the pool map's tab in front (the last round's click had brought the inspector's)
    step(0, 0, false);
    dbg.show_inspector = true;
    for (int i = 0; i < 3; ++i) step(0, 0, false);
    ImGuiWindow* pools = ImGui::FindWindowByName("Pools");
    ImGuiWindow* tabs = ImGui::FindWindowByName("Pool debugger");
    ASSERT_TRUE(pools && pools->Active && tabs && tabs->Active);
    for (const char* name : {"Pool map", "Entity inspector", "Chunks", "Frame", "Stress"}) {
      ImGuiWindow* w = ImGui::FindWindowByName(name);
      EXPECT_TRUE(!w || !w->Active) << name;
    }
    // One column below the toolbar, the rest of the display free on the left.
    EXPECT_GE(pools->Pos.y, 90);
    EXPECT_LE(pools->Pos.y + pools->Size.y, tabs->Pos.y);
    EXPECT_LE(tabs->Pos.y + tabs->Size.y, display.y);
    EXPECT_GE(std::min(pools->Pos.x, tabs->Pos.x), display.x * 0.5f);
    EXPECT_EQ(debugger_free_span(dbg, display.x).left, 0);
    EXPECT_LE(debugger_free_span(dbg, display.x).right, tabs->Pos.x);
    // The first tab is the pool map, drawn with its cells.
    EXPECT_STREQ(dbg.tab_shown, "Pool map");
    EXPECT_GT(dbg.map_layout.columns, 0);
    EXPECT_GE(dbg.map_origin_x, tabs->Pos.x);

    Handle ant;
    g->ecs->for_each_simulated([&](Record& r) {
      if (ant.is_null() && is_ant(r.payload.kind)) ant = r.header.handle;
    });
    ASSERT_FALSE(ant.is_null());
    link.selected = ant;  // the window's click
    step(0, 0, false);
    step(0, 0, false);  // ImGui selects a tab when it lays out the bar, the frame after
    EXPECT_STREQ(dbg.tab_shown, "Entity inspector");
    step(0, 0, false);
    EXPECT_STREQ(dbg.tab_shown, "Entity inspector");  // and it stays forward
    EXPECT_EQ(dbg.selected, ant);
    link.selected = Handle{};
    step(0, 0, false);
  }
}

TEST_F(DebuggerUi, ViolationIsCountedNamedAndPauses) {
  dbg.validate_every_tick = true;
  step(0, 0, false);
  EXPECT_EQ(dbg.violation_count, 0u);
  // Break one back-pointer of the collision pool by hand.
  ecs::BackPointer& bp = g->ecs->pool<CollisionVolume>().owners[0];
  const ecs::BackPointer saved = bp;
  bp.local ^= 1;
  u64 expected = 0;
  (void)g->ecs->validate(100000, &expected);
  ASSERT_GT(expected, 0u);
  debugger_after_tick(dbg, *g);
  EXPECT_EQ(dbg.violation_count, expected);
  EXPECT_NE(dbg.first_violation.find("collision_volumes"), std::string::npos) << dbg.first_violation;
  EXPECT_FALSE(link.pause_request);
  step(0, 0, false, false);
  EXPECT_TRUE(link.pause_request);
  bp = saved;
  // Without pause_on_violation the count still rises but no pause is asked for.
  link.pause_request = false;
  dbg.pause_on_violation = false;
  const auto counted = dbg.violation_count;
  bp.local ^= 1;
  debugger_validate(dbg, *g);
  bp = saved;
  step(0, 0, false, false);
  EXPECT_EQ(dbg.violation_count, counted + expected);
  EXPECT_FALSE(link.pause_request);
  debugger_validate(dbg, *g);
  EXPECT_EQ(dbg.violating_ticks, 2u);
}

// With "every tick" on, the Stress panel states the validator's cost: its mean thread CPU
// ms per tick beside the tick's own (the systems' times), and the ticks a second the two
// leave room for, which is why the rate drops.
TEST_F(DebuggerUi, TheValidatorEveryTickStatesItsCostPerTick) {
  EXPECT_EQ(validator_cost_text(dbg), "");
  dbg.validate_every_tick = true;
  double validate_mean = 0, tick_mean = 0;
  for (int t = 0; t < 40; ++t) {
    step(0, 0, false);
    double tick_ms = 0;
    for (double ms : g->times.last_ms) tick_ms += ms;
    const double w = t == 0 ? 1 : kValidateMeanWeight;
    validate_mean += (dbg.validate_ms - validate_mean) * w;
    tick_mean += (tick_ms - tick_mean) * w;
  }
  const ValidatorCost c = validator_cost(dbg);
  EXPECT_GT(c.validate_ms, 0);
  EXPECT_GT(c.tick_ms, 0);
  EXPECT_DOUBLE_EQ(c.validate_ms, validate_mean);
  EXPECT_DOUBLE_EQ(c.tick_ms, tick_mean);
  EXPECT_DOUBLE_EQ(c.max_tps, 1000 / (validate_mean + tick_mean));
  const std::string text = validator_cost_text(dbg);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.2f ms a tick", c.validate_ms);
  EXPECT_NE(text.find(ms), std::string::npos) << text;
  EXPECT_NE(text.find("thread CPU clock"), std::string::npos) << text;
  std::snprintf(ms, sizeof ms, "at most %.0f ticks/s", c.max_tps);
  EXPECT_NE(text.find(ms), std::string::npos) << text;
  // A reset forgets it; the next validated tick measures again.
  dbg.cost_samples = 0;
  step(0, 0, false);
  EXPECT_DOUBLE_EQ(validator_cost(dbg).validate_ms, dbg.validate_ms);
}

TEST_F(DebuggerUi, NewWorldClearsHistoryAndSelection) {
  dbg.validate_every_tick = true;
  for (int i = 0; i < 5; ++i) step(0, 0, false);
  link.selected = g->colonies[0].queen;
  step(0, 0, false);
  ASSERT_EQ(dbg.selected, g->colonies[0].queen);
  ASSERT_EQ(dbg.taken_history[0].count, 6);
  ASSERT_EQ(dbg.validated_ticks, 6u);
  // The window loads another world (the old one is gone): its first tick starts a fresh
  // history, and the old world's handle (which may name another entity in the new one) is
  // dropped on both sides.
  ASSERT_EQ(dbg.system_history[0].count, 6);
  std::unique_ptr<Game> next = start_game();
  ASSERT_TRUE(next);
  g = std::move(next);
  // Its first frame, before any tick: the old world's system times are gone too.
  step(0, 0, false, false);
  EXPECT_EQ(dbg.system_history[0].count, 1);
  step(0, 0, false);
  EXPECT_EQ(dbg.taken_history[0].count, 1);
  EXPECT_EQ(dbg.validated_ticks, 1u);
  EXPECT_TRUE(dbg.selected.is_null());
  EXPECT_TRUE(link.selected.is_null());
  // What the world highlights is the new world's: nothing away from the map, and the
  // entry under the pointer over it, alive in the new world.
  EXPECT_EQ(debugger_highlight(dbg, *g), Handle{});
  dbg.show_inspector = false;  // the pool map's tab in front again (the queen's selection had brought the inspector's)
  step(0, 0, false, false);
  step(dbg.map_origin_x + 3, dbg.map_origin_y + 3, false, false);
  ASSERT_TRUE(dbg.map_hover.valid);
  EXPECT_TRUE(g->ecs->alive(dbg.map_hover.owner));
  EXPECT_EQ(debugger_highlight(dbg, *g), dbg.map_hover.owner);
  // A selection made in the new world sticks.
  link.selected = g->colonies[1].queen;
  step(0, 0, false);
  EXPECT_EQ(dbg.selected, g->colonies[1].queen);
}

// A frame that ran several ticks shows each system's slowest of them: a bomb's release in
// the first of three ticks is what the Frame window's destroy row shows, not the last
// tick's near nothing. While paused (no tick), the last tick's times again. The ticks'
// times are set as each tick's timer leaves them (the debugger reads nothing else), so
// the machine's speed decides nothing here.
TEST_F(DebuggerUi, FrameTimesShowTheSlowestTickOfEachFrame) {
  for (int i = 0; i < 3; ++i) step(0, 0, false);
  const auto destroy = size_t(SystemTimes::Destroy);
  const double bomb_tick_ms[3] = {4.5, 0.25, 0.125};  // the bomb's tick first
  for (double ms : bomb_tick_ms) {
    simulate_tick(*g);
    g->times.last_ms[destroy] = ms;
    debugger_after_tick(dbg, *g);
  }
  step(0, 0, false, false);
  EXPECT_EQ(dbg.system_history[destroy].last(), 4.5f);
  step(0, 0, false, false);
  EXPECT_EQ(dbg.system_history[destroy].last(), 0.125f);
}

// The Stress window's scenario list starts at the running scenario and follows it.
TEST_F(DebuggerUi, TheScenarioListPicksTheRunningScenario) {
  // The Stress tab in front: the only one shown under the Pools panel.
  dbg.show_pool_map = dbg.show_inspector = dbg.show_chunks = dbg.show_frame = false;
  step(0, 0, false);
  ASSERT_GT(dbg.scenario_files.size(), 2u) << "no scenarios found in " << dbg.scenarios_dir;
  for (const char* name : {"million.json", "kingdom_fire.json"}) {
    link.running_scenario = dbg.scenarios_dir + "/" + name;
    step(0, 0, false);
    EXPECT_EQ(std::filesystem::path(dbg.scenario_files[size_t(dbg.scenario_pick)]).filename(), name);
  }
}

// Plot points keep what one pixel per sample would drop: a one-tick spike among 1,800
// samples drawn 380 wide, and a level's one-tick drop.
TEST(DebuggerPlot, PointsKeepOneTickSpikesAndDrops) {
  Series s;
  s.values.assign(1800, 0.0);
  for (int i = 0; i < 1800 + 77; ++i) s.push(i == 1000 ? 1200.0f : 3.0f);  // wrapped: oldest at head
  std::vector<float> points;
  plot_points(s, 380, true, 0, points);
  ASSERT_EQ(points.size(), 380u);
  EXPECT_EQ(*std::max_element(points.begin(), points.end()), 1200.0f);
  // The spike was sample 1000 of the 1,877 pushed, i.e. 923 of the 1,800 kept, about
  // point 195 of 380; every other point stands for steady samples.
  long at = std::max_element(points.begin(), points.end()) - points.begin();
  EXPECT_NEAR(double(at), 923.0 * 380 / 1800, 1.0);
  EXPECT_EQ(std::count(points.begin(), points.end(), 3.0f), 379);
  Series level;
  level.values.assign(1800, 0.0);
  for (int i = 0; i < 1800; ++i) level.push(i == 500 ? 10.0f : 5000.0f);
  plot_points(level, 380, false, 0, points);
  EXPECT_EQ(*std::min_element(points.begin(), points.end()), 10.0f);
  // Times below a millisecond are plotted to their own scale: a 0.08 ms release among
  // 0.005 ms ticks reaches the top (a floor of 1 ms made it a 2-pixel bump).
  Series times;
  times.values.assign(600, 0.0);
  for (int i = 0; i < 600; ++i) times.push(i == 300 ? 0.08f : 0.005f);
  PlotRange r = plot_range(times, true);
  EXPECT_EQ(r.bottom, 0.0f);
  EXPECT_GT(0.08f / r.top, 0.9f);
  r = plot_range(level, false);
  EXPECT_LT(r.bottom, 10.0f);
  EXPECT_GT(r.top, 5000.0f);
  EXPECT_LT(r.top, 5500.0f);
  // Fewer samples than pixels: every sample, in order.
  Series few;
  few.values.assign(600, 0.0);
  for (int i = 0; i < 5; ++i) few.push(float(i));
  plot_points(few, 380, true, 0, points);
  EXPECT_EQ(points, (std::vector<float>{0, 1, 2, 3, 4}));
}

// A level past 2^24, as a million-ant world's render pool: a change of one entry is kept
// in the series and in the points, which are taken from the plot's bottom.
TEST(DebuggerPlot, ALargeLevelKeepsAChangeOfOne) {
  Series taken;
  taken.values.assign(1800, 0.0);
  const double base = 20'000'001;  // odd: a float rounds it to 20,000,000
  for (int i = 0; i < 10; ++i) taken.push(base + (i >= 5 ? 1 : 0));
  EXPECT_EQ(taken.last(), base + 1);
  PlotRange r = plot_range(taken, false);
  std::vector<float> points;
  plot_points(taken, 380, false, r.bottom, points);
  ASSERT_EQ(points.size(), 10u);
  EXPECT_FLOAT_EQ(points[5] - points[4], 1.0f);
  EXPECT_GT(points[0], 0.0f);
  EXPECT_LT(points[9], float(r.top - r.bottom));
}

// While a replay plays its own commands the game sets commands_off: auto-bomb queues
// nothing (its bombs were queued and thrown away at the next tick), and starts again after.
TEST_F(DebuggerUi, AutoBombWaitsWhileAReplayPlaysItsCommands) {
  dbg.auto_bomb = true;
  dbg.commands_off = true;
  for (int i = 0; i < 3; ++i) {
    step(0, 0, false);
    EXPECT_TRUE(g->pending_commands.empty()) << "tick " << g->tick;
  }
  dbg.commands_off = false;
  step(0, 0, false);
  EXPECT_EQ(g->pending_commands.size(), size_t(dbg.bomb_count));
}

TEST_F(DebuggerUi, StressActionsGoThroughCommands) {
  simulate_tick(*g);

  dbg.spawn_count = 150;
  dbg.spawn_colony = 1;
  dbg.spawn_caste = 1;
  queue_spawn(dbg, *g);
  ASSERT_EQ(g->pending_commands.size(), 1u);
  EXPECT_EQ(g->pending_commands[0].kind, CommandKind::SpawnAnts);
  EXPECT_EQ(g->pending_commands[0].caste, Kind::Soldier);
  u64 born = g->colonies[1].born;
  simulate_tick(*g);
  EXPECT_GE(g->colonies[1].born, born + 150);

  dbg.bomb_count = 4;
  queue_random_bombs(dbg, *g);
  ASSERT_EQ(g->pending_commands.size(), 4u);
  for (const Command& c : g->pending_commands) {
    EXPECT_EQ(c.kind, CommandKind::Bomb);
    EXPECT_TRUE(c.x >= 0 && c.x < 128 && c.y >= 0 && c.y < 128);
  }
  u64 exploded = ants_died(*g).by_cause[size_t(DeathCause::Explosion)];
  simulate_tick(*g);
  EXPECT_GT(ants_died(*g).by_cause[size_t(DeathCause::Explosion)], exploded) << "bombs aimed at ants killed none";

  dbg.kill_percent = 50;
  u64 alive = ants_alive(*g);
  const DeathCounts died = ants_died(*g);
  queue_random_kill(dbg, *g);
  ASSERT_EQ(g->pending_commands.size(), 1u);
  EXPECT_EQ(g->pending_commands[0].count, 50u);
  simulate_tick(*g);
  EXPECT_LT(ants_alive(*g), alive * 3 / 4);
  // Its deaths are culled, not explosions.
  const u64 culled = ants_died(*g).by_cause[size_t(DeathCause::Culled)] - died.by_cause[size_t(DeathCause::Culled)];
  EXPECT_GT(culled, alive / 4);
  EXPECT_EQ(ants_died(*g).by_cause[size_t(DeathCause::Explosion)], died.by_cause[size_t(DeathCause::Explosion)]);
  EXPECT_TRUE(g->ecs->validate().empty());
}

}  // namespace
}  // namespace colony
