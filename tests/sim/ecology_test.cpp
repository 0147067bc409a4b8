// ecology_test.cpp — what keeps a world alive: a fallen colony founded again by its queen
// (or a new one), burnt land growing grass at the scenario's rate, the sparks of fights,
// and that all of it is in the state hash and the saves.
#include <gtest/gtest.h>

#include <cmath>

#include "game.h"
#include "save.h"

namespace colony {
namespace {

// An all-grass world with one colony whose queen has nothing to lay from.
Scenario lone_queen() {
  Scenario s;
  s.path = "test";
  s.width = 64;
  s.height = 64;
  s.chunk_size = 16;
  ColonySpec c;
  c.nest_x = 32;
  c.nest_y = 32;
  c.food = 0;
  c.workers = 5;
  s.colonies.push_back(c);
  s.rules.upkeep = 0;
  s.rules.refound_food = 40;
  s.rules.refound_delay = 100;
  return s;
}

std::unique_ptr<Game> build(const Scenario& s, u64 seed = 1) {
  std::string err;
  auto g = make_game(s, seed, &err);
  EXPECT_TRUE(g) << err;
  return g;
}

void run(Game& g, u64 ticks) {
  for (u64 t = 0; t < ticks; ++t) simulate_tick(g);
}

// Kills every ant but the queens (the Stress panel's command).
void cull(Game& g) {
  queue_command(g, Command{.kind = CommandKind::KillPercent, .count = 100});
  simulate_tick(g);
}

void expect_valid(Game& g) {
  for (const auto& e : validate_game(g, 8)) ADD_FAILURE() << ecs::describe(e);
}

TEST(Refounding, AQueenLeftAloneFoundsHerColonyAgainAfterTheDelay) {
  auto g = build(lone_queen());
  Colony& c = g->colonies[0];
  cull(*g);
  ASSERT_EQ(c.alive, 1u);  // the queen
  EXPECT_EQ(c.fate, Fate::Collapsed);
  const u64 fell = g->tick;
  // Down, with no food: nothing happens until the delay is out.
  while (g->tick < fell + 98) simulate_tick(*g);
  EXPECT_EQ(c.refounds, 0u);
  EXPECT_EQ(c.alive, 1u);
  run(*g, 4);
  EXPECT_EQ(c.refounds, 1u);
  EXPECT_EQ(c.fate, Fate::Refounded);
  // She lays from the reserve: ten eggs of four food.
  run(*g, 200);
  EXPECT_EQ(c.alive, 11u);
  EXPECT_LT(c.food, 4.0);
  expect_valid(*g);
}

TEST(Refounding, AColonyWhoseQueenDiedGetsANewOneAtItsNest) {
  auto g = build(lone_queen());
  Colony& c = g->colonies[0];
  cull(*g);
  kill_ant(*g, *g->ecs->find(c.queen), DeathCause::Explosion);
  simulate_tick(*g);
  ASSERT_TRUE(c.queen.is_null());
  ASSERT_EQ(c.alive, 0u);
  run(*g, 101);
  ASSERT_FALSE(c.queen.is_null());
  EXPECT_EQ(c.refounds, 1u);
  const Record* q = g->ecs->find(c.queen);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->payload.kind, Kind::Queen);
  EXPECT_FLOAT_EQ(q->payload.x, c.nest_x);
  run(*g, 100);
  EXPECT_GT(c.alive, 1u);
  expect_valid(*g);
}

TEST(Refounding, NoReserveNoRefounding) {
  Scenario s = lone_queen();
  s.rules.refound_food = 0;
  auto g = build(s);
  cull(*g);
  run(*g, 1000);
  EXPECT_EQ(g->colonies[0].refounds, 0u);
  EXPECT_EQ(g->colonies[0].alive, 1u);
}

TEST(Refounding, AColonyWithAntsLeftIsNotDown) {
  auto g = build(lone_queen());
  run(*g, 500);
  EXPECT_EQ(g->colonies[0].refounds, 0u);
  EXPECT_EQ(g->colonies[0].down_since, 0u);
  EXPECT_EQ(g->colonies[0].fate, Fate::None);
}

// The refounding state is in the hash and the save: a world saved while its colony is
// down refounds at the same tick after loading, with the same hash all the way.
TEST(Refounding, ASavedColonyThatIsDownRefoundsOnTimeAfterLoading) {
  auto g = build(lone_queen());
  cull(*g);
  run(*g, 50);
  const u64 before = state_hash(*g);
  g->colonies[0].down_since += 1;
  EXPECT_NE(state_hash(*g), before);
  g->colonies[0].down_since -= 1;
  std::vector<std::uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
  auto loaded = load_game_from_bytes(bytes.data(), bytes.size(), "mem", &err);
  ASSERT_TRUE(loaded) << err;
  EXPECT_EQ(state_hash(*loaded), before);
  EXPECT_EQ(loaded->colonies[0].down_since, g->colonies[0].down_since);
  for (int t = 0; t < 200; ++t) {
    simulate_tick(*g);
    simulate_tick(*loaded);
    ASSERT_EQ(state_hash(*g), state_hash(*loaded)) << "tick " << g->tick;
  }
  EXPECT_EQ(loaded->colonies[0].refounds, 1u);
}

// [SECTION] Grass regrowth

// A map of burnt dirt cells, each between rock (no grass beside it), under a regrowth
// rate: the share regrown after `ticks` is 1 - (1 - 64 rate)^(ticks / 64), a sweep of the
// map every 64 ticks.
double regrown_share(float rate, u64 ticks, bool burnt) {
  Scenario s = lone_queen();
  s.width = s.height = 128;
  s.colonies[0].workers = 0;
  s.rules.lay_interval = 0;
  s.rules.refound_food = 0;
  s.rules.regrowth = rate;
  auto g = build(s);
  u32 cells = 0;
  for (u32 y = 0; y < g->height; ++y)
    for (u32 x = 0; x < g->width; ++x) {
      const u32 cell = cell_index(*g, int(x), int(y));
      if (std::abs(float(x) - 32) < 4 && std::abs(float(y) - 32) < 4) continue;  // the nest's yard
      const bool dirt = (x + y) % 2 == 0;
      set_terrain(*g, cell, dirt ? Terrain::Dirt : Terrain::Rock);
      g->scorch[cell] = dirt && burnt ? 90 : 0;
      cells += dirt;
    }
  run(*g, ticks);
  u32 grass = 0;
  for (u32 cell = 0; cell < g->terrain.size(); ++cell) {
    const u32 x = cell % g->width, y = cell / g->width;
    if (std::abs(float(x) - 32) < 4 && std::abs(float(y) - 32) < 4) continue;
    grass += g->terrain[cell] == Terrain::Grass;
  }
  return double(grass) / cells;
}

TEST(Regrowth, BurntLandTurnsToGrassAtTheScenariosRate) {
  const double expected = 1 - std::pow(1 - 64 * 0.0001, 6400 / 64.0);  // 0.47
  EXPECT_NEAR(regrown_share(0.0001f, 6400, true), expected, 0.03);
  const double slower = 1 - std::pow(1 - 64 * 0.00002, 6400 / 64.0);  // 0.12
  EXPECT_NEAR(regrown_share(0.00002f, 6400, true), slower, 0.02);
}

TEST(Regrowth, NothingRegrowsAtRateZeroNorOnDirtThatNeverBurnt) {
  EXPECT_EQ(regrown_share(0, 6400, true), 0.0);
  EXPECT_EQ(regrown_share(0.001f, 6400, false), 0.0);
}

TEST(Regrowth, GrassClosesInOverABurnFromItsEdges) {
  Scenario s = lone_queen();
  s.colonies[0].workers = 0;
  s.rules.regrowth = 0.0002f;
  s.rules.burn_ticks = 5;
  s.rules.fire_spread = 1;
  auto g = build(s);
  ignite(*g, 10, 50, 1);
  run(*g, 600);  // the whole map burns out to dirt
  u32 dirt = 0;
  for (Terrain t : g->terrain) dirt += t == Terrain::Dirt;
  ASSERT_GT(dirt, 3500u);
  run(*g, 60 * 60 * 5);  // five minutes
  u32 grass = 0;
  for (Terrain t : g->terrain) grass += t == Terrain::Grass;
  EXPECT_GT(grass, g->terrain.size() * 9 / 10);
  expect_valid(*g);
}

// [SECTION] Sparks

TEST(Sparks, AFightLeavesASparkAtTheContactForAFewTicks) {
  Scenario s = lone_queen();
  s.colonies[0].workers = 0;
  ColonySpec enemy;
  enemy.nest_x = 44;
  enemy.nest_y = 32;
  s.colonies.push_back(enemy);
  auto g = build(s);
  // Soldiers on their own ground, walking into each other until blows land.
  for (int i = 0; i < 10; ++i) {
    spawn_ant(*g, 0, Kind::Soldier, 36.0f, 25.5f + float(i), 0);
    spawn_ant(*g, 1, Kind::Soldier, 40.0f, 25.5f + float(i), 3.14159f);
  }
  u64 lit = 0;
  for (int t = 0; t < 120 && !lit; ++t) {
    simulate_tick(*g);
    lit = g->sparks.size();
  }
  ASSERT_GT(lit, 0u);
  const Spark sp = g->sparks.front();
  EXPECT_NE(sp.colony_a, sp.colony_b);
  // It lies halfway between two ants of its two colonies, within reach of each other (the
  // fight is the tick's last move: they stand where they fought).
  bool between_fighters = false;
  for (Record& a : g->ecs->simulated())
    for (Record& e : g->ecs->simulated()) {
      const Body &x = a.payload, &y = e.payload;
      if (!is_ant(x.kind) || !is_ant(y.kind)) continue;
      if (x.colony != sp.colony_a || y.colony != sp.colony_b) continue;
      const float mx = (x.x + y.x) * 0.5f, my = (x.y + y.y) * 0.5f;
      if (std::abs(mx - sp.x) < 1e-4f && std::abs(my - sp.y) < 1e-4f && std::hypot(x.x - y.x, x.y - y.y) < 1.5f)
        between_fighters = true;
    }
  EXPECT_TRUE(between_fighters) << "spark at " << sp.x << ", " << sp.y;
  // The spark goes out.
  for (int t = 0; t < 200; ++t) simulate_tick(*g);
  for (const Spark& k : g->sparks) EXPECT_GE(k.tick + kSparkTicks, g->tick - 1);
}

// [SECTION] Placed colonies

Command place_at(float x, float y) { return Command{.kind = CommandKind::PlaceColony, .x = x, .y = y}; }

TEST(PlacedColony, MakesANestAndAQueenThatLaysAnts) {
  Scenario s = lone_queen();
  s.rules.upkeep = 0.0005f;
  auto g = build(s);
  ASSERT_EQ(place_colony_problem(*g, 12.5f, 12.5f), "");
  ASSERT_TRUE(queue_command(*g, place_at(12.5f, 12.5f)));
  simulate_tick(*g);
  ASSERT_EQ(g->colonies.size(), 2u);
  const Colony& c = g->colonies[1];
  EXPECT_EQ(c.nest_x, 12.5f);
  EXPECT_EQ(c.nest_y, 12.5f);
  EXPECT_EQ(c.fate, Fate::Founded);
  EXPECT_NE(c.color, g->colonies[0].color);  // a colour no other colony wears
  ASSERT_FALSE(c.queen.is_null());
  const Record* q = g->ecs->find(c.queen);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->payload.kind, Kind::Queen);
  EXPECT_EQ(q->payload.colony, 1);
  EXPECT_EQ(g->fields.size(), 4u);
  // She lays from the store she brought, and her ants walk out with the rest.
  run(*g, 600);
  EXPECT_GT(c.born, 5u);
  EXPECT_GT(c.alive, 5u);
  expect_valid(*g);
}

TEST(PlacedColony, IsRefusedPastFourColoniesOffLandAndBesideANest) {
  Scenario s = lone_queen();
  s.shapes.push_back(TerrainShape{.terrain = Terrain::Water, .circle = false, .x = 0, .y = 56, .w = 64, .h = 8});
  auto g = build(s);
  EXPECT_NE(place_colony_problem(*g, 10.5f, 60.5f).find("water"), std::string::npos);
  EXPECT_NE(place_colony_problem(*g, 34.0f, 32.0f).find("cells from the others"), std::string::npos);
  EXPECT_NE(place_colony_problem(*g, -1.0f, 3.0f), "");
  // The refused ones queued anyway (as a file may) do nothing.
  queue_command(*g, place_at(10.5f, 60.5f));
  queue_command(*g, place_at(34.0f, 32.0f));
  simulate_tick(*g);
  EXPECT_EQ(g->colonies.size(), 1u);
  // Three more make four; the fifth is refused, in the same tick or later.
  for (float x : {8.5f, 20.5f, 50.5f, 44.5f}) queue_command(*g, place_at(x, 10.5f));
  simulate_tick(*g);
  ASSERT_EQ(g->colonies.size(), 4u);
  EXPECT_EQ(place_colony_problem(*g, 20.5f, 40.5f), "there are already 4 colonies, the most the game holds");
  queue_command(*g, place_at(20.5f, 40.5f));
  simulate_tick(*g);
  EXPECT_EQ(g->colonies.size(), 4u);
  EXPECT_EQ(g->fields.size(), 8u);
  expect_valid(*g);
}

}  // namespace
}  // namespace colony
