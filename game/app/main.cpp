// main.cpp — Colony's entry point: parse the command line, then run headless or open the window.
#include <cstdio>

#include "headless.h"
#include "options.h"

#ifdef COLONY_HAS_WINDOW
#include "window.h"
#endif

int main(int argc, char** argv) {
  colony::Options options;
  int rc = colony::parse_options(argc, argv, options);
  if (rc == 1) return 0;  // --help
  if (rc != 0) return rc;
  if (options.headless) return colony::run_headless(options);
#ifdef COLONY_HAS_WINDOW
  return colony::run_window(options);
#else
  std::fprintf(stderr, "colony: built without window support; use --headless\n");
  return 2;
#endif
}
