// colonies.cpp — colonies (food, hunger, the queen laying ants), player commands and the
// scenario's timed events.
#include <limits>

#include "sim_internal.h"

namespace colony {

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
    // Laid beside the queen, or under her when that spot is water or rock.
    float x = c.nest_x + std::cos(a), y = c.nest_y + std::sin(a);
    if (!in_map(g, x, y) || !passable(g.terrain[cell_of(g, x, y)])) x = c.nest_x, y = c.nest_y;
    if (!spawn_ant(g, u8(i), caste, x, y, a).is_null()) c.food -= rules.ant_cost;
  }
}

namespace {

// The debugger's Stress panel: each ant but the queens dies with the given chance. The
// deaths are counted as culled, and leave no corpse.
void kill_percent(Game& g, u32 percent) {
  float p = float(std::min(percent, 100u)) / 100.0f;
  ColonyEcs& w = *g.ecs;
  auto maybe_kill = [&](Record& r) {
    if (is_ant(r.payload.kind) && r.payload.kind != Kind::Queen &&
        hash_float(g.seed, g.tick, r.header.handle.index, kKill) < p)
      kill_ant(g, r, DeathCause::Culled);
  };
  w.for_each_simulated(maybe_kill);
  for (u32 c = 0; c < w.grid().chunk_count(); ++c) for_each_dormant_mobile(g, c, maybe_kill);
}

}  // namespace

namespace {

// A command as apply_command carries it out: commands may come from a file (a save's
// queue, a replay), so anything not finite makes it a no-op (false) and the rest is
// clamped; zero radii and counts take each kind's default.
bool settle_command(Command& cmd) {
  if (!std::isfinite(cmd.x) || !std::isfinite(cmd.y) || !std::isfinite(cmd.radius)) return false;
  cmd.x = std::clamp(cmd.x, -1e6f, 1e6f);
  cmd.y = std::clamp(cmd.y, -1e6f, 1e6f);
  cmd.radius = std::clamp(cmd.radius, 0.0f, 4096.0f);
  switch (cmd.kind) {
    case CommandKind::Bomb: cmd.radius = cmd.radius > 0 ? cmd.radius : kBombRadius; break;
    case CommandKind::BigBomb: cmd.radius = cmd.radius > 0 ? cmd.radius : kBigBombRadius; break;
    case CommandKind::Ignite: cmd.radius = cmd.radius > 0 ? cmd.radius : 1.5f; break;
    case CommandKind::PlaceFood: cmd.count = cmd.count ? cmd.count : 24; break;
    case CommandKind::PaintTerrain: cmd.radius = std::max(cmd.radius, 0.5f); break;
    case CommandKind::SpawnAnts:
      cmd.radius = std::max(cmd.radius, 1.0f);
      cmd.count = std::min(cmd.count, 1'000'000u);
      break;
    case CommandKind::KillPercent:
    case CommandKind::PlaceColony:
    case CommandKind::Count: break;
  }
  return true;
}

// Food under water or rock is gone: the source (or corpse) no ant could reach again leaves
// the world, and a random source is counted out so that another one grows elsewhere (kept,
// it would stay unreachable and keep the count of sources full).
void drown_food(Game& g, u32 cell) {
  const Handle fh = g.food_at[cell];
  Record* food = fh.is_null() ? nullptr : g.ecs->find(fh);
  if (!food || (food->header.flags & ecs::kFlagDying)) return;
  forget_food(g, food->payload, fh);
  if (food->payload.kind == Kind::Food) --g.food_sources;
  g.ecs->queue_destroy(fh);
}

// The cell nearest to `cell` (by distance between centres) an ant can stand on among those
// within the square kShoreSearch cells out; kNone when there is none, or when the sweep's
// budget of cells looked at (`budget`, spent here) runs out first. A ring d cells out lies
// at least d away, so the search ends at the first ring past the best.
constexpr int kShoreSearch = 48;
u32 nearest_passable_cell(const Game& g, u32 cell, u64& budget) {
  const int cx = int(cell % g.width), cy = int(cell / g.width);
  u32 best = ecs::kNone;
  int best_d2 = std::numeric_limits<int>::max();
  for (int d = 1; d <= kShoreSearch && d * d <= best_d2; ++d) {
    if (budget < u64(8 * d)) return ecs::kNone;
    budget -= u64(8 * d);  // the ring's cells
    for (int y = cy - d; y <= cy + d; ++y) {
      const bool edge_row = y == cy - d || y == cy + d;
      for (int x = cx - d; x <= cx + d; x += edge_row ? 1 : 2 * d) {
        const int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        if (d2 < best_d2 && in_map(g, x, y) && passable(g.terrain[cell_index(g, x, y)]))
          best = cell_index(g, x, y), best_d2 = d2;
      }
    }
  }
  return best;
}

// Ants the paint has covered with water or rock are swept to the nearest cell they can
// stand on (no step out of an impassable cell is allowed: left there, they would turn on
// the spot for ever), or home to their nest when none lies within kShoreSearch cells. One sweep looks
// at no more than kSweepBudget cells (a few tens of milliseconds): past it, the ants still
// covered go home too. A brush covers a few hundred ants at most, but a command from a
// file may paint a million-ant map whole.
constexpr u64 kSweepBudget = u64(1) << 24;
void sweep_ants_ashore(Game& g, const Command& cmd) {
  std::vector<Handle>& covered = g.scratch_handles;
  covered.clear();
  for_each_mobile_in_radius(g, cmd.x, cmd.y, cmd.radius + 1, [&](Record& r) {
    if (is_ant(r.payload.kind) && !(r.header.flags & ecs::kFlagDying) && !passable(g.terrain[r.payload.cell]))
      covered.push_back(r.header.handle);
  });
  u64 budget = kSweepBudget;
  for (Handle h : covered) {
    Record* r = g.ecs->find(h);
    if (!r) continue;
    Body& b = r->payload;
    const Game::Stand from{b.x, b.y, b.cell, r->header.chunk};
    u32 cell = nearest_passable_cell(g, b.cell, budget);
    if (cell == ecs::kNone) cell = cell_of(g, g.colonies[b.colony].nest_x, g.colonies[b.colony].nest_y);
    b.x = float(cell % g.width) + 0.5f, b.y = float(cell / g.width) + 0.5f, b.cell = cell;
    note_chunk_change(g, *r, g.ecs->grid().chunk_at(b.x, b.y), from);
  }
  apply_deferred_moves(g);
  covered.clear();
}

// Paints the command's disc. Water and rock leave the nests' cells as they are (a nest
// stands on land: ants come out of it, and a save with a drowned nest is refused), take
// the food they cover and sweep the ants they cover ashore.
void paint_terrain(Game& g, const Command& cmd) {
  if (cmd.terrain >= Terrain::Count) return;
  const bool blocks = !passable(cmd.terrain);
  std::array<u32, kMaxColonies> nests{};
  size_t n = 0;
  if (blocks)
    for (const Colony& c : g.colonies)
      if (n < nests.size()) nests[n++] = cell_of(g, c.nest_x, c.nest_y);
  for_each_cell_in_circle(g, cmd.x, cmd.y, cmd.radius, [&](u32 cell, float) {
    if (std::find(nests.begin(), nests.begin() + n, cell) != nests.begin() + n) return;
    set_terrain(g, cell, cmd.terrain);
    if (blocks) drown_food(g, cell);
  });
  if (blocks) sweep_ants_ashore(g, cmd);
}

}  // namespace

void apply_command(Game& g, Command cmd) {
  if (!settle_command(cmd)) return;
  switch (cmd.kind) {
    case CommandKind::Bomb: apply_bomb(g, cmd.x, cmd.y, cmd.radius, cmd.radius * kBombMaimScale); break;
    case CommandKind::BigBomb: apply_bomb(g, cmd.x, cmd.y, cmd.radius, cmd.radius * kBigBombMaimScale); break;
    case CommandKind::Ignite: ignite(g, cmd.x, cmd.y, cmd.radius); break;
    case CommandKind::PlaceFood: spawn_food(g, cmd.x, cmd.y, cmd.count); break;
    case CommandKind::PaintTerrain: paint_terrain(g, cmd); break;
    case CommandKind::SpawnAnts:
      g.command_spawns_refused += spawn_group(g, cmd.colony, cmd.caste, cmd.x, cmd.y, cmd.radius, cmd.count);
      break;
    case CommandKind::KillPercent: kill_percent(g, cmd.count); break;
    case CommandKind::PlaceColony: found_colony(g, cmd); break;
    case CommandKind::Count: break;
  }
}

double command_cells(const Game& g, const Command& c) {
  Command cmd = c;
  if (!settle_command(cmd)) return 0;
  switch (cmd.kind) {
    case CommandKind::Bomb: return disc_cells(g.scenario, bomb_reach(cmd.radius * kBombMaimScale));
    case CommandKind::BigBomb: return disc_cells(g.scenario, bomb_reach(cmd.radius * kBigBombMaimScale));
    case CommandKind::Ignite:
    case CommandKind::PaintTerrain: return disc_cells(g.scenario, cmd.radius);
    case CommandKind::PlaceFood:
    case CommandKind::SpawnAnts: return double(cmd.count);
    case CommandKind::KillPercent: return double(g.width) * g.height;
    // Two pheromone fields to clear and a queen to lay.
    case CommandKind::PlaceColony: return 2.0 * double(g.width) * g.height;
    case CommandKind::Count: break;
  }
  return 0;
}

double commands_cells(const Game& g, const std::vector<Command>& cmds) {
  double cells = 0;
  for (const Command& c : cmds) cells += command_cells(g, c);
  return cells;
}

namespace {

double tick_budget_cells(const Game& g) { return kTickCommandCellsBudget * double(g.width) * g.height; }

}  // namespace

std::string tick_commands_problem(const Game& g, const std::vector<Command>& cmds) {
  const double cells = commands_cells(g, cmds);
  if (cells <= tick_budget_cells(g)) return "";
  return "the commands of one tick touch " + number_text(cells) + " cells, more than " +
         number_text(kTickCommandCellsBudget) + " times the map's " + number_text(double(g.width) * g.height);
}

u64 event_next_due(const EventSpec& e, u64 now) {
  if (now <= e.tick) return e.tick;
  if (!e.every || now > e.until) return ~u64(0);
  u64 late = (now - e.tick) % e.every;
  u64 wait = late ? e.every - late : 0;
  if (wait > e.until - now) return ~u64(0);  // past until
  return now + wait;
}

void run_events(Game& g) {
  const auto& events = g.scenario.events;
  for (size_t i = 0; i < events.size(); ++i) {
    if (g.event_next[i] != g.tick) continue;
    const EventSpec& e = events[i];
    g.event_next[i] = event_next_due(e, g.tick + 1);
    float x = e.x, y = e.y;
    if (e.spread > 0) {
      float a = g.event_rng.range(-kPi, kPi), r = e.spread * std::sqrt(g.event_rng.next_float());
      x = std::clamp(x + r * std::cos(a), 0.0f, float(g.width) - 0.01f);
      y = std::clamp(y + r * std::sin(a), 0.0f, float(g.height) - 0.01f);
    }
    switch (e.kind) {
      case EventKind::Bomb: apply_bomb(g, x, y, e.radius, event_bomb_outer(e)); break;
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

bool queue_command(Game& g, const Command& c) {
  const double cells = command_cells(g, c);
  if (g.pending_command_cells + cells > tick_budget_cells(g)) {
    ++g.refused_commands;
    return false;
  }
  g.pending_commands.push_back(c);
  g.pending_command_cells += cells;
  return true;
}

}  // namespace colony
