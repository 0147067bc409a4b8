// quicksave.cpp — the F5 / F9 hooks: F5 writes the running game to quicksave.colony (in
// the working folder, through a temporary file), F9 replaces the running game with the
// one read back. A failed load leaves the running world untouched; the error is shown.
#include <filesystem>

#include "app.h"
#include "files.h"
#include "save.h"

namespace colony::render {

namespace {

constexpr const char* kQuickSave = "quicksave.colony";

// The quick save where it is, the working folder: every message names the whole path.
std::string quicksave_path() {
  std::error_code ec;
  std::filesystem::path where = std::filesystem::absolute(kQuickSave, ec);
  return ec ? std::string(kQuickSave) : where.string();
}

// The HUD's confirmation line.
void notify(App& app, const char* what, const std::string& path) {
  show_notice(app, std::string(what) + " " + printable(path) + " (tick " + std::to_string(app.game->tick) + ")");
}
}  // namespace

bool quicksave(App& app, std::string* err) {
  const std::string path = quicksave_path();
  if (!save_game(*app.game, path, err)) return false;
  clear_error(app);
  notify(app, "saved", path);
  return true;
}

bool quickload(App& app, std::string* err) {
  const std::string path = quicksave_path();
  if (const std::string why = load_refusal(app); !why.empty()) {
    *err = printable(path) + ": quick load is off " + why;
    return false;
  }
  std::unique_ptr<Game> game = load_game(path, err);
  if (!game) return false;
  // The view stays where the player was looking when the map is the same size.
  const Camera view = app.camera;
  const bool same_map = game->width == app.game->width && game->height == app.game->height;
  install_game(app, std::move(game), app.scenario_path);
  if (same_map) app.camera = view;
  clear_error(app);
  notify(app, "loaded", path);
  return true;
}

}  // namespace colony::render
