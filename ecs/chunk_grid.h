// chunk_grid.h — geometry of the chunked world: a grid of cells split into square
// chunks. Maps positions to chunk indices and enumerates the chunks a circle touches.
#pragma once
#include "ecs_types.h"

namespace ecs {

struct ChunkGrid {
  u32 cells_x = 0, cells_y = 0;  // world size in cells
  u32 chunk_cells = 0;           // side of a square chunk, in cells
  u32 chunks_x = 0, chunks_y = 0;

  static ChunkGrid make(u32 cells_x, u32 cells_y, u32 chunk_cells);

  u32 chunk_count() const { return chunks_x * chunks_y; }
  // Chunk under a position in cell units; positions outside the map clamp to the border.
  u32 chunk_at(float x, float y) const;
  u32 chunk_of_cell(u32 cx, u32 cy) const { return (cy / chunk_cells) * chunks_x + cx / chunk_cells; }
  u32 chunk_col(u32 chunk) const { return chunk % chunks_x; }
  u32 chunk_row(u32 chunk) const { return chunk / chunks_x; }

  // Calls fn(chunk) for every chunk whose square intersects the circle (x, y, r).
  template <class Fn>
  void for_each_chunk_in_circle(float x, float y, float r, Fn&& fn) const {
    if (r < 0) return;
    const float cs = float(chunk_cells);
    i32 c0 = clamp_col(i32((x - r) / cs)), c1 = clamp_col(i32((x + r) / cs));
    i32 r0 = clamp_row(i32((y - r) / cs)), r1 = clamp_row(i32((y + r) / cs));
    for (i32 row = r0; row <= r1; ++row) {
      for (i32 col = c0; col <= c1; ++col) {
        // Distance from the circle centre to the nearest point of this chunk's square.
        float nx = x < col * cs ? col * cs : (x > (col + 1) * cs ? (col + 1) * cs : x);
        float ny = y < row * cs ? row * cs : (y > (row + 1) * cs ? (row + 1) * cs : y);
        float dx = x - nx, dy = y - ny;
        if (dx * dx + dy * dy <= r * r) fn(u32(row) * chunks_x + u32(col));
      }
    }
  }

 private:
  i32 clamp_col(i32 c) const { return c < 0 ? 0 : (c >= i32(chunks_x) ? i32(chunks_x) - 1 : c); }
  i32 clamp_row(i32 r) const { return r < 0 ? 0 : (r >= i32(chunks_y) ? i32(chunks_y) - 1 : r); }
};

}  // namespace ecs
