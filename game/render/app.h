// app.h — the windowed game: one struct holding the window, the renderer, the world and
// everything the player controls, and the four calls that run it. run_window() is a
// thin loop over these; the tests drive them directly (injecting SDL events).
//
// Per frame (app_frame), a pipeline of two threads. The main thread, with the world to
// itself: poll events -> tools/camera/time keys -> world batch, effects, terrain textures
// -> ImGui windows (toolbar, HUD, timeline, debugger). Then the simulation thread runs the
// frame's ticks while the main thread draws what it copied out (terrain copies, sprite
// batch, ImGui's draw lists) and presents; the frame ends when both are done. What the
// renderer reads is thus a second buffer of the world, built before the ticks that run
// under it: the picture is one frame behind the world. Without the thread
// (WindowConfig::sim_thread off) the ticks run on the main thread before the world is read.
#pragma once
#include <SDL.h>

#include <cstdint>
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "atlas.h"
#include "camera.h"
#include "effects.h"
#include "game.h"
#include "history.h"
#include "hud.h"
#include "sim_thread.h"
#include "terrain_layer.h"
#include "world_batch.h"

#include "debugger.h"

namespace colony::render {

// What the window needs from the command line (run_window fills it from Options).
struct WindowConfig {
  std::string scenario;  // scenario file to play
  bool seed_given = false;
  uint64_t seed = 0;
  std::string screenshot;     // write the last frame here (PNG) and exit
  uint32_t frames = 0;        // frames to render before exiting (0 = until closed)
  bool debug_ui = false;      // open the pool debugger at start
  int width = 0, height = 0;  // 0 = pick from the display
  bool vsync = true;
  bool hidden = false;  // tests: do not show the window
  // When set (--load, --replay), builds the world instead of the scenario file.
  std::function<std::unique_ptr<Game>(std::string* err)> make_world;
  bool fixed_step = false;  // every frame advances exactly 1/60 s (deterministic runs)
  // The rewind history's memory bound in bytes (0: default_history_bytes()); history_off
  // keeps none (no timeline).
  uint64_t history_bytes = 0;
  bool history_off = false;
  // The ticks run on their own thread while the frame draws (--sim-thread on); off, on the
  // main thread between the events and the drawing.
  bool sim_thread = true;
};

// Keys 1 .. 9 and 0 pick them in this order.
enum class Tool : uint8_t {
  Select = 0,
  Bomb,
  BigBomb,
  Ignite,
  Food,
  PaintWater,
  PaintRock,
  PaintGrass,
  Spawn,
  Colony,
  Count
};
const char* tool_name(Tool t);

// Frame timings (ms) and rates, smoothed for display. The main thread's build (world batch
// and terrain textures) and ui (ImGui windows and their drawing); its submit (the drawing
// of terrain and sprites) and present, which overlap the simulation's busy time (sim_ms);
// wait_ms, how long the main thread then waited for the simulation (0: drawing took
// longer); ticks_per_frame, the last frame's ticks.
struct FrameStats {
  double build_ms = 0, submit_ms = 0, ui_ms = 0, sim_ms = 0, present_ms = 0, frame_ms = 0, wait_ms = 0;
  uint32_t ticks_per_frame = 0;
  double fps = 0, tps = 0;
  double rss_mb = 0, peak_rss_mb = 0;  // resident memory, sampled every frame (MiB)
  uint64_t frames = 0;
  // Rate windows.
  uint64_t window_start_ns = 0, window_frames = 0, window_ticks = 0;
  // Whole run (for the --frames summary): average and the slowest second.
  uint64_t run_start_ns = 0;
  double slowest_fps = 0;
  // Sums over the run, for averages (ms); a frame's whole is its work, present and wait.
  double sum_build_ms = 0, sum_submit_ms = 0, sum_present_ms = 0, sum_ui_ms = 0, sum_sim_ms = 0, sum_wait_ms = 0;
  double sum_frame_ms = 0;
  // The longest frame's work (ms, wall clock, present left out) after the first 60 frames
  // (they build every chunk texture), and the tick it ended at.
  double longest_frame_ms = 0;
  uint64_t longest_frame_tick = 0;
};

// The brush's radius runs from kFineBrush (one cell, for walls a cell wide) to kMaxBrush.
constexpr float kFineBrush = 0.5f, kMaxBrush = 24;

// What the timeline and the rewind keys ask for; done at the start of the next frame, before
// the ticks (a frame's drawing keeps to one world).
struct RewindRequest {
  enum Kind : uint8_t { None = 0, ToTick, Live, Fork } kind = None;
  uint64_t tick = 0;
};

// One frame's ticks: what the main thread asks (plan_ticks in app.cpp) and what the thread
// that ran them reports. Touched by one thread at a time: the main thread writes the request
// and reads the result while no run is under way.
struct TickRun {
  uint64_t want = 0;   // ticks owed to the clock and the steps
  bool fixed = false;  // every owed tick runs (a fixed-step run), whatever the budget
  uint32_t done = 0;
  double busy_ms = 0;      // wall clock of the ticks and their hooks
  std::string refused;     // ants asked for and refused for want of room (a notice), or ""
  std::thread::id thread;  // the thread that ran them
};

struct App {
  WindowConfig config;
  SDL_Window* window = nullptr;
  SDL_Renderer* renderer = nullptr;
  // Called after each present when set: the offscreen driver's GL renderer waits for its
  // frame there (display.h), which keeps the run's memory flat.
  void (*frame_wait)() = nullptr;
  bool imgui_ready = false;
  Atlas atlas;
  TerrainLayer terrain;
  FrameBatch batch;
  Effects effects;
  Camera camera;

  std::unique_ptr<Game> game;
  std::string scenario_path;

  // Player state.
  Tool tool = Tool::Bomb;
  Overlay overlay = Overlay::Off;
  // The trails view (T): the ground dimmed and the pheromone trails glowing in their
  // colonies' colours (terrain_layer.h, draw_trails). hide_ants (N) leaves the ants out.
  bool trails_view = false;
  bool hide_ants = false;
  Handle selected;
  bool follow = false;
  bool show_help = false;
  bool show_hud = true;
  float brush = 3;  // paint / ignite radius in cells; kFineBrush: the one cell under the pointer
  int spawn_colony = 0;
  int spawn_caste = 0;  // 0 worker, 1 soldier
  int spawn_count = 20;
  int food_crumbs = 24;
  bool painting = false;                             // left button held with a paint tool
  float last_paint_x = -1e9f, last_paint_y = -1e9f;  // the stroke's last dab (its start after a press)
  bool dragging = false;                             // right/middle button held
  Uint8 drag_button = 0;                             // the button that drags
  int drag_x = 0, drag_y = 0;
  // Button presses of this frame's events, handed to the world or not once Dear ImGui's
  // NewFrame has seen the pointer where the first of them happened (see
  // begin_interface_frame). Until then a press keeps what the pointer did: a left press
  // the world positions of its path, so that a stroke flicked within one frame (down,
  // motion, up) paints its line, not one dab (up to kMaxPathPoints motion events, the last
  // one replaced when more come: a dab is laid every half brush between two points, so a
  // dropped point only straightens the line); a right or middle press where the pointer
  // went, so that a quick drag pans. World positions are taken with the camera of the
  // moment of each event.
  static constexpr int kMaxPathPoints = 16;
  struct Press {
    int x, y;
    Uint8 button;
    float wx = 0, wy = 0;   // (x, y) in the world
    bool released = false;  // let go within the same frame: no stroke or drag follows
    int path_count = 0;
    float path_x[kMaxPathPoints] = {}, path_y[kMaxPathPoints] = {};
    int moved_x = 0, moved_y = 0;  // the pointer's last position (a drag's)
    bool moved = false;
  };
  static constexpr int kMaxPresses = 8;
  Press presses[kMaxPresses];
  int press_count = 0;
  // This frame's wheel steps and where the pointer was, decided after NewFrame as the
  // presses are: a wheel over a panel scrolls the panel only, even when the pointer reached
  // it within the frame.
  int wheel_steps = 0;
  int wheel_x = 0, wheel_y = 0;
  bool pointer_in_window = false;  // between the window system's enter and leave events
  // Key releases held back to the next frame: Dear ImGui 1.86 sees a key as up or down at
  // NewFrame, so a key pressed and released within one frame (Enter or Esc in a number
  // field, at a low frame rate) would never be seen down. See poll_events.
  static constexpr int kMaxHeldReleases = 16;
  SDL_Event held_releases[kMaxHeldReleases];
  int held_release_count = 0;

  // Time.
  bool paused = false;
  int speed = 1;               // 1, 2, 4, ... 64: ticks per 1/60 s
  uint64_t step_requests = 0;  // single steps asked for while paused
  double tick_debt = 0;        // ticks owed to the clock
  uint64_t last_frame_ns = 0;
  double seconds = 0;  // animation clock

  // Measurement switches (environment COLONY_RENDER_SKIP=terrain,world,ui): leave a part out.
  bool skip_terrain = false, skip_world = false, skip_ui = false;

  FrameStats stats;
  PopulationChart population;  // the HUD's chart of each colony's ants (hud.h)
  bool quit = false;
  // Messages under the toolbar (show_error, show_notice): the last error (a load, a save)
  // until error_until, a short confirmation (quick save, quick load) until notice_until.
  std::string error;
  double error_until = 0;  // in app.seconds
  std::string notice;
  double notice_until = 0;  // in app.seconds
  // The latest turn of a colony's fate (Colony::fate), under the notice until
  // fate_note_until, in its colony's colour; fate_seen holds each colony's last
  // announced fate_tick + 1 (0: none yet).
  std::string fate_note;
  double fate_note_until = 0;
  int fate_note_colony = 0;
  uint64_t fate_seen[kMaxColonies] = {};
  // Recording or playback, as window.cpp runs it: the HUD's line about it, and whether the
  // tools are off (a replay plays its recorded commands up to its end; then play is live).
  std::string session;
  bool tools_off = false;
  // Why loading another world is refused while the hooks run, as the refusal says it.
  std::string locked_because;
  // Whether the world runs slower than its speed asks (the HUD's TPS in orange), and what
  // judge_tick_rate needs to wait a second after a change of speed or pause.
  bool ticks_fall_short = false;
  int rate_speed = 1;
  bool rate_paused = false;
  double rate_since = 0;
  std::string screenshot_error;  // why --screenshot could not be written (the run failed)

  // Tests: when capture is set, every frame is read back into frame_pixels (ABGR8888).
  bool capture = false;
  std::vector<uint32_t> frame_pixels;
  int frame_w = 0, frame_h = 0;

  // Save/replay hooks around every tick (recording, playback); quick load is off while set.
  // They run on the simulation thread, while the main thread draws: they may write what
  // the main thread reads only while building a frame (the HUD's lines, the pause).
  std::function<void(Game&)> before_tick, after_tick;

  // The simulation thread (sim_thread.h), or null when the main thread ticks.
  std::unique_ptr<SimThread> sim_thread;
  TickRun tick_run;
  // Frames presented, counted right after SDL_RenderPresent (a tick may wait on it: tests).
  std::atomic<uint64_t> presents{0};

  DebugLink link;
  Debugger debugger;

  // Rewind (history.h, timeline.cpp): the running world's recent past. While a past tick is
  // shown the live world is held aside in live_game, frozen at its tick.
  History history;
  std::unique_ptr<Game> live_game;
  RewindRequest rewind_request;
  bool fork_asked = false;  // the timeline asks before play drops the recorded future
  // Called with the world that plays on after a fork: a recording drops its future too.
  std::function<void(const Game&)> on_fork;
  // Why forking is refused in this window (a replay checks one world), or "".
  std::string fork_refused_because;
};

// Sets ticks_fall_short from the measured tick rate against 60 x speed: not while paused,
// not in the second after a change of speed or pause (the rate still averages the old),
// not in a timed run (--frames ticks once a frame by design). Called every frame.
void judge_tick_rate(App& app);

// Messages under the toolbar: an error for kErrorSeconds, a notice for a few seconds.
constexpr double kErrorSeconds = 10;
void show_error(App& app, std::string text);
void show_notice(App& app, std::string text);
void clear_error(App& app);
// Why loading another world is refused now ("while recording", "in a replay's window
// ..."), or empty when it is not: a recording or a replay belongs to one world, and its
// hooks run until the window closes.
std::string load_refusal(const App& app);
bool error_showing(const App& app);
// Whether the window simulates the whole map: the scenario's region covers it (or has no
// size). Otherwise the region follows the view, at most kMaxRegionCells square.
bool simulates_whole_map(const Game& g);
constexpr float kMaxRegionCells = 320;
// Announces each colony's new turns of fate under the toolbar (called after the ticks).
void announce_fates(App& app);
constexpr double kFateNoteSeconds = 6;
bool notice_showing(const App& app);

// Creates the window, renderer, ImGui and the game. On failure returns false with one
// line in *err ("<file>: <problem>"), nothing left open.
bool app_init(App& app, const WindowConfig& config, std::string* err);
// Handles one event (the tests inject events through SDL_PushEvent or call this).
void app_handle_event(App& app, const SDL_Event& e);
// One frame: events, ticks, drawing. Returns false when the app should close.
bool app_frame(App& app);
void app_shutdown(App& app);

// Makes `game` the running world (camera, effects, selection and terrain cache reset).
void install_game(App& app, std::unique_ptr<Game> game, const std::string& path);
// Replaces the running game with a new one from a scenario file (keeps the old one on failure).
bool app_load_scenario(App& app, const std::string& path, std::string* err);
// Queues the current tool's command at a world position (what a left click does).
void apply_tool(App& app, float wx, float wy, bool first_press);
// Frames per second since app_init.
double average_fps(const App& app);
// Writes the current back buffer to a PNG. False (and *err) on failure.
bool save_screenshot(App& app, const std::string& path, std::string* err);

// Save-engineer hooks: F5 / F9. They return false and set *err when unavailable.
bool quicksave(App& app, std::string* err);
bool quickload(App& app, std::string* err);

}  // namespace colony::render
