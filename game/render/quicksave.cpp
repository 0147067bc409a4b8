// quicksave.cpp — the F5 / F9 hooks: F5 writes the running game to quicksave.colony (in
// the working folder, through a temporary file), F9 replaces the running game with the
// one read back. A failed load leaves the running world untouched; the error is shown.
#include "app.h"
#include "save.h"

namespace colony::render {

namespace {
constexpr const char* kQuickSave = "quicksave.colony";
}

bool quicksave(App& app, std::string* err) {
  if (!save_game(*app.game, kQuickSave, err)) return false;
  app.error.clear();
  return true;
}

bool quickload(App& app, std::string* err) {
  if (app.before_tick || app.after_tick) {
    *err = std::string(kQuickSave) + ": quick load is off while recording or replaying";
    return false;
  }
  std::unique_ptr<Game> game = load_game(kQuickSave, err);
  if (!game) return false;
  install_game(app, std::move(game), app.scenario_path);
  app.error.clear();
  return true;
}

}  // namespace colony::render
