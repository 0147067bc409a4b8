// quicksave_test.cpp — F5 / F9 in the running window (SDL offscreen or dummy driver, keys through
// SDL's event queue): F5 writes quicksave.colony, F9 brings that world back exactly; a
// damaged quick save, or one whose content makes no sense, shows an error and leaves the
// running world untouched; F5 killed at random moments never tears the quick save; quick
// load is refused while recording.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "../common/offscreen_app.h"
#include "../common/scratch.h"
#include "../common/sdl_input.h"
#include "app.h"
#include "forged_saves.h"
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
  // Shown for kErrorSeconds, then gone (not kept until the next success).
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

// A quick save whose checksum is right but whose content makes no sense (each forged
// save of forged_saves.h): F9 shows the check it fails, naming the file, and the running
// world stays as it was.
TEST_F(QuickSave, AQuickSaveThatMakesNoSenseLeavesTheRunningWorldUntouched) {
  Window w(kScenario);
  ASSERT_TRUE(w.ok) << w.err;
  w.frames(5);
  w.app.paused = true;
  w.frames(1);
  const std::string where = (std::filesystem::current_path() / "quicksave.colony").string();
  for (const test::ForgedSave& f : test::forged_saves()) {
    SCOPED_TRACE(f.name);
    std::vector<std::uint8_t> bytes = test::forged_save_bytes(f, kScenario);
    ASSERT_FALSE(bytes.empty());
    std::ofstream("quicksave.colony", std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    const Game* before = w.app.game.get();
    const u64 tick = before->tick, hash = state_hash(*before);
    w.key(SDLK_F9);
    EXPECT_EQ(w.app.game.get(), before);
    EXPECT_EQ(w.app.game->tick, tick);
    EXPECT_EQ(state_hash(*w.app.game), hash);
    EXPECT_EQ(w.app.error.rfind(where + ": bad content in", 0), 0u) << w.app.error;
    EXPECT_NE(w.app.error.find(f.check), std::string::npos) << w.app.error;
  }
}

// F5 killed with SIGKILL at random moments: the quick save there before stays whole or the
// new one is complete, never torn. Each kill falls on a copy of the running window's
// process (fork) that stops itself, is continued and killed while it runs the F5 handler;
// the copy draws nothing (the handler saves and sets the notice), so no GL state is used
// after the fork.
TEST_F(QuickSave, AQuickSaveKilledAtRandomMomentsIsNeverTorn) {
  Window w(kScenario);
  ASSERT_TRUE(w.ok) << w.err;
  w.frames(5);
  w.app.paused = true;
  w.key(SDLK_F5);
  auto slurp = [] {
    std::ifstream in("quicksave.colony", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  const std::string before = slurp();
  w.app.paused = false;
  w.frames(20);
  w.app.paused = true;
  w.frames(1);
  std::vector<std::uint8_t> now;
  std::string err;
  ASSERT_TRUE(save_game_to_bytes(*w.app.game, now, &err)) << err;
  const std::string after(now.begin(), now.end());
  ASSERT_NE(before, after);
  // Runs F5 in a stopped copy; continues it and kills it `wait` in (or lets it end).
  auto f5_in_a_copy = [&](std::chrono::microseconds wait, bool kill_it) {
    std::ofstream("quicksave.colony", std::ios::binary) << before;
    pid_t pid = ::fork();
    if (pid == 0) {
      std::raise(SIGSTOP);
      std::string e;
      ::_exit(quicksave(w.app, &e) ? 0 : 1);
    }
    int status = 0;
    EXPECT_EQ(::waitpid(pid, &status, WUNTRACED), pid);
    ::kill(pid, SIGCONT);
    if (kill_it) {
      std::this_thread::sleep_for(wait);
      ::kill(pid, SIGKILL);
    }
    ::waitpid(pid, &status, 0);
    // The temporaries a kill leaves beside it go before the next round.
    for (const auto& e : std::filesystem::directory_iterator("."))
      if (e.path().filename() != "quicksave.colony") std::filesystem::remove(e.path());
    return kill_it || (WIFEXITED(status) && WEXITSTATUS(status) == 0);
  };
  auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(f5_in_a_copy({}, false));
  const double window_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_EQ(slurp(), after) << "a whole F5 writes the running world";
  std::mt19937 rng(777);
  std::uniform_real_distribution<double> offset(0, window_us * 1.2);
  int olds = 0, news = 0;
  for (int k = 0; k < 60; ++k) {
    const auto wait = std::chrono::microseconds(long(offset(rng)));
    f5_in_a_copy(wait, true);
    const std::string found = slurp();
    ASSERT_TRUE(found == before || found == after)
        << "quicksave.colony torn (" << found.size() << " bytes) by a kill " << wait.count() << " us in";
    (found == before ? olds : news)++;
  }
  std::printf("[ kills ] F5: 60 kills over %.0f us: %d left the previous quick save, %d found the new one whole\n",
              window_us, olds, news);
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
