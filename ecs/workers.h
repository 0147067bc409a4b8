// workers.h — a fork-join crew of threads for walks split into jobs: run(jobs, fn) calls
// fn(job) once for every job number, spread over the crew and the calling thread, and
// returns when every call has returned.
//
// Which thread takes which job is not fixed. A job must therefore write only what its
// number names (its own records, its own part of a scratch array), or combine into shared
// data with an operation whose result does not depend on order (an atomic max, an or);
// then a run leaves the same state whatever the thread count, which is what keeps a
// simulation's hash, saves and replays the same across machines.
//
// A run takes no heap memory: the work is a function pointer and a context, and idle
// threads sleep on an atomic (a futex), woken for each run.
#pragma once
#include <atomic>
#include <thread>
#include <vector>

#include "ecs_types.h"

namespace ecs {

class Workers {
 public:
  // `threads` in all, the caller's included: threads - 1 are started here.
  explicit Workers(u32 threads);
  ~Workers();
  Workers(const Workers&) = delete;
  Workers& operator=(const Workers&) = delete;

  u32 threads() const { return u32(crew_.size()) + 1; }
  // The CPU time the crew's threads have spent in jobs since the crew started (the
  // caller's own share is on its own thread clock): a timer of work that runs jobs adds
  // the difference across the work to its thread's (ecs::thread_cpu_ms).
  double crew_cpu_ms() const { return double(crew_cpu_ns_.load(std::memory_order_relaxed)) * 1e-6; }
  // fn(u32 job) for job in [0, jobs); fn must not throw.
  template <class Fn>
  void run(u32 jobs, Fn& fn) {
    run_jobs(
        jobs, [](void* ctx, u32 job) { (*static_cast<Fn*>(ctx))(job); }, &fn);
  }

 private:
  void run_jobs(u32 jobs, void (*call)(void*, u32), void* ctx);
  void serve();      // a crew thread: wait for a run, take jobs, report done
  void take_jobs();  // jobs until none is left

  std::vector<std::jthread> crew_;
  std::atomic<u32> round_{0};  // bumped to start each run (and to stop)
  std::atomic<bool> stop_{false};
  std::atomic<u32> next_job_{0};
  std::atomic<u32> busy_{0};  // crew threads not yet done with the current run
  std::atomic<u64> crew_cpu_ns_{0};
  // The current run, written before round_ is bumped and read after it is seen.
  u32 jobs_ = 0;
  void (*call_)(void*, u32) = nullptr;
  void* ctx_ = nullptr;
};

}  // namespace ecs
