// hud.h — the player's interface drawn with Dear ImGui: toolbar, HUD, inspector and the
// F1 help overlay. Called between ImGui::NewFrame() and ImGui::Render().
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "game.h"

namespace colony::render {

struct App;

// The HUD's population chart (collapsible): each colony's ants alive, sampled every
// kPopulationSampleTicks ticks, the last kPopulationSamples samples (five minutes of game
// time), drawn in the colonies' colours.
inline constexpr uint64_t kPopulationSampleTicks = 60;
inline constexpr int kPopulationSamples = 300;
struct PopulationChart {
  std::array<std::vector<float>, kMaxColonies> rings;  // per colony, kPopulationSamples long
  int count = 0;                                       // samples held
  int head = 0;                                        // ring position of the next sample
  uint64_t last_tick = 0;                              // tick of the newest sample (count > 0)
  bool open = true;                                    // the header's state
};
// Called after every tick: a sample of every colony when the tick is a multiple of
// kPopulationSampleTicks (0 for colonies not founded yet). A world at or before the newest
// sample's tick (rewound, or another world) starts the chart again.
void sample_population(PopulationChart& chart, const Game& g);
void clear_population(PopulationChart& chart);
// A colony's samples, oldest first.
std::vector<float> population_series(const PopulationChart& chart, size_t colony);

// Colours and rounding for every ImGui window of the game.
void style_ui();
void draw_ui(App& app);
// The pools that refused a reservation, and "entities" if the store refused one: where
// refused spawns found no room, since the world began or (last_tick) in the last tick.
std::string refusing_pools(const Game& g, bool last_tick = false);
// Where the toolbar ended on screen in the last frame it was drawn (0 before the first):
// more than one row of buttons in a narrow window.
float toolbar_bottom();
// Where the HUD ended on the right in the last frame it was drawn.
float hud_right_edge();

// Every control, one line each (the help overlay and the README list these).
struct HelpLine {
  const char* keys;
  const char* what;
};
extern const HelpLine kHelpLines[];
extern const int kHelpLineCount;

}  // namespace colony::render
