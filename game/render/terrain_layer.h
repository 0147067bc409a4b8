// terrain_layer.h — the ground: one streaming texture per visible chunk for the tiles
// (terrain patterns from the atlas, scorch marks), rebuilt only when the chunk changes,
// and one small texture per visible chunk for the pheromone overlay.
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

struct TerrainLayer {
  // Ground textures, one per ground tile: a chunk, or zoomed out on a map of small chunks
  // a square of tile_chunks x tile_chunks chunks (see ground_tile_chunks), row by row.
  std::vector<ChunkTexture> chunks;
  uint32_t tile_chunks = 1, tiles_x = 0;
  std::vector<OverlayTexture> overlays;  // per chunk
  std::vector<OverlayTexture> fires;     // per chunk: the glow of burning cells (additive)
  // Terrain patterns pre-filtered per density: [kind][variant][density level] -> pixels.
  std::vector<uint32_t> patterns[kTerrainKinds][kTerrainVariants][4];
  std::vector<uint32_t> scratch;  // chunk pixels being built
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
// Updates what is visible and draws ground then overlay for the visible chunks.
void draw_terrain(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam, Overlay overlay);
// The glow of burning cells, one additive texture per burning visible chunk (drawn over the world).
void draw_fire_glow(TerrainLayer& t, SDL_Renderer* renderer, const Game& g, const Camera& cam);

}  // namespace colony::render
