// threads_million_test.cpp — the million-ant worlds leave the same state hash after each
// tick on one, two and four threads: full_1m.json (every ant simulated) and million.json
// as shipped (a small region, the rest dormant). Slow: six million-ant worlds are built.
#include "thread_counts.h"

namespace colony {
namespace {

TEST(SimThreadsMillion, AMillionSimulatedAntsHashTheSameOnOneTwoAndFourThreads) {
  expect_same_on_one_two_and_four("full_1m.json", 4, false);
}

TEST(SimThreadsMillion, TheMillionMapAsShippedHashesTheSameOnOneTwoAndFourThreads) {
  expect_same_on_one_two_and_four("million.json", 12, false);
}

}  // namespace
}  // namespace colony
