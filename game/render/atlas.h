// atlas.h — the sprite atlas: which sprite lives where in assets/atlas.png, and loading it.
//
// The atlas is a grid of kCell x kCell pixel sprites, kColumns per row. The generator
// (atlas_gen.cpp) draws sprite N into grid cell N; the renderer computes texture
// coordinates from the same numbers, so the two can never disagree.
//
// Sprites drawn in white/grey are tinted by the vertex colour (colony colours); coloured
// sprites (food, fire, terrain) are drawn with a white vertex colour.
// Every sprite points "forward" along +x: a piece's size_x runs along its owner's heading.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

struct SDL_Renderer;
struct SDL_Texture;

namespace colony::render {

inline constexpr int kAtlasCell = 32;                          // pixels per sprite cell
inline constexpr int kAtlasColumns = 16;                       // sprites per atlas row
inline constexpr int kAtlasSize = kAtlasCell * kAtlasColumns;  // square atlas side in pixels

// The first sprites follow colony::Part so a piece's part is its sprite.
enum Sprite : uint16_t {
  kSpriteHead = 0,
  kSpriteThorax,
  kSpriteAbdomen,
  kSpriteLeg,
  kSpriteAntenna,
  kSpriteMandible,
  kSpriteCarriedFood,
  kSpriteCrumb,
  kSpriteTile,
  kSpriteQueenAbdomen,
  kSpriteWing,
  // Effects and markers.
  kSpriteSolid = 11,   // white square
  kSpriteGlow,         // soft radial falloff
  kSpriteRing,         // shockwave ring
  kSpriteDebris,       // rock chunk
  kSpriteSmoke,        // smoke puff
  kSpriteFire0 = 16,   // kFireFrames animation frames of a flame
  kSpriteAntFar = 24,  // a whole ant in one sprite (level of detail)
  kSpriteNest,         // nest mound with an entrance
  kSpriteSelect,       // crisp selection ring
  kSpriteSpark,        // bright streak
  kSpriteDot,          // a whole ant as one dot (furthest level of detail)
  kSpriteScorch,       // dark burn decal
  // Terrain patterns: kTerrainVariants per terrain kind, tiled 4x4 cells per pattern.
  kSpriteTerrain0 = 32,
  kSpriteCount = 48,
};
inline constexpr int kFireFrames = 8;
inline constexpr int kTerrainVariants = 2;
inline constexpr int kTerrainKinds = 4;  // grass, dirt, water, rock (colony::Terrain order)

// Pixel rectangle of a sprite in the atlas.
struct SpriteRect {
  int x, y, w, h;
};
inline SpriteRect sprite_rect(int sprite) {
  return {(sprite % kAtlasColumns) * kAtlasCell, (sprite / kAtlasColumns) * kAtlasCell, kAtlasCell, kAtlasCell};
}

// The atlas as loaded: CPU pixels (the terrain builder samples them) and two GPU
// textures sharing those pixels, one alpha-blended and one additive (glows, flashes).
struct Atlas {
  std::vector<uint32_t> pixels;  // kAtlasSize * kAtlasSize, SDL_PIXELFORMAT_ABGR8888 (RGBA bytes)
  SDL_Texture* blend = nullptr;
  SDL_Texture* add = nullptr;
  uint32_t pixel(int x, int y) const { return pixels[size_t(y) * kAtlasSize + size_t(x)]; }
};

// Loads the atlas PNG with SDL2_image. On failure returns false and fills err.
bool load_atlas(SDL_Renderer* renderer, const std::string& path, Atlas& atlas, std::string* err);
void free_atlas(Atlas& atlas);

// Path of assets/<name>: looks next to the working directory, then next to the executable.
std::string find_asset(const std::string& name);

}  // namespace colony::render
