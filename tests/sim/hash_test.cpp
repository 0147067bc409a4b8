// hash_test.cpp — state_hash sees every member of the state it covers. One table per
// struct (Game, Colony, Command, the record header, Body, each pool's component) holds a
// row for each member: a change to that member the hash must see, or no change and why
// the member is not state. Each row's change is made to a fresh copy of one busy world
// and the hash must differ from the untouched world's.
//
// Adding a member to one of these structs: give it a row in its table below. Until then
// this file does not compile: a static_assert compares each struct's number of members
// (counted by aggregate initialisation) with the rows of its table and names the table.
#include <gtest/gtest.h>

#include <cstddef>
#include <utility>

#include "game.h"

namespace colony {
namespace {

// [SECTION] Member counts

// Converts to any member type, so T{AnyMember{}, ...} compiles with at most as many as
// T has members (an array member counts once per element).
struct AnyMember {
  template <class T>
  operator T() const;
};
template <class T, class... Seen>
constexpr size_t member_count() {
  if constexpr (requires { T{Seen{}..., AnyMember{}}; }) return member_count<T, Seen..., AnyMember>();
  else return sizeof...(Seen);
}

// [SECTION] The busy world

// Two colonies with every caste, food and a corpse, fire burning, a bomb's scorch and
// danger, trails, a scenario event still to come, two pending commands and a region that
// leaves part of the map dormant.
std::unique_ptr<Game> busy_world() {
  Scenario s;
  s.path = "hash";
  s.width = 64, s.height = 64, s.chunk_size = 16;
  ColonySpec a, b;
  a.nest_x = 8, a.nest_y = 8, a.workers = 20, a.soldiers = 4, a.food = 50;
  b.nest_x = 56, b.nest_y = 56, b.workers = 20, b.soldiers = 4, b.food = 50;
  s.colonies = {a, b};
  s.region_x = 0, s.region_y = 0, s.region_w = 40, s.region_h = 64;
  EventSpec e;
  e.kind = EventKind::Bomb, e.tick = 100000, e.x = 30, e.y = 30, e.radius = 3;
  s.events.push_back(e);
  std::string err;
  auto g = make_game(s, 5, &err);
  EXPECT_TRUE(g) << err;
  if (!g) return g;
  spawn_food(*g, 20.5f, 30.5f, 12);
  Handle old = spawn_ant(*g, 0, Kind::Worker, 24.5f, 24.5f, 0);
  kill_ant(*g, *g->ecs->find(old), DeathCause::Age);  // leaves a corpse
  apply_deaths(*g);
  queue_command(*g, Command{CommandKind::Ignite, 44.5f, 20.5f, 2, 0});
  queue_command(*g, Command{CommandKind::Bomb, 30, 40, 3, 0});
  for (int t = 0; t < 20; ++t) simulate_tick(*g);
  queue_command(*g, Command{CommandKind::PlaceFood, 12, 40, 0, 6});
  queue_command(*g, Command{CommandKind::SpawnAnts, 16, 16, 2, 3, 1, Kind::Soldier});
  return g;
}

// The first live worker in storage (simulated: its records carry every pool).
Record& ant(Game& g) {
  Record* found = nullptr;
  g.ecs->for_each_entity([&](Record& r) {
    if (!found && r.payload.kind == Kind::Worker && !(r.header.flags & ecs::kFlagDying) && r.payload.antennae == 2)
      found = &r;
  });
  EXPECT_NE(found, nullptr);
  return *found;
}
template <class C>
C& part(Game& g, u32 k) {
  Record& r = ant(g);
  return g.ecs->pool<C>().items[g.ecs->list<C>(r).slot[k]];
}
template <class C>
void swap_parts(Game& g, u32 a, u32 b) {
  std::swap(part<C>(g, a), part<C>(g, b));
}
u32 burning_cell(const Game& g) { return g.burning.front(); }
u32 busy_cell(const std::vector<float>& grid) {
  for (u32 i = 0; i < grid.size(); ++i)
    if (grid[i] > 0) return i;
  ADD_FAILURE() << "the busy world has nothing on this grid";
  return 0;
}

// [SECTION] Tables

// A change the hash must see; nullptr for a member that is not state (`why` says why).
using Change = void (*)(Game&);
struct Row {
  const char* name;
  Change change;
  const char* why = "";
  bool extra = false;  // one more row for a member counted already (a grid per colony, an order)
};
template <size_t N>
constexpr size_t member_rows(const Row (&rows)[N]) {
  size_t n = 0;
  for (const Row& r : rows) n += !r.extra;
  return n;
}

constexpr Row kGameRows[] = {
    {"scenario", nullptr, "fixed for the world's life; saves and replays carry it whole"},
    {"seed", [](Game& g) { g.seed ^= 1; }},
    {"tick", [](Game& g) { ++g.tick; }},
    {"ecs: one record more", [](Game& g) { spawn_ant(g, 1, Kind::Worker, 50, 50, 0); }},
    {"ecs: one record fewer", [](Game& g) { kill_ant(g, ant(g), DeathCause::Culled), apply_deaths(g); }, "", true},
    {"width", [](Game& g) { ++g.width; }},
    {"height", [](Game& g) { ++g.height; }},
    {"terrain", [](Game& g) { g.terrain[100] = Terrain::Rock; }},
    {"tiles", nullptr, "one tile per cell, made with the world; the tiles' records are hashed"},
    {"fire", [](Game& g) { ++g.fire[burning_cell(g)]; }},
    {"scorch", [](Game& g) { ++g.scorch[7]; }},
    {"burning", [](Game& g) { g.burning.push_back(0); }},
    {"burning: order", [](Game& g) { std::swap(g.burning.front(), g.burning.back()); }, "", true},
    {"chunk_burning", [](Game& g) { ++g.chunk_burning[0]; }},
    {"fields: colony 0 to food", [](Game& g) { g.fields[0][9] += 0.25f; }},
    {"fields: colony 0 to home", [](Game& g) { g.fields[1][busy_cell(g.fields[1])] *= 0.5f; }, "", true},
    {"fields: colony 1 to food", [](Game& g) { g.fields[2][9] += 0.25f; }, "", true},
    {"fields: colony 1 to home", [](Game& g) { g.fields[3][9] += 0.25f; }, "", true},
    {"danger", [](Game& g) { g.danger[busy_cell(g.danger)] *= 0.5f; }},
    {"food_at", [](Game& g) { g.food_at[3] = ant(g).header.handle; }},
    {"food_sources", [](Game& g) { ++g.food_sources; }},
    {"cell_flags", nullptr, "derived from food_at and danger (rebuild_cell_flags)"},
    {"chunk_scent", nullptr, "derived from the fields and danger (rebuild_cell_flags)"},
    {"colonies: one more", [](Game& g) { g.colonies.push_back(g.colonies.back()); }},
    {"rng", [](Game& g) { g.rng.next_u32(); }},
    {"event_rng", [](Game& g) { g.event_rng.next_u32(); }},
    {"event_next", [](Game& g) { ++g.event_next[0]; }},
    {"region_x", [](Game& g) { g.region_x += 1; }},
    {"region_y", [](Game& g) { g.region_y += 1; }},
    {"region_w", [](Game& g) { g.region_w += 1; }},
    {"region_h", [](Game& g) { g.region_h -= 1; }},
    {"chunk_simulated", [](Game& g) { g.chunk_simulated[0] ^= 1; }},
    {"pending_commands: one more", [](Game& g) { g.pending_commands.push_back(g.pending_commands.front()); }},
    {"pending_commands: order", [](Game& g) { std::swap(g.pending_commands.front(), g.pending_commands.back()); }, "",
     true},
    {"pending_command_cells", nullptr, "derived from pending_commands"},
    {"dirty_chunks_stamp", nullptr, "the renderer's cache"},
    {"spawn_refused", [](Game& g) { ++g.spawn_refused; }},
    {"command_spawns_refused", nullptr, "a count for the window, never read by the simulation"},
    {"moves", nullptr, "a count for the report"},
    {"refused_moves", nullptr, "a count for the report"},
    {"invariant_violations", nullptr, "a count for the report"},
    {"refused_commands", nullptr, "a refused command never reached the world"},
    {"times", nullptr, "measured, never read by the simulation"},
    {"blasts", nullptr, "for the renderer, never read by the simulation"},
    {"sparks", nullptr, "for the renderer, never read by the simulation"},
    {"scratch_moves", nullptr, "scratch, empty between ticks"},
    {"scratch_stands", nullptr, "scratch, empty between ticks"},
    {"scratch_handles", nullptr, "scratch, empty between ticks"},
    {"scratch_corpses", nullptr, "scratch, empty between ticks"},
    {"occupancy", nullptr, "stamped with its tick: an entry of an earlier tick is never read"},
    {"scratch_cells", nullptr, "scratch, empty between ticks"},
    {"ant_passes", nullptr, "scratch the full model's jobs write and the same tick reads"},
};
static_assert(member_count<Game>() == member_rows(kGameRows),
              "Game's members and the rows of kGameRows in tests/sim/hash_test.cpp differ: give the new member a row "
              "(a change state_hash must see, or nullptr and why it is not state) and hash it in state_hash");

Colony& colony1(Game& g) { return g.colonies[1]; }
constexpr Row kColonyRows[] = {
    {"nest_x", [](Game& g) { colony1(g).nest_x += 1; }},
    {"nest_y", [](Game& g) { colony1(g).nest_y += 1; }},
    {"color", [](Game& g) { colony1(g).color ^= 0x10; }},
    {"queen", [](Game& g) { colony1(g).queen.generation ^= 1; }},
    {"food", [](Game& g) { colony1(g).food += 1; }},
    {"alive", [](Game& g) { ++colony1(g).alive; }},
    {"born", [](Game& g) { ++colony1(g).born; }},
    {"died", [](Game& g) { ++colony1(g).died.by_cause[size_t(DeathCause::Starvation)]; }},
    {"died: every cause", [](Game& g) { ++colony1(g).died.by_cause[size_t(DeathCause::Culled)]; }, "", true},
    {"delivered", [](Game& g) { ++colony1(g).delivered; }},
    {"starving", [](Game& g) { colony1(g).starving = !colony1(g).starving; }},
    {"down_since", [](Game& g) { ++colony1(g).down_since; }},
    {"refounds", [](Game& g) { ++colony1(g).refounds; }},
    {"fate", nullptr, "for the window's messages, never read by the simulation"},
    {"fate_tick", nullptr, "for the window's messages, never read by the simulation"},
};
static_assert(
    member_count<Colony>() == member_rows(kColonyRows),
    "Colony's members and the rows of kColonyRows in tests/sim/hash_test.cpp differ: give the new member a row");

Command& command0(Game& g) { return g.pending_commands.front(); }
constexpr Row kCommandRows[] = {
    {"kind", [](Game& g) { command0(g).kind = CommandKind::PaintTerrain; }},
    {"x", [](Game& g) { command0(g).x += 1; }},
    {"y", [](Game& g) { command0(g).y += 1; }},
    {"radius", [](Game& g) { command0(g).radius += 1; }},
    {"count", [](Game& g) { ++command0(g).count; }},
    {"colony", [](Game& g) { command0(g).colony ^= 1; }},
    {"caste", [](Game& g) { command0(g).caste = Kind::Soldier; }},
    {"terrain", [](Game& g) { command0(g).terrain = Terrain::Rock; }},
};
static_assert(
    member_count<Command>() == member_rows(kCommandRows),
    "Command's members and the rows of kCommandRows in tests/sim/hash_test.cpp differ: give the new member a row");

constexpr Row kHeaderRows[] = {
    {"handle", [](Game& g) { ant(g).header.handle.generation ^= 4; }},
    {"chunk", [](Game& g) { ant(g).header.chunk ^= 1; }},
    {"tag", [](Game& g) { ant(g).header.tag ^= 8; }},
    {"tier", [](Game& g) { ant(g).header.tier ^= 1; }},
    {"flags", [](Game& g) { ant(g).header.flags ^= 2; }},
};
static_assert(
    member_count<ecs::RecordHeader>() == member_rows(kHeaderRows),
    "RecordHeader's members and the rows of kHeaderRows in tests/sim/hash_test.cpp differ: give the new member a row");

Body& body(Game& g) { return ant(g).payload; }
constexpr Row kBodyRows[] = {
    {"x", [](Game& g) { body(g).x += 0.001f; }},
    {"y", [](Game& g) { body(g).y += 0.001f; }},
    {"heading", [](Game& g) { body(g).heading += 0.001f; }},
    {"speed", [](Game& g) { body(g).speed += 0.001f; }},
    {"kind", [](Game& g) { body(g).kind = Kind::Soldier; }},
    {"colony", [](Game& g) { body(g).colony ^= 1; }},
    {"state", [](Game& g) { body(g).state = AntState::Idle; }},
    {"legs", [](Game& g) { --body(g).legs; }},
    {"antennae", [](Game& g) { --body(g).antennae; }},
    {"carrying", [](Game& g) { body(g).carrying ^= 1; }},
    {"health", [](Game& g) { ++body(g).health; }},
    {"age", [](Game& g) { ++body(g).age; }},
    {"lifespan", [](Game& g) { ++body(g).lifespan; }},
    {"amount", [](Game& g) { ++body(g).amount; }},
    {"cell", [](Game& g) { ++body(g).cell; }},
    {"last_tick", [](Game& g) { ++body(g).last_tick; }},
    {"scent", [](Game& g) { body(g).scent += 0.01f; }},
};
static_assert(member_count<Body>() == member_rows(kBodyRows),
              "Body's members and the rows of kBodyRows in tests/sim/hash_test.cpp differ: give the new member a row");

// Each pool: its entries' fields, their order in the owner's list, and the list's counts.
template <class C>
void more_reserved(Game& g) {
  ++g.ecs->list<C>(ant(g)).reserved;
}
template <class C>
void fewer_added(Game& g) {
  --g.ecs->list<C>(ant(g)).added;
}

constexpr Row kRenderPieceRows[] = {
    {"color", [](Game& g) { part<RenderPiece>(g, 1).color ^= 1; }},
    {"x_units", [](Game& g) { ++part<RenderPiece>(g, 1).x_units; }},
    {"y_units", [](Game& g) { ++part<RenderPiece>(g, 1).y_units; }},
    {"width_units", [](Game& g) { ++part<RenderPiece>(g, 1).width_units; }},
    {"height_units", [](Game& g) { ++part<RenderPiece>(g, 1).height_units; }},
    {"turn_units", [](Game& g) { ++part<RenderPiece>(g, 1).turn_units; }},
    {"sprite", [](Game& g) { ++part<RenderPiece>(g, 1).sprite; }},
    {"part", [](Game& g) { part<RenderPiece>(g, 1).part = Part::Wing; }},
    {"order in the list", [](Game& g) { swap_parts<RenderPiece>(g, 0, 1); }, "", true},
    {"slots reserved", more_reserved<RenderPiece>, "", true},
    {"slots added", fewer_added<RenderPiece>, "", true},
};
static_assert(member_count<RenderPiece>() == member_rows(kRenderPieceRows),
              "RenderPiece's members and the rows of kRenderPieceRows in tests/sim/hash_test.cpp differ: give the new "
              "member a row");

constexpr Row kVolumeRows[] = {
    {"offset_x", [](Game& g) { part<CollisionVolume>(g, 1).offset_x += 0.01f; }},
    {"offset_y", [](Game& g) { part<CollisionVolume>(g, 1).offset_y += 0.01f; }},
    {"radius", [](Game& g) { part<CollisionVolume>(g, 1).radius += 0.01f; }},
    {"role", [](Game& g) { part<CollisionVolume>(g, 1).role ^= 1; }},
    {"pad[0]", nullptr, "padding"},
    {"pad[1]", nullptr, "padding"},
    {"pad[2]", nullptr, "padding"},
    {"order in the list", [](Game& g) { swap_parts<CollisionVolume>(g, 0, 1); }, "", true},
    {"slots reserved", more_reserved<CollisionVolume>, "", true},
    {"slots added", fewer_added<CollisionVolume>, "", true},
};
static_assert(member_count<CollisionVolume>() == member_rows(kVolumeRows),
              "CollisionVolume's members and the rows of kVolumeRows in tests/sim/hash_test.cpp differ: give the new "
              "member a row");

constexpr Row kSensorRows[] = {
    {"angle", [](Game& g) { part<Sensor>(g, 1).angle += 0.01f; }},
    {"reach", [](Game& g) { part<Sensor>(g, 1).reach += 0.01f; }},
    {"reading", [](Game& g) { part<Sensor>(g, 1).reading += 0.01f; }},
    {"order in the list", [](Game& g) { swap_parts<Sensor>(g, 0, 1); }, "", true},
    {"slots reserved", more_reserved<Sensor>, "", true},
    {"slots added", fewer_added<Sensor>, "", true},
};
static_assert(
    member_count<Sensor>() == member_rows(kSensorRows),
    "Sensor's members and the rows of kSensorRows in tests/sim/hash_test.cpp differ: give the new member a row");

// Every pool of the world has its table above.
static_assert(ColonyEcs::kPoolCount == 3, "a new pool needs its table of rows in tests/sim/hash_test.cpp");

// [SECTION] Tests

template <size_t N>
void expect_each_row_seen(const char* table, const Row (&rows)[N]) {
  auto untouched = busy_world();
  ASSERT_TRUE(untouched);
  const u64 base = state_hash(*untouched);
  ASSERT_EQ(state_hash(*busy_world()), base) << "the busy world is not the same twice";
  for (const Row& row : rows) {
    if (!row.change) {
      EXPECT_STRNE(row.why, "") << table << "." << row.name << " is not hashed: say why";
      continue;
    }
    auto g = busy_world();
    row.change(*g);
    EXPECT_NE(state_hash(*g), base) << "state_hash does not see a change to " << table << "." << row.name;
  }
}

TEST(HashCoverage, EveryGameMember) { expect_each_row_seen("Game", kGameRows); }
TEST(HashCoverage, EveryColonyMember) { expect_each_row_seen("Colony", kColonyRows); }
TEST(HashCoverage, EveryPendingCommandMember) { expect_each_row_seen("Command", kCommandRows); }
TEST(HashCoverage, EveryRecordHeaderMember) { expect_each_row_seen("RecordHeader", kHeaderRows); }
TEST(HashCoverage, EveryBodyMember) { expect_each_row_seen("Body", kBodyRows); }
TEST(HashCoverage, EveryRenderPieceMemberAndTheirOrder) { expect_each_row_seen("RenderPiece", kRenderPieceRows); }
TEST(HashCoverage, EveryCollisionVolumeMemberAndTheirOrder) { expect_each_row_seen("CollisionVolume", kVolumeRows); }
TEST(HashCoverage, EverySensorMemberAndTheirOrder) { expect_each_row_seen("Sensor", kSensorRows); }

// Records of every kind are hashed, not only ants: a tile's piece, a food source's
// crumbs and a corpse's payload.
TEST(HashCoverage, RecordsOfEveryKind) {
  const u64 base = state_hash(*busy_world());
  for (Kind kind : {Kind::Tile, Kind::Queen, Kind::Soldier, Kind::Food, Kind::Corpse}) {
    auto g = busy_world();
    bool changed = false;
    g->ecs->for_each_entity([&](Record& r) {
      if (changed || r.payload.kind != kind || (r.header.flags & ecs::kFlagDying)) return;
      r.payload.amount += 1;
      g->ecs->pool<RenderPiece>().items[g->ecs->list<RenderPiece>(r).slot[0]].color ^= 1;
      changed = true;
    });
    ASSERT_TRUE(changed) << kind_name(kind);
    EXPECT_NE(state_hash(*g), base) << "state_hash does not see a change to a " << kind_name(kind);
  }
}

}  // namespace
}  // namespace colony
