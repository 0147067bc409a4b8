// tick_benchmarks.cpp — tick/full, tick/chunked and tick/bomb: the real game at scale.
// Registered once the simulation's verbs (game/sim/game.h) are implemented.
#include "registry.h"

namespace bench {

void register_tick_benchmarks(const Sizes&) {}

}  // namespace bench
