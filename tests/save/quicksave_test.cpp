// quicksave_test.cpp — F5 / F9 in the running window (SDL offscreen or dummy driver, keys through
// SDL's event queue): F5 writes quicksave.colony, F9 brings that world back exactly; a
// damaged quick save shows an error and leaves the running world untouched; quick load
// is refused while recording.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../common/offscreen_app.h"
#include "../common/scratch.h"
#include "../common/sdl_input.h"
#include "app.h"
#include "save.h"

namespace colony::render {
namespace {

struct Window : colony_test::OffscreenApp {
  using OffscreenApp::OffscreenApp;
  void key(SDL_Keycode k) {
    EXPECT_TRUE(colony_test::push_key_press(app.window, k)) << SDL_GetError();
    app_frame(app);  // the frame that handles the key
  }
};

// Quick saves go to the working folder: each test runs in its own.
class QuickSave : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = colony_test::scratch_path("quick");
    std::filesystem::create_directories(dir);
    old = std::filesystem::current_path();
    std::filesystem::current_path(dir);
  }
  void TearDown() override { std::filesystem::current_path(old); }
  std::filesystem::path dir, old;
};

const std::string kScenario = std::string(COLONY_SOURCE_DIR) + "/assets/scenarios/default.json";

TEST_F(QuickSave, F5ThenF9BringsTheSavedWorldBack) {
  Window w(kScenario);
  ASSERT_TRUE(w.ok) << w.err;
  w.frames(20);
  // Keys are handled at the start of a frame, before its ticks: paused, no tick runs.
  w.app.paused = true;
  w.key(SDLK_F5);
  ASSERT_TRUE(std::filesystem::exists("quicksave.colony")) << w.app.error;
  EXPECT_TRUE(w.app.error.empty()) << w.app.error;
  const u64 saved_tick = w.app.game->tick, saved_hash = state_hash(*w.app.game);
  // The notice names the file where it is: the working folder.
  const std::string where = (std::filesystem::current_path() / "quicksave.colony").string();
  EXPECT_EQ(w.app.notice, "saved " + where + " (tick " + std::to_string(saved_tick) + ")");
  w.app.paused = false;
  w.frames(30);
  ASSERT_GT(w.app.game->tick, saved_tick);
  // The player has moved the view; loading keeps it (the same map).
  w.app.camera.x += 7, w.app.camera.y -= 5, w.app.camera.zoom *= 1.5f;
  const Camera view = w.app.camera;
  w.app.paused = true;
  w.key(SDLK_F9);
  EXPECT_TRUE(w.app.error.empty()) << w.app.error;
  EXPECT_EQ(w.app.game->tick, saved_tick);
  EXPECT_EQ(state_hash(*w.app.game), saved_hash);
  EXPECT_EQ(w.app.notice, "loaded " + where + " (tick " + std::to_string(saved_tick) + ")");
  EXPECT_EQ(w.app.camera.x, view.x);
  EXPECT_EQ(w.app.camera.y, view.y);
  EXPECT_EQ(w.app.camera.zoom, view.zoom);
  // The confirmation fades from the HUD after a few seconds.
  EXPECT_GT(w.app.notice_until, w.app.seconds);
  w.frames(200);
  EXPECT_LT(w.app.notice_until, w.app.seconds);
}

TEST_F(QuickSave, ADamagedQuickSaveLeavesTheRunningWorldUntouched) {
  Window w(kScenario);
  ASSERT_TRUE(w.ok) << w.err;
  w.frames(10);
  w.key(SDLK_F5);
  std::string bytes;
  {
    std::ifstream in("quicksave.colony", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  ASSERT_GT(bytes.size(), 1000u);
  std::ofstream("quicksave.colony", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  w.frames(5);
  w.app.paused = true;
  w.frames(1);
  const Game* before = w.app.game.get();
  const u64 tick = before->tick, hash = state_hash(*before);
  w.key(SDLK_F9);
  EXPECT_EQ(w.app.game.get(), before);
  EXPECT_EQ(w.app.game->tick, tick);
  EXPECT_EQ(state_hash(*w.app.game), hash);
  // Named with its folder, as the notices name it (the player may not know where it is).
  const std::string where = (std::filesystem::current_path() / "quicksave.colony").string();
  EXPECT_EQ(w.app.error.rfind(where + ": truncated", 0), 0u) << w.app.error;
  // Shown for kErrorSeconds, then gone (it used to stay until the next success).
  EXPECT_TRUE(error_showing(w.app));
  w.app.seconds += kErrorSeconds - 0.5;
  w.frames(1);
  EXPECT_TRUE(error_showing(w.app));
  w.app.seconds += 1;
  w.frames(1);
  EXPECT_FALSE(error_showing(w.app));
}

// A world read from a save names the scenario it began from to the debugger (whose
// scenario list starts there), whatever the window was started with.
TEST_F(QuickSave, ALoadedWorldNamesItsOwnScenario) {
  const std::string fire = std::string(COLONY_SOURCE_DIR) + "/assets/scenarios/kingdom_fire.json";
  std::string err;
  {
    Window w(fire);
    ASSERT_TRUE(w.ok) << w.err;
    ASSERT_TRUE(save_game(*w.app.game, "fire.colony", &err)) << err;
  }
  Window w(kScenario);
  ASSERT_TRUE(w.ok) << w.err;
  EXPECT_EQ(w.app.link.running_scenario, kScenario);
  std::unique_ptr<Game> loaded = load_game("fire.colony", &err);
  ASSERT_TRUE(loaded) << err;
  install_game(w.app, std::move(loaded), kScenario);
  EXPECT_EQ(w.app.link.running_scenario, fire);
}

TEST_F(QuickSave, QuickLoadIsRefusedWhileRecording) {
  Window w(kScenario);
  ASSERT_TRUE(w.ok) << w.err;
  w.key(SDLK_F5);
  int ticks_seen = 0;
  w.app.before_tick = [&](Game&) { ++ticks_seen; };
  w.frames(5);
  EXPECT_GT(ticks_seen, 0);
  const Game* before = w.app.game.get();
  w.key(SDLK_F9);
  EXPECT_EQ(w.app.game.get(), before);
  EXPECT_NE(w.app.error.find("quick load is off while recording or replaying"), std::string::npos) << w.app.error;
}

}  // namespace
}  // namespace colony::render
