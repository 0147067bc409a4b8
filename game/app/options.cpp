// options.cpp — the command line, parsed with CLI11. One error line and exit code 2
// for anything wrong: unknown flag, missing value, wrong type, out of range, missing file.
#include "options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "files.h"
#include "version.h"

namespace colony {

std::string asset_dir() {
#ifdef COLONY_ASSET_DIR
  if (std::filesystem::is_directory(COLONY_ASSET_DIR)) return COLONY_ASSET_DIR;
#endif
  return "assets";
}

namespace {

// A file option checked by one of files.h's why_not_ functions: the path and the reason.
CLI::Validator file_check(std::string (*why_not)(const std::string&)) {
  return CLI::Validator(
      [why_not](std::string& path) -> std::string {
        std::string why = why_not(path);
        return why.empty() ? why : printable(path) + ": " + why;
      },
      "FILE");
}
// A file the program will read: it must be a regular file (a pipe or a device could
// block or never end).
const auto kReadableFile = file_check(why_not_readable);
// A file the program will write: its folder must exist and take a new file, and the
// path must not name a folder, a device or a pipe. Checked before anything runs.
const auto kWritableFile = file_check(why_not_writable);

// A screenshot's name: screenshots are PNG, so the name says .png (any case).
const auto kPngName = CLI::Validator(
    [](std::string& path) -> std::string {
      std::string ext = std::filesystem::path(path).extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      return ext == ".png" ? std::string() : printable(path) + ": screenshots are PNG files; name it .png";
    },
    "PNG");

// A whole number from lo to hi, in decimal. CLI11's own checks clamp a seed too large for
// 64 bits and call a word "Value abc not in range": this one says which of the two it is.
// A transform, not a check: the number is handed on as checked ("0400" becomes "400"; CLI11
// would read it as octal 256, past the check).
CLI::Validator whole_number(std::uint64_t lo, std::uint64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        const std::string range = " from " + std::to_string(lo) + " to " + std::to_string(hi);
        std::uint64_t v = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        // All digits, whether or not they fit in 64 bits; then in the range.
        const bool digits =
            (ec == std::errc() || ec == std::errc::result_out_of_range) && end == text.data() + text.size();
        if (!digits) return "'" + printable(text) + "' is not a whole number" + range;
        if (ec != std::errc() || v < lo || v > hi) return "'" + printable(text) + "' is outside the range" + range;
        text = std::to_string(v);
        return {};
      },
      "in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

// A switch's value: on or off.
const auto kOnOff = CLI::Validator(
    [](std::string& text) -> std::string {
      return text == "on" || text == "off" ? std::string() : "'" + printable(text) + "' is neither on nor off";
    },
    "on|off");

// Two options naming one file (an output over an input, or two outputs) would have one
// overwrite the other: refused by name.
std::string same_file_problem(const Options& o) {
  struct Named {
    const char* flag;
    const std::string* path;
  };
  // The default scenario stands in when no world file is given: an input then, but not a
  // flag to name; with --load or --replay it is not read at all.
  static const std::string kNotRead;
  const bool scenario_read = o.scenario_given || (o.load.empty() && o.replay.empty());
  const Named files[] = {
      {"--report", &o.report},
      {"--save", &o.save},
      {"--record", &o.record},
      {"--screenshot", &o.screenshot},
      {o.scenario_given ? "--scenario" : "the default scenario", scenario_read ? &o.scenario : &kNotRead},
      {"--load", &o.load},
      {"--replay", &o.replay}};
  const size_t outputs = 4;
  // Each given path once, absolute first: weakly_canonical leaves a relative path whose
  // first part does not exist yet as it is ("a.json" against "./a.json").
  std::filesystem::path keys[std::size(files)];
  for (size_t i = 0; i < std::size(files); ++i) {
    if (files[i].path->empty()) continue;
    std::error_code ec;
    auto abs = std::filesystem::absolute(*files[i].path, ec).lexically_normal();
    auto c = std::filesystem::weakly_canonical(abs, ec);
    keys[i] = ec ? abs : c;
  }
  for (size_t i = 0; i < outputs; ++i) {
    if (files[i].path->empty()) continue;
    for (size_t k = i + 1; k < std::size(files); ++k)
      if (!files[k].path->empty() && keys[i] == keys[k])
        return std::string(files[i].flag) + " and " + files[k].flag +
               " name the same file: " + printable(*files[i].path);
  }
  return {};
}

// What CLI11 lets pass that a strict command line refuses, or "": a flag given twice
// (the second had silently replaced the first), an empty value (`--report=` took the next
// flag as its file name), a value that looks like a flag (`--report --validate` wrote the
// report to a file named --validate). Negative numbers ("-5") are values, refused later
// for their range. One line naming the flag.
std::string strict_problem(CLI::App& app, int argc, char** argv) {
  std::vector<const CLI::Option*> seen;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.rfind("--", 0) != 0) continue;
    const size_t eq = arg.find('=');
    const std::string flag = arg.substr(0, eq);
    const CLI::Option* opt = app.get_option_no_throw(flag);
    if (!opt) continue;  // unknown: CLI11 names it
    if (std::find(seen.begin(), seen.end(), opt) != seen.end()) return flag + ": given twice (give each flag once)";
    seen.push_back(opt);
    if (opt->get_expected_max() == 0) continue;  // a switch: it takes no value
    std::string value;
    if (eq != std::string::npos) value = arg.substr(eq + 1);
    else if (i + 1 < argc) value = argv[++i];
    else continue;  // missing: CLI11 says so
    if (value.empty()) return flag + ": an empty value (\"\"); it needs one";
    const bool negative_number =
        value.size() > 1 && value[0] == '-' && (std::isdigit(static_cast<unsigned char>(value[1])) || value[1] == '.');
    if (value[0] == '-' && value.size() > 1 && !negative_number)
      return flag + ": its value '" + printable(value) + "' looks like a flag (a file of that name: write ./" +
             printable(value) + ")";
  }
  return {};
}

}  // namespace

int parse_options(int argc, char** argv, Options& out) {
  CLI::App app{"Colony — an ant colony on variable-count component pools", "colony"};
  app.option_defaults()->always_capture_default();

  app.set_version_flag("--version", version_line(), "Print the version and the commit it was built from, and exit");
  auto* headless = app.add_flag("--headless", out.headless, "Run without a window for --ticks ticks");
  app.add_option("--scenario", out.scenario, "Scenario JSON file")->check(kReadableFile);
  app.add_option("--ticks", out.ticks, "Headless: ticks to run (with --replay: the recording's length)")
      ->transform(whole_number(0, 1'000'000'000))
      ->needs(headless);
  std::string seed_text, sim_thread_text = "on";
  auto* seed = app.add_option("--seed", seed_text, "Random seed (default: the scenario's)")
                   ->transform(whole_number(0, UINT64_MAX));
  app.add_option("--threads", out.threads, "Threads the simulation runs on (default: the machine's cores)")
      ->transform(whole_number(1, 64));
  app.add_option("--report", out.report, "Headless: write a JSON report here")->check(kWritableFile)->needs(headless);
  app.add_option("--series-every", out.series_every,
                 "Headless: the report's per-colony population, every this many ticks (0: none)")
      ->transform(whole_number(0, 1'000'000'000))
      ->needs(headless);
  // The window has its own switch (the debugger's Stress panel: validate every tick).
  app.add_flag("--validate", out.validate, "Headless: run the pool validator every tick (violations: exit 3)")
      ->needs(headless);

  app.add_option("--rewind-check", out.rewind_check,
                 "Headless: run N ticks, then rewind to random ticks of the history and re-simulate them (a hash "
                 "differing from live play: exit 3)")
      ->transform(whole_number(1, 1'000'000'000))
      ->needs(headless)
      ->excludes("--ticks");
  app.add_option(
         "--history-mb", out.history_mb,
         "Memory for the rewind history in MB (default: 256 or an eighth of the memory budget, the less; 0: none)")
      ->transform(whole_number(0, 1'000'000));
  // The window's options mean nothing without a window: refused with --headless.
  CLI::Option* window_only[] = {
      app.add_option("--screenshot", out.screenshot, "Write the last frame to this PNG and exit")
          ->check(kPngName)
          ->check(kWritableFile),
      app.add_option("--frames", out.frames, "Frames to render before exiting")->transform(whole_number(1, 10'000'000)),
      app.add_flag("--debug-ui", out.debug_ui, "Open the pool debugger at start"),
      app.add_option("--width", out.width, "Window width in pixels")->transform(whole_number(320, 16384)),
      app.add_option("--height", out.height, "Window height in pixels")->transform(whole_number(240, 16384)),
      app.add_flag("--no-vsync", out.no_vsync, "Do not wait for vertical sync"),
      app.add_option("--sim-thread", sim_thread_text,
                     "on: the simulation ticks on its own thread while the frame draws; off: one thread for both")
          ->check(kOnOff)};
  for (CLI::Option* w : window_only) w->excludes(headless);

  app.add_option("--save", out.save, "Save the world to this file at exit")->check(kWritableFile);
  auto* load = app.add_option("--load", out.load, "Start from a saved world")->check(kReadableFile);
  app.add_option("--record", out.record, "Record player commands to this file")->check(kWritableFile);
  auto* replay = app.add_option("--replay", out.replay, "Play recorded commands back")->check(kReadableFile);
  // A save or a replay carries its world's seed.
  seed->excludes(load);
  seed->excludes(replay);
  load->excludes("--scenario");
  replay->excludes("--record");
  replay->excludes("--load");
  replay->excludes("--scenario");

  if (std::string problem = strict_problem(app, argc, argv); !problem.empty()) {
    std::fprintf(stderr, "colony: bad command line: %s (see --help)\n", problem.c_str());
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 1;
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return 1;
  } catch (const CLI::ParseError& e) {
    std::string msg = e.what();
    for (char& c : msg)
      if (c == '\n') c = ' ';
    std::fprintf(stderr, "colony: bad command line: %s (see --help)\n", printable(msg).c_str());
    return 2;
  }
  out.scenario_given = app.count("--scenario") > 0;
  out.ticks_given = app.count("--ticks") > 0;
  out.seed_given = app.count("--seed") > 0;
  out.history_mb_given = app.count("--history-mb") > 0;
  if (out.rewind_check) out.ticks = out.rewind_check;
  out.sim_thread = sim_thread_text == "on";
  if (out.seed_given) std::from_chars(seed_text.data(), seed_text.data() + seed_text.size(), out.seed);
  if (!out.scenario_given) out.scenario = asset_dir() + "/scenarios/default.json";
  if (std::string problem = same_file_problem(out); !problem.empty()) {
    std::fprintf(stderr, "colony: bad command line: %s (see --help)\n", problem.c_str());
    return 2;
  }
  return 0;
}

}  // namespace colony
