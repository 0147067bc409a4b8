// workers_test.cpp — the fork-join crew runs every job exactly once per run, on any
// number of threads, runs after runs; the crew's CPU time is counted; and a walk split
// into jobs (RecordJobs) visits every simulated record once, in storage order, in jobs
// that do not depend on the thread count.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "test_world.h"
#include "workers.h"

using namespace ecs_test;

namespace {

TEST(Workers, EveryJobRunsOnceInEveryRunOnAnyCount) {
  for (u32 threads : {1u, 2u, 4u}) {
    ecs::Workers crew(threads);
    EXPECT_EQ(crew.threads(), threads);
    std::vector<std::atomic<u32>> runs(1000);
    for (u32 round = 0; round < 300; ++round) {
      const u32 jobs = round % 7 == 0 ? 0 : round % 11 == 0 ? 1 : 1 + round * 3 % 1000;
      auto job = [&](u32 j) { runs[j].fetch_add(1, std::memory_order_relaxed); };
      crew.run(jobs, job);
      // The run returns only after every job: each counted exactly once this round.
      for (u32 j = 0; j < runs.size(); ++j) {
        ASSERT_EQ(runs[j].load(), j < jobs ? 1u : 0u) << "round " << round << " job " << j << " threads " << threads;
        runs[j] = 0;
      }
    }
  }
}

// Two threads take jobs side by side: a crew of two runs jobs on a thread other than the
// caller's, and counts the CPU time they spend there.
TEST(Workers, ACrewOfTwoRunsJobsOnAnotherThreadAndCountsItsTime) {
  ecs::Workers crew(2);
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<u32> elsewhere{0};
  std::atomic<u64> sink{0};
  auto job = [&](u32 j) {
    if (std::this_thread::get_id() != caller) elsewhere.fetch_add(1);
    u64 x = j;
    for (u32 k = 0; k < 2'000'000; ++k) x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink.fetch_add(x);
  };
  for (int round = 0; round < 20 && elsewhere.load() == 0; ++round) crew.run(64, job);
  EXPECT_GT(elsewhere.load(), 0u);
  EXPECT_GT(crew.crew_cpu_ms(), 0.0);
}

TEST(RecordJobs, JobsCoverTheSimulatedStoreOnceInStorageOrder) {
  TestWorld w(make_config(5000, 16, 16, 16));
  for (u32 i = 0; i < 3000; ++i) w.create(i % 9, i % 4 ? Tier::Simulated : Tier::Dormant, 0, Pos{0, 0, i});
  std::vector<u32> walked;
  for (TestWorld::Record& r : w.simulated()) walked.push_back(r.payload.id);
  for (u32 per : {1u, 100u, 256u, 5000u}) {
    const ecs::RecordJobs<TestWorld::Record> jobs = w.simulated_jobs(per);
    std::vector<u32> in_jobs;
    u32 first = 0;
    for (u32 j = 0; j < jobs.size(); ++j) {
      EXPECT_EQ(jobs.first(j), first);
      jobs.for_each(j, [&](TestWorld::Record& r) { in_jobs.push_back(r.payload.id); });
      first += jobs.count(j);
      // Whole storage blocks, all but the last job full.
      EXPECT_EQ(jobs.records_per_job() % w.store().block_records(), 0u);
      if (j + 1 < jobs.size()) { EXPECT_EQ(jobs.count(j), jobs.records_per_job()); }
    }
    EXPECT_EQ(in_jobs, walked) << per << " records a job";
  }
}

}  // namespace
