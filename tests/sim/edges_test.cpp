// edges_test.cpp — the simulation's edges where they bite: ants 0.2 cells inside and 0.2
// cells outside a bomb's kill radius and its maim ring (the bomb, the big bomb and a
// scenario's bomb event, each through the game's own radii), the cells 0.2 inside and
// outside a fire's and a brush's disc, and ants 0.2 cells either side of a fire's edge.
// Each case goes through the verb the player or the scenario uses (queue_command and a
// tick, or a scenario event), so a radius one cell too large or too small fails here.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "game.h"

namespace colony {
namespace {

// [SECTION] Helpers

// An all-grass world with one colony whose nest is in a corner, fire that does not spread
// (so the disc a command lights is the whole fire) and no births.
Scenario open_world(u32 size = 96) {
  Scenario s;
  s.path = "edges";
  s.width = size;
  s.height = size;
  s.chunk_size = 16;
  ColonySpec c;
  c.nest_x = 2;
  c.nest_y = 2;
  c.food = 0;
  s.colonies.push_back(c);
  s.rules.lay_interval = 0;
  s.rules.upkeep = 0;
  s.rules.fire_spread = 0;
  return s;
}

std::unique_ptr<Game> build(const Scenario& s) {
  std::string err;
  auto g = make_game(s, 7, &err);
  EXPECT_TRUE(g) << err;
  return g;
}

// A worker standing still at (x, y).
Handle still_ant(Game& g, float x, float y) {
  Handle h = spawn_ant(g, 0, Kind::Worker, x, y, 0);
  EXPECT_FALSE(h.is_null());
  if (Record* r = g.ecs->find(h)) r->payload.speed = 0;
  return h;
}

// Ants at `distance` from (x, y), one every 45 degrees.
std::vector<Handle> ring_of_ants(Game& g, float x, float y, float distance) {
  std::vector<Handle> out;
  for (int i = 0; i < 8; ++i) {
    float a = float(i) * 0.785398f + 0.1f;
    out.push_back(still_ant(g, x + distance * std::cos(a), y + distance * std::sin(a)));
  }
  return out;
}

enum class Outcome { Dead, Maimed, Whole };
const char* fate_name(Outcome f) { return f == Outcome::Dead ? "dead" : f == Outcome::Maimed ? "maimed" : "whole"; }

Outcome fate_of(Game& g, Handle h) {
  const Record* r = g.ecs->find(h);
  if (!r) return Outcome::Dead;
  // The ring always takes one leg (and sometimes an antenna as well).
  return r->payload.legs == 6 && r->payload.antennae == 2 ? Outcome::Whole : Outcome::Maimed;
}

void expect_valid(Game& g) {
  for (const auto& e : validate_game(g, 8)) ADD_FAILURE() << ecs::describe(e);
}

// Places rings of ants 0.2 cells inside and outside the kill radius and the maim ring
// around (x, y), runs `fire` (which sets off the explosion), and checks each ant's fate.
template <class Fn>
void expect_bomb_edges(Scenario s, float x, float y, float radius, float outer, Fn fire) {
  auto g = build(s);
  struct Case {
    float distance;
    Outcome want;
    std::vector<Handle> ants;
  };
  std::vector<Case> cases = {{radius - 0.2f, Outcome::Dead, {}},
                             {radius + 0.2f, Outcome::Maimed, {}},
                             {outer - 0.2f, Outcome::Maimed, {}},
                             {outer + 0.2f, Outcome::Whole, {}}};
  for (Case& c : cases) c.ants = ring_of_ants(*g, x, y, c.distance);
  fire(*g);
  for (const Case& c : cases)
    for (Handle h : c.ants)
      EXPECT_STREQ(fate_name(fate_of(*g, h)), fate_name(c.want))
          << "ant at " << c.distance << " cells, radius " << radius << ", ring " << outer;
  expect_valid(*g);
}

// [SECTION] Bombs

TEST(Edges, TheBombKillsInsideItsRadiusAndMaimsOutToItsRing) {
  expect_bomb_edges(open_world(), 48, 48, kBombRadius, kBombRadius * kBombMaimScale, [](Game& g) {
    ASSERT_TRUE(queue_command(g, Command{CommandKind::Bomb, 48, 48, 0, 0}));  // radius 0: the game's own
    simulate_tick(g);
  });
}

TEST(Edges, TheBigBombKillsInsideItsRadiusAndMaimsOutToItsRing) {
  expect_bomb_edges(open_world(), 48, 48, kBigBombRadius, kBigBombRadius * kBigBombMaimScale, [](Game& g) {
    ASSERT_TRUE(queue_command(g, Command{CommandKind::BigBomb, 48, 48, 0, 0}));
    simulate_tick(g);
  });
}

TEST(Edges, AScenarioBombEventKillsInsideItsRadiusAndMaimsOutToItsRing) {
  for (float outer : {0.0f, 11.0f}) {  // the ring the event names, or the default
    SCOPED_TRACE(outer);
    Scenario s = open_world();
    EventSpec e;
    e.kind = EventKind::Bomb;
    e.tick = 3;
    e.x = 48, e.y = 48;
    e.radius = 5;
    e.outer = outer;
    s.events.push_back(e);
    expect_bomb_edges(s, 48, 48, e.radius, event_bomb_outer(e), [](Game& g) {
      while (g.tick <= 3) simulate_tick(g);
    });
  }
}

// [SECTION] Fire and the brush

// A disc of radius R (a multiple of half a cell) centred on row cy so that the cell to its
// right, `inside`, has its centre R - 0.2 away and the cell to its left, `outside`,
// R + 0.2 away.
struct DiscEdge {
  float x, y;
  u32 inside, outside;
};
DiscEdge disc_edge(const Game& g, float radius, int cx, int cy) {
  EXPECT_FLOAT_EQ(std::round(radius * 2), radius * 2) << "the edge cells need a radius of whole or half cells";
  const int k = int(std::ceil(radius - 0.2f));
  const float d = float(k) - radius + 0.2f;  // the centre's offset right of cell cx's centre
  const int j = int(std::lround(radius + 0.2f - d));
  return {float(cx) + 0.5f + d, float(cy) + 0.5f, cell_index(g, cx + k, cy), cell_index(g, cx - j, cy)};
}

TEST(Edges, AFireLightsTheCellsInsideItsRadiusOnly) {
  for (float asked : {0.0f, 3.0f}) {  // 0: the game's own radius
    SCOPED_TRACE(asked);
    auto g = build(open_world(48));
    Command c{CommandKind::Ignite, 0, 0, asked, 0};
    const float radius = asked > 0 ? asked : 1.5f;
    DiscEdge e = disc_edge(*g, radius, 20, 20);
    c.x = e.x, c.y = e.y;
    ASSERT_TRUE(queue_command(*g, c));
    simulate_tick(*g);
    EXPECT_GT(g->fire[e.inside], 0) << "the cell " << radius - 0.2f << " cells from the centre";
    EXPECT_EQ(g->fire[e.outside], 0) << "the cell " << radius + 0.2f << " cells from the centre";
    expect_valid(*g);
  }
}

TEST(Edges, ABrushPaintsTheCellsInsideItsRadiusOnly) {
  for (float asked : {0.0f, 3.0f}) {  // 0: the smallest brush, half a cell
    SCOPED_TRACE(asked);
    auto g = build(open_world(48));
    Command c{CommandKind::PaintTerrain, 0, 0, asked, 0};
    c.terrain = Terrain::Water;
    DiscEdge e = disc_edge(*g, std::max(asked, 0.5f), 20, 20);
    c.x = e.x, c.y = e.y;
    ASSERT_TRUE(queue_command(*g, c));
    simulate_tick(*g);
    EXPECT_EQ(g->terrain[e.inside], Terrain::Water);
    EXPECT_EQ(g->terrain[e.outside], Terrain::Grass);
    expect_valid(*g);
  }
}

// The fire's edge for ants: an ant 0.2 cells inside the last burning cell dies in the
// tick, one 0.2 cells past it into the next (unlit) cell lives.
TEST(Edges, FireKillsTheAntsOnItsCellsAndSparesTheNextCell) {
  auto g = build(open_world(48));
  // The default radius lights the 3x3 cells around (20, 20): columns 19 .. 21.
  ASSERT_TRUE(queue_command(*g, Command{CommandKind::Ignite, 20.5f, 20.5f, 0, 0}));
  Handle in_right = still_ant(*g, 22.0f - 0.2f, 20.5f), out_right = still_ant(*g, 22.0f + 0.2f, 20.5f);
  Handle in_left = still_ant(*g, 19.0f + 0.2f, 20.5f), out_left = still_ant(*g, 19.0f - 0.2f, 20.5f);
  Handle in_top = still_ant(*g, 20.5f, 19.0f + 0.2f), out_top = still_ant(*g, 20.5f, 19.0f - 0.2f);
  simulate_tick(*g);
  ASSERT_GT(g->fire[cell_index(*g, 21, 20)], 0);
  ASSERT_EQ(g->fire[cell_index(*g, 22, 20)], 0);
  EXPECT_FALSE(g->ecs->alive(in_right));
  EXPECT_FALSE(g->ecs->alive(in_left));
  EXPECT_FALSE(g->ecs->alive(in_top));
  EXPECT_TRUE(g->ecs->alive(out_right));
  EXPECT_TRUE(g->ecs->alive(out_left));
  EXPECT_TRUE(g->ecs->alive(out_top));
  EXPECT_EQ(g->colonies[0].died.by_cause[size_t(DeathCause::Fire)], 3u);
  expect_valid(*g);
}

}  // namespace
}  // namespace colony
