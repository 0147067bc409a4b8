// fire.cpp — terrain changes and the fire system: grass ignites, burns, spreads at the
// scenario's rate, kills the ants standing in it and burns out to dirt.
#include "sim_internal.h"

namespace colony {

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

namespace {

void extinguish_cell(Game& g, u32 cell) {
  g.fire[cell] = 0;
  u32 chunk = g.ecs->grid().chunk_of_cell(cell % g.width, cell / g.width);
  --g.chunk_burning[chunk];
  Record* r = g.ecs->find(g.tiles[cell]);
  if (r) g.ecs->component<RenderPiece>(*r, 0) = tile_piece(u8(g.terrain[cell]), false);
  mark_dirty(g, cell);
}

}  // namespace

// Fire: every burning cell may light its grass neighbours, kills the ants standing in it,
// burns down, and becomes dirt. A cell lit with burn_ticks N burns down through the next
// N fire passes, killing in each, the last included (burn_ticks 1: one pass, and it
// kills): the ants are looked up while every cell of the pass still burns, and only then
// do cells burn out.
// Ants in flames are found chunk by chunk, only where fire is.
void simulate_fire(Game& g) {
  const Rules& rules = g.scenario.rules;
  const size_t n = g.burning.size();
  static constexpr int kDx[4] = {1, -1, 0, 0}, kDy[4] = {0, 0, 1, -1};
  // Spread (cells lit now are appended after n and burn in this pass too).
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
      if (g.terrain[nc] == Terrain::Grass && g.fire[nc] == 0 &&
          hash_float(g.seed, g.tick, cell * 4 + u32(k), kSpread) < rules.fire_spread)
        ignite_cell(g, nc);
    }
    put_danger(g, cell, 1.0f);
  }
  // Victims, while every burning cell of this pass burns.
  for (u32 c = 0; c < g.chunk_burning.size(); ++c) {
    if (g.chunk_burning[c] == 0) continue;
    for_each_mobile_in_chunk(g, c, [&](Record& r) {
      const Body& b = r.payload;
      if (is_ant(b.kind) && b.kind != Kind::Queen && g.fire[cell_of(g, b.x, b.y)] > 0) kill_ant(g, r, DeathCause::Fire);
    });
  }
  // Burn down: a cell whose last pass this was goes out and becomes dirt. Cells lit in
  // this pass start burning down in the next.
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    u32 cell = g.burning[i];
    if (g.fire[cell] == 0) continue;  // put out above
    if (g.fire[cell] == 1) {
      extinguish_cell(g, cell);
      set_terrain(g, cell, Terrain::Dirt);
      g.scorch[cell] = std::max<u8>(g.scorch[cell], 90);
      continue;
    }
    --g.fire[cell];
    g.burning[kept++] = cell;
  }
  for (size_t i = n; i < g.burning.size(); ++i) g.burning[kept++] = g.burning[i];
  g.burning.resize(kept);
}

void ignite(Game& g, float x, float y, float radius) {
  for_each_cell_in_circle(g, x, y, std::max(radius, 0.5f), [&](u32 cell, float) { ignite_cell(g, cell); });
}

}  // namespace colony
