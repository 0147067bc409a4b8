// render_benchmarks.cpp — the window's batch build at scale: every visible entity of the
// full_100k.json world (100,000 ants) into a frame batch (game/render/world_batch.cpp), on
// the CPU only (no window, no GPU):
//   render/batch/pieces   zoom 12 on the first nest: a few chunks, every render piece
//   render/batch/sprite   zoom 1.5, most of the map in view: one quad an ant
// Built when the game is (colony_render); not in --tiny runs (the world takes seconds).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "camera.h"
#include "game.h"
#include "workload.h"
#include "world_batch.h"

namespace bench {

namespace {

colony::Game& full_world() {
  static std::unique_ptr<colony::Game> game;
  if (!game) {
    colony::Scenario s;
    std::string err;
    if (!colony::load_scenario(std::string(COLONY_SCENARIO_DIR) + "/full_100k.json", s, &err) ||
        !(game = colony::make_game(s, s.seed, &err))) {
      std::fprintf(stderr, "colony_bench: %s\n", err.c_str());
      std::abort();
    }
  }
  return *game;
}

void bench_batch(benchmark::State& st, float zoom, colony::render::Detail detail) {
  colony::Game& g = full_world();
  colony::render::Camera cam;
  cam.x = g.colonies[0].nest_x, cam.y = g.colonies[0].nest_y, cam.zoom = zoom;
  cam.view_w = 1920, cam.view_h = 1080;
  colony::render::FrameBatch b;
  colony::render::BatchInput in;
  in.camera = &cam;
  in.detail = detail;
  // The thread's CPU time, as tick/ measures: on a shared machine the wall clock counts
  // the time other processes held the core.
  for (auto _ : st) {
    double t0 = thread_seconds();
    colony::render::clear_batch(b);
    colony::render::build_world_batch(b, g, in);
    st.SetIterationTime(thread_seconds() - t0);
  }
  st.counters["entities"] = double(b.entities);
  st.counters["quads"] = double(b.quads);
}

}  // namespace

void register_render_benchmarks(bool tiny) {
  if (tiny) return;
  benchmark::RegisterBenchmark("render/batch/pieces",
                               [](benchmark::State& st) { bench_batch(st, 12.f, colony::render::Detail::Pieces); })
      ->UseManualTime()
      ->Iterations(200)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("render/batch/sprite",
                               [](benchmark::State& st) { bench_batch(st, 1.5f, colony::render::Detail::Sprite); })
      ->UseManualTime()
      ->Iterations(40)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace bench
