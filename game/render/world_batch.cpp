// world_batch.cpp — builds the frame's vertex batch from the render-piece pool.
//
// Table of contents
//   [SECTION] Quads
//   [SECTION] Entities (pieces, level of detail, highlight)
//   [SECTION] Fire and nests
//   [SECTION] Submit
#include "world_batch.h"

#include <algorithm>
#include <cmath>

namespace colony::render {

// [SECTION] Quads

Detail detail_for_zoom(float zoom) {
  if (zoom >= 14.f) return Detail::Pieces;
  if (zoom >= 3.f) return Detail::Sprite;
  return Detail::Dot;
}

void clear_batch(FrameBatch& b) {
  for (auto& v : b.verts) v.clear();
  b.entities = b.quads = 0;
  if (b.crowd_dots) std::fill(b.crowd.begin(), b.crowd.end(), 0u);
  b.crowd_dots = 0;
}

void free_batch(FrameBatch& b) {
  for (const auto& t : b.crowd_tiles) SDL_DestroyTexture(t.texture);
  b.crowd_tiles.clear();
  b.crowd_tiles_w = b.crowd_tiles_h = 0;
}

namespace {

// Texture coordinates of a sprite, inset half a texel so linear filtering never reads a neighbour.
struct Uv {
  float u0, v0, u1, v1;
};
Uv sprite_uv(int sprite) {
  SpriteRect r = sprite_rect(sprite);
  const float inv = 1.f / float(kAtlasSize);
  return {(float(r.x) + 0.5f) * inv, (float(r.y) + 0.5f) * inv, (float(r.x + r.w) - 0.5f) * inv,
          (float(r.y + r.h) - 0.5f) * inv};
}

// One quad from its screen centre and two half-axes (forward a, sideways s) in pixels.
// A quad centred on `at` (screen pixels) whose half-extents along its own axes are the
// vectors `along` and `across`.
inline void emit_quad(std::vector<SDL_Vertex>& v, glm::vec2 at, glm::vec2 along, glm::vec2 across, const Uv& uv,
                      SDL_Color c) {
  auto vertex = [&](glm::vec2 p, float u, float w) { v.push_back({{p.x, p.y}, c, {u, w}}); };
  vertex(at - along - across, uv.u0, uv.v0);
  vertex(at + along - across, uv.u1, uv.v0);
  vertex(at + along + across, uv.u1, uv.v1);
  vertex(at - along + across, uv.u0, uv.v1);
}
// A quad turned by `axes` (a rotation's columns), half-size `half` along them.
inline void emit_quad(std::vector<SDL_Vertex>& v, glm::vec2 at, const glm::mat2& axes, glm::vec2 half, const Uv& uv,
                      SDL_Color c) {
  emit_quad(v, at, axes[0] * half.x, axes[1] * half.y, uv, c);
}

// Sprite for a piece: its part, except parts the atlas has no better picture for.
int piece_sprite(const RenderPiece& p) {
  int part = int(p.part);
  return part < int(Part::Count) ? part : kSpriteSolid;
}
bool part_has_own_colours(Part p) { return p == Part::CarriedFood || p == Part::Crumb; }

// Corpses are drawn in faded, darkened versions of their colours.
SDL_Color corpse_color(SDL_Color c) {
  uint8_t grey = uint8_t((c.r + c.g + c.b) / 3);
  auto ch = [grey](uint8_t x) { return uint8_t((int(x) + 2 * int(grey)) / 3 * 45 / 100); };
  return {ch(c.r), ch(c.g), ch(c.b), 230};
}

// Length of the whole-ant sprite, in cells, per kind.
float far_length(Kind k) {
  switch (k) {
    case Kind::Soldier: return 1.25f;
    case Kind::Queen: return 2.4f;
    default: return 1.0f;
  }
}

}  // namespace

void push_sprite(FrameBatch& b, Layer layer, const Camera& cam, float x, float y, float angle, float w, float h,
                 int sprite, SDL_Color color) {
  emit_quad(b.verts[layer], to_screen(cam, {x, y}), rotation(angle), glm::vec2(w, h) * 0.5f * cam.zoom,
            sprite_uv(sprite), color);
  ++b.quads;
}

// [SECTION] Entities (pieces, level of detail, highlight)

namespace {

// Living ants' legs and antennae: this much thicker than their pieces' size, and their
// colour this far toward white (see draw_pieces).
constexpr float kLimbThickening = 2.0f, kLimbLightening = 0.5f;
SDL_Color limb_color(SDL_Color c) {
  auto lift = [](Uint8 v) { return Uint8(float(v) + (255.0f - float(v)) * kLimbLightening); };
  return {lift(c.r), lift(c.g), lift(c.b), c.a};
}

struct EntityDraw {
  FrameBatch& b;
  Game& g;
  const Camera& cam;
  Detail detail;
  ViewRect view;
  Handle highlight;
  Uv uv[kSpriteCount];

  const Atlas* atlas;
  bool hide_ants;

  EntityDraw(FrameBatch& batch, Game& game, const BatchInput& in)
      : b(batch),
        g(game),
        cam(*in.camera),
        detail(in.detail),
        view(visible_rect(*in.camera, 5)),
        highlight(in.highlight),
        atlas(in.atlas),
        hide_ants(in.hide_ants) {
    for (int i = 0; i < kSpriteCount; ++i) uv[i] = sprite_uv(i);
  }

  SDL_Color colony_color(const Body& body) const {
    return body.colony < g.colonies.size() ? abgr_color(g.colonies[body.colony].color) : SDL_Color{255, 255, 255, 255};
  }

  // Every piece of the record, placed by the owner's position and heading.
  void draw_pieces(const Record& r, Layer layer, bool corpse, bool glow) {
    const Body& body = r.payload;
    const float zoom = cam.zoom;
    const glm::mat2 heading = rotation(body.heading);
    const glm::vec2 centre = to_screen(cam, {body.x, body.y});
    const auto& list = g.ecs->list<RenderPiece>(r);
    const RenderPiece* items = g.ecs->pool<RenderPiece>().items.get();
    auto& out = b.verts[glow ? kLayerLight : layer];
    for (u32 k = 0; k < list.added; ++k) {
      const RenderPiece& p = items[list.slot[k]];
      // Piece centre: owner position + heading-rotated offset; the piece turned by the
      // owner's heading and its own rotation.
      const glm::vec2 at = centre + heading * glm::vec2(p.offset_x(), p.offset_y()) * zoom;
      const float grow = glow ? 1.35f : 1.f;
      glm::vec2 half = glm::vec2(p.size_x(), p.size_y()) * 0.5f * zoom * grow;
      // A living ant's legs and antennae are drawn thicker than their size and in a pale
      // tint of its colour, lighter than the body they sit on: close up, a missing one
      // leaves a plain gap. Thin parts keep at least a pixel of thickness so they stay readable.
      const bool limb = !corpse && !glow && is_paired_limb(p.part);
      if (limb) half.y *= kLimbThickening;
      half.y = std::fmax(half.y, 0.6f);
      SDL_Color col;
      if (glow) col = {255, 230, 140, 90};
      else if (part_has_own_colours(p.part)) col = {255, 255, 255, 255};
      else col = p.color ? abgr_color(p.color) : colony_color(body);
      if (limb) col = limb_color(col);
      if (corpse && !glow) col = corpse_color(col);
      emit_quad(out, at, rotation(body.heading + p.rotation()), half, uv[piece_sprite(p)], col);
    }
    b.quads += list.added;
  }

  // The part of a size x size block at (x0, y0) inside the crowd image: rows [y_begin,
  // y_end) and columns [x_begin, x_end) of the block, empty when it lies outside. A block
  // across the image's edge is drawn in part, so that an ant slides out of view instead
  // of vanishing whole while its centre is still on the screen.
  struct BlockClip {
    int x_begin, x_end, y_begin, y_end;
    bool empty() const { return x_begin >= x_end || y_begin >= y_end; }
  };
  BlockClip clip_block(int x0, int y0, int size) const {
    return {std::max(0, -x0), std::min(size, b.crowd_w - x0), std::max(0, -y0), std::min(size, b.crowd_h - y0)};
  }
  // The crowd image's pixel at (x, y), inside the image.
  uint32_t* crowd_pixel(int x, int y) { return &b.crowd[size_t(y) * size_t(b.crowd_w) + size_t(x)]; }
  // The top-left corner of a size x size block centred on screen (x, y).
  static int block_origin(float v, int size) { return int(std::floor(v)) - size / 2; }

  // A size x size block of the crowd image centred on screen (x, y).
  void plot_dot(float x, float y, int size, SDL_Color c) {
    const int x0 = block_origin(x, size), y0 = block_origin(y, size);
    const BlockClip clip = clip_block(x0, y0, size);
    if (clip.empty()) return;
    const uint32_t px = uint32_t(c.r) | uint32_t(c.g) << 8 | uint32_t(c.b) << 16 | 0xFF000000u;
    for (int yy = clip.y_begin; yy < clip.y_end; ++yy) {
      uint32_t* row = crowd_pixel(x0 + clip.x_begin, y0 + yy);
      std::fill(row, row + (clip.x_end - clip.x_begin), px);
    }
    ++b.crowd_dots;
  }

  // The index in b.stamps of the sprite's images at `size` pixels, one per heading. Stale
  // sizes are dropped at the start of a frame (build_world_batch), never during one: the
  // queued stamps name their images by index.
  int stamp_for(int sprite, int size) {
    for (size_t i = 0; i < b.stamps.size(); ++i)
      if (b.stamps[i].sprite == sprite && b.stamps[i].size == size) return int(i);
    FrameBatch::Stamp st;
    st.sprite = sprite, st.size = size;
    st.alpha.assign(size_t(kStampDirections) * size * size, 0);
    st.shade.assign(st.alpha.size(), 0);
    SpriteRect rect = sprite_rect(sprite);
    for (int k = 0; k < kStampDirections; ++k) {
      float a = float(k) * 6.2831853f / kStampDirections, c = std::cos(a), s = std::sin(a);
      for (int py = 0; py < size; ++py)
        for (int px = 0; px < size; ++px) {
          // Screen offset in [-1, 1], turned back into the sprite's frame (u along the heading).
          float dx = (float(px) + 0.5f) / float(size) * 2 - 1, dy = (float(py) + 0.5f) / float(size) * 2 - 1;
          float u = dx * c + dy * s, v = -dx * s + dy * c;
          if (u <= -1 || u >= 1 || v <= -1 || v >= 1) continue;
          int tx = rect.x + int((u + 1) * 0.5f * float(rect.w)), ty = rect.y + int((v + 1) * 0.5f * float(rect.h));
          uint32_t p = atlas->pixel(tx, ty);
          size_t i = size_t(k) * size * size + size_t(py) * size + size_t(px);
          st.alpha[i] = uint8_t(p >> 24);
          st.shade[i] = uint8_t(p & 255);
        }
    }
    b.stamps.push_back(std::move(st));
    return int(b.stamps.size()) - 1;
  }

  // Queues a stamp centred on screen (x, y), tinted with c, when any of it lies inside
  // the image (it is clipped when plotted).
  void queue_stamp(float x, float y, int stamp, int dir, SDL_Color c) {
    const int size = b.stamps[size_t(stamp)].size;
    const int x0 = block_origin(x, size), y0 = block_origin(y, size);
    if (clip_block(x0, y0, size).empty()) return;
    b.stamp_orders.push_back({int16_t(x0), int16_t(y0), uint8_t(stamp), uint8_t(dir), c.r, c.g, c.b});
  }

  // The queued stamps, a band of kStampBandRows rows at a time (a counting sort by the
  // band of their top row), each band's in the order they were queued.
  void plot_queued_stamps() {
    const size_t bands = size_t(b.crowd_h / kStampBandRows + 1);
    b.band_start.assign(bands + 1, 0);
    // A stamp across the top edge goes with the first band.
    auto band = [](const FrameBatch::StampOrder& o) { return size_t(std::max(0, int(o.y0)) / kStampBandRows); };
    for (const auto& o : b.stamp_orders) ++b.band_start[band(o) + 1];
    for (size_t k = 1; k <= bands; ++k) b.band_start[k] += b.band_start[k - 1];
    b.stamps_by_band.resize(b.stamp_orders.size());
    for (const auto& o : b.stamp_orders) b.stamps_by_band[b.band_start[band(o)]++] = o;
    for (const auto& o : b.stamps_by_band) plot_stamp(o);
    b.stamp_orders.clear();
  }

  // Paints a queued stamp (alpha over) into the crowd image.
  void plot_stamp(const FrameBatch::StampOrder& o) {
    const FrameBatch::Stamp& st = b.stamps[o.stamp];
    const int size = st.size, x0 = o.x0, y0 = o.y0, dir = o.dir;
    const SDL_Color c{o.r, o.g, o.b, 255};
    const BlockClip clip = clip_block(x0, y0, size);
    for (int yy = clip.y_begin; yy < clip.y_end; ++yy) {
      uint32_t* pixel = crowd_pixel(x0 + clip.x_begin, y0 + yy);
      const size_t image_row = (size_t(dir) * size + size_t(yy)) * size;
      for (int xx = clip.x_begin; xx < clip.x_end; ++xx, ++pixel) {
        uint32_t sa = st.alpha[image_row + size_t(xx)], sh = st.shade[image_row + size_t(xx)];
        if (sa == 0) continue;
        uint32_t r = (c.r * sh) >> 8, g = (c.g * sh) >> 8, bl = (c.b * sh) >> 8;
        uint32_t d = *pixel, da = d >> 24;
        if (sa == 255 || da == 0) {
          *pixel = r | g << 8 | bl << 16 | sa << 24;
          continue;
        }
        // Straight-alpha "over".
        uint32_t keep = da * (255 - sa) / 255, oa = sa + keep;
        auto ch = [&](uint32_t src, uint32_t dst) { return (src * sa + dst * keep) / oa; };
        *pixel = ch(r, d & 255) | ch(g, d >> 8 & 255) << 8 | ch(bl, d >> 16 & 255) << 16 | oa << 24;
      }
    }
    ++b.crowd_dots;
  }

  // One or two quads for a whole ant (far zoom).
  void draw_far(const Record& r) {
    const Body& body = r.payload;
    SDL_Color col = colony_color(body);
    const glm::vec2 at = to_screen(cam, {body.x, body.y});
    const float x = at.x, y = at.y;
    auto& out = b.verts[kLayerBodies];
    if (detail == Detail::Dot) {
      plot_dot(x, y, std::max(1, int(far_length(body.kind) * 0.7f * cam.zoom + 0.5f)), col);
      return;
    }
    if (b.crowded) {
      int dir = int(std::lround(body.heading / 6.2831853f * kStampDirections)) & (kStampDirections - 1);
      queue_stamp(x, y, stamp_for(kSpriteAntFar, std::max(2, int(far_length(body.kind) * cam.zoom + 0.5f))), dir, col);
      return;
    }
    const float len = far_length(body.kind) * cam.zoom * 0.5f;
    const glm::mat2 heading = rotation(body.heading);
    emit_quad(out, at, heading, glm::vec2(len), uv[kSpriteAntFar], col);
    ++b.quads;
    if (body.carrying) {
      const float f = 0.35f * far_length(body.kind) * cam.zoom;
      emit_quad(out, at + heading[0] * len * 0.9f, glm::vec2(f, 0), glm::vec2(0, f), uv[kSpriteCarriedFood],
                {255, 255, 255, 255});
      ++b.quads;
    }
  }

  void draw(const Record& r) {
    const Body& body = r.payload;
    Kind kind = body.kind;
    if (kind == Kind::Tile || !view.contains(body.x, body.y) || (hide_ants && is_ant(kind))) return;
    ++b.entities;
    bool lit = !highlight.is_null() && r.header.handle == highlight;
    if (is_ant(kind)) {
      if (detail == Detail::Pieces) draw_pieces(r, kLayerBodies, false, false);
      else draw_far(r);
    } else if (detail == Detail::Dot && kind == Kind::Corpse) {
      return;  // corpses vanish into the ground when far away
    } else {
      draw_pieces(r, kLayerGround, kind == Kind::Corpse, false);
    }
    if (lit) {
      float ring = far_length(kind) * 1.6f;
      push_sprite(b, kLayerLight, cam, body.x, body.y, 0, ring, ring, kSpriteSelect, {255, 230, 120, 230});
      draw_pieces(r, kLayerLight, false, true);
    }
  }
};

}  // namespace

// [SECTION] Fire and nests

namespace {

void draw_nests(FrameBatch& b, const Game& g, const Camera& cam) {
  for (const Colony& c : g.colonies) {
    SDL_Color tint = abgr_color(c.color);
    push_sprite(b, kLayerGround, cam, c.nest_x, c.nest_y, 0, 7, 7, kSpriteNest, {255, 255, 255, 255});
    // A ring of the colony's colour around the mound so nests are easy to tell apart.
    push_sprite(b, kLayerGround, cam, c.nest_x, c.nest_y, 0, 8.2f, 8.2f, kSpriteSelect, {tint.r, tint.g, tint.b, 150});
  }
}

// Flames on burning cells, sized by the heat left; cooler cells show a few embers. The
// glow under them is a chunk texture (terrain_layer), not one quad per cell.
void draw_fire(FrameBatch& b, const Game& g, const Camera& cam, float seconds) {
  ViewRect view = visible_rect(cam, 2);
  const int tick_frame = int(seconds * 14.f);
  const bool far = cam.zoom < 3.f;
  const float burn_ticks = float(std::max<u32>(1, g.scenario.rules.burn_ticks));
  for (u32 cell : g.burning) {
    if (cell >= g.fire.size() || g.fire[cell] == 0) continue;
    float x = float(cell % g.width) + 0.5f, y = float(cell / g.width) + 0.5f;
    if (!view.contains(x, y)) continue;
    uint32_t h = cell * 2654435761u;
    h ^= h >> 15;
    float heat = std::min(1.f, float(g.fire[cell]) / burn_ticks);
    float r1 = float(h & 255) / 255.f, r2 = float((h >> 8) & 255) / 255.f;
    if (far) {
      if (heat > 0.4f)
        push_sprite(b, kLayerFlames, cam, x, y, 0, 1.2f, 1.2f, kSpriteDot, {255, uint8_t(80 + 100 * heat), 20, 200});
      continue;
    }
    // Zoomed out, half the hot cells carry a (larger) flame: the front reads the same for
    // half the blended pixels.
    const bool thin = cam.zoom < 10.f;
    if (thin && r2 < 0.5f) continue;
    if (heat < 0.35f || r1 < 0.3f) {
      // Embers on some of the cells, nothing on the rest.
      if (r1 > 0.35f) continue;
      push_sprite(b, kLayerLight, cam, x + (r2 - 0.5f) * 0.5f, y + (r1 - 0.5f) * 0.5f, 0, 0.45f, 0.45f, kSpriteGlow,
                  {255, 90, 20, uint8_t(140 + 100 * heat)});
      continue;
    }
    int frame = (tick_frame + int(h >> 24)) % kFireFrames;
    float size = (0.8f + 1.0f * heat) * (0.75f + 0.5f * r2) * (thin ? 1.2f : 1.f);
    push_sprite(b, kLayerFlames, cam, x + (r1 - 0.5f) * 0.6f, y + (r2 - 0.5f) * 0.4f - size * 0.35f, 0, size * 1.05f,
                size * 1.45f, kSpriteFire0 + frame, {255, 255, 255, 255});
  }
}

}  // namespace

void build_world_batch(FrameBatch& b, Game& g, const BatchInput& in) {
  const Camera& cam = *in.camera;
  const ecs::ChunkGrid& grid = g.ecs->grid();
  const ChunkRange chunks = chunks_in(grid, visible_rect(cam, 5));
  u64 visible_simulated = 0;
  chunks.for_each(grid, [&](u32 chunk, int, int) { visible_simulated += g.ecs->simulated_in_chunk(chunk); });
  // Many ants at the middle distance: stamp them into the crowd image.
  b.crowded = in.detail == Detail::Sprite && in.atlas && visible_simulated > kCrowdAnts;
  if (in.detail == Detail::Dot || b.crowded) {
    int w = int(cam.view_w), h = int(cam.view_h);
    if (w != b.crowd_w || h != b.crowd_h) {
      b.crowd.assign(size_t(std::max(w, 0)) * size_t(std::max(h, 0)), 0u);
      b.crowd_w = w, b.crowd_h = h;
    }
  }
  draw_nests(b, g, cam);
  if (b.stamps.size() >= 8) b.stamps.clear();  // the zoom moved on
  EntityDraw draw(b, g, in);
  // Visible chunks only. Dormant entities are stored per chunk; simulated ones are either
  // walked in the dense simulated store (sequential, when most of them are on screen) or
  // through the visible chunks' member lists (when the view holds few of them). Tiles are
  // drawn by the terrain layer: the chunk walks pass their storage blocks unread.
  constexpr ecs::TagSet kTiles = ecs::tag_set(Kind::Tile);
  const bool walk_store = visible_simulated * 4 >= g.ecs->simulated_count();
  auto draw_record = [&](Record& r) { draw.draw(r); };
  if (walk_store) g.ecs->simulated().for_each(draw_record);
  chunks.for_each(grid, [&](u32 chunk, int, int) {
    if (walk_store) g.ecs->dormant_in(chunk, kTiles).for_each(draw_record);
    else g.ecs->in_chunk(chunk, kTiles).for_each(draw_record);
  });
  if (b.crowded) draw.plot_queued_stamps();
  draw_fire(b, g, cam, in.seconds);
}

// [SECTION] Submit

namespace {

// The tiles for this frame's image size, made when it changed: each at most the renderer's
// largest texture (or crowd_tile_max) on a side. False, with the tiles freed and the
// reason logged once per size, when SDL could not make one.
bool make_crowd_tiles(FrameBatch& b, SDL_Renderer* renderer) {
  if (b.crowd_tiles_w == b.crowd_w && b.crowd_tiles_h == b.crowd_h) return !b.crowd_tiles.empty();
  free_batch(b);
  SDL_RendererInfo info{};
  SDL_GetRendererInfo(renderer, &info);
  auto side = [&](int limit, int image) {
    int s = limit > 0 ? limit : image;
    return b.crowd_tile_max > 0 ? std::min(s, b.crowd_tile_max) : s;
  };
  const int tw = side(info.max_texture_width, b.crowd_w), th = side(info.max_texture_height, b.crowd_h);
  for (int y = 0; y < b.crowd_h; y += th)
    for (int x = 0; x < b.crowd_w; x += tw) {
      SDL_Rect r{x, y, std::min(tw, b.crowd_w - x), std::min(th, b.crowd_h - y)};
      SDL_Texture* t = SDL_CreateTexture(renderer, SDL_PIXELFORMAT_ABGR8888, SDL_TEXTUREACCESS_STREAMING, r.w, r.h);
      if (!t) {
        SDL_Log("colony: no %dx%d texture for the far-zoom crowd: %s", r.w, r.h, SDL_GetError());
        free_batch(b);
        b.crowd_tiles_w = b.crowd_w, b.crowd_tiles_h = b.crowd_h;  // not again for this size
        return false;
      }
      SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
      b.crowd_tiles.push_back({t, r});
    }
  b.crowd_tiles_w = b.crowd_w, b.crowd_tiles_h = b.crowd_h;
  return true;
}

void submit_crowd(FrameBatch& b, SDL_Renderer* renderer) {
  if (!make_crowd_tiles(b, renderer)) return;
  for (const auto& t : b.crowd_tiles) {
    const uint32_t* from = &b.crowd[size_t(t.rect.y) * size_t(b.crowd_w) + size_t(t.rect.x)];
    SDL_UpdateTexture(t.texture, nullptr, from, b.crowd_w * 4);
    SDL_RenderCopy(renderer, t.texture, nullptr, &t.rect);
  }
}

}  // namespace

void submit_batch(FrameBatch& b, SDL_Renderer* renderer, const Atlas& atlas) {
  size_t most = 0;
  for (auto& v : b.verts) most = std::max(most, v.size());
  size_t quads = most / 4;
  if (b.quad_indices.size() < quads * 6) {
    size_t have = b.quad_indices.size() / 6;
    b.quad_indices.resize(quads * 6);
    for (size_t q = have; q < quads; ++q) {
      int base = int(q * 4);
      int* idx = &b.quad_indices[q * 6];
      idx[0] = base, idx[1] = base + 1, idx[2] = base + 2, idx[3] = base, idx[4] = base + 2, idx[5] = base + 3;
    }
  }
  // SDL copies the vertices per call; very large layers go in slices to bound that copy.
  constexpr size_t kSliceQuads = 1 << 16;
  for (int layer = 0; layer < kLayerCount; ++layer) {
    if (layer == kLayerBodies && b.crowd_dots) submit_crowd(b, renderer);
    const auto& v = b.verts[layer];
    SDL_Texture* tex = layer == kLayerLight ? atlas.add : atlas.blend;
    for (size_t first = 0; first < v.size() / 4; first += kSliceQuads) {
      size_t n = std::min(kSliceQuads, v.size() / 4 - first);
      SDL_RenderGeometry(renderer, tex, v.data() + first * 4, int(n * 4), b.quad_indices.data(), int(n * 6));
    }
  }
}

}  // namespace colony::render
