// registry.h — what main.cpp calls to register each group of benchmarks for a run's sizes.
#pragma once
#include "workload.h"

namespace bench {

void register_pool_benchmarks(const Sizes& sizes);
void register_tick_benchmarks(const Sizes& sizes);

}  // namespace bench
