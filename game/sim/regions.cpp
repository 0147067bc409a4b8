// regions.cpp — the simulation region and the tiers: entities in chunks the region touches
// are simulated every tick, the rest sleep in chunk-local storage.
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

void move_chunks_between_tiers(Game& g) {
  ColonyEcs& w = *g.ecs;
  const ecs::ChunkGrid& grid = w.grid();
  for (u32 c = 0; c < grid.chunk_count(); ++c) {
    u8 want = chunk_in_region(g, c);
    if (want == g.chunk_simulated[c]) continue;
    g.chunk_simulated[c] = want;
    g.scratch_handles.clear();
    if (want) {
      for_each_dormant_mobile(g, c, [&](Record& r) {
        if (is_ant(r.payload.kind)) g.scratch_handles.push_back(r.header.handle);
      });
      for (Handle h : g.scratch_handles) w.set_tier(h, ecs::Tier::Simulated);
    } else {
      for (u32 i = w.store().sim_head(c); i != 0; i = w.store().sim_link(i).next)
        g.scratch_handles.push_back(as_record(w.store().record_of_index(i))->header.handle);
      for (Handle h : g.scratch_handles) w.set_tier(h, ecs::Tier::Dormant);
    }
  }
  g.scratch_handles.clear();
}

void set_sim_region(Game& g, float x, float y, float w, float h) {
  g.region_x = x;
  g.region_y = y;
  g.region_w = std::max(w, 0.0f);
  g.region_h = std::max(h, 0.0f);
}

}  // namespace colony
