// hud.h — the player's interface drawn with Dear ImGui: toolbar, HUD, inspector and the
// F1 help overlay. Called between ImGui::NewFrame() and ImGui::Render().
#pragma once

namespace colony::render {

struct App;

// Colours and rounding for every ImGui window of the game.
void style_ui();
void draw_ui(App& app);
// Where the HUD ends, in pixels from the top, while the debugger is open (it then keeps to
// its first lines); the toolbar ends above it. The debugger's top panels open below it.
float hud_compact_bottom();

// Every control, one line each (the help overlay and the README list these).
struct HelpLine {
  const char* keys;
  const char* what;
};
extern const HelpLine kHelpLines[];
extern const int kHelpLineCount;

}  // namespace colony::render
