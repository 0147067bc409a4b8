// space_order_test.cpp — putting the simulated store in chunk order and a pool in the
// store's order moves records and entries, never what they hold or who owns them: every
// handle finds its record, every entity its components in their order, the validator
// finds nothing, and a walk then meets the chunks in order and the pool front to back.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

struct Made {
  Handle h;
  u32 id;
  u32 sensors;
};

// 3,000 entities in random chunks, a quarter dormant, with 0-4 sensors and a piece each,
// made in turns with deaths so that the store and the pools are shuffled.
std::vector<Made> shuffled_world(TestWorld& w) {
  std::mt19937 rng(7);
  std::vector<Made> made;
  for (u32 id = 1; id <= 3000; ++id) {
    const Tier tier = rng() % 4 ? Tier::Simulated : Tier::Dormant;
    const Handle h = w.create(rng() % 256, tier, 0, Pos{0, 0, id});
    const u32 n = rng() % 5;
    EXPECT_EQ(give<Sensor>(w, h, n, id * 10), Result::Ok);
    EXPECT_EQ(give<Piece>(w, h, 1, id * 10), Result::Ok);
    made.push_back({h, id, n});
    if (id % 7 == 0) {
      const size_t victim = rng() % made.size();
      w.queue_destroy(made[victim].h);
      made.erase(made.begin() + long(victim));
    }
    if (id % 500 == 0) w.apply_destructions();
  }
  w.apply_destructions();
  return made;
}

void expect_everything_kept(TestWorld& w, const std::vector<Made>& made) {
  EXPECT_EQ(violations(w), "");
  for (const Made& m : made) {
    const TestWorld::Record* r = w.find(m.h);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->payload.id, m.id);
    std::vector<u32> want;
    for (u32 k = 0; k < m.sensors; ++k) want.push_back(m.id * 10 + k);
    EXPECT_EQ(tags<Sensor>(w, m.h), want);
    EXPECT_EQ(tags<Piece>(w, m.h), std::vector<u32>{m.id * 10});
  }
}

TEST(SpaceOrder, TheSimulatedStoreInChunkOrderKeepsEveryHandleAndItsOrderWithinAChunk) {
  TestWorld w(make_config(4000, 4000, 16, 16000));
  const std::vector<Made> made = shuffled_world(w);
  std::vector<std::pair<u32, u32>> before;  // (chunk, id) in storage order
  for (TestWorld::Record& r : w.simulated()) before.push_back({r.header.chunk, r.payload.id});
  ASSERT_FALSE(std::is_sorted(before.begin(), before.end(), [](auto& a, auto& b) { return a.first < b.first; }));
  w.sort_simulated_by_chunk();
  std::vector<std::pair<u32, u32>> after;
  for (TestWorld::Record& r : w.simulated()) after.push_back({r.header.chunk, r.payload.id});
  // A stable sort by chunk of what was there.
  std::stable_sort(before.begin(), before.end(), [](auto& a, auto& b) { return a.first < b.first; });
  EXPECT_EQ(after, before);
  expect_everything_kept(w, made);
  // The chunk lists still hold each chunk's simulated members.
  for (u32 c = 0; c < 256; ++c) {
    u32 members = 0;
    w.in_chunk(c).for_each_simulated([&](TestWorld::Record& r) {
      EXPECT_EQ(r.header.chunk, c);
      ++members;
    });
    EXPECT_EQ(members, u32(std::count_if(after.begin(), after.end(), [&](auto& p) { return p.first == c; })));
  }
}

TEST(SpaceOrder, APoolInTheStoresOrderIsReadFrontToBackByTheWalk) {
  TestWorld w(make_config(4000, 4000, 16, 16000));
  const std::vector<Made> made = shuffled_world(w);
  w.sort_simulated_by_chunk();
  w.order_pool_like_simulated<Sensor>();
  expect_everything_kept(w, made);
  // Walking the simulated records, their sensor slots are 0, 1, 2, ... with no gap.
  u32 next = 0;
  for (TestWorld::Record& r : w.simulated()) {
    const auto& l = w.list<Sensor>(r);
    for (u32 k = 0; k < l.reserved; ++k) EXPECT_EQ(l.slot[k], next++);
  }
  EXPECT_GT(next, 1000u);
  // The dormant entities' sensors follow, all of them rewired (the validator above).
  EXPECT_LE(next, w.pool<Sensor>().taken());
  // A world that is already in order stays as it is.
  std::vector<u32> ids;
  for (TestWorld::Record& r : w.simulated()) ids.push_back(r.payload.id);
  w.sort_simulated_by_chunk();
  w.order_pool_like_simulated<Sensor>();
  std::vector<u32> again;
  for (TestWorld::Record& r : w.simulated()) again.push_back(r.payload.id);
  EXPECT_EQ(again, ids);
  expect_everything_kept(w, made);
}

}  // namespace
