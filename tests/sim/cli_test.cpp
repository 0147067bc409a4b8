// cli_test.cpp — the real colony binary on the command line: headless runs, the report,
// validation, and every bad flag or bad scenario exiting 2 with one error line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "../common/scratch.h"
#include "game.h"
#include "options.h"

namespace {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

struct ProcessResult {
  int code = -1;
  std::string err;
};

fs::path temp_dir() { return colony_test::scratch_dir(); }

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs the binary with the arguments (shell words); `before` runs in the same shell first
// (limits, environment). A run that hangs is killed after a minute and fails its test.
ProcessResult run(const std::string& args, const std::string& before = "") {
  fs::path err = temp_dir() / "stderr.txt";
  std::string cmd = before + " timeout 60 " + std::string(COLONY_EXE) + " " + args + " >/dev/null 2>" + err.string();
  int status = std::system(cmd.c_str());
  ProcessResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err);
  return r;
}

fs::path write_scenario(const std::string& name, const std::string& text) {
  fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p;
}

const char* kSmall = R"({
  "world": { "width": 48, "height": 48, "chunk_size": 16 },
  "colonies": [ { "nest": [12, 12], "workers": 60, "soldiers": 10 }, { "nest": [36, 36], "workers": 60 } ],
  "random_food": { "count": 4 },
  "region": { "x": 0, "y": 0, "w": 20, "h": 20 },
  "events": [ { "kind": "bomb", "tick": 20, "at": [12, 12], "radius": 5 } ]
})";

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// The report of 120 validated ticks of scenario `scen` at seed 9, run by the binary.
nlohmann::json small_report(const fs::path& scen) {
  fs::path rep = temp_dir() / "report.json";
  ProcessResult r =
      run("--headless --scenario " + scen.string() + " --ticks 120 --seed 9 --validate --report " + rep.string());
  EXPECT_EQ(r.code, 0) << r.err;
  return r.code == 0 ? nlohmann::json::parse(read_file(rep)) : nlohmann::json();
}

TEST(Cli, HeadlessRunWritesTheReport) {
  auto j = small_report(write_scenario("small.json", kSmall));
  ASSERT_FALSE(j.is_null());
  EXPECT_EQ(j["ticks"], 120);
  EXPECT_EQ(j["seed"], 9);
  EXPECT_EQ(j["state_hash"].get<std::string>().size(), 16u);
  EXPECT_GT(j["ants"]["alive"].get<int>(), 0);
  EXPECT_GT(j["ants"]["died"]["explosion"].get<int>(), 0);
  for (const char* cause : {"explosion", "fire", "combat", "age", "starvation", "culled"})
    EXPECT_TRUE(j["ants"]["died"].contains(cause)) << cause;
  EXPECT_EQ(j["colonies"].size(), 2u);
  for (const char* pool : {"render_pieces", "collision_volumes", "sensors"})
    for (const char* key : {"capacity", "taken", "high_water", "failed_reservations", "rewires"})
      EXPECT_TRUE(j["pools"][pool].contains(key)) << pool << "." << key;
  EXPECT_EQ(j["invariant_violations"], 0);
  EXPECT_EQ(j["validated_ticks"], 120) << "--validate ran the validator after every tick";
  EXPECT_GT(j["moves"].get<int>(), 0);  // the ants crossed chunks and left the region
  EXPECT_EQ(j["refused_moves"], 0);
  for (const char* system : {"simulate", "pheromones", "fire", "destroy", "regions", "dormant", "corpses"})
    EXPECT_TRUE(j["timing_ms"].contains(system)) << system;
  EXPECT_TRUE(j["rss_mb"].contains("start"));
  EXPECT_TRUE(j["rss_mb"].contains("end"));
}

// The report's numbers are the world's: the same scenario, seed and ticks run in this
// process (validated after every tick, as --validate does) give the same state hash, ant
// counts, pool figures, entity counts and moves.
TEST(Cli, TheReportGivesTheNumbersOfTheSameRunInProcess) {
  fs::path scen = write_scenario("small.json", kSmall);
  auto j = small_report(scen);
  ASSERT_FALSE(j.is_null());

  colony::Scenario s;
  std::string err;
  ASSERT_TRUE(colony::load_scenario(scen.string(), s, &err)) << err;
  auto g = colony::make_game(s, 9, &err);
  ASSERT_TRUE(g) << err;
  for (int t = 0; t < 120; ++t) {
    colony::simulate_tick(*g);
    colony::validate_game(*g, 1);
  }
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", (unsigned long long)colony::state_hash(*g));
  EXPECT_EQ(j["state_hash"], hash);
  EXPECT_EQ(j["ants"]["alive"], colony::ants_alive(*g));
  EXPECT_EQ(j["ants"]["born"], colony::ants_born(*g));
  EXPECT_EQ(j["ants"]["died"]["explosion"], colony::ants_died(*g).by_cause[size_t(colony::DeathCause::Explosion)]);
  int pools = 0;
  for (const ecs::PoolStats* st : g->ecs->all_stats()) {
    SCOPED_TRACE(st->name);
    const auto& p = j["pools"][st->name];
    EXPECT_EQ(p["capacity"], st->capacity);
    EXPECT_EQ(p["taken"], st->taken);
    EXPECT_EQ(p["high_water"], st->high_water);
    EXPECT_EQ(p["failed_reservations"], st->total.failed_reservations);
    EXPECT_EQ(p["rewires"], st->total.rewires);
    EXPECT_EQ(p["reserves"], st->total.reserves);
    EXPECT_EQ(p["removes"], st->total.removes);
    EXPECT_EQ(p["reserved_unused"], st->reserved_unused);
    EXPECT_GT(st->taken, 0u);
    ++pools;
  }
  EXPECT_EQ(pools, 3);
  EXPECT_EQ(j["pools"].size(), 3u);
  EXPECT_EQ(j["entities"]["live"], g->ecs->live_count());
  EXPECT_EQ(j["entities"]["simulated"], g->ecs->simulated_count());
  EXPECT_EQ(j["moves"], g->moves);
  EXPECT_EQ(j["spawn_refused"], g->spawn_refused);
}

// The headless progress line counts violations only when the validator runs: without
// --validate it does not say "0 violations" of checks never made.
TEST(Cli, TheProgressLineCountsViolationsOnlyWhenValidating) {
  fs::path scen = write_scenario("small.json", kSmall);
  ProcessResult r = run("--headless --ticks 600 --scenario " + scen.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("tick 600/600"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("violations"), std::string::npos) << r.err;
  r = run("--headless --ticks 600 --validate --scenario " + scen.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find(" 0 violations"), std::string::npos) << r.err;
}

TEST(Cli, SameSeedSameHashOtherSeedOtherHash) {
  fs::path scen = write_scenario("small.json", kSmall);
  auto hash = [&](int seed) {
    fs::path rep = temp_dir() / "h";
    rep += std::to_string(seed) + ".json";  // ("h" + string: GCC 12 warns falsely, -Wrestrict)
    ProcessResult r = run("--headless --scenario " + scen.string() + " --ticks 90 --seed " + std::to_string(seed) +
                          " --report " + rep.string());
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(read_file(rep))["state_hash"].get<std::string>();
  };
  std::string a = hash(1), b = hash(1), c = hash(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// --threads N sets the simulation's threads and the report names the count it ran with;
// without the flag the run takes the machine's cores. The world is the same whatever the
// count. Anything but a whole number from 1 to 64 is one line naming the flag and the
// problem, exit 2, and nothing runs (no report is written).
TEST(Cli, ThreadsSetsTheSimulationsThreadsAndTheReportNamesThem) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path rep = temp_dir() / "threads.json";
  auto report = [&](const std::string& flag) {
    fs::remove(rep);
    ProcessResult r =
        run("--headless --scenario " + scen.string() + " --ticks 60 --seed 4 " + flag + " --report " + rep.string());
    EXPECT_EQ(r.code, 0) << flag << "\n" << r.err;
    return r.code == 0 ? nlohmann::json::parse(read_file(rep)) : nlohmann::json::object();
  };
  auto one = report("--threads 1"), two = report("--threads 2"), cores = report("");
  EXPECT_EQ(one["threads"], 1);
  EXPECT_EQ(two["threads"], 2);
  EXPECT_EQ(cores["threads"], std::max(1u, std::thread::hardware_concurrency()));
  EXPECT_EQ(one["state_hash"], two["state_hash"]);
  EXPECT_EQ(one["state_hash"], cores["state_hash"]);
  const std::pair<const char*, const char*> bad[] = {{"0", "is outside the range from 1 to 64"},
                                                     {"65", "is outside the range from 1 to 64"},
                                                     {"99999999999999999999", "is outside the range from 1 to 64"},
                                                     {"two", "is not a whole number from 1 to 64"},
                                                     {"1.5", "is not a whole number from 1 to 64"},
                                                     {"-2", "is not a whole number from 1 to 64"}};
  for (const auto& [value, problem] : bad) {
    fs::remove(rep);
    ProcessResult r =
        run("--headless --scenario " + scen.string() + " --ticks 5 --threads " + value + " --report " + rep.string());
    EXPECT_EQ(r.code, 2) << value << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << value << "\n" << r.err;
    EXPECT_NE(r.err.find("--threads: '" + std::string(value) + "' " + problem), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(rep)) << value;
  }
  // The window takes it too, and refuses a bad count before it opens.
  ProcessResult windowed = run("--threads 0 --scenario " + scen.string());
  EXPECT_EQ(windowed.code, 2) << windowed.err;
  EXPECT_NE(windowed.err.find("--threads: '0' is outside the range"), std::string::npos) << windowed.err;
}

// Bad flags: one line on stderr, exit 2.
TEST(Cli, BadFlagsExitTwoWithOneLine) {
  fs::path scen = write_scenario("small.json", kSmall);
  const std::string s = " --scenario " + scen.string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--headless --ticks abc" + s, "--ticks"},
      {"--headless --ticks -5" + s, "--ticks"},
      {"--headless --ticks" + s, "--ticks"},
      {"--headless --ticks 10 --seed x" + s, "--seed"},
      {"--headless --scenario /nonexistent/file.json", "--scenario"},
      {"--headless --ticks 10 --report /nonexistent/dir/r.json" + s, "--report"},
      {"--width 5", "--width"},
      {"--height 99999", "--height"},
      {"--frames 0", "--frames"},
      {"--frames many", "--frames"},
      {"--load /nonexistent/save.bin", "--load"},
      {"--replay /nonexistent/r.rep", "--replay"},
      {"--screenshot /nonexistent/dir/x.png", "--screenshot"},
      {"--no-such-flag", "no-such-flag"},
      {"--threads 0", "--threads"},
      {"--headless --ticks 10 --threads 65" + s, "--threads"},
      {"--sim-thread maybe", "--sim-thread"},
      {"--headless --ticks 10 --sim-thread off" + s, "--sim-thread"},
  };
  for (const auto& [args, mention] : cases) {
    ProcessResult r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << "\n" << r.err;
  }
}

// Bad scenarios through the binary: exit 2, one line naming the file and the key path.
TEST(Cli, BadScenariosExitTwoNamingFileAndKey) {
  std::string good = kSmall;
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    return s.replace(s.find(from), from.size(), to);
  };
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"unknown_key.json", variant("\"workers\": 60, \"soldiers\"", "\"wokers\": 60, \"soldiers\""),
       "colonies[0].wokers: unknown key"},
      {"wrong_type.json", variant("\"width\": 48", "\"width\": true"),
       "world.width: expected an integer, got a boolean"},
      {"negative_radius.json", variant("\"radius\": 5", "\"radius\": -5"),
       "events[0].radius: radius must not be negative"},
      {"nest_in_water.json",
       variant("\"random_food\"",
               "\"terrain\": { \"shapes\": [ { \"terrain\": \"water\", \"circle\": [12, 12, 3] } ] }, \"random_food\""),
       "colonies[0].nest: the nest is in water"},
      {"too_many_ants.json", variant("\"random_food\"", "\"capacity\": { \"sensors\": 100 }, \"random_food\""),
       "capacity.sensors: the scenario starts with"},
      {"truncated.json", good.substr(0, good.size() - 40), "(document): invalid JSON"},
      {"huge_width.json", variant("\"width\": 48", "\"width\": 100000000000000000000000"),
       "world.width: 100000000000000000000000 is too large"},
      {"nest_at_edge.json", variant("\"nest\": [36, 36]", "\"nest\": [36, 47.999999999]"),
       "colonies[1].nest: (36, 47.999999999) is outside the 48x48 map (47.999999999 rounds to its edge, 48)"},
  };
  for (const auto& [name, text, message] : cases) {
    fs::path p = write_scenario(name, text);
    fs::path rep = temp_dir() / "should_not_exist.json";
    fs::remove(rep);
    ProcessResult r = run("--headless --ticks 10 --scenario " + p.string() + " --report " + rep.string());
    EXPECT_EQ(r.code, 2) << name << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << name << "\n" << r.err;
    EXPECT_NE(r.err.find(p.string()), std::string::npos) << name << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << name << "\n" << r.err;
    EXPECT_FALSE(fs::exists(rep)) << name << ": nothing may run";
  }
}

// The outputs of a run are written together or not at all: the save fails partway (the
// file-size limit stands for a full disk) after the report was written, and neither the
// report already there nor anything else in the folder changes.
TEST(Cli, OutputsAreAllWrittenOrNoneChanges) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path out = temp_dir() / "outputs";
  fs::remove_all(out);
  fs::create_directories(out);
  fs::path rep = out / "report.json", save = out / "world.colony";
  std::ofstream(rep) << "the previous report";
  ProcessResult r = run(
      "--headless --scenario " + scen.string() + " --ticks 20 --report " + rep.string() + " --save " + save.string(),
      "ulimit -f 8; trap '' XFSZ;");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(save.string() + ": write failed"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(rep), "the previous report");
  EXPECT_FALSE(fs::exists(save));
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"report.json"});
  // Without the limit both are written.
  r = run("--headless --scenario " + scen.string() + " --ticks 20 --report " + rep.string() + " --save " +
          save.string());
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(read_file(rep))["ticks"], 20);
  EXPECT_TRUE(fs::exists(save));
}

// A file name need not be UTF-8: the report still writes (its bad bytes as U+FFFD) and an
// error line shows them escaped.
TEST(Cli, AFileNameThatIsNotUtf8) {
  fs::path scen = temp_dir() / "name\xff.json";
  std::ofstream(scen) << kSmall;
  fs::path rep = temp_dir() / "utf8_report.json";
  fs::remove(rep);
  ProcessResult r = run("--headless --ticks 5 --scenario '" + scen.string() + "' --report " + rep.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(read_file(rep));
  EXPECT_NE(j["scenario"].get<std::string>().find("name\xef\xbf\xbd.json"), std::string::npos);
  std::ofstream(scen) << "{";
  r = run("--headless --ticks 5 --scenario '" + scen.string() + "'");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("name\\xff.json: (document): invalid JSON"), std::string::npos) << r.err;
}

// An output named through a symbolic link is written to the file the link names; the link
// stays a link (renaming over it would have replaced it with a plain file).
TEST(Cli, AnOutputThroughASymbolicLinkWritesItsTarget) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path target = temp_dir() / "link_target.json", link = temp_dir() / "link.json";
  fs::remove(target), fs::remove(link);
  std::ofstream(target) << "old";
  fs::create_symlink(target, link);
  ProcessResult r = run("--headless --ticks 5 --scenario " + scen.string() + " --report " + link.string());
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(nlohmann::json::parse(read_file(target))["ticks"], 5);
}

// A windowed run whose screenshot cannot be written fails in one line and writes nothing
// else: the save and the recording from before stay as they were. (The window opens on
// the SDL driver ctest gives this suite: offscreen, or dummy in sanitizer builds.)
TEST(Cli, AWindowRunWhoseScreenshotFailsWritesNothingElse) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path out = temp_dir() / "window_outputs";
  fs::remove_all(out);
  fs::create_directories(out);
  fs::path shot = out / "shot.png", save = out / "world.colony", rec = out / "run.replay";
  std::ofstream(save) << "the previous save";
  std::ofstream(rec) << "the previous recording";
  ProcessResult r = run("--scenario " + scen.string() + " --width 640 --height 480 --frames 3 --screenshot " +
                            shot.string() + " --save " + save.string() + " --record " + rec.string(),
                        "ulimit -f 8; trap '' XFSZ;");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(shot.string() + ": write failed"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(save), "the previous save");
  EXPECT_EQ(read_file(rec), "the previous recording");
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"run.replay", "world.colony"}));
}

// A window size given on one side alone is kept, the other side taking its default (four
// fifths of the display, within 960-1600 by 640-1000), not ignored for want of the other. The screenshot's header
// carries the size the window had.
TEST(Cli, AWindowSizeGivenOnOneSideIsKept) {
  fs::path scen = write_scenario("small.json", kSmall);
  auto png_size = [](const fs::path& png) {
    const std::string b = read_file(png);
    auto be32 = [&](size_t at) {
      return b.size() < at + 4 ? 0u
                               : (unsigned(std::uint8_t(b[at])) << 24 | unsigned(std::uint8_t(b[at + 1])) << 16 |
                                  unsigned(std::uint8_t(b[at + 2])) << 8 | unsigned(std::uint8_t(b[at + 3])));
    };
    return std::pair<unsigned, unsigned>{be32(16), be32(20)};  // IHDR's width and height
  };
  fs::path shot = temp_dir() / "one_side.png";
  fs::remove(shot);
  ProcessResult r = run("--scenario " + scen.string() + " --width 700 --frames 2 --screenshot " + shot.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto [w, h] = png_size(shot);
  EXPECT_EQ(w, 700u);
  EXPECT_GE(h, 640u);
  EXPECT_LE(h, 1000u);
  fs::remove(shot);
  r = run("--scenario " + scen.string() + " --height 500 --frames 2 --screenshot " + shot.string());
  ASSERT_EQ(r.code, 0) << r.err;
  std::tie(w, h) = png_size(shot);
  EXPECT_EQ(h, 500u);
  EXPECT_GE(w, 960u);
  EXPECT_LE(w, 1600u);
}

// Without a display SDL comes up on its offscreen driver, where the game would run unseen:
// the window is refused in one line, exit 2, before the 10 s limit (the run it replaces
// never ended). XDG_RUNTIME_DIR goes too, so no Wayland socket is found by its default
// name, and libwayland's own complaint about it stays off stderr. A screenshot run needs
// no one to watch it and runs (not under AddressSanitizer: the offscreen driver brings
// Mesa's leaks into the process, see tests/CMakeLists.txt).
TEST(Cli, WithoutADisplayTheWindowIsRefusedInOneLine) {
  const std::string no_display = "env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER -u XDG_RUNTIME_DIR timeout 10";
  ProcessResult r = run("", no_display);
  EXPECT_EQ(r.code, 2) << r.err;  // 124 when it ran on to the limit
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("no display found (neither DISPLAY nor WAYLAND_DISPLAY is set); run it on a desktop, or use "
                       "--headless"),
            std::string::npos)
      << r.err;
  if (kAddressSanitizer) return;
  fs::path scen = write_scenario("small.json", kSmall), shot = temp_dir() / "no_display.png";
  fs::remove(shot);
  r = run("--scenario " + scen.string() + " --width 320 --height 240 --frames 2 --screenshot " + shot.string(),
          no_display);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(fs::is_regular_file(shot)) << r.err;
  // The run's summary ends with the most memory it held.
  EXPECT_NE(r.err.find("; max resident memory "), std::string::npos) << r.err;
}

// A windowed replay names the last tick it checked: the tick the window closed at, or the
// recording's end when play went on live after it.
TEST(Cli, AWindowReplayNamesTheLastTickItChecked) {
  fs::path scen = write_scenario("small.json", kSmall), rec = temp_dir() / "short.replay";
  fs::remove(rec);
  ProcessResult r = run("--headless --ticks 40 --scenario " + scen.string() + " --record " + rec.string());
  ASSERT_EQ(r.code, 0) << r.err;
  // --frames runs one tick per frame.
  r = run("--replay " + rec.string() + " --width 320 --height 240 --frames 20");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("matched through tick 20 (closed before the end of the recording)"), std::string::npos) << r.err;
  r = run("--replay " + rec.string() + " --width 320 --height 240 --frames 70");
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("matched through tick 40 (the end of the recording; play went on live to tick 70)"),
            std::string::npos)
      << r.err;
}

// Inputs that are not regular files are refused at once: a pipe would block, a device
// such as /dev/zero would never end.
TEST(Cli, InputsThatAreNotRegularFilesAreRefusedAtOnce) {
  fs::path fifo = temp_dir() / "pipe";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& args :
       {"--headless --ticks 5 --scenario " + fifo.string(), "--headless --ticks 5 --load " + fifo.string(),
        "--headless --ticks 5 --replay " + fifo.string(), std::string("--headless --ticks 5 --scenario /dev/zero")}) {
    ProcessResult r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << args << "\n" << r.err;
  }
  fs::remove(fifo);
}

// Outputs that cannot be written are refused before anything runs, and nothing is written.
TEST(Cli, OutputsThatCannotBeWrittenAreRefusedBeforeTheRun) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path fifo = temp_dir() / "out_pipe", rep = temp_dir() / "not_written.json";
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--report /dev/full", "--report"},
      {"--report /proc/colony_report.json", "--report"},
      {"--report " + rep.string() + " --save " + fifo.string(), "--save"},
      {"--report " + rep.string() + " --record /proc/colony.replay", "--record"},
  };
  for (const auto& [outputs, flag] : cases) {
    fs::remove(rep);
    ProcessResult r = run("--headless --ticks 5 --scenario " + scen.string() + " " + outputs);
    EXPECT_EQ(r.code, 2) << outputs << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << outputs << "\n" << r.err;
    EXPECT_NE(r.err.find(flag), std::string::npos) << outputs << "\n" << r.err;
    EXPECT_FALSE(fs::exists(rep)) << outputs;
  }
  fs::remove(fifo);
}

// The default scenario stands in when no world file is named; with --load or --replay it
// is not read, and a refusal never names a --scenario that was not given.
TEST(Cli, AnUngivenScenarioIsNoFlagToRefuse) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path save = temp_dir() / "ungiven.colony";
  ASSERT_EQ(run("--headless --ticks 5 --scenario " + scen.string() + " --save " + save.string()).code, 0);
  auto parse = [](std::vector<std::string> args) {
    args.insert(args.begin(), "colony");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    colony::Options o;
    return colony::parse_options(int(argv.size()), argv.data(), o);
  };
  const std::string default_scenario = colony::asset_dir() + "/scenarios/default.json";
  EXPECT_EQ(parse({"--headless", "--load", save.string(), "--report", default_scenario}), 0);
  EXPECT_EQ(parse({"--headless", "--report", default_scenario}), 2) << "the default scenario is read here";
  testing::internal::CaptureStderr();
  parse({"--headless", "--save", default_scenario});
  EXPECT_NE(testing::internal::GetCapturedStderr().find("--save and the default scenario name the same file"),
            std::string::npos);
  EXPECT_EQ(parse({"--headless", "--scenario", scen.string(), "--report", scen.string()}), 2);
}

// Flags that contradict each other are refused, and no input is overwritten by an output.
TEST(Cli, ConflictingFlagsAreRefused) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path save = temp_dir() / "conflict.colony", rep = temp_dir() / "conflict.json";
  ASSERT_EQ(run("--headless --ticks 5 --scenario " + scen.string() + " --save " + save.string()).code, 0);
  const std::string s = " --scenario " + scen.string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--headless --ticks 5 --screenshot " + (temp_dir() / "x.png").string() + s, "--screenshot"},
      {"--headless --ticks 5 --debug-ui" + s, "--debug-ui"},
      {"--headless --ticks 5 --frames 3" + s, "--frames"},
      {"--headless --ticks 5 --seed 4 --load " + save.string(), "--seed"},
      {"--headless --ticks 5 --report " + rep.string() + " --save " + rep.string() + s, "name the same file"},
      {"--headless --ticks 5 --report " + scen.string() + s, "name the same file"},
      {"--headless --ticks 5 --save " + save.string() + " --load " + save.string(), "name the same file"},
      {"--headless --ticks 5 --seed 18446744073709551616" + s, "--seed"},
      {"--ticks 5" + s, "--ticks"},
      {"--report " + rep.string() + s, "--report"},
      {"--headless --ticks 5 --seed 99999999999999999999999" + s, "--seed"},
  };
  const std::string scenario_text = read_file(scen);
  for (const auto& [args, mention] : cases) {
    ProcessResult r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_LT(r.err.size(), 300u) << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << "\n" << r.err;
  }
  EXPECT_EQ(read_file(scen), scenario_text);
  EXPECT_FALSE(fs::exists(rep));
  // Two spellings of one new file, relative to the working folder.
  fs::remove(temp_dir() / "one.json");
  ProcessResult same =
      run("--headless --ticks 5 --report one.json --save ./one.json" + s, "cd " + temp_dir().string() + " &&");
  EXPECT_EQ(same.code, 2) << same.err;
  EXPECT_NE(same.err.find("name the same file"), std::string::npos) << same.err;
  EXPECT_FALSE(fs::exists(temp_dir() / "one.json"));
  // The largest seed is a seed.
  ProcessResult r = run("--headless --ticks 5 --seed 18446744073709551615 --report " + rep.string() + s);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(read_file(rep))["seed"].get<std::uint64_t>(), 18446744073709551615ull);
}

// A world larger than the memory it may use is refused before it is built, from a
// scenario or from a save (COLONY_MEMORY_BUDGET_MB stands for a smaller machine).
TEST(Cli, AWorldTooLargeForMemoryIsRefusedBeforeItIsBuilt) {
  std::string big = kSmall;
  const std::string size = "\"width\": 48, \"height\": 48";
  big.replace(big.find(size), size.size(), "\"width\": 2048, \"height\": 2048");
  fs::path scen = write_scenario("big.json", big), rep = temp_dir() / "big.json.report";
  fs::remove(rep);
  ProcessResult r = run("--headless --ticks 5 --scenario " + scen.string() + " --report " + rep.string(),
                        "COLONY_MEMORY_BUDGET_MB=500");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(scen.string() + ": world: this world takes about 1."), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" GB with its pools full (1."), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" GB to start), more than the 500 MB allowed (COLONY_MEMORY_BUDGET_MB)"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(rep));
  fs::path small = write_scenario("small.json", kSmall), save = temp_dir() / "small_budget.colony";
  ASSERT_EQ(run("--headless --ticks 5 --scenario " + small.string() + " --save " + save.string()).code, 0);
  // From a save: its content (0.9 MB) past the budget is refused unread; content that
  // fits, for a world that does not, by the world's size.
  r = run("--headless --ticks 5 --load " + save.string(), "COLONY_MEMORY_BUDGET_MB=0.1");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("uncompressed, more than the 0.1 MB allowed for a world (COLONY_MEMORY_BUDGET_MB)"),
            std::string::npos)
      << r.err;
  r = run("--headless --ticks 5 --load " + save.string(), "COLONY_MEMORY_BUDGET_MB=2");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("this world takes about"), std::string::npos) << r.err;
  // A limit the budget does not see (the address space here) still ends in one line
  // naming the scenario. (AddressSanitizer's shadow memory needs more address space than
  // any such limit leaves: not under the sanitizers.)
  if (!kAddressSanitizer) {
    r = run("--headless --ticks 5 --scenario " + scen.string() + " --report " + rep.string(), "ulimit -v 600000;");
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(scen.string() + ": world: out of memory while building it (about "), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find(" MB to start)"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(rep));
  }
  for (const char* bad : {"abc", "-5", "0", "12MB"}) {
    r = run("--headless --ticks 5 --scenario " + small.string(), std::string("COLONY_MEMORY_BUDGET_MB=") + bad);
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(std::string("COLONY_MEMORY_BUDGET_MB is '") + bad + "', not a positive number of megabytes"),
              std::string::npos)
        << r.err;
  }
}

// The flags --help lists: each name, and whether it takes a value (a type after it).
std::vector<std::pair<std::string, bool>> listed_flags() {
  fs::path out = temp_dir() / "help.txt";
  EXPECT_EQ(std::system((std::string(COLONY_EXE) + " --help >" + out.string() + " 2>&1").c_str()), 0);
  std::vector<std::pair<std::string, bool>> flags;
  std::istringstream help(read_file(out));
  for (std::string line; std::getline(help, line);) {
    std::istringstream words(line);
    std::string first, second;
    words >> first >> second;
    if (first.rfind("-h,", 0) == 0) first = first.substr(3);
    if (first.rfind("--", 0) != 0) continue;
    // A type names the value: capitals up to its first ':' ("TEXT:FILE", "UINT:in").
    const std::string type = second.substr(0, second.find(':'));
    const bool typed =
        !type.empty() && std::all_of(type.begin(), type.end(), [](unsigned char c) { return std::isupper(c); });
    flags.push_back({first, typed});
  }
  return flags;
}

// Every flag, as the help lists it (so a flag added later is walked too): given twice,
// given an empty value (--flag= and --flag ""), given a value that looks like a flag.
// Each is refused with one line naming the flag, exit 2, and nothing runs. `--report=
// --validate` had written the report to a file named --validate and validated nothing.
TEST(Cli, EveryFlagRefusesARepeatAnEmptyValueAndAValueLikeAFlag) {
  auto flags = listed_flags();
  ASSERT_GE(flags.size(), 17u);
  int with_value = 0;
  for (const auto& [flag, takes_value] : flags) {
    auto refused = [&, flag = flag](const std::string& args, const std::string& problem) {
      ProcessResult r = run(args);
      EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
      EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
      EXPECT_NE(r.err.find("bad command line: " + flag + ": "), std::string::npos) << args << "\n" << r.err;
      EXPECT_NE(r.err.find(problem), std::string::npos) << args << "\n" << r.err;
    };
    const std::string v = takes_value ? " 1" : "";
    refused(flag + v + " " + flag + v, "given twice");
    refused("--headless " + flag + v + " --ticks 1 " + flag + v, "given twice");
    if (!takes_value) continue;
    ++with_value;
    refused(flag + "=", "an empty value");
    refused(flag + " ''", "an empty value");
    refused("--headless " + flag + "= --validate", "an empty value");
    refused(flag + " --headless", "looks like a flag");
    refused(flag + "=--validate --headless", "looks like a flag");
    refused(flag + " -x", "looks like a flag");
  }
  EXPECT_GE(with_value, 11);
  // The issue's run: no file named --validate appears, the run does not happen.
  fs::path cwd_file = fs::current_path() / "--validate";
  fs::remove(cwd_file);
  ProcessResult r = run("--headless --ticks 5 --report= --validate");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_FALSE(fs::exists(cwd_file));
  // An empty scenario path is named as such.
  r = run("--headless --scenario ''");
  EXPECT_NE(r.err.find("--scenario: an empty value (\"\")"), std::string::npos) << r.err;
  // Negative numbers stay values, refused for their range as before.
  r = run("--width -3");
  EXPECT_NE(r.err.find("--width: '-3' is not a whole number"), std::string::npos) << r.err;
}

TEST(Cli, HelpExitsZero) {
  ProcessResult r = run("--help");
  EXPECT_EQ(r.code, 0);
}

// The help lists --threads with its range and its default.
TEST(Cli, HelpListsThreads) {
  const auto flags = listed_flags();
  EXPECT_NE(std::find(flags.begin(), flags.end(), std::pair<std::string, bool>{"--threads", true}), flags.end());
  const std::string help = read_file(temp_dir() / "help.txt");
  EXPECT_NE(help.find("--threads UINT:in [1 - 64]"), std::string::npos) << help;
  EXPECT_NE(help.find("default: the machine's cores"), std::string::npos) << help;
}

// What a shell command prints on its standard output, and how it exits.
std::string output_of(const std::string& cmd, int* code) {
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[256];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    int status = pclose(p);
    *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return out;
}

// --version prints one line, the project's version and the commit the binary was built
// from (the source tree's HEAD, as the last build saw it; "unknown"
// where the sources are not a git checkout), and exits 0 without running anything.
TEST(Cli, VersionNamesTheVersionAndTheCommit) {
  int git_code = -1;
  std::string commit = output_of("git -C '" COLONY_SOURCE_DIR "' rev-parse --short HEAD 2>/dev/null", &git_code);
  if (!commit.empty() && commit.back() == '\n') commit.pop_back();
  if (git_code != 0 || commit.empty()) commit = "unknown";
  int code = -1;
  fs::path err = temp_dir() / "version_stderr.txt";
  std::string out = output_of(std::string(COLONY_EXE) + " --version 2>" + err.string(), &code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(read_file(err), "");
  const std::string head = std::string("colony ") + COLONY_PROJECT_VERSION + " (commit ";
  ASSERT_EQ(out.rfind(head, 0), 0u) << out;
  ASSERT_GE(out.size(), head.size() + 2);
  ASSERT_EQ(out.substr(out.size() - 2), ")\n") << out;
  const std::string built = out.substr(head.size(), out.size() - head.size() - 2);
  if (commit == "unknown") {
    EXPECT_EQ(built, "unknown");
    return;
  }
  // The build's commit is HEAD, or one of its ancestors when commits came after the build.
  ASSERT_GE(built.size(), 7u) << out;
  ASSERT_EQ(built.find_first_not_of("0123456789abcdef"), std::string::npos) << out;
  int ancestor = -1;
  output_of("git -C '" COLONY_SOURCE_DIR "' merge-base --is-ancestor " + built + " HEAD 2>/dev/null", &ancestor);
  EXPECT_EQ(ancestor, 0) << built << " is neither HEAD (" << commit << ") nor one of its ancestors";
}

}  // namespace

namespace {

// --rewind-check: a run whose random rewinds re-simulate as they played live says so and
// exits 0; its flags' bad values exit 2 with one line.
TEST(Cli, RewindCheckComparesRewoundTicksWithLivePlay) {
  fs::path scenario = write_scenario("rewind.json", kSmall);
  ProcessResult ok = run("--headless --scenario " + scenario.string() + " --rewind-check 400");
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_NE(ok.err.find("rewind check: 24 rewinds to random ticks of 6.7 s of history"), std::string::npos) << ok.err;
  EXPECT_NE(ok.err.find("compared with live play"), std::string::npos) << ok.err;
  EXPECT_NE(ok.err.find(": all equal"), std::string::npos) << ok.err;
  for (const char* bad : {"--rewind-check 0", "--rewind-check x", "--rewind-check 10 --ticks 5", "--history-mb -1"}) {
    ProcessResult r = run("--headless --scenario " + scenario.string() + " " + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1) << bad << ": " << r.err;
  }
  ProcessResult windowed = run("--scenario " + scenario.string() + " --rewind-check 10");
  EXPECT_EQ(windowed.code, 2) << windowed.err;
}

}  // namespace
