// window.h — the windowed game's entry point, called by main when not --headless.
#pragma once
#include "options.h"

namespace colony {

// Opens the window and plays until it is closed (or, with --frames N, for N frames,
// writing --screenshot FILE.png from the last one). Exit code: 0 ok, 2 bad input or no
// window could be opened.
int run_window(const Options& options);

}  // namespace colony
