// stopwatch.h — the one clock the engine and the game time their work with: the calling
// thread's CPU time (CLOCK_THREAD_CPUTIME_ID). The batched release's passes
// (World::last_release), the release journal's releases and the game's per-system timers
// (the tick's `destroy` among them) all read it, so a release and the tick it happened in
// are the same measure; time the thread spends descheduled on a busy machine is not
// charged to anything.
#pragma once
#include <ctime>

namespace ecs {

inline double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

struct Stopwatch {
  double at = thread_cpu_ms();
  // Milliseconds of the thread's CPU time since the last lap (or since the stopwatch was
  // made); a new lap begins.
  double lap_ms() {
    const double now = thread_cpu_ms();
    const double ms = now - at;
    at = now;
    return ms;
  }
};

}  // namespace ecs
