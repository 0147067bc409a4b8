// workers.cpp — the fork-join crew (workers.h).
#include "workers.h"

#include "stopwatch.h"

namespace ecs {

Workers::Workers(u32 threads) {
  crew_.reserve(threads > 1 ? threads - 1 : 0);
  for (u32 t = 1; t < threads; ++t) crew_.emplace_back([this] { serve(); });
}

Workers::~Workers() {
  stop_.store(true, std::memory_order_relaxed);
  round_.fetch_add(1, std::memory_order_release);
  round_.notify_all();
  crew_.clear();  // joins
}

void Workers::take_jobs() {
  for (u32 j; (j = next_job_.fetch_add(1, std::memory_order_relaxed)) < jobs_;) call_(ctx_, j);
}

void Workers::serve() {
  u32 seen = 0;
  for (;;) {
    round_.wait(seen, std::memory_order_acquire);
    seen = round_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_relaxed)) return;
    const double start_ms = thread_cpu_ms();
    take_jobs();
    crew_cpu_ns_.fetch_add(u64((thread_cpu_ms() - start_ms) * 1e6), std::memory_order_relaxed);
    // The last thread out wakes the caller; the release makes its jobs' writes visible.
    if (busy_.fetch_sub(1, std::memory_order_acq_rel) == 1) busy_.notify_one();
  }
}

void Workers::run_jobs(u32 jobs, void (*call)(void*, u32), void* ctx) {
  if (crew_.empty() || jobs < 2) {
    for (u32 j = 0; j < jobs; ++j) call(ctx, j);
    return;
  }
  jobs_ = jobs, call_ = call, ctx_ = ctx;
  next_job_.store(0, std::memory_order_relaxed);
  busy_.store(u32(crew_.size()), std::memory_order_relaxed);
  round_.fetch_add(1, std::memory_order_release);
  round_.notify_all();
  take_jobs();
  for (u32 b; (b = busy_.load(std::memory_order_acquire)) != 0;) busy_.wait(b, std::memory_order_acquire);
}

}  // namespace ecs
