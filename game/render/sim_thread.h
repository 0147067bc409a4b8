// sim_thread.h — the window's simulation thread: a thread that runs one job (the frame's
// ticks) each time the main thread starts it, while the main thread draws, and says when
// it is done. The handshake is one counter each way, waited on with std::atomic wait and
// notify (a futex): no lock and no heap memory per run.
#pragma once
#include <atomic>
#include <cstdint>
#include <thread>

namespace colony::render {

class SimThread {
 public:
  using Job = void (*)(void* ctx);
  // Starts the thread; it sleeps until start().
  SimThread(Job job, void* ctx);
  // Waits for a run under way, then stops the thread.
  ~SimThread();
  SimThread(const SimThread&) = delete;
  SimThread& operator=(const SimThread&) = delete;

  // Runs job(ctx) once on the thread. The run before must have been joined: what the job
  // reads and writes is the main thread's again only after join().
  void start();
  // Waits until the run started last has returned (at once when it has, or none ran) and
  // returns the milliseconds waited. The job's writes are visible to the caller after it.
  double join();
  bool running() const { return started_.load(std::memory_order_relaxed) != finished_.load(std::memory_order_acquire); }
  std::thread::id id() const { return thread_.get_id(); }

 private:
  void serve();

  Job job_;
  void* ctx_;
  std::atomic<uint32_t> started_{0};   // runs asked for; bumped by start() (and to stop)
  std::atomic<uint32_t> finished_{0};  // the last run that has returned
  std::atomic<bool> stop_{false};
  std::jthread thread_;  // last: it starts once the fields above are set
};

}  // namespace colony::render
