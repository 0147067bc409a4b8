// main.cpp — Colony's entry point: parse the command line, then run headless or open the window.
#include <cstdio>
#include <new>

#include "headless.h"
#include "options.h"

#ifdef COLONY_HAS_WINDOW
#include "window.h"
#endif

namespace {

int run(int argc, char** argv) {
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

}  // namespace

// Memory for a world is checked before it is built (memory_problem); running out anyway
// still ends with one line.
int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "colony: out of memory\n");
    return 2;
  }
}
