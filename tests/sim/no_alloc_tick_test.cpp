// no_alloc_tick_test.cpp — proves that the game's ticks do not touch the heap once a world
// is built and its scratch has been sized: not while ants are born and die, not in the
// tick in which bombs kill hundreds of them, not while fire spreads or the simulation
// region moves, with the release journal on. This binary counts every allocation
// (counting_allocator.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "../common/counting_allocator.h"
#include "game.h"

namespace colony {
namespace {

std::unique_ptr<Game> carpet_bombing() {
  Scenario s;
  std::string err;
  EXPECT_TRUE(load_scenario(std::string(COLONY_SCENARIO_DIR) + "/carpet_bombing.json", s, &err)) << err;
  std::unique_ptr<Game> g = make_game(s, 7, &err);
  EXPECT_TRUE(g) << err;
  return g;
}

Command bomb_at(float x, float y, CommandKind kind = CommandKind::BigBomb) {
  Command c;
  c.kind = kind;
  c.x = x;
  c.y = y;
  return c;
}

// The scenario's own bombs and births, the player's bombs on each nest, a fire and a
// spawn refused for want of room, a storm of 1,500 bombs in one tick, and a region moved
// back and forth: after the first second, no tick allocates, on two threads (the crew is
// started before the count, as a program starts it once).
TEST(NoAllocTick, TicksWithBirthsBombsFireAndRegionMovesNeverAllocate) {
  set_sim_threads(2);
  ASSERT_EQ(sim_threads(), 2u);
  std::unique_ptr<Game> g = carpet_bombing();
  ASSERT_TRUE(g);
  // The release journal on, as while the debugger is open: its rings were taken with the world.
  ASSERT_TRUE(g->ecs->set_journal(true));
  g->pending_commands.reserve(2048);
  for (int t = 0; t < 60; ++t) simulate_tick(*g);
  const u64 born_before = ants_born(*g);
  u64 killed = 0;
  u32 dormant_chunks = 0;
  AllocationWatch watch;
  for (int t = 0; t < 600; ++t) {
    if (t % 100 == 10) {
      for (const Colony& c : g->colonies) queue_command(*g, bomb_at(c.nest_x + 8, c.nest_y));
      queue_command(*g, bomb_at(float(g->width) * 0.5f, float(g->height) * 0.5f, CommandKind::Ignite));
      Command spawn;
      spawn.kind = CommandKind::SpawnAnts;
      spawn.count = 5000000;  // more than the pools hold: the rest are refused and counted
      spawn.x = g->colonies[0].nest_x;
      spawn.y = g->colonies[0].nest_y;
      queue_command(*g, spawn);
    }
    // A storm: more bombs in one tick than the list of recent explosions holds.
    if (t == 300)
      for (u32 k = 0; k < 1500; ++k) queue_command(*g, bomb_at(float(k % 150), float(k / 10 % 150), CommandKind::Bomb));
    if (t % 150 == 75)
      set_sim_region(*g, g->region_x + (t % 300 == 75 ? 64.0f : -64.0f), g->region_y, g->region_w, g->region_h);
    const u64 before = ants_alive(*g);
    simulate_tick(*g);
    if (t == 80) dormant_chunks = u32(std::count(g->chunk_simulated.begin(), g->chunk_simulated.end(), 0));
    killed += before > ants_alive(*g) ? before - ants_alive(*g) : 0;
  }
  const unsigned long allocations = watch.count();
  EXPECT_EQ(allocations, 0u);
  // The ticks did what the test says they did.
  EXPECT_GT(killed, 1000u);
  EXPECT_GT(g->spawn_refused, 0u);
  EXPECT_GT(dormant_chunks, 0u);  // the region's move sent chunks to sleep
  EXPECT_LE(g->blasts.size(), kMaxBlasts);
  EXPECT_GT(ants_born(*g), born_before) << "no ant was born while allocations were counted";
  EXPECT_GT(g->ecs->journal().release_count(), 1000u);  // the journal wrote while the ticks were counted
}

}  // namespace
}  // namespace colony
