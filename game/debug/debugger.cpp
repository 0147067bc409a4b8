// debugger.cpp — the pool debugger's windows, drawn with Dear ImGui into the window's
// frame. Every number shown comes from a gather_* function (debug_data.h); every change
// to the world goes through queue_command().
//
// Table of contents
//   [SECTION] Small helpers (series, colours, layout, random spots)
//   [SECTION] Stress actions
//   [SECTION] Init, key, after-tick (history, validator, auto-bomb)
//   [SECTION] Pools window
//   [SECTION] Pool map window
//   [SECTION] Entity inspector window
//   [SECTION] Chunks window
//   [SECTION] Frame window
//   [SECTION] Stress window
//   [SECTION] draw_debugger
#include "debugger.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "debug_check.h"
#include "game.h"
#include "stopwatch.h"
#include "ui_text.h"

namespace colony {

// [SECTION] Small helpers

void Series::push(double v) {
  if (values.empty()) return;
  values[size_t(head)] = v;
  head = (head + 1) % int(values.size());
  if (count < int(values.size())) ++count;
}
double Series::last() const {
  if (count == 0) return 0;
  return values[size_t((head + int(values.size()) - 1) % int(values.size()))];
}
double Series::max() const {
  double m = 0;
  for (double v : values) m = std::max(m, v);
  return m;
}

PlotRange plot_range(const Series& s, bool from_zero) {
  double lo = 0, hi = 0;
  for (int i = 0; i < s.count; ++i) {
    double v = s.values[size_t(i)];
    if (i == 0 || v < lo) lo = v;
    if (i == 0 || v > hi) hi = v;
  }
  if (from_zero) lo = 0;
  // Scaled to the samples themselves: a floor of one unit would flatten every time below
  // 1 ms (a bomb's 0.08 ms release would be a 2-pixel bump).
  double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::abs(hi) * 0.05, 1e-3);
  return {from_zero ? 0.0 : lo - pad, hi + pad};
}

void plot_points(const Series& s, int width, bool peaks, double origin, std::vector<float>& out) {
  const int n = std::max(1, s.count), ring = int(s.values.size());
  const int first = s.count == ring ? s.head : 0;  // the oldest sample
  const int w = std::clamp(width, 1, n);
  out.assign(size_t(w), 0.0f);
  if (ring == 0) return;
  for (int p = 0; p < w; ++p) {
    int a = int(int64_t(p) * n / w), b = std::max(a + 1, int(int64_t(p + 1) * n / w));
    double v = s.values[size_t((first + a) % ring)];
    for (int i = a + 1; i < b; ++i) {
      double x = s.values[size_t((first + i) % ring)];
      v = peaks ? std::max(v, x) : std::min(v, x);
    }
    out[size_t(p)] = float(v - origin);
  }
}

namespace {

void size_series(Series& s, int n) {
  s.values.assign(size_t(n), 0.0);
  s.head = s.count = 0;
}

// A series as a line plot, oldest sample left, scaled from zero to its maximum.
// Until the ring has wrapped only the samples taken so far are drawn. Levels (taken, ants
// alive) are scaled to the range they span, so a mass death is a cliff even in a big pool;
// rates and times are drawn from zero.
enum class Scale { FromZero, Span };
void plot_series(const char* label, const Series& s, const char* overlay, float height, Scale scale = Scale::FromZero) {
  if (s.values.empty()) return;
  const PlotRange range = plot_range(s, scale == Scale::FromZero);
  const float width = ImGui::GetContentRegionAvail().x;
  static std::vector<float> points;  // reused: the debugger draws on one thread
  plot_points(s, int(width), scale == Scale::FromZero, range.bottom, points);
  ImGui::PlotLines(label, points.data(), int(points.size()), 0, overlay, 0.0f, float(range.top - range.bottom),
                   ImVec2(width, height));
  // The points are drawn from the plot's bottom: Dear ImGui's own tooltip would show them
  // so. This one, over it, names the same two points (its arithmetic) in the series' units.
  if (ImGui::IsItemHovered() && points.size() >= 2) {
    const ImVec2 pad = ImGui::GetStyle().FramePadding;
    const float left = ImGui::GetItemRectMin().x + pad.x, right = ImGui::GetItemRectMax().x - pad.x;
    const float t = std::clamp((ImGui::GetIO().MousePos.x - left) / std::max(1.0f, right - left), 0.0f, 0.9999f);
    const int i = int(t * float(points.size() - 1));
    // A count (taken, ants alive) whole, a time to four digits.
    char a[32], b[32];
    auto show = [&](char* out, float point) {
      const double v = double(point) + range.bottom;
      std::snprintf(out, 32, std::abs(v - std::round(v)) < 1e-3 ? "%.0f" : "%.4g", v);
    };
    show(a, points[size_t(i)]), show(b, points[size_t(i) + 1]);
    ImGui::SetTooltip("%d: %s\n%d: %s", i, a, i + 1, b);
  }
}

// The debugger's column, docked to the display's right edge: 40 % of the width, but at
// least the Pools panel's lines; the map keeps the rest (the HUD moves to the bottom left).
float column_width(float display_w) { return std::min(display_w, std::max(340.0f, 0.4f * display_w)); }

struct Rect {
  float x, y, w, h;
};

// Places the next window the first time it appears and again whenever the display's size
// changes (dbg.place_again); in between ImGui remembers where the player put it.
void place_next(const Debugger& dbg, Rect r) {
  ImGuiCond cond = dbg.place_again ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), cond);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), cond);
}

unsigned long long next_random(unsigned long long& s) {
  // splitmix64: the debugger's own stream; it only chooses where commands aim.
  unsigned long long z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
float random_unit(unsigned long long& s) { return float(next_random(s) >> 40) / float(1ull << 24); }

// The simulation region in cells, clipped to the map (so that a region reaching past its
// edge is not outlined past the chunk map, under the legend); the whole map when the
// world has none.
struct CellRect {
  float x, y, w, h;
};
CellRect sim_region(const Game& g) {
  if (g.region_w <= 0 || g.region_h <= 0) return {0, 0, float(g.width), float(g.height)};
  return {g.region_x, g.region_y, std::min(g.region_w, float(g.width) - g.region_x),
          std::min(g.region_h, float(g.height) - g.region_y)};
}

// Picks up to k positions of random simulated ants (reservoir sampling), so that stress
// bombs land where they kill; falls back to random points of the simulation region.
std::vector<ImVec2> random_ant_spots(Debugger& dbg, Game& g, int k) {
  std::vector<ImVec2> spots;
  if (k <= 0) return spots;
  unsigned long long seen = 0;
  g.ecs->for_each_simulated([&](Record& r) {
    if (!is_ant(r.payload.kind) || g.ecs->dying(r.header.handle)) return;
    ++seen;
    ImVec2 p(r.payload.x, r.payload.y);
    if (spots.size() < size_t(k)) spots.push_back(p);
    else if (unsigned long long j = next_random(dbg.rng) % seen; j < (unsigned long long)k) spots[size_t(j)] = p;
  });
  const CellRect r = sim_region(g);
  while (spots.size() < size_t(k))
    spots.push_back(ImVec2(r.x + random_unit(dbg.rng) * r.w, r.y + random_unit(dbg.rng) * r.h));
  return spots;
}

// A titled separator (ImGui 1.86 has no SeparatorText).
void section_title(const char* title) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", title);
  ImGui::Separator();
}

void select_entity(Debugger& dbg, DebugLink& link, Handle h) {
  dbg.selected = h;
  dbg.link_seen = h;
  link.selected = h;
}

ImU32 heat_color(float t, bool simulated) {
  // Simulated chunks: dark red to yellow; dormant chunks: dark blue to cyan.
  t = std::clamp(t, 0.0f, 1.0f);
  int a = int(40 + 215 * t), b = int(20 + 200 * t * t);
  return simulated ? IM_COL32(a, b, 20, 255) : IM_COL32(20, b, a, 255);
}

const char* tier_name(ecs::Tier t) {
  switch (t) {
    case ecs::Tier::Simulated: return "simulated";
    case ecs::Tier::Dormant: return "dormant";
    case ecs::Tier::Free: break;
  }
  return "free";
}

}  // namespace

// [SECTION] Stress actions

void queue_random_bombs(Debugger& dbg, Game& g) {
  for (ImVec2 p : random_ant_spots(dbg, g, dbg.bomb_count)) {
    Command c;
    c.kind = CommandKind::Bomb;
    c.x = p.x;
    c.y = p.y;
    c.radius = dbg.bomb_radius;
    if (!queue_command(g, c)) break;  // the tick's budget is spent: the rest would be refused too
  }
}

void queue_spawn(Debugger& dbg, Game& g) {
  if (g.colonies.empty()) return;
  dbg.spawn_colony = std::clamp(dbg.spawn_colony, 0, int(g.colonies.size()) - 1);
  const Colony& col = g.colonies[size_t(dbg.spawn_colony)];
  Command c;
  c.kind = CommandKind::SpawnAnts;
  c.colony = u8(dbg.spawn_colony);
  c.caste = dbg.spawn_caste == 1 ? Kind::Soldier : Kind::Worker;
  c.count = u32(std::max(0, dbg.spawn_count));
  c.x = col.nest_x;
  c.y = col.nest_y;
  c.radius = 10;
  queue_command(g, c);
}

void queue_random_kill(Debugger& dbg, Game& g) {
  Command c;
  c.kind = CommandKind::KillPercent;
  c.count = u32(std::clamp(dbg.kill_percent, 0, 100));
  queue_command(g, c);
}

// [SECTION] Init, key, after-tick

void debug_check_failed(const char* expr, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, expr);
  std::abort();
}

void debugger_init(Debugger& dbg, bool open) {
  dbg = Debugger{};
  dbg.open = open;
  for (auto& s : dbg.taken_history) size_series(s, kHistoryTicks);
  for (auto& s : dbg.removes_history) size_series(s, kHistoryTicks);
  size_series(dbg.alive_history, kHistoryTicks);
  for (auto& s : dbg.system_history) size_series(s, kHistoryFrames);
  for (Series* s : {&dbg.build_history, &dbg.submit_history, &dbg.ui_history, &dbg.fps_history, &dbg.tps_history,
                    &dbg.rss_history, &dbg.present_history, &dbg.sim_history, &dbg.wait_history, &dbg.ticks_history})
    size_series(*s, kHistoryFrames);
}

bool debugger_handle_key(Debugger& dbg, const SDL_Event& e) {
  if (e.type != SDL_KEYDOWN || e.key.keysym.sym != SDLK_F3) return false;
  if (e.key.repeat) return true;
  dbg.open = !dbg.open;
  // Opening brings back every window the player closed.
  if (dbg.open)
    dbg.show_pools = dbg.show_pool_map = dbg.show_inspector = dbg.show_chunks = dbg.show_frame = dbg.show_stress = true;
  return true;
}

// Runs the validator now; records the first violation and asks for a pause if wanted.
void debugger_validate(Debugger& dbg, Game& g) {
  const double t0 = ecs::thread_cpu_ms();
  u64 total = 0;
  std::vector<ecs::Violation> found = g.ecs->validate(16, &total);
  dbg.validate_ms = ecs::thread_cpu_ms() - t0;
  ++dbg.validated_ticks;
  if (found.empty()) return;
  dbg.violation_count += total;  // all of them: the list stops at 16 and a line saying how many more
  ++dbg.violating_ticks;
  if (dbg.first_violation.empty()) {
    dbg.first_violation = ecs::describe(found.front());
    dbg.first_violation_tick = g.tick;
  }
  if (dbg.pause_on_violation) dbg.pause_pending = true;
}

namespace {

// Forgets everything that belongs to the previous world; keeps the settings and windows.
// The theatre's serials name releases of one world's journal, and the last kill shown is
// one of that world's: another world forgets them, its journal looked at up to `seen`.
void forget_releases(Debugger& dbg, unsigned long long seen) {
  dbg.replay = ReleaseReplay{};
  dbg.what_if = WhatIf{};
  dbg.playing = false;
  dbg.theatre_seen = seen;
  dbg.release_seen = false;
}

void notice_world(Debugger& dbg, const Game& g) {
  const void* world = g.ecs.get();
  bool changed = world != dbg.world_seen || g.tick < dbg.last_tick;
  dbg.last_tick = g.tick;
  if (!changed) return;
  bool first = dbg.world_seen == nullptr;
  dbg.world_seen = world;
  if (first) return;
  for (auto* group : {&dbg.taken_history, &dbg.removes_history})
    for (Series& s : *group) size_series(s, kHistoryTicks);
  size_series(dbg.alive_history, kHistoryTicks);
  for (Series& s : dbg.system_history) size_series(s, kHistoryFrames);  // another world's system times
  dbg.tick_system_max.fill(0);
  dbg.ticks_since_draw = 0;
  dbg.selected = Handle{};
  dbg.clear_link_selection = true;  // a handle of the old world may name another entity here
  dbg.map_hover = PoolMapHit{};
  dbg.map_cells.clear();
  dbg.map_cells_pool = -1;
  dbg.map_prev_owner.clear();
  dbg.map_flash.clear();
  dbg.chunk_data = ChunkMapData{};
  dbg.validated_ticks = dbg.violation_count = dbg.violating_ticks = dbg.cost_samples = 0;
  dbg.first_violation.clear();
  dbg.auto_bomb_next_tick = 0;
  forget_releases(dbg, 0);
}

}  // namespace

namespace {

// A release the theatre picks by itself as it happens: a kill the player caused or saw
// (a bomb, fire, kill %) or any batch of ten or more, never a single remove.
bool worth_showing(const ColonyEcs::JournalRelease& r) {
  if (r.path == ecs::ReleasePath::RemoveOne || r.victims == 0) return false;
  const u32 loud = release_cause_bit(DeathCause::Explosion) | release_cause_bit(DeathCause::Fire) |
                   release_cause_bit(DeathCause::Culled);
  return (r.cause & loud) || r.victims >= 10;
}

// The releases journaled since the last look: the tick's kill and its `destroy` time for
// the Pools panel, and (theatre_follow) the newest worth showing picked and played.
void notice_releases(Debugger& dbg, const Game& g) {
  const auto& j = g.ecs->journal();
  const unsigned long long count = j.release_count();
  unsigned long long pick = ~0ull;
  for (unsigned long long s =
           std::max(dbg.theatre_seen, count > j.release_capacity() ? count - j.release_capacity() : 0);
       s < count; ++s) {
    const ColonyEcs::JournalRelease* r = j.release(s);
    if (!r || r->path == ecs::ReleasePath::RemoveOne || r->victims == 0) continue;
    if (r->tick + 1 == g.tick) {
      dbg.release_seen = true;
      dbg.release_tick = r->tick;
      dbg.release_destroy_ms = g.times.last_ms[SystemTimes::Destroy];
      dbg.release_victims = r->victims;
    }
    if (worth_showing(*r)) pick = s;
  }
  dbg.theatre_seen = count;
  // A replay playing is not cut short by a smaller kill (the fire a bomb starts).
  if (pick == ~0ull || !dbg.theatre_follow) return;
  if (dbg.playing && dbg.replay.loaded && j.release(pick)->victims <= dbg.replay.victims.size()) return;
  debugger_pick_release(dbg, g, pick, true);
}

}  // namespace

bool debugger_pick_release(Debugger& dbg, const Game& g, unsigned long long serial, bool play) {
  const ColonyEcs::JournalRelease* r = g.ecs->journal().release(serial);
  if (!r) return false;
  int pool = dbg.map_pool;
  if (r->pools[size_t(pool)].path == ecs::ReleasePath::None)
    for (int i = 0; i < kMaxPools; ++i)
      if (r->pools[size_t(i)].path != ecs::ReleasePath::None) {
        pool = i;
        break;
      }
  if (!load_replay(dbg.replay, *g.ecs, serial, pool)) return false;
  dbg.map_pool = pool;
  dbg.theatre = true;
  dbg.playing = play;
  dbg.play_due = 0;
  dbg.what_if = WhatIf{};
  // About eight seconds for the whole release, at least a move a second.
  dbg.moves_per_second =
      std::clamp(float(dbg.replay.steps.size()) / 8.0f, 1.0f, std::max(1.0f, float(dbg.replay.steps.size())));
  return true;
}

bool debugger_show_release_of_tick(Debugger& dbg, const Game& g, unsigned long long tick) {
  const auto& j = g.ecs->journal();
  unsigned long long best = ~0ull;
  unsigned best_victims = 0;
  bool best_is_kill = false;
  for (unsigned long long s = j.release_count(); s-- > 0;) {
    const ColonyEcs::JournalRelease* r = j.release(s);
    if (!r) break;
    if (r->tick != tick) continue;
    const bool kill = r->path != ecs::ReleasePath::RemoveOne;
    if (best == ~0ull || (kill && !best_is_kill) || (kill == best_is_kill && r->victims > best_victims))
      best = s, best_victims = r->victims, best_is_kill = kill;
  }
  if (best == ~0ull) return false;
  dbg.theatre_follow = false;  // the player asked for this one: new kills do not replace it
  dbg.show_pool_map = true;
  return debugger_pick_release(dbg, g, best, false);
}

void debugger_after_tick(Debugger& dbg, Game& g) {
  if (!g.ecs) return;
  notice_world(dbg, g);
  ++dbg.ticks_seen;
  PoolPanelData pools = gather_pool_panel(*g.ecs);
  for (size_t i = 0; i < pools.pools.size() && i < dbg.taken_history.size(); ++i) {
    dbg.taken_history[i].push(double(pools.pools[i].taken));
    dbg.removes_history[i].push(double(pools.pools[i].tick.removes));
  }
  dbg.alive_history.push(double(ants_alive(g)));
  for (int i = 0; i < int(SystemTimes::Count) && i < kMaxSystems; ++i)
    dbg.tick_system_max[size_t(i)] = std::max(dbg.tick_system_max[size_t(i)], float(g.times.last_ms[size_t(i)]));
  ++dbg.ticks_since_draw;
  notice_releases(dbg, g);
  if (dbg.validate_every_tick) {
    debugger_validate(dbg, g);
    double tick_ms = 0;
    for (double ms : g.times.last_ms) tick_ms += ms;
    const double w = dbg.cost_samples == 0 ? 1 : kValidateMeanWeight;
    dbg.validate_mean_ms += (dbg.validate_ms - dbg.validate_mean_ms) * w;
    dbg.tick_mean_ms += (tick_ms - dbg.tick_mean_ms) * w;
    ++dbg.cost_samples;
  }
  if (dbg.auto_bomb && !dbg.commands_off && g.tick >= dbg.auto_bomb_next_tick) {
    queue_random_bombs(dbg, g);
    dbg.auto_bomb_next_tick =
        g.tick + (unsigned long long)std::max(1.0f, dbg.auto_bomb_seconds * float(kTicksPerSecond));
  }
}

ValidatorCost validator_cost(const Debugger& dbg) {
  ValidatorCost c;
  if (dbg.cost_samples == 0) return c;
  c.validate_ms = dbg.validate_mean_ms, c.tick_ms = dbg.tick_mean_ms;
  const double per_tick = c.validate_ms + c.tick_ms;
  c.max_tps = per_tick > 0 ? 1000 / per_tick : 0;
  return c;
}

std::string validator_cost_text(const Debugger& dbg) {
  const ValidatorCost c = validator_cost(dbg);
  if (dbg.cost_samples == 0) return "";
  char line[200];
  std::snprintf(line, sizeof line,
                "validating costs %.2f ms a tick (thread CPU clock), the tick itself %.2f ms: at most %.0f "
                "ticks/s",
                c.validate_ms, c.tick_ms, c.max_tps);
  return line;
}

Series cut_series(const Series& s, int n) {
  Series out;
  size_series(out, int(s.values.size()));
  const int ring = int(s.values.size()), keep = std::max(0, s.count - std::max(0, n));
  const int first = s.count == ring ? s.head : 0;  // the oldest sample
  for (int i = 0; i < keep; ++i) out.push(s.values[size_t((first + i) % ring)]);
  return out;
}

namespace {

// The panels follow `game` as the world they know (no forgetting: it is the same world at
// another tick); the chunk counts and pool map cells are gathered again at once.
void adopt_world(Debugger& dbg, const Game& game) {
  dbg.world_seen = game.ecs.get();
  dbg.last_tick = game.tick;
  forget_releases(dbg, game.ecs->journal().release_count());
  dbg.chunk_data = ChunkMapData{};
  dbg.map_cells.clear();
  dbg.map_cells_pool = -1;
  dbg.tick_system_max.fill(0);
  dbg.ticks_since_draw = 0;
}

void plots_from(Debugger& dbg, const Debugger::TickPlots& p, int cut) {
  for (size_t i = 0; i < dbg.taken_history.size(); ++i) {
    dbg.taken_history[i] = cut_series(p.taken[i], cut);
    dbg.removes_history[i] = cut_series(p.removes[i], cut);
  }
  dbg.alive_history = cut_series(p.alive, cut);
}

}  // namespace

void debugger_show_past(Debugger& dbg, const Game& game, unsigned long long live_tick) {
  if (!dbg.holding_live_plots) {
    dbg.live_plots.taken = dbg.taken_history;
    dbg.live_plots.removes = dbg.removes_history;
    dbg.live_plots.alive = dbg.alive_history;
    dbg.live_plots_tick = live_tick;
    dbg.holding_live_plots = true;
  }
  const unsigned long long back = dbg.live_plots_tick - std::min<unsigned long long>(game.tick, dbg.live_plots_tick);
  plots_from(dbg, dbg.live_plots, int(std::min<unsigned long long>(back, 1u << 30)));
  adopt_world(dbg, game);
}

void debugger_show_live(Debugger& dbg, const Game& live) {
  if (dbg.holding_live_plots) plots_from(dbg, dbg.live_plots, 0);
  dbg.holding_live_plots = false;
  adopt_world(dbg, live);
}

void debugger_fork(Debugger& dbg) {
  dbg.holding_live_plots = false;
  dbg.live_plots = Debugger::TickPlots{};
}

Handle debugger_highlight(const Debugger& dbg, const Game& game) {
  if (game.ecs.get() != dbg.world_seen) return {};
  if (dbg.open && dbg.show_pool_map && dbg.map_hover.valid) return dbg.map_hover.owner;
  return dbg.selected;
}

// [SECTION] Pools window

namespace {

void draw_counters_table(const PoolPanelRow& row) {
  if (!ImGui::BeginTable("counters", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) return;
  for (const char* h : {"", "reserves", "adds", "removes", "rewires", "failed"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  auto line = [](const char* label, const ecs::PoolCounters& c) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    for (unsigned long long v : {c.reserves, c.adds, c.removes, c.rewires, c.failed_reservations}) {
      ImGui::TableNextColumn();
      ImGui::Text("%llu", v);
    }
  };
  line("tick", row.tick);
  line("total", row.total);
  ImGui::EndTable();
}

// Bar of taken over capacity with the high-water mark drawn as a tick on it.
void draw_fill_bar(const PoolPanelRow& row) {
  float frac = row.capacity ? float(row.taken) / float(row.capacity) : 0.0f;
  char overlay[96];
  std::snprintf(overlay, sizeof overlay, "taken %u / %u (%.1f%%)", row.taken, row.capacity, 100.0f * frac);
  // A narrow panel keeps the numbers (ImGui clips an overlay wider than its bar).
  if (ImGui::CalcTextSize(overlay).x + 2 * ImGui::GetStyle().FramePadding.x > ImGui::GetContentRegionAvail().x)
    std::snprintf(overlay, sizeof overlay, "%u / %u", row.taken, row.capacity);
  ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::ProgressBar(frac, ImVec2(-FLT_MIN, 0), overlay);
  ImVec2 size = ImGui::GetItemRectSize();
  float hw = row.capacity ? float(row.high_water) / float(row.capacity) : 0.0f;
  float x = p.x + hw * size.x;
  ImGui::GetWindowDrawList()->AddLine(ImVec2(x, p.y), ImVec2(x, p.y + size.y), IM_COL32(255, 80, 80, 255), 2.0f);
}

void draw_pool_row(Debugger& dbg, size_t i, const PoolPanelRow& row) {
  ImGui::PushID(int(i));
  if (ImGui::CollapsingHeader(row.name.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) {
    draw_fill_bar(row);
    ImGui::Text("high-water %u (red)  owners %u  max %u", row.high_water, row.owners, row.max_per_entity);
    ImGui::TextWrapped("reserved unused %llu slots = %.1f KiB slack (%llu B each)", row.reserved_unused,
                       double(row.slack_bytes) / 1024.0, row.component_bytes);
    // What a fixed array of max_per_entity per owner would hold instead of `taken`.
    text_wrapped_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                         "fixed-max arrays: %llu slots (%.1fx), pool %.1f MiB", row.fixed_max_slots,
                         row.taken ? double(row.fixed_max_slots) / double(row.taken) : 0.0,
                         double(row.pool_bytes) / (1024.0 * 1024.0));
    draw_counters_table(row);
    char overlay[64];
    // Over the ticks seen so far (none right after a load: the numbers are the pool's now).
    const int seen = dbg.taken_history[i].count;
    if (seen) std::snprintf(overlay, sizeof overlay, "taken over %d ticks: %u", seen, row.taken);
    else std::snprintf(overlay, sizeof overlay, "taken %u (no tick yet)", row.taken);
    plot_series("##taken", dbg.taken_history[i], overlay, 56, Scale::Span);
    if (seen) std::snprintf(overlay, sizeof overlay, "removes per tick: %.0f", dbg.removes_history[i].last());
    else std::snprintf(overlay, sizeof overlay, "removes per tick: no tick yet");
    plot_series("##removes", dbg.removes_history[i], overlay, 32);
    // Owners by component count: tiles at 1, workers at 11-12, queens near 30.
    // Log scale, so 12 queens show next to a million tiles; the tooltip has exact numbers.
    std::vector<float> hist(row.histogram.size());
    for (size_t k = 0; k < hist.size(); ++k) hist[k] = std::log1p(float(row.histogram[k]));
    unsigned peak = 0;
    for (size_t k = 1; k < row.histogram.size(); ++k)
      if (row.histogram[k] > row.histogram[peak]) peak = unsigned(k);
    std::snprintf(overlay, sizeof overlay, "owners by count 0..%u, log (most at %u)", row.max_per_entity, peak);
    ImGui::PlotHistogram("##hist", hist.data(), int(hist.size()), 0, overlay, 0.0f, FLT_MAX,
                         ImVec2(ImGui::GetContentRegionAvail().x, 48));
    if (ImGui::IsItemHovered()) {
      // Which bucket is under the mouse.
      float rel = (ImGui::GetIO().MousePos.x - ImGui::GetItemRectMin().x) / std::max(1.0f, ImGui::GetItemRectSize().x);
      int k = std::clamp(int(rel * float(hist.size())), 0, int(hist.size()) - 1);
      ImGui::SetTooltip("%d components: %u owners", k, row.histogram[size_t(k)]);
    }
  }
  ImGui::PopID();
}

// The latest batched release: how many died and how long each pass took. A bomb's shows
// here as it goes off; a batch that goes one at a time (a small one, or any in a small
// world: the line above it says which) is not timed. Whole microseconds: ImGui may wrap a
// line after a decimal point.
void draw_last_release(const Debugger& dbg, const PoolPanelData& d) {
  const double mib = 1.0 / (1024.0 * 1024.0);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  if (d.small_world)
    ImGui::TextWrapped("release footprint %.1f MiB, at most %.1f: every kill goes one at a time",
                       double(d.release_footprint) * mib, double(d.small_world_bytes) * mib);
  else
    ImGui::TextWrapped("release footprint %.1f MiB: a kill of over %u takes the batch passes",
                       double(d.release_footprint) * mib, d.swap_release_max);
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("live directory rows and taken pool entries: what a release may touch");
  if (dbg.release_seen)
    ImGui::TextWrapped(
        "last kill: tick %llu, %u dead, destroy %.3f ms (thread CPU clock; the Frame panel's `destroy` of that tick)",
        dbg.release_tick, dbg.release_victims, dbg.release_destroy_ms);
  const ColonyEcs::ReleaseTimes& r = d.last_release;
  if (r.batches == 0) {
    ImGui::TextDisabled("no batch passes yet");
    return;
  }
  auto us = [](double ms) { return (long long)std::llround(ms * 1e3); };
  char closes[256] = "";
  size_t used = 0;
  for (size_t i = 0; i < d.pools.size() && used < sizeof closes; ++i)
    used += size_t(
        std::snprintf(closes + used, sizeof closes - used, ", %s %lld", d.pools[i].name.c_str(), us(r.close_ms[i])));
  ImGui::TextWrapped("last batch passes: %llu dead in %lld us CPU (order %lld, mark %lld%s)",
                     (unsigned long long)r.victims, us(r.total_ms()), us(r.sort_ms), us(r.mark_ms), closes);
}

void pools_panel(Debugger& dbg, Game& g, const FrameTimes&, DebugLink&) {
  dbg.pools_shown = gather_pool_panel(*g.ecs);
  const PoolPanelData& d = dbg.pools_shown;
  ImGui::Text("tick %" PRIu64 "   entities %u / %u   simulated %u", g.tick, d.live_entities, d.max_entities,
              d.simulated_entities);
  ImGui::Text("ants alive %" PRIu64 "   pending deaths %u", ants_alive(g), d.pending_destructions);
  // Two lines: with the counts of a stress run (exhaustion.json) one line ran past a
  // 1280-pixel window's panel and cut "refused commands" off.
  ImGui::Text("failed creates %llu   refused spawns %" PRIu64, d.failed_creates, g.spawn_refused);
  ImGui::Text("refused commands %" PRIu64, g.refused_commands);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("commands are refused past %.0f times the map's cells in one tick", kTickCommandCellsBudget);
  draw_last_release(dbg, d);
  plot_series("##alive", dbg.alive_history, "ants alive", 32, Scale::Span);
  for (size_t i = 0; i < d.pools.size(); ++i) draw_pool_row(dbg, i, d.pools[i]);
}

// [SECTION] Pool map window

void draw_kind_legend() {
  for (int k = 0; k < int(Kind::Count); ++k) {
    if (k) ImGui::SameLine();
    ImGui::ColorButton(kind_name(Kind(k)), ImGui::ColorConvertU32ToFloat4(kind_color(Kind(k))),
                       ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoBorder, ImVec2(10, 10));
    ImGui::SameLine(0, 3);
    ImGui::TextUnformatted(kind_name(Kind(k)));
  }
}

// Screen position of a cell's top-left corner.
ImVec2 cell_pos(ImVec2 origin, const PoolMapLayout& l, size_t cell) {
  return ImVec2(origin.x + float(cell % size_t(l.columns)) * l.cell_px,
                origin.y + float(cell / size_t(l.columns)) * l.cell_px);
}

// Remembers each visible cell's first owner; a cell whose owner changed since the last
// gather flashes (set to 1 here, faded every frame by the caller).
void update_map_flash(Debugger& dbg, bool same_view) {
  const size_t count = dbg.map_cells.size();
  if (!same_view || dbg.map_prev_owner.size() != count) {
    dbg.map_prev_owner.assign(count, 0);
    dbg.map_flash.assign(count, 0.0f);
    same_view = false;
  }
  for (size_t i = 0; i < count; ++i) {
    const Handle h = dbg.map_cells[i].first_owner;
    const unsigned long long owner = (unsigned long long)h.index << 32 | h.generation;
    if (same_view && owner != 0 && dbg.map_prev_owner[i] != 0 && owner != dbg.map_prev_owner[i])
      dbg.map_flash[i] = 1.0f;
    dbg.map_prev_owner[i] = owner;
  }
}

bool theatre_on(const Debugger& dbg, int pool);
void draw_theatre_overlay(const Debugger& dbg, const PoolMapLayout& layout, ImVec2 origin, size_t first_cell,
                          size_t cells);

void draw_pool_map_cells(Debugger& dbg, const ColonyEcs& ecs, const PoolMapLayout& layout, ImVec2 origin, int row_begin,
                         int row_end) {
  // Each cell's colour costs a few random reads (back-pointer, directory, record); in
  // pools of millions the cells are regathered every fourth frame only.
  const size_t first_cell = size_t(row_begin) * size_t(layout.columns);
  const unsigned long long every = layout.range > (1u << 20) ? 4 : 1;
  const bool same_view = dbg.map_cells_pool == layout.pool && dbg.map_cells_columns == layout.columns &&
                         dbg.map_cells_entries_per_cell == layout.entries_per_cell &&
                         dbg.map_cells_row_begin == row_begin && dbg.map_cells_row_end == row_end;
  for (float& f : dbg.map_flash) f = std::max(0.0f, f - ImGui::GetIO().DeltaTime * 2.0f);  // half a second
  if (!same_view || dbg.frames >= dbg.map_cells_frame + every) {
    dbg.map_cells = gather_pool_map(ecs, layout, row_begin, row_end);
    dbg.map_cells_frame = dbg.frames;
    dbg.map_cells_pool = layout.pool;
    dbg.map_cells_columns = layout.columns;
    dbg.map_cells_entries_per_cell = layout.entries_per_cell;
    dbg.map_cells_row_begin = row_begin;
    dbg.map_cells_row_end = row_end;
    update_map_flash(dbg, same_view);
  }
  const std::vector<PoolMapCell>& cells = dbg.map_cells;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cs = layout.cell_px, gap = cs >= 4 ? 1.0f : 0.0f;
  for (size_t i = 0; i < cells.size(); ++i) {
    if ((unsigned long long)(first_cell + i) * layout.entries_per_cell >= layout.range) break;
    ImVec2 p = cell_pos(origin, layout, first_cell + i);
    const PoolMapCell& c = cells[i];
    // A full cell is one rect; a free or partly filled one also gets the free colour.
    if (c.fill < 1) dl->AddRectFilled(p, ImVec2(p.x + cs - gap, p.y + cs - gap), kFreeCellColor);
    if (c.fill > 0)
      dl->AddRectFilled(ImVec2(p.x, p.y + (cs - gap) * (1 - c.fill)), ImVec2(p.x + cs - gap, p.y + cs - gap), c.color);
    if (dbg.map_flash[i] > 0)
      dl->AddRectFilled(p, ImVec2(p.x + cs - gap, p.y + cs - gap),
                        IM_COL32(255, 255, 255, int(200 * dbg.map_flash[i])));
  }
  if (theatre_on(dbg, layout.pool)) {
    draw_theatre_overlay(dbg, layout, origin, first_cell, cells.size());
    return;
  }
  // The taken boundary: a white bar at the left edge of the cell holding entry `taken`,
  // or at the right edge of the last cell when the map ends there.
  if (layout.taken <= layout.range) {
    unsigned long long cell = layout.taken / layout.entries_per_cell;
    const bool at_end = cell > 0 && cell * layout.entries_per_cell >= layout.range;
    ImVec2 p = cell_pos(origin, layout, at_end ? cell - 1 : cell);
    if (at_end) p.x += cs;
    dl->AddLine(ImVec2(p.x, p.y - 2), ImVec2(p.x, p.y + cs + 1), IM_COL32_WHITE, 2.0f);
  }
  // The selected entity's entries in this pool, outlined.
  InspectorData sel = gather_inspector(ecs, dbg.selected);
  if (sel.found && size_t(layout.pool) < sel.pools.size())
    for (const SlotRow& s : sel.pools[size_t(layout.pool)].slots) {
      size_t cell = s.entry / layout.entries_per_cell;
      if (cell < first_cell || cell >= first_cell + cells.size()) continue;
      ImVec2 p = cell_pos(origin, layout, cell);
      dl->AddRect(ImVec2(p.x - 1, p.y - 1), ImVec2(p.x + cs, p.y + cs), IM_COL32(255, 255, 255, 255), 0, 0, 2.0f);
    }
}

// [SECTION] Release theatre (drawn in the Pool map window)

constexpr ImU32 kHoleColor = IM_COL32(230, 50, 50, 255), kMovedColor = IM_COL32(60, 210, 240, 255),
                kMoveColor = IM_COL32(255, 220, 40, 255);

bool theatre_on(const Debugger& dbg, int pool) { return dbg.theatre && dbg.replay.loaded && dbg.replay.pool == pool; }

// The step the replay stands on: the last one applied (null before the first).
const ecs::JournalStep* current_step(const ReleaseReplay& r) { return r.cursor ? &r.steps[r.cursor - 1] : nullptr; }

// The list of the last releases; a click picks one (at its first move).
void draw_release_list(Debugger& dbg, Game& g) {
  std::vector<ReleaseRow> rows = gather_release_list(*g.ecs, 64, dbg.theatre_removes);
  const float h = ImGui::GetTextLineHeightWithSpacing() * 5.5f;
  ImGuiTableFlags flags =
      ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("releases", 6, flags, ImVec2(0, h))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : {"tick", "cause", "victims", "path", "moves", "CPU ms"}) ImGui::TableSetupColumn(c);
  ImGui::TableHeadersRow();
  for (const ReleaseRow& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    char label[32];
    std::snprintf(label, sizeof label, "%llu##%llu", r.tick, r.serial);
    const bool picked = dbg.replay.loaded && dbg.replay.serial == r.serial;
    if (ImGui::Selectable(label, picked, ImGuiSelectableFlags_SpanAllColumns)) {
      dbg.theatre_follow = false;
      debugger_pick_release(dbg, g, r.serial, false);
    }
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.cause.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%u", r.victims);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(ecs::release_path_name(r.path));
    ImGui::TableNextColumn();
    if (r.dropped) ImGui::Text("%llu (+%llu)", r.moves, r.dropped);
    else ImGui::Text("%llu", r.moves);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.cpu_ms);
  }
  ImGui::EndTable();
}

// What the current step does, in words, and the owner's slot list as the step leaves it.
void draw_current_step(Debugger& dbg, Game& g, DebugLink& link) {
  const ReleaseReplay& r = dbg.replay;
  const ecs::JournalStep* s = current_step(r);
  if (!s) {
    ImGui::TextWrapped("before the first move: the victims' entries are about to become holes (red)");
    return;
  }
  const Kind k = owner_kind(*g.ecs, s->owner);
  const char* kind = k == Kind::Count ? "entity (gone now)" : kind_name(k);
  switch (s->kind) {
    case ecs::StepKind::Hole:
      ImGui::TextWrapped("entry %u freed: it was slot %u of %s %u:%u", s->from, unsigned(s->local), kind,
                         s->owner.index, s->owner.generation);
      return;
    case ecs::StepKind::Renumber:
      ImGui::TextWrapped("entry %u is now slot %u of %s %u:%u (its later slots shift down)", s->from,
                         unsigned(s->local), kind, s->owner.index, s->owner.generation);
      return;
    case ecs::StepKind::Move: break;
  }
  ImGui::TextColored(ImVec4(1, 0.86f, 0.16f, 1), "move: entry %u -> %u", s->from, s->to);
  ImGui::TextWrapped("owner %s %u:%u: its %s slot list entry [%u] now names %u (was %u)", kind, s->owner.index,
                     s->owner.generation, pool_name(r.pool), unsigned(s->local), s->to, s->from);
  if (dbg.follow_owner && !(dbg.selected == s->owner) && g.ecs->alive(s->owner)) select_entity(dbg, link, s->owner);
  // The owner's list as it stands now in the world, with this step's entry as the replay has it.
  InspectorData d = gather_inspector(*g.ecs, s->owner);
  if (!d.found || size_t(r.pool) >= d.pools.size()) return;
  std::string line = "slots:";
  for (const SlotRow& row : d.pools[size_t(r.pool)].slots) {
    char item[48];
    if (row.local == s->local) std::snprintf(item, sizeof item, " [%u]%u<-%u", row.local, s->to, s->from);
    else std::snprintf(item, sizeof item, " [%u]%u", row.local, row.entry);
    line += item;
  }
  ImGui::TextWrapped("%s", line.c_str());
}

// The what-if: the picked release's victims released the three ways on a scratch copy.
void draw_what_if(Debugger& dbg, Game& g) {
  if (ImGui::Button("what if: release it the three ways")) {
    PoolView v = pool_view(*g.ecs, dbg.replay.pool);
    dbg.what_if = run_what_if(dbg.replay, v.component_bytes);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the victims released again from this pool's before-state, on a scratch copy (the game is untouched)");
  const WhatIf& w = dbg.what_if;
  if (!w.problem.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "%s", w.problem.c_str());
  if (!w.done || w.serial != dbg.replay.serial || w.pool != dbg.replay.pool) return;
  ImGui::Text("%u holes in entries %u..%u of %s", w.holes, w.lo, w.hi, pool_name(w.pool));
  if (ImGui::BeginTable("whatif", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame)) {
    for (const char* c : {"", "moved (rewires)", "moved, then died", "CPU ms"}) ImGui::TableSetupColumn(c);
    ImGui::TableHeadersRow();
    for (const WhatIfResult& res : w.results) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(res.name);
      ImGui::TableNextColumn();
      ImGui::Text("%llu", res.moves);
      ImGui::TableNextColumn();
      ImGui::Text("%llu", res.wasted);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", res.cpu_ms);
    }
    ImGui::EndTable();
  }
  // The three layouts side by side: each a strip of the touched entries, free cells dark.
  const float width = (ImGui::GetContentRegionAvail().x - 8) / 3, cs = 3;
  const int columns = std::max(1, int(width / cs)), rows = 12;
  const unsigned n = w.hi - w.lo,
                 per = std::max(1u, unsigned((n + unsigned(columns * rows) - 1) / unsigned(columns * rows)));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  for (size_t i = 0; i < w.results.size(); ++i) {
    const WhatIfResult& res = w.results[i];
    const float x0 = o.x + float(i) * (width + 4);
    dl->AddText(ImVec2(x0, o.y), IM_COL32_WHITE, res.name);
    for (int c = 0; c < columns * rows; ++c) {
      const unsigned e0 = unsigned(c) * per;
      if (e0 >= n) break;
      unsigned moved = 0, free = 0, count = 0;
      for (unsigned e = e0; e < std::min(n, e0 + per); ++e, ++count)
        moved += res.layout[e] == EntryState::Moved, free += res.layout[e] == EntryState::Vacant;
      const ImU32 col = free * 2 > count ? kFreeCellColor : moved ? kMovedColor : IM_COL32(120, 160, 120, 255);
      const ImVec2 p(x0 + float(c % columns) * cs, o.y + ImGui::GetTextLineHeight() + float(c / columns) * cs);
      dl->AddRectFilled(p, ImVec2(p.x + cs - 1, p.y + cs - 1), col);
    }
  }
  ImGui::Dummy(ImVec2(0, ImGui::GetTextLineHeight() + float(rows) * cs + 4));
}

// Controls, list, the current step and the engine's reasons, above the map.
void draw_theatre(Debugger& dbg, Game& g, DebugLink& link) {
  if (!ImGui::CollapsingHeader("Release theatre", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("show on map", &dbg.theatre);
  ImGui::SameLine();
  ImGui::Checkbox("pick each new kill", &dbg.theatre_follow);
  ImGui::SameLine();
  ImGui::Checkbox("removes", &dbg.theatre_removes);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("list single removes too (a bomb's torn-off legs)");
  draw_release_list(dbg, g);
  ReleaseReplay& r = dbg.replay;
  if (!r.loaded) {
    ImGui::TextWrapped("No release picked: drop a bomb (or pick one above) to watch its release move by move.");
    return;
  }
  // Play: the cursor advances moves_per_second steps a second.
  if (dbg.playing) {
    dbg.play_due += double(ImGui::GetIO().DeltaTime) * dbg.moves_per_second;
    const size_t n = size_t(dbg.play_due);
    dbg.play_due -= double(n);
    replay_seek(r, r.cursor + n);
    if (r.cursor >= r.steps.size()) dbg.playing = false;
  }
  const size_t total = r.steps.size();
  if (ImGui::SmallButton("|<")) replay_seek(r, 0), dbg.playing = false;
  ImGui::SameLine();
  if (ImGui::SmallButton("<")) replay_seek(r, r.cursor ? r.cursor - 1 : 0), dbg.playing = false;
  ImGui::SameLine();
  if (ImGui::SmallButton(dbg.playing ? "pause" : "play")) {
    dbg.playing = !dbg.playing;
    if (dbg.playing && r.cursor >= total) replay_seek(r, 0);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton(">")) replay_seek(r, r.cursor + 1), dbg.playing = false;
  ImGui::SameLine();
  if (ImGui::SmallButton(">|")) replay_seek(r, total), dbg.playing = false;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x));
  const float most = std::max(1.0f, float(total));
  const bool all = dbg.moves_per_second >= most;
  ImGui::SliderFloat("##speed", &dbg.moves_per_second, 1.0f, most, all ? "all at once" : "%.0f moves/s",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  if (dbg.playing && dbg.moves_per_second >= most) replay_seek(r, total), dbg.playing = false;
  ImGui::Text("step %zu / %zu   moves %llu   taken %u -> %u (boundary %u)", r.cursor, total, r.moves_done, r.hi,
              r.taken_after, r.boundary);
  if (r.dropped)
    ImGui::TextColored(ImVec4(1, 0.6f, 0.3f, 1), "the journal kept the first %zu steps; %llu more did not fit", total,
                       r.dropped);
  draw_current_step(dbg, g, link);
  if (const ColonyEcs::JournalRelease* rel = g.ecs->journal().release(r.serial))
    text_wrapped_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), "tick %llu, %s: %s",
                         (unsigned long long)rel->tick, release_cause_text(rel->cause).c_str(),
                         explain_release(*g.ecs, *rel).c_str());
  draw_what_if(dbg, g);
}

// The replay drawn over the map's cells: holes red, survivors moved in cyan, entries left
// behind dark; the current move an arrow from its source cell to its destination; the
// boundary where the replay stands.
void draw_theatre_overlay(const Debugger& dbg, const PoolMapLayout& layout, ImVec2 origin, size_t first_cell,
                          size_t cells) {
  const ReleaseReplay& r = dbg.replay;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float cs = layout.cell_px, gap = cs >= 4 ? 1.0f : 0.0f;
  std::vector<ReplayCell> rc = gather_replay_cells(r, layout.entries_per_cell, first_cell, cells);
  for (size_t i = 0; i < rc.size(); ++i) {
    const ReplayCell& c = rc[i];
    const unsigned n = c.live + c.holes + c.vacant + c.moved;
    const ImVec2 p = cell_pos(origin, layout, first_cell + i);
    const ImVec2 q(p.x + cs - gap, p.y + cs - gap);
    if (n) {
      // Stacked from the bottom: moved in, holes, left behind; the rest stays as drawn.
      float y = q.y;
      auto band = [&](unsigned count, ImU32 col) {
        if (!count) return;
        const float h = (cs - gap) * float(count) / float(n);
        dl->AddRectFilled(ImVec2(p.x, y - h), ImVec2(q.x, y), col);
        y -= h;
      };
      band(c.moved, kMovedColor);
      band(c.holes, kHoleColor);
      band(c.vacant, kFreeCellColor);
    }
    if (c.moves_through && layout.entries_per_cell > 1)
      dl->AddRect(ImVec2(p.x - 1, p.y - 1), ImVec2(q.x + 1, q.y + 1),
                  IM_COL32(255, 220, 40, std::min(255, 60 + 20 * int(c.moves_through))));
  }
  // The boundary where the replay stands.
  {
    const unsigned long long cell = r.boundary / layout.entries_per_cell;
    ImVec2 p = cell_pos(origin, layout, size_t(cell));
    dl->AddLine(ImVec2(p.x, p.y - 3), ImVec2(p.x, p.y + cs + 2), IM_COL32_WHITE, 3.0f);
  }
  const ecs::JournalStep* s = current_step(r);
  if (!s || s->kind == ecs::StepKind::Renumber) return;
  auto centre = [&](unsigned entry) {
    ImVec2 p = cell_pos(origin, layout, entry / layout.entries_per_cell);
    return ImVec2(p.x + cs * 0.5f, p.y + cs * 0.5f);
  };
  const ImVec2 a = centre(s->from);
  const float pad = std::max(2.0f, cs * 0.5f);
  if (s->kind == ecs::StepKind::Hole) {
    dl->AddRect(ImVec2(a.x - pad - 1, a.y - pad - 1), ImVec2(a.x + pad + 1, a.y + pad + 1), kHoleColor, 0, 0, 2.0f);
    return;
  }
  const ImVec2 b = centre(s->to);
  dl->AddRect(ImVec2(a.x - pad - 1, a.y - pad - 1), ImVec2(a.x + pad + 1, a.y + pad + 1), kMoveColor, 0, 0, 2.0f);
  dl->AddRectFilled(ImVec2(b.x - pad, b.y - pad), ImVec2(b.x + pad, b.y + pad), kMoveColor);
  dl->AddLine(a, b, kMoveColor, 2.0f);
  // The arrow's head at the destination.
  const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
  if (len > 1) {
    const float ux = dx / len, uy = dy / len, head = std::max(6.0f, cs);
    dl->AddTriangleFilled(b, ImVec2(b.x - ux * head - uy * head * 0.5f, b.y - uy * head + ux * head * 0.5f),
                          ImVec2(b.x - ux * head + uy * head * 0.5f, b.y - uy * head - ux * head * 0.5f), kMoveColor);
  }
}

void pool_map_panel(Debugger& dbg, Game& g, const FrameTimes&, DebugLink& link) {
  const ColonyEcs& ecs = *g.ecs;
  draw_theatre(dbg, g, link);
  ImGui::SetNextItemWidth(125);
  if (ImGui::BeginCombo("##pool", pool_name(dbg.map_pool))) {
    for (int i = 0; i < kMaxPools; ++i)
      if (ImGui::Selectable(pool_name(i), i == dbg.map_pool)) dbg.map_pool = i;
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(50);
  ImGui::SliderInt("px", &dbg.map_cell_px, 2, 16, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::Checkbox("capacity", &dbg.map_show_capacity);
  ImGui::SameLine();
  ImGui::Checkbox("1:1", &dbg.map_exact);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("one entry per cell; scroll through the pool");
  // The 1:1 map's scroll, on a line of its own (the first line fills a narrow panel).
  if (dbg.map_exact) {
    if (ImGui::SmallButton("to taken")) dbg.map_scroll_to_taken = true;
    ImGui::SameLine();
    ImGui::Checkbox("follow taken", &dbg.map_follow_taken);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("keep the taken boundary in view as it moves");
  }
  draw_kind_legend();

  float text_h = ImGui::GetTextLineHeightWithSpacing();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float cs = float(dbg.map_cell_px);
  // In 1:1 mode the map lives in a scrolling child; only its visible rows are gathered.
  float view_w = dbg.map_exact ? avail.x - ImGui::GetStyle().ScrollbarSize : avail.x;
  PoolMapLayout layout = layout_pool_map(ecs, dbg.map_pool, dbg.map_show_capacity, view_w,
                                         std::max(avail.y - 2 * text_h, cs), cs, dbg.map_exact);
  if (layout.range == 0) ImGui::TextWrapped("no entries");
  else
    ImGui::TextWrapped("entries 0..%u, %u per cell, taken %u (white bar)", layout.range - 1, layout.entries_per_cell,
                       layout.taken);
  bool child = dbg.map_exact;
  if (child) ImGui::BeginChild("map_scroll", ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, cs)), false);
  if (child && theatre_on(dbg, layout.pool) && dbg.playing) {
    // Playing, the 1:1 view follows the move (or the boundary before the first).
    const ecs::JournalStep* s = current_step(dbg.replay);
    const unsigned at = s ? (s->kind == ecs::StepKind::Move ? s->to : s->from) : dbg.replay.boundary;
    float row = float(at / unsigned(layout.columns));
    ImGui::SetScrollY(std::max(0.0f, row * cs - ImGui::GetWindowHeight() * 0.5f));
  } else if (child && (dbg.map_scroll_to_taken || dbg.map_follow_taken)) {
    float row = float(layout.taken / unsigned(layout.columns));
    ImGui::SetScrollY(std::max(0.0f, row * cs - ImGui::GetWindowHeight() * 0.5f));
    dbg.map_scroll_to_taken = false;
  }
  ImVec2 origin = ImGui::GetCursorScreenPos();
  dbg.map_layout = layout;
  dbg.map_origin_x = origin.x;
  dbg.map_origin_y = origin.y;
  ImVec2 size(float(layout.columns) * cs, float(layout.rows) * cs);
  ImGui::InvisibleButton("map", ImVec2(std::max(size.x, 1.0f), std::max(size.y, 1.0f)));
  bool hovered = ImGui::IsItemHovered();
  bool clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  int row_begin = 0, row_end = layout.rows;
  if (child) {
    float top = ImGui::GetScrollY(), h = ImGui::GetWindowHeight();
    row_begin = std::max(0, int(top / cs) - 1);
    row_end = std::min(layout.rows, int((top + h) / cs) + 2);
  }
  draw_pool_map_cells(dbg, ecs, layout, origin, row_begin, row_end);
  if (hovered) {
    ImVec2 m = ImGui::GetIO().MousePos;
    dbg.map_hover = hit_test_pool_map(ecs, layout, m.x - origin.x, m.y - origin.y);
    const PoolMapHit& h = dbg.map_hover;
    if (h.valid) {
      ImGui::SetTooltip("entry %u%s\nowner %u:%u (%s) chunk %u\nlocal index %u\nclick to inspect", h.entry,
                        h.cell_entries > 1 ? " (first of cell)" : "", h.owner.index, h.owner.generation,
                        h.kind == Kind::Count ? "?" : kind_name(h.kind), h.owner_chunk, h.local);
      if (clicked) select_entity(dbg, link, h.owner);
    } else if (h.on_map && h.entry < layout.taken) {
      ImGui::SetTooltip("entry %u: its owner %u:%u is not alive (run the validator)", h.entry, h.owner.index,
                        h.owner.generation);
    } else if (h.on_map) {
      ImGui::SetTooltip("entry %u: free (taken is %u)", h.entry, layout.taken);
    }
  }
  if (child) ImGui::EndChild();
}

// [SECTION] Entity inspector window

void draw_slot_table(const PoolSlots& ps) {
  ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit;
  if (!ImGui::BeginTable("slots", 4, flags)) return;
  ImGui::TableSetupColumn("local");
  ImGui::TableSetupColumn("entry");
  ImGui::TableSetupColumn("back-ptr");
  ImGui::TableSetupColumn("data", ImGuiTableColumnFlags_WidthStretch);
  ImGui::TableHeadersRow();
  for (const SlotRow& s : ps.slots) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%u", s.local);
    ImGui::TableNextColumn();
    ImGui::Text("%u", s.entry);
    ImGui::TableNextColumn();
    if (s.back_pointer_ok) ImGui::TextColored(ImVec4(0.3f, 1.0f, 0.3f, 1.0f), "ok");
    else ImGui::TextColored(ImVec4(1.0f, 0.3f, 0.3f, 1.0f), "BROKEN");
    // Wrapped to the column: a render piece's fields are wider than the panel.
    ImGui::TableNextColumn();
    text_wrapped_colored(ImGui::GetStyleColorVec4(s.added ? ImGuiCol_Text : ImGuiCol_TextDisabled), "%s",
                         s.data.c_str());
  }
  ImGui::EndTable();
}

void inspector_panel(Debugger& dbg, Game& g, const FrameTimes&, DebugLink& link) {
  if (dbg.selected.is_null()) {
    ImGui::TextWrapped("Click an ant in the world or a cell in the pool map.");
    return;
  }
  InspectorData d = gather_inspector(*g.ecs, dbg.selected);
  ImGui::Text("handle index %u generation %u", d.handle.index, d.handle.generation);
  if (!d.found) {
    ImGui::TextColored(ImVec4(1, 0.5f, 0.3f, 1), "stale handle: the entity is gone");
    if (ImGui::Button("clear")) select_entity(dbg, link, Handle{});
    return;
  }
  const Body& b = d.body;
  ImGui::Text("chunk %u   tier %s%s", d.chunk, tier_name(d.tier), d.dying ? "   (dying this tick)" : "");
  if (is_ant(b.kind) && b.colony < g.colonies.size()) {
    ImGui::ColorButton("##colony", ImGui::ColorConvertU32ToFloat4(g.colonies[b.colony].color),
                       ImGuiColorEditFlags_NoTooltip, ImVec2(12, 12));
    ImGui::SameLine();
  }
  // Colony numbers are shown from 1, as in the HUD; caste, state, age and health are ants' only.
  if (is_ant(b.kind)) {
    ImGui::Text("%s of colony %u   state %s", kind_name(b.kind), unsigned(b.colony) + 1, activity_name(b));
    if (b.lifespan == ~u32(0)) ImGui::Text("age %u ticks (no age limit)   health %u", b.age, unsigned(b.health));
    else ImGui::Text("age %u / %u ticks   health %u", b.age, b.lifespan, unsigned(b.health));
  } else {
    ImGui::Text("%s", kind_name(b.kind));
  }
  ImGui::Text("pos (%.1f, %.1f)   heading %.2f", b.x, b.y, b.heading);
  if (is_ant(b.kind))
    ImGui::Text("legs %u   antennae %u   carrying %u", unsigned(b.legs), unsigned(b.antennae), unsigned(b.carrying));
  if (b.kind == Kind::Food || b.kind == Kind::Corpse) ImGui::Text("amount %u", b.amount);
  if (d.bad_back_pointers) ImGui::TextColored(ImVec4(1, 0.3f, 0.3f, 1), "%u broken back-pointers", d.bad_back_pointers);
  if (ImGui::Button("camera to it")) {
    link.camera_jump = true;
    link.camera_x = b.x;
    link.camera_y = b.y;
  }
  ImGui::SameLine();
  if (ImGui::Button("clear selection")) select_entity(dbg, link, Handle{});
  for (const PoolSlots& ps : d.pools) {
    char label[128];
    std::snprintf(label, sizeof label, "%s: %u added / %u reserved (max %u)###%s", ps.name.c_str(), ps.added,
                  ps.reserved, ps.max, ps.name.c_str());
    if (ImGui::TreeNodeEx(label, ImGuiTreeNodeFlags_DefaultOpen)) {
      if (!ps.slots.empty()) draw_slot_table(ps);
      ImGui::TreePop();
    }
  }
}

// [SECTION] Chunks window

void chunks_panel(Debugger& dbg, Game& g, const FrameTimes&, DebugLink& link) {
  int mode = int(dbg.chunk_mode);
  ImGui::SetNextItemWidth(-FLT_MIN);
  if (ImGui::Combo("##count", &mode, "all entities\0all but tiles\0ants (walks all)\0"))
    dbg.chunk_mode = ChunkCount(mode);
  // Counting ants walks every entity: every 10 frames, and more rarely in big worlds (about
  // once every two seconds with two million entities). The other counts are O(chunks).
  const unsigned long long refresh = dbg.chunk_mode == ChunkCount::Ants ? 10 + g.ecs->live_count() / 20000 : 1;
  bool stale = dbg.chunk_data.chunks.size() != g.ecs->grid().chunk_count() || dbg.chunk_data.mode != dbg.chunk_mode ||
               dbg.frames >= dbg.chunk_data_frame + refresh;
  if (stale) {
    dbg.chunk_data = gather_chunk_map(*g.ecs, dbg.chunk_mode);
    dbg.chunk_data_frame = dbg.frames;
  }
  const ChunkMapData& d = dbg.chunk_data;
  ImGui::TextWrapped("%ux%u chunks, %u cells", d.chunks_x, d.chunks_y, d.chunk_cells);
  ImVec2 avail = ImGui::GetContentRegionAvail();
  avail.y -= 3 * ImGui::GetTextLineHeightWithSpacing();  // the legend below the map
  float px = std::clamp(std::min(avail.x / float(std::max(1u, d.chunks_x)), avail.y / float(std::max(1u, d.chunks_y))),
                        1.0f, 32.0f);
  ImVec2 o = ImGui::GetCursorScreenPos();
  dbg.chunk_origin_x = o.x;
  dbg.chunk_origin_y = o.y;
  dbg.chunk_px = px;
  ImGui::InvisibleButton("chunks",
                         ImVec2(std::max(1.0f, px * float(d.chunks_x)), std::max(1.0f, px * float(d.chunks_y))));
  bool hovered = ImGui::IsItemHovered(), clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float norm = std::log1p(float(std::max(1u, d.max_value)));
  // Cells to pixels. The last row and column of chunks are drawn as far as the map goes
  // (kingdom_fire's 104 cells in 20-cell chunks end a fifth into the sixth row), so the
  // region outline, clipped to the map, meets their edge.
  const float k = d.chunk_cells ? px / float(d.chunk_cells) : 0, gap = px > 4 ? 1.0f : 0.0f;
  for (unsigned c = 0; c < d.chunks.size(); ++c) {
    const ChunkCell& cc = d.chunks[c];
    bool sim = c < g.chunk_simulated.size() ? g.chunk_simulated[c] != 0 : cc.simulated > 0;
    float t = std::log1p(float(cc.value)) / norm;
    float x = o.x + float(c % d.chunks_x) * px, y = o.y + float(c / d.chunks_x) * px;
    float x1 = std::min(x + px, o.x + float(g.width) * k), y1 = std::min(y + px, o.y + float(g.height) * k);
    dl->AddRectFilled(ImVec2(x, y), ImVec2(x1 - gap, y1 - gap), heat_color(t, sim));
  }
  // Simulation region outline.
  const CellRect r = sim_region(g);
  dl->AddRect(ImVec2(o.x + r.x * k, o.y + r.y * k), ImVec2(o.x + (r.x + r.w) * k, o.y + (r.y + r.h) * k),
              IM_COL32(255, 255, 255, 255), 0, 0, 2);
  if (hovered) {
    ImVec2 m = ImGui::GetIO().MousePos;
    int c = hit_test_chunk_map(d, px, m.x - o.x, m.y - o.y);
    if (c >= 0) {
      const ChunkCell& cc = d.chunks[size_t(c)];
      ImGui::SetTooltip("chunk %d (%u, %u)\nentities: %u simulated, %u dormant\nshown: %u\nclick: camera here", c,
                        unsigned(c) % d.chunks_x, unsigned(c) / d.chunks_x, cc.simulated, cc.dormant, cc.value);
      if (clicked) {
        link.camera_jump = true;
        link.camera_x = (float(unsigned(c) % d.chunks_x) + 0.5f) * float(d.chunk_cells);
        link.camera_y = (float(unsigned(c) / d.chunks_x) + 0.5f) * float(d.chunk_cells);
      }
    }
  }
  ImGui::TextDisabled("warm: simulated\nblue: dormant\nwhite: sim region");
}

// [SECTION] Frame window

// Sampled every frame, whether or not the panel is shown, so the plots are full when
// opened: each system's slowest tick since the last frame, or while no tick ran (paused)
// the last tick's time again.
void sample_frame(Debugger& dbg, const Game& g, const FrameTimes& ft) {
  for (int i = 0; i < int(SystemTimes::Count) && i < kMaxSystems; ++i) {
    float ms = dbg.ticks_since_draw > 0 ? dbg.tick_system_max[size_t(i)] : float(g.times.last_ms[size_t(i)]);
    dbg.system_history[size_t(i)].push(ms);
    dbg.tick_system_max[size_t(i)] = 0;
  }
  dbg.ticks_since_draw = 0;
  dbg.build_history.push(ft.build_ms);
  dbg.submit_history.push(ft.submit_ms);
  dbg.ui_history.push(ft.ui_ms);
  dbg.present_history.push(ft.present_ms);
  dbg.sim_history.push(ft.sim_ms);
  dbg.wait_history.push(ft.wait_ms);
  dbg.ticks_history.push(double(ft.ticks));
  dbg.fps_history.push(ft.fps);
  dbg.tps_history.push(ft.tps);
  dbg.rss_history.push(ft.rss_mb);
}

void frame_panel(Debugger& dbg, Game& g, const FrameTimes& ft, DebugLink&) {
  ImGui::Text("FPS %.1f   TPS %.1f   tick %" PRIu64, ft.fps, ft.tps, g.tick);
  ImGui::Text("resident memory %.0f MB   peak %.0f MB", ft.rss_mb, ft.peak_rss_mb);
  char overlay[96];
  auto row = [&](const char* name, const Series& s, const char* format = "%s %.3f ms (max %.3f)") {
    std::snprintf(overlay, sizeof overlay, format, name, s.last(), s.max());
    ImGui::PushID(name);
    plot_series("##t", s, overlay, 26);
    ImGui::PopID();
  };
  // The two threads: what each does in a frame, and which is the longer of the ticks and
  // the drawing that overlaps them (submit and present). The wait alone does not say: a
  // smoothed wait of a tenth of a millisecond is the handshake's, not the simulation's.
  if (ft.sim_thread)
    text_wrapped_colored(
        ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
        "simulation thread: %.2f ms a frame, %u tick%s; main thread: build %.2f, submit %.2f, ui "
        "%.2f, present %.2f ms, waited %.2f ms for the simulation (%s)",
        ft.sim_ms, ft.ticks, ft.ticks == 1 ? "" : "s", ft.build_ms, ft.submit_ms, ft.ui_ms, ft.present_ms, ft.wait_ms,
        ft.sim_ms > ft.submit_ms + ft.present_ms ? "the simulation is the longer" : "drawing is the longer");
  else
    text_wrapped_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                         "one thread (--sim-thread off): %.2f ms of ticks (%u a frame), then build %.2f, submit "
                         "%.2f, ui %.2f, present %.2f ms",
                         ft.sim_ms, ft.ticks, ft.build_ms, ft.submit_ms, ft.ui_ms, ft.present_ms);
  row(ft.sim_thread ? "sim thread busy" : "ticks", dbg.sim_history);
  row("ticks per frame", dbg.ticks_history, "%s %.0f (max %.0f)");
  row("main: render build", dbg.build_history);
  row("main: render submit", dbg.submit_history);
  row("main: ui", dbg.ui_history);
  row("main: present", dbg.present_history);
  row("main: waited for sim", dbg.wait_history);
  row("fps", dbg.fps_history, "%s %.1f (max %.1f)");
  row("tps", dbg.tps_history, "%s %.1f (max %.1f)");
  text_wrapped_colored(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled),
                       "systems: simulation on %u thread%s; CPU time of all of them, the slowest tick of each frame",
                       sim_threads(), sim_threads() == 1 ? "" : "s");
  for (int i = 0; i < int(SystemTimes::Count) && i < kMaxSystems; ++i)
    row(system_name(SystemTimes::Id(i)), dbg.system_history[size_t(i)]);
  // Memory as a level: a run whose memory climbs frame by frame draws a slope.
  std::snprintf(overlay, sizeof overlay, "resident memory %.0f MB (max %.0f)", dbg.rss_history.last(),
                dbg.rss_history.max());
  plot_series("##rss", dbg.rss_history, overlay, 26, Scale::Span);
}

// [SECTION] Stress window

void list_scenarios(Debugger& dbg) {
  dbg.scenario_files.clear();
  std::error_code ec;
#ifdef COLONY_SCENARIO_DIR
  if (!std::filesystem::is_directory(dbg.scenarios_dir, ec)) dbg.scenarios_dir = COLONY_SCENARIO_DIR;
#endif
  for (const auto& e : std::filesystem::directory_iterator(dbg.scenarios_dir, ec))
    if (e.path().extension() == ".json") dbg.scenario_files.push_back(e.path().string());
  std::sort(dbg.scenario_files.begin(), dbg.scenario_files.end());
  dbg.scenario_pick = std::clamp(dbg.scenario_pick, 0, std::max(0, int(dbg.scenario_files.size()) - 1));
  dbg.scenarios_listed = true;
}

void stress_panel(Debugger& dbg, Game& g, const FrameTimes&, DebugLink& link) {
  // Wide enough for a count with its - and + buttons ("200" read "20" at 800 pixels).
  ImGui::PushItemWidth(std::max(110.0f, ImGui::GetContentRegionAvail().x * 0.5f));
  if (dbg.commands_off)
    text_wrapped_colored(kSessionColor, "%s",
                         dbg.commands_off_why.empty()
                             ? "The replay plays its recorded commands: these come back at its end."
                             : dbg.commands_off_why.c_str());
  ImGui::BeginDisabled(dbg.commands_off);

  section_title("Spawn");
  ImGui::InputInt("ants", &dbg.spawn_count, 50, 500);
  dbg.spawn_count = std::clamp(dbg.spawn_count, 1, 1000000);
  // Colonies are numbered from 1 here as everywhere the player sees them.
  int colonies = std::max(1, int(g.colonies.size())), colony_shown = dbg.spawn_colony + 1;
  ImGui::SliderInt("colony", &colony_shown, 1, colonies, "%d", ImGuiSliderFlags_AlwaysClamp);
  dbg.spawn_colony = std::clamp(colony_shown - 1, 0, colonies - 1);
  ImGui::Combo("caste", &dbg.spawn_caste, "worker\0soldier\0");
  if (ImGui::Button("spawn")) queue_spawn(dbg, g);

  section_title("Bombs");
  ImGui::InputInt("spots", &dbg.bomb_count, 1, 10);
  dbg.bomb_count = std::clamp(dbg.bomb_count, 1, 1000);
  slider_in_range("radius", &dbg.bomb_radius, 1.0f, 40.0f, "%.0f");
  if (ImGui::Button("bomb random ants")) queue_random_bombs(dbg, g);
  ImGui::Checkbox("auto-bomb", &dbg.auto_bomb);
  slider_in_range("every s", &dbg.auto_bomb_seconds, 0.5f, 30.0f, "%.1f");
  ImGui::SliderInt("kill %", &dbg.kill_percent, 1, 100, "%d", ImGuiSliderFlags_AlwaysClamp);
  if (ImGui::Button("kill at random")) queue_random_kill(dbg, g);
  ImGui::EndDisabled();

  section_title("Scenario");
  if (!dbg.scenarios_listed) list_scenarios(dbg);
  // The list starts at the running scenario, and follows it when another one is loaded.
  if (dbg.scenario_pick_for != link.running_scenario) {
    dbg.scenario_pick_for = link.running_scenario;
    std::error_code ec;
    for (int i = 0; i < int(dbg.scenario_files.size()); ++i)
      if (std::filesystem::equivalent(dbg.scenario_files[size_t(i)], link.running_scenario, ec)) dbg.scenario_pick = i;
  }
  const char* current =
      dbg.scenario_files.empty() ? "(none found)" : dbg.scenario_files[size_t(dbg.scenario_pick)].c_str();
  ImGui::SetNextItemWidth(-FLT_MIN);  // the whole row: long file names stay readable
  if (ImGui::BeginCombo("##file", std::filesystem::path(current).filename().string().c_str())) {
    for (int i = 0; i < int(dbg.scenario_files.size()); ++i) {
      std::string name = std::filesystem::path(dbg.scenario_files[size_t(i)]).filename().string();
      if (ImGui::Selectable(name.c_str(), i == dbg.scenario_pick)) dbg.scenario_pick = i;
    }
    ImGui::EndCombo();
  }
  ImGui::BeginDisabled(dbg.commands_off);
  if (ImGui::Button("load") && !dbg.scenario_files.empty())
    link.load_scenario = dbg.scenario_files[size_t(dbg.scenario_pick)];
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("rescan")) list_scenarios(dbg);

  section_title("Validator");
  // Turned on, the cost is measured afresh.
  if (ImGui::Checkbox("every tick", &dbg.validate_every_tick) && dbg.validate_every_tick) dbg.cost_samples = 0;
  ImGui::Checkbox("pause on violation", &dbg.pause_on_violation);
  if (ImGui::Button("validate now")) debugger_validate(dbg, g);
  ImGui::SameLine();
  if (ImGui::Button("reset")) {
    dbg.validated_ticks = dbg.violation_count = dbg.violating_ticks = dbg.cost_samples = 0;
    dbg.first_violation.clear();
  }
  ImGui::Text("checked %llu, violations %llu", dbg.validated_ticks, dbg.violation_count);
  // Every tick: what it costs, and so why the ticks a second drop while it is on.
  if (dbg.validate_every_tick && dbg.cost_samples)
    text_wrapped_colored(ImVec4(1, 0.8f, 0.4f, 1), "%s", validator_cost_text(dbg).c_str());
  else if (dbg.validated_ticks) ImGui::TextDisabled("last run %.2f ms (thread CPU clock)", dbg.validate_ms);
  if (!dbg.first_violation.empty())
    text_wrapped_colored(ImVec4(1, 0.35f, 0.35f, 1), "first (tick %llu): %s", dbg.first_violation_tick,
                         dbg.first_violation.c_str());
  ImGui::PopItemWidth();
}

}  // namespace

// [SECTION] draw_debugger

namespace {

// One panel: its window's title (and its tab's label), the flag its close box clears, and
// what it draws inside.
struct Panel {
  const char* title;
  const char* tab;
  bool Debugger::*shown;
  void (*draw)(Debugger&, Game&, const FrameTimes&, DebugLink&);
};
constexpr Panel kPanels[] = {
    {"Pools", "Pools", &Debugger::show_pools, pools_panel},
    {"Pool map", "Pool map", &Debugger::show_pool_map, pool_map_panel},
    {"Entity inspector", "Inspector", &Debugger::show_inspector, inspector_panel},
    {"Chunks", "Chunks", &Debugger::show_chunks, chunks_panel},
    {"Frame", "Frame", &Debugger::show_frame, frame_panel},
    {"Stress", "Stress", &Debugger::show_stress, stress_panel},
};
const Panel& kPoolsPanel = kPanels[0];

// A panel as a window of its own at `r`.
void draw_panel_window(const Panel& p, Rect r, Debugger& dbg, Game& g, const FrameTimes& ft, DebugLink& link) {
  place_next(dbg, r);
  if (ImGui::Begin(p.title, &(dbg.*p.shown))) p.draw(dbg, g, ft, link);
  ImGui::End();
}

// One column on the right: the Pools panel at its top (its title bar collapses it) and
// the other panels as tabs of one window under it, the Pool map's first, so that the map
// stays in view on the left. A click on an ant in the world brings the inspector's tab
// forward.
void draw_column(Debugger& dbg, Game& g, const FrameTimes& ft, DebugLink& link, ImVec2 display) {
  const float column = column_width(display.x) - 4, top = dbg.top_clear + 2, x = display.x - column - 4;
  const float height = std::max(display.y - top - 4, 0.2f * display.y), pools_h = std::floor(0.3f * height);
  float tabs_top = top;
  if (dbg.show_pools) {
    draw_panel_window(kPoolsPanel, {x, top, column, pools_h}, dbg, g, ft, link);
    if (ImGuiWindow* w = ImGui::FindWindowByName(kPoolsPanel.title)) tabs_top = w->Pos.y + w->Size.y + 4;
  }
  if (std::none_of(std::begin(kPanels) + 1, std::end(kPanels), [&](const Panel& p) { return dbg.*p.shown; })) return;
  // Under the Pools panel as it stands (collapsed, it leaves the tabs its room).
  ImGui::SetNextWindowPos(ImVec2(x, tabs_top), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(column, std::max(display.y - tabs_top - 4, 0.2f * display.y)), ImGuiCond_Always);
  if (ImGui::Begin("Pool debugger", nullptr) && ImGui::BeginTabBar("panels")) {
    for (const Panel& p : kPanels) {
      if (&p == &kPoolsPanel || !(dbg.*p.shown)) continue;
      const bool forward = p.draw == inspector_panel && dbg.inspector_to_front;
      if (!ImGui::BeginTabItem(p.tab, &(dbg.*p.shown), forward ? ImGuiTabItemFlags_SetSelected : 0)) continue;
      dbg.tab_shown = p.title;
      p.draw(dbg, g, ft, link);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
}

}  // namespace

FreeSpan debugger_free_span(const Debugger&, float display_w) { return {0, display_w - column_width(display_w)}; }

void draw_debugger(Debugger& dbg, Game& g, const FrameTimes& ft, DebugLink& link) {
  if (!g.ecs) return;
  ++dbg.frames;
  notice_world(dbg, g);
  // The release journal records while the debugger is open (the theatre replays it).
  g.ecs->set_journal(dbg.open);
  if (dbg.clear_link_selection) {
    link.selected = dbg.link_seen = Handle{};
    dbg.clear_link_selection = false;
  }
  // The window's selection (a click on an ant) wins when it changed since last frame.
  if (!(link.selected == dbg.link_seen)) {
    dbg.selected = link.selected;
    dbg.link_seen = link.selected;
    dbg.inspector_to_front = !link.selected.is_null();
  }
  if (dbg.pause_pending) {
    link.pause_request = true;
    dbg.pause_pending = false;
  }
  if (!dbg.open) {
    dbg.map_hover = PoolMapHit{};
    return;
  }
  DEBUG_CHECK(dbg.map_pool >= 0 && dbg.map_pool < kMaxPools);
  // A minimised window reports no size: the panels keep their places for its return.
  ImVec2 d = ImGui::GetIO().DisplaySize;
  dbg.place_again = false;
  if (d.x > 0 && d.y > 0) {
    // Also when the room the toolbar keeps changed: in a narrow window it wraps to more rows
    // a frame after the size changed, and the panels under it covered its buttons.
    dbg.place_again = dbg.placed_for_w > 0 && (d.x != dbg.placed_for_w || d.y != dbg.placed_for_h ||
                                               std::abs(dbg.top_clear - dbg.placed_for_top) > 0.5f);
    dbg.placed_for_w = d.x, dbg.placed_for_h = d.y, dbg.placed_for_top = dbg.top_clear;
  }
  dbg.map_hover = PoolMapHit{};  // set again by the pool map when the mouse is over it
  dbg.tab_shown = nullptr;
  sample_frame(dbg, g, ft);
  draw_column(dbg, g, ft, link, d);
  dbg.inspector_to_front = false;
}

}  // namespace colony
