// headless.cpp — runs a scenario without a window: load, build, tick N times (with the
// validator every tick when asked), print progress to stderr, write the JSON report.
#include "headless.h"

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "game.h"
#include "history.h"
#include "replay.h"
#include "save.h"
#include "world_report.h"

namespace colony {

double resident_mb() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double peak_resident_mb() {
  rusage u{};
  return getrusage(RUSAGE_SELF, &u) == 0 ? double(u.ru_maxrss) / 1024.0 : 0;
}

namespace {

nlohmann::json deaths_json(const DeathCounts& d) {
  nlohmann::json j = nlohmann::json::object();
  for (size_t i = 0; i < d.by_cause.size(); ++i) j[death_cause_name(DeathCause(i))] = d.by_cause[i];
  j["total"] = d.total();
  return j;
}

std::string hex(u64 v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

}  // namespace

void sample_population(const Game& g, RunInfo& info) {
  info.series_ticks.push_back(g.tick);
  std::vector<u64>& sample = info.series_alive.emplace_back();
  for (const Colony& c : g.colonies) sample.push_back(c.alive);
}

std::string report_json(const Game& g, const RunInfo& info) {
  using nlohmann::json;
  json r;
  r["scenario"] = g.scenario.path;
  r["ticks"] = g.tick;
  r["seed"] = g.seed;
  r["threads"] = sim_threads();
  r["state_hash"] = hex(state_hash(g));
  r["ants"] = {{"alive", ants_alive(g)}, {"born", ants_born(g)}, {"died", deaths_json(ants_died(g))}};
  json cols = json::array();
  for (size_t i = 0; i < g.colonies.size(); ++i) {
    const Colony& c = g.colonies[i];
    cols.push_back({{"index", i},
                    {"alive", c.alive},
                    {"born", c.born},
                    {"died", deaths_json(c.died)},
                    {"food", c.food},
                    {"delivered", c.delivered},
                    {"queen_alive", !c.queen.is_null()},
                    {"refounds", c.refounds}});
  }
  r["colonies"] = cols;
  if (info.series_every) {
    // One row per colony: its ants alive at each sampled tick.
    json rows = json::array();
    for (size_t i = 0; i < g.colonies.size(); ++i) {
      json row = json::array();
      for (const auto& sample : info.series_alive) row.push_back(i < sample.size() ? sample[i] : 0);
      rows.push_back(row);
    }
    r["population_series"] = {{"every", info.series_every}, {"ticks", info.series_ticks}, {"alive", rows}};
  }
  r["pools"] = pools_json(*g.ecs);
  r["entities"] = {{"live", g.ecs->live_count()},
                   {"simulated", g.ecs->simulated_count()},
                   {"capacity", g.ecs->max_entities()},
                   {"failed_creates", g.ecs->failed_creates()}};
  r["spawn_refused"] = g.spawn_refused;
  r["refused_commands"] = g.refused_commands;
  r["moves"] = g.moves;
  r["refused_moves"] = g.refused_moves;
  r["invariant_violations"] = g.invariant_violations;
  json timing = json::object();
  for (int i = 0; i < SystemTimes::Count; ++i) timing[system_name(SystemTimes::Id(i))] = g.times.total_ms[size_t(i)];
  r["timing_ms"] = timing;
  r["wall_s"] = info.wall_s;
  r["ticks_run"] = info.ticks_run;
  r["validated_ticks"] = info.validated_ticks;
  r["ticks_per_s"] = info.wall_s > 0 ? double(info.ticks_run) / info.wall_s : 0.0;
  r["rss_mb"] = {{"start", info.rss_start_mb}, {"end", info.rss_end_mb}};
  if (!info.replay_divergence.empty()) r["replay_divergence"] = info.replay_divergence;
  // A file name need not be UTF-8; its bad bytes show as U+FFFD rather than stop the dump.
  return r.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

int run_headless(const Options& o) {
  std::string err;
  // The world comes from a replay's starting save, a save file or a scenario.
  Replayer replayer;
  const bool replaying = !o.replay.empty();
  std::unique_ptr<Game> game;
  if (replaying) {
    if (load_replay(o.replay, replayer, &err)) game = replayer.start_game(o.replay, &err);
  } else if (!o.load.empty()) {
    game = load_game(o.load, &err);
  } else {
    Scenario scenario;
    if (load_scenario(o.scenario, scenario, &err))
      game = make_game(scenario, o.seed_given ? o.seed : scenario.seed, &err);
  }
  if (!game) {
    std::fprintf(stderr, "colony: %s\n", err.c_str());
    return 2;
  }
  Game& g = *game;
  const u64 violations_before = g.invariant_violations;
  Recorder recorder;
  const bool recording = !o.record.empty();
  if (recording && !recorder.start(g, &err)) {
    std::fprintf(stderr, "colony: %s: %s\n", printable(o.record).c_str(), err.c_str());
    return 2;
  }
  // --rewind-check keeps the rewind history of the run (its memory: --history-mb).
  History history;
  const bool rewinding = o.rewind_check > 0;
  if (rewinding) {
    HistorySettings settings;
    settings.max_bytes = o.history_mb_given ? o.history_mb << 20 : 0;
    if (!history_start(history, g, &err, settings)) {
      std::fprintf(stderr, "colony: --rewind-check: %s\n", err.c_str());
      return 2;
    }
  }
  // A replay runs its recorded length unless --ticks says otherwise.
  const u64 ticks = replaying && !o.ticks_given ? replayer.replay.ticks : o.ticks;
  RunInfo info;
  info.rss_start_mb = resident_mb();
  const bool tty = isatty(STDERR_FILENO);
  auto start = std::chrono::steady_clock::now();
  auto last_print = start;
  // A loaded world or a replay's starting save begins past tick 0: the line counts the
  // world's ticks up to the one this run ends at.
  const u64 first_tick = g.tick, last_wanted = first_tick + ticks;
  u64 last_tick = first_tick;
  std::string first_violation;
  bool line_open = false;  // a terminal's progress line, written without its line end
  auto progress = [&](bool final, std::chrono::steady_clock::time_point now) {
    line_open = tty && !final;
    double dt = std::chrono::duration<double>(now - last_print).count();
    double tps = dt > 0 ? double(g.tick - last_tick) / dt : 0;
    // Violations only where the validator runs: without it the count says nothing.
    const std::string checked = o.validate ? "  " + std::to_string(g.invariant_violations) + " violations" : "";
    std::fprintf(stderr, "%stick %" PRIu64 "/%" PRIu64 "  %.0f TPS  %" PRIu64 " ants alive%s%s", tty ? "\r" : "",
                 g.tick, last_wanted, tps, ants_alive(g), checked.c_str(), tty && !final ? "   " : "\n");
    std::fflush(stderr);
    last_print = now;
    last_tick = g.tick;
  };
  bool diverged = false;
  info.series_every = o.series_every;
  if (info.series_every) sample_population(g, info);
  for (u64 t = 0; t < ticks; ++t) {
    if (replaying) replayer.before_tick(g);
    if (recording) recorder.before_tick(g);
    if (rewinding) history_before_tick(history, g);
    simulate_tick(g);
    if (recording) recorder.after_tick(g);
    if (rewinding) history_after_tick(history, g);
    if (replaying && !replayer.after_tick(g)) {
      diverged = true;
      break;
    }
    if (info.series_every && g.tick % info.series_every == 0) sample_population(g, info);
    if (o.validate) {
      ++info.validated_ticks;
      auto v = validate_game(g, 4);
      if (!v.empty() && first_violation.empty()) first_violation = ecs::describe(v.front());
    }
    if ((t & 63) == 0 && std::chrono::steady_clock::now() - last_print > std::chrono::seconds(tty ? 1 : 10))
      progress(false, std::chrono::steady_clock::now());
  }
  info.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  info.ticks_run = g.tick - first_tick;
  // The closing progress line follows the outputs: a run whose outputs fail ends with
  // their one error line alone.
  const auto end = std::chrono::steady_clock::now();
  info.rss_end_mb = resident_mb();
  if (diverged) info.replay_divergence = replayer.divergence;
  // The outputs, all or none. A run that failed (its replay diverged, or the validator
  // found violations) writes its report, which says what went wrong, and leaves a save
  // or a recording already at those paths as it was: the world it would write is not the
  // one asked for (a save the loader would refuse, or a replay's stray branch).
  const u64 found = g.invariant_violations - violations_before;
  const bool failed = diverged || found > 0;
  RunOutputs out{o.report, o.report.empty() ? std::string() : report_json(g, info), failed ? std::string() : o.save,
                 failed ? std::string() : o.record, recording && !failed ? &recorder : nullptr};
  SaveStats saved;
  if (!write_run_outputs(g, out, &err, &saved)) {
    // On a terminal the progress line stands unfinished: the error starts a line of its own.
    std::fprintf(stderr, "%scolony: %s\n", line_open ? "\n" : "", err.c_str());
    return 2;
  }
  if (ticks >= 600 || tty) progress(true, end);
  for (const std::string* kept : {&o.save, &o.record})
    if (failed && !kept->empty())
      std::fprintf(stderr, "colony: %s not written: the run failed\n", printable(*kept).c_str());
  if (!out.save.empty())
    std::fprintf(stderr, "colony: saved tick %" PRIu64 " to %s (%.1f MB, %.1f MB uncompressed, %.2f s)\n", g.tick,
                 printable(o.save).c_str(), double(saved.file_bytes) / 1e6, double(saved.payload_bytes) / 1e6,
                 saved.seconds);
  if (replaying) {
    if (diverged) {
      std::fprintf(stderr, "colony: %s: replay diverged at %s\n", printable(o.replay).c_str(),
                   replayer.divergence.c_str());
      return 3;
    }
    std::fprintf(stderr, "colony: %s\n", replayer.summary(o.replay, g.tick, "stopped").c_str());
  }
  // The rewind check: random ticks of the history restored and re-simulated, every tick
  // compared with live play.
  if (rewinding && !diverged) {
    auto t0 = std::chrono::steady_clock::now();
    u64 compared = 0;
    constexpr u32 kRewinds = 24;
    std::vector<std::string> bad = history_check(history, kRewinds, g.seed ^ g.tick, &compared);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr,
                 "colony: rewind check: %u rewinds to random ticks of %.1f s of history (%zu keyframes every %u ticks, "
                 "%s; the slowest "
                 "took %.1f ms CPU in its tick and %.1f ms CPU compressing on its own thread), %" PRIu64
                 " re-simulated ticks compared with live play in %.1f s: %s\n",
                 kRewinds, history_seconds(history), history.keyframes.size(), history.interval,
                 size_text(double(history_bytes(history))).c_str(), history.slowest_keyframe_ms,
                 history.slowest_compress_ms, compared, secs, bad.empty() ? "all equal" : "MISMATCH");
    for (const std::string& b : bad) std::fprintf(stderr, "colony: rewind check: %s\n", b.c_str());
    if (!bad.empty()) return 3;
  }
  // Violations this run found (a loaded world may carry a count from before).
  if (found) {
    std::fprintf(stderr, "colony: %" PRIu64 " invariant violations; first: %s\n", found, first_violation.c_str());
    return 3;
  }
  return 0;
}

}  // namespace colony
