// hud.h — the player's interface drawn with Dear ImGui: toolbar, HUD, inspector and the
// F1 help overlay. Called between ImGui::NewFrame() and ImGui::Render().
#pragma once
#include <string>

namespace colony {
struct Game;
}

namespace colony::render {

struct App;

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
