// camera.h — the view onto the world: centre and zoom, conversions between world cells
// and screen pixels, zooming toward a point, and the visible rectangle.
#pragma once
#include <algorithm>
#include <cmath>
#include <glm/glm.hpp>

#include "chunk_grid.h"

namespace colony::render {

struct Camera {
  float x = 0, y = 0;                 // world position (cells) at the centre of the screen
  float zoom = 12;                    // screen pixels per cell
  float view_w = 1280, view_h = 800;  // screen size in pixels
  float shake_x = 0, shake_y = 0;     // pixels, added by explosions

  static constexpr float kMinZoom = 0.25f, kMaxZoom = 64.f;
};

// World cells to screen pixels and back, as vectors.
inline glm::vec2 centre_of(const Camera& c) { return {c.x, c.y}; }
inline glm::vec2 screen_centre(const Camera& c) { return glm::vec2(c.view_w, c.view_h) * 0.5f; }
inline glm::vec2 shake_of(const Camera& c) { return {c.shake_x, c.shake_y}; }
inline glm::vec2 to_screen(const Camera& c, glm::vec2 world) {
  return (world - centre_of(c)) * c.zoom + screen_centre(c) + shake_of(c);
}
inline glm::vec2 to_world(const Camera& c, glm::vec2 screen) {
  return (screen - screen_centre(c) - shake_of(c)) / c.zoom + centre_of(c);
}
// A rotation by `radians`: its columns are the rotated x and y axes.
inline glm::mat2 rotation(float radians) {
  const float co = std::cos(radians), si = std::sin(radians);
  return {co, si, -si, co};
}

// One coordinate at a time (the same arithmetic as to_screen and to_world).
inline float screen_x(const Camera& c, float wx) { return (wx - c.x) * c.zoom + c.view_w * 0.5f + c.shake_x; }
inline float screen_y(const Camera& c, float wy) { return (wy - c.y) * c.zoom + c.view_h * 0.5f + c.shake_y; }
inline float world_x(const Camera& c, float sx) { return (sx - c.view_w * 0.5f - c.shake_x) / c.zoom + c.x; }
inline float world_y(const Camera& c, float sy) { return (sy - c.view_h * 0.5f - c.shake_y) / c.zoom + c.y; }

// Visible world rectangle in cells, grown by `margin` cells on every side.
struct ViewRect {
  float x0, y0, x1, y1;
  bool contains(float x, float y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};
inline ViewRect visible_rect(const Camera& c, float margin = 0) {
  float hw = c.view_w * 0.5f / c.zoom + margin, hh = c.view_h * 0.5f / c.zoom + margin;
  return {c.x - hw, c.y - hh, c.x + hw, c.y + hh};
}

// The chunks a rectangle of cells touches, clamped to the grid.
struct ChunkRange {
  int c0, c1, r0, r1;
  // fn(chunk, col, row) for each chunk, row by row.
  template <class Fn>
  void for_each(const ecs::ChunkGrid& grid, Fn&& fn) const {
    for (int row = r0; row <= r1; ++row)
      for (int col = c0; col <= c1; ++col) fn(ecs::u32(row) * grid.chunks_x + ecs::u32(col), col, row);
  }
};
inline ChunkRange chunks_in(const ecs::ChunkGrid& grid, const ViewRect& v) {
  const float cs = float(grid.chunk_cells);
  return {std::max(0, int(std::floor(v.x0 / cs))), std::min(int(grid.chunks_x) - 1, int(std::floor(v.x1 / cs))),
          std::max(0, int(std::floor(v.y0 / cs))), std::min(int(grid.chunks_y) - 1, int(std::floor(v.y1 / cs)))};
}

// Multiplies the zoom by `factor`, keeping the world point under screen (sx, sy) fixed.
inline void zoom_toward(Camera& c, float factor, float sx, float sy) {
  float wx = world_x(c, sx), wy = world_y(c, sy);
  c.zoom = std::clamp(c.zoom * factor, Camera::kMinZoom, Camera::kMaxZoom);
  c.x = wx - (sx - c.view_w * 0.5f - c.shake_x) / c.zoom;
  c.y = wy - (sy - c.view_h * 0.5f - c.shake_y) / c.zoom;
}

// Empty space the camera may show past the map's edge (pixels).
inline constexpr float kMapMarginPixels = 48;

// Keeps the map in view: along each axis a view wider than the map (and its margins)
// is centred on it, a narrower one shows at most kMapMarginPixels past either edge.
inline void clamp_to_map(Camera& c, float width, float height) {
  auto axis = [&](float& centre, float view_pixels, float extent) {
    const float half = view_pixels * 0.5f / c.zoom, margin = kMapMarginPixels / c.zoom;
    if (2 * (half - margin) >= extent) centre = extent * 0.5f;
    else centre = std::clamp(centre, half - margin, extent - half + margin);
  };
  axis(c.x, c.view_w, width);
  axis(c.y, c.view_h, height);
}

// Whether the view shows all of a map of width x height cells.
inline bool holds_whole_map(const Camera& c, float width, float height) {
  const float hw = c.view_w * 0.5f / c.zoom, hh = c.view_h * 0.5f / c.zoom;
  return c.x - hw <= 0.5f && c.x + hw >= width - 0.5f && c.y - hh <= 0.5f && c.y + hh >= height - 0.5f;
}

// Zoom at which the whole map fits the screen.
inline float fit_zoom(const Camera& c, float width, float height) {
  return std::clamp(std::min(c.view_w / width, c.view_h / height) * 0.95f, Camera::kMinZoom, Camera::kMaxZoom);
}

}  // namespace colony::render
