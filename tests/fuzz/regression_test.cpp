// regression_test.cpp — every input the fuzzers were seeded with and every input that
// ever crashed one (tests/fuzz/regressions/<scenario|save|replay>/) goes through the
// same code as the fuzzers, in the normal test suite (and under the sanitizers in CI).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "fuzz_entries.h"

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

TEST(FuzzInputs, ScenarioSeedsAndRegressions) {
  EXPECT_GT(run_inputs("seeds", "scenario", colony::fuzz::scenario_one), 0);
  run_inputs("regressions", "scenario", colony::fuzz::scenario_one);
}

TEST(FuzzInputs, SaveSeedsAndRegressions) {
  EXPECT_GT(run_inputs("seeds", "save", colony::fuzz::save_one), 0);
  run_inputs("regressions", "save", colony::fuzz::save_one);
}

TEST(FuzzInputs, ReplaySeedsAndRegressions) {
  EXPECT_GT(run_inputs("seeds", "replay", colony::fuzz::replay_one), 0);
  run_inputs("regressions", "replay", colony::fuzz::replay_one);
}

}  // namespace
