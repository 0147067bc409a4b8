// regression_test.cpp — every input the fuzzers were seeded with and every input that
// ever crashed one (tests/fuzz/regressions/<scenario|save|replay>/) goes through the
// same code as the fuzzers, in the normal test suite (and under the sanitizers in CI).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_entries.h"
#include "game.h"
#include "replay.h"
#include "save.h"

namespace {

namespace fs = std::filesystem;

// Runs every file under <folder>/<kind>/ through fn; returns how many there were.
template <class Fn>
int run_inputs(const char* folder, const char* kind, Fn fn) {
  int n = 0;
  fs::path dir = fs::path(COLONY_FUZZ_DIR) / folder / kind;
  if (!fs::is_directory(dir)) return 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().filename().string().front() == '.') continue;
    SCOPED_TRACE(entry.path().string());
    std::ifstream in(entry.path(), std::ios::binary);
    std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    fn(bytes.data(), bytes.size());
    ++n;
  }
  return n;
}

// The scenario regressions are texts the reader once took wrongly; each is now refused
// with its key path.
TEST(FuzzInputs, ScenarioSeedsAndRegressions) {
  EXPECT_EQ(run_inputs("seeds", "scenario", colony::fuzz::scenario_one), 2);
  EXPECT_EQ(run_inputs("regressions", "scenario", colony::fuzz::scenario_one), 2);
  int refused = run_inputs("regressions", "scenario", [](const std::uint8_t* data, size_t size) {
    colony::Scenario s;
    std::string err;
    EXPECT_FALSE(
        colony::parse_scenario(std::string(reinterpret_cast<const char*>(data), size), "regression.json", s, &err));
    EXPECT_NE(err.find("regression.json: "), std::string::npos) << err;
  });
  EXPECT_EQ(refused, 2);
}

TEST(FuzzInputs, SaveSeedsAndRegressions) {
  EXPECT_GT(run_inputs("seeds", "save", colony::fuzz::save_one), 0);
  // The folder holds the save that once crashed the validator: a moved folder is a failure.
  EXPECT_GT(run_inputs("regressions", "save", colony::fuzz::save_one), 0);
  // And it still reaches the check it crashed in: a save of this format whose slot list
  // counts past the maximum, refused by name (an old format stops at the version check
  // and tests nothing; make_seeds writes it anew, see SeedsLoadWithThisBuild).
  std::string err;
  int regressions = run_inputs("regressions", "save", [&](const std::uint8_t* data, size_t size) {
    EXPECT_EQ(colony::save_header_problem(data, size, size), "");
    EXPECT_EQ(colony::load_game_from_bytes(data, size, "regression", &err), nullptr);
    EXPECT_NE(err.find("counts out of range: reserved 200"), std::string::npos) << err;
  });
  EXPECT_EQ(regressions, 1);
}

// Every kept replay decodes, plays back from its starting save and stays on its
// recording (replay_one itself checks that two playbacks agree).
TEST(FuzzInputs, ReplaySeedsAndRegressions) {
  auto plays_true = [](const std::uint8_t* data, size_t size) {
    colony::fuzz::ReplayRun run = colony::fuzz::replay_one(data, size);
    EXPECT_TRUE(run.played);
    EXPECT_GT(run.ticks, 0u);
    EXPECT_EQ(run.divergence, "");
  };
  EXPECT_EQ(run_inputs("seeds", "replay", plays_true), 1);
  EXPECT_EQ(run_inputs("regressions", "replay", plays_true), 1);
}

// The seeds must load with this build: a seed refused at the version check starts the
// fuzzers at that check. Each save seed loads and validates; the replay seed plays back to
// its end, every digest and state hash equal. After a change of the save or replay
// format, rebuild them: cmake --build build --target fuzz_make_seeds &&
// build/tests/fuzz/fuzz_make_seeds (tests/fuzz/make_seeds.cpp).
TEST(FuzzInputs, SeedsLoadWithThisBuild) {
  const std::string hint =
      " (rebuild the seeds: cmake --build build --target fuzz_make_seeds && build/tests/fuzz/fuzz_make_seeds)";
  std::string err;
  // The scenario seeds parse, so the scenario fuzzer starts past the reader's refusals.
  int scenarios = run_inputs("seeds", "scenario", [&](const std::uint8_t* data, size_t size) {
    colony::Scenario s;
    EXPECT_TRUE(
        colony::parse_scenario(std::string(reinterpret_cast<const char*>(data), size), "scenario seed", s, &err))
        << err;
  });
  EXPECT_EQ(scenarios, 2);
  int saves = run_inputs("seeds", "save", [&](const std::uint8_t* data, size_t size) {
    auto g = colony::load_game_from_bytes(data, size, "save seed", &err);
    ASSERT_NE(g, nullptr) << err << hint;
    EXPECT_TRUE(colony::validate_game(*g, 1).empty());
  });
  EXPECT_EQ(saves, 2);
  colony::Replayer r;
  ASSERT_TRUE(colony::load_replay((fs::path(COLONY_FUZZ_DIR) / "seeds" / "replay" / "tiny.replay").string(), r, &err))
      << err << hint;
  auto g = r.start_game("tiny.replay", &err);
  ASSERT_NE(g, nullptr) << err << hint;
  while (!r.finished(*g)) {
    r.before_tick(*g);
    colony::simulate_tick(*g);
    ASSERT_TRUE(r.after_tick(*g)) << r.divergence << hint;
  }
  EXPECT_EQ(r.checked, r.replay.ticks);
  EXPECT_GT(r.verified, 0u);
  EXPECT_GE(r.replay.events.size(), size_t(colony::CommandKind::Count));
}

}  // namespace
