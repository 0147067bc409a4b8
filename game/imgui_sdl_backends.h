// imgui_sdl_backends.h — Dear ImGui's SDL2 platform and SDL_Renderer backends under one
// set of names, whichever libimgui-dev built them. Release 1.86 ships imgui_impl_sdl and
// imgui_impl_sdlrenderer (ImGui_ImplSDLRenderer_*); later ones rename them imgui_impl_sdl2
// and imgui_impl_sdlrenderer2 (ImGui_ImplSDLRenderer2_*), give the platform's init the
// renderer, and, later still, the renderer's draw call too. game/CMakeLists.txt compiles
// whichever sources the package has.
#pragma once
#include <SDL.h>
#include <imgui.h>

#if __has_include(<imgui_impl_sdl2.h>)
#include <imgui_impl_sdl2.h>
#else
#include <imgui_impl_sdl.h>
#endif
#if __has_include(<imgui_impl_sdlrenderer2.h>)
#include <imgui_impl_sdlrenderer2.h>
#define COLONY_IMGUI_SDLRENDERER2 1
#else
#include <imgui_impl_sdlrenderer.h>
#endif

namespace imgui_sdl {

// The renderer the backend draws with, for the releases whose draw call takes it.
inline SDL_Renderer*& renderer() {
  static SDL_Renderer* r = nullptr;
  return r;
}

// Templates so that the call a release does not have is never compiled.
template <class W, class R>
bool init(W* window, R* r) {
  renderer() = r;
  bool platform = false;
  if constexpr (requires { ImGui_ImplSDL2_InitForSDLRenderer(window, r); })
    platform = ImGui_ImplSDL2_InitForSDLRenderer(window, r);
  else platform = ImGui_ImplSDL2_InitForSDLRenderer(window);
#if COLONY_IMGUI_SDLRENDERER2
  return ImGui_ImplSDLRenderer2_Init(r) && platform;
#else
  return ImGui_ImplSDLRenderer_Init(r) && platform;
#endif
}

// The renderer's half alone (a test draws ImGui into a software renderer, no window).
inline bool init_renderer(SDL_Renderer* r) {
  renderer() = r;
#if COLONY_IMGUI_SDLRENDERER2
  return ImGui_ImplSDLRenderer2_Init(r);
#else
  return ImGui_ImplSDLRenderer_Init(r);
#endif
}

inline void new_renderer_frame() {
#if COLONY_IMGUI_SDLRENDERER2
  ImGui_ImplSDLRenderer2_NewFrame();
#else
  ImGui_ImplSDLRenderer_NewFrame();
#endif
}

template <class D>
void render(D* draw_data) {
#if COLONY_IMGUI_SDLRENDERER2
  if constexpr (requires { ImGui_ImplSDLRenderer2_RenderDrawData(draw_data, renderer()); })
    ImGui_ImplSDLRenderer2_RenderDrawData(draw_data, renderer());
  else ImGui_ImplSDLRenderer2_RenderDrawData(draw_data);
#else
  ImGui_ImplSDLRenderer_RenderDrawData(draw_data);
#endif
}

inline void shutdown_renderer() {
#if COLONY_IMGUI_SDLRENDERER2
  ImGui_ImplSDLRenderer2_Shutdown();
#else
  ImGui_ImplSDLRenderer_Shutdown();
#endif
  renderer() = nullptr;
}

}  // namespace imgui_sdl
