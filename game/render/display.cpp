// display.cpp — SDL's video start for the window (with the refusal to run without a
// display) and the per-frame wait of the offscreen driver's GL renderer.
#include "display.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

namespace colony::render {

namespace {

bool named(const char* name, const char* want) { return name && std::strcmp(name, want) == 0; }
bool set(const char* var) {
  const char* v = SDL_getenv(var);
  return v && *v;
}

// SDL_Init with stderr sent to /dev/null: with no display, SDL's probe of Wayland makes
// libwayland print "error: XDG_RUNTIME_DIR is invalid or not set in the environment." on
// its own, before the run's one line that says what is wrong. SDL's own errors come
// through SDL_GetError, not stderr.
int init_quietly(Uint32 flags) {
  std::fflush(stderr);
  const int saved = dup(STDERR_FILENO);
  const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (saved < 0 || null < 0) {
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    return SDL_Init(flags);
  }
  dup2(null, STDERR_FILENO);
  close(null);
  const int rc = SDL_Init(flags);
  std::fflush(stderr);
  dup2(saved, STDERR_FILENO);
  close(saved);
  return rc;
}

}  // namespace

bool init_video(bool screenshot, std::string* err) {
  const bool display_named = set("DISPLAY") || set("WAYLAND_DISPLAY");
  const Uint32 flags = SDL_INIT_VIDEO | SDL_INIT_TIMER;
  if ((display_named ? SDL_Init(flags) : init_quietly(flags)) != 0) {
    *err = std::string("SDL_Init: ") + SDL_GetError();
    return false;
  }
  // SDL falls back to these two when no display answers. A user who set SDL_VIDEODRIVER
  // asked for them; a screenshot run needs no one to watch it.
  const char* driver = SDL_GetCurrentVideoDriver();
  if (set("SDL_VIDEODRIVER") || screenshot || !(named(driver, "offscreen") || named(driver, "dummy"))) return true;
  std::string where = "neither DISPLAY nor WAYLAND_DISPLAY is set";
  if (display_named) {
    where.clear();
    for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY"})
      if (set(var)) where += (where.empty() ? "" : " and ") + std::string(var) + "=" + SDL_getenv(var);
    where += " could not be opened";
  }
  *err = "no display found (" + where + "); run it on a desktop, or use --headless";
  SDL_Quit();
  return false;
}

// On the offscreen driver the GL renderer draws into an EGL pbuffer, and presenting a
// pbuffer does not wait for Mesa's software rasteriser: memory grew by about 1 MB with
// every frame not waited for. Waiting for each frame after its present holds memory where
// a window's run has it, for a little of the frame rate; SDL's software renderer is flat
// too but slower (docs/performance-notes.md, "The window").
FrameWait frame_wait(SDL_Renderer* renderer) {
  SDL_RendererInfo info{};
  if (!named(SDL_GetCurrentVideoDriver(), "offscreen") || SDL_GetRendererInfo(renderer, &info) != 0) return nullptr;
  if (!named(info.name, "opengl") && !named(info.name, "opengles2") && !named(info.name, "opengles")) return nullptr;
  return reinterpret_cast<FrameWait>(SDL_GL_GetProcAddress("glFinish"));
}

}  // namespace colony::render
