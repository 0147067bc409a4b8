// crash_test.cpp — crash safety, measured: the colony executable killed with SIGKILL at
// random moments while it writes and commits its outputs (a save alone, a recording
// alone, report + save + recording together), hundreds of times at varied offsets. After
// every kill each output is either byte-identical to the file there before or the whole
// new file: never torn, never empty. A kill leaves at most the temporaries and the files
// kept aside beside them ("<name>.XXXXXX"), which the test clears between kills.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "../common/child_process.h"
#include "../common/scratch.h"

namespace {

namespace fs = std::filesystem;
using colony_test::file_text;

std::string scenario(const std::string& name) { return std::string(COLONY_SOURCE_DIR) + "/assets/scenarios/" + name; }

// Writes bytes to path as a new file (the test's own, plain write).
void put(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

struct Output {
  const char* flag;
  fs::path path;
  std::string before, after;  // the file before the run; the run's whole output ("" = a report, checked by parsing)
};

// What an output holds after a kill: "before", "after", or a failure.
enum class State { Before, After, Torn };

State state_of(const Output& o, std::uint64_t ticks) {
  std::string now = file_text(o.path.string());
  if (now == o.before) return State::Before;
  if (!o.after.empty()) return now == o.after ? State::After : State::Torn;
  // A report differs from run to run (its timings): whole when it parses and counts the run.
  try {
    auto j = nlohmann::json::parse(now);
    return j["ticks"] == ticks ? State::After : State::Torn;
  } catch (const nlohmann::json::exception&) { return State::Torn; }
}

// Kills runs of `args` + the outputs `outs` at random moments after the stop point `from`
// ("outputs": they start to be written; "commit": written, about to be put in place),
// `kills` times; every output is checked after each kill.
void kill_while_writing(const std::string& name, std::vector<std::string> args, std::vector<Output> outs,
                        std::uint64_t ticks, int kills, const char* from = "outputs") {
  const fs::path dir = colony_test::scratch_path(name);
  fs::create_directories(dir);
  const std::string err = (dir / "stderr.txt").string();
  for (Output& o : outs) {
    o.path = dir / o.path;
    args.insert(args.end(), {o.flag, o.path.string()});
  }
  auto reset = [&] {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().string() != err) fs::remove(e.path());
    for (const Output& o : outs) put(o.path, o.before);
  };
  // One whole run, stopped at `from` and again once the outputs are in place, timed in
  // between: the window the kills fall in (the outcome is checked whatever the moment).
  reset();
  const std::string stops = std::string(from) + ",committed";
  pid_t pid = colony_test::start_child(COLONY_BIN, args, err, {RLIM_INFINITY, stops.c_str()});
  ASSERT_TRUE(colony_test::wait_stopped(pid)) << file_text(err);
  auto t0 = std::chrono::steady_clock::now();
  ::kill(pid, SIGCONT);
  ASSERT_TRUE(colony_test::wait_stopped(pid)) << file_text(err);
  const double window_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  ::kill(pid, SIGCONT);
  ASSERT_EQ(colony_test::wait_exit(pid), 0) << file_text(err);
  for (Output& o : outs) {
    if (o.flag != std::string("--report")) o.after = file_text(o.path.string());
    ASSERT_NE(o.after, o.before) << o.flag;
    ASSERT_EQ(state_of(o, ticks), State::After) << o.flag;
  }
  // The kills: offsets spread over the window and a little past it, every other one
  // evenly and the others evenly on a log scale from 1 us (the short steps at the start
  // of the window, the renames among them, get their share).
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> even(0, window_us * 1.2), log_even(0, std::log(window_us * 1.2));
  int drawn = 0;
  auto offset = [&](std::mt19937& r) { return drawn++ % 2 ? std::exp(log_even(r)) : even(r); };
  int before = 0, after = 0, mixed = 0;
  for (int k = 0; k < kills; ++k) {
    reset();
    pid = colony_test::start_child(COLONY_BIN, args, err, {RLIM_INFINITY, from});
    ASSERT_TRUE(colony_test::wait_stopped(pid)) << file_text(err);
    const auto wait = std::chrono::microseconds(long(offset(rng)));
    ::kill(pid, SIGCONT);
    std::this_thread::sleep_for(wait);
    ::kill(pid, SIGKILL);
    colony_test::wait_exit(pid);
    int new_ones = 0;
    for (const Output& o : outs) {
      State s = state_of(o, ticks);
      ASSERT_NE(s, State::Torn) << o.flag << " torn by a kill " << wait.count() << " us into the outputs (kill " << k
                                << ")";
      new_ones += s == State::After;
    }
    (new_ones == 0 ? before : new_ones == int(outs.size()) ? after : mixed)++;
  }
  // What the kills found (the outcome counts depend on the machine's speed: shown, not checked).
  std::printf(
      "[ kills ] %s: %d kills over %.0f us from the stop at '%s' to the outputs in place: %d before, %d after, %d part "
      "way through the commit\n",
      name.c_str(), kills, window_us, from, before, after, mixed);
  fs::remove_all(dir);
}

std::string an_older_save(const std::string& name, const char* flag) {
  const fs::path p = colony_test::scratch_path(name);
  const std::string err = p.string() + ".err";
  pid_t pid = colony_test::start_child(
      COLONY_BIN, {"--headless", "--scenario", scenario("default.json"), "--ticks", "3", flag, p.string()}, err);
  EXPECT_EQ(colony_test::wait_exit(pid), 0) << file_text(err);
  return file_text(p.string());
}

const std::vector<std::string> kRun = {"--headless", "--scenario", scenario("default.json"), "--ticks", "5"};

TEST(CrashSafety, ASaveKilledAtRandomMomentsIsNeverTorn) {
  kill_while_writing("kill_save", kRun, {{"--save", "world.colony", an_older_save("older.colony", "--save"), ""}}, 5,
                     70);
}

TEST(CrashSafety, ARecordingKilledAtRandomMomentsIsNeverTorn) {
  kill_while_writing("kill_record", kRun, {{"--record", "run.replay", an_older_save("older.replay", "--record"), ""}},
                     5, 70);
}

// Report, save and recording together: killed while they are written, and while they
// are put in place (the renames, each previous file linked aside first).
TEST(CrashSafety, SeveralOutputsKilledWhileCommittedAreEachWholeOrAsBefore) {
  const std::vector<Output> outs = {{"--report", "report.json", "{\"the previous report\": true}\n", ""},
                                    {"--save", "world.colony", an_older_save("older2.colony", "--save"), ""},
                                    {"--record", "run.replay", an_older_save("older2.replay", "--record"), ""}};
  kill_while_writing("kill_all", kRun, outs, 5, 40, "outputs");
  kill_while_writing("kill_commit", kRun, outs, 5, 60, "commit");
}

}  // namespace
