// window.cpp — run_window: command-line options in, the frame loop, exit code out.
#include "window.h"

#include <cstdio>

#include "app.h"

namespace colony {

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

  render::App app;
  std::string err;
  if (!render::app_init(app, config, &err)) {
    std::fprintf(stderr, "colony: %s\n", err.c_str());
    return 2;
  }
  while (render::app_frame(app)) {
  }
  int rc = 0;
  if (!app.error.empty() && !config.screenshot.empty() && app.stats.frames >= config.frames) {
    std::fprintf(stderr, "colony: %s\n", app.error.c_str());
    rc = 2;
  }
  if (config.frames > 0)
  {
    SDL_RendererInfo info{};
    SDL_GetRendererInfo(app.renderer, &info);
    std::fprintf(stderr,
                 "colony: %llu frames (%s renderer), fps %.1f, tps %.1f, ms per frame: build %.2f, submit %.2f, ui %.2f, "
                 "present %.2f, sim %.2f, whole frame %.2f\n",
                 (unsigned long long)app.stats.frames, info.name ? info.name : "?", app.stats.fps, app.stats.tps,
                 app.stats.build_ms, app.stats.submit_ms, app.stats.ui_ms, app.stats.present_ms, app.stats.sim_ms,
                 app.stats.frame_ms);
  }
  render::app_shutdown(app);
  return rc;
}

}  // namespace colony
