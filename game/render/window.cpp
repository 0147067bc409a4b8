// window.cpp — run_window: command-line options in, the frame loop, exit code out; and
// record_into / play_back, the hooks a recording or a replay puts around every tick.
#include "window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "app.h"
#include "headless.h"
#include "replay.h"
#include "save.h"

namespace colony {

namespace render {

namespace {
// The HUD names the file, not its folder: a long path would widen the HUD.
std::string file_name(const std::string& path) { return printable(std::filesystem::path(path).filename().string()); }
}  // namespace

void record_into(App& app, Recorder& recorder, const std::string& path) {
  app.session = "recording to " + file_name(path);
  app.locked_because = "while recording (a recording follows one world)";
  app.before_tick = [&recorder](Game& g) { recorder.before_tick(g); };
  app.after_tick = [&recorder](Game& g) { recorder.after_tick(g); };
  app.on_fork = [&recorder](const Game& g) { recorder.cut_after(g); };
}

void play_back(App& app, Replayer& replayer, const std::string& path) {
  const std::string name = file_name(path), end = std::to_string(replayer.end_tick());
  app.locked_because = "in a replay's window, after its end too (the replay checks one world, to the exit)";
  app.fork_refused_because = "in a replay's window (the replay checks one world; rewinding to look is fine)";
  app.before_tick = [&replayer](Game& g) { replayer.before_tick(g); };
  // The HUD's line: how far, then live; a divergence pauses the game once, shows its
  // message, and stays on that line for good (a message under the toolbar fades).
  auto after = [&app, &replayer, path, name, end, diverged = false](const Game& g, bool checked) mutable {
    if (!checked && !diverged) {
      diverged = true;
      app.paused = true;
      show_error(app, printable(path) + ": replay diverged at " + replayer.divergence);
    }
    app.tools_off = !replayer.finished(g);
    if (diverged) app.session = "replay of " + name + " DIVERGED at " + replayer.divergence;
    else if (app.tools_off) app.session = "replaying " + name + " to tick " + end + " (tools off)";
    else app.session = "replay of " + name + " ended at tick " + end + "; playing live";
  };
  after(*app.game, true);
  app.after_tick = [&replayer, after](Game& g) mutable { after(g, replayer.after_tick(g)); };
}

}  // namespace render

int run_window(const Options& options) {
  render::WindowConfig config;
  config.scenario = options.scenario;
  config.seed_given = options.seed_given;
  config.seed = options.seed;
  config.screenshot = options.screenshot;
  config.frames = options.frames;
  config.debug_ui = options.debug_ui;
  config.width = int(options.width);
  config.height = int(options.height);
  // Timed runs (screenshots, measurements) must not wait for the display.
  config.vsync = !options.no_vsync && options.frames == 0;
  if (!options.screenshot.empty() && options.frames == 0) config.frames = 1;
  config.fixed_step = config.frames > 0;
  config.sim_thread = options.sim_thread;
  config.history_off = options.history_mb_given && options.history_mb == 0;
  config.history_bytes = options.history_mb_given ? options.history_mb << 20 : 0;

  // The world may come from a save or from a replay's starting save instead of the scenario.
  Replayer replayer;
  if (!options.replay.empty()) {
    std::string replay_err;
    if (!load_replay(options.replay, replayer, &replay_err)) {
      std::fprintf(stderr, "colony: %s\n", replay_err.c_str());
      return 2;
    }
    config.make_world = [&](std::string* e) { return replayer.start_game(options.replay, e); };
  } else if (!options.load.empty()) {
    config.make_world = [&](std::string* e) { return load_game(options.load, e); };
  }

  // Declared before the app: its hooks hold the recorder (and the replayer above).
  Recorder recorder;
  render::App app;
  std::string err;
  if (!render::app_init(app, config, &err)) {
    std::fprintf(stderr, "colony: %s\n", err.c_str());
    return 2;
  }
  // Recording and playback hook into every tick.
  if (!options.record.empty()) {
    if (!recorder.start(*app.game, &err)) {
      std::fprintf(stderr, "colony: %s: %s\n", printable(options.record).c_str(), err.c_str());
      render::app_shutdown(app);
      return 2;
    }
    render::record_into(app, recorder, options.record);
  } else if (!options.replay.empty()) {
    render::play_back(app, replayer, options.replay);
  }
  while (render::app_frame(app)) {}
  // At exit, one verdict: a screenshot that could not be written fails the run (exit 2)
  // and nothing else is written; otherwise --save and --record are written together
  // (temporary files, moved into place once both are written); then a replay's verdict
  // (exit 3 when it diverged) or, for a timed run, its frame statistics.
  int rc = 0;
  std::string io_err;
  if (!app.screenshot_error.empty()) {
    std::fprintf(stderr, "colony: %s\n", app.screenshot_error.c_str());
    rc = 2;
  } else if (!write_run_outputs(*app.game, {{}, {}, options.save, options.record, &recorder}, &io_err)) {
    std::fprintf(stderr, "colony: %s\n", io_err.c_str());
    rc = 2;
  }
  if (rc == 0 && !options.replay.empty()) {
    if (replayer.diverged) {
      std::fprintf(stderr, "colony: %s: replay diverged at %s\n", printable(options.replay).c_str(),
                   replayer.divergence.c_str());
      rc = 3;
    } else {
      std::fprintf(stderr, "colony: %s\n", replayer.summary(options.replay, app.game->tick, "closed").c_str());
    }
  }
  if (rc == 0 && config.frames > 0) {
    // The run's averages (the first frames build every chunk texture; they are included)
    // and the most memory it held, as the headless report's rss_mb gives its own.
    SDL_RendererInfo info{};
    SDL_GetRendererInfo(app.renderer, &info);
    const render::FrameStats& s = app.stats;
    double n = double(std::max<uint64_t>(1, s.frames));
    // The slowest half second is measured after the first 60 frames; a shorter run has none.
    char slowest[48] = "none in so short a run";
    if (s.slowest_fps > 0) std::snprintf(slowest, sizeof slowest, "%.1f", s.slowest_fps);
    // The frame's whole, then its parts: the main thread's, and the ticks, which overlap the
    // drawing on their own thread and come first on the main one.
    std::fprintf(stderr,
                 "colony: %llu frames, %s renderer, %dx%d, %llu ants at the end: average fps %.1f (slowest half second "
                 "%s); ms per frame %.2f: build %.2f, submit %.2f, present %.2f, ui %.2f, sim %.2f on the %s thread, "
                 "waited for sim %.2f; max resident memory %.0f MB\n",
                 (unsigned long long)s.frames, info.name ? info.name : "?", int(app.camera.view_w),
                 int(app.camera.view_h), (unsigned long long)ants_alive(*app.game), render::average_fps(app), slowest,
                 s.sum_frame_ms / n, s.sum_build_ms / n, s.sum_submit_ms / n, s.sum_present_ms / n, s.sum_ui_ms / n,
                 s.sum_sim_ms / n, app.sim_thread ? "simulation's" : "main", s.sum_wait_ms / n, peak_resident_mb());
    // The longest frame, and what the rewind history's keyframes cost (the frames that take
    // one are among those measured).
    const History& h = app.history;
    std::fprintf(stderr,
                 "colony: longest frame %.1f ms (at tick %llu); rewind history %s: %.1f s held, %zu keyframes every %u "
                 "ticks, %s, "
                 "slowest keyframe %.1f ms CPU in its tick (compression %.1f ms CPU on its own thread)\n",
                 s.longest_frame_ms, (unsigned long long)s.longest_frame_tick, h.keyframes.empty() ? "off" : "on",
                 history_seconds(h), h.keyframes.size(), h.interval, size_text(double(history_bytes(h))).c_str(),
                 h.slowest_keyframe_ms, h.slowest_compress_ms);
  }
  render::app_shutdown(app);
  return rc;
}

}  // namespace colony
