// forged_saves.h — saves whose checksum is right but whose content no game can reach:
// a world of the default scenario, run a few ticks, changed in one field and saved as it
// is (the writer computes a true checksum over the false content). The loader, the
// command line and the window's quick load must each refuse them by the check they fail.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "game.h"
#include "save.h"

namespace colony::test {

struct ForgedSave {
  const char* name;                  // a file name for it
  std::function<void(Game&)> forge;  // the one change
  const char* check;                 // what the refusal says
};

// The first live queen of colony `c`, or a null handle.
inline Handle live_queen(Game& g, u8 c) {
  Handle found;
  g.ecs->for_each_entity([&](ColonyEcs::Record& r) {
    if (found.is_null() && r.payload.kind == Kind::Queen && r.payload.colony == c) found = r.header.handle;
  });
  return found;
}

inline const std::vector<ForgedSave>& forged_saves() {
  static const std::vector<ForgedSave> cases = {
      // The queen lives in the store, her colony's link says she is gone.
      {"queen_link_null.colony", [](Game& g) { g.colonies[0].queen = {}; },
       "colony 0: its queen link is empty while its queen lives"},
      // The report had shown 1.8e19 violations, and the run exited 0.
      {"violations_max.colony", [](Game& g) { g.invariant_violations = ~std::uint64_t(0); },
       "the invariant violation count 18446744073709551615 is more than"},
      {"died_max.colony", [](Game& g) { g.colonies[1].died.by_cause[size_t(DeathCause::Age)] = ~std::uint64_t(0); },
       "colony 1: its ants alive"},
      // The world's tick moved 5,000 ticks on, the ants' stamps left: every ant had died of
      // age at once in the next tick. (The default scenario has no events, whose schedule
      // the tick would also move.)
      {"tick_moved.colony", [](Game& g) { g.tick += 5000; }, "is not within the"},
      // A stamp in the future: the world's tick moved back.
      {"tick_back.colony", [](Game& g) { g.tick -= 5; }, "is not within the"},
      // Born fewer than alive.
      {"born_short.colony", [](Game& g) { g.colonies[0].born -= 1; }, "colony 0: its ants alive"},
  };
  return cases;
}

// The default scenario's world at tick 40, forged by `f`, as save bytes.
inline std::vector<std::uint8_t> forged_save_bytes(const ForgedSave& f, const std::string& default_scenario) {
  Scenario s;
  std::string err;
  EXPECT_TRUE(load_scenario(default_scenario, s, &err)) << err;
  EXPECT_TRUE(s.events.empty()) << "the tick forgeries expect a scenario without events";
  auto g = make_game(s, s.seed, &err);
  EXPECT_NE(g, nullptr) << err;
  if (!g) return {};
  for (int t = 0; t < 40; ++t) simulate_tick(*g);
  EXPECT_FALSE(live_queen(*g, 0).is_null());
  f.forge(*g);
  std::vector<std::uint8_t> bytes;
  EXPECT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
  return bytes;
}

}  // namespace colony::test
