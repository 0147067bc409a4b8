// bench_smoke_test.cpp — runs colony_bench --tiny (every benchmark, toy sizes, one
// iteration each) and checks what the suite promises: the exact names, each benchmark's
// counter, no benchmark stopped with an error (tiny runs validate the engine after every
// step and compare each variant's live pieces with the workload), every variant fed the
// same workload, and bench/ratios.py reading the output. No timing is asserted.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

const std::vector<std::string> kVariants = {"pools", "pools_swap_one", "heap", "size_buckets"};
// Must match tiny_sizes() in bench/main.cpp.
const int kTinyAnts = 200;
const std::vector<int> kPercents = {10, 50};
const std::vector<int> kChurn = {0, 4};
// sizeof(colony::RenderPiece), pinned by a static_assert in game/sim/components.h.
const double kPieceBytes = 16.0;
const int kTinyChunkedAnts = 2000, kTinyBombVictims = 50;
// tick/full's tiny sizes and the thread counts it runs each with.
const std::vector<int> kTinyFullAnts = {100, 1000};
const std::vector<int> kFullThreads = {1, 2};

std::string full_name(int ants, int threads) {
  return "tick/full/" + std::to_string(ants) + "/threads:" + std::to_string(threads);
}
// The paired kills: pools against swap-one at 10 % and 50 %, against the heap at 50 % (one
// size, the only one, in a tiny run).
const std::vector<std::pair<std::string, int>> kPairedKills = {
    {"pools_vs_pools_swap_one", 10}, {"pools_vs_heap", 50}, {"pools_vs_pools_swap_one", 50}};

// <family>/<variant>/<n>/<arg>, the suite's naming scheme.
std::string bench_name(const std::string& family, const std::string& variant, int n, int arg) {
  std::string s = family;
  for (const std::string& part : {variant, std::to_string(n), std::to_string(arg)}) {
    s += '/';
    s += part;
  }
  return s;
}

std::string run_command(const std::string& cmd, int* status) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    *status = -1;
    return out;
  }
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  *status = pclose(p);
  return out;
}

// One tiny run per test process, shared by its tests.
class BenchSmoke : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    json_path_ = std::string(COLONY_BENCH_SCRATCH) + "/bench_tiny_" + std::to_string(getpid()) + ".json";
    std::string cmd = std::string(COLONY_BENCH_BIN) + " --tiny --benchmark_min_time=0 --benchmark_out=" + json_path_ +
                      " --benchmark_out_format=json 2>&1";
    console_ = run_command(cmd, &status_);
    std::ifstream f(json_path_);
    // Nothing here may throw: a failing SetUpTestSuite would only skip the tests.
    if (f) doc_ = nlohmann::json::parse(f, nullptr, false);
    if (!doc_.is_object() || !doc_.contains("benchmarks") || !doc_["benchmarks"].is_array()) return;
    for (const auto& b : doc_["benchmarks"])
      if (b.is_object() && b.contains("name") && b["name"].is_string()) runs_[b["name"].get<std::string>()] = b;
  }
  static void TearDownTestSuite() { std::remove(json_path_.c_str()); }

  static const nlohmann::json* run(const std::string& name) {
    auto it = runs_.find(name);
    return it == runs_.end() ? nullptr : &it->second;
  }
  // Every expected benchmark name with the counter it must report.
  static std::vector<std::pair<std::string, std::string>> expected() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* fam : {"kill", "spawn"})
      for (int k : kPercents)
        for (const auto& v : kVariants) out.push_back({bench_name(fam, v, kTinyAnts, k), "ns_per_ant"});
    for (int c : kChurn)
      for (const auto& v : kVariants) out.push_back({bench_name("iterate", v, kTinyAnts, c), "gb_per_s"});
    for (const auto& [pair, k] : kPairedKills) out.push_back({bench_name("paired/kill", pair, kTinyAnts, k), "ratio"});
    out.push_back({"stream/rmw", "gb_per_s"});
    for (int n : kTinyFullAnts)
      for (int t : kFullThreads)
        for (const char* counter : {"ticks_per_s", "ns_per_ant", "bytes_per_ant", "mem_gb_per_s"})
          out.push_back({full_name(n, t), counter});
    out.push_back({"tick/chunked/" + std::to_string(kTinyChunkedAnts), "ticks_per_s"});
    out.push_back({"tick/bomb/" + std::to_string(kTinyBombVictims), "ms"});
    out.push_back({"tick/bomb_cold/" + std::to_string(kTinyBombVictims), "ms"});
    return out;
  }

  static inline std::string json_path_, console_;
  static inline int status_ = -1;
  static inline nlohmann::json doc_;
  static inline std::map<std::string, nlohmann::json> runs_;
};

TEST_F(BenchSmoke, BinaryRunsAndWritesJson) {
  EXPECT_EQ(status_, 0) << console_;
  ASSERT_TRUE(doc_.is_object()) << "no JSON at " << json_path_ << "\n" << console_;
  EXPECT_TRUE(doc_.contains("context"));
}

TEST_F(BenchSmoke, EveryBenchmarkRanWithItsExactNameAndCounter) {
  for (const auto& [name, counter] : expected()) {
    const nlohmann::json* b = run(name);
    ASSERT_NE(b, nullptr) << "missing benchmark " << name << "\n" << console_;
    EXPECT_FALSE(b->value("error_occurred", false)) << name << ": " << b->value("error_message", "");
    EXPECT_GE(b->value("iterations", 0), 1) << name;
    ASSERT_TRUE(b->contains(counter)) << name << " lacks counter " << counter;
    double v = (*b)[counter].get<double>();
    EXPECT_TRUE(std::isfinite(v) && v > 0) << name << " " << counter << " = " << v;
  }
}

// Every benchmark samples the speed of the CPU it ran on (dependent adds per ns, about the
// clock in GHz: bench/cpu_speed.h), the mean and the slowest sample, and the run says which
// CPU it was pinned to.
TEST_F(BenchSmoke, EveryBenchmarkReportsTheSpeedItRanAt) {
  for (const auto& [name, counter] : expected()) {
    const nlohmann::json* b = run(name);
    ASSERT_NE(b, nullptr) << name;
    double ghz = b->value("cpu_ghz", 0.0);
    EXPECT_TRUE(ghz > 0.2 && ghz < 10.0) << name << " cpu_ghz = " << ghz;
    double slowest = b->value("cpu_ghz_min", 0.0);
    EXPECT_TRUE(slowest > 0.2 && slowest <= ghz) << name << " cpu_ghz_min = " << slowest << ", mean " << ghz;
  }
  ASSERT_TRUE(doc_.contains("context"));
  std::string pinned = doc_["context"].value("pinned_to", "");
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  if (CPU_COUNT(&allowed) > 1) EXPECT_EQ(pinned.rfind("cpu", 0), 0u) << "pinned_to: '" << pinned << "'";
  else EXPECT_NE(pinned.find("no CPU"), std::string::npos) << "pinned_to: '" << pinned << "'";
}

TEST_F(BenchSmoke, NoNameCarriesGoogleBenchmarkSuffixes) {
  for (const auto& [name, b] : runs_) {
    EXPECT_EQ(name.find("manual_time"), std::string::npos) << name;
    EXPECT_EQ(name.find("min_time"), std::string::npos) << name;
    EXPECT_EQ(name.find("iterations:"), std::string::npos) << name;
  }
}

TEST_F(BenchSmoke, EveryVariantSawTheSameWorkload) {
  for (int c : kChurn) {
    const nlohmann::json* ref = run(bench_name("iterate", "pools", kTinyAnts, c));
    ASSERT_NE(ref, nullptr);
    double pieces = ref->value("live_pieces", -1.0);
    EXPECT_GE(pieces, 8.0 * kTinyAnts);
    EXPECT_LE(pieces, 16.0 * kTinyAnts);
    for (const auto& v : kVariants) {
      const nlohmann::json* b = run(bench_name("iterate", v, kTinyAnts, c));
      ASSERT_NE(b, nullptr) << v;
      EXPECT_EQ(b->value("live_pieces", -2.0), pieces) << v << " churn " << c;
    }
  }
  // Churn really replaced ants: the respawned ones drew new piece counts.
  EXPECT_NE(run(bench_name("iterate", "pools", kTinyAnts, 0))->value("live_pieces", 0.0),
            run(bench_name("iterate", "pools", kTinyAnts, 4))->value("live_pieces", 0.0));
}

TEST_F(BenchSmoke, MemoryOverheadIsAtLeastThePieceItself) {
  for (const auto& v : kVariants)
    for (int c : kChurn) {
      const nlohmann::json* b = run(bench_name("iterate", v, kTinyAnts, c));
      ASSERT_NE(b, nullptr);
      EXPECT_GE(b->value("bytes_per_live_piece", 0.0), kPieceBytes) << v << " churn " << c;
    }
}

// A paired kill times both variants over the same rounds: its ratio is a's time per ant
// over b's, and each side's time is its own.
TEST_F(BenchSmoke, PairedKillsReportBothSidesAndTheirRatio) {
  for (const auto& [pair, k] : kPairedKills) {
    const nlohmann::json* b = run(bench_name("paired/kill", pair, kTinyAnts, k));
    ASSERT_NE(b, nullptr) << pair;
    double a_ns = b->value("a_ns_per_ant", 0.0), b_ns = b->value("b_ns_per_ant", 0.0);
    EXPECT_GT(a_ns, 0.0) << pair;
    EXPECT_GT(b_ns, 0.0) << pair;
    EXPECT_NEAR(b->value("ratio", 0.0), a_ns / b_ns, 1e-9 * a_ns / b_ns) << pair;
  }
}

// The tiny run sends the pools' kills through the batch passes (validated after every
// step): each reports the engine's timing of every pass; swap-one releases one at a time
// and reports none. (The passes are timed by the steady clock and the kill by the thread's
// CPU clock, so their sums are not compared.)
TEST_F(BenchSmoke, BatchedKillsReportTheirPasses) {
  for (int k : kPercents) {
    const nlohmann::json* pools = run(bench_name("kill", "pools", kTinyAnts, k));
    ASSERT_NE(pools, nullptr) << k;
    for (const char* pass : {"sort_ns", "close_collision_volumes_ns", "close_sensors_ns"}) {
      ASSERT_TRUE(pools->contains(pass)) << k << " lacks " << pass;
      EXPECT_GE((*pools)[pass].get<double>(), 0.0) << k << " " << pass;
    }
    EXPECT_GT(pools->value("mark_ns", 0.0), 0.0) << k;
    EXPECT_GT(pools->value("close_render_pieces_ns", 0.0), 0.0) << k;
    const nlohmann::json* one = run(bench_name("kill", "pools_swap_one", kTinyAnts, k));
    ASSERT_NE(one, nullptr) << k;
    EXPECT_FALSE(one->contains("mark_ns")) << k;
  }
}

TEST_F(BenchSmoke, TickBenchmarksRunTheRealGame) {
  for (int n : kTinyFullAnts)
    for (int t : kFullThreads) {
      const nlohmann::json* full = run(full_name(n, t));
      ASSERT_NE(full, nullptr) << full_name(n, t);
      // The full world simulates every ant (the simulated tier also holds food and corpses).
      EXPECT_GE(full->value("ants_alive", 0.0), 0.5 * n) << full_name(n, t);
      EXPECT_GE(full->value("simulated", 0.0), full->value("ants_alive", 0.0)) << full_name(n, t);
    }
  // The chunked world simulates only its region: fewer simulated entities than ants alive.
  const nlohmann::json* chunked = run("tick/chunked/" + std::to_string(kTinyChunkedAnts));
  ASSERT_NE(chunked, nullptr);
  EXPECT_GE(chunked->value("ants_alive", 0.0), 0.5 * kTinyChunkedAnts);
  EXPECT_LT(chunked->value("simulated", 0.0), chunked->value("ants_alive", 0.0));
  // The bomb really killed at least the asked number of ants.
  for (const char* family : {"tick/bomb/", "tick/bomb_cold/"}) {
    const nlohmann::json* bomb = run(std::string(family) + std::to_string(kTinyBombVictims));
    ASSERT_NE(bomb, nullptr) << family;
    EXPECT_GE(bomb->value("killed", 0.0), double(kTinyBombVictims)) << family;
    // The Destroy system's release is part of the whole Destroy-plus-Corpses figure, and
    // the slowest bomb's release is at least the mean.
    EXPECT_GE(bomb->value("system_ms", 0.0), bomb->value("ms", 0.0)) << family;
    EXPECT_GE(bomb->value("slowest_ms", 0.0), bomb->value("ms", 0.0)) << family;
    EXPECT_GT(bomb->value("slowest_ms", 0.0), 0.0) << family;
  }
}

// tick/full/<N>/threads:<T> runs the simulation on T threads, on every CPU the run may use
// when T > 1 (the run's pin would crowd them onto one), and reports its cost per ant, the
// full model's bytes per ant (bench/tick_benchmarks.cpp: 9 cache lines an ant with three
// sensors, 8.75 with two) and the two as a rate.
TEST_F(BenchSmoke, FullTicksNameTheirThreadsAndTheirMemoryTraffic) {
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  const bool pinned = doc_["context"].value("pinned_to", "").rfind("cpu", 0) == 0;
  for (int n : kTinyFullAnts)
    for (int t : kFullThreads) {
      SCOPED_TRACE(full_name(n, t));
      const nlohmann::json* b = run(full_name(n, t));
      ASSERT_NE(b, nullptr);
      EXPECT_EQ(b->value("sim_threads", 0.0), double(t));
      EXPECT_EQ(b->value("cpus", 0.0), t > 1 || !pinned ? double(CPU_COUNT(&allowed)) : 1.0);
      const double bytes = b->value("bytes_per_ant", 0.0), ns = b->value("ns_per_ant", 0.0);
      EXPECT_GE(bytes, 8.75 * 64);
      EXPECT_LE(bytes, 9.0 * 64);
      EXPECT_NEAR(b->value("mem_gb_per_s", 0.0), bytes / ns, 1e-9 * bytes / ns);
      // Wall time per ant and tick: the ticks' time over the ants they simulated.
      const double tick_s = 1.0 / b->value("ticks_per_s", 1.0);
      EXPECT_NEAR(ns * 1e-9 * b->value("ants_alive", 0.0), tick_s, 0.5 * tick_s);
    }
}

TEST_F(BenchSmoke, RatiosScriptReadsTheOutput) {
  int status = -1;
  std::string out = run_command("python3 " + std::string(COLONY_RATIOS_PY) + " " + json_path_ + " 2>&1", &status);
  EXPECT_EQ(status, 0) << out;
  for (const char* line : {"kill/pools/200/50 <= 0.4 x pools_swap_one",
                           "kill/pools/200/50 <= 0.35 x heap",
                           "kill/pools/200/10 <= pools_swap_one",
                           "spawn/pools/200/10 >= 4x faster than heap",
                           "iterate/pools/200/4 >= 0.85 x stream/rmw",
                           "tick/full/1000/threads:1 >= 60 ticks/s",
                           "tick/full/1000/threads:2 >= 30 ticks/s",
                           "tick/full/100 threads:2 >= 1.8 x threads:1",
                           "tick/full/1000 threads:2 >= 1.8 x threads:1",
                           "tick/full/1000 ns_per_ant <= 1.3 x 100, threads:1",
                           "tick/full/1000 ns_per_ant <= 1.3 x 100, threads:2",
                           "the full model's memory traffic",
                           "tick/full/1000/threads:2 ",
                           " of stream/rmw",
                           "tick/chunked/2000 >= 30 ticks/s",
                           "tick/bomb/50 < 2 ms",
                           "targets met",
                           "pools / heap at 200 ants, 50 %: ratio",
                           "pools / pools_swap_one at 200 ants, 10 %: ratio",
                           "pools / pools_swap_one at 200 ants, 50 %: ratio",
                           "the batched release's passes, ns per victim",
                           "= sort ",
                           "cpu_ghz",
                           "pinned to cpu"})
    EXPECT_NE(out.find(line), std::string::npos) << "ratios.py output lacks '" << line << "':\n" << out;
}

// A ratio whose two benchmarks ran at different CPU speeds is named after the targets, with
// both speeds; one whose sides ran alike is not. A written file, not the tiny run: the
// tiny run's speeds are whatever the machine gave it.
TEST_F(BenchSmoke, RatiosScriptNamesARatioWhoseSidesRanAtDifferentSpeeds) {
  auto bench = [](const std::string& name, const char* counter, double v, double ghz) {
    return nlohmann::json{
        {"name", name}, {"run_name", name}, {"run_type", "iteration"}, {counter, v}, {"cpu_ghz", ghz}};
  };
  nlohmann::json doc = {
      {"context", nlohmann::json::object()},
      {"benchmarks",
       {bench("kill/pools/1000/50", "ns_per_ant", 100, 3.3),
        bench("kill/pools_swap_one/1000/50", "ns_per_ant", 300, 3.3),
        bench("kill/heap/1000/50", "ns_per_ant", 200, 1.9), bench("iterate/pools/1000/4", "gb_per_s", 20, 3.3),
        bench("stream/rmw", "gb_per_s", 20, 2.0)}}};
  std::string path = std::string(COLONY_BENCH_SCRATCH) + "/speeds_" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << doc.dump();
  int status = -1;
  std::string out = run_command("python3 " + std::string(COLONY_RATIOS_PY) + " " + path + " 2>&1", &status);
  std::remove(path.c_str());
  EXPECT_EQ(status, 0) << out;
  size_t note = out.find("more than 10 % apart");
  ASSERT_NE(note, std::string::npos) << out;
  std::string named = out.substr(note, out.find('\n', note) - note);
  EXPECT_NE(named.find("kill/pools/1000/50 <= 0.35 x heap (3.30 against 1.90)"), std::string::npos) << named;
  EXPECT_NE(named.find("iterate/pools/1000/4 >= 0.85 x stream/rmw (3.30 against 2.00)"), std::string::npos) << named;
  EXPECT_EQ(named.find("pools_swap_one"), std::string::npos) << named;
}

// The thread and size comparisons of tick/full, and its traffic against stream/rmw's (which
// moves each counted byte twice: read in, written back), from a written file.
TEST_F(BenchSmoke, RatiosScriptComparesThreadsSizesAndStream) {
  auto full = [](int n, int t, double tps, double ns, double gbs) {
    const std::string name = full_name(n, t);
    return nlohmann::json{{"name", name},     {"run_name", name},       {"run_type", "iteration"}, {"ticks_per_s", tps},
                          {"ns_per_ant", ns}, {"bytes_per_ant", 768.0}, {"mem_gb_per_s", gbs},     {"cpu_ghz", 3.0}};
  };
  nlohmann::json doc = {{"context", nlohmann::json::object()},
                        {"benchmarks",
                         {nlohmann::json{{"name", "stream/rmw"},
                                         {"run_name", "stream/rmw"},
                                         {"run_type", "iteration"},
                                         {"gb_per_s", 10.0},
                                         {"cpu_ghz", 3.0}},
                          full(100000, 1, 50, 200, 5), full(100000, 2, 95, 105, 9), full(1000000, 1, 4, 250, 4),
                          full(1000000, 2, 7, 140, 7)}}};
  std::string path = std::string(COLONY_BENCH_SCRATCH) + "/threads_" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << doc.dump();
  int status = -1;
  std::string out = run_command("python3 " + std::string(COLONY_RATIOS_PY) + " " + path + " 2>&1", &status);
  std::remove(path.c_str());
  EXPECT_EQ(status, 0) << out;
  // The line that starts (after any indent) with `label`.
  auto line_of = [&](const std::string& label) {
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);)
      if (const size_t at = line.find(label); at != std::string::npos && at == line.find_first_not_of(' ')) return line;
    return std::string();
  };
  const std::vector<std::vector<std::string>> expected = {
      {"tick/full/100000/threads:1 >= 60 ticks/s", "50 ticks/s", "MISS"},
      {"tick/full/1000000/threads:2 >= 30 ticks/s", "7 ticks/s", "MISS"},
      {"tick/full/100000 threads:2 >= 1.8 x threads:1", "95 / 50 ticks/s = 1.900", "PASS"},
      {"tick/full/1000000 threads:2 >= 1.8 x threads:1", "7 / 4 ticks/s = 1.750", "MISS"},
      {"tick/full/1000000 ns_per_ant <= 1.3 x 100000, threads:1", "250 / 200 = 1.250", "PASS"},
      {"tick/full/1000000 ns_per_ant <= 1.3 x 100000, threads:2", "140 / 105 = 1.333", "MISS"},
      {"the full model's memory traffic", "stream/rmw's 20.00 GB/s moved"},
      {"tick/full/100000/threads:2 ", "9 GB/s = 0.450 of stream/rmw"},
      {"tick/full/1000000/threads:1 ", "4 GB/s = 0.200 of stream/rmw"}};
  for (const auto& want : expected) {
    const std::string line = line_of(want[0]);
    ASSERT_FALSE(line.empty()) << "ratios.py output lacks '" << want[0] << "':\n" << out;
    for (size_t k = 1; k < want.size(); ++k) EXPECT_NE(line.find(want[k]), std::string::npos) << line;
  }
}

TEST_F(BenchSmoke, RatiosScriptRejectsAMissingFile) {
  int status = -1;
  std::string out = run_command("python3 " + std::string(COLONY_RATIOS_PY) + " /nonexistent/bench.json 2>&1", &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("/nonexistent/bench.json"), std::string::npos) << out;
}

}  // namespace
