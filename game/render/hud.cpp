// hud.cpp — toolbar, HUD, inspector and help overlay.
//
// Table of contents
//   [SECTION] Style
//   [SECTION] Help
//   [SECTION] Toolbar
//   [SECTION] HUD
//   [SECTION] Inspector
//   [SECTION] Banners (PAUSED, messages)
#include "hud.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app.h"
#include "debugger.h"
#include "timeline.h"
#include "ui_text.h"

namespace colony::render {

// [SECTION] Style

void style_ui() {
  ImGui::StyleColorsDark();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowRounding = 6;
  s.FrameRounding = 4;
  s.GrabRounding = 4;
  s.WindowBorderSize = 0;
  s.WindowPadding = ImVec2(10, 8);
  s.ItemSpacing = ImVec2(6, 5);
  ImVec4* c = s.Colors;
  c[ImGuiCol_WindowBg] = ImVec4(0.07f, 0.08f, 0.06f, 0.82f);
  c[ImGuiCol_Button] = ImVec4(0.22f, 0.30f, 0.18f, 0.9f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.36f, 0.48f, 0.26f, 1.0f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.62f, 0.50f, 0.18f, 1.0f);
  // Frames (check boxes, fields, sliders) a step lighter than the panels: an empty check
  // box in the panels' colour is nearly invisible on them.
  c[ImGuiCol_FrameBg] = ImVec4(0.27f, 0.32f, 0.22f, 0.95f);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.36f, 0.43f, 0.28f, 1.0f);
  c[ImGuiCol_SliderGrab] = ImVec4(0.70f, 0.56f, 0.22f, 0.45f);  // see-through: the value under it stays readable
  c[ImGuiCol_SliderGrabActive] = ImVec4(0.85f, 0.68f, 0.26f, 0.6f);
  c[ImGuiCol_CheckMark] = ImVec4(0.90f, 0.75f, 0.30f, 1.0f);
  c[ImGuiCol_Header] = ImVec4(0.30f, 0.38f, 0.20f, 0.8f);
  c[ImGuiCol_TitleBgActive] = ImVec4(0.20f, 0.26f, 0.14f, 1.0f);
}

// [SECTION] Help

const HelpLine kHelpLines[] = {
    {"Left click", "use the current tool (drag to paint terrain or spread fire)"},
    {"1 .. 9, 0", "tools: select, bomb, big bomb, fire, food, water, rock, grass, spawn ants, colony"},
    {"[  ]", "brush radius for fire and painting, down to one cell (walls for a maze)"},
    {"C / X", "spawn tool: next colony / worker or soldier"},
    {"W A S D, arrows", "pan the camera"},
    {"Right or middle drag", "pan the camera"},
    {"Mouse wheel", "zoom toward the cursor"},
    {"F", "follow the selected ant"},
    {"H, Home", "show the whole map"},
    {"Space", "pause / resume; rewound: play on from the tick shown (asks first)"},
    {".", "single tick (pauses; held, repeats); rewound: one tick on"},
    {",", "one tick back through the last minute (rewind; held, repeats)"},
    {"End", "rewound: back to the live world (nothing forks)"},
    {"+ / -", "simulation speed 1x .. 64x"},
    {"P", "pheromone overlay: off, to-food, to-home, danger"},
    {"T", "trails view: the trails glow in their colonies' colours"},
    {"N", "hide / show the ants"},
    {"F1", "this help"},
    {"F2", "hide / show the HUD"},
    {"F3", "pool debugger"},
    {"F5 / F9", "quick save / quick load"},
    {"Esc", "close help, clear the selection, else quit"},
    {"Q, Ctrl+Q", "quit"},
};
const int kHelpLineCount = int(sizeof(kHelpLines) / sizeof(kHelpLines[0]));

namespace {

void draw_help(App& app) {
  if (!app.show_help) return;
  ImGuiIO& io = ImGui::GetIO();
  const ImGuiStyle& st = ImGui::GetStyle();
  // As wide as its longest line, or the window when that is narrower: the descriptions then
  // wrap, and a window too low for the table scrolls it.
  float keys_w = 0, what_w = 0;
  for (int i = 0; i < kHelpLineCount; ++i) {
    keys_w = std::max(keys_w, ImGui::CalcTextSize(kHelpLines[i].keys).x);
    what_w = std::max(what_w, ImGui::CalcTextSize(kHelpLines[i].what).x);
  }
  const float natural = keys_w + what_w + 4 * st.CellPadding.x + 2 * st.WindowPadding.x + st.ScrollbarSize;
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(natural, io.DisplaySize.x * 0.96f), 0), ImGuiCond_Always);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(io.DisplaySize.x * 0.96f, io.DisplaySize.y * 0.96f));
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the debugger's text must not show through
  if (ImGui::Begin("Colony controls (F1)", &app.show_help, ImGuiWindowFlags_NoCollapse)) {
    // Opened over the debugger's panels, in front of them (they may have been focused since).
    if (ImGui::IsWindowAppearing()) ImGui::SetWindowFocus();
    ImGui::TextColored(ImVec4(0.95f, 0.8f, 0.4f, 1), "Ants forage, fight and breed. You drop the bombs.");
    ImGui::Separator();
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn("keys", ImGuiTableColumnFlags_WidthFixed, keys_w);
      ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
      for (int i = 0; i < kHelpLineCount; ++i) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ImVec4(0.75f, 0.9f, 0.55f, 1), "%s", kHelpLines[i].keys);
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", kHelpLines[i].what);
      }
      ImGui::EndTable();
    }
  }
  ImGui::End();
}

// [SECTION] Toolbar

// Window extents from the previous frame, to keep the toolbar clear of the HUD and the
// debugger's panels clear of the toolbar.
float toolbar_w = 600, toolbar_bottom_y = 0, hud_right = 260;
// The HUD's distance from the screen's corner.
constexpr float kHudMargin = 8;
// The HUD's width is fixed, so that nothing it shows moves the toolbar beside it: a long
// line (a recording's name) wraps instead.
constexpr float kHudWidth = 262;
float hud_text_width() { return kHudWidth - 2 * ImGui::GetStyle().WindowPadding.x; }
const ImU32 kErrorColor = IM_COL32(255, 115, 90, 255);    // an error's message (a load, a save)
const ImU32 kNoticeColor = IM_COL32(140, 242, 140, 255);  // a confirmation's (quick save, quick load)

ImVec4 colony_imcolor(const Game& g, int colony) {
  if (colony < 0 || size_t(colony) >= g.colonies.size()) return ImVec4(1, 1, 1, 1);
  uint32_t c = g.colonies[size_t(colony)].color;
  return ImVec4(float(c & 255) / 255.f, float(c >> 8 & 255) / 255.f, float(c >> 16 & 255) / 255.f, 1);
}

// SameLine when an item w pixels wide still fits before the window's right edge, else the
// item starts a new row: in a narrow window the toolbar wraps instead of running off it.
void same_line_within(float w) {
  const float right = ImGui::GetIO().DisplaySize.x - kHudMargin;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + w <= right) ImGui::SameLine();
}
float button_width(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + 2 * ImGui::GetStyle().FramePadding.x;
}
// A button placed by same_line_within (first: the row's first item, placed as it comes).
bool toolbar_button(const char* label, bool first = false) {
  if (!first) same_line_within(button_width(label));
  return ImGui::Button(label);
}

void draw_toolbar(App& app) {
  Game& g = *app.game;
  ImGuiIO& io = ImGui::GetIO();
  // Centred, but never over the HUD in a narrow window (widths from the previous frame).
  float x = std::max(io.DisplaySize.x * 0.5f - toolbar_w * 0.5f, app.show_hud ? hud_right + 8 : 8.f);
  ImGui::SetNextWindowPos(ImVec2(x, 8), ImGuiCond_Always);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("##toolbar", nullptr, flags)) {
    // While a replay plays its own commands only Select works: the others are greyed.
    for (int t = 0; t < int(Tool::Count); ++t) {
      ImGui::BeginDisabled(app.tools_off && Tool(t) != Tool::Select);
      bool on = int(app.tool) == t;
      if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.70f, 0.52f, 0.16f, 1));
      char label[32];
      std::snprintf(label, sizeof label, "%d %s", (t + 1) % 10, tool_name(Tool(t)));
      if (toolbar_button(label, t == 0)) app.tool = Tool(t);
      if (on) ImGui::PopStyleColor();
      ImGui::EndDisabled();
    }
    // Second row: options of the current tool, then time and overlay, each item wrapping
    // to a new line when the window is too narrow for it (the row's first starts one).
    ImGui::PushItemWidth(90);
    bool row_started = false;
    auto place = [&](float w) {
      if (row_started) same_line_within(w);
      row_started = true;
    };
    const ImGuiStyle& st = ImGui::GetStyle();
    auto labelled = [&](const char* label, float field) {
      return field + st.ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
    };
    auto radio = [&](const char* label) { return labelled(label, ImGui::GetFrameHeight()); };
    if (app.tool == Tool::Ignite || app.tool == Tool::PaintWater || app.tool == Tool::PaintRock ||
        app.tool == Tool::PaintGrass) {
      place(labelled("brush (cells)", 90));
      slider_in_range("brush (cells)", &app.brush, kFineBrush, kMaxBrush, app.brush <= kFineBrush ? "one" : "%.0f");
    } else if (app.tool == Tool::Spawn && !g.colonies.empty()) {
      place(ImGui::CalcTextSize("colony").x);
      ImGui::TextUnformatted("colony");
      for (int c = 0; c < int(g.colonies.size()); ++c) {
        place(18);
        ImGui::PushID(c);
        ImVec4 col = colony_imcolor(g, c);
        if (ImGui::ColorButton("##col", col, ImGuiColorEditFlags_NoTooltip, ImVec2(18, 18))) app.spawn_colony = c;
        if (app.spawn_colony == c) {
          ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
          ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2),
                                              IM_COL32(255, 230, 120, 255), 3, 0, 2);
        }
        ImGui::PopID();
      }
      place(radio("worker"));
      ImGui::RadioButton("worker", &app.spawn_caste, 0);
      place(radio("soldier"));
      ImGui::RadioButton("soldier", &app.spawn_caste, 1);
      place(labelled("ants", 90));
      ImGui::SliderInt("ants", &app.spawn_count, 1, 500, "%d", ImGuiSliderFlags_AlwaysClamp);
    } else if (app.tool == Tool::Food) {
      place(labelled("crumbs", 90));
      ImGui::SliderInt("crumbs", &app.food_crumbs, 1, 31, "%d", ImGuiSliderFlags_AlwaysClamp);
    }
    const char* play = app.paused ? "Play" : "Pause";
    place(button_width(play));
    if (ImGui::Button(play)) {
      if (rewound(app)) app.fork_asked = true;
      else app.paused = !app.paused;
    }
    if (toolbar_button("Step")) {
      if (rewound(app)) app.rewind_request = {RewindRequest::ToTick, app.game->tick + 1};
      else app.paused = true, ++app.step_requests;
    }
    if (toolbar_button("-")) app.speed = app.speed > 1 ? app.speed / 2 : 1;
    char speed[16];
    std::snprintf(speed, sizeof speed, "%2dx", app.speed);
    same_line_within(ImGui::CalcTextSize(speed).x);
    ImGui::TextUnformatted(speed);
    if (toolbar_button("+")) app.speed = app.speed < 64 ? app.speed * 2 : 64;
    int overlay = int(app.overlay);
    const char* names[] = {overlay_name(Overlay::Off), overlay_name(Overlay::ToFood), overlay_name(Overlay::ToHome),
                           overlay_name(Overlay::Danger)};
    same_line_within(120);
    ImGui::SetNextItemWidth(120);
    if (ImGui::Combo("##overlay", &overlay, names, int(Overlay::Count))) app.overlay = Overlay(overlay);
    if (toolbar_button("Help (F1)")) app.show_help = !app.show_help;
    ImGui::PopItemWidth();
    toolbar_w = ImGui::GetWindowWidth();
    toolbar_bottom_y = ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
  }
  ImGui::End();
}

// [SECTION] HUD

// How long a colony's row names its latest turn of fate (ticks).
constexpr u64 kFateRowTicks = 60 * kTicksPerSecond;

// The colonies' ants, food and fate, one row each.
void draw_colony_table(Game& g) {
  if (!ImGui::BeginTable("colonies", 4, ImGuiTableFlags_SizingFixedFit)) return;
  ImGui::TableSetupColumn("colony");
  ImGui::TableSetupColumn("ants");
  ImGui::TableSetupColumn("food");
  ImGui::TableSetupColumn("fate");
  ImGui::TableHeadersRow();
  for (size_t c = 0; c < g.colonies.size(); ++c) {
    const Colony& col = g.colonies[c];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::ColorButton("##c", colony_imcolor(g, int(c)), ImGuiColorEditFlags_NoTooltip, ImVec2(11, 11));
    ImGui::SameLine();
    ImGui::Text("%zu", c + 1);
    ImGui::TableNextColumn();
    ImGui::Text("%llu", (unsigned long long)col.alive);
    ImGui::TableNextColumn();
    if (col.starving) ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "%.0f starving", col.food);
    else ImGui::Text("%.0f", col.food);
    // Its latest turn of fate, for a minute of game time (hunger shows in the food column).
    ImGui::TableNextColumn();
    if (col.fate != Fate::None && col.fate != Fate::Starving && g.tick - col.fate_tick < kFateRowTicks)
      ImGui::TextColored(col.fate == Fate::Collapsed ? ImVec4(1, 0.45f, 0.3f, 1) : ImVec4(0.5f, 1, 0.6f, 1), "%s",
                         fate_name(col.fate));
    else if (col.refounds) ImGui::TextDisabled("founded x%llu", (unsigned long long)col.refounds + 1);
  }
  ImGui::EndTable();
}

}  // namespace

// [SECTION] Population chart

void clear_population(PopulationChart& chart) {
  for (auto& ring : chart.rings) ring.assign(kPopulationSamples, 0.0f);
  chart.count = chart.head = 0;
  chart.last_tick = 0;
}

void sample_population(PopulationChart& chart, const Game& g) {
  if (chart.count > 0 && g.tick <= chart.last_tick) clear_population(chart);
  if (g.tick % kPopulationSampleTicks != 0) return;
  if (chart.rings[0].size() != size_t(kPopulationSamples)) clear_population(chart);
  for (size_t c = 0; c < kMaxColonies; ++c)
    chart.rings[c][size_t(chart.head)] = c < g.colonies.size() ? float(g.colonies[c].alive) : 0.0f;
  chart.head = (chart.head + 1) % kPopulationSamples;
  chart.count = std::min(chart.count + 1, kPopulationSamples);
  chart.last_tick = g.tick;
}

std::vector<float> population_series(const PopulationChart& chart, size_t colony) {
  std::vector<float> out;
  if (colony >= kMaxColonies || chart.count == 0) return out;
  const int first = chart.count == kPopulationSamples ? chart.head : 0;
  for (int i = 0; i < chart.count; ++i) out.push_back(chart.rings[colony][size_t((first + i) % kPopulationSamples)]);
  return out;
}

namespace {

// The chart: a line per colony in its colour over the samples held, the scale from 0 to the
// largest population among them.
void draw_population_chart(App& app) {
  const Game& g = *app.game;
  const PopulationChart& chart = app.population;
  ImGui::SetNextItemOpen(chart.open, ImGuiCond_Always);
  app.population.open = ImGui::CollapsingHeader("population");
  if (!app.population.open) return;
  float top = 1;
  std::vector<float> series[kMaxColonies];
  for (size_t c = 0; c < g.colonies.size() && c < kMaxColonies; ++c) {
    series[c] = population_series(chart, c);
    for (float v : series[c]) top = std::max(top, v);
  }
  const ImVec2 size(240, 70), at = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), IM_COL32(0, 0, 0, 90));
  const float dx = size.x / float(kPopulationSamples - 1);
  for (size_t c = 0; c < g.colonies.size() && c < kMaxColonies; ++c) {
    const ImU32 col = ImGui::ColorConvertFloat4ToU32(colony_imcolor(g, int(c)));
    // The newest sample at the right edge: a young chart grows in from the right.
    const float x0 = at.x + size.x - dx * float(series[c].size() - 1);
    for (size_t i = 1; i < series[c].size(); ++i)
      dl->AddLine(ImVec2(x0 + dx * float(i - 1), at.y + size.y * (1 - series[c][i - 1] / top)),
                  ImVec2(x0 + dx * float(i), at.y + size.y * (1 - series[c][i] / top)), col, 1.5f);
  }
  ImGui::Dummy(size);
  ImGui::TextDisabled("last %.1f of 5 min, top %.0f ants", double(chart.count) * kPopulationSampleTicks / 60.0 / 60.0,
                      double(top));
}

// While the debugger is open its column takes the display's right side and the HUD moves
// to the bottom left corner, whole: the top left is map, and a click there reaches the world.
void draw_hud(App& app) {
  Game& g = *app.game;
  if (app.debugger.open)
    ImGui::SetNextWindowPos(ImVec2(kHudMargin, ImGui::GetIO().DisplaySize.y - kHudMargin), ImGuiCond_Always,
                            ImVec2(0, 1));
  else ImGui::SetNextWindowPos(ImVec2(kHudMargin, kHudMargin), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.6f);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                           ImGuiWindowFlags_NoNav;
  ImGui::SetNextWindowSizeConstraints(ImVec2(kHudWidth, 0), ImVec2(kHudWidth, FLT_MAX));
  if (ImGui::Begin("##hud", nullptr, flags)) {
    // A world too big for the machine runs slower than its speed asks: the TPS says so, in
    // orange, against the rate asked for (the million map at 1x: about 25 of 60).
    if (app.ticks_fall_short) {
      ImGui::Text("FPS %.0f ", app.stats.fps);
      ImGui::SameLine(0, 0);
      ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), " TPS %.0f of %d ", app.stats.tps, kTicksPerSecond * app.speed);
      ImGui::SameLine(0, 0);
      ImGui::Text(" %dx", app.speed);
    } else {
      ImGui::Text("FPS %.0f  TPS %.0f  %dx%s", app.stats.fps, app.stats.tps, app.speed, app.paused ? "  PAUSED" : "");
    }
    // A re-simulated tick that differed from its live self is a bug, and says so here.
    if (!app.history.mismatch.empty()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.3f, 1), "ants %llu  tick %llu  REWIND MISMATCH",
                         (unsigned long long)ants_alive(g), (unsigned long long)g.tick);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", app.history.mismatch.c_str());
    } else if (rewound(app)) {
      ImGui::TextColored(ImVec4(1, 0.88f, 0.5f, 1), "ants %llu  tick %llu of %llu", (unsigned long long)ants_alive(g),
                         (unsigned long long)g.tick, (unsigned long long)live_tick(app));
    } else {
      ImGui::Text("ants %llu  tick %llu", (unsigned long long)ants_alive(g), (unsigned long long)g.tick);
    }
    // What the window simulates: the whole map as the scenario asks, or the view's region
    // under its cap (the rest of the map advances in the cheaper dormant model).
    if (simulates_whole_map(g)) ImGui::TextDisabled("whole map simulated");
    else ImGui::TextDisabled("simulated: the view, at most %.0fx%.0f cells", kMaxRegionCells, kMaxRegionCells);
    if (!app.session.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, kSessionColor);
      ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + hud_text_width());
      ImGui::TextUnformatted(app.session.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
    }
    // Which pools had no room is in the line's tooltip (and the Pools panel's "failed"
    // column): listed here it widened the HUD and moved the toolbar.
    if (g.spawn_refused) {
      ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "refused spawns %llu (?)", (unsigned long long)g.spawn_refused);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("refused for want of room in: %s", refusing_pools(g).c_str());
    } else ImGui::TextDisabled("refused spawns 0");
    // Compact, the Pools panel's first lines show it: the panel sits right below.
    if (g.refused_commands) {
      ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "refused commands %llu (?)", (unsigned long long)g.refused_commands);
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("one tick's commands may touch at most %.0f times the map's cells", kTickCommandCellsBudget);
    }
    draw_colony_table(g);
    draw_population_chart(app);
    ImGui::TextDisabled("build %.1f  submit %.1f ms wall clock", app.stats.build_ms, app.stats.submit_ms);
    if (app.trails_view)
      ImGui::TextColored(ImVec4(0.7f, 0.9f, 1, 1), "trails view (T)%s", app.hide_ants ? ", ants hidden (N)" : "");
    else if (app.overlay != Overlay::Off)
      ImGui::TextColored(ImVec4(0.7f, 0.9f, 1, 1), "overlay: %s", overlay_name(app.overlay));
    if (app.hide_ants && !app.trails_view) ImGui::TextColored(ImVec4(0.7f, 0.9f, 1, 1), "ants hidden (N)");
    ImGui::TextDisabled("F1 help  F3 debugger");
    hud_right = ImGui::GetWindowPos().x + ImGui::GetWindowWidth();
  }
  ImGui::End();
}

// [SECTION] Inspector

// The selected entity's summary, bottom left. The debugger's Entity inspector shows it all
// and more, and its Pool map panel sits there, so it stands in while it is open.
void draw_inspector(App& app) {
  Game& g = *app.game;
  if (app.selected.is_null() || (app.debugger.open && app.debugger.show_inspector)) return;
  const Record* r = g.ecs->find(app.selected);
  if (!r) return;
  const Body& b = r->payload;
  ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(8, io.DisplaySize.y - 8), ImGuiCond_Always, ImVec2(0, 1));
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoMove |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("##inspector", nullptr, flags)) {
    if (is_ant(b.kind))
      ImGui::TextColored(colony_imcolor(g, b.colony), "%s of colony %d", kind_name(b.kind), int(b.colony) + 1);
    else ImGui::TextUnformatted(kind_name(b.kind));
    ImGui::Text("entity %u (gen %u), %s", app.selected.index, app.selected.generation,
                r->header.tier == u8(ecs::Tier::Simulated) ? "simulated" : "dormant");
    if (is_ant(b.kind)) {
      ImGui::Text("%s, health %u, age %.0f s", activity_name(b), b.health, double(b.age) / kTicksPerSecond);
      ImGui::Text("legs %u, antennae %u%s", b.legs, b.antennae, b.carrying ? ", carrying food" : "");
    } else {
      ImGui::Text("amount %u", b.amount);
    }
    ImGui::Text("render pieces %u, volumes %u", unsigned(g.ecs->list<RenderPiece>(*r).added),
                unsigned(g.ecs->list<CollisionVolume>(*r).added));
    ImGui::Checkbox("follow (F)", &app.follow);
  }
  ImGui::End();
}

}  // namespace

// [SECTION] Banners (PAUSED, messages)

// Text on a dark rounded plate, centred on x at y on the foreground, wrapped to at most
// max_w pixels. Returns the plate's bottom.
static float draw_banner(const char* text, float centre_x, float y, float scale, ImU32 color, float max_w) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  ImFont* font = ImGui::GetFont();
  const float size_px = ImGui::GetFontSize() * scale;
  ImVec2 size = font->CalcTextSizeA(size_px, FLT_MAX, max_w, text);
  ImVec2 at(std::max(8.0f, centre_x - size.x * 0.5f), y);
  dl->AddRectFilled(ImVec2(at.x - 12, at.y - 6), ImVec2(at.x + size.x + 12, at.y + size.y + 6), IM_COL32(0, 0, 0, 170),
                    6);
  dl->AddText(font, size_px, at, color, text, nullptr, max_w);
  return at.y + size.y + 6;
}

// Under the toolbar: a large "PAUSED" while time stands still, then the last error and
// the last notice while they last. Messages come and go here, not in the HUD, so the HUD
// keeps its size and the toolbar beside it stays put. They keep to the map between the
// HUD and the screen's edge, or between the debugger's top panels when it is open, and
// wrap to that width; the help, opaque, hides them.
static void draw_banners(const App& app) {
  if (app.show_help) return;
  const float w = ImGui::GetIO().DisplaySize.x;
  float left = app.show_hud ? hud_right + 8 : 8, right = w - 8;
  if (app.debugger.open) {
    const FreeSpan free = debugger_free_span(app.debugger, w);
    left = std::max(left, free.left + 8), right = std::min(right, free.right - 8);
  }
  const float centre = 0.5f * (left + right), max_w = std::max(80.0f, right - left - 24);
  // Below the timeline, which sits right under the toolbar.
  float y = (app.show_hud ? std::max(toolbar_bottom(), 60.0f) + timeline_height() : 0.0f) + 12;
  if (rewound(app)) {
    const bool narrow = max_w < 520;
    y = draw_banner(narrow ? "REWOUND" : "REWOUND  (, . step  Space plays from here  End live)", centre, y,
                    narrow ? 1.2f : 1.4f, IM_COL32(255, 225, 130, 255), max_w) +
        12;
  } else if (app.paused) {
    const bool narrow = max_w < 420;
    y = draw_banner(narrow ? "PAUSED" : "PAUSED  (Space resumes, . steps)", centre, y, narrow ? 1.2f : 1.6f,
                    IM_COL32(255, 225, 130, 255), max_w) +
        12;
  }
  if (!app.history.mismatch.empty())
    y = draw_banner(("REWIND MISMATCH " + app.history.mismatch).c_str(), centre, y, 1.0f, kErrorColor, max_w) + 8;
  if (error_showing(app)) y = draw_banner(app.error.c_str(), centre, y, 1.0f, kErrorColor, max_w) + 8;
  if (notice_showing(app)) y = draw_banner(app.notice.c_str(), centre, y, 1.0f, kNoticeColor, max_w) + 8;
  if (app.seconds < app.fate_note_until && !app.fate_note.empty())
    draw_banner(app.fate_note.c_str(), centre, y, 1.0f,
                ImGui::ColorConvertFloat4ToU32(colony_imcolor(*app.game, app.fate_note_colony)), max_w);
}

float toolbar_bottom() { return toolbar_bottom_y; }
float hud_right_edge() { return hud_right; }

void draw_ui(App& app) {
  draw_help(app);
  draw_banners(app);
  if (!app.show_hud) return;
  draw_toolbar(app);
  draw_hud(app);
  draw_inspector(app);
}

// Where refusals found no room: the pools that refused a reservation (a spawn, food, a
// carried crumb), and the entity store if it refused an entity; since the world began, or
// in the last tick (whose refusals were the store's when no pool refused in it: the store
// keeps no count a tick).
std::string refusing_pools(const Game& g, bool last_tick) {
  std::string out;
  for (const ecs::PoolStats* p : g.ecs->all_stats())
    if ((last_tick ? p->tick : p->total).failed_reservations) out += (out.empty() ? "" : ", ") + std::string(p->name);
  if (last_tick ? out.empty() : g.ecs->failed_creates() > 0) out += (out.empty() ? "" : ", ") + std::string("entities");
  return out;
}

}  // namespace colony::render
