// display.h — what SDL found to show the window on: the refusal to run unseen when it
// found no display, and the wait that keeps memory flat on its offscreen driver.
#pragma once
#include <SDL.h>

#include <string>

namespace colony::render {

// SDL_Init for the window. False with one line in *err when SDL could not start, or when
// it came up on its offscreen or dummy driver without being asked to (SDL_VIDEODRIVER
// unset) in a run that is not a screenshot: no one would see the game. SDL is quit again
// on failure.
bool init_video(bool screenshot, std::string* err);

// What to call after each present, or null: on the offscreen driver, the GL renderer's
// glFinish (see display.cpp).
using FrameWait = void (*)();
FrameWait frame_wait(SDL_Renderer* renderer);

}  // namespace colony::render
