// window.h — the windowed game's entry point, called by main when not --headless.
#pragma once
#include <string>

#include "options.h"

namespace colony {

// Opens the window and plays until it is closed (or, with --frames N, for N frames,
// writing --screenshot FILE.png from the last one). Exit code: 0 ok, 2 bad input or no
// window could be opened.
int run_window(const Options& options);

struct Recorder;
struct Replayer;
namespace render {
struct App;
// Recording and playback in the window: hooks around every tick, and the HUD's line saying
// which. Up to its end a replay plays its own commands (the tools are off and say so);
// then play is live. A divergence pauses the game and stays on the HUD. The hooks hold
// the recorder or the replayer: both must outlive the app's ticks.
void record_into(App& app, Recorder& recorder, const std::string& path);
void play_back(App& app, Replayer& replayer, const std::string& path);
}  // namespace render

}  // namespace colony
