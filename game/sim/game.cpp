// game.cpp — building a Colony world and advancing it one fixed tick at a time.
//
// Table of contents
//   [SECTION] Names and small helpers
//   [SECTION] World building: terrain, tiles, colonies, food
//   [SECTION] Spawning: ants, food, corpses
//   [SECTION] Terrain and fire
//   [SECTION] Food: bites, pick-up, delivery
//   [SECTION] Death, maiming, explosions
//   [SECTION] Ants, fully simulated
//   [SECTION] Ants, dormant (cheaper model, every dormant_period ticks)
//   [SECTION] Pheromone evaporation
//   [SECTION] Simulation region and tiers
//   [SECTION] Colonies, commands, scenario events
//   [SECTION] The tick
//   [SECTION] Hash and validation
#include "game.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <cstring>
#include <xxhash.h>

#include "body_plans.h"

namespace colony {

// [SECTION] Names and small helpers

const char* death_cause_name(DeathCause c) {
  switch (c) {
    case DeathCause::Explosion: return "explosion";
    case DeathCause::Fire: return "fire";
    case DeathCause::Combat: return "combat";
    case DeathCause::Age: return "age";
    case DeathCause::Starvation: return "starvation";
    case DeathCause::Count: break;
  }
  return "?";
}

const char* system_name(SystemTimes::Id id) {
  switch (id) {
    case SystemTimes::Simulate: return "simulate";
    case SystemTimes::Pheromones: return "pheromones";
    case SystemTimes::Fire: return "fire";
    case SystemTimes::Destroy: return "destroy";
    case SystemTimes::Regions: return "regions";
    case SystemTimes::Dormant: return "dormant";
    case SystemTimes::Corpses: return "corpses";
    case SystemTimes::Count: break;
  }
  return "?";
}

const char* command_kind_name(CommandKind k) {
  switch (k) {
    case CommandKind::Bomb: return "bomb";
    case CommandKind::BigBomb: return "big_bomb";
    case CommandKind::Ignite: return "ignite";
    case CommandKind::PlaceFood: return "place_food";
    case CommandKind::PaintTerrain: return "paint_terrain";
    case CommandKind::SpawnAnts: return "spawn_ants";
    case CommandKind::KillPercent: return "kill_percent";
    case CommandKind::Count: break;
  }
  return "?";
}

u64 DeathCounts::total() const {
  u64 t = 0;
  for (u64 n : by_cause) t += n;
  return t;
}

u64 ants_alive(const Game& g) {
  u64 n = 0;
  for (const Colony& c : g.colonies) n += c.alive;
  return n;
}
u64 ants_born(const Game& g) {
  u64 n = 0;
  for (const Colony& c : g.colonies) n += c.born;
  return n;
}
DeathCounts ants_died(const Game& g) {
  DeathCounts d;
  for (const Colony& c : g.colonies)
    for (size_t i = 0; i < d.by_cause.size(); ++i) d.by_cause[i] += c.died.by_cause[i];
  return d;
}

namespace {

constexpr float kPi = 3.14159265f;
constexpr float kTwoPi = 6.28318531f;
constexpr float kNestRadius = 2.5f;
constexpr float kFoodPerBite = 2.0f;
constexpr float kScentFade = 0.994f;   // trail strength kept per tick after leaving nest/food
constexpr float kScentFloor = 0.002f;  // weaker scent is flushed to zero (no denormals)

// Salts for per-entity random numbers (hash_float(seed, tick, index, salt)).
enum Salt : u32 { kWander = 1, kStarve, kTurn, kMaim, kMaimSide, kSpread, kIgnite, kKill, kDormantWalk, kLifespan };

float wrap_angle(float a) {
  if (a > kPi || a < -kPi) a -= kTwoPi * std::floor((a + kPi) / kTwoPi);
  return a;
}

// Parabolic sine with one refinement step: max error ~1e-3, no libm call.
inline float fast_sin(float x) {
  x = wrap_angle(x);
  float y = 1.27323954f * x - 0.405284735f * x * std::fabs(x);
  return 0.225f * (y * std::fabs(y) - y) + y;
}
inline float fast_cos(float x) { return fast_sin(x + kPi / 2); }

Record* as_record(ecs::RecordHeader* h) { return reinterpret_cast<Record*>(h); }

// Tiles are created first in every chunk and never move or die, so in each chunk's
// dormant storage they form a prefix: removal fills a hole with the list's last record,
// which is never a tile while anything is stored after the tiles. Walks that look for
// ants, food and corpses skip that prefix block by block (validate_game checks it).
u32 tiles_in_chunk(const Game& g, u32 c) {
  const ecs::ChunkGrid& grid = g.ecs->grid();
  u32 x0 = grid.chunk_col(c) * grid.chunk_cells, y0 = grid.chunk_row(c) * grid.chunk_cells;
  return std::min(grid.chunk_cells, g.width - x0) * std::min(grid.chunk_cells, g.height - y0);
}

// fn(Record&) for every dormant record of chunk c after its tiles.
template <class Fn>
void for_each_dormant_mobile(Game& g, u32 c, Fn&& fn) {
  ecs::EntityStore& st = g.ecs->store();
  const ecs::BlockList& list = st.dormant(c);
  const u32 count = list.count, per = st.block_records(), skip = std::min(tiles_in_chunk(g, c), count);
  u32 b = list.first, idx = 0;
  while (b != ecs::kNone && idx + per <= skip) b = st.next_block(b), idx += per;
  for (; b != ecs::kNone && idx < count; b = st.next_block(b)) {
    u32 n = std::min(per, count - idx);
    for (u32 i = idx < skip ? skip - idx : 0; i < n; ++i) fn(*as_record(st.at(b, i)));
    idx += n;
  }
}

// fn(Record&) for every ant, food source and corpse in chunk c (both tiers).
template <class Fn>
void for_each_mobile_in_chunk(Game& g, u32 c, Fn&& fn) {
  ecs::EntityStore& st = g.ecs->store();
  for (u32 i = st.sim_head(c); i != 0; i = st.dir(i).sim_next) fn(*as_record(st.record_of_index(i)));
  for_each_dormant_mobile(g, c, fn);
}

// fn(Record&) for every ant, food source and corpse within r of (x, y): the chunk
// grid's circle query, never a scan of all entities.
template <class Fn>
void for_each_mobile_in_radius(Game& g, float x, float y, float r, Fn&& fn) {
  g.ecs->grid().for_each_chunk_in_circle(x, y, r, [&](u32 c) {
    for_each_mobile_in_chunk(g, c, [&](Record& rec) {
      float dx = rec.payload.x - x, dy = rec.payload.y - y;
      if (dx * dx + dy * dy <= r * r) fn(rec);
    });
  });
}

u32 cell_of(const Game& g, float x, float y) {
  int cx = std::clamp(int(x), 0, int(g.width) - 1), cy = std::clamp(int(y), 0, int(g.height) - 1);
  return u32(cy) * g.width + u32(cx);
}

float& field(Game& g, u32 colony, Field f, u32 cell) { return g.fields[colony * 2 + u32(f)][cell]; }

void mark_dirty(Game& g, u32 cell) {
  u32 chunk = g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width);
  g.dirty_chunks_stamp[chunk] = g.tick + 1;
}

// The food grid and its flag bit change together.
void put_food(Game& g, u32 cell, Handle h) {
  g.food_at[cell] = h;
  g.cell_flags[cell] = u8(h.is_null() ? g.cell_flags[cell] & ~kCellFood : g.cell_flags[cell] | kCellFood);
}
void put_danger(Game& g, u32 cell, float v) {
  g.danger[cell] = v;
  g.chunk_scent[g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width)] |= kChunkDanger;
  g.cell_flags[cell] = u8(v > kDangerFelt ? g.cell_flags[cell] | kCellDanger : g.cell_flags[cell] & ~kCellDanger);
}

// Calls fn(cell, distance) for every cell whose centre is within r of (x, y).
template <class Fn>
void for_each_cell_in_circle(const Game& g, float x, float y, float r, Fn&& fn) {
  int x0 = std::max(0, int(std::floor(x - r))), x1 = std::min(int(g.width) - 1, int(std::ceil(x + r)));
  int y0 = std::max(0, int(std::floor(y - r))), y1 = std::min(int(g.height) - 1, int(std::ceil(y + r)));
  for (int cy = y0; cy <= y1; ++cy)
    for (int cx = x0; cx <= x1; ++cx) {
      float dx = float(cx) + 0.5f - x, dy = float(cy) + 0.5f - y;
      float d2 = dx * dx + dy * dy;
      if (d2 <= r * r) fn(u32(cy) * g.width + u32(cx), std::sqrt(d2));
    }
}

class ScopedTimer {
 public:
  ScopedTimer(SystemTimes& t, SystemTimes::Id id) : t_(t), id_(id), start_ms_(thread_cpu_ms()) {}
  ~ScopedTimer() {
    double ms = thread_cpu_ms() - start_ms_;
    t_.last_ms[id_] += ms;
    t_.total_ms[id_] += ms;
  }

 private:
  static double thread_cpu_ms() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
  }
  SystemTimes& t_;
  SystemTimes::Id id_;
  double start_ms_;
};

// [SECTION] World building: terrain, tiles, colonies, food

// Smooth value noise in [0, 1): lattice values from the hash, smoothstep blending, two octaves.
float value_noise(u64 seed, float x, float y, float scale) {
  auto octave = [&](float fx, float fy, u32 salt) {
    int ix = int(std::floor(fx)), iy = int(std::floor(fy));
    float tx = fx - float(ix), ty = fy - float(iy);
    tx = tx * tx * (3 - 2 * tx);
    ty = ty * ty * (3 - 2 * ty);
    auto at = [&](int cx, int cy) { return hash_float(seed, u64(u32(cx)), u32(cy), salt); };
    float a = at(ix, iy), b = at(ix + 1, iy), c = at(ix, iy + 1), d = at(ix + 1, iy + 1);
    return (a + (b - a) * tx) + ((c + (d - c) * tx) - (a + (b - a) * tx)) * ty;
  };
  float s = std::max(scale, 1.0f);
  return 0.7f * octave(x / s, y / s, 11) + 0.3f * octave(x * 2.3f / s, y * 2.3f / s, 12);
}

void generate_terrain(Game& g) {
  const Scenario& s = g.scenario;
  g.terrain.assign(size_t(g.width) * g.height, s.base);
  if (s.noise.enabled) {
    u64 nseed = mix64(g.seed ^ 0x7E77A1Full);
    for (u32 y = 0; y < g.height; ++y)
      for (u32 x = 0; x < g.width; ++x) {
        float n = value_noise(nseed, float(x), float(y), s.noise.scale);
        Terrain t = s.base;
        if (n < s.noise.water) t = Terrain::Water;
        else if (n < s.noise.water + s.noise.dirt) t = Terrain::Dirt;
        else if (n > 1 - s.noise.rock) t = Terrain::Rock;
        g.terrain[y * g.width + x] = t;
      }
    // Noise never drowns a nest: clear a dirt yard around each.
    for (const ColonySpec& c : s.colonies)
      for_each_cell_in_circle(g, c.nest_x, c.nest_y, 7, [&](u32 cell, float) {
        if (!passable(g.terrain[cell])) g.terrain[cell] = Terrain::Dirt;
      });
  }
  for (const TerrainShape& sh : s.shapes) {
    if (sh.circle) {
      for_each_cell_in_circle(g, sh.x, sh.y, sh.r, [&](u32 cell, float) { g.terrain[cell] = sh.terrain; });
    } else {
      int x0 = std::max(0, int(sh.x)), y0 = std::max(0, int(sh.y));
      int x1 = std::min(int(g.width), int(sh.x + sh.w)), y1 = std::min(int(g.height), int(sh.y + sh.h));
      for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) g.terrain[u32(y) * g.width + u32(x)] = sh.terrain;
    }
  }
}

bool create_tiles(Game& g, std::string* err) {
  ColonyEcs& w = *g.ecs;
  g.tiles.resize(g.terrain.size());
  for (u32 cy = 0; cy < g.height; ++cy)
    for (u32 cx = 0; cx < g.width; ++cx) {
      u32 cell = cy * g.width + cx;
      Body b{};
      b.x = float(cx) + 0.5f;
      b.y = float(cy) + 0.5f;
      b.kind = Kind::Tile;
      b.cell = cell;
      Handle h = w.create(w.grid().chunk_of_cell(cx, cy), ecs::Tier::Dormant, u16(Kind::Tile), b);
      if (h.is_null() || w.reserve<RenderPiece>(h, 1) != ecs::Result::Ok) {
        if (err) *err = g.scenario.path + ": capacity: no room for the map's " + std::to_string(g.terrain.size()) + " tiles";
        return false;
      }
      w.add<RenderPiece>(h, tile_piece(u8(g.terrain[cell]), false));
      g.tiles[cell] = h;
    }
  return true;
}

}  // namespace

// [SECTION] Spawning: ants, food, corpses

namespace {

// Reserves and adds everything in a plan; all or nothing (destroys h on failure).
bool dress(Game& g, Handle h, const BodyPlan& plan, u32 tint) {
  ColonyEcs& w = *g.ecs;
  if (w.reserve<RenderPiece>(h, u32(plan.pieces.size()) + plan.spare_pieces) != ecs::Result::Ok ||
      w.reserve<CollisionVolume>(h, u32(plan.volumes.size())) != ecs::Result::Ok ||
      w.reserve<Sensor>(h, u32(plan.sensors.size())) != ecs::Result::Ok) {
    w.destroy(h);
    return false;
  }
  w.add_each<RenderPiece>(h, u32(plan.pieces.size()), [&](RenderPiece& p, u32 k) {
    p = plan.pieces[k];
    float f = p.part == Part::Leg || p.part == Part::Antenna || p.part == Part::Mandible ? 0.55f
              : p.part == Part::Wing                                                  ? 1.6f
              : p.part == Part::Abdomen || p.part == Part::QueenAbdomen               ? 0.85f
                                                                                      : 1.0f;
    p.color = shade(tint, f);
    if (p.part == Part::Wing) p.color = (p.color & 0x00FFFFFFu) | 0x80000000u;
  });
  w.add<CollisionVolume>(h, plan.volumes);
  w.add<Sensor>(h, plan.sensors);
  return true;
}

ecs::Tier tier_for_chunk(const Game& g, u32 chunk) {
  return g.chunk_simulated[chunk] ? ecs::Tier::Simulated : ecs::Tier::Dormant;
}

Handle spawn_corpse(Game& g, const Game::CorpseOrder& o) {
  u32 cell = cell_of(g, o.x, o.y);
  if (!g.food_at[cell].is_null() || !passable(g.terrain[cell])) return {};
  ColonyEcs& w = *g.ecs;
  Body b{};
  b.x = o.x;
  b.y = o.y;
  b.heading = o.heading;
  b.kind = Kind::Corpse;
  b.colony = o.colony;
  b.amount = o.kind == Kind::Soldier ? 6 : 4;
  b.last_tick = u32(g.tick);
  Handle h = w.create_at(ecs::Tier::Dormant, u16(Kind::Corpse), b);
  if (h.is_null()) return {};
  u32 tint = shade(g.colonies[o.colony].color, 0.45f);
  if (!dress(g, h, body_plan(Kind::Corpse), tint)) return {};
  put_food(g, cell, h);
  return h;
}

}  // namespace

Handle spawn_ant(Game& g, u8 colony, Kind caste, float x, float y, float heading) {
  if (colony >= g.colonies.size() || !is_ant(caste)) return {};
  ColonyEcs& w = *g.ecs;
  const Rules& rules = g.scenario.rules;
  x = std::clamp(x, 0.0f, float(g.width) - 0.01f);
  y = std::clamp(y, 0.0f, float(g.height) - 0.01f);
  const BodyPlan& plan = body_plan(caste);
  Body b{};
  b.x = x;
  b.y = y;
  b.heading = wrap_angle(heading);
  b.kind = caste;
  b.colony = colony;
  b.state = AntState::Searching;
  b.legs = 6;
  b.antennae = 2;
  b.health = plan.health;
  b.cell = cell_of(g, x, y);
  b.last_tick = u32(g.tick);
  b.scent = 1;
  u32 base = caste == Kind::Soldier ? rules.soldier_lifespan : rules.worker_lifespan;
  // Lifespans vary by +-25% so a generation does not die in one tick.
  u32 index_hint = u32(g.colonies[colony].born * 4 + colony);
  b.lifespan = caste == Kind::Queen ? ~0u : u32(float(base) * (0.75f + 0.5f * hash_float(g.seed, g.tick, index_hint, kLifespan)));
  b.speed = caste == Kind::Soldier ? rules.soldier_speed : (caste == Kind::Queen ? 0 : rules.worker_speed);
  u32 chunk = w.grid().chunk_at(x, y);
  Handle h = w.create(chunk, tier_for_chunk(g, chunk), u16(caste), b);
  if (h.is_null() || !dress(g, h, plan, g.colonies[colony].color)) {
    ++g.spawn_refused;
    return {};
  }
  Colony& c = g.colonies[colony];
  ++c.alive;
  ++c.born;
  return h;
}

Handle spawn_food(Game& g, float x, float y, u32 crumbs) {
  crumbs = std::clamp(crumbs, 1u, RenderPiece::kMaxPerEntity - 1);
  if (x < 0 || y < 0 || x >= float(g.width) || y >= float(g.height)) return {};
  u32 cell = cell_of(g, x, y);
  if (!g.food_at[cell].is_null() || !passable(g.terrain[cell])) return {};
  ColonyEcs& w = *g.ecs;
  Body b{};
  b.x = float(cell % g.width) + 0.5f;
  b.y = float(cell / g.width) + 0.5f;
  b.kind = Kind::Food;
  b.amount = crumbs;
  b.cell = cell;
  b.last_tick = u32(g.tick);
  Handle h = w.create_at(ecs::Tier::Dormant, u16(Kind::Food), b);
  if (h.is_null()) return {};
  if (w.reserve<RenderPiece>(h, crumbs) != ecs::Result::Ok || w.reserve<CollisionVolume>(h, 1) != ecs::Result::Ok) {
    w.destroy(h);
    return {};
  }
  w.add_each<RenderPiece>(h, crumbs, [](RenderPiece& p, u32 i) { p = crumb_piece(i); });
  w.add<CollisionVolume>(h, body_plan(Kind::Food).volumes[0]);
  // The source covers the 3x3 cells around it so passing ants find it.
  for_each_cell_in_circle(g, b.x, b.y, 1.5f, [&](u32 c, float) {
    if (g.food_at[c].is_null() && passable(g.terrain[c])) put_food(g, c, h);
  });
  ++g.food_sources;
  return h;
}

namespace {

bool build_world(Game& g, std::string* err) {
  const Scenario& s = g.scenario;
  Capacity cap = resolved_capacity(s);
  ColonyEcs::Config cfg;
  cfg.max_entities = cap.entities;
  cfg.grid = ecs::ChunkGrid::make(s.width, s.height, s.chunk_size);
  cfg.pool_capacity = {cap.render_pieces, cap.collision_volumes, cap.sensors};
  g.ecs = std::make_unique<ColonyEcs>(cfg);
  g.width = s.width;
  g.height = s.height;
  size_t cells = size_t(g.width) * g.height;
  u32 chunks = g.ecs->grid().chunk_count();

  generate_terrain(g);
  for (size_t i = 0; i < s.colonies.size(); ++i) {
    const ColonySpec& c = s.colonies[i];
    if (!passable(g.terrain[cell_of(g, c.nest_x, c.nest_y)])) {
      if (err) *err = s.path + ": colonies[" + std::to_string(i) + "].nest: the nest is on " + terrain_name(g.terrain[cell_of(g, c.nest_x, c.nest_y)]);
      return false;
    }
  }
  g.fire.assign(cells, 0);
  g.scorch.assign(cells, 0);
  g.chunk_burning.assign(chunks, 0);
  g.food_at.assign(cells, Handle{});
  g.cell_flags.assign(cells, 0);
  g.occupancy.assign(cells, 0);
  g.danger.assign(cells, 0.0f);
  g.fields.assign(s.colonies.size() * 2, std::vector<float>(cells, 0.0f));
  g.dirty_chunks_stamp.assign(chunks, 0);
  g.chunk_simulated.assign(chunks, 0);
  g.chunk_scent.assign(chunks, 0);
  g.event_next.resize(s.events.size());
  for (size_t i = 0; i < s.events.size(); ++i) g.event_next[i] = s.events[i].tick;

  float rw = s.region_w > 0 ? s.region_w : float(g.width), rh = s.region_h > 0 ? s.region_h : float(g.height);
  set_sim_region(g, s.region_x, s.region_y, rw, rh);
  const ecs::ChunkGrid& grid = g.ecs->grid();
  for (u32 c = 0; c < chunks; ++c) {
    float x0 = float(grid.chunk_col(c) * grid.chunk_cells), y0 = float(grid.chunk_row(c) * grid.chunk_cells);
    float x1 = x0 + float(grid.chunk_cells), y1 = y0 + float(grid.chunk_cells);
    g.chunk_simulated[c] = x1 > g.region_x && x0 < g.region_x + g.region_w && y1 > g.region_y && y0 < g.region_y + g.region_h;
  }

  if (!create_tiles(g, err)) return false;

  // Colonies: queen at the nest, starting ants scattered around it.
  for (size_t i = 0; i < s.colonies.size(); ++i) {
    const ColonySpec& cs = s.colonies[i];
    Colony c;
    c.nest_x = cs.nest_x;
    c.nest_y = cs.nest_y;
    c.color = cs.color;
    c.food = cs.food;
    g.colonies.push_back(c);
  }
  for (size_t i = 0; i < s.colonies.size(); ++i) {
    const ColonySpec& cs = s.colonies[i];
    Colony& c = g.colonies[i];
    c.queen = spawn_ant(g, u8(i), Kind::Queen, cs.nest_x, cs.nest_y, 0);
    auto scatter = [&](Kind caste, u32 n) {
      for (u32 k = 0; k < n; ++k) {
        float a = g.rng.range(-kPi, kPi), r = cs.spread * std::sqrt(g.rng.next_float());
        float x = cs.nest_x + r * std::cos(a), y = cs.nest_y + r * std::sin(a);
        if (!passable(g.terrain[cell_of(g, x, y)])) x = cs.nest_x, y = cs.nest_y;
        spawn_ant(g, u8(i), caste, x, y, g.rng.range(-kPi, kPi));
      }
    };
    scatter(Kind::Worker, cs.workers);
    scatter(Kind::Soldier, cs.soldiers);
  }
  for (const FoodSpec& f : s.food) spawn_food(g, f.x, f.y, f.crumbs);
  return true;
}

}  // namespace

std::unique_ptr<Game> make_game(const Scenario& scenario, u64 seed, std::string* err) {
  auto g = std::make_unique<Game>();
  g->scenario = scenario;
  g->seed = seed;
  g->rng = Rng(mix64(seed), 1);
  g->event_rng = Rng(mix64(seed), 2);
  if (!build_world(*g, err)) return nullptr;
  // The spawn stream continues from here; building may have used some of it.
  g->rng = g->rng.split(3);
  return g;
}

// [SECTION] Terrain and fire

void rebuild_cell_flags(Game& g) {
  g.cell_flags.assign(g.terrain.size(), 0);
  g.chunk_scent.assign(g.ecs->grid().chunk_count(), 0);
  for (size_t i = 0; i < g.cell_flags.size(); ++i) {
    g.cell_flags[i] = u8((g.food_at[i].is_null() ? 0 : kCellFood) | (g.danger[i] > kDangerFelt ? kCellDanger : 0));
    bool trail = false;
    for (const auto& f : g.fields) trail = trail || f[i] > 0;
    u8 bits = u8((trail ? kChunkTrail : 0) | (g.danger[i] > 0 ? kChunkDanger : 0));
    if (bits) g.chunk_scent[g.ecs->grid().chunk_of_cell(u32(i % g.width), u32(i / g.width))] |= bits;
  }
}

void set_terrain(Game& g, u32 cell, Terrain t) {
  if (g.terrain[cell] == t) return;
  g.terrain[cell] = t;
  Record* r = g.ecs->find(g.tiles[cell]);
  if (r) g.ecs->component<RenderPiece>(*r, 0) = tile_piece(u8(t), g.fire[cell] > 0);
  mark_dirty(g, cell);
}

namespace {

void ignite_cell(Game& g, u32 cell) {
  if (g.terrain[cell] != Terrain::Grass || g.fire[cell] > 0) return;
  g.fire[cell] = u16(std::max(1u, g.scenario.rules.burn_ticks));
  g.burning.push_back(cell);
  u32 chunk = g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width);
  ++g.chunk_burning[chunk];
  Record* r = g.ecs->find(g.tiles[cell]);
  if (r) g.ecs->component<RenderPiece>(*r, 0) = tile_piece(u8(Terrain::Grass), true);
  mark_dirty(g, cell);
}

void extinguish_cell(Game& g, u32 cell) {
  g.fire[cell] = 0;
  u32 chunk = g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width);
  --g.chunk_burning[chunk];
  Record* r = g.ecs->find(g.tiles[cell]);
  if (r) g.ecs->component<RenderPiece>(*r, 0) = tile_piece(u8(g.terrain[cell]), false);
  mark_dirty(g, cell);
}

// Fire: every burning cell may light its grass neighbours, burns down, and becomes dirt.
// Ants standing in flames die; they are found chunk by chunk, only where fire is.
void simulate_fire(Game& g) {
  const Rules& rules = g.scenario.rules;
  size_t n = g.burning.size(), kept = 0;
  static constexpr int kDx[4] = {1, -1, 0, 0}, kDy[4] = {0, 0, 1, -1};
  for (size_t i = 0; i < n; ++i) {
    u32 cell = g.burning[i];
    if (g.terrain[cell] != Terrain::Grass) {  // painted over: the fire is out
      extinguish_cell(g, cell);
      continue;
    }
    int cx = int(cell % g.width), cy = int(cell / g.width);
    for (int k = 0; k < 4; ++k) {
      int nx = cx + kDx[k], ny = cy + kDy[k];
      if (!in_map(g, nx, ny)) continue;
      u32 nc = cell_index(g, nx, ny);
      if (g.terrain[nc] == Terrain::Grass && g.fire[nc] == 0 && hash_float(g.seed, g.tick, cell * 4 + u32(k), kSpread) < rules.fire_spread)
        ignite_cell(g, nc);
    }
    put_danger(g, cell, 1.0f);
    if (--g.fire[cell] == 0) {
      ++g.fire[cell];  // extinguish_cell expects a burning cell
      extinguish_cell(g, cell);
      set_terrain(g, cell, Terrain::Dirt);
      g.scorch[cell] = std::max<u8>(g.scorch[cell], 90);
      continue;
    }
    g.burning[kept++] = cell;
  }
  // Cells lit this tick were appended after n: keep them.
  for (size_t i = n; i < g.burning.size(); ++i) g.burning[kept++] = g.burning[i];
  g.burning.resize(kept);

  for (u32 c = 0; c < g.chunk_burning.size(); ++c) {
    if (g.chunk_burning[c] == 0) continue;
    for_each_mobile_in_chunk(g, c, [&](Record& r) {
      const Body& b = r.payload;
      if (is_ant(b.kind) && b.kind != Kind::Queen && g.fire[cell_of(g, b.x, b.y)] > 0) kill_ant(g, r, DeathCause::Fire);
    });
  }
}

}  // namespace

void ignite(Game& g, float x, float y, float radius) {
  for_each_cell_in_circle(g, x, y, std::max(radius, 0.5f), [&](u32 cell, float) { ignite_cell(g, cell); });
}

// [SECTION] Food: bites, pick-up, delivery

int carried_piece(ColonyEcs& w, const Record& r) {
  const auto& l = w.list<RenderPiece>(r);
  for (int k = int(l.added) - 1; k >= 0; --k)
    if (w.pool<RenderPiece>().items[l.slot[k]].part == Part::CarriedFood) return k;
  return -1;
}

namespace {

void forget_food(Game& g, const Body& food, Handle h) {
  if (food.kind != Kind::Food) {  // a corpse covers only the cell under it
    u32 c = cell_of(g, food.x, food.y);
    if (g.food_at[c] == h) put_food(g, c, {});
    return;
  }
  for_each_cell_in_circle(g, food.x, food.y, 1.5f, [&](u32 c, float) {
    if (g.food_at[c] == h) put_food(g, c, {});
  });
}

}  // namespace

bool take_food(Game& g, Record& ant) {
  Body& b = ant.payload;
  if (b.kind != Kind::Worker || b.carrying) return false;
  u32 cell = cell_of(g, b.x, b.y);
  Handle fh = g.food_at[cell];
  if (fh.is_null()) return false;
  ColonyEcs& w = *g.ecs;
  Record* food = w.find(fh);
  if (!food || (food->header.flags & ecs::kFlagDying)) {
    put_food(g, cell, {});
    return false;
  }
  // The carried piece goes into the slot reserved at birth, or a new one after a delivery.
  const auto& l = w.list<RenderPiece>(ant);
  if (l.added >= l.reserved && w.reserve<RenderPiece>(ant.header.handle, 1) != ecs::Result::Ok) return false;
  Body& f = food->payload;
  float value = 0;
  if (f.kind == Kind::Food) {
    // One bite: the source's last crumb piece goes.
    const auto& fl = w.list<RenderPiece>(*food);
    if (fl.added > 0) w.remove_one<RenderPiece>(fh, fl.added - 1u);
    value = kFoodPerBite;
    if (f.amount > 0) --f.amount;
    if (f.amount == 0) {
      forget_food(g, f, fh);
      w.queue_destroy(fh);
      --g.food_sources;
    }
  } else {  // a corpse is carried home whole
    value = float(f.amount);
    forget_food(g, f, fh);
    w.queue_destroy(fh);
  }
  w.add<RenderPiece>(ant.header.handle, carried_food_piece());
  b.carrying = 1;
  b.amount = u32(value);
  b.state = AntState::Returning;
  b.heading = wrap_angle(b.heading + kPi);
  b.scent = 1;
  return true;
}

bool deliver_food(Game& g, Record& ant) {
  Body& b = ant.payload;
  if (!b.carrying) return false;
  int k = carried_piece(*g.ecs, ant);
  if (k >= 0) g.ecs->remove_one<RenderPiece>(ant.header.handle, u32(k));
  Colony& c = g.colonies[b.colony];
  c.food += b.amount;
  c.delivered += b.amount;
  b.carrying = 0;
  b.amount = 0;
  b.state = AntState::Searching;
  b.heading = wrap_angle(b.heading + kPi);
  b.scent = 1;
  return true;
}

// [SECTION] Death, maiming, explosions

bool kill_ant(Game& g, Record& r, DeathCause cause) {
  if (r.header.flags & ecs::kFlagDying) return false;
  if (g.ecs->queue_destroy(r.header.handle) != ecs::Result::Ok) return false;
  Body& b = r.payload;
  Colony& c = g.colonies[b.colony];
  --c.alive;
  ++c.died.by_cause[size_t(cause)];
  if (b.kind == Kind::Queen) c.queen = {};
  bool leaves_corpse = b.kind != Kind::Queen && (cause == DeathCause::Combat || cause == DeathCause::Age || cause == DeathCause::Starvation);
  if (leaves_corpse) g.scratch_corpses.push_back({b.x, b.y, b.heading, b.colony, b.legs, b.kind});
  return true;
}

bool maim_ant(Game& g, Record& r, bool prefer_antenna, u32 side) {
  ColonyEcs& w = *g.ecs;
  Body& b = r.payload;
  Part want = (prefer_antenna && b.antennae > 0) || b.legs == 0 ? Part::Antenna : Part::Leg;
  const auto& l = w.list<RenderPiece>(r);
  int found = -1;
  for (u32 k = 0; k < l.added && found < 0; ++k) {
    const RenderPiece& p = w.pool<RenderPiece>().items[l.slot[k]];
    if (p.part == want && (side > 1 || p.side == side)) found = int(k);
  }
  if (found < 0 && side <= 1) return maim_ant(g, r, prefer_antenna, 2);  // none left on that side
  if (found < 0) return false;
  u8 lost_side = w.pool<RenderPiece>().items[l.slot[found]].side;
  w.remove_one<RenderPiece>(r.header.handle, u32(found));
  if (want == Part::Leg) {
    --b.legs;
  } else {
    --b.antennae;
    // The antenna was a sensor: the sensor on that side goes with it.
    const auto& sl = w.list<Sensor>(r);
    for (u32 k = 0; k < sl.added; ++k) {
      float a = w.pool<Sensor>().items[sl.slot[k]].angle;
      if ((lost_side == 0 && a > 0) || (lost_side == 1 && a < 0)) {
        w.remove_one<Sensor>(r.header.handle, k);
        break;
      }
    }
  }
  return true;
}

Blast apply_bomb(Game& g, float x, float y, float radius, float outer) {
  Blast blast{x, y, std::max(radius, 0.0f), std::max(outer, radius), g.tick, 0, 0};
  ColonyEcs& w = *g.ecs;
  const float r2 = blast.radius * blast.radius;
  for_each_mobile_in_radius(g, x, y, blast.outer, [&](Record& r) {
    Body& b = r.payload;
    if (r.header.flags & ecs::kFlagDying) return;
    float dx = b.x - x, dy = b.y - y;
    bool inner = dx * dx + dy * dy <= r2;
    if (b.kind == Kind::Corpse && inner) {
      forget_food(g, b, r.header.handle);
      w.queue_destroy(r.header.handle);
    } else if (is_ant(b.kind) && b.kind != Kind::Queen) {  // the queen lives underground
      if (inner) {
        blast.killed += kill_ant(g, r, DeathCause::Explosion);
        return;
      }
      // The ring: a leg torn off, and sometimes an antenna too.
      u32 id = r.header.handle.index;
      maim_ant(g, r, false, hash_u32(g.seed, g.tick, id, kMaimSide) & 1);
      if (hash_float(g.seed, g.tick, id, kMaim) < 0.5f) maim_ant(g, r, true, 2);
      ++blast.maimed;
      if (b.legs == 0) blast.killed += kill_ant(g, r, DeathCause::Explosion);
    }
  });
  for_each_cell_in_circle(g, x, y, blast.radius, [&](u32 cell, float d) {
    u8 s = u8(255.0f * std::clamp(1.1f - d / std::max(blast.radius, 0.5f), 0.2f, 1.0f));
    if (s > g.scorch[cell]) g.scorch[cell] = s, mark_dirty(g, cell);
    if (d < blast.radius * 0.6f && hash_float(g.seed, g.tick, cell, kIgnite) < 0.5f) ignite_cell(g, cell);
  });
  for_each_cell_in_circle(g, x, y, blast.outer * 1.5f, [&](u32 cell, float) { put_danger(g, cell, 1.0f); });
  g.blasts.push_back(blast);
  return blast;
}

void spawn_corpses(Game& g) {
  for (const Game::CorpseOrder& o : g.scratch_corpses) spawn_corpse(g, o);
  g.scratch_corpses.clear();
}

u32 apply_deaths(Game& g) {
  u32 n = g.ecs->apply_destructions();
  spawn_corpses(g);
  return n;
}

// [SECTION] Ants, fully simulated

namespace {

// Moves an ant that has crossed into another chunk: at once when it stays simulated
// (a relink, the record does not move), deferred to after the walk otherwise.
void note_chunk_change(Game& g, Record& r, u32 chunk) {
  if (chunk == r.header.chunk) return;
  if (g.chunk_simulated[chunk] && ecs::Tier(r.header.tier) == ecs::Tier::Simulated) g.ecs->move_chunk(r.header.handle, chunk);
  else g.scratch_moves.push_back({r.header.handle, chunk});
}

void apply_deferred_moves(Game& g) {
  ColonyEcs& w = *g.ecs;
  for (const Game::Move& m : g.scratch_moves) {
    if (w.move_chunk(m.h, m.chunk) != ecs::Result::Ok) continue;
    w.set_tier(m.h, tier_for_chunk(g, m.chunk));
  }
  g.scratch_moves.clear();
}

// Age and hunger; true when the ant died.
bool age_ant(Game& g, Record& r, u32 dt) {
  Body& b = r.payload;
  b.age += dt;
  if (b.age >= b.lifespan) return kill_ant(g, r, DeathCause::Age);
  if (g.colonies[b.colony].starving && hash_float(g.seed, g.tick, r.header.handle.index, kStarve) < 0.0008f * float(dt))
    return kill_ant(g, r, DeathCause::Starvation);
  return false;
}

// Turns toward (tx, ty) by at most `step` radians.
void steer_toward(Body& b, float c, float s, float tx, float ty, float step) {
  float cross = c * (ty - b.y) - s * (tx - b.x);
  b.heading += cross > 0 ? step : -step;
}

// One step forward; blocked by water, rock and the map edge (the ant turns instead).
// Returns the new cell, or kNone when blocked.
u32 step_forward(Game& g, Body& b, float c, float s, float dist, u32 turn_salt_id) {
  float nx = b.x + c * dist, ny = b.y + s * dist;
  if (nx < 0 || ny < 0 || nx >= float(g.width) || ny >= float(g.height) || !passable(g.terrain[u32(ny) * g.width + u32(nx)])) {
    b.heading = wrap_angle(b.heading + kPi * (0.5f + hash_float(g.seed, g.tick, turn_salt_id, kTurn)));
    return ecs::kNone;
  }
  b.x = nx;
  b.y = ny;
  return u32(ny) * g.width + u32(nx);
}

void fight(Game& g, Record& a, Record& e) {
  const BodyPlan& pa = body_plan(a.payload.kind);
  const BodyPlan& pe = body_plan(e.payload.kind);
  // Contact: the two bodies' first collision volumes overlap.
  ColonyEcs& w = *g.ecs;
  float ra = w.list<CollisionVolume>(a).added ? w.component<CollisionVolume>(a, 0).radius : 0.3f;
  float re = w.list<CollisionVolume>(e).added ? w.component<CollisionVolume>(e, 0).radius : 0.3f;
  float dx = a.payload.x - e.payload.x, dy = a.payload.y - e.payload.y;
  if (dx * dx + dy * dy > (ra + re) * (ra + re) * 2.0f) return;
  auto hit = [&](Record& victim, u16 damage) {
    Body& v = victim.payload;
    v.health = v.health > damage ? u16(v.health - damage) : 0;
    v.state = AntState::Fighting;
    if (v.health == 0) kill_ant(g, victim, DeathCause::Combat);
    else if (damage > 15 && hash_float(g.seed, g.tick, victim.header.handle.index, kMaim) < 0.25f && v.legs > 1)
      maim_ant(g, victim, false, 2);
  };
  hit(e, pa.attack);
  hit(a, pe.attack);
}

// The full model: sense, steer, move, lay scent, eat, deliver, fight.
void simulate_ant(Game& g, Record& r) {
  Body& b = r.payload;
  if (b.kind == Kind::Queen) {
    b.age += 1;
    b.last_tick = u32(g.tick);
    return;
  }
  if (age_ant(g, r, 1)) return;
  b.last_tick = u32(g.tick);
  ColonyEcs& w = *g.ecs;
  const u32 id = r.header.handle.index;
  const Colony& home = g.colonies[b.colony];
  bool returning = b.carrying != 0;

  // Sense: each sensor samples the trail field ahead at its angle; the best one wins.
  const float* trail = g.fields[b.colony * 2 + u32(returning ? Field::ToHome : Field::ToFood)].data();
  const auto& sl = w.list<Sensor>(r);
  Sensor* sensors = w.pool<Sensor>().items.get();
  float best = 0, best_angle = 0;
  // Ants sense on alternate ticks and lay scent on the others (half the random reads).
  const bool sense_tick = ((id + u32(g.tick)) & 1) == 0;
  for (u32 k = 0; sense_tick && k < sl.added; ++k) {
    Sensor& sn = sensors[sl.slot[k]];
    float a = b.heading + sn.angle;
    sn.reading = trail[cell_of(g, b.x + fast_cos(a) * sn.reach, b.y + fast_sin(a) * sn.reach)];
    if (sn.reading > best) best = sn.reading, best_angle = sn.angle;
  }
  float wander = hash_float(g.seed, g.tick, id, kWander) - 0.5f;
  b.heading += best > 0.01f ? best_angle * 0.6f + wander * 0.2f : wander * 0.45f;
  float c = fast_cos(b.heading), s = fast_sin(b.heading);
  // Danger (explosions, fire) is felt just ahead: the ant turns back.
  if (g.cell_flags[cell_of(g, b.x + c * 2.0f, b.y + s * 2.0f)] & kCellDanger) {
    b.heading += kPi * (0.75f + 0.5f * wander);
    b.state = AntState::Fleeing;
  }
  if (returning) {
    steer_toward(b, c, s, home.nest_x, home.nest_y, 0.08f);
  } else if (b.kind == Kind::Soldier) {
    // Soldiers patrol a ring around the nest: pulled home when they stray too far.
    float dx = b.x - home.nest_x, dy = b.y - home.nest_y;
    if (dx * dx + dy * dy > 40.0f * 40.0f) steer_toward(b, c, s, home.nest_x, home.nest_y, 0.1f);
  }
  b.heading = wrap_angle(b.heading);
  c = fast_cos(b.heading);
  s = fast_sin(b.heading);

  // Move: speed drops with every lost leg.
  float dist = b.speed * float(b.legs) / 6.0f;
  u32 old_cell = b.cell;
  u32 cell = step_forward(g, b, c, s, dist, id);
  if (cell == ecs::kNone) cell = old_cell;
  b.cell = cell;

  // Scent: to-home while searching, to-food while carrying; fades with distance travelled.
  const u32 chunk = w.grid().chunk_at(b.x, b.y);
  if (!sense_tick) {
    float& trail_here = field(g, b.colony, returning ? Field::ToFood : Field::ToHome, cell);
    float lay = b.scent * g.scenario.rules.deposit;
    if (lay > trail_here) trail_here = lay, g.chunk_scent[chunk] |= kChunkTrail;
  }
  b.scent *= kScentFade;

  // Food and home.
  if (!returning && b.kind == Kind::Worker && (g.cell_flags[cell] & kCellFood)) take_food(g, r);
  if (returning) {
    float dx = b.x - home.nest_x, dy = b.y - home.nest_y;
    if (dx * dx + dy * dy < kNestRadius * kNestRadius) deliver_food(g, r);
  } else {
    float dx = b.x - home.nest_x, dy = b.y - home.nest_y;
    if (dx * dx + dy * dy < kNestRadius * kNestRadius) b.scent = 1;
  }
  if (b.state == AntState::Fighting || b.state == AntState::Fleeing) b.state = b.carrying ? AntState::Returning : AntState::Searching;

  // Combat: the ant already standing in this cell this tick, if it is an enemy.
  // The entry packs the tick stamp, the colony (2 bits) and the entity index (30 bits), so
  // only an enemy contact touches the other ant's record.
  u64 stamp = u64(u32(g.tick + 1)) << 32;
  u64& occ = g.occupancy[cell];
  if ((occ & 0xFFFFFFFF00000000ull) == stamp && u32(occ >> 30 & 3) != b.colony) {
    Record& other = *as_record(w.store().record_of_index(u32(occ) & 0x3FFFFFFFu));
    if (!(other.header.flags & ecs::kFlagDying)) fight(g, r, other);
  }
  if (!(r.header.flags & ecs::kFlagDying)) occ = stamp | u64(b.colony) << 30 | id;

  note_chunk_change(g, r, chunk);
}

// fn(Record&) for every simulated record in storage order, prefetching the sensors of
// the record a few places ahead (sensor entries are scattered through their pool).
template <class Fn>
void for_each_simulated_prefetching(Game& g, Fn&& fn) {
  ecs::EntityStore& st = g.ecs->store();
  const ecs::BlockList& list = st.simulated();
  const u32 per = st.block_records();
  const Sensor* sensors = g.ecs->pool<Sensor>().items.get();
  struct Cursor {
    u32 block, offset, left;
  } lead{list.first, 0, list.count}, lag = lead;
  auto advance = [&](Cursor& c) {
    if (++c.offset == per) c.offset = 0, c.block = st.next_block(c.block);
    --c.left;
  };
  auto prefetch = [&](const Cursor& c) {
    const auto& sl = g.ecs->list<Sensor>(*as_record(st.at(c.block, c.offset)));
    if (sl.added) __builtin_prefetch(&sensors[sl.slot[0]]);
  };
  for (int k = 0; k < 8 && lead.left; ++k) prefetch(lead), advance(lead);
  while (lag.left) {
    if (lead.left) prefetch(lead), advance(lead);
    fn(*as_record(st.at(lag.block, lag.offset)));
    advance(lag);
  }
}

void simulate_ants(Game& g) {
  for_each_simulated_prefetching(g, [&](Record& r) {
    if (is_ant(r.payload.kind) && !(r.header.flags & ecs::kFlagDying)) simulate_ant(g, r);
  });
  apply_deferred_moves(g);
}

// [SECTION] Ants, dormant (cheaper model, every dormant_period ticks)

// Dormant ants wander (carriers head home), age, starve, eat and deliver, and cross
// chunks; they lay no scent and do not fight. Corpses rot here too.
void advance_dormant(Game& g, Record& r) {
  Body& b = r.payload;
  if (r.header.flags & ecs::kFlagDying) return;
  u32 dt = u32(g.tick) - b.last_tick;
  if (dt == 0) return;
  b.last_tick = u32(g.tick);
  if (b.kind == Kind::Corpse) {
    b.age += dt;
    if (b.age >= g.scenario.rules.corpse_ticks) {
      forget_food(g, b, r.header.handle);
      g.ecs->queue_destroy(r.header.handle);
    }
    return;
  }
  if (!is_ant(b.kind)) return;
  if (b.kind == Kind::Queen) {
    b.age += dt;
    return;
  }
  if (age_ant(g, r, dt)) return;
  const u32 id = r.header.handle.index;
  const Colony& home = g.colonies[b.colony];
  b.heading = wrap_angle(b.heading + (hash_float(g.seed, g.tick, id, kDormantWalk) - 0.5f) * 1.2f);
  float c = fast_cos(b.heading), s = fast_sin(b.heading);
  if (b.carrying) {
    steer_toward(b, c, s, home.nest_x, home.nest_y, 0.6f);
    b.heading = wrap_angle(b.heading);
    c = fast_cos(b.heading);
    s = fast_sin(b.heading);
  }
  // The step is taken in halves so thin water is not jumped over. Out of sight, ants
  // without food mill about (a slower net drift); carriers head home at full speed.
  float pace = b.carrying ? 0.5f : 0.2f;
  float dist = b.speed * float(b.legs) / 6.0f * float(std::min(dt, 64u)) * pace;
  for (int half = 0; half < 2; ++half)
    if (step_forward(g, b, c, s, dist, id) == ecs::kNone) break;
  b.cell = cell_of(g, b.x, b.y);
  if (!b.carrying && b.kind == Kind::Worker && (g.cell_flags[b.cell] & kCellFood)) take_food(g, r);
  float dx = b.x - home.nest_x, dy = b.y - home.nest_y;
  if (b.carrying && dx * dx + dy * dy < kNestRadius * kNestRadius * 4) deliver_food(g, r);
  note_chunk_change(g, r, g.ecs->grid().chunk_at(b.x, b.y));
}

void simulate_dormant(Game& g) {
  u32 period = std::max(1u, g.scenario.rules.dormant_period);
  u32 phase = u32(g.tick % period);
  for (u32 c = phase; c < g.chunk_simulated.size(); c += period) {
    for_each_dormant_mobile(g, c, [&](Record& r) {
      if (r.payload.kind != Kind::Food) advance_dormant(g, r);
    });
    apply_deferred_moves(g);
  }
}

// [SECTION] Pheromone evaporation

// Each tick an eighth of the chunks evaporate eight ticks' worth (branch-free, vectorises).
void evaporate(Game& g) {
  constexpr u32 kSpread = 8;
  const ecs::ChunkGrid& grid = g.ecs->grid();
  const float keep = std::pow(1.0f - g.scenario.rules.evaporation, float(kSpread));
  const float keep_danger = std::pow(0.97f, float(kSpread));
  u32 phase = u32(g.tick % kSpread);
  // Returns the largest value left, so a chunk whose scent is all gone can be skipped.
  auto decay_rows = [&](float* f, u32 x0, u32 x1, u32 y0, u32 y1, float k) {
    float left = 0;
    for (u32 y = y0; y < y1; ++y) {
      float* row = f + size_t(y) * g.width;
      for (u32 x = x0; x < x1; ++x) {
        float v = row[x] * k;
        v = v < kScentFloor ? 0.0f : v;
        row[x] = v;
        left = left > v ? left : v;
      }
    }
    return left;
  };
  for (u32 c = phase; c < grid.chunk_count(); c += kSpread) {
    const u8 bits = g.chunk_scent[c];
    if (!bits) continue;
    u32 x0 = grid.chunk_col(c) * grid.chunk_cells, y0 = grid.chunk_row(c) * grid.chunk_cells;
    u32 x1 = std::min(g.width, x0 + grid.chunk_cells), y1 = std::min(g.height, y0 + grid.chunk_cells);
    if (bits & kChunkTrail) {
      float left = 0;
      for (auto& f : g.fields) left = std::max(left, decay_rows(f.data(), x0, x1, y0, y1, keep));
      if (left == 0) g.chunk_scent[c] &= u8(~kChunkTrail);
    }
    if (!(bits & kChunkDanger)) continue;
    if (decay_rows(g.danger.data(), x0, x1, y0, y1, keep_danger) == 0) g.chunk_scent[c] &= u8(~kChunkDanger);
    for (u32 y = y0; y < y1; ++y)
      for (u32 x = x0; x < x1; ++x) {
        size_t i = size_t(y) * g.width + x;
        g.cell_flags[i] = u8((g.cell_flags[i] & ~kCellDanger) | (g.danger[i] > kDangerFelt ? kCellDanger : 0));
      }
  }
}

// [SECTION] Simulation region and tiers

// Chunks that entered the region bring their ants into the simulated store; chunks
// that left it send theirs to chunk-local storage.
void update_tiers(Game& g) {
  ColonyEcs& w = *g.ecs;
  const ecs::ChunkGrid& grid = w.grid();
  for (u32 c = 0; c < grid.chunk_count(); ++c) {
    float x0 = float(grid.chunk_col(c) * grid.chunk_cells), y0 = float(grid.chunk_row(c) * grid.chunk_cells);
    float x1 = x0 + float(grid.chunk_cells), y1 = y0 + float(grid.chunk_cells);
    u8 want = x1 > g.region_x && x0 < g.region_x + g.region_w && y1 > g.region_y && y0 < g.region_y + g.region_h;
    if (want == g.chunk_simulated[c]) continue;
    g.chunk_simulated[c] = want;
    g.scratch_handles.clear();
    if (want) {
      for_each_dormant_mobile(g, c, [&](Record& r) {
        if (is_ant(r.payload.kind)) g.scratch_handles.push_back(r.header.handle);
      });
      for (Handle h : g.scratch_handles) w.set_tier(h, ecs::Tier::Simulated);
    } else {
      for (u32 i = w.store().sim_head(c); i != 0; i = w.store().dir(i).sim_next)
        g.scratch_handles.push_back(as_record(w.store().record_of_index(i))->header.handle);
      for (Handle h : g.scratch_handles) w.set_tier(h, ecs::Tier::Dormant);
    }
  }
  g.scratch_handles.clear();
}

}  // namespace

void set_sim_region(Game& g, float x, float y, float w, float h) {
  g.region_x = x;
  g.region_y = y;
  g.region_w = std::max(w, 0.0f);
  g.region_h = std::max(h, 0.0f);
}

// [SECTION] Colonies, commands, scenario events

namespace {

// Upkeep, hunger and the queen's eggs.
void simulate_colonies(Game& g) {
  const Rules& rules = g.scenario.rules;
  for (size_t i = 0; i < g.colonies.size(); ++i) {
    Colony& c = g.colonies[i];
    c.food -= double(c.alive) * rules.upkeep;
    if (c.food < 0) c.food = 0;
    c.starving = rules.upkeep > 0 && c.food <= 0 && c.alive > 0;
    if (c.queen.is_null() || rules.lay_interval == 0 || g.tick % rules.lay_interval != 0) continue;
    // The queen keeps ten seconds of upkeep in store before she lays.
    double reserve = double(c.alive) * rules.upkeep * 10 * kTicksPerSecond;
    if (c.food < rules.ant_cost + reserve || (rules.max_population && c.alive >= rules.max_population)) continue;
    Kind caste = g.rng.next_float() < rules.soldier_fraction ? Kind::Soldier : Kind::Worker;
    float a = g.rng.range(-kPi, kPi);
    if (!spawn_ant(g, u8(i), caste, c.nest_x + std::cos(a), c.nest_y + std::sin(a), a).is_null()) c.food -= rules.ant_cost;
  }
}

void spawn_group(Game& g, u8 colony, Kind caste, float x, float y, float radius, u32 count) {
  if (colony >= g.colonies.size()) return;
  if (caste != Kind::Soldier) caste = Kind::Worker;
  for (u32 k = 0; k < count; ++k) {
    float a = g.rng.range(-kPi, kPi), r = radius * std::sqrt(g.rng.next_float());
    float px = x + r * std::cos(a), py = y + r * std::sin(a);
    if (px < 0 || py < 0 || px >= float(g.width) || py >= float(g.height) || !passable(g.terrain[cell_of(g, px, py)])) px = x, py = y;
    spawn_ant(g, colony, caste, px, py, g.rng.range(-kPi, kPi));
  }
}

void kill_percent(Game& g, u32 percent) {
  float p = float(std::min(percent, 100u)) / 100.0f;
  ColonyEcs& w = *g.ecs;
  auto maybe_kill = [&](Record& r) {
    if (is_ant(r.payload.kind) && r.payload.kind != Kind::Queen && hash_float(g.seed, g.tick, r.header.handle.index, kKill) < p)
      kill_ant(g, r, DeathCause::Explosion);
  };
  w.for_each_simulated(maybe_kill);
  for (u32 c = 0; c < w.grid().chunk_count(); ++c) for_each_dormant_mobile(g, c, maybe_kill);
}

void apply_command(Game& g, Command cmd) {
  // Commands may come from a file (replay): anything not finite is ignored, the rest clamped.
  if (!std::isfinite(cmd.x) || !std::isfinite(cmd.y) || !std::isfinite(cmd.radius)) return;
  cmd.x = std::clamp(cmd.x, -1e6f, 1e6f);
  cmd.y = std::clamp(cmd.y, -1e6f, 1e6f);
  cmd.radius = std::clamp(cmd.radius, 0.0f, 4096.0f);
  switch (cmd.kind) {
    case CommandKind::Bomb: {
      float r = cmd.radius > 0 ? cmd.radius : kBombRadius;
      apply_bomb(g, cmd.x, cmd.y, r, r * 1.6f);
      break;
    }
    case CommandKind::BigBomb: {
      float r = cmd.radius > 0 ? cmd.radius : kBigBombRadius;
      apply_bomb(g, cmd.x, cmd.y, r, r * 1.4f);
      break;
    }
    case CommandKind::Ignite: ignite(g, cmd.x, cmd.y, cmd.radius > 0 ? cmd.radius : 1.5f); break;
    case CommandKind::PlaceFood: spawn_food(g, cmd.x, cmd.y, cmd.count ? cmd.count : 24); break;
    case CommandKind::PaintTerrain:
      if (cmd.terrain < Terrain::Count)
        for_each_cell_in_circle(g, cmd.x, cmd.y, std::max(cmd.radius, 0.5f), [&](u32 cell, float) { set_terrain(g, cell, cmd.terrain); });
      break;
    case CommandKind::SpawnAnts: spawn_group(g, cmd.colony, cmd.caste, cmd.x, cmd.y, std::max(cmd.radius, 1.0f), std::min(cmd.count, 1'000'000u)); break;
    case CommandKind::KillPercent: kill_percent(g, cmd.count); break;
    case CommandKind::Count: break;
  }
}

void run_events(Game& g) {
  const auto& events = g.scenario.events;
  for (size_t i = 0; i < events.size(); ++i) {
    if (g.event_next[i] != g.tick) continue;
    const EventSpec& e = events[i];
    u64 next = e.every ? g.tick + e.every : ~u64(0);
    g.event_next[i] = next > e.until ? ~u64(0) : next;
    float x = e.x, y = e.y;
    if (e.spread > 0) {
      float a = g.event_rng.range(-kPi, kPi), r = e.spread * std::sqrt(g.event_rng.next_float());
      x = std::clamp(x + r * std::cos(a), 0.0f, float(g.width) - 0.01f);
      y = std::clamp(y + r * std::sin(a), 0.0f, float(g.height) - 0.01f);
    }
    switch (e.kind) {
      case EventKind::Bomb: apply_bomb(g, x, y, e.radius, e.outer > 0 ? e.outer : e.radius * 1.5f); break;
      case EventKind::Fire: ignite(g, x, y, e.radius); break;
      case EventKind::Spawn: spawn_group(g, e.colony, e.caste, x, y, std::max(e.radius, 1.0f), e.count); break;
      case EventKind::Food: spawn_food(g, x, y, e.count ? e.count : 24); break;
    }
  }
}

// Keeps the scenario's number of random food sources on the map.
void replenish_food(Game& g) {
  const RandomFood& rf = g.scenario.random_food;
  for (int tries = 0; g.food_sources < rf.count && tries < 4; ++tries) {
    float x = g.rng.range(0, float(g.width)), y = g.rng.range(0, float(g.height));
    u32 span = rf.crumbs_max > rf.crumbs_min ? rf.crumbs_max - rf.crumbs_min + 1 : 1;
    spawn_food(g, x, y, rf.crumbs_min + g.rng.below(span));
  }
}

}  // namespace

void queue_command(Game& g, const Command& c) { g.pending_commands.push_back(c); }

// [SECTION] The tick

void simulate_tick(Game& g) {
  SystemTimes& t = g.times;
  t.last_ms.fill(0);
  ColonyEcs& w = *g.ecs;
  w.begin_tick();
  {
    ScopedTimer timer(t, SystemTimes::Regions);
    update_tiers(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Simulate);
    for (const Command& c : g.pending_commands) apply_command(g, c);
    g.pending_commands.clear();
    run_events(g);
    simulate_colonies(g);
    simulate_ants(g);
    replenish_food(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Dormant);
    simulate_dormant(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Fire);
    simulate_fire(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Pheromones);
    evaporate(g);
  }
  {
    ScopedTimer timer(t, SystemTimes::Destroy);
    w.apply_destructions();
  }
  {
    ScopedTimer timer(t, SystemTimes::Corpses);
    spawn_corpses(g);
  }
  while (!g.blasts.empty() && g.blasts.front().tick + 5 * kTicksPerSecond < g.tick) g.blasts.erase(g.blasts.begin());
  ++g.tick;
}

// [SECTION] Hash and validation

namespace {

struct Hasher {
  XXH3_state_t* s = XXH3_createState();
  Hasher() { XXH3_64bits_reset(s); }
  ~Hasher() { XXH3_freeState(s); }
  void bytes(const void* p, size_t n) { XXH3_64bits_update(s, p, n); }
  template <class T> void pod(const T& v) { bytes(&v, sizeof v); }
  template <class T> void vec(const std::vector<T>& v) {
    pod(v.size());
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  u64 digest() { return XXH3_64bits_digest(s); }
};

// A record's hashed bytes are gathered first and fed to the hasher in one call.
struct RecordBytes {
  std::array<std::byte, 2048> buf;
  size_t n = 0;
  template <class T> void put(const T& v) {
    std::memcpy(buf.data() + n, &v, sizeof v);
    n += sizeof v;
  }
};

template <class C>
void gather_components(RecordBytes& out, ColonyEcs& w, const Record& r) {
  const auto& l = w.list<C>(r);
  out.put(l.reserved);
  out.put(l.added);
  for (u32 k = 0; k < l.added; ++k) out.put(w.pool<C>().items[l.slot[k]]);
}
static_assert(sizeof(Body) + 64 + 32 * sizeof(RenderPiece) + 8 * sizeof(CollisionVolume) + 4 * sizeof(Sensor) <= 2048);

void hash_record(Hasher& h, ColonyEcs& w, const Record& r) {
  RecordBytes b;
  b.put(r.header.handle);
  b.put(r.header.chunk);
  b.put(r.header.kind);
  b.put(r.header.tier);
  b.put(r.header.flags);
  b.put(r.payload);
  gather_components<RenderPiece>(b, w, r);
  gather_components<CollisionVolume>(b, w, r);
  gather_components<Sensor>(b, w, r);
  h.bytes(b.buf.data(), b.n);
}

}  // namespace

u64 state_hash(const Game& gc) {
  Game& g = const_cast<Game&>(gc);  // walking the store needs non-const access; nothing changes
  Hasher h;
  h.pod(g.seed);
  h.pod(g.tick);
  h.pod(g.width);
  h.pod(g.height);
  h.vec(g.terrain);
  h.vec(g.fire);
  h.vec(g.scorch);
  h.vec(g.burning);
  h.vec(g.chunk_burning);
  for (const auto& f : g.fields) h.vec(f);
  h.vec(g.danger);
  h.vec(g.food_at);
  h.pod(g.food_sources);
  for (const Colony& c : g.colonies) {
    h.pod(c.nest_x), h.pod(c.nest_y), h.pod(c.color), h.pod(c.queen), h.pod(c.food);
    h.pod(c.alive), h.pod(c.born), h.pod(c.died.by_cause), h.pod(c.delivered), h.pod(c.starving);
  }
  h.pod(g.rng);
  h.pod(g.event_rng);
  h.vec(g.event_next);
  h.pod(g.region_x), h.pod(g.region_y), h.pod(g.region_w), h.pod(g.region_h);
  h.vec(g.chunk_simulated);
  h.pod(g.spawn_refused);
  for (const Command& c : g.pending_commands) {
    h.pod(c.kind), h.pod(c.x), h.pod(c.y), h.pod(c.radius), h.pod(c.count), h.pod(c.colony), h.pod(c.caste), h.pod(c.terrain);
  }
  ColonyEcs& w = *g.ecs;
  // Records in storage order: the order the systems visit them in affects the future.
  w.for_each_simulated([&](Record& r) { hash_record(h, w, r); });
  for (u32 c = 0; c < w.grid().chunk_count(); ++c) w.for_each_dormant_in_chunk(c, [&](Record& r) { hash_record(h, w, r); });
  return h.digest();
}

std::vector<ecs::Violation> validate_game(Game& g, size_t max_reports) {
  std::vector<ecs::Violation> out = g.ecs->validate(max_reports);
  auto report = [&](Handle h, std::string what) {
    if (out.size() < max_reports) out.push_back({"", ecs::kNone, h, std::move(what)});
  };
  // Game-level invariants: colony counts match the ants in storage, every ant sits in
  // the tier its chunk calls for, and the food grid names only live food.
  ColonyEcs& w = *g.ecs;
  std::vector<u64> counted(g.colonies.size(), 0);
  auto check = [&](Record& r) {
    const Body& b = r.payload;
    if (!is_ant(b.kind) || (r.header.flags & ecs::kFlagDying)) return;
    if (b.colony < counted.size()) ++counted[b.colony];
    ecs::Tier want = tier_for_chunk(g, r.header.chunk);
    if (ecs::Tier(r.header.tier) != want) report(r.header.handle, std::string("ant in the wrong tier for chunk ") + std::to_string(r.header.chunk));
    if (r.header.chunk != w.grid().chunk_at(b.x, b.y)) report(r.header.handle, "ant's chunk is not the chunk under it");
  };
  w.for_each_simulated(check);
  for (u32 c = 0; c < w.grid().chunk_count(); ++c) w.for_each_dormant_in_chunk(c, check);
  // The tile prefix the mobile walks rely on: each chunk's dormant storage starts with
  // exactly its tiles.
  for (u32 c = 0; c < w.grid().chunk_count(); ++c) {
    u32 index = 0, tiles = tiles_in_chunk(g, c);
    bool ok = true;
    w.for_each_dormant_in_chunk(c, [&](Record& r) { ok = ok && ((index++ < tiles) == (r.payload.kind == Kind::Tile)); });
    if (!ok) report({}, "chunk " + std::to_string(c) + " dormant storage does not start with exactly its " + std::to_string(tiles) + " tiles");
  }
  for (size_t i = 0; i < g.colonies.size(); ++i)
    if (counted[i] != g.colonies[i].alive)
      report({}, "colony " + std::to_string(i) + " counts " + std::to_string(g.colonies[i].alive) + " ants, storage holds " + std::to_string(counted[i]));
  for (size_t cell = 0; cell < g.food_at.size(); ++cell) {
    Handle h = g.food_at[cell];
    if (h.is_null()) continue;
    const Record* r = w.find(h);
    if (!r || (r->payload.kind != Kind::Food && r->payload.kind != Kind::Corpse)) report(h, "food grid cell " + std::to_string(cell) + " names no live food");
  }
  g.invariant_violations += out.size();
  return out;
}

}  // namespace colony
