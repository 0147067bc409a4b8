// effects.h — explosions as the player sees them: a white flash, a fireball, an expanding
// shockwave ring, flying debris, sparks, smoke and a camera shake. Driven by the blasts the
// simulation records (Game::blasts); the scorch on the ground is the simulation's own.
// Purely visual: nothing here feeds back into the game.
#pragma once
#include <SDL.h>

#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>

#include "camera.h"
#include "game.h"
#include "world_batch.h"

namespace colony::render {

struct Explosion {
  float x = 0, y = 0, radius = 0;
  float age = 0;  // seconds
};

struct Particle {
  glm::vec2 pos{0}, vel{0};   // cells, cells per second
  float age = 0, life = 1;    // seconds
  float size = 1, grow = 0;   // cells, cells per second
  float angle = 0, spin = 0;  // radians, radians per second
  float drag = 0;             // fraction of speed lost per second
  float lift = 0;             // debris arc: extra size at mid-flight
  uint16_t sprite = 0;
  uint8_t layer = 0;
  SDL_Color color{255, 255, 255, 255};
};

// Explosions drawn at once. Each draws a flash, a fireball and rings over its blast and
// puffs smoke as wide; past a few dozen together every pixel already lies under many of
// them, and on a software rasteriser each costs its own overdraw (256 bombs of the Stress
// panel in one tick, all drawn, run at 1 frame a second for seconds under llvmpipe). Blasts past it
// are counted in `started` and shake the camera, but draw nothing of their own.
inline constexpr size_t kMaxExplosions = 48;
// Smoke puffs alive at once. A puff swells to several times its blast's radius: a few
// hundred cover the view many times over, and more only add overdraw (the 6,000
// particles of a crowd of big bombs held some 700 puffs, 4 frames a second under
// llvmpipe seconds after the blasts).
inline constexpr size_t kMaxSmokePuffs = 240;

struct Effects {
  std::vector<Explosion> explosions;
  std::vector<Particle> particles;
  uint64_t next_tick = 0;  // blasts recorded at or after this tick are new
  uint32_t rng = 0x1234567u;
  float shake = 0;       // camera shake amplitude in pixels
  uint64_t started = 0;  // blasts the window saw since the game was loaded (drawn or not)
};

// A new game: forget the old effects and blasts.
void reset_effects(Effects& fx, const Game& g);
// Starts effects for every blast the simulation recorded since the last call.
void take_blasts(Effects& fx, const Game& g);
// Starts one explosion at (x, y) with the given kill radius.
void start_explosion(Effects& fx, float x, float y, float radius);
// Ages everything by dt seconds (real time, so effects finish while paused).
void advance_effects(Effects& fx, float dt, Camera& cam);
void draw_effects(const Effects& fx, FrameBatch& b, const Camera& cam);
// Fights: a flash and a cross of sparks at each contact the simulation noted in the last
// kSparkTicks (Game::sparks), fading with its age, in the two colonies' colours; at
// least a few pixels wide at any zoom, so a battle reads from the whole map.
void draw_fights(const Game& g, FrameBatch& b, const Camera& cam);

}  // namespace colony::render
