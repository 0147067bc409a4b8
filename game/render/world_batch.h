// world_batch.h — turns the world into vertices: every render piece of every visible
// entity, fire, nests, the selection highlight and explosion effects, written into one
// frame batch and drawn with a handful of SDL_RenderGeometry calls (one per layer).
#pragma once
#include <SDL.h>

#include <cstdint>
#include <vector>

#include "atlas.h"
#include "camera.h"
#include "game.h"

namespace colony::render {

// Draw order, back to front. Each layer is one SDL_RenderGeometry call.
enum Layer : int {
  kLayerGround = 0,  // nests, food, corpses
  kLayerBodies,      // ants
  kLayerFlames,      // fire
  kLayerSmoke,       // debris, smoke (alpha blended)
  kLayerLight,       // glows, flashes, shockwaves, highlight (additive)
  kLayerCount
};

// Level of detail, from the camera zoom.
enum class Detail : uint8_t {
  Pieces,  // every render piece
  Sprite,  // one whole-ant quad (+ one for carried food)
  Dot,     // one dot per ant, plotted into the crowd image (no geometry at all)
};
Detail detail_for_zoom(float zoom);

// The frame's vertices. Cleared and refilled every frame; the vectors keep their
// capacity, so a steady frame allocates nothing.
struct FrameBatch {
  std::vector<SDL_Vertex> verts[kLayerCount];
  std::vector<int> quad_indices;  // 0 1 2 0 2 3, 4 5 6 4 6 7, ... shared by all layers
  uint32_t entities = 0, quads = 0;
  // The crowd image: at the furthest zoom every ant is a few pixels plotted here on the CPU
  // and the whole crowd is drawn as one screen-sized texture (a software rasteriser pays
  // per triangle, so 100,000 tiny quads would cost far more than one big one).
  std::vector<uint32_t> crowd;  // screen pixels, ABGR8888, transparent where no ant is
  int crowd_w = 0, crowd_h = 0;
  uint32_t crowd_dots = 0;  // ants plotted this frame
  // The crowd image goes to the screen in tiles no larger than the renderer's largest
  // texture (as one texture, a window of 16384 pixels on a driver whose limit is 8192 shows
  // no crowd at all). crowd_tile_max, when set, is a smaller limit (the tests use it).
  struct CrowdTile {
    SDL_Texture* texture;
    SDL_Rect rect;  // its part of the image and of the screen
  };
  std::vector<CrowdTile> crowd_tiles;
  int crowd_tiles_w = 0, crowd_tiles_h = 0;  // the image size the tiles were made for
  int crowd_tile_max = 0;
  // Crowded middle distance: the whole-ant sprite pre-rotated to kStampDirections headings
  // at the current size, stamped into the crowd image instead of one quad per ant.
  struct Stamp {
    int sprite = -1, size = 0;
    std::vector<uint8_t> alpha, shade;  // kStampDirections images of size x size
  };
  std::vector<Stamp> stamps;
  bool crowded = false;  // this frame's ants went into the crowd image
  // A crowded frame's stamps are queued while the world is walked and plotted one band of
  // kStampBandRows screen rows at a time: the walk finds ants in storage order, anywhere
  // on screen, and plotted as found each stamp's rows of the crowd image would be a cache miss.
  struct StampOrder {
    int16_t x0, y0;      // the stamp's top left pixel (left of or above the image for a stamp across its edge)
    uint8_t stamp, dir;  // index into stamps, heading
    uint8_t r, g, b;     // tint
  };
  std::vector<StampOrder> stamp_orders, stamps_by_band;
  std::vector<uint32_t> band_start;
};
inline constexpr int kStampBandRows = 16;
inline constexpr int kStampDirections = 16;
// More simulated ants than this in view at the middle distance are stamped, not quads.
inline constexpr uint32_t kCrowdAnts = 6000;

struct BatchInput {
  const Camera* camera = nullptr;
  Detail detail = Detail::Pieces;
  Handle highlight;              // entity drawn with a glow (selection / debugger)
  float seconds = 0;             // animation clock
  const Atlas* atlas = nullptr;  // CPU pixels for crowd stamps (none: crowds stay quads)
  bool hide_ants = false;        // ants (workers, soldiers, queens) left out: the trails alone
};

void clear_batch(FrameBatch& b);
// Appends one sprite quad centred at world (x, y), `angle` radians, size (w, h) cells.
void push_sprite(FrameBatch& b, Layer layer, const Camera& cam, float x, float y, float angle, float w, float h,
                 int sprite, SDL_Color color);
// Every visible entity, fire and nest into the batch.
void build_world_batch(FrameBatch& b, Game& g, const BatchInput& in);
// Draws the layers with the atlas (blend or additive per layer), and the crowd image.
void submit_batch(FrameBatch& b, SDL_Renderer* renderer, const Atlas& atlas);
// Releases the crowd texture.
void free_batch(FrameBatch& b);

inline SDL_Color abgr_color(uint32_t c) { return {uint8_t(c), uint8_t(c >> 8), uint8_t(c >> 16), uint8_t(c >> 24)}; }

}  // namespace colony::render
