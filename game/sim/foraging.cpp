// foraging.cpp — food: bites from sources and corpses, the carried piece (an add into the
// slot reserved at birth), delivery to the nest; and the pheromone fields' evaporation.
//
// Table of contents
//   [SECTION] Food: bites, pick-up, delivery
//   [SECTION] Pheromone evaporation
#include "sim_internal.h"

namespace colony {

// [SECTION] Food: bites, pick-up, delivery

int carried_piece(ColonyEcs& w, const Record& r) {
  const auto& l = w.list<RenderPiece>(r);
  for (int k = int(l.added) - 1; k >= 0; --k)
    if (w.pool<RenderPiece>().items[l.slot[k]].part == Part::CarriedFood) return k;
  return -1;
}

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
  // Home with food, an ant is fed and tended: its wounds heal (lost limbs stay lost).
  b.health = body_plan(b.kind).health;
  b.carrying = 0;
  b.amount = 0;
  b.state = AntState::Searching;
  b.heading = wrap_angle(b.heading + kPi);
  b.scent = 1;
  return true;
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
  // A chunk's rows lie a map's width apart, a stride no hardware stream follows: each
  // row's cells are prefetched kRowsAhead rows ahead, every cache line of them.
  constexpr u32 kRowsAhead = 4, kFloatsPerLine = 16;
  auto decay_rows = [&](float* f, u32 x0, u32 x1, u32 y0, u32 y1, float k) {
    float left = 0;
    for (u32 y = y0; y < y1; ++y) {
      if (y + kRowsAhead < y1) {
        const float* ahead = f + size_t(y + kRowsAhead) * g.width;
        for (u32 x = x0; x < x1; x += kFloatsPerLine) ecs::prefetch_for_write(ahead + x);
        ecs::prefetch_for_write(ahead + x1 - 1);
      }
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
  auto evaporate_chunk = [&](u32 c) {
    const u8 bits = g.chunk_scent[c];
    if (!bits) return;
    u32 x0 = grid.chunk_col(c) * grid.chunk_cells, y0 = grid.chunk_row(c) * grid.chunk_cells;
    u32 x1 = std::min(g.width, x0 + grid.chunk_cells), y1 = std::min(g.height, y0 + grid.chunk_cells);
    if (bits & kChunkTrail) {
      float left = 0;
      for (auto& f : g.fields) left = std::max(left, decay_rows(f.data(), x0, x1, y0, y1, keep));
      if (left == 0) g.chunk_scent[c] &= u8(~kChunkTrail);
    }
    if (!(bits & kChunkDanger)) return;
    if (decay_rows(g.danger.data(), x0, x1, y0, y1, keep_danger) == 0) g.chunk_scent[c] &= u8(~kChunkDanger);
    for (u32 y = y0; y < y1; ++y)
      for (u32 x = x0; x < x1; ++x) {
        size_t i = size_t(y) * g.width + x;
        g.cell_flags[i] = u8((g.cell_flags[i] & ~kCellDanger) | (g.danger[i] > kDangerFelt ? kCellDanger : 0));
      }
  };
  // Chunks phase, phase + kSpread, ...: each job a run of 64 of them, which touch only
  // their own cells and chunk bits (so any thread count leaves the same fields).
  constexpr u32 kChunksPerJob = 64;
  const u32 due = grid.chunk_count() > phase ? (grid.chunk_count() - phase + kSpread - 1) / kSpread : 0;
  run_sim_jobs((due + kChunksPerJob - 1) / kChunksPerJob, [&](u32 job) {
    const u32 end = std::min(due, (job + 1) * kChunksPerJob);
    for (u32 k = job * kChunksPerJob; k < end; ++k) evaporate_chunk(phase + k * kSpread);
  });
}

}  // namespace colony
