// terrain_layer.cpp — chunk textures for the ground and the pheromone overlay.
//
// Table of contents
//   [SECTION] Patterns
//   [SECTION] Ground textures (rebuilt when a chunk's tiles change)
//   [SECTION] Overlay textures (pheromones, rebuilt as the fields evolve)
//   [SECTION] Drawing and eviction
#include "terrain_layer.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace colony::render {

const char* overlay_name(Overlay o) {
  switch (o) {
    case Overlay::Off: return "off";
    case Overlay::ToFood: return "to-food scent";
    case Overlay::ToHome: return "to-home scent";
    case Overlay::Danger: return "danger scent";
    default: return "?";
  }
}

namespace {

constexpr int kDensityLevels = 4;  // 1, 2, 4, 8 texels per cell
constexpr int kPatternCells = 4;   // one atlas pattern covers 4x4 cells
constexpr uint64_t kEvictAfterFrames = 240;

// Texels per cell never exceed screen pixels per cell, so the ground is magnified (or
// drawn 1:1), never minified.
int density_level(float zoom) {
  if (zoom >= 8.f) return 3;
  if (zoom >= 4.f) return 2;
  if (zoom >= 2.f) return 1;
  return 0;
}
// Nearest sampling (much cheaper for a software rasteriser) until the magnification would
// show blocks.
SDL_ScaleMode ground_scale_mode(float zoom, int texels_per_cell) {
  return zoom > 2.5f * float(texels_per_cell) ? SDL_ScaleModeLinear : SDL_ScaleModeNearest;
}

// Pixels are SDL_PIXELFORMAT_ABGR8888: bytes R, G, B, A in memory on little-endian.
inline uint32_t pack(int r, int g, int b, int a) {
  return uint32_t(std::clamp(r, 0, 255)) | uint32_t(std::clamp(g, 0, 255)) << 8 |
         uint32_t(std::clamp(b, 0, 255)) << 16 | uint32_t(std::clamp(a, 0, 255)) << 24;
}
inline uint32_t darken(uint32_t p, int keep256) {
  int r = int(p & 255) * keep256 >> 8, g = int(p >> 8 & 255) * keep256 >> 8, b = int(p >> 16 & 255) * keep256 >> 8;
  return pack(r, g, b, 255);
}
inline uint32_t blend_toward(uint32_t p, uint32_t q, int t256) {
  auto ch = [&](int s) {
    int a = int(p >> s & 255), b = int(q >> s & 255);
    return a + ((b - a) * t256 >> 8);
  };
  return pack(ch(0), ch(8), ch(16), 255);
}
inline uint32_t cell_hash(uint32_t x, uint32_t y) {
  uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  return h ^ (h >> 15);
}

}  // namespace

// [SECTION] Patterns

void init_terrain_layer(TerrainLayer& t, const Atlas& atlas) {
  // Box-filter each 32x32 atlas pattern down to 4d x 4d texels for d = 1, 2, 4, 8.
  for (int k = 0; k < kTerrainKinds; ++k)
    for (int v = 0; v < kTerrainVariants; ++v) {
      SpriteRect r = sprite_rect(kSpriteTerrain0 + k * kTerrainVariants + v);
      for (int level = 0; level < kDensityLevels; ++level) {
        int d = 1 << level, side = kPatternCells * d, step = r.w / side;
        auto& out = t.patterns[k][v][level];
        out.assign(size_t(side) * side, 0);
        for (int y = 0; y < side; ++y)
          for (int x = 0; x < side; ++x) {
            int acc[3] = {};
            for (int sy = 0; sy < step; ++sy)
              for (int sx = 0; sx < step; ++sx) {
                uint32_t p = atlas.pixel(r.x + x * step + sx, r.y + y * step + sy);
                acc[0] += int(p & 255), acc[1] += int(p >> 8 & 255), acc[2] += int(p >> 16 & 255);
              }
            int n = step * step;
            out[size_t(y) * side + x] = pack(acc[0] / n, acc[1] / n, acc[2] / n, 255);
          }
      }
    }
}

uint32_t ground_tile_chunks(uint32_t chunk_cells, int level) {
  if (level > 0 || chunk_cells == 0 || chunk_cells >= kGroundTileCells) return 1;
  return std::bit_ceil((kGroundTileCells + chunk_cells - 1) / chunk_cells);
}

void reset_terrain_layer(TerrainLayer& t) {
  for (auto& c : t.chunks)
    if (c.texture) SDL_DestroyTexture(c.texture);
  for (auto& o : t.overlays)
    if (o.texture) SDL_DestroyTexture(o.texture);
  for (auto& o : t.fires)
    if (o.texture) SDL_DestroyTexture(o.texture);
  for (auto& o : t.trails)
    if (o.texture) SDL_DestroyTexture(o.texture);
  t.chunks.clear();
  t.overlays.clear();
  t.fires.clear();
  t.trails.clear();
  t.trail_glow.clear();
  t.copies.clear();
  t.textures_alive = 0;
}

// [SECTION] Ground textures (rebuilt when a chunk's tiles change)

namespace {

bool is_water(const Game& g, int cx, int cy) {
  return !in_map(g, cx, cy) || g.terrain[cell_index(g, cx, cy)] == Terrain::Water;
}

// Smooth brightness variation over the map (value noise, 8 cells per feature) as a
// multiplier in 1/256, sampled per texel: breaks up the repetition of the 4x4-cell patterns.
int world_shade(float x, float y) {
  auto at = [](int i, int j) { return float(cell_hash(uint32_t(i) + 7919u, uint32_t(j) + 104729u) & 255); };
  x *= 0.125f, y *= 0.125f;
  int x0 = int(x), y0 = int(y);
  float fx = x - float(x0), fy = y - float(y0);
  fx = fx * fx * (3 - 2 * fx), fy = fy * fy * (3 - 2 * fy);
  float a = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
  float b = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
  float n = a + (b - a) * fy;          // 0..255
  return 228 + int(n * 48.f / 255.f);  // 0.89 .. 1.08
}

// Writes one cell's d x d texels into the chunk image at (ox, oy).
void paint_cell(TerrainLayer& t, const Game& g, int cx, int cy, int level, int ox, int oy, int stride) {
  const int d = 1 << level, side = kPatternCells * d;
  uint32_t cell = cell_index(g, cx, cy);
  int kind = std::min(int(g.terrain[cell]), kTerrainKinds - 1);
  int variant = int(cell_hash(uint32_t(cx) / kPatternCells, uint32_t(cy) / kPatternCells) % kTerrainVariants);
  const uint32_t* pat = t.patterns[kind][variant][level].data();
  int px0 = (cx % kPatternCells) * d, py0 = (cy % kPatternCells) * d;
  // Scorch is interpolated between cell centres so burn marks come out round, not blocky.
  auto scorch_at = [&](int x, int y) {
    x = std::clamp(x, 0, int(g.width) - 1), y = std::clamp(y, 0, int(g.height) - 1);
    return int(g.scorch[cell_index(g, x, y)]);
  };
  int scorch = 0;
  if (!g.scorch.empty())
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) scorch = std::max(scorch, scorch_at(cx + dx, cy + dy));
  bool water = kind == int(Terrain::Water);
  // Foam on the water's edge: which sides touch land.
  bool land_l = water && !is_water(g, cx - 1, cy), land_r = water && !is_water(g, cx + 1, cy);
  bool land_u = water && !is_water(g, cx, cy - 1), land_d = water && !is_water(g, cx, cy + 1);
  const uint32_t foam = pack(200, 228, 240, 255);
  for (int y = 0; y < d; ++y) {
    uint32_t* row = &t.scratch[size_t(oy + y) * stride + ox];
    for (int x = 0; x < d; ++x) {
      int shade = world_shade(float(cx) + (float(x) + 0.5f) / float(d), float(cy) + (float(y) + 0.5f) / float(d));
      uint32_t p = darken(pat[size_t(py0 + y) * side + px0 + x], shade);
      if (water && (land_l || land_r || land_u || land_d)) {
        // Distance to the nearest land side, in fractions of a cell.
        float fx = (float(x) + 0.5f) / float(d), fy = (float(y) + 0.5f) / float(d), dist = 1;
        if (land_l) dist = std::min(dist, fx);
        if (land_r) dist = std::min(dist, 1 - fx);
        if (land_u) dist = std::min(dist, fy);
        if (land_d) dist = std::min(dist, 1 - fy);
        if (dist < 0.3f) p = blend_toward(p, foam, int(200 * (1 - dist / 0.3f)));
      }
      if (scorch) {
        float sx = float(cx) + (float(x) + 0.5f) / float(d) - 0.5f,
              sy = float(cy) + (float(y) + 0.5f) / float(d) - 0.5f;
        int x0 = int(std::floor(sx)), y0 = int(std::floor(sy));
        float tx = sx - float(x0), ty = sy - float(y0);
        float top = float(scorch_at(x0, y0)) * (1 - tx) + float(scorch_at(x0 + 1, y0)) * tx;
        float bottom = float(scorch_at(x0, y0 + 1)) * (1 - tx) + float(scorch_at(x0 + 1, y0 + 1)) * tx;
        float here = top * (1 - ty) + bottom * ty;
        // Irregular burn: darker where the texel noise says so.
        int noise = int(cell_hash(uint32_t(cx * d + x), uint32_t(cy * d + y)) & 63);
        int dark = std::min(235, int(here) * (170 + noise) / 256);
        p = darken(p, 256 - dark);
      }
      row[x] = p;
    }
  }
}

// The ground of the square of `cs` cells from cell (x0, y0) into ct.
void build_ground(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, ChunkTexture& ct, int x0, int y0, int cs,
                  int level, uint64_t stamp) {
  // One cell of border on every side (from the neighbours) so linear filtering has no seams.
  const int d = 1 << level, side = (cs + 2) * d;
  if (!ct.texture || ct.texels_per_cell != d) {
    if (ct.texture) {
      SDL_DestroyTexture(ct.texture);
      --t.textures_alive;
    }
    ct.texture = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, side, side);
    if (!ct.texture) return;
    ++t.textures_alive;
    SDL_SetTextureBlendMode(ct.texture, SDL_BLENDMODE_NONE);  // the ground is opaque
    ct.texels_per_cell = d;
  }
  t.scratch.assign(size_t(side) * side, pack(0, 0, 0, 255));
  for (int y = -1; y <= cs; ++y)
    for (int x = -1; x <= cs; ++x) {
      int cx = x0 + x, cy = y0 + y;
      if (in_map(g, cx, cy)) paint_cell(t, g, cx, cy, level, (x + 1) * d, (y + 1) * d, side);
    }
  SDL_UpdateTexture(ct.texture, nullptr, t.scratch.data(), side * 4);
  ct.stamp = stamp;
  ++t.rebuilt_this_frame;
}

void drop_ground(TerrainLayer& t) {
  for (auto& c : t.chunks)
    if (c.texture) {
      SDL_DestroyTexture(c.texture);
      --t.textures_alive;
    }
  t.chunks.clear();
}

}  // namespace

// [SECTION] Overlay textures (pheromones, rebuilt as the fields evolve)
// Cell textures hold one texel per cell plus a one-cell border copied from the neighbouring
// chunks, so linear filtering is seamless across chunk edges; they are drawn from
// bordered_src().

namespace {

SDL_Rect bordered_src(int cs) { return {1, 1, cs, cs}; }

SDL_Texture* make_cell_texture(SDL_Renderer* renderer, int cs, SDL_BlendMode mode) {
  SDL_Texture* tex = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, cs + 2, cs + 2);
  if (!tex) return nullptr;
  SDL_SetTextureBlendMode(tex, mode);
  SDL_SetTextureScaleMode(tex, SDL_ScaleModeLinear);
  return tex;
}

// Clears the scratch image and calls fn(cell, texel) for every in-map cell of the chunk and its border.
template <class Fn>
void for_each_bordered_cell(TerrainLayer& t, const Game& g, u32 chunk, Fn&& fn) {
  const ecs::ChunkGrid& grid = g.ecs->grid();
  const int cs = int(grid.chunk_cells), side = cs + 2;
  t.scratch.assign(size_t(side) * side, 0);
  int col = int(grid.chunk_col(chunk)), row = int(grid.chunk_row(chunk));
  for (int y = -1; y <= cs; ++y)
    for (int x = -1; x <= cs; ++x) {
      int cx = col * cs + x, cy = row * cs + y;
      if (in_map(g, cx, cy)) fn(cell_index(g, cx, cy), t.scratch[size_t(y + 1) * side + size_t(x + 1)]);
    }
}

// Scent strength to opacity.
inline int scent_alpha(float v, float scale) { return int(230.f * (1.f - std::exp(-v / scale))); }

void build_overlay(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, u32 chunk, Overlay mode) {
  OverlayTexture& ot = t.overlays[chunk];
  const int cs = int(g.ecs->grid().chunk_cells);
  if (!ot.texture && !(ot.texture = make_cell_texture(renderer, cs, SDL_BLENDMODE_BLEND))) return;
  const size_t colonies = g.colonies.size();
  const int field = mode == Overlay::ToFood ? int(Field::ToFood) : int(Field::ToHome);
  for_each_bordered_cell(t, g, chunk, [&](u32 cell, uint32_t& out) {
    if (mode == Overlay::Danger) {
      float v = cell < g.danger.size() ? g.danger[cell] : 0.f;
      // Magenta: red-orange read as dirt, scorch or fire, which a blast leaves under it.
      if (v > 0) out = pack(255, 40, 220, scent_alpha(v, 1.5f));
      return;
    }
    // The strongest colony's scent, in that colony's colour.
    float best = 0, total = 0;
    size_t who = 0;
    for (size_t c = 0; c < colonies; ++c) {
      size_t f = c * 2 + size_t(field);
      if (f >= g.fields.size() || cell >= g.fields[f].size()) continue;
      float v = g.fields[f][cell];
      total += v;
      if (v > best) best = v, who = c;
    }
    if (total <= 0) return;
    uint32_t cc = g.colonies[who].color;
    int r = int(cc & 255), gg = int(cc >> 8 & 255), b = int(cc >> 16 & 255);
    // Lift the colour toward white so dark colonies still read on grass.
    out = pack((2 * r + 255) / 3, (2 * gg + 255) / 3, (2 * b + 255) / 3, scent_alpha(total, 2.f));
  });
  SDL_UpdateTexture(ot.texture, nullptr, t.scratch.data(), (cs + 2) * 4);
  ot.tick = g.tick;
  ot.mode = mode;
}

// The trails view: each colony's to-food and to-home scent together, in its own colour
// (strong scent with a white-hot core), added up over the colonies; kept in t.trail_glow
// with its afterglow. Faint scent stays dark, so the trails ants share stand out.
void build_trails(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, u32 chunk) {
  OverlayTexture& tt = t.trails[chunk];
  const int cs = int(g.ecs->grid().chunk_cells);
  if (!tt.texture && !(tt.texture = make_cell_texture(renderer, cs, SDL_BLENDMODE_ADD))) return;
  const uint64_t since = tt.tick == ~0ull || tt.tick > g.tick ? 0 : g.tick - tt.tick;
  const float fade = since == 0 ? 1.0f : std::pow(kTrailFadePerTick, float(since));
  const ecs::ChunkGrid& grid = g.ecs->grid();
  const int col = int(grid.chunk_col(chunk)), row = int(grid.chunk_row(chunk));
  // The chunk's own cells: fade the old glow, keep the brighter of it and the scent now.
  for (int y = 0; y < cs; ++y)
    for (int x = 0; x < cs; ++x) {
      const int cx = col * cs + x, cy = row * cs + y;
      if (!in_map(g, cx, cy)) continue;
      const u32 cell = cell_index(g, cx, cy);
      float now[3] = {};
      for (size_t c = 0; c < g.colonies.size() && c * 2 + 1 < g.fields.size(); ++c) {
        const float v = g.fields[c * 2][cell] + g.fields[c * 2 + 1][cell];
        if (v <= 0) continue;
        // Scent runs from 0 to 1 (the trail's strength where it was laid, rules.deposit).
        const float k = std::pow(std::min(v, 1.0f), 0.75f), core = 0.25f * k * k * k;
        const u32 cc = g.colonies[c].color;
        for (int ch = 0; ch < 3; ++ch) now[ch] += k * (0.9f * float(cc >> (8 * ch) & 255) / 255.0f + 0.1f) + core;
      }
      float* glow = &t.trail_glow[size_t(cell) * 3];
      for (int ch = 0; ch < 3; ++ch) glow[ch] = std::max(std::min(now[ch], 1.0f), glow[ch] * fade);
    }
  for_each_bordered_cell(t, g, chunk, [&](u32 cell, uint32_t& out) {
    const SDL_Color c = trail_color_at(t, g, cell);
    if (c.r | c.g | c.b) out = pack(c.r, c.g, c.b, 255);
  });
  SDL_UpdateTexture(tt.texture, nullptr, t.scratch.data(), (cs + 2) * 4);
  tt.tick = g.tick;
}

// Fire: burning cells glow orange while hot and char dark as they burn down.
void build_fire(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, u32 chunk) {
  OverlayTexture& ft = t.fires[chunk];
  const int cs = int(g.ecs->grid().chunk_cells);
  if (!ft.texture && !(ft.texture = make_cell_texture(renderer, cs, SDL_BLENDMODE_BLEND))) return;
  const float burn_ticks = float(std::max<u32>(1, g.scenario.rules.burn_ticks));
  const uint32_t phase = uint32_t(g.tick / 4);
  for_each_bordered_cell(t, g, chunk, [&](u32 cell, uint32_t& out) {
    u16 f = g.fire[cell];
    if (f == 0) return;
    float heat = std::min(1.f, float(f) / burn_ticks);
    int flicker = int(cell_hash(cell, phase) & 31);  // the glow breathes
    float k = heat * heat;
    out = pack(int(45 + 210 * k) + flicker, int(15 + 95 * k) + flicker / 2, int(5 + 15 * k), int(150 + 40 * heat));
  });
  SDL_UpdateTexture(ft.texture, nullptr, t.scratch.data(), (cs + 2) * 4);
  ft.tick = g.tick;
}

}  // namespace

// [SECTION] Drawing and eviction

namespace {

// Screen rectangle of a chunk: whole-pixel edges computed from the chunk borders, so
// neighbours never leave a seam.
// The screen rectangle of the cells from (x0, y0) up to (x1, y1), edges on whole pixels
// so that neighbouring rectangles meet without gaps.
SDL_Rect cells_rect(const Camera& cam, float x0, float y0, float x1, float y1) {
  int sx0 = int(std::floor(screen_x(cam, x0))), sx1 = int(std::floor(screen_x(cam, x1)));
  int sy0 = int(std::floor(screen_y(cam, y0))), sy1 = int(std::floor(screen_y(cam, y1)));
  return {sx0, sy0, sx1 - sx0, sy1 - sy0};
}
SDL_Rect chunk_rect(const Camera& cam, int col, int row, float cs) {
  return cells_rect(cam, float(col) * cs, float(row) * cs, float(col + 1) * cs, float(row + 1) * cs);
}

}  // namespace

SDL_Color trail_color_at(const TerrainLayer& t, const Game& g, u32 cell) {
  if (size_t(cell) * 3 + 2 >= t.trail_glow.size() || cell >= g.width * g.height) return {0, 0, 0, 255};
  const float* glow = &t.trail_glow[size_t(cell) * 3];
  auto level = [](float v) { return Uint8(std::lround(255.0f * std::clamp(v, 0.0f, 1.0f))); };
  return {level(glow[0]), level(glow[1]), level(glow[2]), 255};
}

void refresh_trails(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam) {
  const ecs::ChunkGrid& grid = g.ecs->grid();
  if (t.trails.size() != grid.chunk_count()) t.trails.assign(grid.chunk_count(), {});
  if (t.trail_glow.size() != size_t(g.width) * g.height * 3) t.trail_glow.assign(size_t(g.width) * g.height * 3, 0.0f);
  // The ground dimmed: the trails are the picture, walls and water still show beneath.
  t.copies.push_back({nullptr, {}, cells_rect(cam, 0, 0, float(g.width), float(g.height))});
  const int cs = int(grid.chunk_cells);
  const SDL_Rect src = bordered_src(cs);
  const ChunkRange v = chunks_in(grid, visible_rect(cam, 0));
  v.for_each(grid, [&](u32 chunk, int col, int row) {
    OverlayTexture& tt = t.trails[chunk];
    // Each chunk is refreshed every fourth frame at most, as the scent overlay is.
    if (!tt.texture || (tt.tick != g.tick && (chunk + t.frame) % 4 == 0)) build_trails(t, renderer, g, chunk);
    tt.last_used = t.frame;
    if (tt.texture) t.copies.push_back({tt.texture, src, chunk_rect(cam, col, row, float(cs))});
  });
}

void refresh_fire_glow(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam) {
  const ecs::ChunkGrid& grid = g.ecs->grid();
  if (t.fires.size() != grid.chunk_count() || g.chunk_burning.size() != grid.chunk_count()) return;
  const SDL_Rect src = bordered_src(int(grid.chunk_cells));
  const ChunkRange v = chunks_in(grid, visible_rect(cam, 0));
  v.for_each(grid, [&](u32 chunk, int col, int row) {
    // A chunk whose neighbour burns needs its border texels too.
    bool near_fire = false;
    for (int dr = -1; dr <= 1 && !near_fire; ++dr)
      for (int dc = -1; dc <= 1 && !near_fire; ++dc) {
        int r = row + dr, c = col + dc;
        if (r >= 0 && c >= 0 && r < int(grid.chunks_y) && c < int(grid.chunks_x))
          near_fire = g.chunk_burning[u32(r) * grid.chunks_x + u32(c)] > 0;
      }
    OverlayTexture& ft = t.fires[chunk];
    if (!near_fire) {
      ft.tick = ~0ull;
      return;
    }
    if (!ft.texture || ft.tick != g.tick) build_fire(t, renderer, g, chunk);
    ft.last_used = t.frame;
    if (ft.texture) t.copies.push_back({ft.texture, src, chunk_rect(cam, col, row, float(grid.chunk_cells))});
  });
}

void refresh_terrain(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam, Overlay overlay) {
  const ecs::ChunkGrid& grid = g.ecs->grid();
  const u32 chunk_count = grid.chunk_count();
  if (t.overlays.size() != chunk_count || t.chunk_cells != grid.chunk_cells) {
    reset_terrain_layer(t);
    t.overlays.resize(chunk_count);
    t.fires.resize(chunk_count);
    t.chunk_cells = grid.chunk_cells;
    t.tile_chunks = 0;
  }
  ++t.frame;
  t.rebuilt_this_frame = 0;
  t.copies.clear();
  const int level = density_level(cam.zoom);
  const ChunkRange v = chunks_in(grid, visible_rect(cam, 0));
  const int cs = int(grid.chunk_cells);

  // The ground, a tile at a time (a chunk, or zoomed out on small chunks a square of them).
  const u32 tile = ground_tile_chunks(grid.chunk_cells, level);
  if (tile != t.tile_chunks) {
    drop_ground(t);
    t.tile_chunks = tile;
    t.tiles_x = (grid.chunks_x + tile - 1) / tile;
    t.chunks.resize(size_t(t.tiles_x) * ((grid.chunks_y + tile - 1) / tile));
  }
  const int ts = int(tile), tile_cells = cs * ts;
  for (int tr = v.r0 / ts; tr <= v.r1 / ts; ++tr)
    for (int tc = v.c0 / ts; tc <= v.c1 / ts; ++tc) {
      const size_t index = size_t(tr) * t.tiles_x + size_t(tc);
      ChunkTexture& ct = t.chunks[index];
      // The tile's stamp: the latest change of any of its chunks.
      uint64_t stamp = 0;
      for (int r = tr * ts; r < std::min((tr + 1) * ts, int(grid.chunks_y)); ++r)
        for (int c = tc * ts; c < std::min((tc + 1) * ts, int(grid.chunks_x)); ++c) {
          const size_t chunk = size_t(r) * grid.chunks_x + size_t(c);
          if (chunk < g.dirty_chunks_stamp.size()) stamp = std::max(stamp, g.dirty_chunks_stamp[chunk]);
        }
      // Missing or wrong-density textures are built at once; a tile whose cells changed
      // (fire turning grass to dirt every tick) is refreshed every fourth frame at most.
      bool missing = !ct.texture || ct.texels_per_cell != (1 << level);
      if (missing || (ct.stamp != stamp && (index + t.frame) % 4 == 0))
        build_ground(t, renderer, g, ct, tc * tile_cells, tr * tile_cells, tile_cells, level, stamp);
      ct.last_used = t.frame;
      if (!ct.texture) continue;
      // Drawn up to the map's edge only: a tile (or the last chunk) may reach past it.
      const int x0 = tc * tile_cells, y0 = tr * tile_cells;
      const int w = std::min(tile_cells, int(g.width) - x0), h = std::min(tile_cells, int(g.height) - y0);
      if (w <= 0 || h <= 0) continue;
      SDL_SetTextureScaleMode(ct.texture, ground_scale_mode(cam.zoom, ct.texels_per_cell));
      const int d = ct.texels_per_cell;
      SDL_Rect inner{d, d, w * d, h * d};
      t.copies.push_back({ct.texture, inner, cells_rect(cam, float(x0), float(y0), float(x0 + w), float(y0 + h))});
    }

  // The scent overlay, a chunk at a time.
  if (overlay != Overlay::Off) {
    const SDL_Rect src = bordered_src(cs);
    v.for_each(grid, [&](u32 chunk, int col, int row) {
      OverlayTexture& ot = t.overlays[chunk];
      // Scent changes every tick; each chunk is refreshed every fourth frame at most.
      bool stale = !ot.texture || ot.mode != overlay || (ot.tick != g.tick && (chunk + t.frame) % 4 == 0);
      if (stale) build_overlay(t, renderer, g, chunk, overlay);
      ot.last_used = t.frame;
      if (ot.texture) t.copies.push_back({ot.texture, src, chunk_rect(cam, col, row, float(cs))});
    });
  }
  // Textures out of sight for a while are given back.
  if (t.frame % 60 == 0) {
    for (auto& c : t.chunks)
      if (c.texture && t.frame - c.last_used > kEvictAfterFrames) {
        SDL_DestroyTexture(c.texture);
        c = {};
        --t.textures_alive;
      }
    for (u32 c = 0; c < t.trails.size(); ++c)
      if (t.trails[c].texture && t.frame - t.trails[c].last_used > kEvictAfterFrames) {
        // The tick stays: the glow kept for the chunk fades by it when the chunk is seen again.
        SDL_DestroyTexture(t.trails[c].texture);
        t.trails[c].texture = nullptr;
      }
    for (u32 c = 0; c < chunk_count; ++c)
      for (auto* o : {&t.overlays[c], &t.fires[c]})
        if (o->texture && t.frame - o->last_used > kEvictAfterFrames) {
          SDL_DestroyTexture(o->texture);
          *o = {};
        }
  }
}

void draw_terrain(const TerrainLayer& t, SDL_Renderer* renderer) {
  for (const TerrainCopy& c : t.copies) {
    if (c.texture) {
      SDL_RenderCopy(renderer, c.texture, &c.src, &c.dst);
      continue;
    }
    SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(renderer, 0, 0, 0, kTrailsDim);
    SDL_RenderFillRect(renderer, &c.dst);
  }
}

}  // namespace colony::render
