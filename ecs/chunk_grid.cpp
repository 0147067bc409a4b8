// chunk_grid.cpp — position to chunk mapping for the chunked world.
#include "chunk_grid.h"

#include <bit>

namespace ecs {

ChunkGrid ChunkGrid::make(u32 cells_x, u32 cells_y, u32 chunk_cells) {
  ChunkGrid g;
  g.cells_x = cells_x;
  g.cells_y = cells_y;
  g.chunk_cells = chunk_cells ? chunk_cells : 1;
  // Rounded up in 64 bits: near 2^32 cells the sum would wrap and drop the last chunks.
  g.chunks_x = u32((u64(cells_x) + g.chunk_cells - 1) / g.chunk_cells);
  g.chunks_y = u32((u64(cells_y) + g.chunk_cells - 1) / g.chunk_cells);
  if (g.chunks_x == 0) g.chunks_x = 1;
  if (g.chunks_y == 0) g.chunks_y = 1;
  if (std::has_single_bit(g.chunk_cells)) g.chunk_shift = u32(std::countr_zero(g.chunk_cells));
  return g;
}

u32 ChunkGrid::chunk_at(float x, float y) const { return u32(row_of(y)) * chunks_x + u32(col_of(x)); }

const char* result_name(Result r) {
  switch (r) {
    case Result::Ok: return "ok";
    case Result::StaleHandle: return "stale handle";
    case Result::PoolFull: return "pool capacity exhausted";
    case Result::EntityMaxReached: return "per-entity maximum reached";
    case Result::NoReservedSlot: return "no reserved slot left";
    case Result::BadLocalIndex: return "local index out of range";
    case Result::StoreFull: return "entity store full";
    case Result::BadChunk: return "chunk index out of range";
    case Result::AlreadyQueued: return "already queued for destruction";
    case Result::BadTier: return "not a tier an entity can live in";
  }
  return "unknown";
}

}  // namespace ecs
