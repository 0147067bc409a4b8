// debug_probe.cpp — what the pool debugger costs. Runs a scenario headless and draws every
// debugger window into an ImGui context with no renderer, timing the per-tick hook, the
// drawing (NewFrame to Render), the validator and the chunk ant count. One line per measure.
//
//   colony_debug_probe --scenario assets/scenarios/million.json [--ticks 120] [--frames 120]
#include <CLI/CLI.hpp>
#include <imgui.h>

#include <chrono>
#include <cstdio>

#include "debugger.h"
#include "game.h"
#include "headless_imgui.h"

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  using namespace colony;
  std::string scenario_path;
  unsigned ticks = 120, frames = 120;
  CLI::App cli{"Measures the pool debugger's cost on a scenario", "colony_debug_probe"};
  cli.add_option("--scenario", scenario_path, "Scenario JSON file")->required()->check(CLI::ExistingFile);
  cli.add_option("--ticks", ticks, "Ticks to run before measuring")->check(CLI::Range(0u, 1000000u));
  cli.add_option("--frames", frames, "Frames to measure (one tick each)")->check(CLI::Range(1u, 100000u));
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cli.exit(e);
    std::fprintf(stderr, "colony_debug_probe: %s\n", e.what());
    return 2;
  }
  Scenario scenario;
  std::string err;
  if (!load_scenario(scenario_path, scenario, &err)) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 2;
  }
  std::unique_ptr<Game> g = make_game(scenario, scenario.seed, &err);
  if (!g) {
    std::fprintf(stderr, "%s\n", err.c_str());
    return 2;
  }

  HeadlessImGui ui;

  Debugger dbg;
  debugger_init(dbg, true);
  dbg.auto_bomb = true;  // mass deaths while measuring
  dbg.auto_bomb_seconds = 1;
  dbg.bomb_count = 2;
  dbg.bomb_radius = 6;
  DebugLink link;
  FrameTimes ft{1, 1, 1, 60, 60};
  for (unsigned t = 0; t < ticks; ++t) {
    simulate_tick(*g);
    debugger_after_tick(dbg, *g);
  }

  double hook_ms = 0, draw_ms = 0, draw_max = 0;
  long long vertices = 0;
  for (unsigned f = 0; f < frames; ++f) {
    simulate_tick(*g);
    auto t0 = std::chrono::steady_clock::now();
    debugger_after_tick(dbg, *g);
    hook_ms += ms_since(t0);
    ImGui::GetIO().MousePos = ImVec2(float((f * 37) % 1280), float((f * 53) % 800));
    t0 = std::chrono::steady_clock::now();
    ImDrawData* drawn = ui.frame([&] { draw_debugger(dbg, *g, ft, link); });
    double d = ms_since(t0);
    draw_ms += d;
    draw_max = std::max(draw_max, d);
    vertices += drawn->TotalVtxCount;
  }
  auto t0 = std::chrono::steady_clock::now();
  size_t violations = g->ecs->validate().size();
  double validate_ms = ms_since(t0);
  t0 = std::chrono::steady_clock::now();
  ChunkMapData chunks = gather_chunk_map(*g->ecs, ChunkCount::Ants);
  double chunk_ms = ms_since(t0);

  std::printf("scenario %s: %u entities (%u simulated), %llu ants alive, tick %llu\n", scenario_path.c_str(),
              g->ecs->live_count(), g->ecs->simulated_count(), (unsigned long long)ants_alive(*g),
              (unsigned long long)g->tick);
  std::printf("debugger_after_tick: %.3f ms per tick (history of %d pools)\n", hook_ms / frames, kMaxPools);
  std::printf("draw_debugger (NewFrame..Render, all windows): %.3f ms per frame, max %.3f, %lld vertices per frame\n",
              draw_ms / frames, draw_max, vertices / (long long)frames);
  std::printf("validator: %.1f ms per run (%zu violations)\n", validate_ms, violations);
  std::printf("chunk ant count: %.2f ms per refresh (%zu chunks)\n", chunk_ms, chunks.chunks.size());
  return 0;
}
