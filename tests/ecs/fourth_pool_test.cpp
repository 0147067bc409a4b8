// fourth_pool_test.cpp — adding a pool type is a few lines: declare the component, list it
// in the World, give it a capacity. Everything else (operations, stats, validator, batched
// release, tier and chunk moves) comes from the one template.
#include <gtest/gtest.h>

#include "test_world.h"

using namespace ecs_test;

namespace {

// The whole of the new pool type: data, per-entity maximum, name.
struct Leg {
  float length = 1;
  u32 tag = 0;
  static constexpr u32 kMaxPerEntity = 6;
  static constexpr const char* kPoolName = "legs";
};
using FourPoolWorld = World<Pos, Piece, Volume, Sensor, Leg>;

TEST(FourthPool, WorksThroughTheSameTemplate) {
  FourPoolWorld::Config c;
  c.max_entities = 64;
  c.grid = ChunkGrid::make(64, 64, 16);
  c.pool_capacity = FourPoolWorld::PerPool<u32>::filled(100);
  c.pool_capacity.of<Leg>() = 20;
  FourPoolWorld w(c);
  static_assert(FourPoolWorld::kPoolCount == 4);

  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(1, Tier::Dormant, 0);
  ASSERT_EQ(give<Leg>(w, a, 6, 0), Result::Ok);
  ASSERT_EQ(give<Leg>(w, b, 6, 10), Result::Ok);
  ASSERT_EQ(give<Piece>(w, a, 3, 0), Result::Ok);
  EXPECT_EQ(w.reserve<Leg>(a, 1), Result::EntityMaxReached);
  Handle c3 = w.create(2, Tier::Simulated, 0);
  ASSERT_EQ(w.reserve<Leg>(c3, 6), Result::Ok);
  EXPECT_EQ(w.reserve<Leg>(w.create(2, Tier::Simulated, 0), 3), Result::PoolFull);
  EXPECT_EQ(w.stats<Leg>().total.failed_reservations, 2u);
  EXPECT_STREQ(w.all_stats()[3]->name, "legs");

  ASSERT_EQ(w.remove_one<Leg>(a, 2), Result::Ok);  // legs are lost one at a time
  EXPECT_EQ(tags<Leg>(w, a), (std::vector<u32>{0, 1, 3, 4, 5}));
  ASSERT_EQ(w.move_chunk(b, 3), Result::Ok);
  EXPECT_EQ(w.pool<Leg>().owners[w.list<Leg>(*w.find(b)).slot[0]].chunk, 3u);
  ASSERT_EQ(w.set_tier(b, Tier::Simulated), Result::Ok);
  EXPECT_EQ(violations(w), "");

  ASSERT_EQ(w.queue_destroy(a), Result::Ok);
  EXPECT_EQ(w.apply_destructions(), 1u);  // releases the fourth pool with the others
  EXPECT_EQ(w.stats<Leg>().taken, 12u);
  EXPECT_EQ(w.stats<Piece>().taken, 0u);
  EXPECT_EQ(tags<Leg>(w, b), (std::vector<u32>{10, 11, 12, 13, 14, 15}));
  // Corruption in the new pool is caught like in any other.
  w.pool<Leg>().owners[0].local = (w.pool<Leg>().owners[0].local + 1) % 6;
  auto vs = w.validate();
  ASSERT_FALSE(vs.empty());
  EXPECT_EQ(vs[0].pool, "legs");
}

}  // namespace
