// cli_test.cpp — the colony executable itself: --save / --load continue a world exactly,
// --record / --replay reproduce a run, bad save and replay files and every flag given a
// wrong type, an out-of-range value, a missing value or a missing file end with one
// error line and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../common/scratch.h"
#include "replay.h"

namespace {

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string temp(const std::string& name) { return colony_test::scratch_path(name); }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quote(const std::string& a) {
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs build/colony with the arguments; no window is ever opened (offscreen driver).
// `shell` comes first on the shell's line (a ulimit, say).
Outcome colony(const std::vector<std::string>& args, const std::string& shell = "") {
  // Appended piece by piece: "literal" + std::string makes GCC 12 warn falsely (-Wrestrict).
  std::string cmd = shell;
  cmd += "SDL_VIDEODRIVER=offscreen ";
  cmd += quote(COLONY_BIN);
  for (const auto& a : args) cmd.append(" ").append(quote(a));
  std::string out = temp("stdout"), err = temp("stderr");
  cmd.append(" >").append(quote(out)).append(" 2>").append(quote(err)).append(" </dev/null");
  int status = std::system(cmd.c_str());
  Outcome r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out), r.err = slurp(err);
  return r;
}

std::string scenario(const std::string& name) { return std::string(COLONY_SOURCE_DIR) + "/assets/scenarios/" + name; }

std::string report_hash(const std::string& report) {
  return nlohmann::json::parse(slurp(report))["state_hash"].get<std::string>();
}

// Exit 2 with exactly one line on stderr, mentioning `needle`.
void expect_one_line_exit_2(const std::vector<std::string>& args, const std::string& needle = "") {
  std::string shown;
  for (const auto& a : args) shown += a + " ";
  SCOPED_TRACE(shown);
  Outcome r = colony(args);
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("colony: ", 0), 0u) << r.err;
  if (!needle.empty()) { EXPECT_NE(r.err.find(needle), std::string::npos) << r.err; }
}

TEST(SaveCli, SaveLoadAndContinueMatchesRunningStraight) {
  const std::string save = temp("a.colony"), r1 = temp("r1.json"), r2 = temp("r2.json");
  Outcome a = colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "300", "--save", save});
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_TRUE(std::filesystem::exists(save));
  EXPECT_FALSE(std::filesystem::exists(save + ".tmp"));
  Outcome b = colony({"--headless", "--load", save, "--ticks", "300", "--report", r1});
  ASSERT_EQ(b.code, 0) << b.err;
  Outcome c = colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "600", "--report", r2});
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_EQ(report_hash(r1), report_hash(r2));
  // The world's tick goes on from the save; the run's own ticks and rate count from there
  // (the rate was 600 ticks over the time of 300, and the line read "tick 600/300").
  auto loaded = nlohmann::json::parse(slurp(r1));
  EXPECT_EQ(loaded["ticks"], 600);
  EXPECT_EQ(loaded["ticks_run"], 300);
  EXPECT_NEAR(loaded["ticks_per_s"].get<double>(), 300 / loaded["wall_s"].get<double>(), 1e-6);
  Outcome d = colony({"--headless", "--load", save, "--ticks", "600"});
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.err.find("tick 900/900 "), std::string::npos) << d.err;
}

TEST(SaveCli, BadSaveFilesEndWithOneLineAndExit2) {
  const std::string save = temp("b.colony"), bad = temp("bad.colony");
  ASSERT_EQ(colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "10", "--save", save}).code, 0);
  std::string good = slurp(save);
  auto write = [&](const std::string& bytes) { std::ofstream(bad, std::ios::binary) << bytes; };
  write(good.substr(0, good.size() / 2));
  expect_one_line_exit_2({"--headless", "--load", bad, "--ticks", "1"}, bad + ": truncated");
  std::string flipped = good;
  flipped[flipped.size() / 2] = char(flipped[flipped.size() / 2] ^ 0x40);
  write(flipped);
  expect_one_line_exit_2({"--headless", "--load", bad, "--ticks", "1"}, bad + ": corrupted");
  std::string version = good;
  version[8] = 9;
  write(version);
  expect_one_line_exit_2({"--headless", "--load", bad, "--ticks", "1"}, bad + ": save format version 9");
  expect_one_line_exit_2({"--headless", "--load", scenario("default.json"), "--ticks", "1"}, "not a Colony save");
  // A save and a replay each name the flag that reads them when given to the other.
  const std::string rec = temp("b.replay");
  ASSERT_EQ(colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "5", "--record", rec}).code, 0);
  expect_one_line_exit_2({"--headless", "--load", rec, "--ticks", "1"},
                         rec + ": a Colony replay, not a save (read it with --replay)");
  expect_one_line_exit_2({"--headless", "--replay", save},
                         save + ": a Colony save, not a replay (read it with --load)");
  // And the other way round: a save or a replay is not a scenario.
  expect_one_line_exit_2({"--headless", "--scenario", save, "--ticks", "1"},
                         save + ": (document): a Colony save, not a scenario (read it with --load)");
}

// Past the file-size limit (ulimit -f) a save fails like any write: one line, exit 2,
// and no temporary left beside it (the signal the kernel sends does not end the run).
TEST(SaveCli, ASaveCutShortByTheFileSizeLimitEndsWithOneLine) {
  const std::string folder = temp("fsize");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  const std::string save = folder + "/big.colony";
  // 100 blocks of 512 bytes (POSIX sh): far below a save of the default world.
  Outcome r =
      colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "5", "--save", save}, "ulimit -f 100; ");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(save + ": write failed (" + std::strerror(EFBIG) + ")"), std::string::npos) << r.err;
  EXPECT_TRUE(std::filesystem::is_empty(folder)) << "a temporary was left behind";
  std::filesystem::remove_all(folder);
}

TEST(ReplayCli, RecordThenReplayHeadless) {
  const std::string rec = temp("run.replay"), r1 = temp("rr1.json"), r2 = temp("rr2.json");
  Outcome a =
      colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "240", "--record", rec, "--report", r1});
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = colony({"--headless", "--replay", rec, "--report", r2});
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_NE(b.err.find("240 tick digests and "), std::string::npos) << b.err;
  EXPECT_NE(b.err.find("full state hashes matched through tick 240"), std::string::npos) << b.err;
  EXPECT_EQ(report_hash(r1), report_hash(r2));
  // Past its end the run goes on live, and the line says where the checking stopped.
  Outcome c = colony({"--headless", "--replay", rec, "--ticks", "300"});
  ASSERT_EQ(c.code, 0) << c.err;
  EXPECT_NE(c.err.find("matched through tick 240 (the end of the recording; play went on live to tick 300)"),
            std::string::npos)
      << c.err;
  Outcome d = colony({"--headless", "--replay", rec, "--ticks", "100"});
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.err.find("matched through tick 100 (stopped before the end of the recording)"), std::string::npos)
      << d.err;
  expect_one_line_exit_2({"--headless", "--replay", scenario("default.json")}, "not a Colony replay");
  expect_one_line_exit_2({"--headless", "--scenario", rec, "--ticks", "1"},
                         rec + ": (document): a Colony replay, not a scenario (read it with --replay)");
}

// The debugger's kill % reaches a headless run only through a replay: the deaths it caused
// are reported as culled, overall and per colony, beside the other causes (not as
// explosions).
TEST(ReplayCli, CulledAntsAreReportedByTheirOwnCause) {
  const std::string rec = temp("cull.replay"), culled = temp("cull.json"), straight = temp("straight.json");
  colony::Scenario s;
  std::string err;
  ASSERT_TRUE(colony::load_scenario(scenario("default.json"), s, &err)) << err;
  auto g = colony::make_game(s, s.seed, &err);
  ASSERT_TRUE(g) << err;
  colony::Recorder recorder;
  ASSERT_TRUE(recorder.start(*g, &err)) << err;
  for (int t = 0; t < 30; ++t) {
    if (t == 5) colony::queue_command(*g, {colony::CommandKind::KillPercent, 0, 0, 0, 40});
    recorder.before_tick(*g);
    colony::simulate_tick(*g);
    recorder.after_tick(*g);
  }
  ASSERT_TRUE(recorder.write(rec, &err)) << err;
  Outcome a = colony({"--headless", "--replay", rec, "--report", culled});
  ASSERT_EQ(a.code, 0) << a.err;
  Outcome b = colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "30", "--report", straight});
  ASSERT_EQ(b.code, 0) << b.err;
  auto j = nlohmann::json::parse(slurp(culled)), k = nlohmann::json::parse(slurp(straight));
  const auto& died = j["ants"]["died"];
  EXPECT_GT(died["culled"].get<long long>(), 100);
  EXPECT_EQ(died["explosion"], k["ants"]["died"]["explosion"]);
  EXPECT_EQ(k["ants"]["died"]["culled"], 0);
  long long per_colony = 0;
  for (const auto& c : j["colonies"]) per_colony += c["died"]["culled"].get<long long>();
  EXPECT_EQ(per_colony, died["culled"].get<long long>());
  for (const char* cause : {"explosion", "fire", "combat", "age", "starvation", "culled"})
    EXPECT_TRUE(died.contains(cause)) << cause;
}

// A run that fails (here a replay whose recording was changed) writes its report, which
// says where it diverged, and leaves the save already at its path as it was, not
// replaced by the failed run's world.
TEST(ReplayCli, ADivergedReplayLeavesTheSaveItWasGiven) {
  const std::string rec = temp("d.replay"), changed = temp("changed.replay"), save = temp("keep.colony"),
                    report = temp("d.json");
  ASSERT_EQ(
      colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "60", "--record", rec, "--save", save})
          .code,
      0);
  const std::string kept_save = slurp(save);
  colony::Replayer r;
  std::string err;
  ASSERT_TRUE(colony::load_replay(rec, r, &err)) << err;
  r.replay.digests[5] ^= 1;  // the digest after tick 6
  const std::vector<std::uint8_t> bytes = colony::encode_replay(r.replay);
  std::ofstream(changed, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  Outcome o = colony({"--headless", "--replay", changed, "--save", save, "--report", report});
  EXPECT_EQ(o.code, 3) << o.err;
  EXPECT_NE(o.err.find("replay diverged at tick 6"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(save + " not written: the run failed"), std::string::npos) << o.err;
  EXPECT_EQ(slurp(save), kept_save);
  auto j = nlohmann::json::parse(slurp(report));
  EXPECT_EQ(j["ticks"], 6);
  EXPECT_EQ(j["replay_divergence"].get<std::string>().rfind("tick 6: tick digest ", 0), 0u) << j["replay_divergence"];
}

// Outputs through symbolic links: a link to a file not yet there gets that file (the link
// is not replaced by a plain file), a link into a missing folder and a loop of links are
// refused before the run.
TEST(SaveCli, AnOutputLinkIsFollowedToTheFileItNames) {
  namespace fs = std::filesystem;
  const std::string dir = temp("links");
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_symlink("target.json", dir + "/link.json");
  Outcome o =
      colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "1", "--report", dir + "/link.json"});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir + "/link.json")));
  EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(dir + "/target.json")));
  EXPECT_EQ(nlohmann::json::parse(slurp(dir + "/link.json"))["ticks"], 1);
  fs::create_symlink("nowhere/x.json", dir + "/dangling.json");
  expect_one_line_exit_2(
      {"--headless", "--scenario", scenario("default.json"), "--ticks", "1", "--report", dir + "/dangling.json"},
      "folder does not exist");
  fs::create_symlink("b.json", dir + "/a.json");
  fs::create_symlink("a.json", dir + "/b.json");
  expect_one_line_exit_2(
      {"--headless", "--scenario", scenario("default.json"), "--ticks", "1", "--report", dir + "/a.json"},
      "symbolic links in a loop");
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(dir + "/dangling.json")));
}

// A name as long as a file system allows (255 bytes) is written: the temporary beside it
// takes a shortened name (the name plus the suffix would be too long).
TEST(SaveCli, AnOutputWithTheLongestNameIsWritten) {
  const std::string dir = temp("long");
  std::filesystem::create_directories(dir);
  const std::string report = dir + "/" + std::string(250, 'r') + ".json";
  Outcome o = colony({"--headless", "--scenario", scenario("default.json"), "--ticks", "1", "--report", report});
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(report))["ticks"], 1);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 1);
}

TEST(ExhaustionCli, RefusedSpawnsAreReportedAndTheRunSucceeds) {
  const std::string report = temp("exhaust.json");
  Outcome r = colony(
      {"--headless", "--scenario", scenario("exhaustion.json"), "--ticks", "400", "--validate", "--report", report});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(slurp(report));
  EXPECT_EQ(j["invariant_violations"], 0);
  EXPECT_EQ(j["validated_ticks"], 400);
  EXPECT_GT(j["spawn_refused"].get<long long>(), 0);
  long long failed = 0;
  for (auto& [name, pool] : j["pools"].items()) failed += pool["failed_reservations"].get<long long>();
  EXPECT_GT(failed, 0);
}

// Every flag: wrong type, out of range, missing value, missing file or folder.
TEST(CommandLine, EveryBadFlagGivesOneLineAndExit2) {
  const std::string missing = temp("no_such_file.json"), no_dir = temp("no_such_dir") + "/out.file";
  const std::string ok = scenario("default.json");
  const std::vector<std::vector<std::string>> cases = {
      {"--no-such-flag"},
      {"--headless", "--scenario"},
      {"--headless", "--scenario", missing},
      {"--headless", "--scenario", testing::TempDir()},
      {"--headless", "--ticks"},
      {"--headless", "--ticks", "many"},
      {"--headless", "--ticks", "-5"},
      {"--headless", "--ticks", "1.5"},
      {"--headless", "--ticks", "99999999999999"},
      {"--headless", "--seed"},
      {"--headless", "--seed", "abc"},
      {"--headless", "--seed", "-1"},
      {"--headless", "--seed", "1e999"},
      {"--headless", "--report"},
      {"--headless", "--report", no_dir},
      {"--headless", "--report", testing::TempDir()},
      {"--headless", "--validate=maybe"},
      {"--headless=sure"},
      {"--headless", "--save"},
      {"--headless", "--save", no_dir},
      {"--headless", "--load"},
      {"--headless", "--load", missing},
      {"--headless", "--record"},
      {"--headless", "--record", no_dir},
      {"--headless", "--replay"},
      {"--headless", "--replay", missing},
      {"--headless", "--ticks", "1", "--scenario", std::string(COLONY_SOURCE_DIR) + "/CMakeLists.txt"},
  };
  for (const auto& args : cases) {
    std::vector<std::string> full = args;
    if (std::find(full.begin(), full.end(), "--ticks") == full.end() && full.size() > 1)
      full.insert(full.begin() + 1, {"--ticks", "1"});
    expect_one_line_exit_2(full);
  }
  // The window's flags, refused for their value (without --headless, which they exclude:
  // that alone would refuse them), each naming the flag and the problem.
  const std::vector<std::pair<std::vector<std::string>, std::string>> window_cases = {
      {{"--screenshot"}, "--screenshot: 1 required"},
      {{"--screenshot", temp("no_such_dir") + "/out.png"},
       "--screenshot: " + temp("no_such_dir") + "/out.png: folder does not exist"},
      {{"--frames"}, "--frames: 1 required"},
      {{"--frames", "0"}, "--frames: '0' is outside the range"},
      {{"--frames", "lots"}, "--frames: 'lots' is not a whole number"},
      {{"--width", "100"}, "--width: '100' is outside the range"},
      {{"--width", "wide"}, "--width: 'wide' is not a whole number"},
      {{"--width"}, "--width: 1 required"},
      {{"--height", "99999"}, "--height: '99999' is outside the range"},
      {{"--height", "-3"}, "--height: '-3' is not a whole number"},
      {{"--debug-ui=maybe"}, "--debug-ui = maybe"},
      {{"--no-vsync=perhaps"}, "--no-vsync = perhaps"},
      {{"--headless", "--width", "800"}, "--headless excludes --width"},
  };
  for (const auto& [args, needle] : window_cases) expect_one_line_exit_2(args, needle);
  // Flags that exclude each other, with files that would load (a real save and replay):
  // refused for the conflict, not for the file.
  const std::string save = temp("conflict.colony"), replay = temp("conflict.replay");
  ASSERT_EQ(colony({"--headless", "--scenario", ok, "--ticks", "1", "--save", save, "--record", replay}).code, 0);
  expect_one_line_exit_2({"--headless", "--ticks", "1", "--load", save, "--scenario", ok},
                         "--scenario excludes --load");
  expect_one_line_exit_2({"--headless", "--ticks", "1", "--replay", replay, "--record", temp("x.replay")},
                         "--record excludes --replay");
  expect_one_line_exit_2({"--headless", "--ticks", "1", "--replay", replay, "--load", save},
                         "--load excludes --replay");
  // The headless run's options are refused in the window (not accepted there and ignored).
  expect_one_line_exit_2({"--validate"}, "--validate requires --headless");
  expect_one_line_exit_2({"--report", temp("w.json")}, "--report requires --headless");
  // A number's error says whether it is not a number or outside the range.
  expect_one_line_exit_2({"--headless", "--ticks", "many"},
                         "--ticks: 'many' is not a whole number from 0 to 1000000000");
  expect_one_line_exit_2({"--headless", "--ticks", "2000000000"},
                         "--ticks: '2000000000' is outside the range from 0 to 1000000000");
  expect_one_line_exit_2({"--width", "10"}, "--width: '10' is outside the range from 320 to 16384");
  // Decimal, as checked: a leading zero is no octal (0400 would have been 256, past the check).
  expect_one_line_exit_2({"--headless", "--ticks", "08", "--seed", "x"}, "--seed: 'x' is not a whole number");
  const std::string zeros = temp("zeros.json");
  ASSERT_EQ(colony({"--headless", "--scenario", ok, "--ticks", "010", "--report", zeros}).code, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(zeros))["ticks"], 10);
  expect_one_line_exit_2({"--headless", "--seed", "99999999999999999999"},
                         "--seed: '99999999999999999999' is outside the range");
  // The file-naming errors name the file.
  expect_one_line_exit_2({"--headless", "--ticks", "1", "--scenario", missing}, missing);
  // A screenshot is a PNG: another name is refused before a window opens.
  expect_one_line_exit_2({"--scenario", ok, "--screenshot", temp("shot.jpg")},
                         temp("shot.jpg") + ": screenshots are PNG files; name it .png");
  expect_one_line_exit_2({"--headless", "--ticks", "1", "--load", missing}, missing);
}

}  // namespace
