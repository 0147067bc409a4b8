// world_building.cpp — making a world from a scenario (terrain, tiles, colonies, food) and
// spawning into it: ants dressed from their body plans, food sources, corpses.
//
// Table of contents
//   [SECTION] World building: terrain, tiles, colonies, food
//   [SECTION] Spawning: ants, food, corpses
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <new>

#include "files.h"
#include "sim_internal.h"

namespace colony {

// [SECTION] World building: terrain, tiles, colonies, food

namespace {

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
  paint_shapes(s, g.terrain);
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
        if (err)
          *err = g.scenario.path + ": capacity: no room for the map's " + std::to_string(g.terrain.size()) + " tiles";
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
  const std::array<u32, 3> counts = {u32(plan.pieces.size()) + plan.spare_pieces, u32(plan.volumes.size()),
                                     u32(plan.sensors.size())};
  if (w.reserve_all<RenderPiece, CollisionVolume, Sensor>(h, counts) != ecs::Result::Ok) {
    w.destroy(h);
    return false;
  }
  w.add_each<RenderPiece>(h, u32(plan.pieces.size()), [&](RenderPiece& p, u32 k) {
    p = plan.pieces[k];
    float f = is_paired_limb(p.part)                                    ? 0.55f
              : p.part == Part::Wing                                    ? 1.6f
              : p.part == Part::Abdomen || p.part == Part::QueenAbdomen ? 0.85f
                                                                        : 1.0f;
    p.color = shade(tint, f);
    if (p.part == Part::Wing) p.color = (p.color & 0x00FFFFFFu) | 0x80000000u;
  });
  w.add<CollisionVolume>(h, plan.volumes);
  w.add<Sensor>(h, plan.sensors);
  return true;
}

}  // namespace

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
  b.lifespan = caste == Kind::Queen
                   ? ~0u
                   : u32(float(base) * (0.75f + 0.5f * hash_float(g.seed, g.tick, index_hint, kLifespan)));
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

u32 spawn_group(Game& g, u8 colony, Kind caste, float x, float y, float radius, u32 count) {
  if (colony >= g.colonies.size()) return 0;
  if (caste != Kind::Soldier) caste = Kind::Worker;
  for (u32 k = 0; k < count; ++k) {
    float a = g.rng.range(-kPi, kPi), r = radius * std::sqrt(g.rng.next_float());
    float px = x + r * std::cos(a), py = y + r * std::sin(a);
    if (!in_map(g, px, py) || !passable(g.terrain[cell_of(g, px, py)])) px = x, py = y;
    const float heading = g.rng.range(-kPi, kPi);
    if (!passable(g.terrain[cell_of(g, px, py)])) continue;  // the centre itself is water or rock
    // The pools or the store have no room for this ant, so none for the rest of the group
    // (one caste, one shape): they are refused together, not tried one by one.
    if (spawn_ant(g, colony, caste, px, py, heading).is_null()) {
      g.spawn_refused += count - k - 1;
      return count - k;
    }
  }
  return 0;
}

Handle spawn_food(Game& g, float x, float y, u32 crumbs) {
  crumbs = std::clamp(crumbs, 1u, RenderPiece::kMaxPerEntity - 1);
  if (!in_map(g, x, y)) return {};
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
  if (w.reserve_all<RenderPiece, CollisionVolume>(h, {crumbs, 1}) != ecs::Result::Ok) {
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

void size_scratch(Game& g) {
  const size_t cells = size_t(g.width) * g.height, entities = g.ecs->max_entities();
  g.occupancy.assign(cells, 0);
  g.burning.reserve(cells);
  g.scratch_moves.reserve(entities);
  g.scratch_stands.reserve(entities);
  g.scratch_handles.reserve(entities);
  g.scratch_corpses.reserve(entities);
  g.blasts.reserve(kMaxBlasts);
  g.sparks.reserve(kMaxSparks);
  size_ant_passes(g);
}

namespace {

bool fail(std::string* err, std::string text) {
  if (err) *err = std::move(text);
  return false;
}

bool build_world(Game& g, std::string* err) {
  const Scenario& s = g.scenario;
  Capacity cap = resolved_capacity(s);
  ColonyEcs::Config cfg;
  cfg.max_entities = cap.entities;
  cfg.grid = ecs::ChunkGrid::make(s.width, s.height, s.chunk_size);
  cfg.pool_capacity = cap.pools;
  cfg.journal_steps = kJournalSteps, cfg.journal_victims = kJournalVictims, cfg.journal_releases = kJournalReleases;
  g.ecs = std::make_unique<ColonyEcs>(cfg);
  g.width = s.width;
  g.height = s.height;
  size_t cells = size_t(g.width) * g.height;
  u32 chunks = g.ecs->grid().chunk_count();

  generate_terrain(g);
  for (size_t i = 0; i < s.colonies.size(); ++i) {
    const ColonySpec& c = s.colonies[i];
    const Terrain t = g.terrain[cell_of(g, c.nest_x, c.nest_y)];
    if (!passable(t))
      return fail(err,
                  printable(s.path) + ": colonies[" + std::to_string(i) + "].nest: the nest is in " + terrain_name(t));
  }
  g.fire.assign(cells, 0);
  g.scorch.assign(cells, 0);
  g.chunk_burning.assign(chunks, 0);
  g.food_at.assign(cells, Handle{});
  g.cell_flags.assign(cells, 0);
  size_scratch(g);
  g.danger.assign(cells, 0.0f);
  g.fields.assign(s.colonies.size() * 2, std::vector<float>(cells, 0.0f));
  g.dirty_chunks_stamp.assign(chunks, 0);
  g.chunk_simulated.assign(chunks, 0);
  g.chunk_scent.assign(chunks, 0);
  g.event_next.resize(s.events.size());
  for (size_t i = 0; i < s.events.size(); ++i) g.event_next[i] = event_next_due(s.events[i], g.tick);

  // A region without a width (or height) spans the whole map that way, wherever its x (or y).
  const bool whole_w = s.region_w <= 0, whole_h = s.region_h <= 0;
  set_sim_region(g, whole_w ? 0 : s.region_x, whole_h ? 0 : s.region_y, whole_w ? float(g.width) : s.region_w,
                 whole_h ? float(g.height) : s.region_h);
  for (u32 c = 0; c < chunks; ++c) g.chunk_simulated[c] = chunk_in_region(g, c);

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
    spawn_group(g, u8(i), Kind::Worker, cs.nest_x, cs.nest_y, cs.spread, cs.workers);
    spawn_group(g, u8(i), Kind::Soldier, cs.nest_x, cs.nest_y, cs.spread, cs.soldiers);
  }
  // Starting food, and spawn events that always land on one cell, must find land once the
  // noise has been drawn (the scenario's own check knows only the base and the shapes).
  for (size_t i = 0; i < s.food.size(); ++i) {
    const FoodSpec& f = s.food[i];
    const u32 cell = cell_of(g, f.x, f.y);
    const std::string where = printable(s.path) + ": food[" + std::to_string(i) + "].at: ";
    if (!passable(g.terrain[cell])) return fail(err, where + "the food is in " + terrain_name(g.terrain[cell]));
    if (!g.food_at[cell].is_null())
      return fail(err, where + "the cell already holds an earlier entry's food (food covers the 3x3 cells around it)");
    if (spawn_food(g, f.x, f.y, f.crumbs).is_null()) return fail(err, where + "no room for the food in the pools");
  }
  for (size_t i = 0; i < s.events.size(); ++i) {
    const EventSpec& e = s.events[i];
    const Terrain t = g.terrain[cell_of(g, e.x, e.y)];
    if (e.kind == EventKind::Spawn && e.spread == 0 && !passable(t))
      return fail(err, printable(s.path) + ": events[" + std::to_string(i) + "].at: the ants would appear in " +
                           terrain_name(t));
  }
  return true;
}

}  // namespace

namespace {

// The bytes a world of scenario s takes holding n's entities, pieces, volumes and sensors,
// with the scent fields of `colonies` colonies.
u64 world_bytes_holding(const Scenario& s, const StartingNeeds& n, u64 colonies) {
  Capacity cap = resolved_capacity(s);
  const u64 cells = u64(s.width) * s.height;
  const u64 row = (sizeof(ecs::DirEntry) + sizeof(ColonyEcs::Lists) + 63) / 64 * 64;
  const u64 per_entity = row + sizeof(ecs::SimLink);
  const u64 back = sizeof(ecs::BackPointer);
  // Records: the tiles sit in their chunk's blocks, a whole block at least per chunk (with
  // small chunks most of a block stays empty); the rest as many as there are.
  const ecs::ChunkGrid grid = ecs::ChunkGrid::make(s.width, s.height, s.chunk_size);
  const u64 side = grid.chunk_cells, block = ColonyEcs::Config{}.block_records;
  const u64 chunks = u64(grid.chunks_x) * grid.chunks_y;
  const u64 tile_records = chunks * ((side * side + block - 1) / block) * block;
  const u64 records = tile_records + (n.entities - cells);
  // terrain, tile and food handles, fire, scorch, flags, occupancy, danger, two scent
  // fields per colony; a chunk's storage list, links and flags.
  const u64 per_cell =
      sizeof(Terrain) + 2 * sizeof(Handle) + sizeof(u16) + 2 + sizeof(u64) + sizeof(float) * (1 + 2 * colonies);
  const u64 per_chunk = 64;
  u64 pool_bytes = 0, largest_pool = 0;
  ColonyPools::for_each([&]<class C>(std::type_identity<C>) {
    pool_bytes += n.pools.of<C>() * (sizeof(C) + back);
    largest_pool = std::max<u64>(largest_pool, n.pools.of<C>());
  });
  // Scratch as the ticks fill it, for every entity but the tiles (which are never
  // simulated): the full model's passes, and the store's sort by chunk (a record each);
  // a pool's sort, an index an entry of the largest pool, and the sensors, the pool the
  // game keeps in the store's order (regions.cpp), copied out.
  const u64 mobile = n.entities - cells;
  const u64 scratch = ant_passes_bytes(mobile) + mobile * sizeof(ColonyEcs::Record) + largest_pool * sizeof(u32) +
                      n.pools.of<Sensor>() * (sizeof(Sensor) + back);
  return records * sizeof(ColonyEcs::Record) + n.entities * per_entity + u64(cap.entities) * sizeof(u32) + pool_bytes +
         cells * per_cell + chunks * per_chunk + scratch;
}

}  // namespace

u64 world_bytes_at_start(const Scenario& s) { return world_bytes_holding(s, starting_needs(s), s.colonies.size()); }

u64 world_bytes_at_capacity(const Scenario& s) {
  const Capacity cap = resolved_capacity(s);
  StartingNeeds full = starting_needs(s);
  full.entities = std::max<u64>(full.entities, cap.entities);
  for (size_t i = 0; i < ColonyPools::kCount; ++i) full.pools[i] = std::max<u64>(full.pools[i], cap.pools[i]);
  // A player may place colonies up to kMaxColonies, each with its two scent fields.
  return world_bytes_holding(s, full, std::max<u64>(s.colonies.size(), kMaxColonies));
}

u64 cgroup_memory_limit(const std::string& root, const std::string& self) {
  u64 limit = 0;
  // The smallest limit set on the group `rel` under `top` or on any group above it.
  auto take = [&](const std::filesystem::path& top, std::string rel, const char* file) {
    for (;;) {
      std::ifstream f(top / rel / file);
      if (u64 v = 0; f >> v && v < (u64(1) << 62)) limit = limit ? std::min(limit, v) : v;  // "max" or huge: none
      if (rel.empty()) return;
      size_t cut = rel.rfind('/');
      rel.resize(cut == std::string::npos ? 0 : cut);
    }
  };
  // Lines are "id:controllers:/path": "0::/path" for the unified (v2) hierarchy, a list
  // naming "memory" for the v1 memory controller.
  std::ifstream in(self);
  for (std::string line; std::getline(in, line);) {
    size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    std::string id = line.substr(0, a), controllers = line.substr(a + 1, b - a - 1), group = line.substr(b + 1);
    while (!group.empty() && group.front() == '/') group.erase(0, 1);
    while (!group.empty() && group.back() == '/') group.pop_back();
    if (id == "0" && controllers.empty()) take(root, group, "memory.max");
    else if (("," + controllers + ",").find(",memory,") != std::string::npos)
      take(std::filesystem::path(root) / "memory", group, "memory.limit_in_bytes");
  }
  return limit;
}

MemoryBudget memory_budget() {
  MemoryBudget b;
  b.how = "80 % of this machine's memory";
  if (const char* mb = std::getenv("COLONY_MEMORY_BUDGET_MB"); mb && *mb) {
    char* end = nullptr;
    b.bytes = std::strtod(mb, &end) * 1e6;
    if (*end != '\0' || !(b.bytes > 0) || !std::isfinite(b.bytes))
      b.problem = "COLONY_MEMORY_BUDGET_MB is '" + printable(mb) + "', not a positive number of megabytes";
    b.how = "COLONY_MEMORY_BUDGET_MB";
    return b;
  }
  b.bytes = 0.8 * double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  // In a container the kernel stops the process at its group's limit, with no message.
  if (u64 group = cgroup_memory_limit(); group && 0.8 * double(group) < b.bytes) {
    b.bytes = 0.8 * double(group);
    b.how = "80 % of this process's control group limit";
  }
  return b;
}

std::string size_text(double bytes) {
  char t[32];
  if (bytes >= 1e9) std::snprintf(t, sizeof t, "%.1f GB", bytes / 1e9);
  else std::snprintf(t, sizeof t, bytes >= 1e7 ? "%.0f MB" : "%.1f MB", bytes / 1e6);
  return t;
}

std::string memory_problem(const Scenario& s) {
  const MemoryBudget budget = memory_budget();
  if (!budget.problem.empty()) return budget.problem;
  // The pools' pages are taken as they fill, and a world that breeds or spawns fills
  // them: its size at capacity is what it can come to (a scenario that declares 200
  // million-entry pools and spawns every tick passes a check of its starting size and
  // grows past 12 GB).
  const double start = double(world_bytes_at_start(s)), full = double(world_bytes_at_capacity(s));
  if (full <= budget.bytes) return {};
  return "this world takes about " + size_text(full) + " with its pools full (" + size_text(start) +
         " to start), more than the " + size_text(budget.bytes) + " allowed (" + budget.how + ")";
}

// The key to blame for a world too large for memory: the map and its starting colonies
// ("world") when they alone pass the budget, else the declared capacity when the world
// fits without it, else the population the capacities were derived from.
std::string memory_problem_key(const Scenario& s) {
  Scenario bare = s;
  bare.capacity = Capacity{};
  bare.rules.max_population = 0;
  if (!memory_problem(bare).empty()) return "world";
  Scenario derived = s;
  derived.capacity = Capacity{};
  return memory_problem(derived).empty() ? "capacity" : "rules.max_population";
}

std::unique_ptr<Game> make_game(const Scenario& scenario, u64 seed, std::string* err) {
  if (std::string problem = memory_problem(scenario); !problem.empty()) {
    if (err) *err = printable(scenario.path) + ": " + memory_problem_key(scenario) + ": " + problem;
    return nullptr;
  }
  auto g = std::make_unique<Game>();
  g->scenario = scenario;
  g->seed = seed;
  g->rng = Rng(mix64(seed), 1);
  g->event_rng = Rng(mix64(seed), 2);
  // The budget cannot see every limit (ulimit -v, a container's): running out while
  // building still names the scenario.
  try {
    if (!build_world(*g, err)) return nullptr;
  } catch (const std::bad_alloc&) {
    if (err)
      *err = printable(scenario.path) + ": world: out of memory while building it (about " +
             std::to_string(world_bytes_at_start(scenario) / 1000000) + " MB to start)";
    return nullptr;
  }
  // The spawn stream continues from here; building may have used some of it.
  g->rng = g->rng.split(3);
  // Building is not a tick: the per-tick counters start at zero (the debugger's Pools
  // "tick" row would show the construction's reserves until the first tick).
  g->ecs->begin_tick();
  return g;
}

}  // namespace colony
