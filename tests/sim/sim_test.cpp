// sim_test.cpp — the colony simulation through the real engine: bombs, maiming, food,
// fire, corpses, dormant chunks, region moves, exhaustion and determinism.
//
// Table of contents
//   [SECTION] Helpers
//   [SECTION] Bodies
//   [SECTION] Explosions
//   [SECTION] Maiming
//   [SECTION] Directions
//   [SECTION] Food
//   [SECTION] Fire
//   [SECTION] Corpses and deaths
//   [SECTION] Tiers: dormant chunks and region moves
//   [SECTION] Exhaustion
//   [SECTION] Determinism
#include <gtest/gtest.h>

#include <cstdlib>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "body_plans.h"
#include "game.h"
#include "save.h"
#include "sim_internal.h"

namespace colony {
namespace {

// [SECTION] Helpers

// A small all-grass world with one colony (queen only) unless told otherwise.
Scenario small_world(u32 w = 64, u32 h = 64, u32 chunk = 16) {
  Scenario s;
  s.path = "test";
  s.width = w;
  s.height = h;
  s.chunk_size = chunk;
  ColonySpec c;
  c.nest_x = 4;
  c.nest_y = 4;
  c.food = 0;
  s.colonies.push_back(c);
  s.rules.lay_interval = 0;  // no births unless a test wants them
  s.rules.upkeep = 0;
  return s;
}

std::unique_ptr<Game> build(const Scenario& s, u64 seed = 1) {
  std::string err;
  auto g = make_game(s, seed, &err);
  EXPECT_TRUE(g) << err;
  return g;
}

// The food the first colony of a scenario (JSON text) has delivered after `ticks` ticks,
// the world validated at the end.
u64 delivered_after(const std::string& text, int ticks) {
  Scenario s;
  std::string err;
  EXPECT_TRUE(parse_scenario(text, "test.json", s, &err)) << err;
  auto g = make_game(s, s.seed, &err);
  EXPECT_NE(g, nullptr) << err;
  if (!g) return 0;
  for (int t = 0; t < ticks; ++t) simulate_tick(*g);
  EXPECT_TRUE(validate_game(*g, 1).empty());
  return g->colonies[0].delivered;
}

Record& rec(Game& g, Handle h) {
  Record* r = g.ecs->find(h);
  EXPECT_NE(r, nullptr);
  return *r;
}

template <class C>
u32 count_of(Game& g, Handle h) {
  return g.ecs->list<C>(rec(g, h)).added;
}
template <class C>
u32 reserved_of(Game& g, Handle h) {
  return g.ecs->list<C>(rec(g, h)).reserved;
}
template <class C>
u32 taken(Game& g) {
  return g.ecs->stats<C>().taken;
}

struct PieceId {
  Part part;
  u8 side;
  float x, y;
  bool operator==(const PieceId&) const = default;
};
std::vector<PieceId> pieces_of(Game& g, Handle h) {
  std::vector<PieceId> out;
  g.ecs->for_each_component<RenderPiece>(rec(g, h), [&](u32, const RenderPiece& p) {
    out.push_back({p.part, p.side(), p.offset_x(), p.offset_y()});
  });
  return out;
}

// Puts an ant somewhere else (and into the chunk there), as if it had walked.
void teleport(Game& g, Handle h, float x, float y) {
  rec(g, h).payload.x = x;
  rec(g, h).payload.y = y;
  rec(g, h).payload.cell = cell_index(g, u32(x), u32(y));
  ASSERT_EQ(g.ecs->move_chunk(h, g.ecs->grid().chunk_at(x, y)), ecs::Result::Ok);
}

void expect_valid(Game& g) {
  auto v = validate_game(g, 8);
  for (const auto& e : v) ADD_FAILURE() << ecs::describe(e);
}

// [SECTION] Bodies

// A piece keeps its offsets and sizes to 1/4096 of a cell and its rotation to a 65536th of
// a turn (components.h); the accessors give back what was set to within half a unit.
TEST(Bodies, APieceGivesBackItsPlacementToHalfAUnit) {
  const float cell = 0.5f / RenderPiece::kUnitsPerCell, angle = 0.5f * RenderPiece::kRadiansPerUnit;
  for (float v : {0.0f, 0.3f, -0.3f, 0.04f, -1.8f, 1.0f, 7.9f, -7.9f, 1e-4f}) {
    RenderPiece p;
    p.set_offset(v, -v);
    p.set_size(v, 0.5f * v);
    EXPECT_NEAR(p.offset_x(), v, cell) << v;
    EXPECT_NEAR(p.offset_y(), -v, cell) << v;
    EXPECT_NEAR(p.size_x(), v, cell) << v;
    EXPECT_NEAR(p.size_y(), 0.5f * v, cell) << v;
  }
  // A rotation comes back as the same angle in (-pi, pi]: 2.9 stays, 74 rad is 74 - 12 pi.
  const float pi = 3.14159265f;
  for (float r : {0.0f, 0.5f, -0.6f, 2.9f, -2.9f, pi / 2 + 0.6f, 74.0f, -20.0f}) {
    RenderPiece p;
    p.set_rotation(r);
    float back = p.rotation(), diff = std::remainder(back - r, 2 * pi);
    EXPECT_NEAR(diff, 0.0f, angle + 1e-5f * std::fabs(r)) << r << " came back as " << back;
    EXPECT_LE(std::fabs(back), pi + angle) << r;
  }
}

TEST(Bodies, APiecePastEightCellsStopsAtTheEdgeInsteadOfWrapping) {
  RenderPiece p;
  p.set_offset(100.0f, -100.0f);
  EXPECT_NEAR(p.offset_x(), 32767.0f / RenderPiece::kUnitsPerCell, 1e-6f);
  EXPECT_FLOAT_EQ(p.offset_y(), -8.0f);
  p.set_size(8.0f, 1e9f);
  EXPECT_GT(p.size_x(), 7.99f);
  EXPECT_GT(p.size_y(), 7.99f);
}

// Legs, antennae and mandibles read their side from the sign of their offset across the
// body (side()), so the plans' offsets must put each kind of limb in pairs: as many legs,
// antennae and mandibles on the left as on the right (maiming takes one from a side).
TEST(Bodies, EveryPlanHasEachKindOfLimbInLeftAndRightPairs) {
  for (Kind k : {Kind::Worker, Kind::Soldier, Kind::Queen, Kind::Corpse}) {
    u32 count[u32(Part::Count)][2] = {}, limbs = 0;
    for (const RenderPiece& p : body_plan(k).pieces) {
      if (!is_paired_limb(p.part)) continue;
      ++count[u32(p.part)][p.side()];
      ++limbs;
    }
    for (Part part : {Part::Leg, Part::Antenna, Part::Mandible})
      EXPECT_EQ(count[u32(part)][0], count[u32(part)][1]) << kind_name(k) << " " << u32(part) << ": left against right";
    EXPECT_GT(limbs, 0u) << kind_name(k);
  }
}

TEST(Bodies, CastesHaveTheirPiecesVolumesAndSensors) {
  auto g = build(small_world());
  Handle w = spawn_ant(*g, 0, Kind::Worker, 20, 20, 0);
  Handle s = spawn_ant(*g, 0, Kind::Soldier, 22, 20, 0);
  ASSERT_FALSE(w.is_null());
  ASSERT_FALSE(s.is_null());
  EXPECT_EQ(count_of<RenderPiece>(*g, w), 11u);
  EXPECT_EQ(reserved_of<RenderPiece>(*g, w), 12u);  // the carried-food slot
  EXPECT_EQ(count_of<CollisionVolume>(*g, w), 2u);
  EXPECT_EQ(count_of<Sensor>(*g, w), 3u);
  EXPECT_EQ(count_of<RenderPiece>(*g, s), 13u);
  EXPECT_EQ(count_of<CollisionVolume>(*g, s), 3u);
  EXPECT_EQ(count_of<Sensor>(*g, s), 2u);
  Handle q = g->colonies[0].queen;
  EXPECT_EQ(count_of<RenderPiece>(*g, q), 30u);
  EXPECT_EQ(count_of<CollisionVolume>(*g, q), 8u);
  EXPECT_EQ(count_of<Sensor>(*g, q), 0u);
  // Tiles: one piece each, dormant.
  EXPECT_EQ(count_of<RenderPiece>(*g, g->tiles[0]), 1u);
  EXPECT_EQ(rec(*g, g->tiles[0]).header.tier, u8(ecs::Tier::Dormant));
  std::vector<PieceId> p = pieces_of(*g, w);
  EXPECT_EQ(std::count_if(p.begin(), p.end(), [](const PieceId& x) { return x.part == Part::Leg; }), 6);
  EXPECT_EQ(std::count_if(p.begin(), p.end(), [](const PieceId& x) { return x.part == Part::Antenna; }), 2);
  expect_valid(*g);
}

// Building the world is not a tick: the per-tick counters (the debugger's Pools "tick"
// row) start at zero, and the first tick counts only its own work.
TEST(Bodies, BuildingTheWorldIsNotCountedAsATick) {
  auto g = build(small_world());
  EXPECT_GT(g->ecs->stats<RenderPiece>().total.reserves, 4096u);  // the tiles and the queen
  for (const ecs::PoolStats* p : g->ecs->all_stats()) {
    EXPECT_EQ(p->tick.reserves, 0u) << p->name;
    EXPECT_EQ(p->tick.adds, 0u) << p->name;
  }
  Handle w = spawn_ant(*g, 0, Kind::Worker, 20, 20, 0);
  ASSERT_FALSE(w.is_null());
  EXPECT_EQ(g->ecs->stats<RenderPiece>().tick.reserves, 12u);
}

// The HUD and the debugger name what an ant does; a queen lays in the nest whatever
// her state field holds.
TEST(Bodies, AQueenIsShownLayingAndAWorkerByItsState) {
  auto g = build(small_world());
  Handle w = spawn_ant(*g, 0, Kind::Worker, 20, 20, 0);
  EXPECT_STREQ(activity_name(rec(*g, g->colonies[0].queen).payload), "laying");
  EXPECT_STREQ(activity_name(rec(*g, w).payload), "searching");
  rec(*g, w).payload.state = AntState::Returning;
  EXPECT_STREQ(activity_name(rec(*g, w).payload), "returning");
}

// [SECTION] Explosions

TEST(Explosions, BombKillsExactlyTheAntsInTheRadiusAndReleasesTheirSlots) {
  Scenario s = small_world(96, 96, 16);
  s.region_w = 48;  // the right half is dormant: victims come from both tiers
  s.region_h = 96;
  auto g = build(s);
  const float bx = 48, by = 48, radius = 10;
  std::vector<Handle> inside, outside;
  u64 pieces = 0, volumes = 0, sensors = 0;
  // A ring of ants at known distances, both castes, both tiers.
  for (int i = 0; i < 72; ++i) {
    float a = float(i) * 0.35f, d = 1.0f + float(i % 24) * 0.8f;  // 1 .. 19.4 cells
    Kind caste = i % 3 ? Kind::Worker : Kind::Soldier;
    Handle h = spawn_ant(*g, 0, caste, bx + d * std::cos(a), by + d * std::sin(a), a);
    ASSERT_FALSE(h.is_null());
    const Body& b = rec(*g, h).payload;
    float dx = b.x - bx, dy = b.y - by;
    if (dx * dx + dy * dy <= radius * radius) {
      inside.push_back(h);
      pieces += reserved_of<RenderPiece>(*g, h);
      volumes += reserved_of<CollisionVolume>(*g, h);
      sensors += reserved_of<Sensor>(*g, h);
    } else {
      outside.push_back(h);
    }
  }
  ASSERT_GT(inside.size(), 20u);
  ASSERT_GT(outside.size(), 20u);
  bool dormant_victim = false;
  for (Handle h : inside) dormant_victim |= rec(*g, h).header.tier == u8(ecs::Tier::Dormant);
  ASSERT_TRUE(dormant_victim);
  u32 p0 = taken<RenderPiece>(*g), v0 = taken<CollisionVolume>(*g), s0 = taken<Sensor>(*g);
  u64 alive0 = g->colonies[0].alive;

  Blast blast = apply_bomb(*g, bx, by, radius, radius);  // no maiming ring
  EXPECT_EQ(blast.killed, inside.size());
  apply_deaths(*g);

  for (Handle h : inside) EXPECT_FALSE(g->ecs->alive(h));
  for (Handle h : outside) EXPECT_TRUE(g->ecs->alive(h));
  EXPECT_EQ(taken<RenderPiece>(*g), p0 - pieces);
  EXPECT_EQ(taken<CollisionVolume>(*g), v0 - volumes);
  EXPECT_EQ(taken<Sensor>(*g), s0 - sensors);
  EXPECT_EQ(g->colonies[0].alive, alive0 - inside.size());
  EXPECT_EQ(g->colonies[0].died.by_cause[size_t(DeathCause::Explosion)], inside.size());
  EXPECT_GT(g->scorch[cell_index(*g, 48, 48)], 0);
  EXPECT_TRUE(g->cell_flags[cell_index(*g, 48, 48)] & kCellDanger);
  expect_valid(*g);
}

TEST(Explosions, TheRingMaimsWithoutKilling) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 40, 32, 0);
  u32 pieces = count_of<RenderPiece>(*g, h);
  Blast blast = apply_bomb(*g, 32, 32, 5, 12);
  apply_deaths(*g);
  EXPECT_EQ(blast.killed, 0u);
  EXPECT_EQ(blast.maimed, 1u);
  ASSERT_TRUE(g->ecs->alive(h));
  EXPECT_EQ(rec(*g, h).payload.legs, 5);
  EXPECT_LT(count_of<RenderPiece>(*g, h), pieces);
  expect_valid(*g);
}

// [SECTION] Maiming

TEST(Maiming, RemovesExactlyOneLegAndKeepsTheOrder) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 20, 20, 0);
  // Another ant after it in the pool, so the removal has to rewire someone else's entry.
  Handle other = spawn_ant(*g, 0, Kind::Soldier, 24, 20, 0);
  std::vector<PieceId> before = pieces_of(*g, h), other_before = pieces_of(*g, other);
  u32 taken0 = taken<RenderPiece>(*g);
  float speed_before = rec(*g, h).payload.speed * rec(*g, h).payload.legs;

  ASSERT_TRUE(maim_ant(*g, rec(*g, h), false, 1));  // a right leg

  std::vector<PieceId> after = pieces_of(*g, h);
  ASSERT_EQ(after.size(), before.size() - 1);
  auto first_right_leg =
      std::find_if(before.begin(), before.end(), [](const PieceId& p) { return p.part == Part::Leg && p.side == 1; });
  std::vector<PieceId> expected = before;
  expected.erase(expected.begin() + (first_right_leg - before.begin()));
  EXPECT_EQ(after, expected);
  EXPECT_EQ(pieces_of(*g, other), other_before);
  EXPECT_EQ(rec(*g, h).payload.legs, 5);
  EXPECT_EQ(rec(*g, h).payload.speed * rec(*g, h).payload.legs, speed_before * 5 / 6);  // walks slower
  EXPECT_EQ(taken<RenderPiece>(*g), taken0 - 1);
  expect_valid(*g);
}

// A maimed ant walks a sixth less a tick for the leg it lost: two workers in the open, one
// of them maimed, step once; each moves its step along whatever heading it took.
TEST(Maiming, AMaimedAntWalksAFifthSixthsStep) {
  auto g = build(small_world());
  Handle whole = spawn_ant(*g, 0, Kind::Worker, 20, 40, 0), maimed = spawn_ant(*g, 0, Kind::Worker, 44, 40, 0);
  ASSERT_TRUE(maim_ant(*g, rec(*g, maimed), false, 1));
  auto where = [&](Handle a) { return std::pair{rec(*g, a).payload.x, rec(*g, a).payload.y}; };
  auto [wx, wy] = where(whole);
  auto [mx, my] = where(maimed);
  const float step = rec(*g, whole).payload.speed;
  ASSERT_EQ(rec(*g, maimed).payload.speed, step);
  simulate_tick(*g);
  const float walked = std::hypot(rec(*g, whole).payload.x - wx, rec(*g, whole).payload.y - wy);
  const float limped = std::hypot(rec(*g, maimed).payload.x - mx, rec(*g, maimed).payload.y - my);
  EXPECT_NEAR(walked, step, 1e-3f);
  EXPECT_NEAR(limped, step * 5 / 6, 1e-3f);
}

TEST(Maiming, AnAntennaTakesItsSensorWithIt) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 20, 20, 0);
  ASSERT_TRUE(maim_ant(*g, rec(*g, h), true, 0));
  EXPECT_EQ(rec(*g, h).payload.antennae, 1);
  EXPECT_EQ(count_of<Sensor>(*g, h), 2u);
  bool left_sensor = false;
  g->ecs->for_each_component<Sensor>(rec(*g, h), [&](u32, const Sensor& s) { left_sensor |= s.angle > 0; });
  EXPECT_FALSE(left_sensor);
  expect_valid(*g);
}

// Each of a worker's three sensors reads the trail in the cell under it, and the ant
// turns toward the strongest. The trail differs under each (0.2 left, 0.5 ahead, 0.9
// right), so a sensor that read another's cell, or a turn toward another, shows.
TEST(Sensing, EachSensorReadsItsOwnCellAndTheAntTurnsToTheStrongest) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 32.5f, 32.5f, 0.3f);
  // An ant decides on every other even tick, the even and the odd entity indices in turn
  // (ants.cpp): the ticks before its next one first.
  auto decides_now = [&] { return g->tick % 2 == 0 && ((g->tick / 2 + h.index) & 1) == 0; };
  while (!decides_now()) simulate_tick(*g);
  const Body before = rec(*g, h).payload;
  ASSERT_FALSE(before.carrying);
  std::vector<float>& trail = g->fields[0 * 2 + u32(Field::ToFood)];
  std::vector<std::pair<float, float>> set;  // (angle, strength) of each sensor
  g->ecs->for_each_component<Sensor>(rec(*g, h), [&](u32, const Sensor& sn) {
    const float strength = sn.angle > 0 ? 0.2f : sn.angle < 0 ? 0.9f : 0.5f;
    trail[cell_of(*g, position(before) + direction(before.heading + sn.angle) * sn.reach)] = strength;
    set.push_back({sn.angle, strength});
  });
  ASSERT_EQ(set.size(), 3u);
  simulate_tick(*g);
  u32 k = 0;
  g->ecs->for_each_component<Sensor>(rec(*g, h), [&](u32, const Sensor& sn) {
    EXPECT_EQ(sn.angle, set[k].first);
    EXPECT_EQ(sn.reading, set[k].second) << "sensor at angle " << sn.angle;
    ++k;
  });
  // Toward the right sensor (angle -0.6): 0.6 of its angle, give or take the wander.
  const float turned = wrap_angle(rec(*g, h).payload.heading - before.heading);
  EXPECT_LT(turned, -0.2f);
  EXPECT_GT(turned, -0.5f);
}

// [SECTION] Directions

// A direction from the table is within one step's rounding of the exact one (0.003
// radians, half of 2 pi / kTurnSteps) for headings across eight turns either way, the
// range turn_step promises; and a heading a whole turn on gives the same bits.
TEST(Directions, TheTableIsWithinHalfAStepOfTheExactDirection) {
  float worst = 0;
  for (int i = -200000; i <= 200000; ++i) {
    const float a = float(i) * (8.0f * kTwoPi / 200000.0f) * 0.999f;
    const glm::vec2 d = direction(a);
    worst = std::max({worst, std::fabs(d.x - std::cos(a)), std::fabs(d.y - std::sin(a))});
  }
  EXPECT_LT(worst, 0.0032f);
  EXPECT_GT(worst, 0.001f);  // it is a table, not the library's sine
  for (float a : {-3.0f, -0.5f, 0.0f, 0.25f, 1.5f, 3.1f}) {
    EXPECT_EQ(turn_step(a), turn_step(a + kTwoPi)) << a;
    EXPECT_EQ(turn_step(a), turn_step(a - kTwoPi)) << a;
  }
  // The quarter turns fall on table steps exactly.
  EXPECT_EQ(direction(0.0f), glm::vec2(1.0f, 0.0f));
  EXPECT_NEAR(direction(kPi / 2).x, 0.0f, 1e-7f);
  EXPECT_EQ(direction(kPi / 2).y, 1.0f);
  EXPECT_EQ(direction(-kPi / 2).y, -1.0f);
}

// The per-entity draws: the same (seed, tick, id, salt) gives the same number through
// the tick's key as through hash_float, and neighbouring ids, salts and ticks differ.
TEST(Directions, DrawsThroughTheTicksKeyMatchTheHash) {
  const u64 key = tick_key(42, 7);
  std::set<u32> seen;
  for (u32 id = 0; id < 1000; ++id)
    for (u32 salt = 1; salt < 4; ++salt) {
      EXPECT_EQ(draw_float(key, id, salt), hash_float(42, 7, id, salt));
      seen.insert(draw_u32(key, id, salt));
    }
  EXPECT_GT(seen.size(), 2990u);
  EXPECT_NE(hash_u32(42, 7, 5, 1), hash_u32(42, 8, 5, 1));
  EXPECT_NE(hash_u32(42, 7, 5, 1), hash_u32(43, 7, 5, 1));
}

// [SECTION] Food

// Water painted over a food source takes it: no food is left under the water, and with
// random food a new source grows on land instead (the drowned one does not keep its place
// in the count, unreachable, stopping any from growing).
TEST(Food, WaterPaintedOverFoodTakesItAndNewFoodGrowsElsewhere) {
  Scenario s = small_world();
  s.random_food.count = 1;
  auto g = build(s);
  simulate_tick(*g);
  ASSERT_EQ(g->food_sources, 1u);
  Handle source;
  float fx = 0, fy = 0;
  g->ecs->for_each_entity([&](Record& r) {
    if (r.payload.kind == Kind::Food) source = r.header.handle, fx = r.payload.x, fy = r.payload.y;
  });
  ASSERT_FALSE(source.is_null());
  Command water;
  water.kind = CommandKind::PaintTerrain, water.terrain = Terrain::Water, water.x = fx, water.y = fy, water.radius = 3;
  ASSERT_TRUE(queue_command(*g, water));
  simulate_tick(*g);
  EXPECT_FALSE(g->ecs->alive(source));
  for (u32 cell = 0; cell < g->food_at.size(); ++cell) {
    if (!g->food_at[cell].is_null()) {
      EXPECT_TRUE(passable(g->terrain[cell])) << "food left in water at cell " << cell;
    }
  }
  for (int t = 0; t < 60 && g->food_sources == 0; ++t) simulate_tick(*g);
  EXPECT_EQ(g->food_sources, 1u) << "no new source grew";
  expect_valid(*g);
}

// Water or rock painted over ants sweeps them to the nearest cell they can stand on, in
// either tier (left there, they would turn on the spot for ever: no step out of an
// impassable cell is allowed), and on they walk; with no land within reach they go
// home to their nest, the one cell the paint spares.
TEST(Paint, AntsUnderWaterOrRockAreSweptAshore) {
  Scenario s = small_world();
  s.region_w = 32, s.region_h = 64;  // the right half is dormant
  auto g = build(s);
  std::vector<Handle> ants;
  std::vector<std::pair<float, float>> spots;
  for (int k = 0; k < 6; ++k) {
    for (float cx : {20.0f, 48.0f}) {
      const float x = cx + float(k % 3) - 1.0f, y = 40.0f + float(k / 3);
      ants.push_back(spawn_ant(*g, 0, Kind::Worker, x, y, 0.5f * float(k)));
      spots.push_back({x, y});
      ASSERT_FALSE(ants.back().is_null());
    }
  }
  Command water;
  water.kind = CommandKind::PaintTerrain, water.terrain = Terrain::Water, water.x = 20, water.y = 40, water.radius = 4;
  Command rock = water;
  rock.terrain = Terrain::Rock, rock.x = 48;
  ASSERT_TRUE(queue_command(*g, water));
  ASSERT_TRUE(queue_command(*g, rock));
  simulate_tick(*g);
  for (size_t i = 0; i < ants.size(); ++i) {
    const Body& b = rec(*g, ants[i]).payload;
    EXPECT_TRUE(passable(g->terrain[b.cell])) << "ant " << i << " left in the paint";
    EXPECT_LT(std::hypot(b.x - spots[i].first, b.y - spots[i].second), 4.0f + 2.5f) << "ant " << i << " swept too far";
  }
  const float wx = rec(*g, ants[0]).payload.x, wy = rec(*g, ants[0]).payload.y;
  for (int t = 0; t < 60; ++t) simulate_tick(*g);
  EXPECT_NE(std::hypot(rec(*g, ants[0]).payload.x - wx, rec(*g, ants[0]).payload.y - wy), 0.0f)
      << "the swept ant does not walk";
  expect_valid(*g);

  // Rock over all of a 128 x 128 map: the nest's cell is the one left to stand on, 135
  // cells from the ants in the dormant far corner, which go home to it and so into the
  // simulated tier.
  Scenario big = small_world(128, 128);
  big.region_w = 32, big.region_h = 32;
  auto h = build(big);
  std::vector<Handle> far;
  for (int k = 0; k < 5; ++k) far.push_back(spawn_ant(*h, 0, Kind::Worker, 100.5f + float(k), 100.5f, 0));
  for (Handle a : far) ASSERT_EQ(ecs::Tier(rec(*h, a).header.tier), ecs::Tier::Dormant);
  Command all = rock;
  all.x = 64, all.y = 64, all.radius = 200;
  ASSERT_TRUE(queue_command(*h, all));
  simulate_tick(*h);
  const u32 nest = cell_index(*h, int(h->colonies[0].nest_x), int(h->colonies[0].nest_y));
  for (Handle a : far) {
    EXPECT_EQ(rec(*h, a).payload.cell, nest);
    EXPECT_EQ(ecs::Tier(rec(*h, a).header.tier), ecs::Tier::Simulated);
  }
  expect_valid(*h);
}

// A line of rock cells touching only at their corners is a wall: 200 workers on one side
// of a diagonal line across the map bring home no food from the other (slipping between
// two corners, they would bring home about 186 in 6,000 ticks); with the line left out they do.
TEST(Food, ADiagonalWallOfRockKeepsTheAntsOnTheirSide) {
  auto delivered = [](bool wall) {
    std::string shapes;
    for (int k = 0; wall && k < 64; ++k)
      shapes += std::string(k ? ", " : "") + "{ \"terrain\": \"rock\", \"rect\": [" + std::to_string(k) + ", " +
                std::to_string(k) + ", 1, 1] }";
    const std::string text = R"({ "seed": 5, "world": { "width": 64, "height": 64, "chunk_size": 16 },
      "terrain": { "base": "dirt", "shapes": [ )" +
                             shapes + R"( ] },
      "colonies": [ { "nest": [12, 50], "workers": 200, "soldiers": 0, "spread": 3, "food": 100 } ],
      "food": [ { "at": [50, 12], "crumbs": 31 }, { "at": [40, 20], "crumbs": 31 }, { "at": [55, 30], "crumbs": 31 } ],
      "random_food": { "count": 0, "crumbs": [1, 1] }, "rules": { "upkeep": 0, "lay_interval": 0 } })";
    return delivered_after(text, 3000);
  };
  EXPECT_GT(delivered(false), 0u) << "the food is within reach without the wall";
  EXPECT_EQ(delivered(true), 0u);
}

TEST(Food, PickUpAddsOnePieceAndDeliveryRemovesIt) {
  auto g = build(small_world());
  Handle food = spawn_food(*g, 30.5f, 30.5f, 5);
  ASSERT_FALSE(food.is_null());
  Handle ant = spawn_ant(*g, 0, Kind::Worker, 30.5f, 30.5f, 0);
  u32 pieces = count_of<RenderPiece>(*g, ant), taken0 = taken<RenderPiece>(*g);

  ASSERT_TRUE(take_food(*g, rec(*g, ant)));
  EXPECT_EQ(count_of<RenderPiece>(*g, ant), pieces + 1);
  EXPECT_EQ(carried_piece(*g->ecs, rec(*g, ant)), int(pieces));  // the carried piece is last
  EXPECT_EQ(count_of<RenderPiece>(*g, food), 4u);
  EXPECT_EQ(taken<RenderPiece>(*g), taken0 - 1);  // the crumb left; the ant used its reserved slot
  EXPECT_EQ(rec(*g, ant).payload.state, AntState::Returning);

  teleport(*g, ant, g->colonies[0].nest_x, g->colonies[0].nest_y);
  double food_before = g->colonies[0].food;
  ASSERT_TRUE(deliver_food(*g, rec(*g, ant)));
  EXPECT_EQ(count_of<RenderPiece>(*g, ant), pieces);
  EXPECT_EQ(carried_piece(*g->ecs, rec(*g, ant)), -1);
  EXPECT_GT(g->colonies[0].food, food_before);
  expect_valid(*g);

  // The next pick-up reserves a slot again.
  teleport(*g, ant, 30.5f, 30.5f);
  ASSERT_TRUE(take_food(*g, rec(*g, ant)));
  EXPECT_EQ(count_of<RenderPiece>(*g, ant), pieces + 1);
  expect_valid(*g);
}

TEST(Food, ASourceShrinksOneCrumbPerBiteAndDisappears) {
  auto g = build(small_world());
  Handle food = spawn_food(*g, 30.5f, 30.5f, 3);
  ASSERT_EQ(g->food_sources, 1u);
  for (u32 bite = 1; bite <= 3; ++bite) {
    Handle ant = spawn_ant(*g, 0, Kind::Worker, 30.2f, 30.7f, 0);
    ASSERT_TRUE(take_food(*g, rec(*g, ant)));
    if (bite < 3) {
      EXPECT_EQ(count_of<RenderPiece>(*g, food), 3 - bite);
      EXPECT_EQ(rec(*g, food).payload.amount, 3 - bite);
    }
  }
  EXPECT_EQ(g->food_sources, 0u);
  EXPECT_TRUE(g->food_at[cell_index(*g, 30, 30)].is_null());
  EXPECT_FALSE(g->cell_flags[cell_index(*g, 30, 30)] & kCellFood);
  apply_deaths(*g);
  EXPECT_FALSE(g->ecs->alive(food));
  Handle late = spawn_ant(*g, 0, Kind::Worker, 30.5f, 30.5f, 0);
  EXPECT_FALSE(take_food(*g, rec(*g, late)));
  expect_valid(*g);
}

TEST(Food, ForagersBringFoodHomeOverTime) {
  Scenario s = small_world(64, 64, 16);
  s.colonies[0].nest_x = 20;
  s.colonies[0].nest_y = 32;
  s.colonies[0].workers = 200;
  s.food.push_back({32, 32, 31});
  s.food.push_back({12, 20, 31});
  auto g = build(s);
  for (int t = 0; t < 1200; ++t) simulate_tick(*g);
  EXPECT_GT(g->colonies[0].delivered, 10u);
  expect_valid(*g);
}

// [SECTION] Fire

TEST(Fire, CrossesGrassAndStopsAtWater) {
  Scenario s = small_world(48, 24, 8);
  s.colonies[0].nest_x = 46;
  s.colonies[0].nest_y = 2;
  s.shapes.push_back({Terrain::Water, false, 20, 0, 2, 24, 0});
  s.rules.fire_spread = 1.0f;
  s.rules.burn_ticks = 3;
  s.rules.regrowth = 0;  // what burned stays dirt for the check below
  auto g = build(s);
  ignite(*g, 4, 12, 1);
  for (int t = 0; t < 200 && !g->burning.empty(); ++t) simulate_tick(*g);
  ASSERT_TRUE(g->burning.empty());
  for (u32 y = 0; y < 24; ++y)
    for (u32 x = 0; x < 48; ++x) {
      Terrain t = g->terrain[y * 48 + x];
      if (x < 20) EXPECT_EQ(t, Terrain::Dirt) << x << "," << y;  // burned out
      else if (x < 22) EXPECT_EQ(t, Terrain::Water) << x << "," << y;
      else EXPECT_EQ(t, Terrain::Grass) << x << "," << y;  // never reached
    }
  // The tile entities' pieces follow the terrain.
  EXPECT_EQ(g->ecs->component<RenderPiece>(rec(*g, g->tiles[12 * 48 + 4]), 0).sprite,
            tile_piece(u8(Terrain::Dirt), false).sprite);
  expect_valid(*g);
}

TEST(Fire, KillsTheAntsStandingInIt) {
  Scenario s = small_world(48, 24, 8);
  s.rules.fire_spread = 0;
  auto g = build(s);
  Handle in = spawn_ant(*g, 0, Kind::Worker, 30.5f, 12.5f, 0);
  Handle out = spawn_ant(*g, 0, Kind::Worker, 40.5f, 12.5f, 0);
  rec(*g, in).payload.speed = 0;
  rec(*g, out).payload.speed = 0;
  ignite(*g, 30.5f, 12.5f, 2);
  simulate_tick(*g);
  EXPECT_FALSE(g->ecs->alive(in));
  EXPECT_TRUE(g->ecs->alive(out));
  EXPECT_EQ(g->colonies[0].died.by_cause[size_t(DeathCause::Fire)], 1u);
  expect_valid(*g);
}

// burn_ticks 1: the cell burns through one fire pass and kills what stands in it (it had
// lit and burned out in the same pass, before its victims were looked up: a whole-map
// fire killed nobody).
TEST(Fire, ACellThatBurnsOneTickKillsTheAntsInIt) {
  Scenario s = small_world(48, 24, 8);
  s.rules.fire_spread = 0;
  s.rules.burn_ticks = 1;
  auto g = build(s);
  Handle in = spawn_ant(*g, 0, Kind::Worker, 30.5f, 12.5f, 0);
  Handle out = spawn_ant(*g, 0, Kind::Worker, 40.5f, 12.5f, 0);
  rec(*g, in).payload.speed = 0;
  rec(*g, out).payload.speed = 0;
  const u32 cell = u32(12 * 48 + 30);
  ignite(*g, 30.5f, 12.5f, 0.5f);
  ASSERT_EQ(g->fire[cell], 1);
  simulate_tick(*g);
  EXPECT_FALSE(g->ecs->alive(in));
  EXPECT_TRUE(g->ecs->alive(out));
  EXPECT_EQ(g->colonies[0].died.by_cause[size_t(DeathCause::Fire)], 1u);
  // One tick of burning: out, and dirt.
  EXPECT_EQ(g->fire[cell], 0);
  EXPECT_TRUE(g->burning.empty());
  EXPECT_EQ(g->terrain[cell], Terrain::Dirt);
  expect_valid(*g);
}

// A cell lit with burn_ticks N kills in each of its N ticks, the last included: an ant
// that walks in on the last tick dies.
TEST(Fire, TheLastTickOfAFireKillsToo) {
  Scenario s = small_world(48, 24, 8);
  s.rules.fire_spread = 0;
  s.rules.burn_ticks = 3;
  auto g = build(s);
  const u32 cell = u32(12 * 48 + 30);
  ignite(*g, 30.5f, 12.5f, 0.5f);
  simulate_tick(*g), simulate_tick(*g);
  ASSERT_EQ(g->fire[cell], 1);
  Handle late = spawn_ant(*g, 0, Kind::Worker, 30.5f, 12.5f, 0);
  rec(*g, late).payload.speed = 0;
  simulate_tick(*g);
  EXPECT_FALSE(g->ecs->alive(late));
  EXPECT_EQ(g->terrain[cell], Terrain::Dirt);
  expect_valid(*g);
}

// [SECTION] Births

// A queen lays beside her, or under her when that spot is water or rock: with the nest one
// dirt cell in a ring of water, every ant she lays stands on land, not in the water.
TEST(Births, AQueenLaysOnLandOnly) {
  Scenario s = small_world();
  s.colonies[0].nest_x = 30.5f, s.colonies[0].nest_y = 30.5f;
  s.colonies[0].food = 1e6;
  s.rules.lay_interval = 2;
  auto g = build(s);
  for (u32 y = 29; y <= 31; ++y)
    for (u32 x = 29; x <= 31; ++x)
      if (x != 30 || y != 30) set_terrain(*g, cell_index(*g, x, y), Terrain::Water);
  for (int t = 0; t < 200; ++t) simulate_tick(*g);
  EXPECT_GT(g->colonies[0].born, 50u);
  u32 ants = 0;
  g->ecs->for_each_simulated([&](Record& r) {
    if (!is_ant(r.payload.kind)) return;
    ++ants;
    EXPECT_TRUE(passable(g->terrain[cell_index(*g, u32(r.payload.x), u32(r.payload.y))]))
        << r.payload.x << "," << r.payload.y;
  });
  EXPECT_GT(ants, 50u);
}

// [SECTION] Recent explosions

// The renderer's list of recent explosions stays bounded and keeps the newest: a tick of
// 1,500 bombs leaves at most kMaxBlasts, the last one among them, and five seconds later
// none. (Unbounded, it would grow by a blast a tick more than it sheds, and a save holding
// more than 4,096 could not be loaded.)
TEST(Blasts, ATickOfManyBombsKeepsTheNewestWithinTheBound) {
  auto g = build(small_world());
  for (u32 k = 0; k < 1500; ++k) {
    Command c;
    c.kind = CommandKind::Bomb;
    c.x = float(k % 64), c.y = float(k / 64 % 64), c.radius = 2;
    queue_command(*g, c);
  }
  simulate_tick(*g);
  ASSERT_FALSE(g->blasts.empty());
  EXPECT_LE(g->blasts.size(), kMaxBlasts);
  EXPECT_EQ(g->blasts.back().x, float(1499 % 64));
  EXPECT_EQ(g->blasts.back().y, float(1499 / 64 % 64));
  std::vector<std::uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
  EXPECT_NE(load_game_from_bytes(bytes.data(), bytes.size(), "blasts", &err), nullptr) << err;
  for (u64 t = 0; t <= kBlastTicks; ++t) simulate_tick(*g);
  EXPECT_TRUE(g->blasts.empty());
}

// [SECTION] Spawning and starting food

// A group the pools cannot hold is refused together: the first ant that finds no room
// ends the group, the rest are counted refused without being tried (ten million tries a
// tick would stall a scenario). One refusal reaches the engine, not one per try.
TEST(Spawning, AGroupThePoolsCannotHoldIsRefusedTogether) {
  Scenario s = small_world();
  s.capacity.max_ants = 100;
  auto g = build(s);
  const u64 born = g->colonies[0].born, refused = g->spawn_refused;
  auto engine_refusals = [&] {
    u64 n = g->ecs->failed_creates();
    for (const ecs::PoolStats* st : g->ecs->all_stats()) n += st->total.failed_reservations;
    return n;
  };
  const u64 before = engine_refusals();
  Command c;
  c.kind = CommandKind::SpawnAnts;
  c.count = 1'000'000;
  c.x = 30;
  c.y = 30;
  queue_command(*g, c);
  simulate_tick(*g);
  const u64 new_born = g->colonies[0].born - born, new_refused = g->spawn_refused - refused;
  EXPECT_GT(new_born, 0u);
  EXPECT_EQ(new_born + new_refused, 1'000'000u);
  EXPECT_EQ(engine_refusals() - before, 1u);
  expect_valid(*g);
}

// Starting food must find land once the terrain's noise is drawn, and no entry may fall on
// another's cells; a spawn event on one cell must not land in water. Each is one line
// naming the entry (not dropped without a word, nor the ants born in water).
TEST(Spawning, StartingFoodAndSpawnsOffLandAreRefusedByName) {
  auto refused = [](const Scenario& s) {
    std::string err;
    EXPECT_FALSE(make_game(s, 1, &err));
    return err;
  };
  Scenario s = small_world();
  s.shapes.push_back({Terrain::Rock, false, 20, 20, 5, 5, 0});
  s.food.push_back({22, 22, 10});
  EXPECT_EQ(refused(s), "test: food[0].at: the food is in rock");
  s.food = {{40, 40, 10}, {41, 40, 10}};
  EXPECT_EQ(refused(s),
            "test: food[1].at: the cell already holds an earlier entry's food (food covers the 3x3 cells around it)");
  s.food.clear();
  s.base = Terrain::Water;  // noise keeps a yard of dirt around the nest, water elsewhere
  s.noise.enabled = true;
  s.noise.water = s.noise.dirt = s.noise.rock = 0;
  EventSpec e;
  e.kind = EventKind::Spawn;
  e.x = 60, e.y = 5, e.count = 50;
  s.events.push_back(e);
  EXPECT_EQ(refused(s), "test: events[0].at: the ants would appear in water");
  s.events[0].x = 6, s.events[0].y = 6;  // in the nest's yard
  std::string err;
  EXPECT_TRUE(make_game(s, 1, &err)) << err;
}

// A world is measured at its capacities, not its start: the pools' pages are taken as
// they fill. Declared 200-million-entry pools with a small start are refused by the size
// they come to; the derived capacities of a small world pass.
TEST(Spawning, AWorldIsMeasuredByWhatItsPoolsHoldFull) {
  Scenario s = small_world();
  EXPECT_GT(world_bytes_at_capacity(s), world_bytes_at_start(s));
  EXPECT_EQ(memory_problem(s), "");
  s.capacity.entities = 200'000'000;
  s.capacity.pools = PerPool<u32>::filled(200'000'000);
  EXPECT_LT(world_bytes_at_start(s), u64(2e9));
  EXPECT_GT(world_bytes_at_capacity(s), u64(50e9));
  // The budget of a machine of 24 GB, whatever this one has.
  ::setenv("COLONY_MEMORY_BUDGET_MB", "19000", 1);
  std::string err;
  EXPECT_EQ(make_game(s, 1, &err), nullptr);
  ::unsetenv("COLONY_MEMORY_BUDGET_MB");
  EXPECT_NE(err.find(": capacity: this world takes about "), std::string::npos) << err;
  EXPECT_NE(err.find(" GB with its pools full ("), std::string::npos) << err;
  // The refusal names the key that made the world too large: the declared capacity above,
  // the population the capacities are derived from here.
  s.capacity = Capacity{};
  s.rules.max_population = 100'000'000;
  ::setenv("COLONY_MEMORY_BUDGET_MB", "19000", 1);
  EXPECT_EQ(make_game(s, 1, &err), nullptr);
  ::unsetenv("COLONY_MEMORY_BUDGET_MB");
  EXPECT_NE(err.find(": rules.max_population: this world takes about "), std::string::npos) << err;
}

// [SECTION] Corpses and deaths

TEST(Deaths, OldAgeLeavesACorpseThatWorkersCarryHome) {
  auto g = build(small_world());
  Handle old = spawn_ant(*g, 0, Kind::Worker, 30.5f, 30.5f, 0);
  Body& b = rec(*g, old).payload;
  b.speed = 0;
  b.age = b.lifespan - 1;
  simulate_tick(*g);
  EXPECT_FALSE(g->ecs->alive(old));
  EXPECT_EQ(g->colonies[0].died.by_cause[size_t(DeathCause::Age)], 1u);
  Handle corpse = g->food_at[cell_index(*g, 30, 30)];
  ASSERT_FALSE(corpse.is_null());
  EXPECT_EQ(rec(*g, corpse).payload.kind, Kind::Corpse);
  EXPECT_EQ(count_of<RenderPiece>(*g, corpse), 5u);  // fewer pieces than the ant
  Handle carrier = spawn_ant(*g, 0, Kind::Worker, 30.5f, 30.5f, 0);
  ASSERT_TRUE(take_food(*g, rec(*g, carrier)));
  apply_deaths(*g);
  EXPECT_FALSE(g->ecs->alive(corpse));
  expect_valid(*g);
}

// small_world() with a second colony in the far corner.
Scenario two_colonies() {
  Scenario s = small_world();
  ColonySpec c2;
  c2.nest_x = 60;
  c2.nest_y = 60;
  s.colonies.push_back(c2);
  return s;
}

// Two columns of soldiers walking into each other, the second column of colony
// `second`: returns the combat deaths and how many of them lost health. Soldiers strike
// on their own ground: the nests stand either side of the meeting.
struct Clash {
  u64 combat_deaths = 0;
  u32 hurt = 0, alive = 0;
};
Clash clash(u8 second) {
  Scenario s = two_colonies();
  s.colonies[0].nest_x = 20, s.colonies[0].nest_y = 30;
  s.colonies[1].nest_x = 44, s.colonies[1].nest_y = 30;
  s.rules.strike_chance = 1;
  auto g = build(s);
  std::vector<Handle> ants;
  for (int i = 0; i < 40; ++i) {
    ants.push_back(spawn_ant(*g, 0, Kind::Soldier, 28.0f, 10.5f + float(i), 0));
    ants.push_back(spawn_ant(*g, second, Kind::Soldier, 36.0f, 10.5f + float(i), 3.14159f));
  }
  const u16 full = rec(*g, ants[0]).payload.health;
  for (int t = 0; t < 200; ++t) simulate_tick(*g);
  Clash c;
  for (const Colony& col : g->colonies) c.combat_deaths += col.died.by_cause[size_t(DeathCause::Combat)];
  for (Handle h : ants) {
    const Record* r = g->ecs->find(h);
    c.alive += r != nullptr;
    c.hurt += r && r->payload.health < full;
  }
  expect_valid(*g);
  return c;
}

// Enemies that touch fight: some die, survivors are hurt. The control is the same
// contact between ants of one colony: nobody is hurt and nobody dies.
TEST(Deaths, EnemiesThatTouchFightAndFriendsDoNot) {
  Clash enemies = clash(1), friends = clash(0);
  EXPECT_GT(enemies.combat_deaths, 0u);
  EXPECT_GT(enemies.hurt + enemies.combat_deaths, 10u);
  EXPECT_EQ(friends.combat_deaths, 0u);
  EXPECT_EQ(friends.hurt, 0u);
  EXPECT_EQ(friends.alive, 80u);
}

// A cell's combat entry carries the stamp of the tick that wrote it, and the stamps come
// round again after 2^32 - 1 ticks: every cell is then cleared, so an entry written a
// round earlier (here at tick 0, naming an enemy within reach) starts no fight. Without
// the clearing it would; one tick earlier, the same entry with that tick's stamp does.
TEST(Deaths, ACombatEntryFromAnEarlierRoundOfStampsStartsNoFight) {
  for (u64 tick : {u64(0xFFFFFFFEull), u64(0xFFFFFFFFull)}) {
    SCOPED_TRACE(tick);
    auto g = build(two_colonies());
    // The enemy first: the lowest index standing in a cell holds it, so this tick's
    // entry naming the enemy keeps it against the ant's claim.
    Handle enemy = spawn_ant(*g, 1, Kind::Soldier, 31.1f, 30.5f, 0);  // the next cell, within reach
    Handle ant = spawn_ant(*g, 0, Kind::Soldier, 30.5f, 30.5f, 0);
    ASSERT_LT(enemy.index, ant.index);
    g->tick = tick;
    for (Handle h : {ant, enemy}) {
      Body& b = rec(*g, h).payload;
      b.speed = 0;
      b.last_tick = u32(tick);
    }
    // The entry in the ant's cell names the enemy, stamped with tick 0's stamp, or with
    // the stamp of the tick about to run when that is the tick before the round ends.
    const u64 stamp = tick == 0xFFFFFFFEull ? 0xFFFFFFFFull : 1;
    g->occupancy[cell_index(*g, 30, 30)] = stamp << 32 | u64(1) << 30 | enemy.index;
    simulate_tick(*g);
    // A meeting shows the ant fighting, whether or not a blow landed.
    const AntState state = rec(*g, ant).payload.state;
    if (tick == 0xFFFFFFFEull) EXPECT_EQ(state, AntState::Fighting);  // this tick's entry: a fight
    else EXPECT_NE(state, AntState::Fighting);                        // last round's: none
  }
}

// A bomb's ring takes a leg, and an antenna only while the ant has one: an ant without
// antennae lost a second leg in its place.
TEST(Deaths, TheMaimRingTakesNoSecondLegForAMissingAntenna) {
  auto g = build(small_world());
  std::vector<Handle> ants;
  for (int i = 0; i < 40; ++i) {
    Handle h = spawn_ant(*g, 0, Kind::Worker, 30.5f + 4.0f * std::cos(float(i)), 30.5f + 4.0f * std::sin(float(i)), 0);
    ASSERT_TRUE(maim_ant(*g, rec(*g, h), true, 2));
    ASSERT_TRUE(maim_ant(*g, rec(*g, h), true, 2));
    ASSERT_EQ(rec(*g, h).payload.antennae, 0);
    ants.push_back(h);
  }
  apply_bomb(*g, 30.5f, 30.5f, 2.0f, 6.0f);  // every ant in the ring, none in the kill radius
  for (Handle h : ants) {
    ASSERT_TRUE(g->ecs->alive(h));
    EXPECT_EQ(rec(*g, h).payload.legs, 5);
    EXPECT_EQ(count_of<RenderPiece>(*g, h), 11u - 2 - 1);
  }
  expect_valid(*g);
}

// Danger just ahead turns an ant back, and it shows "fleeing" until its next step (not
// reset in the same step that sets it, where no one would ever see it).
TEST(Deaths, AnAntTurningFromDangerIsShownFleeing) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 30.5f, 30.5f, 0);  // heading east
  // A band of danger east of it, as wide as the ant's random turn may carry its feeling.
  for (int y = 29; y <= 31; ++y)
    for (int x = 31; x < 36; ++x) g->cell_flags[cell_index(*g, u32(x), u32(y))] |= kCellDanger;
  // An ant feels for danger when it decides, within its first four ticks.
  int ticks = 0;
  while (ticks < 4 && rec(*g, h).payload.state != AntState::Fleeing) simulate_tick(*g), ++ticks;
  EXPECT_EQ(rec(*g, h).payload.state, AntState::Fleeing);
  EXPECT_LT(std::cos(rec(*g, h).payload.heading), 0.5f) << "it turns away from the danger east of it";
}

// [SECTION] Tiers: dormant chunks and region moves

// A colony out of view forages at every dormant period the rules allow: its workers find
// food along their whole walk and carriers go all the way home, so over 6,000 ticks it
// delivers about as much at a period of 64 or 256 as at 8 (found only where a walk ends,
// a period of 64 would deliver an eleventh as much, and the colony starve).
TEST(Dormant, AColonyOutOfViewForagesAtLongPeriods) {
  auto delivered = [](u32 period) {
    const std::string text = R"({ "seed": 3, "world": { "width": 128, "height": 128, "chunk_size": 16 },
      "terrain": { "base": "grass" },
      "colonies": [ { "nest": [64, 64], "workers": 100, "soldiers": 0, "food": 50 } ],
      "food": [ { "at": [80, 64], "crumbs": 31 }, { "at": [48, 64], "crumbs": 31 }, { "at": [64, 80], "crumbs": 31 } ],
      "random_food": { "count": 0, "crumbs": [1, 1] },
      "rules": { "worker_lifespan": 100000000, "dormant_period": )" +
                             std::to_string(period) + R"( },
      "region": { "x": 0, "y": 0, "w": 1, "h": 1 } })";
    return delivered_after(text, 6000);
  };
  const u64 at8 = delivered(8);
  ASSERT_GT(at8, 100u);
  EXPECT_GT(delivered(64), at8 * 6 / 10);
  EXPECT_GT(delivered(256), at8 / 2);
}

// An ant ages by every tick it lives, whichever tier it spends them in: one whose chunk
// joins the region catches up the ticks since its last dormant step (lost, they would
// let it live longer the more often the camera passed).
TEST(Tiers, AnAntAgesByEveryTickAcrossRegionMoves) {
  Scenario s = small_world(128, 128, 16);
  s.rules.dormant_period = 8;
  s.rules.worker_lifespan = 100000;
  auto g = build(s);
  std::vector<Handle> ants;
  for (int i = 0; i < 50; ++i)
    ants.push_back(spawn_ant(*g, 0, Kind::Worker, 20.0f + float(i % 10) * 8, 20.0f + float(i / 10) * 16, float(i)));
  std::vector<u32> born;
  for (Handle h : ants) born.push_back(rec(*g, h).payload.age);
  const u64 start = g->tick;
  for (int t = 0; t < 400; ++t) {
    if (t % 37 == 0) set_sim_region(*g, t % 74 == 0 ? 0.0f : 64.0f, 0, 64, 128);
    simulate_tick(*g);
  }
  u32 checked = 0;
  for (size_t i = 0; i < ants.size(); ++i) {
    if (!g->ecs->alive(ants[i])) continue;
    ++checked;
    const Body& b = rec(*g, ants[i]).payload;
    // Up to a dormant period behind: a dormant ant's ticks are counted at its next step.
    EXPECT_LE(b.age - born[i], u32(g->tick - start));
    EXPECT_GE(b.age - born[i] + s.rules.dormant_period, u32(g->tick - start));
  }
  EXPECT_GT(checked, 40u);  // the ants live: the check above ran on most of them
}

// A region given a position but no size spans the whole map that way, as the scenario
// documentation says (not from the position on, leaving everything before it dormant).
TEST(Tiers, ARegionWithoutASizeIsTheWholeMap) {
  Scenario s = small_world(128, 128, 16);
  s.region_x = 100, s.region_y = 100;
  auto g = build(s);
  EXPECT_EQ(std::count(g->chunk_simulated.begin(), g->chunk_simulated.end(), 1),
            std::ptrdiff_t(g->chunk_simulated.size()));
  s.region_w = 20;  // a width: the region starts at x
  g = build(s);
  EXPECT_EQ(g->chunk_simulated[0], 0);
}

// Out of sight, a dormant ant's walk is checked every half cell: a wall of water one cell
// thick around the nest holds it in (a walk checked at its end only would jump such walls,
// carrying food out of a closed nest).
TEST(Tiers, DormantAntsDoNotCrossAThinWall) {
  Scenario s = small_world(128, 128, 16);
  s.region_x = 120, s.region_y = 120, s.region_w = 1, s.region_h = 1;  // all but the far corner dormant
  s.rules.dormant_period = 64;
  s.rules.worker_speed = 0.5f;
  s.colonies[0].nest_x = 40, s.colonies[0].nest_y = 40;
  auto g = build(s);
  for (u32 y = 30; y <= 50; ++y)
    for (u32 x = 30; x <= 50; ++x)
      if (x == 30 || x == 50 || y == 30 || y == 50) set_terrain(*g, cell_index(*g, x, y), Terrain::Water);
  std::vector<Handle> ants;
  for (int i = 0; i < 60; ++i)
    ants.push_back(spawn_ant(*g, 0, Kind::Worker, 35.0f + float(i % 10), 35.0f + float(i / 10), float(i)));
  for (int t = 0; t < 2000; ++t) simulate_tick(*g);
  int inside = 0;
  for (Handle h : ants) {
    if (!g->ecs->alive(h)) continue;
    const Body& b = rec(*g, h).payload;
    EXPECT_EQ(rec(*g, h).header.tier, u8(ecs::Tier::Dormant));
    EXPECT_TRUE(b.x > 31 && b.x < 50 && b.y > 31 && b.y < 50) << b.x << "," << b.y;
    ++inside;
  }
  EXPECT_GT(inside, 30);
}

TEST(Tiers, DormantAntsStillMoveAgeAndCrossChunks) {
  Scenario s = small_world(128, 128, 16);
  s.region_w = 1;  // only chunk 0 is simulated
  s.region_h = 1;
  s.rules.dormant_period = 4;
  auto g = build(s);
  std::vector<Handle> ants;
  for (int i = 0; i < 200; ++i)
    ants.push_back(spawn_ant(*g, 0, Kind::Worker, 40.0f + float(i % 20) * 3, 40.0f + float(i / 20) * 5, float(i)));
  std::vector<std::pair<float, float>> start;
  for (Handle h : ants) start.push_back({rec(*g, h).payload.x, rec(*g, h).payload.y});
  std::vector<u32> chunk0;
  for (Handle h : ants) chunk0.push_back(rec(*g, h).header.chunk);
  for (int t = 0; t < 400; ++t) simulate_tick(*g);
  int moved = 0, crossed = 0;
  for (size_t i = 0; i < ants.size(); ++i) {
    if (!g->ecs->alive(ants[i])) continue;
    const Record& r = rec(*g, ants[i]);
    EXPECT_EQ(r.header.tier, u8(r.header.chunk == 0 ? ecs::Tier::Simulated : ecs::Tier::Dormant));
    EXPECT_GT(r.payload.age, 350u);
    moved += r.payload.x != start[i].first;
    crossed += r.header.chunk != chunk0[i];
  }
  EXPECT_GT(moved, 150);
  EXPECT_GT(crossed, 10);
  expect_valid(*g);
}

TEST(Tiers, MovingTheRegionBackAndForthKeepsTheValidatorClean) {
  Scenario s = small_world(256, 256, 32);
  s.colonies[0].nest_x = 128;
  s.colonies[0].nest_y = 128;
  s.colonies[0].workers = 3000;
  s.colonies[0].soldiers = 300;
  s.colonies[0].spread = 120;
  s.random_food.count = 30;
  s.region_w = 64;
  s.region_h = 64;
  auto g = build(s);
  expect_valid(*g);
  u32 min_sim = ~0u, max_sim = 0;
  for (int t = 0; t < 240; ++t) {
    // Sweep right and back, then down and back, with jumps in between.
    int phase = t / 20;
    float x = float((phase % 2 ? 8 - phase % 8 : phase % 8) * 24), y = float((phase / 3 % 4) * 48);
    if (t % 20 == 0) set_sim_region(*g, x, y, 64, 64);
    simulate_tick(*g);
    min_sim = std::min(min_sim, g->ecs->simulated_count());
    max_sim = std::max(max_sim, g->ecs->simulated_count());
    auto v = validate_game(*g, 4);
    ASSERT_TRUE(v.empty()) << "tick " << t << ": " << ecs::describe(v.front());
  }
  EXPECT_LT(min_sim, max_sim);  // ants really changed tier
  // The whole map, then nothing.
  set_sim_region(*g, 0, 0, 256, 256);
  simulate_tick(*g);
  EXPECT_EQ(g->ecs->simulated_count(), ants_alive(*g));
  set_sim_region(*g, 0, 0, 0, 0);
  simulate_tick(*g);
  EXPECT_EQ(g->ecs->simulated_count(), 0u);
  expect_valid(*g);
}

// The entity store keeps a block for every list beside the blocks its entities fill, so it
// refuses no move even with every entity index taken: ants crossing chunks and tiers in a
// world whose entity capacity is exactly what it starts with.
TEST(Tiers, AFullStoreRefusesNoMove) {
  Scenario s = small_world(128, 128, 16);
  s.colonies[0].nest_x = 64, s.colonies[0].nest_y = 64;
  s.colonies[0].workers = 2000;
  s.colonies[0].spread = 60;
  s.capacity.entities = 128 * 128 + 2001;
  s.region_w = 48, s.region_h = 48;
  s.rules.dormant_period = 2;
  auto g = build(s);
  ASSERT_EQ(g->ecs->live_count(), g->ecs->store().max_entities());
  for (int t = 0; t < 300; ++t) {
    if (t % 10 == 0) set_sim_region(*g, float(t % 40) * 2, float(t % 30) * 2, 48, 48);
    simulate_tick(*g);
  }
  EXPECT_GT(g->moves, 2000u);
  EXPECT_EQ(g->refused_moves, 0u);
  expect_valid(*g);
}

// A move the store refuses is undone and counted: the ant goes back to where it stood
// before its step, in the chunk it left, so its position, cell, chunk and tier agree. The
// store refuses no move the game asks for (above); one to a chunk past the grid is refused
// the same way, and the tick is handed one with the stand it would have noted.
TEST(Tiers, AMoveTheStoreRefusesIsUndoneAndCounted) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 40.5f, 40.5f, 0);
  ASSERT_NE(rec(*g, h).header.chunk, 0u);
  g->scratch_moves.push_back({h, g->ecs->grid().chunk_count(), ecs::Tier::Simulated});
  g->scratch_stands.push_back({5.5f, 6.5f, cell_index(*g, 5, 6), 0});
  simulate_tick(*g);
  EXPECT_EQ(g->refused_moves, 1u);
  const Record& r = rec(*g, h);
  EXPECT_EQ(r.payload.x, 5.5f);
  EXPECT_EQ(r.payload.y, 6.5f);
  EXPECT_EQ(r.header.chunk, 0u);
  expect_valid(*g);
}

// A dying ant is not moved: one killed in a fight on the step that took it into another
// chunk stays in the chunk it left, and is released from there at the tick's end (it had
// been moved in its last tick, for nothing). The enemy stands still on the far side of the
// chunk border and walks first (it was spawned first), so the ant meets it there.
TEST(Tiers, AnAntKilledOnItsStepIntoAnotherChunkIsNotMoved) {
  // Both stand on their own ground, and every blow lands.
  Scenario s = two_colonies();
  s.colonies[0].nest_x = 10, s.colonies[0].nest_y = 8;
  s.colonies[1].nest_x = 22, s.colonies[1].nest_y = 8;
  s.rules.strike_chance = 1;
  auto g = build(s);
  Handle enemy = spawn_ant(*g, 1, Kind::Worker, 16.5f, 8.5f, 0);
  Handle ant = spawn_ant(*g, 0, Kind::Worker, 15.9f, 8.5f, 0);
  rec(*g, enemy).payload.speed = 0;
  rec(*g, ant).payload.speed = 0.4f;
  rec(*g, ant).payload.health = 1;
  ASSERT_NE(rec(*g, ant).header.chunk, rec(*g, enemy).header.chunk);
  const u64 moves = g->moves;
  simulate_tick(*g);
  EXPECT_FALSE(g->ecs->alive(ant));
  EXPECT_EQ(g->colonies[0].died.by_cause[size_t(DeathCause::Combat)], 1u);
  EXPECT_EQ(g->moves, moves);
  expect_valid(*g);
}

// Nor does a dying ant change tier with its chunk: ants queued for destruction between
// ticks stay where they are when their chunk joins the region, and leave the store at the
// tick's end.
TEST(Tiers, ADyingAntStaysInItsTierWhenItsChunkJoinsTheRegion) {
  Scenario s = small_world();
  s.region_w = 1, s.region_h = 1;  // chunk 0 simulated, the rest dormant
  auto g = build(s);
  std::vector<Handle> ants;
  for (int i = 0; i < 10; ++i)
    ants.push_back(spawn_ant(*g, 0, Kind::Worker, 40.5f + float(i % 5), 40.5f + float(i / 5), 0));
  for (Handle h : ants) rec(*g, h).payload.speed = 0;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(kill_ant(*g, rec(*g, ants[size_t(i)]), DeathCause::Fire));
  const u64 moves = g->moves;
  set_sim_region(*g, 0, 0, 64, 64);
  simulate_tick(*g);
  EXPECT_EQ(g->moves - moves, 7u);
  for (size_t i = 0; i < ants.size(); ++i) EXPECT_EQ(g->ecs->alive(ants[i]), i >= 3);
  expect_valid(*g);
}

// [SECTION] Exhaustion

TEST(Exhaustion, RefusedSpawnsAreCountedAndTheGameGoesOn) {
  Scenario s = small_world(64, 64, 16);
  s.capacity.pools.of<RenderPiece>() = 64 * 64 + 30 + 12 * 50;
  s.capacity.pools.of<CollisionVolume>() = 8 + 2 * 50;
  s.capacity.pools.of<Sensor>() = 3 * 50;
  auto g = build(s);
  queue_command(*g, Command{CommandKind::SpawnAnts, 32, 32, 8, 500, 0, Kind::Worker});
  simulate_tick(*g);
  EXPECT_EQ(g->colonies[0].alive, 51u);  // the queen and the 50 that fit
  EXPECT_EQ(g->spawn_refused, 450u);
  EXPECT_GT(g->ecs->stats<RenderPiece>().total.failed_reservations, 0u);
  for (int t = 0; t < 100; ++t) simulate_tick(*g);
  queue_command(*g, Command{CommandKind::Bomb, 32, 32, 30, 0});
  simulate_tick(*g);
  queue_command(*g, Command{CommandKind::SpawnAnts, 32, 32, 8, 500, 0, Kind::Worker});
  simulate_tick(*g);
  EXPECT_GT(g->colonies[0].born, 51u);  // freed room is used again
  expect_valid(*g);
}

// One tick's commands touch at most kTickCommandCellsBudget times the map's cells: the
// command past it is refused and counted, the ones before it act, and the next tick has
// its own budget. A 64 x 64 map: a big bomb of radius 4096 covers it whole (4,096
// cells), so 256 of them fill a tick.
TEST(Commands, OneTicksCommandsStayWithinTheirBudget) {
  auto g = build(small_world(64, 64, 16));
  const Command whole_map{CommandKind::BigBomb, 32, 32, 4096, 0};
  EXPECT_EQ(command_cells(*g, whole_map), 64.0 * 64);
  for (int i = 0; i < 256; ++i) ASSERT_TRUE(queue_command(*g, whole_map)) << i;
  EXPECT_FALSE(queue_command(*g, whole_map));
  EXPECT_FALSE(queue_command(*g, Command{CommandKind::KillPercent, 0, 0, 0, 50}));  // the whole map too
  EXPECT_EQ(g->refused_commands, 2u);
  EXPECT_EQ(g->pending_commands.size(), 256u);
  EXPECT_EQ(tick_commands_problem(*g, g->pending_commands), "");
  std::vector<Command> more = g->pending_commands;
  more.push_back(whole_map);
  EXPECT_EQ(tick_commands_problem(*g, more),
            "the commands of one tick touch 1052672 cells, more than 256 times the map's 4096");
  simulate_tick(*g);
  EXPECT_TRUE(queue_command(*g, whole_map));
  // A spawn counts a cell per ant, as apply_command caps it (a million).
  EXPECT_EQ(command_cells(*g, Command{CommandKind::SpawnAnts, 32, 32, 8, 4'000'000'000u, 0, Kind::Worker}), 1e6);
  expect_valid(*g);
}

// [SECTION] Determinism

std::vector<u64> hashes(const Scenario& s, u64 seed, int ticks) {
  auto g = build(s, seed);
  std::vector<u64> out;
  for (int t = 0; t < ticks; ++t) {
    if (t == 50) queue_command(*g, Command{CommandKind::Bomb, 40, 32, 6, 0});
    if (t == 80) queue_command(*g, Command{CommandKind::Ignite, 100, 90, 3, 0});
    simulate_tick(*g);
    out.push_back(state_hash(*g));
  }
  return out;
}

TEST(Determinism, OneSeedOneHashAtEveryTickAnotherSeedAnother) {
  Scenario s;
  std::string err;
  ASSERT_TRUE(load_scenario(COLONY_SCENARIO_DIR "/default.json", s, &err)) << err;
  s.region_w = 96;  // half simulated, half dormant
  std::vector<u64> a = hashes(s, 11, 150), b = hashes(s, 11, 150), c = hashes(s, 12, 150);
  EXPECT_EQ(a, b);
  EXPECT_NE(a.back(), c.back());
  std::set<u64> distinct(a.begin(), a.end());
  EXPECT_EQ(distinct.size(), a.size());  // the hash moves every tick
}

TEST(Determinism, HashSeesEntityAndFieldChanges) {
  auto g = build(small_world());
  Handle h = spawn_ant(*g, 0, Kind::Worker, 20, 20, 0);
  u64 h0 = state_hash(*g);
  rec(*g, h).payload.x += 0.01f;
  u64 h1 = state_hash(*g);
  EXPECT_NE(h0, h1);
  g->fields[0][5] = 0.5f;
  EXPECT_NE(state_hash(*g), h1);
}

}  // namespace
}  // namespace colony
