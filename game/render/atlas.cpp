// atlas.cpp — loads assets/atlas.png into CPU pixels and two textures (blend, additive).
#include "atlas.h"

#include <SDL.h>
#include <SDL_image.h>

#include <cstring>
#include <filesystem>

namespace colony::render {

std::string find_asset(const std::string& name) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> roots = {fs::path("assets")};
#ifdef COLONY_ASSET_DIR
  roots.insert(roots.begin(), fs::path(COLONY_ASSET_DIR));
#endif
  if (char* base = SDL_GetBasePath()) {
    roots.push_back(fs::path(base) / "assets");
    roots.push_back(fs::path(base) / ".." / "assets");
    SDL_free(base);
  }
  for (const fs::path& r : roots)
    if (fs::exists(r / name, ec)) return (r / name).string();
  return (fs::path("assets") / name).string();
}

bool load_atlas(SDL_Renderer* renderer, const std::string& path, Atlas& atlas, std::string* err) {
  SDL_Surface* loaded = IMG_Load(path.c_str());
  if (!loaded) {
    *err = path + ": cannot load the sprite atlas: " + IMG_GetError();
    return false;
  }
  SDL_Surface* rgba = SDL_ConvertSurfaceFormat(loaded, SDL_PIXELFORMAT_ABGR8888, 0);
  SDL_FreeSurface(loaded);
  if (!rgba) {
    *err = path + ": " + SDL_GetError();
    return false;
  }
  if (rgba->w != kAtlasSize || rgba->h != kAtlasSize) {
    *err = path + ": atlas is " + std::to_string(rgba->w) + "x" + std::to_string(rgba->h) + ", expected " +
           std::to_string(kAtlasSize) + "x" + std::to_string(kAtlasSize);
    SDL_FreeSurface(rgba);
    return false;
  }
  atlas.pixels.resize(size_t(kAtlasSize) * kAtlasSize);
  for (int y = 0; y < kAtlasSize; ++y)
    std::memcpy(&atlas.pixels[size_t(y) * kAtlasSize], static_cast<uint8_t*>(rgba->pixels) + size_t(y) * rgba->pitch,
                size_t(kAtlasSize) * 4);
  atlas.blend = SDL_CreateTextureFromSurface(renderer, rgba);
  atlas.add = SDL_CreateTextureFromSurface(renderer, rgba);
  SDL_FreeSurface(rgba);
  if (!atlas.blend || !atlas.add) {
    *err = path + ": cannot create the atlas texture: " + SDL_GetError();
    free_atlas(atlas);
    return false;
  }
  SDL_SetTextureBlendMode(atlas.blend, SDL_BLENDMODE_BLEND);
  SDL_SetTextureBlendMode(atlas.add, SDL_BLENDMODE_ADD);
  SDL_SetTextureScaleMode(atlas.blend, SDL_ScaleModeLinear);
  SDL_SetTextureScaleMode(atlas.add, SDL_ScaleModeLinear);
  return true;
}

void free_atlas(Atlas& atlas) {
  if (atlas.blend) SDL_DestroyTexture(atlas.blend);
  if (atlas.add) SDL_DestroyTexture(atlas.add);
  atlas.blend = atlas.add = nullptr;
}

}  // namespace colony::render
