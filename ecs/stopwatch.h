// stopwatch.h — the steady clock the batched release times its passes with
// (World::last_release, World::release_totals).
#pragma once
#include <chrono>

namespace ecs {

struct Stopwatch {
  std::chrono::steady_clock::time_point at = std::chrono::steady_clock::now();
  // Milliseconds since the last lap (or since the stopwatch was made); a new lap begins.
  double lap_ms() {
    const auto now = std::chrono::steady_clock::now();
    const double ms = std::chrono::duration<double, std::milli>(now - at).count();
    at = now;
    return ms;
  }
};

}  // namespace ecs
