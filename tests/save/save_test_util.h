// save_test_util.h — shared helpers of the save tests: scenario paths, building a game,
// running ticks, temporary file names.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "../common/scratch.h"
#include "game.h"
#include "save.h"

namespace colony::test {

inline std::string scenario_path(const std::string& name) {
  return std::string(COLONY_SOURCE_DIR) + "/assets/scenarios/" + name;
}

inline std::unique_ptr<Game> make_from(const std::string& scenario_file, u64 seed = 0) {
  Scenario s;
  std::string err;
  EXPECT_TRUE(load_scenario(scenario_path(scenario_file), s, &err)) << err;
  auto g = make_game(s, seed ? seed : s.seed, &err);
  EXPECT_NE(g, nullptr) << err;
  return g;
}

inline void run(Game& g, u64 ticks) {
  for (u64 i = 0; i < ticks; ++i) simulate_tick(g);
}

// A fresh path in the test process's scratch folder (removed first if it exists).
inline std::string temp_path(const std::string& name) { return colony_test::scratch_path(name); }

inline std::vector<std::uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::string& path, const std::vector<std::uint8_t>& b) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

}  // namespace colony::test
