// main.cpp — Colony's entry point: parse the command line, then run headless or open the window.
#include <cstdio>
#include <new>
#include <string>

#include "files.h"
#include "game.h"
#include "headless.h"
#include "options.h"

#ifdef COLONY_HAS_WINDOW
#include "window.h"
#endif

namespace {

// The file a run takes its world from: a replay, a save or a scenario.
const std::string& world_file(const colony::Options& o) {
  return !o.replay.empty() ? o.replay : !o.load.empty() ? o.load : o.scenario;
}

int run_world(const colony::Options& options) {
  // Process-wide: every world this run builds (a load, a replay, the debugger's restarts)
  // ticks on these threads.
  colony::set_sim_threads(options.threads);
  if (options.headless) return colony::run_headless(options);
#ifdef COLONY_HAS_WINDOW
  return colony::run_window(options);
#else
  std::fprintf(stderr, "colony: built without window support; use --headless\n");
  return 2;
#endif
}

int run(int argc, char** argv) {
  colony::Options options;
  int rc = colony::parse_options(argc, argv, options);
  if (rc == 1) return 0;  // --help
  if (rc != 0) return rc;
  try {
    return run_world(options);
  } catch (const std::bad_alloc&) {
    std::fprintf(
        stderr,
        "colony: %s: out of memory (this world, with what the run keeps of it, needs more than the process may take)\n",
        colony::printable(world_file(options)).c_str());
    return 2;
  }
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
