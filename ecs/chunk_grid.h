// chunk_grid.h — geometry of the chunked world: a grid of cells split into square
// chunks. Maps positions to chunk indices and enumerates the chunks a circle touches.
#pragma once
#include "ecs_types.h"

namespace ecs {

struct ChunkGrid {
  u32 cells_x = 0, cells_y = 0;  // world size in cells
  u32 chunk_cells = 0;           // side of a square chunk, in cells
  u32 chunks_x = 0, chunks_y = 0;
  // log2(chunk_cells) when the side is a power of two (make sets it), else kNoShift: the
  // chunk of a cell is then two shifts instead of two divisions, which every simulated
  // ant asks for every tick.
  static constexpr u32 kNoShift = 32;
  u32 chunk_shift = kNoShift;

  static ChunkGrid make(u32 cells_x, u32 cells_y, u32 chunk_cells);

  u32 chunk_count() const { return chunks_x * chunks_y; }
  // Chunk under a position in cell units; positions outside the map clamp to the border.
  u32 chunk_at(float x, float y) const;
  u32 chunk_of_cell(u32 cx, u32 cy) const {
    if (chunk_shift != kNoShift) return (cy >> chunk_shift) * chunks_x + (cx >> chunk_shift);
    return (cy / chunk_cells) * chunks_x + cx / chunk_cells;
  }
  u32 chunk_col(u32 chunk) const { return chunk % chunks_x; }
  u32 chunk_row(u32 chunk) const { return chunk / chunks_x; }

  // Calls fn(chunk) for every chunk whose square intersects the circle (x, y, r).
  // Border chunks reach out to infinity, as chunk_at clamps positions off the map into
  // them. A negative or NaN radius or centre touches nothing.
  template <class Fn>
  void for_each_chunk_in_circle(float x, float y, float r, Fn&& fn) const {
    if (!(r >= 0) || x != x || y != y) return;
    // One column/row further down than the corner's chunk: a circle ending exactly on a
    // chunk edge touches the square below that edge too (the distance test decides).
    i32 c0 = col_of(x - r), c1 = col_of(x + r);
    i32 r0 = row_of(y - r), r1 = row_of(y + r);
    if (c0 > 0) --c0;
    if (r0 > 0) --r0;
    for (i32 row = r0; row <= r1; ++row) {
      float dy = distance_to_span(y, row, chunks_y);
      for (i32 col = c0; col <= c1; ++col) {
        float dx = distance_to_span(x, col, chunks_x);
        if (dx * dx + dy * dy <= r * r) fn(u32(row) * chunks_x + u32(col));
      }
    }
  }

 private:
  // Column/row under a coordinate in cells, clamped to the grid. Clamps in float first so
  // huge, infinite or NaN coordinates never reach an undefined float-to-int conversion.
  // The grid's last chunk may reach past 2^32 cells (the chunk count rounds up), so the
  // whole cell is taken in 64 bits; its chunk is a shift when the side is a power of two,
  // as in chunk_of_cell.
  i32 clamped_index(float v, u32 count) const {
    if (!(v > 0)) return 0;  // negative, zero or NaN
    if (v >= float(u64(count) * chunk_cells)) return i32(count - 1);
    const u64 cell = u64(v);  // whole cell first, as chunk_of_cell does
    const u64 i = chunk_shift != kNoShift ? cell >> chunk_shift : cell / chunk_cells;
    return i < count ? i32(i) : i32(count - 1);
  }
  // Distance from v to the span of chunk column/row i (0 when v is inside it).
  float distance_to_span(float v, i32 i, u32 count) const {
    const float cs = float(chunk_cells);
    if (i > 0 && v < float(i) * cs) return float(i) * cs - v;
    if (u32(i) + 1 < count && v > float(i + 1) * cs) return v - float(i + 1) * cs;
    return 0;
  }
  i32 col_of(float x) const { return clamped_index(x, chunks_x); }
  i32 row_of(float y) const { return clamped_index(y, chunks_y); }
};

}  // namespace ecs
