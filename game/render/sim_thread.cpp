// sim_thread.cpp — the simulation thread's handshake (sim_thread.h).
#include "sim_thread.h"

#include <chrono>

namespace colony::render {

SimThread::SimThread(Job job, void* ctx) : job_(job), ctx_(ctx), thread_([this] { serve(); }) {}

SimThread::~SimThread() {
  join();
  stop_.store(true, std::memory_order_relaxed);
  started_.fetch_add(1, std::memory_order_release);
  started_.notify_one();
  // thread_ joins as it is destroyed.
}

void SimThread::start() {
  started_.fetch_add(1, std::memory_order_release);
  started_.notify_one();
}

double SimThread::join() {
  const uint32_t asked = started_.load(std::memory_order_relaxed);  // only this thread bumps it
  uint32_t done = finished_.load(std::memory_order_acquire);
  if (done == asked) return 0;
  const auto t0 = std::chrono::steady_clock::now();
  while (done != asked) {
    finished_.wait(done, std::memory_order_acquire);
    done = finished_.load(std::memory_order_acquire);
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void SimThread::serve() {
  uint32_t seen = 0;
  for (;;) {
    started_.wait(seen, std::memory_order_acquire);
    seen = started_.load(std::memory_order_acquire);
    if (stop_.load(std::memory_order_relaxed)) return;
    job_(ctx_);
    finished_.store(seen, std::memory_order_release);
    finished_.notify_one();
  }
}

}  // namespace colony::render
