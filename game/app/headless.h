// headless.h — runs a scenario without a window for a number of ticks, with optional
// per-tick validation, a progress line on stderr and a JSON report.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "options.h"

namespace colony {

struct Game;

// Exit code: 0 ok, 2 bad input or an output that could not be written, 3 validation
// failed or the replay diverged.
int run_headless(const Options& options);

// The report as JSON text (ticks, seed, state_hash, ants, colonies, pools, timing, rss).
struct RunInfo {
  double rss_start_mb = 0, rss_end_mb = 0;
  double wall_s = 0;
  std::uint64_t ticks_run = 0;        // this run's ticks (a loaded world starts past tick 0)
  std::uint64_t validated_ticks = 0;  // ticks after which the validator ran (--validate)
  std::string replay_divergence;      // where a replay left its recording, if it did
  // The population series (--series-every): the ticks sampled and, per sample, each
  // colony's ants alive.
  std::uint64_t series_every = 0;
  std::vector<std::uint64_t> series_ticks;
  std::vector<std::vector<std::uint64_t>> series_alive;
};
// Adds the world's present to the population series.
void sample_population(const Game& g, RunInfo& info);
std::string report_json(const Game& g, const RunInfo& info);

// Resident memory of this process in MiB (from /proc/self/statm).
double resident_mb();
// The most this process has had resident so far, in MiB (getrusage's ru_maxrss: the
// "maximum resident set size" /usr/bin/time -v reports).
double peak_resident_mb();

}  // namespace colony
