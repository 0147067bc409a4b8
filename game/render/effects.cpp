// effects.cpp — explosion flashes, shockwaves, debris, sparks and smoke.
#include "effects.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

namespace colony::render {

namespace {

constexpr float kFlashSeconds = 0.18f, kFireballSeconds = 0.7f, kRingSeconds = 0.65f, kExplosionSeconds = 0.8f;
constexpr size_t kMaxParticles = 6000;

float random01(Effects& fx) {
  fx.rng ^= fx.rng << 13;
  fx.rng ^= fx.rng >> 17;
  fx.rng ^= fx.rng << 5;
  return float(fx.rng & 0xFFFFFF) / float(0xFFFFFF);
}
float random_range(Effects& fx, float lo, float hi) { return lo + (hi - lo) * random01(fx); }

// The unit vector at angle a (radians).
glm::vec2 direction(float a) { return {glm::cos(a), glm::sin(a)}; }

void emit(Effects& fx, const Particle& p) {
  if (fx.particles.size() < kMaxParticles) fx.particles.push_back(p);
}

}  // namespace

void reset_effects(Effects& fx, const Game& g) {
  fx.explosions.clear();
  fx.particles.clear();
  fx.shake = 0;
  fx.next_tick = g.tick + 1;
  // Blasts already in the list belong to the past of a loaded game.
  for (const Blast& b : g.blasts) fx.next_tick = std::max(fx.next_tick, b.tick + 1);
}

void take_blasts(Effects& fx, const Game& g) {
  uint64_t newest = fx.next_tick;
  for (const Blast& b : g.blasts) {
    if (b.tick < fx.next_tick) continue;
    start_explosion(fx, b.x, b.y, b.radius);
    newest = std::max(newest, b.tick + 1);
  }
  fx.next_tick = newest;
}

void start_explosion(Effects& fx, float x, float y, float radius) {
  radius = std::max(radius, 1.f);
  fx.shake = std::min(24.f, fx.shake + radius * 0.9f);
  ++fx.started;
  if (fx.explosions.size() >= kMaxExplosions) return;
  fx.explosions.push_back({x, y, radius, 0});
  const float power = std::sqrt(radius / 6.f);
  const glm::vec2 at(x, y);
  // Debris: clods of earth thrown out in an arc.
  int debris = std::min(160, 24 + int(radius * 5));
  for (int i = 0; i < debris; ++i) {
    float a = random_range(fx, 0, 6.2831853f), sp = random_range(fx, 4, 26) * power;
    float r0 = random_range(fx, 0, radius * 0.5f);
    uint8_t shade = uint8_t(random_range(fx, 140, 255));
    emit(fx, {at + direction(a) * r0,
              direction(a) * sp,
              0,
              random_range(fx, 0.5f, 1.3f),
              random_range(fx, 0.35f, 1.0f) * std::min(2.f, power),
              0,
              a,
              random_range(fx, -9, 9),
              2.2f,
              1.2f,
              kSpriteDebris,
              kLayerSmoke,
              {shade, shade, shade, 255}});
  }
  // Sparks: fast, bright, short-lived.
  int sparks = std::min(120, 20 + int(radius * 3));
  for (int i = 0; i < sparks; ++i) {
    float a = random_range(fx, 0, 6.2831853f), sp = random_range(fx, 15, 45) * power;
    emit(fx, {at,
              direction(a) * sp,
              0,
              random_range(fx, 0.2f, 0.55f),
              random_range(fx, 0.8f, 1.6f),
              0,
              a,
              0,
              3.5f,
              0,
              kSpriteSpark,
              kLayerLight,
              {255, uint8_t(random_range(fx, 160, 240)), 80, 255}});
  }
  // Smoke: slow dark puffs that swell and drift, kMaxSmokePuffs at most on screen.
  const auto puffs = std::count_if(fx.particles.begin(), fx.particles.end(),
                                   [](const Particle& p) { return p.sprite == kSpriteSmoke; });
  int smoke = std::min({40, 6 + int(radius * 1.2f), int(kMaxSmokePuffs - size_t(puffs))});
  for (int i = 0; i < smoke; ++i) {
    float a = random_range(fx, 0, 6.2831853f), r0 = random_range(fx, 0, radius * 0.7f),
          sp = random_range(fx, 0.5f, 3.f) * power;
    uint8_t shade = uint8_t(random_range(fx, 40, 90));
    emit(fx, {at + direction(a) * r0,
              direction(a) * sp - glm::vec2(0, 0.6f),  // smoke rises
              0,
              random_range(fx, 1.4f, 3.0f),
              radius * random_range(fx, 0.35f, 0.6f),
              radius * 0.35f,
              a,
              random_range(fx, -0.6f, 0.6f),
              0.6f,
              0,
              kSpriteSmoke,
              kLayerSmoke,
              {shade, shade, shade, 200}});
  }
}

void advance_effects(Effects& fx, float dt, Camera& cam) {
  for (auto& e : fx.explosions) e.age += dt;
  std::erase_if(fx.explosions, [](const Explosion& e) { return e.age > kExplosionSeconds; });
  for (auto& p : fx.particles) {
    p.age += dt;
    float keep = std::max(0.f, 1.f - p.drag * dt);
    p.vel *= keep;
    p.pos += p.vel * dt;
    p.size += p.grow * dt;
    p.angle += p.spin * dt;
  }
  std::erase_if(fx.particles, [](const Particle& p) { return p.age >= p.life; });
  // Camera shake: a decaying jitter.
  fx.shake *= std::exp(-dt * 7.f);
  if (fx.shake < 0.3f) fx.shake = 0;
  cam.shake_x = fx.shake ? random_range(fx, -fx.shake, fx.shake) : 0;
  cam.shake_y = fx.shake ? random_range(fx, -fx.shake, fx.shake) : 0;
}

void draw_effects(const Effects& fx, FrameBatch& b, const Camera& cam) {
  for (const Explosion& e : fx.explosions) {
    float t = e.age;
    if (t < kFireballSeconds) {
      float k = t / kFireballSeconds;
      float size = e.radius * 2.6f * (0.55f + 0.6f * k);
      push_sprite(b, kLayerLight, cam, e.x, e.y, 0, size, size, kSpriteGlow, {255, 140, 40, uint8_t(235 * (1 - k))});
      push_sprite(b, kLayerLight, cam, e.x, e.y, 0, size * 0.55f, size * 0.55f, kSpriteGlow,
                  {255, 230, 150, uint8_t(255 * (1 - k) * (1 - k))});
    }
    if (t < kFlashSeconds) {
      float k = t / kFlashSeconds, size = e.radius * 6.f;
      push_sprite(b, kLayerLight, cam, e.x, e.y, 0, size, size, kSpriteGlow, {255, 250, 230, uint8_t(255 * (1 - k))});
    }
    if (t < kRingSeconds) {
      float k = t / kRingSeconds, size = 2 * e.radius * (0.25f + 1.9f * std::sqrt(k));
      push_sprite(b, kLayerLight, cam, e.x, e.y, 0, size, size, kSpriteRing, {255, 235, 200, uint8_t(230 * (1 - k))});
    }
  }
  for (const Particle& p : fx.particles) {
    float k = p.age / p.life;
    float size = p.size * (1 + p.lift * std::sin(3.14159f * std::min(1.f, k * 1.3f)));
    SDL_Color c = p.color;
    c.a = uint8_t(float(c.a) * std::min(1.f, (1 - k) * 3.f));
    float w = size, h = size;
    float angle = p.angle;
    if (p.sprite == kSpriteSpark) {
      // Sparks stretch along their motion.
      w = size * (0.6f + glm::length(p.vel) * 0.05f), h = size * 0.5f;
      angle = std::atan2(p.vel.y, p.vel.x);
    }
    push_sprite(b, Layer(p.layer), cam, p.pos.x, p.pos.y, angle, w, h, p.sprite, c);
  }
}

void draw_fights(const Game& g, FrameBatch& b, const Camera& cam) {
  const ViewRect view = visible_rect(cam, 2);
  auto tint = [&](u8 colony, uint8_t alpha) {
    const u32 c = colony < g.colonies.size() ? g.colonies[colony].color : 0xFFFFFFFFu;
    // Half way to white: a colony's colour, bright enough to read as a spark.
    auto lift = [](u32 v) { return uint8_t(128 + (v & 0xFF) / 2); };
    return SDL_Color{lift(c), lift(c >> 8), lift(c >> 16), alpha};
  };
  const float min_cells = 7.0f / cam.zoom;  // a flash of at least seven pixels
  for (const Spark& s : g.sparks) {
    if (!view.contains(s.x, s.y)) continue;
    const float k = std::clamp(float(g.tick - s.tick) / float(kSparkTicks + 1), 0.0f, 1.0f);
    const uint8_t alpha = uint8_t(255 * (1 - k));
    const float flash = std::max(1.6f, min_cells) * (1 + 0.6f * k);
    push_sprite(b, kLayerLight, cam, s.x, s.y, 0, flash, flash, kSpriteGlow, {255, 250, 220, alpha});
    // A cross of two streaks, one in each colony's colour, turned by the contact's place.
    const float turn = std::fmod(s.x * 12.9898f + s.y * 78.233f, 3.14159f);
    const float len = std::max(1.4f, min_cells * 1.2f), thick = std::max(0.35f, 2.0f / cam.zoom);
    push_sprite(b, kLayerLight, cam, s.x, s.y, turn, len, thick, kSpriteSpark, tint(s.colony_a, alpha));
    push_sprite(b, kLayerLight, cam, s.x, s.y, turn + 1.5708f, len, thick, kSpriteSpark, tint(s.colony_b, alpha));
  }
}

}  // namespace colony::render
