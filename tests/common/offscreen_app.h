// offscreen_app.h — the real game app in a hidden window on SDL's offscreen driver, for
// tests that run it frame by frame as a player would: fixed 1/60 s steps, no vsync.
#pragma once
#include <cstdlib>
#include <functional>
#include <string>

#include "app.h"

namespace colony_test {

struct OffscreenApp {
  colony::render::App app;
  bool ok = false;
  std::string err;

  // `edit` changes the window's configuration before it opens (the simulation thread, a
  // timed run's frames).
  explicit OffscreenApp(const std::string& scenario, int w = 800, int h = 600,
                        const std::function<void(colony::render::WindowConfig&)>& edit = nullptr) {
    setenv("SDL_VIDEODRIVER", "offscreen", 0);
    colony::render::WindowConfig c;
    c.scenario = scenario;
    c.hidden = true;
    c.vsync = false;
    c.fixed_step = true;
    c.width = w, c.height = h;
    if (edit) edit(c);
    ok = colony::render::app_init(app, c, &err);
  }
  ~OffscreenApp() {
    if (ok) colony::render::app_shutdown(app);
  }
  OffscreenApp(const OffscreenApp&) = delete;
  OffscreenApp& operator=(const OffscreenApp&) = delete;

  colony::Game& game() { return *app.game; }
  void frames(int n) {
    for (int i = 0; i < n; ++i) colony::render::app_frame(app);
  }
};

}  // namespace colony_test
