// sdl_input.h — player input for tests that drive the real game window: SDL events
// pushed onto SDL's queue, handled by the window's next frame like a person's.
#pragma once
#include <SDL.h>

namespace colony_test {

// Pushes a key press (down, then up) for the window. True when SDL queued both events.
inline bool push_key_press(SDL_Window* window, SDL_Keycode k) {
  for (Uint32 type : {Uint32(SDL_KEYDOWN), Uint32(SDL_KEYUP)}) {
    SDL_Event e{};
    e.type = type;
    e.key.windowID = SDL_GetWindowID(window);
    e.key.state = type == SDL_KEYDOWN ? SDL_PRESSED : SDL_RELEASED;
    e.key.keysym.sym = k;
    e.key.keysym.scancode = SDL_GetScancodeFromKey(k);
    if (SDL_PushEvent(&e) != 1) return false;
  }
  return true;
}

}  // namespace colony_test
