// main.cpp — colony_bench: picks the sizes (full, or --tiny / COLONY_BENCH_TINY=1 for the
// smoke test), registers every benchmark and runs Google Benchmark with reporters that
// print the names exactly as registered.
//
//   colony_bench [--tiny] [--no-pin] [any --benchmark_* flag]
//
// The run is pinned to the fastest allowed CPU unless --no-pin (cpu_speed.h says why).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cpu_speed.h"
#include "registry.h"

namespace bench {

Sizes full_sizes() {
  Sizes s;
  s.ants = {2'000, 20'000, 200'000};
  s.kill_percents = {10, 50};
  s.churn_rounds = {0, 4};
  s.stream_bytes = u64(512) << 20;
  s.tick_full_ants = {10'000, 100'000, 1'000'000};
  s.tick_chunked_ants = 1'000'000;
  s.tick_bomb_victims = 10'000;
  return s;
}

Sizes tiny_sizes() {
  Sizes s;
  s.tiny = true;
  s.ants = {200};
  s.kill_percents = {10, 50};
  s.churn_rounds = {0, 4};
  s.stream_bytes = u64(1) << 20;
  s.tick_full_ants = {100, 1'000};  // never a million-ant world
  s.tick_chunked_ants = 2'000;
  s.tick_bomb_victims = 50;
  return s;
}

// Google Benchmark appends "/manual_time" to a benchmark that reports its own time and
// "/iterations:N" to one with a fixed count; the suite's names are a contract
// (bench/ratios.py, the README), so reporters print them bare.
template <class Base>
struct ExactNames : Base {
  using Base::Base;
  void ReportRuns(const std::vector<benchmark::BenchmarkReporter::Run>& runs) override {
    std::vector<benchmark::BenchmarkReporter::Run> renamed = runs;
    for (auto& r : renamed) {
      r.run_name.time_type.clear();
      r.run_name.iterations.clear();
    }
    Base::ReportRuns(renamed);
  }
};

// The value of --flag=value in argv, or "" when absent.
std::string flag_value(int argc, char** argv, const char* flag) {
  std::string prefix = std::string(flag) + "=";
  std::string value;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) value = argv[i] + prefix.size();
  return value;
}

}  // namespace bench

int main(int argc, char** argv) {
  // --tiny and --no-pin are ours: take them out before Google Benchmark sees the flags.
  bool tiny = false, pin = true;
  if (const char* env = std::getenv("COLONY_BENCH_TINY")) tiny = std::strcmp(env, "0") != 0 && *env;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (i > 0 && std::strcmp(argv[i], "--tiny") == 0) tiny = true;
    else if (i > 0 && std::strcmp(argv[i], "--no-pin") == 0) pin = false;
    else args.push_back(argv[i]);
  }
  int n = int(args.size());
  // Read the output flags before Initialize consumes them.
  std::string display = bench::flag_value(n, args.data(), "--benchmark_format");
  std::string file = bench::flag_value(n, args.data(), "--benchmark_out_format");
  bool file_out = !bench::flag_value(n, args.data(), "--benchmark_out").empty();
  bool color = isatty(STDOUT_FILENO) && bench::flag_value(n, args.data(), "--benchmark_color") != "false";
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 2;
  // Google Benchmark's CSV reporter is deprecated, and without the exact names its file
  // output would not match ratios.py's.
  for (const std::string* format : {&display, &file})
    if (*format == "csv") {
      std::fprintf(stderr, "colony_bench: CSV output is not offered (console or json; bench/ratios.py reads json)\n");
      return 2;
    }

  std::string pinned = pin ? bench::pin_to_fastest_cpu() : "";
  benchmark::AddCustomContext("pinned_to", pinned.empty() ? "no CPU (the scheduler's choice)" : pinned);

  bench::Sizes sizes = tiny ? bench::tiny_sizes() : bench::full_sizes();
  bench::register_pool_benchmarks(sizes);
  bench::register_tick_benchmarks(sizes);
#ifdef COLONY_BENCH_RENDER
  bench::register_render_benchmarks(sizes.tiny);
#endif

  // Console on screen unless another display format was asked for; JSON file output
  // (the only format ratios.py reads) also with exact names.
  bench::ExactNames<benchmark::ConsoleReporter> console(color ? benchmark::ConsoleReporter::OO_ColorTabular
                                                              : benchmark::ConsoleReporter::OO_Tabular);
  bench::ExactNames<benchmark::JSONReporter> json_display, json_file;
  benchmark::BenchmarkReporter* display_reporter =
      display == "json" ? static_cast<benchmark::BenchmarkReporter*>(&json_display) : &console;
  if (!file_out) benchmark::RunSpecifiedBenchmarks(display_reporter);
  else benchmark::RunSpecifiedBenchmarks(display_reporter, &json_file);
  benchmark::Shutdown();
  return 0;
}
