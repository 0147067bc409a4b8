// debugger_render_test.cpp — the debugger drawn through ImGui's real SDL_Renderer backend
// into a 1280x800 software-rendered surface while bombs fall, then read back: the pool map
// shows the owner kinds' colours where the pool map says it is. (A surface renderer needs
// no video driver, so no GL driver is loaded, which keeps LeakSanitizer's report ours.)
// With COLONY_DEBUG_SCREENSHOT=file.bmp in the environment the last frame is also written
// out, to look at the layout.
#include <SDL.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_sdl_backends.h>

#include <cstdlib>
#include <memory>
#include <vector>

#include "debugger.h"
#include "game.h"

namespace colony {
namespace {

Scenario busy_scenario() {
  Scenario s;
  s.path = "debugger_render_test";
  s.width = 192;
  s.height = 128;
  s.chunk_size = 16;
  ColonySpec a;
  a.nest_x = 40;
  a.nest_y = 40;
  a.color = 0xFF2040E0u;
  a.workers = 900;
  a.soldiers = 150;
  ColonySpec b = a;
  b.nest_x = 140;
  b.nest_y = 90;
  b.color = 0xFFE04020u;
  s.colonies = {a, b};
  s.food = {FoodSpec{80, 60, 25}, FoodSpec{120, 30, 25}};
  s.region_w = 128;
  s.region_h = 128;
  EventSpec bomb;
  bomb.kind = EventKind::Bomb;
  bomb.tick = 40;
  bomb.every = 40;
  bomb.x = 40;
  bomb.y = 40;
  bomb.spread = 10;
  bomb.radius = 8;
  s.events = {bomb};
  return s;
}

// Counts pixels in a rectangle within `tol` of an 0xAABBGGRR colour.
int count_color(const std::vector<Uint32>& px, int pitch_px, int x0, int y0, int x1, int y1, unsigned abgr, int tol) {
  int n = 0;
  int r = int(abgr & 0xFF), g = int((abgr >> 8) & 0xFF), b = int((abgr >> 16) & 0xFF);
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      Uint32 p = px[size_t(y * pitch_px + x)];  // SDL_PIXELFORMAT_ABGR8888: R in the low byte
      int pr = int(p & 0xFF), pg = int((p >> 8) & 0xFF), pb = int((p >> 16) & 0xFF);
      if (std::abs(pr - r) <= tol && std::abs(pg - g) <= tol && std::abs(pb - b) <= tol) ++n;
    }
  return n;
}

TEST(DebuggerRender, PoolMapShowsOwnerKindsThroughSdlRenderer) {
  SDL_Surface* target = SDL_CreateRGBSurfaceWithFormat(0, 1280, 800, 32, SDL_PIXELFORMAT_ABGR8888);
  ASSERT_NE(target, nullptr) << SDL_GetError();
  SDL_Renderer* renderer = SDL_CreateSoftwareRenderer(target);
  ASSERT_NE(renderer, nullptr) << SDL_GetError();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(1280, 800);
  ASSERT_TRUE(imgui_sdl::init_renderer(renderer));

  std::string err;
  std::unique_ptr<Game> g = make_game(busy_scenario(), 3, &err);
  ASSERT_TRUE(g) << err;
  Debugger dbg;
  debugger_init(dbg, true);
  dbg.theatre_follow = false;  // the map shows the live pool's kinds, no replay over it
  dbg.show_inspector = false;  // the queen's selection below would bring its tab before the map's
  DebugLink link;
  FrameTimes ft{2, 3, 1, 60, 60};
  std::vector<Uint32> px(size_t(1280 * 800));
  auto render_frame = [&](int frame) {
    simulate_tick(*g);
    debugger_after_tick(dbg, *g);
    imgui_sdl::new_renderer_frame();
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    // Select the far colony's queen (away from the bombs), as a click in the world would.
    if (frame == 100) link.selected = g->colonies[1].queen;
    draw_debugger(dbg, *g, ft, link);
    ImGui::Render();
    SDL_SetRenderDrawColor(renderer, 10, 10, 10, 255);
    SDL_RenderClear(renderer);
    imgui_sdl::render(ImGui::GetDrawData());
    ASSERT_EQ(SDL_RenderReadPixels(renderer, nullptr, SDL_PIXELFORMAT_ABGR8888, px.data(), 1280 * 4), 0)
        << SDL_GetError();
  };
  for (int frame = 0; frame < 150; ++frame) render_frame(frame);
  if (const char* out = std::getenv("COLONY_DEBUG_SCREENSHOT")) {
    SDL_Surface* s = SDL_CreateRGBSurfaceWithFormatFrom(px.data(), 1280, 800, 32, 1280 * 4, SDL_PIXELFORMAT_ABGR8888);
    SDL_SaveBMP(s, out);
    SDL_FreeSurface(s);
  }

  // The pool map of render pieces: tiles (one piece each) and workers are both in it.
  const PoolMapLayout& l = dbg.map_layout;
  int x0 = int(dbg.map_origin_x), y0 = int(dbg.map_origin_y);
  int x1 = std::min(1280, x0 + int(float(l.columns) * l.cell_px)),
      y1 = std::min(800, y0 + int(float(l.rows) * l.cell_px));
  ASSERT_GT(x1 - x0, 50);
  ASSERT_GT(y1 - y0, 50);
  int tiles = count_color(px, 1280, x0, y0, x1, y1, kind_color(Kind::Tile), 3);
  int workers = count_color(px, 1280, x0, y0, x1, y1, kind_color(Kind::Worker), 3);
  EXPECT_GT(tiles, 100) << "no tile-coloured cells in the pool map";
  EXPECT_GT(workers, 100) << "no worker-coloured cells in the pool map";
  // Each full cell on screen, not flashing from a change, has the colour the map's data
  // gives it at its centre: the kinds are drawn where the pool holds them.
  int checked = 0, matched = 0;
  for (size_t i = 0; i < dbg.map_cells.size(); ++i) {
    const PoolMapCell& c = dbg.map_cells[i];
    if (c.fill < 1 || (i < dbg.map_flash.size() && dbg.map_flash[i] > 0)) continue;
    size_t cell = size_t(dbg.map_cells_row_begin) * size_t(l.columns) + i;
    const float half = (l.cell_px - (l.cell_px >= 4 ? 1.0f : 0.0f)) / 2;
    int cx = int(dbg.map_origin_x + float(cell % size_t(l.columns)) * l.cell_px + half);
    int cy = int(dbg.map_origin_y + float(cell / size_t(l.columns)) * l.cell_px + half);
    if (cy >= y1 || cy >= 800) break;
    ++checked;
    matched += count_color(px, 1280, cx, cy, cx + 1, cy + 1, c.color, 3);
  }
  EXPECT_GT(checked, 100);
  EXPECT_EQ(matched, checked) << "cells drawn in another colour than their data's";
  // Outside the debugger's column on the right (the map's middle) only the clear colour.
  EXPECT_EQ(count_color(px, 1280, 300, 420, 380, 500, 0xFF0A0A0Au, 0), 80 * 80);

  // One entry per cell, scrolled to the taken boundary: the white bar is on screen, inside
  // the Pool map's tab (under the Pools panel, in the lower part of the display).
  dbg.map_exact = dbg.map_scroll_to_taken = true;
  for (int frame = 150; frame < 160; ++frame) render_frame(frame);
  const PoolMapLayout& e = dbg.map_layout;
  ASSERT_EQ(e.entries_per_cell, 1u);
  ASSERT_GT(e.rows * e.cell_px, 800.0f) << "the 1:1 map should be taller than the screen";
  float bar_x = dbg.map_origin_x + float(e.taken % unsigned(e.columns)) * e.cell_px;
  float bar_y = dbg.map_origin_y + float(e.taken / unsigned(e.columns)) * e.cell_px;
  ASSERT_GT(bar_y, 0.3f * 800);
  ASSERT_LT(bar_y, 790.0f);
  EXPECT_GT(count_color(px, 1280, int(bar_x) - 2, int(bar_y), int(bar_x) + 2, int(bar_y + e.cell_px), 0xFFFFFFFFu, 10),
            3)
      << "no white taken bar at (" << bar_x << ", " << bar_y << ")";
  if (const char* out = std::getenv("COLONY_DEBUG_SCREENSHOT_EXACT")) {
    SDL_Surface* s = SDL_CreateRGBSurfaceWithFormatFrom(px.data(), 1280, 800, 32, 1280 * 4, SDL_PIXELFORMAT_ABGR8888);
    SDL_SaveBMP(s, out);
    SDL_FreeSurface(s);
  }

  imgui_sdl::shutdown_renderer();
  ImGui::DestroyContext();
  SDL_DestroyRenderer(renderer);
  SDL_FreeSurface(target);
}

}  // namespace
}  // namespace colony
