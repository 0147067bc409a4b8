// timeline.cpp — rewind in the window: restoring past ticks from the history, stepping,
// forking, back to live; and the timeline window along the bottom.
//
// Table of contents
//   [SECTION] Going to a tick
//   [SECTION] Requests
//   [SECTION] The timeline window
#include "timeline.h"

#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "app.h"
#include "hud.h"
#include "ui_text.h"

namespace colony::render {

namespace {
float drawn_height = 0;
TimelineBar drawn_bar;
}  // namespace

// [SECTION] Going to a tick

bool rewound(const App& app) { return app.live_game != nullptr; }
uint64_t live_tick(const App& app) { return rewound(app) ? app.live_game->tick : app.game->tick; }

void start_history(App& app) {
  app.live_game.reset();
  app.fork_asked = false;
  app.rewind_request = {};
  app.history = History{};
  if (app.config.history_off) return;
  HistorySettings settings;
  settings.max_bytes = app.config.history_bytes;
  std::string err;
  if (!history_start(app.history, *app.game, &err, settings)) show_error(app, "rewind history off: " + err);
}

namespace {

// Makes `g` (a past tick of the live world) the world shown: the terrain is drawn again, old
// explosions are not replayed, the debugger follows it with its plots cut at its tick.
void show_past(App& app, std::unique_ptr<Game> g) {
  if (!rewound(app)) app.live_game = std::move(app.game);
  app.game = std::move(g);
  app.paused = true;
  app.tick_debt = 0;
  reset_effects(app.effects, *app.game);
  // The blasts of the ticks stepped through from here explode as they did live.
  app.effects.next_tick = app.game->tick;
  debugger_show_past(app.debugger, *app.game, live_tick(app));
}

// With the debugger open, the theatre picks the release of the tick just re-simulated (the
// tick that ended at the tick shown), ready to step through move by move.
void show_release(App& app) {
  if (app.debugger.open && app.game->tick > 0)
    debugger_show_release_of_tick(app.debugger, *app.game, app.game->tick - 1);
}

bool mismatch(App& app, const std::string& err, std::string* out) {
  show_error(app, "rewind: " + err);
  if (out) *out = err;
  return false;
}

}  // namespace

bool rewind_to(App& app, uint64_t tick, std::string* err) {
  History& h = app.history;
  if (h.keyframes.empty()) {
    if (err) *err = "no history is kept";
    return false;
  }
  tick = std::clamp<uint64_t>(tick, h.first, h.last);
  if (tick == live_tick(app)) {
    back_to_live(app);
    return true;
  }
  // A few ticks forward from a past tick shown: re-simulated from there, not from a keyframe.
  if (rewound(app) && tick > app.game->tick && tick - app.game->tick <= h.interval) {
    while (app.game->tick < tick) {
      if (!history_step(h, *app.game))
        return mismatch(app, "re-simulation differs from live play at " + h.mismatch, err);
      take_blasts(app.effects, *app.game);
    }
    debugger_show_past(app.debugger, *app.game, live_tick(app));
    show_release(app);
    return true;
  }
  if (rewound(app) && tick == app.game->tick) return true;
  std::string why;
  std::unique_ptr<Game> g = history_restore(h, tick, &why, app.debugger.open);
  if (!g) return mismatch(app, why, err);
  show_past(app, std::move(g));
  show_release(app);
  return true;
}

bool step_back(App& app, std::string* err) {
  app.paused = true;
  const uint64_t now = app.game->tick;
  if (now <= app.history.first) {
    if (err) *err = "the history begins at tick " + std::to_string(app.history.first);
    return false;
  }
  return rewind_to(app, now - 1, err);
}

bool step_forward(App& app, std::string* err) {
  if (!rewound(app)) {
    app.paused = true;
    ++app.step_requests;  // the live world: an ordinary single tick
    return true;
  }
  return rewind_to(app, app.game->tick + 1, err);
}

void back_to_live(App& app) {
  if (!rewound(app)) return;
  app.game = std::move(app.live_game);
  app.fork_asked = false;
  app.paused = true;  // the present as it was left, until play goes on
  reset_effects(app.effects, *app.game);
  debugger_show_live(app.debugger, *app.game);
}

bool fork_here(App& app, std::string* err) {
  app.fork_asked = false;
  if (!rewound(app)) return true;
  if (!app.fork_refused_because.empty()) {
    if (err) *err = "playing on from a past tick is off " + app.fork_refused_because;
    return false;
  }
  history_cut_after(app.history, *app.game);
  if (app.on_fork) app.on_fork(*app.game);
  app.live_game.reset();
  debugger_fork(app.debugger);
  app.paused = false;
  app.tick_debt = 0;
  return true;
}

// [SECTION] Requests

void serve_rewind_request(App& app) {
  const RewindRequest r = app.rewind_request;
  app.rewind_request = {};
  std::string err;
  switch (r.kind) {
    case RewindRequest::ToTick: rewind_to(app, r.tick, &err); break;
    case RewindRequest::Live: back_to_live(app); break;
    case RewindRequest::Fork:
      if (!fork_here(app, &err)) show_error(app, err);
      break;
    default: break;
  }
}

// [SECTION] The timeline window

namespace {

ImU32 marker_color(MarkerKind k) {
  switch (k) {
    case MarkerKind::Bomb: return IM_COL32(255, 90, 60, 255);
    case MarkerKind::Fire: return IM_COL32(255, 170, 40, 255);
    case MarkerKind::Spawn: return IM_COL32(120, 230, 110, 255);
    case MarkerKind::Release: return IM_COL32(200, 120, 255, 255);
    default: return IM_COL32(255, 255, 255, 255);
  }
}

// The bar: the history from its first tick (left) to the live tick (right), keyframes as
// short ticks along its foot, markers as coloured strokes along its head (mass releases
// below them), the tick shown as a white line; the recorded future right of it is shaded
// while rewound. Pressing or dragging on it asks for the tick under the pointer.
void draw_bar(App& app, float width) {
  const History& h = app.history;
  const float bar_h = 26;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##timeline_bar", ImVec2(width, bar_h));
  drawn_bar = {p0.x, p0.y, width, bar_h};
  const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + width, p0.y + bar_h);
  dl->AddRectFilled(p0, p1, IM_COL32(40, 38, 34, 230), 3);
  const double span = double(std::max<uint64_t>(1, h.last - h.first));
  auto x_of = [&](uint64_t t) { return p0.x + float(double(t - std::min(t, h.first)) / span) * width; };
  const uint64_t shown = app.game->tick;
  if (rewound(app)) dl->AddRectFilled(ImVec2(x_of(shown), p0.y), p1, IM_COL32(90, 90, 110, 120), 3);
  for (const Keyframe& k : h.keyframes)
    dl->AddLine(ImVec2(x_of(k.tick), p1.y - 5), ImVec2(x_of(k.tick), p1.y), IM_COL32(150, 150, 150, 200));
  for (const Marker& m : h.markers) {
    const float x = x_of(m.tick);
    const bool release = m.kind == MarkerKind::Release;
    dl->AddLine(ImVec2(x, release ? p0.y + 12 : p0.y + 1), ImVec2(x, release ? p1.y - 6 : p0.y + 12),
                marker_color(m.kind), 2);
  }
  const float sx = x_of(shown);
  dl->AddLine(ImVec2(sx, p0.y - 2), ImVec2(sx, p1.y + 2), IM_COL32(255, 255, 255, 255), 2);
  const float mx = ImGui::GetIO().MousePos.x;
  const uint64_t under =
      h.first + uint64_t(std::clamp((mx - p0.x) / std::max(1.f, width), 0.f, 1.f) * float(span) + 0.5f);
  if (hovered && !active) {
    // The markers within a few pixels of the pointer, by kind.
    std::string near;
    for (const Marker& m : h.markers) {
      if (std::abs(x_of(m.tick) - mx) > 4) continue;
      char line[96];
      std::snprintf(line, sizeof line, "%stick %" PRIu64 ": %s x%u", near.empty() ? "" : "\n", m.tick,
                    marker_kind_name(m.kind), m.count);
      if (near.size() < 600) near += line;
    }
    ImGui::SetTooltip("tick %" PRIu64 " (%.1f s ago)%s%s", under,
                      double(live_tick(app) - std::min(under, live_tick(app))) / kTicksPerSecond,
                      near.empty() ? "" : "\n", near.c_str());
  }
  if (active && under != shown) app.rewind_request = {RewindRequest::ToTick, under};
}

void draw_fork_question(App& app) {
  if (app.fork_asked && !ImGui::IsPopupOpen("Play from here?")) ImGui::OpenPopup("Play from here?");
  if (!ImGui::BeginPopupModal("Play from here?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const uint64_t from = app.game->tick, lost = live_tick(app) - from;
  ImGui::Text("Playing on from tick %" PRIu64 " drops the recorded future:", from);
  ImGui::Text("the %" PRIu64 " ticks (%.1f s) after it, up to tick %" PRIu64 ".", lost, double(lost) / kTicksPerSecond,
              live_tick(app));
  if (app.on_fork) ImGui::TextUnformatted("The recording drops them too and goes on from here.");
  if (ImGui::Button("Play from here")) {
    app.rewind_request = {RewindRequest::Fork, from};
    app.fork_asked = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::SameLine();
  if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
    app.fork_asked = false;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

}  // namespace

float timeline_height() { return drawn_height; }
TimelineBar timeline_bar() { return drawn_bar; }

void draw_timeline(App& app) {
  drawn_height = 0;
  const History& h = app.history;
  if (h.keyframes.empty()) return;
  // Shown while time stands still (paused, or a past tick) and while a mismatch stands: in
  // play the map keeps its whole view (`,` goes back from play too).
  if (!app.paused && !rewound(app) && h.mismatch.empty()) {
    draw_fork_question(app);
    return;
  }
  // Under the toolbar, over the map between the HUD and the screen's edge (between the
  // debugger's top panels when it is open), where the banners go below it.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  float left = hud_right_edge() + 8, right = display.x - 8;
  if (app.debugger.open) {
    const FreeSpan free = debugger_free_span(app.debugger, display.x);
    left = std::max(left, free.left + 8), right = std::min(right, free.right - 8);
  }
  const float width = std::max(240.f, right - left);
  ImGui::SetNextWindowPos(ImVec2(left, toolbar_bottom() + 6), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.75f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("Timeline", nullptr, flags)) {
    std::string err;
    if (ImGui::Button("<|"))
      app.rewind_request = {RewindRequest::ToTick, app.game->tick > h.first ? app.game->tick - 1 : h.first};
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("one tick back (,)");
    ImGui::SameLine();
    if (ImGui::Button("|>")) {
      if (rewound(app)) app.rewind_request = {RewindRequest::ToTick, app.game->tick + 1};
      else app.paused = true, ++app.step_requests;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("one tick forward (.)");
    ImGui::SameLine();
    if (rewound(app)) {
      ImGui::BeginDisabled(!app.fork_refused_because.empty());
      if (ImGui::Button("Play from here")) app.fork_asked = true;
      ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s", app.fork_refused_because.empty()
                                    ? "Space: play on from this tick (drops the recorded future)"
                                    : ("off " + app.fork_refused_because).c_str());
      ImGui::SameLine();
      if (ImGui::Button("Back to live")) app.rewind_request = {RewindRequest::Live, 0};
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("End: the present, without forking");
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(1, 0.88f, 0.5f, 1), "tick %" PRIu64 " (-%.2f s)", app.game->tick,
                         double(live_tick(app) - app.game->tick) / kTicksPerSecond);
    } else {
      ImGui::TextDisabled("live: drag the bar or press , to go back");
    }
    draw_bar(app, ImGui::GetContentRegionAvail().x);
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("%.1f s held (ticks %" PRIu64 "-%" PRIu64
                        "), %s of %s (+ %s working); %zu keyframes every %u ticks%s, the slowest "
                        "took %.1f ms CPU in its tick",
                        history_seconds(h), h.first, h.last, size_text(double(history_bytes(h))).c_str(),
                        size_text(double(h.max_bytes)).c_str(), size_text(double(history_working_bytes(h))).c_str(),
                        h.keyframes.size(), h.interval, h.thinned ? " (old ones thinned)" : "", h.slowest_keyframe_ms);
    ImGui::PopTextWrapPos();
    if (!h.mismatch.empty())
      text_wrapped_colored(ImVec4(1, 0.45f, 0.35f, 1), "REWIND MISMATCH: %s", h.mismatch.c_str());
    drawn_height = ImGui::GetWindowHeight();
  }
  ImGui::End();
  draw_fork_question(app);
}

}  // namespace colony::render
