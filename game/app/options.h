// options.h — every command-line flag of the colony executable, parsed once in main.
// The headless runner, the window, the debugger and save/replay read this struct.
#pragma once
#include <cstdint>
#include <string>

namespace colony {

struct Options {
  // Simulation (headless and windowed)
  bool headless = false;
  std::string scenario;         // resolved path; defaults to <assets>/scenarios/default.json
  bool scenario_given = false;  // --scenario was on the command line
  std::uint64_t ticks = 600;    // headless: ticks to run
  bool ticks_given = false;
  std::uint64_t seed = 0;   // only meaningful when seed_given
  bool seed_given = false;  // otherwise the scenario's seed is used
  std::string report;       // headless: JSON report path ("" = none)
  bool validate = false;    // run the validator every tick
  // The simulation's threads, 1..64 (0: the machine's cores); any count gives the same world.
  std::uint32_t threads = 0;
  std::uint64_t series_every =
      1000;  // headless: the report's population series, a sample every this many ticks (0 = none)
  // Headless: after the run, rewind to random ticks of the history and re-simulate them,
  // comparing hashes with live play (0: no check; the run is this many ticks).
  std::uint64_t rewind_check = 0;
  // The rewind history's memory in MB (default: min(256, an eighth of the memory budget));
  // 0 keeps none.
  std::uint64_t history_mb = 0;
  bool history_mb_given = false;

  // Window
  std::string screenshot;               // write the last frame as PNG and exit
  std::uint32_t frames = 0;             // frames to render before exiting (0 = run until closed)
  bool debug_ui = false;                // open the pool debugger at start
  std::uint32_t width = 0, height = 0;  // window size (0 = pick from the display)
  bool no_vsync = false;
  // The window's ticks on a thread of their own, overlapping the drawing (--sim-thread on,
  // the default); off, the main thread ticks and draws in turn.
  bool sim_thread = true;

  // Save / replay
  std::string save;    // write the world here at exit
  std::string load;    // start from this save instead of a scenario
  std::string record;  // record player commands here
  std::string replay;  // play these commands back
};

// Parses argv into out. Returns 0 when the program should run, 1 when --help or --version was
// printed (exit 0), 2 after printing one error line for a bad flag or value.
int parse_options(int argc, char** argv, Options& out);

// The assets folder: the source tree's assets/ (compile definition COLONY_ASSET_DIR)
// when it exists, otherwise ./assets.
std::string asset_dir();

}  // namespace colony
