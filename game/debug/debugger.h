// debugger.h — the Dear ImGui pool debugger: what the window calls, and the whole
// debugger state in one struct.
//
// The window owns the SDL window, the ImGui context and its backends. Per frame it calls:
//   debugger_handle_key(dbg, event)      for each SDL event (F3 toggles; true = consumed)
//   debugger_after_tick(dbg, game)       after every simulate_tick (history, validator)
//   draw_debugger(dbg, game, times, link) between ImGui::NewFrame() and ImGui::Render()
//   debugger_highlight(dbg, game)        the entity whose pieces the world view highlights
// and reads back DebugLink (selection, camera jump, pause request, scenario to load).
//
// Everything the debugger changes in the world goes through queue_command(), so
// replays see it. What each panel shows is computed by the pure gather_* functions in
// debug_data.h, which the tests compare with the engine's own numbers.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "components.h"
#include "debug_data.h"

union SDL_Event;

namespace colony {

struct Game;

// Frame-side timings the window measures and hands in each frame.
// The window's two threads, over the frames before this one (ms, wall clock). The main
// thread reads the world (build, the ImGui windows of ui) while no tick runs, then draws
// (submit, the rest of ui, present) while the simulation thread ticks (sim_ms, `ticks`
// ticks), and waits for it at the frame's end (wait_ms; 0 when drawing took longer).
// Without the simulation thread the ticks run first, on the main thread, and wait_ms is 0.
struct FrameTimes {
  double build_ms = 0;   // building the sprite batch and refreshing the terrain textures
  double submit_ms = 0;  // drawing them (SDL_RenderCopy, SDL_RenderGeometry)
  double ui_ms = 0;      // ImGui: building the windows and drawing them
  double fps = 0;
  double tps = 0;                      // simulation ticks per second
  double rss_mb = 0, peak_rss_mb = 0;  // the process's resident memory now and at its most (MiB)
  double present_ms = 0;               // SDL_RenderPresent and the display's wait
  double sim_ms = 0;                   // the ticks and their hooks
  double wait_ms = 0;                  // the main thread waiting for the ticks
  unsigned ticks = 0;                  // ticks in the last frame
  bool sim_thread = false;             // the ticks run on their own thread
};

// What the debugger and the window tell each other. Owned by the window, kept across frames.
//   selected:      two-way. The window writes it when the player clicks an ant; the debugger
//                  writes it when something is picked in the pool map or the inspector.
//   camera_jump:   set by the debugger (chunk minimap click); the window moves the camera to
//                  (camera_x, camera_y) in cells and clears the flag.
//   pause_request: set by the debugger (violation, button); the window pauses and clears it.
//   load_scenario: set by the debugger to a scenario path; the window loads it and clears it.
struct DebugLink {
  Handle selected;
  bool camera_jump = false;
  float camera_x = 0, camera_y = 0;
  bool pause_request = false;
  std::string load_scenario;
  std::string running_scenario;  // the file the running world came from (the Stress panel's first pick)
};

// A fixed-length ring of samples, drawn with ImGui::PlotLines (values_offset = head).
// Samples are doubles: a pool's `taken` passes 2^24 in a million-ant world, where a float
// would round a change of one entry away.
struct Series {
  std::vector<double> values;  // sized once to the ring length
  int head = 0;                // next write position = oldest sample
  int count = 0;
  void push(double v);
  double last() const;
  double max() const;
};

// A series in chronological order as at most `width` points for a plot one pixel per
// point (Dear ImGui draws one sample per pixel and skips the rest, so a one-tick spike,
// a bomb's removes, mostly vanished): each point is the largest sample of the run it
// stands for (peaks) or the smallest (a level's drops). Points are taken relative to
// `origin` (the plot's bottom), so that the floats Dear ImGui draws keep the small changes
// of a large level.
void plot_points(const Series& s, int width, bool peaks, double origin, std::vector<float>& out);
// The vertical range a series is plotted in: from zero (times, rates) or around the span
// of its samples (levels), with 5 % to spare.
struct PlotRange {
  double bottom, top;
};
PlotRange plot_range(const Series& s, bool from_zero);

inline constexpr int kHistoryTicks = 1800;  // ~30 s at 60 ticks/s
inline constexpr int kHistoryFrames = 600;  // ~10 s of frames
inline constexpr int kMaxSystems = 8;       // per-system timers kept (Game::times)

struct Debugger {
  // Visibility (F3 toggles `open`; each window has its own close box).
  bool open = false;
  bool show_pools = true, show_pool_map = true, show_inspector = true;
  bool show_chunks = true, show_frame = true, show_stress = true;
  // Pixels at the top of the screen the game's HUD and toolbar keep: the Pools panel and
  // the Entity inspector first open below them.
  float top_clear = 0;
  // Set by the game each frame: a replay is playing its recorded commands, so the Stress
  // panel's actions (and auto-bomb) are off; they would be queued and thrown away.
  bool commands_off = false;
  // Why, as the Stress panel says it ("" gives the replay's reason).
  std::string commands_off_why;
  // The display size the panels were last placed for. When the window's size changes the
  // panels are placed again for the new size (a panel the player moved goes back to its
  // place): ImGui keeps a panel on screen by pushing it towards the corner when the window
  // shrinks, and once the window grows again the panels would stay piled there, title bars
  // outside the window where they cannot be dragged.
  float placed_for_w = 0, placed_for_h = 0, placed_for_top = 0;
  bool place_again = false;  // this frame: the display size, or top_clear, changed
  // The panels are one column docked right: the Pools panel, and the others as tabs of
  // one window under it. The title of the panel whose tab was drawn this frame (tests read
  // it), and a request to bring the inspector's tab forward (the player clicked an ant).
  const char* tab_shown = nullptr;
  bool inspector_to_front = false;

  // Selection: the debugger's own, synced with DebugLink::selected.
  Handle selected;
  Handle link_seen;  // last value seen in DebugLink::selected (detects the window's clicks)

  // Pool map view.
  int map_pool = 0;                  // which pool
  int map_cell_px = 6;               // cell side in pixels
  bool map_show_capacity = false;    // range: capacity instead of high-water mark
  bool map_exact = false;            // one entry per cell, scrolling through the pool
  bool map_scroll_to_taken = false;  // once (the "to taken" button)
  bool map_follow_taken = false;     // every frame, as the boundary moves (a bomb's cliff)
  // Cells as last gathered (regathered every frame, or every fourth in huge pools).
  std::vector<PoolMapCell> map_cells;
  unsigned long long map_cells_frame = 0;
  int map_cells_pool = -1, map_cells_columns = 0, map_cells_row_begin = 0, map_cells_row_end = 0;
  unsigned map_cells_entries_per_cell = 0;
  // Cells whose first owner changed since the last gather flash (holes filled from the
  // tail). Kept for the cells on screen only; reset when the view changes.
  std::vector<unsigned long long> map_prev_owner;  // owner handle (index << 32 | generation) per visible cell
  std::vector<float> map_flash;                    // 1 = just changed, fades to 0
  PoolMapHit map_hover;                            // what the mouse is over this frame
  PoolMapLayout map_layout;                        // as drawn last frame
  float map_origin_x = 0, map_origin_y = 0;        // screen position of the map's first cell

  // Release theatre (in the Pool map panel): a release of the engine's journal replayed
  // move by move on the map. The journal is on while the debugger is open.
  bool theatre = true;                  // the map shows the picked release's replay
  bool theatre_removes = false;         // the list shows single removes (a bomb's torn legs) too
  bool theatre_follow = true;           // each new kill (bomb, fire, kill %, a big batch) is picked as it happens
  unsigned long long theatre_seen = 0;  // the journal's release count when last looked at
  ReleaseReplay replay;
  bool playing = false;
  float moves_per_second = 20;  // up to the release's whole length: all at once
  double play_due = 0;          // steps owed to the cursor by the time played
  bool follow_owner = true;     // the inspector shows the moving entry's owner
  WhatIf what_if;
  // The latest tick with a kill in it, and its `destroy` time (the tick's Destroy system, thread
  // CPU clock): what the Pools panel shows as the release's time, the Frame panel's measure.
  unsigned long long release_tick = 0;
  double release_destroy_ms = 0;
  unsigned release_victims = 0;
  bool release_seen = false;

  // Chunk minimap: what it counts; the ant count (a walk of every entity) is refreshed
  // every few frames only.
  ChunkCount chunk_mode = ChunkCount::NonTiles;
  ChunkMapData chunk_data;
  unsigned long long frames = 0, chunk_data_frame = 0;
  float chunk_origin_x = 0, chunk_origin_y = 0, chunk_px = 0;  // as drawn last frame

  // What the Pools window was given last frame (tests compare it with the engine).
  PoolPanelData pools_shown;

  // History, sampled after every tick.
  std::array<Series, kMaxPools> taken_history;
  std::array<Series, kMaxPools> removes_history;
  Series alive_history;
  // Rewind: while the window shows a past tick, the tick plots as they stood at the live
  // tick (live_plots_tick, their newest sample) are kept here, and every past tick shown
  // is these cut at that tick.
  struct TickPlots {
    std::array<Series, kMaxPools> taken, removes;
    Series alive;
  };
  TickPlots live_plots;
  bool holding_live_plots = false;
  unsigned long long live_plots_tick = 0;
  unsigned long long ticks_seen = 0;
  // The world the history belongs to; a new world (scenario loaded, save restored) or a tick
  // going backwards clears history, caches, counters and the selection.
  const void* world_seen = nullptr;
  unsigned long long last_tick = 0;
  bool clear_link_selection = false;

  // Frame history, sampled every draw. A frame may run several ticks: each system's sample
  // is its slowest tick since the last draw (tick_system_max, gathered after every tick),
  // so a bomb's Destroy shows whichever tick of the frame it fell in.
  std::array<Series, kMaxSystems> system_history;
  std::array<float, kMaxSystems> tick_system_max{};
  int ticks_since_draw = 0;
  Series build_history, submit_history, ui_history, fps_history, tps_history, rss_history;
  Series present_history, sim_history, wait_history, ticks_history;

  // Stress tools.
  int spawn_count = 200, spawn_colony = 0, spawn_caste = 0;  // caste 0 worker, 1 soldier
  int bomb_count = 5;
  float bomb_radius = 10.0f;
  int kill_percent = 50;
  bool auto_bomb = false;
  float auto_bomb_seconds = 3.0f;
  unsigned long long auto_bomb_next_tick = 0;
  unsigned long long rng = 0x9E3779B97F4A7C15ull;  // the debugger's own stream for bomb spots

  // Validator.
  bool validate_every_tick = false;
  bool pause_on_violation = true;
  bool pause_pending = false;  // raised in after_tick, delivered through DebugLink
  unsigned long long validated_ticks = 0;
  unsigned long long violation_count = 0;  // violations found, all ticks together
  unsigned long long violating_ticks = 0;
  double validate_ms = 0;  // thread CPU clock of the last validator run
  // Means over the ticks validated lately (each run weighs kValidateMeanWeight), thread
  // CPU clock: the validator's time and the tick's own (its systems' times).
  double validate_mean_ms = 0, tick_mean_ms = 0;
  unsigned long long cost_samples = 0;
  std::string first_violation;  // text of the first violation seen
  unsigned long long first_violation_tick = 0;

  // Scenario loader.
  std::string scenarios_dir = "assets/scenarios";
  std::vector<std::string> scenario_files;
  int scenario_pick = 0;
  bool scenarios_listed = false;
  std::string scenario_pick_for;  // the running scenario the pick was last set from
};

void debugger_init(Debugger& dbg, bool open);
// F3 toggles the debugger. Returns true when the event was consumed.
bool debugger_handle_key(Debugger& dbg, const SDL_Event& event);
// Call after every simulate_tick: history sampling, per-tick validator, pause on violation,
// auto-bomb.
void debugger_after_tick(Debugger& dbg, Game& game);
// Runs the engine's validator once; counts violations, keeps the first one's text and
// raises a pause request when pause_on_violation is set.
void debugger_validate(Debugger& dbg, Game& game);
// What "every tick" costs, as the Stress panel says it: the validator's mean ms per tick,
// the tick's own, and the ticks a second the two leave room for (1000 / their sum).
inline constexpr double kValidateMeanWeight = 1.0 / 16;
struct ValidatorCost {
  double validate_ms = 0, tick_ms = 0, max_tps = 0;
};
ValidatorCost validator_cost(const Debugger& dbg);
// "validating costs 38.1 ms a tick (thread CPU clock), the tick itself 3.9 ms: at most
// 24 ticks/s"; "" before a tick has been validated.
std::string validator_cost_text(const Debugger& dbg);
// Stress actions (the Stress window's buttons; each queues commands, nothing else).
void queue_spawn(Debugger& dbg, Game& game);         // spawn_count ants of spawn_colony/caste at its nest
void queue_random_bombs(Debugger& dbg, Game& game);  // bomb_count bombs on random simulated ants
void queue_random_kill(Debugger& dbg, Game& game);   // kill kill_percent % of all ants
// Rewind (the window's timeline). debugger_show_past: `game` is a past tick of the world the
// debugger follows and `live_tick` the present; the panels follow `game` without
// forgetting the world, and the tick plots end at game.tick (cut from the live plots, kept
// aside on the first call). debugger_show_live: back to the present world, its plots back.
// debugger_fork: the past tick shown becomes the present; the plots cut there go on.
void debugger_show_past(Debugger& dbg, const Game& game, unsigned long long live_tick);
void debugger_show_live(Debugger& dbg, const Game& live);
void debugger_fork(Debugger& dbg);
// The newest n samples of a series dropped (the rest in order, oldest first).
Series cut_series(const Series& s, int n);
// Draws every open debugger window. Call between ImGui::NewFrame() and ImGui::Render().
void draw_debugger(Debugger& dbg, Game& game, const FrameTimes& times, DebugLink& link);
// The entity whose pieces the world view highlights (null when none, and for a world the
// debugger has not seen yet: a handle of the world before a load may name another entity).
Handle debugger_highlight(const Debugger& dbg, const Game& game);
// The theatre's entry point: picks the biggest release journaled in `tick` (a kill before
// a single remove) in the Pool map and rewinds it to its first move, ready to play. False
// when the journal holds no release of that tick.
bool debugger_show_release_of_tick(Debugger& dbg, const Game& game, unsigned long long tick);
// Picks release `serial` of the journal in the theatre (the map's pool, or the first pool
// it touched), at its first move; `play` starts it.
bool debugger_pick_release(Debugger& dbg, const Game& game, unsigned long long serial, bool play);
// Where the game's banners go while the debugger is open: the span of the display's width
// its top panels leave free (between Pools and the inspector, or right of the column).
struct FreeSpan {
  float left, right;
};
FreeSpan debugger_free_span(const Debugger& dbg, float display_w);

}  // namespace colony
