// options.cpp — the command line, parsed with CLI11. One error line and exit code 2
// for anything wrong: unknown flag, missing value, wrong type, out of range, missing file.
#include "options.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

namespace colony {

std::string asset_dir() {
#ifdef COLONY_ASSET_DIR
  if (std::filesystem::is_directory(COLONY_ASSET_DIR)) return COLONY_ASSET_DIR;
#endif
  return "assets";
}

namespace {

// A file the program will write: its folder must exist.
const auto kWritableFile = CLI::Validator(
    [](std::string& path) -> std::string {
      if (path.empty()) return "empty file name";
      auto parent = std::filesystem::path(path).parent_path();
      if (!parent.empty() && !std::filesystem::is_directory(parent)) return "folder does not exist: " + parent.string();
      if (std::filesystem::is_directory(path)) return "is a folder: " + path;
      return {};
    },
    "FILE");

}  // namespace

int parse_options(int argc, char** argv, Options& out) {
  CLI::App app{"Colony — an ant colony on variable-count component pools", "colony"};
  app.option_defaults()->always_capture_default();

  app.add_flag("--headless", out.headless, "Run without a window (needs --ticks)");
  app.add_option("--scenario", out.scenario, "Scenario JSON file")->check(CLI::ExistingFile);
  app.add_option("--ticks", out.ticks, "Headless: ticks to run")->check(CLI::Range(std::uint64_t(0), std::uint64_t(1'000'000'000)));
  app.add_option("--seed", out.seed, "Random seed (default: the scenario's)")->check(CLI::NonNegativeNumber);
  app.add_option("--report", out.report, "Headless: write a JSON report here")->check(kWritableFile);
  app.add_flag("--validate", out.validate, "Run the pool validator every tick (violations: exit 3)");

  app.add_option("--screenshot", out.screenshot, "Write the last frame to this PNG and exit")->check(kWritableFile);
  app.add_option("--frames", out.frames, "Frames to render before exiting")->check(CLI::Range(1u, 10'000'000u));
  app.add_flag("--debug-ui", out.debug_ui, "Open the pool debugger at start");
  app.add_option("--width", out.width, "Window width in pixels")->check(CLI::Range(320u, 16384u));
  app.add_option("--height", out.height, "Window height in pixels")->check(CLI::Range(240u, 16384u));
  app.add_flag("--no-vsync", out.no_vsync, "Do not wait for vertical sync");

  app.add_option("--save", out.save, "Save the world to this file at exit")->check(kWritableFile);
  auto* load = app.add_option("--load", out.load, "Start from a saved world")->check(CLI::ExistingFile);
  app.add_option("--record", out.record, "Record player commands to this file")->check(kWritableFile);
  auto* replay = app.add_option("--replay", out.replay, "Play recorded commands back")->check(CLI::ExistingFile);
  load->excludes("--scenario");
  replay->excludes("--record");
  replay->excludes("--load");
  replay->excludes("--scenario");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 1;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n') c = ' ';
    std::fprintf(stderr, "colony: bad command line: %s (see --help)\n", msg.c_str());
    return 2;
  }
  out.scenario_given = app.count("--scenario") > 0;
  out.ticks_given = app.count("--ticks") > 0;
  out.seed_given = app.count("--seed") > 0;
  if (!out.scenario_given) out.scenario = asset_dir() + "/scenarios/default.json";
  return 0;
}

}  // namespace colony
