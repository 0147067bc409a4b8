// ecology.cpp — what keeps a world alive over hours: colonies that fell are founded
// again by their queen, burnt land grows grass again, and the turns of each colony's
// fate are noted for the window (with the fights' sparks).
//
// Table of contents
//   [SECTION] Fates and refounding
//   [SECTION] Placed colonies
//   [SECTION] Grass regrowth
//   [SECTION] Sparks
#include "sim_internal.h"

namespace colony {

const char* fate_name(Fate f) {
  switch (f) {
    case Fate::None: return "";
    case Fate::Collapsed: return "collapsed";
    case Fate::Starving: return "starving";
    case Fate::Refounded: return "founded again";
    case Fate::Founded: return "founded";
  }
  return "?";
}

// [SECTION] Fates and refounding

namespace {

// Hunger is announced once a minute at most: a colony living hand to mouth goes in and
// out of it with every delivery.
constexpr u64 kStarvingNoteTicks = 60 * kTicksPerSecond;

void note_fate(Game& g, Colony& c, Fate f) {
  c.fate = f;
  c.fate_tick = g.tick;
}

// A colony with no workers or soldiers left (its queen alone, or nobody) for
// refound_delay ticks is founded again at its nest: a new queen when hers is gone (a
// queen dies only by kill_ant's hand: bombs, fire and culls spare her), and
// refound_food to lay from, as much as it has when it has more. Its own fields are
// what is left of it.
void refound(Game& g, u8 i) {
  const Rules& rules = g.scenario.rules;
  Colony& c = g.colonies[i];
  if (c.queen.is_null()) {
    c.queen = spawn_ant(g, i, Kind::Queen, c.nest_x, c.nest_y, 0);
    if (c.queen.is_null()) return;  // no room: tried again next tick
  }
  c.food = std::max(c.food, double(rules.refound_food));
  c.starving = false;
  // Still down until the first egg: the delay starts again, with no second collapse.
  c.down_since = g.tick + 1;
  ++c.refounds;
  note_fate(g, c, Fate::Refounded);
}

}  // namespace

void tend_colonies(Game& g) {
  const Rules& rules = g.scenario.rules;
  for (size_t i = 0; i < g.colonies.size(); ++i) {
    Colony& c = g.colonies[i];
    const u64 brood = c.alive - (c.queen.is_null() ? 0 : 1);
    if (c.starving && (c.fate != Fate::Starving || g.tick - c.fate_tick > kStarvingNoteTicks) && brood > 0)
      note_fate(g, c, Fate::Starving);
    if (brood > 0) {
      c.down_since = 0;
      continue;
    }
    if (c.down_since == 0) {
      c.down_since = g.tick + 1;
      note_fate(g, c, Fate::Collapsed);
    }
    if (rules.refound_food > 0 && g.tick + 1 - c.down_since >= rules.refound_delay) refound(g, u8(i));
  }
}

// [SECTION] Placed colonies

std::string place_colony_problem(const Game& g, float x, float y) {
  if (g.colonies.size() >= kMaxColonies)
    return "there are already " + std::to_string(kMaxColonies) + " colonies, the most the game holds";
  if (!std::isfinite(x) || !std::isfinite(y) || !in_map(g, x, y)) return "a nest must be on the map";
  const Terrain t = g.terrain[cell_of(g, x, y)];
  if (!passable(t)) return std::string("a nest cannot be founded on ") + terrain_name(t);
  for (const Colony& c : g.colonies) {
    const float dx = c.nest_x - x, dy = c.nest_y - y;
    if (dx * dx + dy * dy < kMinNestDistance * kMinNestDistance)
      return "a nest must stand " + number_text(kMinNestDistance) + " cells from the others";
  }
  return "";
}

namespace {

// The colour of the default palette farthest (red, green, blue apart) from every colour
// the colonies wear.
u32 distinct_color(const Game& g) {
  auto apart = [](u32 a, u32 b) {
    int d = 0;
    for (int shift = 0; shift < 24; shift += 8) {
      const int x = int(a >> shift & 0xFF) - int(b >> shift & 0xFF);
      d += x * x;
    }
    return d;
  };
  u32 best = kDefaultColonyColors[0];
  int best_apart = -1;
  for (u32 color : kDefaultColonyColors) {
    int nearest = 1 << 30;
    for (const Colony& o : g.colonies) nearest = std::min(nearest, apart(color, o.color));
    if (nearest > best_apart) best = color, best_apart = nearest;
  }
  return best;
}

}  // namespace

// A placed colony: a nest at the command's point, its pheromone fields, a queen and the
// store a scenario's colony starts with when its file names none, in the colour of the
// default palette farthest from the others'. It lives by the rules every colony does.
void found_colony(Game& g, const Command& cmd) {
  if (!place_colony_problem(g, cmd.x, cmd.y).empty()) return;
  Colony c;
  c.nest_x = cmd.x, c.nest_y = cmd.y;
  c.color = distinct_color(g);
  c.food = ColonySpec{}.food;
  // Down until her first egg, as a colony founded again is: no collapse to announce.
  c.down_since = g.tick + 1;
  const u8 i = u8(g.colonies.size());
  g.colonies.push_back(c);
  const size_t cells = size_t(g.width) * g.height;
  g.fields.resize(g.colonies.size() * 2, std::vector<float>(cells, 0.0f));
  // No room for her: the colony stands without a queen, as one whose queen died, and is
  // founded again by tend_colonies when there is.
  g.colonies[i].queen = spawn_ant(g, i, Kind::Queen, c.nest_x, c.nest_y, 0);
  note_fate(g, g.colonies[i], Fate::Founded);
}

// [SECTION] Grass regrowth

namespace {

// A sweep visits every cell once in this many ticks, a slice of the map each tick.
constexpr u32 kRegrowSweep = 64;
// Scorch on grass fades by this much at each visit (a bomb's darkest mark, 255, in about
// two and a half minutes).
constexpr u8 kScorchFade = 2;

}  // namespace

// Burnt land is dirt with scorch on it (fire leaves it so; dirt of the map or painted
// dirt has none and stays). At each visit such a cell turns to grass with the chance of
// kRegrowSweep ticks at rules.regrowth, times one more for each grass cell beside it, so
// green closes in from the edges of a burn and a wholly burnt map still heals; its scorch
// goes with it. Scorch on grass fades.
void regrow_grass(Game& g) {
  const float rate = g.scenario.rules.regrowth;
  if (rate <= 0) return;
  const u32 cells = g.width * g.height, slice = (cells + kRegrowSweep - 1) / kRegrowSweep;
  const u32 begin = u32(g.tick % kRegrowSweep) * slice, end = std::min(cells, begin + slice);
  const float chance = rate * float(kRegrowSweep);
  for (u32 cell = begin; cell < end; ++cell) {
    u8& scorch = g.scorch[cell];
    if (scorch == 0) continue;
    const Terrain t = g.terrain[cell];
    if (t == Terrain::Grass) {
      if (g.fire[cell] > 0) continue;
      scorch = scorch > kScorchFade ? u8(scorch - kScorchFade) : 0;
      mark_dirty(g, cell);
      continue;
    }
    if (t != Terrain::Dirt) continue;
    const int cx = int(cell % g.width), cy = int(cell / g.width);
    int grass = 0;
    if (cx > 0) grass += g.terrain[cell - 1] == Terrain::Grass;
    if (u32(cx) + 1 < g.width) grass += g.terrain[cell + 1] == Terrain::Grass;
    if (cy > 0) grass += g.terrain[cell - g.width] == Terrain::Grass;
    if (u32(cy) + 1 < g.height) grass += g.terrain[cell + g.width] == Terrain::Grass;
    if (hash_float(g.seed, g.tick, cell, kRegrow) >= chance * float(1 + grass)) continue;
    scorch = 0;
    set_terrain(g, cell, Terrain::Grass);
  }
}

// [SECTION] Sparks

void note_spark(Game& g, float x, float y, u8 colony_a, u8 colony_b) {
  if (g.sparks.size() >= kMaxSparks) return;
  g.sparks.push_back({x, y, g.tick, colony_a, colony_b});
}

}  // namespace colony
