// timeline.h — rewind in the window: going to a past tick of the history (history.h),
// stepping through it, playing on from there (a fork) or going back to the live world; and
// the timeline bar along the bottom that shows the history with its markers.
//
// A past tick is a world of its own (restored from a keyframe and re-simulated): it becomes
// app.game while the live world waits in app.live_game, so the map, the HUD and every
// debugger panel show that tick. The debugger's tick plots are cut at it.
#pragma once
#include <cstdint>
#include <string>

namespace colony::render {

struct App;

// Whether a past tick is shown.
bool rewound(const App& app);
// The live world's tick (the present).
uint64_t live_tick(const App& app);
// Starts the history of the world app.game now holds (install_game calls it).
void start_history(App& app);
// Shows the world as it was at `tick` (clamped to the history), paused. The live tick
// itself goes back to live. False with *err when it cannot be restored (a re-simulated tick
// that differs from live play is also kept in app.history.mismatch for the HUD).
bool rewind_to(App& app, uint64_t tick, std::string* err);
// One tick back or forward through the history (forward from the tick before the live one
// is the live world again).
bool step_back(App& app, std::string* err);
bool step_forward(App& app, std::string* err);
// The live world again, as it was left; the past shown is dropped, nothing forks.
void back_to_live(App& app);
// Plays on from the past tick shown: the recorded future is dropped (from the history and,
// through app.on_fork, a recording). False with *err when forking is refused here.
bool fork_here(App& app, std::string* err);
// Carries out app.rewind_request (at the start of a frame).
void serve_rewind_request(App& app);
// The timeline window and the fork's question. Between NewFrame and Render.
void draw_timeline(App& app);
// The timeline window's height in pixels as drawn last (0 when hidden), and where its bar
// was (screen pixels; tests and the developer's camera press on it).
float timeline_height();
struct TimelineBar {
  float x = 0, y = 0, w = 0, h = 0;
};
TimelineBar timeline_bar();

}  // namespace colony::render
