// regions.cpp — the simulation region and the tiers: entities in chunks the region touches
// are simulated every tick, the rest sleep in chunk-local storage. Every move of an ant
// between chunks or tiers is made here, and its result checked: a move the entity store
// refuses is undone, so that the ant's position, cell, chunk and tier still agree, and
// counted (Game::refused_moves, the report's refused_moves).
#include "sim_internal.h"

namespace colony {

// Chunks that entered the region bring their ants into the simulated store; chunks
// that left it send theirs to chunk-local storage.
bool chunk_in_region(const Game& g, u32 c) {
  const ecs::ChunkGrid& grid = g.ecs->grid();
  float x0 = float(grid.chunk_col(c) * grid.chunk_cells), y0 = float(grid.chunk_row(c) * grid.chunk_cells);
  float x1 = x0 + float(grid.chunk_cells), y1 = y0 + float(grid.chunk_cells);
  return x1 > g.region_x && x0 < g.region_x + g.region_w && y1 > g.region_y && y0 < g.region_y + g.region_h;
}

namespace {

// Moves the ants listed in scratch_handles, all of one chunk, to tier `to`. When the store
// refuses one, those already moved go back to `from`, last first (each back into the room
// it left), and the answer is false: the chunk keeps its tier and is tried again next tick.
bool move_ants_to_tier(Game& g, ecs::Tier to, ecs::Tier from) {
  ColonyEcs& w = *g.ecs;
  const std::vector<Handle>& ants = g.scratch_handles;
  for (size_t i = 0; i < ants.size(); ++i) {
    if (w.set_tier(ants[i], to) == ecs::Result::Ok) continue;
    ++g.refused_moves;
    while (i-- > 0) g.refused_moves += w.set_tier(ants[i], from) != ecs::Result::Ok;
    return false;
  }
  g.moves += ants.size();
  return true;
}

// Puts an ant whose move was refused back where it stood before its step, in the chunk
// it left (where the store still has it, unless only its tier change was refused).
void put_back(Game& g, Handle h, const Game::Stand& from) {
  ColonyEcs& w = *g.ecs;
  ++g.refused_moves;
  Record* r = w.find(h);
  if (!r) return;
  if (r->header.chunk != from.chunk) {
    if (w.move_chunk(h, from.chunk) != ecs::Result::Ok) {
      ++g.refused_moves;
      return;
    }
    r = w.find(h);
  }
  r->payload.x = from.x, r->payload.y = from.y, r->payload.cell = from.cell;
}

}  // namespace

void move_chunks_between_tiers(Game& g) {
  ColonyEcs& w = *g.ecs;
  const ecs::ChunkGrid& grid = w.grid();
  for (u32 c = 0; c < grid.chunk_count(); ++c) {
    u8 want = chunk_in_region(g, c);
    if (want == g.chunk_simulated[c]) continue;
    g.scratch_handles.clear();
    // A dying ant stays where it is: it leaves the store at the end of the tick.
    if (want) {
      for_each_dormant_mobile(g, c, [&](Record& r) {
        if (is_ant(r.payload.kind) && !(r.header.flags & ecs::kFlagDying)) g.scratch_handles.push_back(r.header.handle);
      });
    } else {
      for_each_simulated_in_chunk(g, c, [&](Record& r) {
        if (!(r.header.flags & ecs::kFlagDying)) g.scratch_handles.push_back(r.header.handle);
      });
    }
    const ecs::Tier to = want ? ecs::Tier::Simulated : ecs::Tier::Dormant,
                    from = want ? ecs::Tier::Dormant : ecs::Tier::Simulated;
    if (move_ants_to_tier(g, to, from)) g.chunk_simulated[c] = want;
  }
  g.scratch_handles.clear();
}

// Every kSpaceOrderTicks ticks (about four seconds of play), in a world simulating at
// least kSpaceOrderAnts, the simulated store is put back in chunk order and the sensor
// pool in the store's order: births, deaths, releases and walks between chunks scatter
// them in between. The full model's walk then reads the per-cell grids chunk by chunk and
// each ant's sensors front to back. At a million ants a tick costs about a tenth less;
// at 100,000, whose grids the last-level cache holds, nothing is gained, and the sort
// would only stall a tick (docs/performance-notes.md, "The tick on two threads"). Decided
// by the tick and the count alone, so every run sorts at the same ticks.
constexpr u64 kSpaceOrderTicks = 256;
constexpr u32 kSpaceOrderAnts = 1u << 18;

void keep_space_order(Game& g) {
  if (g.tick % kSpaceOrderTicks != 0 || g.ecs->simulated_count() < kSpaceOrderAnts) return;
  g.ecs->sort_simulated_by_chunk();
  g.ecs->order_pool_like_simulated<Sensor>();
}

void note_chunk_change(Game& g, Record& r, u32 chunk, const Game::Stand& from) {
  // An ant killed on this step (in a fight) is released at the end of the tick from
  // wherever it is: moving it first would be work for nothing.
  if (chunk == r.header.chunk || (r.header.flags & ecs::kFlagDying)) return;
  g.scratch_moves.push_back({r.header.handle, chunk, tier_for_chunk(g, chunk)});
  g.scratch_stands.push_back(from);
}

void apply_deferred_moves(Game& g) {
  ColonyEcs& w = *g.ecs;
  const u32 made = w.move_chunks(g.scratch_moves);
  g.moves += made;
  // The moves not made in full are looked for only when there are some: the store has room
  // for every move the game makes (each of its lists may hold one partly filled block beside
  // the full ones its entities need), so a refusal means something else went wrong.
  if (made != g.scratch_moves.size())
    for (size_t i = 0; i < g.scratch_moves.size(); ++i) {
      const ColonyEcs::ChunkMove& m = g.scratch_moves[i];
      const Record* r = w.find(m.h);
      if (!r || r->header.chunk != m.chunk || ecs::Tier(r->header.tier) != m.tier)
        put_back(g, m.h, g.scratch_stands[i]);
    }
  g.scratch_moves.clear();
  g.scratch_stands.clear();
}

void set_sim_region(Game& g, float x, float y, float w, float h) {
  g.region_x = x;
  g.region_y = y;
  g.region_w = std::max(w, 0.0f);
  g.region_h = std::max(h, 0.0f);
}

}  // namespace colony
