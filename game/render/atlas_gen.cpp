// atlas_gen.cpp — draws Colony's sprite atlas procedurally and writes it as a PNG.
//
//   colony_atlas_gen assets/atlas.png
//
// Every sprite is a function from sprite coordinates (u forward, v sideways, both in
// [-1, 1]) to a straight-alpha colour, supersampled 4x4 for antialiasing. Body parts are
// drawn in shaded greys so the renderer can tint them with a colony's colour; food, fire,
// nest and terrain sprites carry their own colours. The layout comes from atlas.h.
//
// Table of contents
//   [SECTION] Colour and shape helpers
//   [SECTION] Tileable noise
//   [SECTION] Body parts
//   [SECTION] Effects and markers
//   [SECTION] Terrain patterns
//   [SECTION] Atlas assembly and main
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include "atlas.h"

namespace {

using namespace colony::render;

// [SECTION] Colour and shape helpers

struct Rgba {
  float r = 0, g = 0, b = 0, a = 0;
};
Rgba grey(float v, float a = 1) { return {v, v, v, a}; }
Rgba rgb(uint32_t hex, float a = 1) {
  return {float((hex >> 16) & 255) / 255.f, float((hex >> 8) & 255) / 255.f, float(hex & 255) / 255.f, a};
}
Rgba scale(Rgba c, float k) { return {c.r * k, c.g * k, c.b * k, c.a}; }
Rgba mix(Rgba a, Rgba b, float t) {
  return {a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t, a.a + (b.a - a.a) * t};
}
// Paints `top` over `base` (straight alpha).
Rgba over(Rgba base, Rgba top) {
  float a = top.a + base.a * (1 - top.a);
  if (a <= 0) return {};
  auto ch = [&](float t, float b) { return (t * top.a + b * base.a * (1 - top.a)) / a; };
  return {ch(top.r, base.r), ch(top.g, base.g), ch(top.b, base.b), a};
}
float clamp01(float x) { return std::clamp(x, 0.f, 1.f); }
float smooth(float e0, float e1, float x) {
  float t = clamp01((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
}

// Signed distances (negative inside), in sprite units.
float sd_ellipse(float u, float v, float cx, float cy, float rx, float ry) {
  float x = (u - cx) / rx, y = (v - cy) / ry;
  return (std::sqrt(x * x + y * y) - 1) * std::min(rx, ry);
}
float sd_segment(float u, float v, float x0, float y0, float x1, float y1, float half_width) {
  float px = u - x0, py = v - y0, dx = x1 - x0, dy = y1 - y0;
  float t = clamp01((px * dx + py * dy) / (dx * dx + dy * dy));
  float ex = px - dx * t, ey = py - dy * t;
  return std::sqrt(ex * ex + ey * ey) - half_width;
}

// A shaded, outlined ellipsoid in grey: the body segments of an ant.
Rgba shaded_ellipse(float u, float v, float cx, float cy, float rx, float ry, float base) {
  float d = sd_ellipse(u, v, cx, cy, rx, ry);
  if (d > 0) return {};
  float x = (u - cx) / rx, y = (v - cy) / ry;
  float nz = std::sqrt(std::max(0.f, 1 - x * x - y * y));
  // Light from the upper left and a little in front.
  float light = std::max(0.f, -0.45f * x - 0.55f * y + 0.7f * nz);
  float spec = std::pow(std::max(0.f, light), 24.f) * 0.6f;
  float shade = base * (0.55f + 0.5f * light) + spec;
  float rim = smooth(-0.08f, 0.f, d);  // darker outline
  return grey(std::min(1.f, shade * (1 - 0.55f * rim)));
}

// [SECTION] Tileable noise

uint32_t hash3(int x, int y, int seed) {
  uint32_t h = uint32_t(x) * 0x8da6b343u ^ uint32_t(y) * 0xd8163841u ^ uint32_t(seed) * 0xcb1ab31fu;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return h;
}
float hash01(int x, int y, int seed) { return float(hash3(x, y, seed) & 0xFFFFFF) / float(0xFFFFFF); }
// Value noise with period `period` lattice cells (x, y in lattice units).
float value_noise(float x, float y, int period, int seed) {
  int x0 = int(std::floor(x)), y0 = int(std::floor(y));
  float fx = x - float(x0), fy = y - float(y0);
  auto at = [&](int i, int j) {
    int pi = ((i % period) + period) % period, pj = ((j % period) + period) % period;
    return hash01(pi, pj, seed);
  };
  float sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
  float a = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * sx;
  float b = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * sx;
  return a + (b - a) * sy;
}
// Fractal noise over a tile of side 1 (tx, ty in [0, 1)), periodic in both directions.
float tile_noise(float tx, float ty, int base_period, int octaves, int seed) {
  float sum = 0, amp = 0.5f, norm = 0;
  int period = base_period;
  for (int o = 0; o < octaves; ++o) {
    sum += amp * value_noise(tx * float(period), ty * float(period), period, seed + o * 17);
    norm += amp;
    amp *= 0.5f;
    period *= 2;
  }
  return sum / norm;
}
// Distance to the nearest of `n` jittered points per side on a periodic grid (cobbles).
float cell_distance(float tx, float ty, int n, int seed, float* second = nullptr) {
  float best = 9, next = 9;
  float gx = tx * float(n), gy = ty * float(n);
  int ix = int(std::floor(gx)), iy = int(std::floor(gy));
  for (int j = -1; j <= 1; ++j)
    for (int i = -1; i <= 1; ++i) {
      int cx = ix + i, cy = iy + j;
      int px = ((cx % n) + n) % n, py = ((cy % n) + n) % n;
      float fx = float(cx) + 0.15f + 0.7f * hash01(px, py, seed);
      float fy = float(cy) + 0.15f + 0.7f * hash01(px, py, seed + 1);
      float d = std::hypot(gx - fx, gy - fy);
      if (d < best) {
        next = best;
        best = d;
      } else if (d < next) next = d;
    }
  if (second) *second = next;
  return best;
}

// [SECTION] Body parts

Rgba draw_head(float u, float v) {
  Rgba c = shaded_ellipse(u, v, -0.05f, 0, 0.85f, 0.78f, 0.95f);
  // Compound eyes: dark glossy spots on both sides, toward the front.
  for (float side : {-1.f, 1.f}) {
    float d = sd_ellipse(u, v, 0.28f, side * 0.5f, 0.2f, 0.17f);
    if (d <= 0)
      c = over(c, grey(0.08f + 0.5f * smooth(-0.12f, -0.02f, -sd_ellipse(u, v, 0.33f, side * 0.45f, 0.05f, 0.05f))));
  }
  return c;
}
Rgba draw_thorax(float u, float v) {
  Rgba c = shaded_ellipse(u, v, 0, 0, 0.95f, 0.55f, 0.9f);
  return c;
}
Rgba draw_abdomen(float u, float v, float length) {
  Rgba c = shaded_ellipse(u, v, 0, 0, length, 0.82f, 0.95f);
  if (c.a > 0) {
    // Segment bands across the abdomen.
    float band = 0.5f + 0.5f * std::cos((u + 0.1f) * 9.5f);
    c = scale(c, 1 - 0.22f * smooth(0.75f, 1.f, band));
  }
  return c;
}
// Legs, antennae and mandibles arrive as thin quads (length x a few hundredths of a cell),
// so their sprites fill the whole height: a tapered, jointed bar. Legs and antennae are
// light (the renderer tints them a pale shade of the colony's colour): drawn dark they
// vanish against the body and the ground, and a missing one goes unseen.
Rgba draw_leg(float u, float v) {
  float half = 0.95f - 0.35f * clamp01((u + 1) * 0.5f);  // thinner toward the foot
  float d = std::abs(v) - half;
  if (d > 0 || std::abs(u) > 0.97f) return {};
  float joint = std::exp(-std::pow((u + 0.1f) / 0.08f, 2.f));
  return grey(0.85f - 0.25f * joint + 0.15f * smooth(-0.4f, 0.f, -std::abs(v) + 0.2f));
}
Rgba draw_antenna(float u, float v) {
  float half = 0.6f + 0.35f * smooth(0.6f, 0.9f, u);  // a club at the tip
  if (std::abs(v) > half || std::abs(u) > 0.97f) return {};
  return grey(0.85f);
}
Rgba draw_mandible(float u, float v) {
  // Thick at the base (back), pointed at the tip (front), curving inward.
  float half = 0.95f * clamp01((1 - u) * 0.55f);
  float centre = -0.25f * u * u;
  if (std::abs(v - centre) > half || u < -0.97f) return {};
  return grey(0.55f + 0.2f * (1 - clamp01(std::abs(v - centre) / std::max(half, 0.01f))));
}
Rgba draw_food_blob(float u, float v) {
  // A seed: warm yellow, lumpy outline, glossy.
  float ang = std::atan2(v, u);
  float r = 0.78f + 0.1f * std::sin(ang * 3 + 1) + 0.05f * std::sin(ang * 7);
  float d = std::hypot(u, v) - r;
  if (d > 0) return {};
  float light = clamp01(0.6f - 0.4f * u - 0.5f * v);
  Rgba c = mix(rgb(0xB88A2E), rgb(0xF6DB7A), light);
  c = over(c, rgb(0xFFFFFF, 0.7f * smooth(0.35f, 0.1f, std::hypot(u + 0.3f, v + 0.35f))));
  return over(c, rgb(0x5A3E10, 0.6f * smooth(-0.12f, 0.f, d)));
}
Rgba draw_crumb(float u, float v) {
  // A pile of three grains.
  const float gx[3] = {-0.3f, 0.35f, 0.0f}, gy[3] = {0.25f, 0.2f, -0.35f};
  Rgba c;
  for (int i = 0; i < 3; ++i) {
    float d = sd_ellipse(u, v, gx[i], gy[i], 0.48f, 0.4f);
    if (d > 0) continue;
    float light = clamp01(0.6f - 0.8f * (u - gx[i]) - 0.9f * (v - gy[i]));
    Rgba g = mix(rgb(0xA8782A), rgb(0xF2D27A), light);
    c = over(c, over(g, rgb(0x4A3008, 0.7f * smooth(-0.1f, 0.f, d))));
  }
  return c;
}
Rgba draw_wing(float u, float v) {
  float d = sd_ellipse(u, v, 0, 0, 0.95f, 0.5f);
  if (d > 0) return {};
  float vein = std::abs(std::sin(u * 10 + v * 2)) < 0.12f || std::abs(v) < 0.05f ? 1.f : 0.f;
  Rgba c = rgb(0xE8F0FF, 0.45f);
  return over(c, rgb(0x808890, 0.5f * vein + 0.6f * smooth(-0.06f, 0.f, d)));
}
Rgba draw_ant_far(float u, float v) {
  // A whole ant in one quad (u along the body): abdomen, thorax, head, six legs, antennae.
  Rgba c;
  for (int i = 0; i < 3; ++i) {
    float lx = -0.12f + 0.14f * float(i);
    float d = std::min(sd_segment(u, v, lx, 0, lx - 0.18f + 0.18f * float(i), 0.85f, 0.05f),
                       sd_segment(u, v, lx, 0, lx - 0.18f + 0.18f * float(i), -0.85f, 0.05f));
    if (d <= 0) c = grey(0.45f);
  }
  for (float side : {-1.f, 1.f})
    if (sd_segment(u, v, 0.65f, side * 0.1f, 0.98f, side * 0.5f, 0.04f) <= 0) c = grey(0.45f);
  c = over(c, shaded_ellipse(u, v, -0.55f, 0, 0.42f, 0.38f, 0.95f));
  c = over(c, shaded_ellipse(u, v, 0.05f, 0, 0.25f, 0.18f, 0.9f));
  c = over(c, shaded_ellipse(u, v, 0.5f, 0, 0.24f, 0.26f, 0.95f));
  return c;
}

// [SECTION] Effects and markers

Rgba draw_glow(float u, float v) {
  float r = std::hypot(u, v);
  float a = clamp01(1 - r);
  return grey(1, a * a);
}
Rgba draw_ring(float u, float v) {
  float r = std::hypot(u, v);
  float a = std::exp(-std::pow((r - 0.8f) / 0.09f, 2.f)) + 0.25f * std::exp(-std::pow((r - 0.7f) / 0.18f, 2.f));
  return grey(1, clamp01(a));
}
Rgba draw_debris(float u, float v) {
  float ang = std::atan2(v, u);
  float r = 0.7f + 0.2f * std::sin(ang * 3 + 0.5f) + 0.12f * std::sin(ang * 5 + 2);
  float d = std::hypot(u, v) - r;
  if (d > 0) return {};
  float facet = 0.5f + 0.5f * std::sin(ang * 3);
  return over(mix(rgb(0x4A3A2A), rgb(0x9A8066), facet), rgb(0x201810, 0.7f * smooth(-0.1f, 0.f, d)));
}
Rgba draw_smoke(float u, float v) {
  float r = std::hypot(u, v);
  float n = tile_noise(u * 0.25f + 0.5f, v * 0.25f + 0.5f, 4, 3, 91);
  float a = clamp01(1 - r * (0.8f + 0.5f * n));
  return grey(0.25f + 0.3f * n, a * a * 0.9f);
}
Rgba draw_fire(float u, float v, int frame) {
  // Screen-up is -v. A teardrop flame whose tip flickers from frame to frame.
  float phase = float(frame) / float(kFireFrames) * 6.2831853f;
  float y = (v + 1) * 0.5f;  // 0 at the top, 1 at the bottom
  float sway = 0.12f * std::sin(phase + y * 4) * (1 - y);
  float width = 0.75f * std::pow(y, 0.7f) * (1.1f - 0.3f * y);
  float n = tile_noise(u * 0.3f + 0.5f, y * 0.5f + float(frame) / float(kFireFrames), 4, 2, 17);
  float tip = 0.05f + 0.15f * (0.5f + 0.5f * std::sin(phase * 2 + 1));
  if (y < tip) return {};
  float d = std::abs(u - sway) - width * (0.75f + 0.4f * n);
  if (d > 0) return {};
  float core = clamp01(-d / std::max(0.05f, width)) * smooth(0.15f, 0.8f, y);
  Rgba c = mix(rgb(0xC81E0A), rgb(0xFF8A1C), smooth(0.f, 0.4f, core));
  c = mix(c, rgb(0xFFF2A0), smooth(0.45f, 0.9f, core));
  c.a = clamp01(0.35f + 1.2f * core) * smooth(tip, tip + 0.25f, y);
  return c;
}
Rgba draw_nest(float u, float v) {
  float r = std::hypot(u, v);
  if (r > 0.98f) return {};
  float n = tile_noise(u * 0.5f + 0.5f, v * 0.5f + 0.5f, 6, 3, 33);
  float height = std::sqrt(std::max(0.f, 1 - r * r));
  float light = clamp01(0.55f - 0.45f * u - 0.45f * v) * height + 0.3f;
  Rgba c = mix(rgb(0x5E4024), rgb(0xB48A5C), light * (0.75f + 0.4f * n));
  c.a = smooth(0.98f, 0.8f, r);
  float hole = sd_ellipse(u, v, 0.05f, 0.05f, 0.26f, 0.22f);
  if (hole < 0) c = over(c, rgb(0x140C06, smooth(0.f, -0.08f, hole)));
  return c;
}
Rgba draw_select(float u, float v) {
  float r = std::hypot(u, v);
  float a = smooth(0.1f, 0.0f, std::abs(r - 0.86f));
  return grey(1, a);
}
Rgba draw_spark(float u, float v) {
  float a = clamp01(1 - std::abs(u)) * clamp01(1 - std::abs(v) * 4);
  return grey(1, a);
}
Rgba draw_dot(float u, float v) {
  float r = std::hypot(u, v);
  return grey(1, smooth(1.f, 0.6f, r));
}
Rgba draw_scorch(float u, float v) {
  float r = std::hypot(u, v);
  float n = tile_noise(u * 0.5f + 0.5f, v * 0.5f + 0.5f, 5, 3, 55);
  float a = clamp01(1.2f - r * (0.9f + 0.6f * n));
  return rgb(0x140C08, a);
}

// [SECTION] Terrain patterns
// One pattern covers 4x4 world cells; tx, ty in [0, 1) tile seamlessly.

Rgba draw_grass(float tx, float ty, int variant) {
  int s = 100 + variant * 7;
  // High frequencies only: the large-scale variation comes from the renderer's map-wide
  // shading, so the 4x4-cell repeat of this pattern does not show.
  float n = tile_noise(tx, ty, 8, 3, s);
  float fine = tile_noise(tx, ty, 16, 2, s + 40);
  Rgba c = mix(rgb(0x4A8634), rgb(0x66A044), n * 0.6f + fine * 0.4f);
  // Blades: short, slightly slanted strokes at hashed spots, a little darker or lighter.
  float bx = tx * 16, by = ty * 16;
  int ix = int(bx), iy = int(by);
  float h = hash01(ix & 15, iy & 15, s + 3);
  float fx = bx - float(ix), fy = by - float(iy);
  if (h > 0.55f && std::abs(fx - 0.5f - (fy - 0.5f) * 0.35f) < 0.14f)
    c = mix(c, h > 0.8f ? rgb(0x88BE58) : rgb(0x35682A), 0.45f);
  return c;
}
Rgba draw_dirt(float tx, float ty, int variant) {
  int s = 200 + variant * 7;
  float n = tile_noise(tx, ty, 8, 3, s);
  Rgba c = mix(rgb(0x765638), rgb(0x967050), n);
  float second;
  float d = cell_distance(tx, ty, 6, s + 5, &second);
  if (d < 0.22f && hash01(int(tx * 6), int(ty * 6), s + 11) > 0.55f)
    c = mix(rgb(0x8A8278), rgb(0xB0A898), clamp01(0.5f - d));
  return c;
}
Rgba draw_water(float tx, float ty, int variant) {
  int s = 300 + variant * 7;
  float n = tile_noise(tx, ty, 3, 4, s);
  Rgba c = mix(rgb(0x1C4E8C), rgb(0x2C74B8), n);
  float wave = std::sin((ty * 4 + n * 1.5f) * 6.2831853f);
  if (wave > 0.93f) c = mix(c, rgb(0x9CCCF0), 0.55f);
  return c;
}
Rgba draw_rock(float tx, float ty, int variant) {
  int s = 400 + variant * 7;
  float second;
  float d = cell_distance(tx, ty, 3, s, &second);
  float n = tile_noise(tx, ty, 4, 3, s + 1);
  Rgba c = mix(rgb(0x6A6A70), rgb(0x9A9AA2), n);
  if (second - d < 0.08f) c = rgb(0x3A3A40);  // cracks between stones
  return c;
}

// [SECTION] Atlas assembly and main

using SpriteFn = std::function<Rgba(float, float)>;

// Renders fn over grid cell `sprite` with 4x4 supersampling.
void paint(std::vector<uint8_t>& img, int sprite, const SpriteFn& fn, bool tile_coords = false) {
  SpriteRect r = sprite_rect(sprite);
  constexpr int kSs = 4;
  for (int py = 0; py < r.h; ++py)
    for (int px = 0; px < r.w; ++px) {
      float acc[4] = {};
      for (int sy = 0; sy < kSs; ++sy)
        for (int sx = 0; sx < kSs; ++sx) {
          float fx = (float(px) + (float(sx) + 0.5f) / kSs) / float(r.w);
          float fy = (float(py) + (float(sy) + 0.5f) / kSs) / float(r.h);
          Rgba c = tile_coords ? fn(fx, fy) : fn(fx * 2 - 1, fy * 2 - 1);
          acc[0] += c.r * c.a, acc[1] += c.g * c.a, acc[2] += c.b * c.a, acc[3] += c.a;
        }
      uint8_t* out = &img[(size_t(r.y + py) * kAtlasSize + size_t(r.x + px)) * 4];
      float a = acc[3] / (kSs * kSs);
      for (int k = 0; k < 3; ++k) out[k] = uint8_t(std::lround(255 * clamp01(acc[3] > 0 ? acc[k] / acc[3] : 0)));
      out[3] = uint8_t(std::lround(255 * clamp01(a)));
    }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: colony_atlas_gen OUT.png\n");
    return 2;
  }
  std::vector<uint8_t> img(size_t(kAtlasSize) * kAtlasSize * 4, 0);
  paint(img, kSpriteHead, draw_head);
  paint(img, kSpriteThorax, draw_thorax);
  paint(img, kSpriteAbdomen, [](float u, float v) { return draw_abdomen(u, v, 0.95f); });
  paint(img, kSpriteLeg, draw_leg);
  paint(img, kSpriteAntenna, draw_antenna);
  paint(img, kSpriteMandible, draw_mandible);
  paint(img, kSpriteCarriedFood, draw_food_blob);
  paint(img, kSpriteCrumb, draw_crumb);
  paint(img, kSpriteTile, [](float, float) { return grey(1); });
  paint(img, kSpriteQueenAbdomen, [](float u, float v) {
    // Pieces overlap along the queen's long abdomen: soft-edged, rimless, so the chain reads as one body.
    float d = sd_ellipse(u, v, 0, 0, 0.98f, 0.95f);
    if (d > 0) return Rgba{};
    float y = v / 0.95f;
    float shade = 0.62f + 0.38f * std::sqrt(std::max(0.f, 1 - y * y)) - 0.12f * std::max(0.f, y);
    Rgba c = grey(std::min(1.f, shade));
    c.a = smooth(0.f, -0.25f, d);
    return c;
  });
  paint(img, kSpriteWing, draw_wing);
  paint(img, kSpriteSolid, [](float, float) { return grey(1); });
  paint(img, kSpriteGlow, draw_glow);
  paint(img, kSpriteRing, draw_ring);
  paint(img, kSpriteDebris, draw_debris);
  paint(img, kSpriteSmoke, draw_smoke);
  for (int f = 0; f < kFireFrames; ++f)
    paint(img, kSpriteFire0 + f, [f](float u, float v) { return draw_fire(u, v, f); });
  paint(img, kSpriteAntFar, draw_ant_far);
  paint(img, kSpriteNest, draw_nest);
  paint(img, kSpriteSelect, draw_select);
  paint(img, kSpriteSpark, draw_spark);
  paint(img, kSpriteDot, draw_dot);
  paint(img, kSpriteScorch, draw_scorch);
  using TerrainFn = Rgba (*)(float, float, int);
  const TerrainFn terrain[kTerrainKinds] = {draw_grass, draw_dirt, draw_water, draw_rock};
  for (int k = 0; k < kTerrainKinds; ++k)
    for (int v = 0; v < kTerrainVariants; ++v)
      paint(
          img, kSpriteTerrain0 + k * kTerrainVariants + v,
          [fn = terrain[k], v](float tx, float ty) { return fn(tx, ty, v); }, true);
  if (!stbi_write_png(argv[1], kAtlasSize, kAtlasSize, 4, img.data(), kAtlasSize * 4)) {
    std::fprintf(stderr, "colony_atlas_gen: cannot write %s\n", argv[1]);
    return 1;
  }
  return 0;
}
