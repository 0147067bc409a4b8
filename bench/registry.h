// registry.h — what main.cpp calls to register each group of benchmarks for a run's sizes,
// and the counters both groups report from the engine's own timing of its batched release.
#pragma once
#include <benchmark/benchmark.h>

#include <string>

#include "workload.h"

namespace bench {

void register_pool_benchmarks(const Sizes& sizes);
void register_tick_benchmarks(const Sizes& sizes);
void register_render_benchmarks(bool tiny);

// The engine's split of the batched releases in t (World::release_totals, or a sum of
// World::last_release), in ns per victim: the batch's ordering (sort_ns), the mark pass
// with the store's fill (mark_ns) and each pool's close (close_<pool>_ns).
inline void count_release_passes(benchmark::State& st, const colony::ColonyEcs& world,
                                 const colony::ColonyEcs::ReleaseTimes& t) {
  if (t.victims == 0) return;
  const double ns_per_victim = 1e6 / double(t.victims);
  st.counters["sort_ns"] = t.sort_ms * ns_per_victim;
  st.counters["mark_ns"] = t.mark_ms * ns_per_victim;
  const auto stats = world.all_stats();
  for (size_t i = 0; i < stats.size(); ++i)
    st.counters[std::string("close_") + stats[i]->name + "_ns"] = t.close_ms[i] * ns_per_victim;
}

}  // namespace bench
