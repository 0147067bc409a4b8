// terrain_layer.h — the ground: one streaming texture per visible chunk for the tiles
// (terrain patterns from the atlas, scorch marks), rebuilt only when the chunk changes,
// and one small texture per visible chunk for the pheromone overlay; the trails view's
// glowing trails, one additive texture per visible chunk over the darkened ground.
//
// A frame reads the world in the refresh_ calls (textures brought up to date, the frame's
// copies recorded) and draws in draw_terrain, which reads only the textures and the
// recorded copies: the window's simulation thread ticks the world in between (app.h).
#pragma once
#include <SDL.h>

#include <cstdint>
#include <vector>

#include "atlas.h"
#include "camera.h"
#include "game.h"

namespace colony::render {

enum class Overlay : uint8_t { Off = 0, ToFood, ToHome, Danger, Count };
const char* overlay_name(Overlay o);

struct ChunkTexture {
  SDL_Texture* texture = nullptr;
  int texels_per_cell = 0;  // density it was built at
  uint64_t stamp = ~0ull;   // Game::dirty_chunks_stamp value it was built from
  uint64_t last_used = 0;   // frame it was last drawn (eviction)
};

struct OverlayTexture {
  SDL_Texture* texture = nullptr;
  uint64_t tick = ~0ull;  // game tick it was built at
  Overlay mode = Overlay::Off;
  uint64_t last_used = 0;
};

// One copy to the screen recorded by a refresh_ call: `src` of `texture` to `dst`, or
// with no texture the trails view's dimming, black at kTrailsDim over `dst`.
struct TerrainCopy {
  SDL_Texture* texture = nullptr;
  SDL_Rect src{}, dst{};
};

struct TerrainLayer {
  // Ground textures, one per ground tile: a chunk, or zoomed out on a map of small chunks
  // a square of tile_chunks x tile_chunks chunks (see ground_tile_chunks), row by row.
  std::vector<ChunkTexture> chunks;
  uint32_t tile_chunks = 1, tiles_x = 0;
  std::vector<OverlayTexture> overlays;  // per chunk
  std::vector<OverlayTexture> fires;     // per chunk: the glow of burning cells (additive)
  std::vector<OverlayTexture> trails;    // per chunk: the trails view's glow (additive)
  // The trails view's afterglow per cell (red, green, blue, 0..1): each rebuild keeps the
  // brighter of the scent's colour now and the glow faded by kTrailFadePerTick for each
  // tick since, so a trail the scent has left glows on for a while.
  std::vector<float> trail_glow;
  // Terrain patterns pre-filtered per density: [kind][variant][density level] -> pixels.
  std::vector<uint32_t> patterns[kTerrainKinds][kTerrainVariants][4];
  std::vector<uint32_t> scratch;    // chunk pixels being built
  std::vector<TerrainCopy> copies;  // this frame's, in drawing order (kept: no allocation per frame)
  uint64_t frame = 0;
  uint32_t rebuilt_this_frame = 0, textures_alive = 0;
  uint32_t chunk_cells = 0;
};

void init_terrain_layer(TerrainLayer& t, const Atlas& atlas);
// Drops every texture (a new game, or shutdown).
void reset_terrain_layer(TerrainLayer& t);
// Chunks per side of a ground texture at density level `level`: one, but zoomed out (one
// texel per cell) on a map of chunks narrower than kGroundTileCells, enough for a square of
// at least that many cells.
inline constexpr uint32_t kGroundTileCells = 64;
uint32_t ground_tile_chunks(uint32_t chunk_cells, int level);
// Starts the frame's copies: brings the visible chunks' ground and overlay textures up to
// date with the world and records their copies (the ground, then the overlay).
void refresh_terrain(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam, Overlay overlay);
// The trails view: the ground dimmed by kTrailsDim, then every colony's trails (to-food
// and to-home scent together) glowing in its colour, with their afterglow.
inline constexpr float kTrailFadePerTick = 0.996f;  // half the glow in ~3 s
inline constexpr uint8_t kTrailsDim = 200;          // alpha of the black laid over the ground
// Appends the dimming and the trails to the frame's copies.
void refresh_trails(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam);
// The glow one cell shows in the trails view now, 0..255 per channel (tests read it).
SDL_Color trail_color_at(const TerrainLayer& t, const Game& g, u32 cell);
// Appends the glow of burning cells, one texture per burning visible chunk.
void refresh_fire_glow(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam);
// Draws the copies the refresh_ calls recorded this frame, in their order. Reads neither the
// world nor the camera.
void draw_terrain(const TerrainLayer& t, SDL_Renderer* renderer);

}  // namespace colony::render
