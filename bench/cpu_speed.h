// cpu_speed.h — how fast the CPU under the benchmarks runs at the moment, and keeping the
// whole run on one CPU.
//
// On the shared VMs this suite runs on, a vCPU's speed is not a constant: the same chain
// of dependent adds ran at 3.4 G adds per second on one vCPU and 1.9 on the other, and a
// few minutes later at 3.4 on both. A benchmark that lands on a slow moment reads up to
// 1.8x slower, and a ratio of two benchmarks run one after the other compares numbers
// taken at different speeds. So the run is pinned to one CPU (the fastest when it
// starts), and every benchmark reports the speed it ran at as `cpu_ghz`, sampled before,
// during (outside the timed region) and after its timed loop: ratios.py shows both sides'
// speeds beside each target and names the comparisons whose sides ran at different speeds.
#pragma once
#include <benchmark/benchmark.h>
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "workload.h"

namespace bench {

// Dependent adds per nanosecond of this thread's CPU time: an integer add takes one cycle
// on every CPU this suite meets, so this is the clock in GHz as far as this thread gets the
// core. The empty asm keeps x in a register each time round, so that the compiler can
// neither fold the chain nor split it.
inline double chain_ghz(u64 adds = 4'000'000) {
  u64 x = 0;
  double t0 = thread_seconds();
  for (u64 i = 0; i < adds; ++i) {
    asm volatile("" : "+r"(x));
    x += 1;
  }
  double t = thread_seconds() - t0;
  return t > 0 ? double(adds) / t * 1e-9 : 0.0;
}

// The CPUs the run may use, and the one pin_to_fastest_cpu pinned it to (when it did).
struct Affinity {
  cpu_set_t allowed;
  cpu_set_t pinned;
  bool is_pinned = false;
};
inline Affinity& run_affinity() {
  static Affinity a{};
  return a;
}

// Pins the process to the allowed CPU whose chain ran fastest (the best of three tries
// each) and returns a line saying so, with every CPU's speed; "" when only one CPU is
// allowed or pinning failed (the run then goes on where the scheduler puts it).
inline std::string pin_to_fastest_cpu() {
  cpu_set_t& allowed = run_affinity().allowed;
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return "";
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.size() < 2) return "";
  int best = -1;
  double best_ghz = 0;
  std::string speeds;
  for (int c : cpus) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    if (sched_setaffinity(0, sizeof(one), &one) != 0) continue;
    double ghz = 0;
    for (int k = 0; k < 3; ++k) ghz = std::max(ghz, chain_ghz());
    char line[32];
    std::snprintf(line, sizeof line, "%scpu%d %.2f", speeds.empty() ? "" : ", ", c, ghz);
    speeds += line;
    if (ghz > best_ghz) best = c, best_ghz = ghz;
  }
  cpu_set_t chosen;
  CPU_ZERO(&chosen);
  if (best >= 0) CPU_SET(best, &chosen);
  if (best < 0 || sched_setaffinity(0, sizeof(chosen), &chosen) != 0) {
    sched_setaffinity(0, sizeof(allowed), &allowed);
    return "";
  }
  run_affinity().pinned = chosen;
  run_affinity().is_pinned = true;
  return "cpu" + std::to_string(best) + " (dependent adds per ns at the start: " + speeds +
         "; benchmarks on several threads run on every allowed CPU)";
}

// The CPUs the calling thread may run on now.
inline int usable_cpus() {
  cpu_set_t now;
  return sched_getaffinity(0, sizeof(now), &now) == 0 ? CPU_COUNT(&now) : 0;
}

// While it lives, the calling thread, and every thread it starts, may run on every CPU
// the run is allowed: a benchmark of work on several threads, which the pin would crowd
// onto one CPU. The pin comes back when it ends (threads started meanwhile keep the wider
// set). Does nothing in a run that is not pinned.
class Unpinned {
 public:
  explicit Unpinned(bool wanted) : active_(wanted && run_affinity().is_pinned) {
    if (active_) sched_setaffinity(0, sizeof(cpu_set_t), &run_affinity().allowed);
  }
  ~Unpinned() {
    if (active_) sched_setaffinity(0, sizeof(cpu_set_t), &run_affinity().pinned);
  }
  Unpinned(const Unpinned&) = delete;
  Unpinned& operator=(const Unpinned&) = delete;

 private:
  bool active_;
};

// Declared just before a benchmark's timed loop, and handed each iteration's timed seconds
// (end_iteration, which passes them on to Google Benchmark as the manual time): samples the
// CPU's speed there, outside the timed region, every kEvery seconds of the thread's CPU
// time while the loop runs, and when the benchmark ends. Reports the samples' mean as
// cpu_ghz and the slowest as cpu_ghz_min.
class CpuSpeed {
 public:
  static constexpr double kEvery = 0.05;
  explicit CpuSpeed(benchmark::State& st) : st_(st) { take(); }
  ~CpuSpeed() {
    take();
    st_.counters["cpu_ghz"] = sum_ / double(samples_);
    st_.counters["cpu_ghz_min"] = min_;
  }
  CpuSpeed(const CpuSpeed&) = delete;
  CpuSpeed& operator=(const CpuSpeed&) = delete;
  void end_iteration(double timed_seconds) {
    st_.SetIterationTime(timed_seconds);
    if (thread_seconds() - last_ >= kEvery) take();
  }

 private:
  void take() {
    double g = chain_ghz(1'000'000);
    sum_ += g;
    min_ = samples_++ ? std::min(min_, g) : g;
    last_ = thread_seconds();
  }
  benchmark::State& st_;
  double sum_ = 0, min_ = 0, last_ = 0;
  u64 samples_ = 0;
};

}  // namespace bench
