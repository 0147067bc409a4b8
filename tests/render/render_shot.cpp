// render_shot.cpp — a developer's camera: plays a scenario in an offscreen/hidden window
// for N frames with a chosen camera and optional actions, and writes the last frame.
// Not a test: a tool for looking at what the renderer draws.
//
//   render_shot SCENARIO OUT.png FRAMES [zoom=Z] [at=X,Y] [bomb=FRAME,X,Y,R] [fire=FRAME,X,Y,R]
//               [overlay=0..3] [hud=0|1] [size=WxH] [select=X,Y] [speed=N] [debug=1] [help=1] [paint=FRAME,X,Y,R,KIND]
//               [bigbomb=FRAME,X,Y] [key=FRAME,K] (K: a key's name, as SDL names it: Space, ",", ".", End)
//               [drag=FRAME,F] (a press on the timeline's bar at fraction F of its width, let go two frames later)
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "app.h"
#include "timeline.h"

using namespace colony;
using namespace colony::render;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: render_shot SCENARIO OUT.png FRAMES [key=value...]\n");
    return 2;
  }
  WindowConfig config;
  config.scenario = argv[1];
  config.hidden = true;
  config.vsync = false;
  config.fixed_step = true;
  config.width = 1280, config.height = 800;
  int frames = std::atoi(argv[3]);
  config.frames = uint32_t(frames);
  config.screenshot = argv[2];
  float zoom = 0, at_x = -1, at_y = -1;
  struct Action {
    int frame;
    Command c;
  };
  std::vector<Action> actions;
  struct Input {
    int frame;
    SDL_Keycode key;  // 0: a press on the timeline's bar
    float fraction;
  };
  std::vector<Input> inputs;
  int overlay = 0, hud = 1, speed = 1, help = 0, bench = 0;
  float select_x = -1, select_y = -1;
  for (int i = 4; i < argc; ++i) {
    std::string a = argv[i];
    float f = 0, x = 0, y = 0, r = 0;
    int k = 0;
    if (std::sscanf(a.c_str(), "zoom=%f", &zoom) == 1) continue;
    if (std::sscanf(a.c_str(), "at=%f,%f", &at_x, &at_y) == 2) continue;
    if (std::sscanf(a.c_str(), "size=%dx%d", &config.width, &config.height) == 2) continue;
    if (std::sscanf(a.c_str(), "overlay=%d", &overlay) == 1) continue;
    if (std::sscanf(a.c_str(), "hud=%d", &hud) == 1) continue;
    if (std::sscanf(a.c_str(), "help=%d", &help) == 1) continue;
    if (std::sscanf(a.c_str(), "bench=%d", &bench) == 1) continue;
    if (std::sscanf(a.c_str(), "speed=%d", &speed) == 1) continue;
    if (std::sscanf(a.c_str(), "select=%f,%f", &select_x, &select_y) == 2) continue;
    if (a == "debug=1") {
      config.debug_ui = true;
      continue;
    }
    if (std::sscanf(a.c_str(), "bomb=%f,%f,%f,%f", &f, &x, &y, &r) == 4) {
      Command c;
      c.kind = CommandKind::Bomb;
      c.x = x;
      c.y = y;
      c.radius = r;
      actions.push_back({int(f), c});
      continue;
    }
    if (std::sscanf(a.c_str(), "bigbomb=%f,%f,%f", &f, &x, &y) == 3) {
      Command c;
      c.kind = CommandKind::BigBomb, c.x = x, c.y = y, c.radius = kBigBombRadius;
      actions.push_back({int(f), c});
      continue;
    }
    char name[32] = {};
    if (std::sscanf(a.c_str(), "key=%d,%31s", &k, name) == 2) {
      inputs.push_back({k, SDL_GetKeyFromName(name), 0});
      continue;
    }
    if (std::sscanf(a.c_str(), "drag=%d,%f", &k, &f) == 2) {
      inputs.push_back({k, 0, f});
      continue;
    }
    if (std::sscanf(a.c_str(), "fire=%f,%f,%f,%f", &f, &x, &y, &r) == 4) {
      Command c;
      c.kind = CommandKind::Ignite;
      c.x = x;
      c.y = y;
      c.radius = r;
      actions.push_back({int(f), c});
      continue;
    }
    if (std::sscanf(a.c_str(), "paint=%f,%f,%f,%f,%d", &f, &x, &y, &r, &k) == 5) {
      Command c;
      c.kind = CommandKind::PaintTerrain;
      c.x = x;
      c.y = y;
      c.radius = r;
      c.terrain = Terrain(k);
      actions.push_back({int(f), c});
      continue;
    }
    std::fprintf(stderr, "render_shot: unknown argument '%s'\n", a.c_str());
    return 2;
  }
  App app;
  std::string err;
  if (!app_init(app, config, &err)) {
    std::fprintf(stderr, "render_shot: %s\n", err.c_str());
    return 2;
  }
  if (zoom > 0) app.camera.zoom = zoom;
  if (at_x >= 0) app.camera.x = at_x, app.camera.y = at_y;
  app.overlay = Overlay(overlay);
  app.show_hud = hud != 0;
  app.show_help = help != 0;
  app.speed = speed;
  for (int f = 0; f < frames; ++f) {
    for (const Action& a : actions)
      if (a.frame == f) queue_command(*app.game, a.c);
    // Input as SDL events, through the window's own event loop.
    auto push = [&](SDL_Event e) { SDL_PushEvent(&e); };
    for (const Input& in : inputs) {
      const TimelineBar bar = timeline_bar();
      const int bx = int(bar.x + in.fraction * bar.w), by = int(bar.y + bar.h / 2);
      SDL_Event e{};
      if (in.key && in.frame == f) {
        e.type = SDL_KEYDOWN, e.key.state = SDL_PRESSED, e.key.keysym.sym = in.key,
        e.key.keysym.scancode = SDL_GetScancodeFromKey(in.key);
        push(e);
        e.type = SDL_KEYUP, e.key.state = SDL_RELEASED;
        push(e);
      } else if (!in.key && in.frame == f) {
        e.type = SDL_MOUSEMOTION, e.motion.x = bx, e.motion.y = by;
        push(e);
        e = SDL_Event{};
        e.type = SDL_MOUSEBUTTONDOWN, e.button.button = SDL_BUTTON_LEFT, e.button.state = SDL_PRESSED, e.button.x = bx,
        e.button.y = by;
        push(e);
      } else if (!in.key && in.frame + 2 == f) {
        e.type = SDL_MOUSEBUTTONUP, e.button.button = SDL_BUTTON_LEFT, e.button.state = SDL_RELEASED, e.button.x = bx,
        e.button.y = by;
        push(e);
      }
    }
    if (f == frames - 2 && select_x >= 0) {
      app.tool = Tool::Select;
      apply_tool(app, select_x, select_y, true);
      app.follow = true;
    }
    if (!app_frame(app)) break;
  }
  if (!app.error.empty()) std::fprintf(stderr, "render_shot: %s\n", app.error.c_str());
  // The batch build alone, best of 20 (a shared machine's noise inflates single timings).
  {
    double best = 1e9;
    BatchInput in;
    in.camera = &app.camera;
    in.detail = detail_for_zoom(app.camera.zoom);
    in.atlas = &app.atlas;
    for (int i = 0; i < 20; ++i) {
      Uint64 t0 = SDL_GetPerformanceCounter();
      clear_batch(app.batch);
      build_world_batch(app.batch, *app.game, in);
      double ms = double(SDL_GetPerformanceCounter() - t0) * 1000.0 / double(SDL_GetPerformanceFrequency());
      best = std::min(best, ms);
    }
    std::fprintf(stderr, "batch build best of 20: %.2f ms for %u entities, %u quads, %u stamped\n", best,
                 app.batch.entities, app.batch.quads, app.batch.crowd_dots);
  }
  std::fprintf(stderr, "fps %.1f build %.2f submit %.2f present %.2f quads %u tick %llu\n", app.stats.fps,
               app.stats.build_ms, app.stats.submit_ms, app.stats.present_ms, app.batch.quads,
               (unsigned long long)app.game->tick);
  if (bench > 0) {
    // Paused frames of the final state: wall and process CPU time per frame (CPU counts the
    // rasteriser's threads too).
    app.paused = true;
    app.config.frames = 0;
    rusage u0{}, u1{};
    getrusage(RUSAGE_SELF, &u0);
    Uint64 t0 = SDL_GetPerformanceCounter();
    for (int i = 0; i < bench; ++i) app_frame(app);
    double wall = double(SDL_GetPerformanceCounter() - t0) * 1000.0 / double(SDL_GetPerformanceFrequency()) / bench;
    getrusage(RUSAGE_SELF, &u1);
    auto secs = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    double cpu = (secs(u1.ru_utime) - secs(u0.ru_utime) + secs(u1.ru_stime) - secs(u0.ru_stime)) * 1000.0 / bench;
    std::fprintf(
        stderr,
        "bench %d frames: wall %.2f ms/frame, cpu %.2f ms/frame, build %.2f submit %.2f present %.2f quads %u\n", bench,
        wall, cpu, app.stats.build_ms, app.stats.submit_ms, app.stats.present_ms, app.batch.quads);
  }
  app_shutdown(app);
  return 0;
}
