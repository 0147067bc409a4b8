// smoke_test.cpp — the first end-to-end check of the pools: reserve, add, remove, destroy, validate.
#include <gtest/gtest.h>

#include "components.h"

using namespace colony;

TEST(Smoke, ReserveAddRemoveDestroyValidate) {
  ColonyEcs::Config c;
  c.max_entities = 100;
  c.grid = ecs::ChunkGrid::make(64, 64, 16);
  c.pool_capacity = {1000, 200, 100};
  ColonyEcs w(c);
  Handle a = w.create(0, ecs::Tier::Simulated, 1, Body{});
  ASSERT_EQ(w.reserve<RenderPiece>(a, 11), ecs::Result::Ok);
  for (int i = 0; i < 11; ++i) ASSERT_EQ(w.add<RenderPiece>(a, RenderPiece{.offset_x = float(i)}), ecs::Result::Ok);
  ASSERT_EQ(w.remove_one<RenderPiece>(a, 3), ecs::Result::Ok);
  EXPECT_EQ(w.stats<RenderPiece>().taken, 10u);
  EXPECT_TRUE(w.validate().empty());
  ASSERT_EQ(w.destroy(a), ecs::Result::Ok);
  EXPECT_EQ(w.stats<RenderPiece>().taken, 0u);
  EXPECT_FALSE(w.alive(a));
}
