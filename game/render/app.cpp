// app.cpp — the windowed game's life cycle: window and renderer, events, tools, camera,
// fixed-step time control, drawing, screenshots.
//
// Table of contents
//   [SECTION] Start and stop
//   [SECTION] Messages
//   [SECTION] Scenarios
//   [SECTION] Tools
//   [SECTION] Events
//   [SECTION] Time control (fixed ticks, independent of the frame rate)
//   [SECTION] Camera and simulation region
//   [SECTION] Frame
//   [SECTION] Screenshot
#include "app.h"

#include <SDL_image.h>
#include <imgui.h>
#include <imgui_sdl_backends.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>

#include "display.h"
#include "files.h"
#include "headless.h"
#include "hud.h"
#include "timeline.h"

namespace colony::render {

namespace {

uint64_t now_ns() {
  return uint64_t(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
          .count());
}
double ms_since(uint64_t t0) { return double(now_ns() - t0) / 1e6; }

// The frame's ticks with their hooks (the simulation thread's job; [SECTION] Time control).
void run_ticks(App& app);

constexpr int kMaxSpeed = 64;
constexpr double kTickBudgetMs = 28;  // simulation time allowed per frame before ticks are dropped
// kMaxRegionCells (app.h): the region following the view never grows past this square.

}  // namespace

const char* tool_name(Tool t) {
  switch (t) {
    case Tool::Select: return "Select";
    case Tool::Bomb: return "Bomb";
    case Tool::BigBomb: return "Big bomb";
    case Tool::Ignite: return "Fire";
    case Tool::Food: return "Food";
    case Tool::PaintWater: return "Water";
    case Tool::PaintRock: return "Rock";
    case Tool::PaintGrass: return "Grass";
    case Tool::Spawn: return "Spawn";
    case Tool::Colony: return "Colony";
    default: return "?";
  }
}

// [SECTION] Start and stop

bool simulates_whole_map(const Game& g) {
  const Scenario& s = g.scenario;
  const bool whole_w = s.region_w <= 0 || (s.region_x <= 0 && s.region_x + s.region_w >= float(g.width));
  const bool whole_h = s.region_h <= 0 || (s.region_y <= 0 && s.region_y + s.region_h >= float(g.height));
  return whole_w && whole_h;
}

namespace {

// The camera that shows the whole map, centred, on the current screen.
Camera whole_map_camera(const App& app) {
  const Game& g = *app.game;
  Camera cam = app.camera;
  cam.zoom = fit_zoom(cam, float(g.width), float(g.height));
  cam.x = float(g.width) * 0.5f;
  cam.y = float(g.height) * 0.5f;
  return cam;
}

// The whole map (H, Home; a resize keeps a view of it whole).
void show_whole_map(App& app) {
  app.camera = whole_map_camera(app);
  app.follow = false;
}

// The view a new world opens with: the whole map, or on a map too big to see ants that
// way, the first nest close up.
void open_view(App& app) {
  show_whole_map(app);
  Game& g = *app.game;
  Camera& cam = app.camera;
  if (cam.zoom < 2.f && !g.colonies.empty()) {
    cam.zoom = 8.f;
    cam.x = g.colonies[0].nest_x;
    cam.y = g.colonies[0].nest_y;
  }
}

// Whether the camera is where show_whole_map put it.
bool shows_whole_map(const App& app) {
  const Camera whole = whole_map_camera(app);
  return app.camera.zoom == whole.zoom && app.camera.x == whole.x && app.camera.y == whole.y;
}

// A tool used during a replay: the recording's commands alone act until its end.
void say_tools_off(App& app) {
  show_notice(app, "the replay plays its recorded commands: the tools are back at its end");
}

}  // namespace

void install_game(App& app, std::unique_ptr<Game> game, const std::string& path) {
  app.game = std::move(game);
  // A new world: the old one's messages go, and its tick rate is not held against this one.
  clear_error(app);
  app.notice.clear(), app.notice_until = 0;
  app.fate_note.clear(), app.fate_note_until = 0;
  for (size_t i = 0; i < kMaxColonies; ++i)
    app.fate_seen[i] = i < app.game->colonies.size() && app.game->colonies[i].fate != Fate::None
                           ? app.game->colonies[i].fate_tick + 1
                           : 0;
  app.rate_since = app.seconds;
  app.scenario_path = path;
  // The world's own scenario: a save or a replay names the scenario it began from.
  app.link.running_scenario = app.game->scenario.path.empty() ? path : app.game->scenario.path;
  app.selected = {};
  app.link.selected = {};
  app.follow = false;
  app.tick_debt = 0;
  app.spawn_colony = 0;
  reset_terrain_layer(app.terrain);
  reset_effects(app.effects, *app.game);
  clear_population(app.population);
  sample_population(app.population, *app.game);
  open_view(app);
  // The new world's history begins at its first tick (a save's or a replay's too).
  start_history(app);
  if (app.window) {
    const std::string& name = app.game->scenario.name;
    SDL_SetWindowTitle(app.window, name.empty() ? "Colony" : ("Colony - " + name).c_str());
  }
}

bool app_init(App& app, const WindowConfig& config, std::string* err) {
  app.config = config;
  // Load the world first: a bad scenario must neither flash a window nor let SDL speak
  // before its one line.
  {
    std::string load_err;
    std::unique_ptr<Game> game;
    if (config.make_world) {
      game = config.make_world(&load_err);
    } else {
      Scenario scenario;
      if (load_scenario(config.scenario, scenario, &load_err))
        game = make_game(scenario, config.seed_given ? config.seed : scenario.seed, &load_err);
    }
    if (!game) {
      *err = load_err;
      return false;
    }
    app.game = std::move(game);
    app.scenario_path = app.link.running_scenario = config.scenario;
  }
  if (!init_video(!config.screenshot.empty(), err)) return false;
  // A size not given is four fifths of the display's usable area, within bounds; one
  // given alone is kept.
  int w = config.width, h = config.height;
  if (w <= 0 || h <= 0) {
    SDL_Rect usable{0, 0, 1280, 800};
    if (SDL_GetDisplayUsableBounds(0, &usable) != 0 || usable.w <= 0) usable = {0, 0, 1280, 800};
    if (w <= 0) w = std::clamp(usable.w * 4 / 5, 960, 1600);
    if (h <= 0) h = std::clamp(usable.h * 4 / 5, 640, 1000);
  }
  Uint32 flags = SDL_WINDOW_RESIZABLE | (config.hidden ? SDL_WINDOW_HIDDEN : SDL_WINDOW_SHOWN);
  app.window = SDL_CreateWindow("Colony", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h, flags);
  if (!app.window) {
    *err = std::string("SDL_CreateWindow: ") + SDL_GetError();
    app_shutdown(app);
    return false;
  }
  Uint32 rflags = SDL_RENDERER_ACCELERATED | (config.vsync ? SDL_RENDERER_PRESENTVSYNC : 0);
  app.renderer = SDL_CreateRenderer(app.window, -1, rflags);
  if (!app.renderer) app.renderer = SDL_CreateRenderer(app.window, -1, SDL_RENDERER_SOFTWARE);
  if (!app.renderer) {
    *err = std::string("SDL_CreateRenderer: ") + SDL_GetError();
    app_shutdown(app);
    return false;
  }
  app.frame_wait = frame_wait(app.renderer);
  std::string atlas_path = find_asset("atlas.png");
  if (!load_atlas(app.renderer, atlas_path, app.atlas, err)) {
    app_shutdown(app);
    return false;
  }
  init_terrain_layer(app.terrain, app.atlas);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // window positions live for the run only
  style_ui();
  imgui_sdl::init(app.window, app.renderer);
  app.imgui_ready = true;
  debugger_init(app.debugger, config.debug_ui);

  int ow = w, oh = h;
  SDL_GetRendererOutputSize(app.renderer, &ow, &oh);
  app.camera.view_w = float(ow), app.camera.view_h = float(oh);
  std::unique_ptr<Game> g = std::move(app.game);
  install_game(app, std::move(g), config.scenario);
  if (const char* skip = SDL_getenv("COLONY_RENDER_SKIP")) {
    std::string k = skip;
    app.skip_terrain = k.find("terrain") != std::string::npos;
    app.skip_world = k.find("world") != std::string::npos;
    app.skip_ui = k.find("ui") != std::string::npos;
  }
  if (config.sim_thread)
    app.sim_thread = std::make_unique<SimThread>([](void* a) { run_ticks(*static_cast<App*>(a)); }, &app);
  app.last_frame_ns = now_ns();
  app.stats.window_start_ns = app.stats.run_start_ns = app.last_frame_ns;
  return true;
}

void app_shutdown(App& app) {
  app.sim_thread.reset();  // after its last run
  reset_terrain_layer(app.terrain);
  free_batch(app.batch);
  free_atlas(app.atlas);
  if (app.imgui_ready) {
    imgui_sdl::shutdown_renderer();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
    app.imgui_ready = false;
  }
  if (app.renderer) SDL_DestroyRenderer(app.renderer);
  if (app.window) SDL_DestroyWindow(app.window);
  app.renderer = nullptr;
  app.window = nullptr;
  app.game.reset();
  SDL_Quit();
}

// [SECTION] Messages

void show_error(App& app, std::string text) {
  app.error = std::move(text);
  app.error_until = app.seconds + kErrorSeconds;
}
void show_notice(App& app, std::string text) {
  app.notice = std::move(text);
  app.notice_until = app.seconds + 3;
}
void clear_error(App& app) { app.error.clear(), app.error_until = 0; }

void announce_fates(App& app) {
  const Game& g = *app.game;
  for (size_t i = 0; i < g.colonies.size() && i < kMaxColonies; ++i) {
    const Colony& c = g.colonies[i];
    if (c.fate == Fate::None || app.fate_seen[i] == c.fate_tick + 1) continue;
    app.fate_seen[i] = c.fate_tick + 1;
    const std::string who = "Colony " + std::to_string(i + 1);
    switch (c.fate) {
      case Fate::Collapsed: app.fate_note = who + " collapsed: no workers or soldiers left"; break;
      case Fate::Starving: app.fate_note = who + " is starving: its ants die of hunger"; break;
      case Fate::Refounded: app.fate_note = who + " founded again: its queen lays from her reserve"; break;
      case Fate::Founded: app.fate_note = who + " founded: its queen lays from the store she brought"; break;
      case Fate::None: break;
    }
    app.fate_note_colony = int(i);
    app.fate_note_until = app.seconds + kFateNoteSeconds;
  }
}
std::string load_refusal(const App& app) {
  if (!app.before_tick && !app.after_tick) return "";
  return app.locked_because.empty() ? "while recording or replaying" : app.locked_because;
}
bool error_showing(const App& app) { return !app.error.empty() && app.seconds < app.error_until; }
bool notice_showing(const App& app) { return !app.notice.empty() && app.seconds < app.notice_until; }

// [SECTION] Scenarios

bool app_load_scenario(App& app, const std::string& path, std::string* err) {
  Scenario scenario;
  if (!load_scenario(path, scenario, err)) return false;
  auto game = make_game(scenario, scenario.seed, err);
  if (!game) return false;
  install_game(app, std::move(game), path);
  return true;
}

// [SECTION] Tools

namespace {

// The ant nearest to (x, y) within reach, or the null handle.
Handle pick_ant(Game& g, float x, float y, float reach) {
  Handle best;
  float best_d = reach * reach;
  g.ecs->for_each_in_radius(x, y, reach, [&](Record& r) {
    if (!is_ant(r.payload.kind) && r.payload.kind != Kind::Corpse && r.payload.kind != Kind::Food) return;
    float dx = r.payload.x - x, dy = r.payload.y - y, d = dx * dx + dy * dy;
    // Ants win over food and corpses at equal distance.
    if (!is_ant(r.payload.kind)) d += 0.25f;
    if (d <= best_d) best_d = d, best = r.header.handle;
  });
  return best;
}

Terrain paint_terrain(Tool t) {
  return t == Tool::PaintWater ? Terrain::Water : t == Tool::PaintRock ? Terrain::Rock : Terrain::Grass;
}

// The command the current tool gives at (wx, wy); false for Select, which queues none.
bool tool_command(const App& app, float wx, float wy, Command* out) {
  const Game& g = *app.game;
  Command c;
  c.x = wx, c.y = wy;
  switch (app.tool) {
    case Tool::Bomb: c.kind = CommandKind::Bomb, c.radius = kBombRadius; break;
    case Tool::BigBomb: c.kind = CommandKind::BigBomb, c.radius = kBigBombRadius; break;
    case Tool::Ignite: c.kind = CommandKind::Ignite, c.radius = app.brush; break;
    case Tool::Food: c.kind = CommandKind::PlaceFood, c.count = u32(app.food_crumbs); break;
    case Tool::PaintWater:
    case Tool::PaintRock:
    case Tool::PaintGrass:
      c.kind = CommandKind::PaintTerrain, c.radius = app.brush, c.terrain = paint_terrain(app.tool);
      break;
    case Tool::Spawn:
      c.kind = CommandKind::SpawnAnts, c.count = u32(app.spawn_count), c.radius = 3;
      c.colony = u8(std::clamp(app.spawn_colony, 0, int(std::max<size_t>(1, g.colonies.size())) - 1));
      c.caste = app.spawn_caste ? Kind::Soldier : Kind::Worker;
      break;
    case Tool::Colony: c.kind = CommandKind::PlaceColony; break;
    default: return false;
  }
  // The fine brush paints (or lights) the one cell under the pointer: a disc of half a
  // cell about its centre holds that cell alone.
  if ((c.kind == CommandKind::PaintTerrain || c.kind == CommandKind::Ignite) && app.brush <= kFineBrush)
    c.x = std::floor(wx) + 0.5f, c.y = std::floor(wy) + 0.5f, c.radius = kFineBrush;
  *out = c;
  return true;
}

}  // namespace

void apply_tool(App& app, float wx, float wy, bool first_press) {
  Game& g = *app.game;
  if (!in_map(g, wx, wy)) return;
  if (app.tool == Tool::Select) {
    if (!first_press) return;
    app.selected = pick_ant(g, wx, wy, std::max(1.0f, 14.f / app.camera.zoom));
    app.link.selected = app.selected;
    if (app.selected.is_null()) app.follow = false;
    return;
  }
  if (app.tools_off) {
    if (first_press) say_tools_off(app);
    return;
  }
  // A past tick is looked at, not changed: the tools act once play goes on from it.
  if (rewound(app)) {
    if (first_press)
      show_notice(app, "a past tick: Space plays on from it (dropping the recorded future), End goes back to live");
    return;
  }
  Command c;
  if (!tool_command(app, wx, wy, &c)) return;
  bool drags = c.kind == CommandKind::PaintTerrain || c.kind == CommandKind::Ignite;
  if (!first_press && !drags) return;
  // Ants and food stand on land: a click on water or rock says so rather than queue a
  // command that would do nothing.
  const bool lands = c.kind == CommandKind::SpawnAnts || c.kind == CommandKind::PlaceFood;
  const Terrain under = g.terrain[cell_index(g, int(wx), int(wy))];
  if (lands && !passable(under)) {
    show_notice(app, std::string(c.kind == CommandKind::SpawnAnts ? "ants" : "food") + " cannot be put on " +
                         (under == Terrain::Water ? "water" : "rock"));
    return;
  }
  // A colony where none can be founded says why (four already, water or rock, a nest
  // too near); one already queued for this tick counts as founded.
  if (c.kind == CommandKind::PlaceColony) {
    size_t placing = 0;
    for (const Command& p : g.pending_commands) placing += p.kind == CommandKind::PlaceColony;
    std::string problem = place_colony_problem(g, wx, wy);
    if (problem.empty() && g.colonies.size() + placing >= kMaxColonies)
      problem = "there are already " + std::to_string(kMaxColonies) + " colonies, the most the game holds";
    if (!problem.empty()) {
      show_notice(app, "no colony here: " + problem);
      return;
    }
  }
  if (!queue_command(g, c) && first_press)
    show_notice(app, "refused: this tick's commands already touch the map's cells many times over");
}

// [SECTION] Events

namespace {

void change_speed(App& app, bool faster) {
  app.speed = faster ? std::min(kMaxSpeed, app.speed * 2) : std::max(1, app.speed / 2);
}

// The keys that act again while held (the keyboard's repeat): a step, the speed and the
// brush. Toggles, the tools, the camera keys and the quick save and load act once per press:
// a held Space would flip the pause thirty times a second, a held F9 reload as often.
bool acts_on_repeat(SDL_Keycode key) {
  switch (key) {
    case SDLK_PERIOD:
    case SDLK_COMMA:
    case SDLK_EQUALS:
    case SDLK_PLUS:
    case SDLK_KP_PLUS:
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
    case SDLK_LEFTBRACKET:
    case SDLK_RIGHTBRACKET: return true;
    default: return false;
  }
}

void handle_key(App& app, const SDL_KeyboardEvent& k) {
  SDL_Keycode key = k.keysym.sym;
  if (k.repeat && !acts_on_repeat(key)) return;
  if (key >= SDLK_0 && key <= SDLK_9) {
    // During a replay only Select, as on the greyed toolbar.
    if (app.tools_off && key != SDLK_1) say_tools_off(app);
    else app.tool = key == SDLK_0 ? Tool::Colony : Tool(key - SDLK_1);
    return;
  }
  std::string err;
  switch (key) {
    case SDLK_F1: app.show_help = !app.show_help; break;
    case SDLK_F2: app.show_hud = !app.show_hud; break;
    // Esc closes what is open first (the help, then the selection), and quits when
    // nothing is; Q and Ctrl+Q quit.
    case SDLK_ESCAPE:
      if (app.show_help) app.show_help = false;
      else if (!app.selected.is_null() || app.follow) app.selected = app.link.selected = {}, app.follow = false;
      else app.quit = true;
      break;
    case SDLK_q: app.quit = true; break;
    case SDLK_SPACE:
      // From a past tick, play asks first: it drops the recorded future.
      if (rewound(app)) app.fork_asked = true;
      else app.paused = !app.paused, app.tick_debt = 0;
      break;
    case SDLK_PERIOD:
      if (rewound(app)) app.rewind_request = {RewindRequest::ToTick, app.game->tick + 1};
      else app.paused = true, ++app.step_requests;
      break;
    case SDLK_COMMA:
      app.paused = true;
      if (app.game->tick > app.history.first) app.rewind_request = {RewindRequest::ToTick, app.game->tick - 1};
      break;
    case SDLK_END: app.rewind_request = {RewindRequest::Live, 0}; break;
    case SDLK_EQUALS:
    case SDLK_PLUS:
    case SDLK_KP_PLUS: change_speed(app, true); break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS: change_speed(app, false); break;
    case SDLK_p: app.overlay = Overlay((int(app.overlay) + 1) % int(Overlay::Count)); break;
    case SDLK_t: app.trails_view = !app.trails_view; break;
    case SDLK_n: app.hide_ants = !app.hide_ants; break;
    case SDLK_f: app.follow = !app.follow && !app.selected.is_null(); break;
    case SDLK_h:
    case SDLK_HOME: show_whole_map(app); break;
    case SDLK_c:
      if (!app.game->colonies.empty()) app.spawn_colony = (app.spawn_colony + 1) % int(app.game->colonies.size());
      break;
    case SDLK_x: app.spawn_caste = 1 - app.spawn_caste; break;
    case SDLK_LEFTBRACKET: app.brush = app.brush <= 1 ? kFineBrush : std::max(1.f, app.brush - 1); break;
    case SDLK_RIGHTBRACKET: app.brush = app.brush < 1 ? 1 : std::min(kMaxBrush, app.brush + 1); break;
    case SDLK_F5:
      if (!quicksave(app, &err)) show_error(app, err);
      break;
    case SDLK_F9:
      if (!quickload(app, &err)) show_error(app, err);
      break;
    default: break;
  }
}

// The fine brush's stroke from (x0, y0) to (x1, y1): a dab on every cell the segment
// passes through, in order (a grid walk: each step crosses the nearer of the next
// column or row line), so a wall drawn with it is one cell wide and has no diagonal gap
// for an ant to slip through.
void fine_stroke(App& app, float x0, float y0, float x1, float y1) {
  int cx = int(std::floor(x0)), cy = int(std::floor(y0));
  const int ex = int(std::floor(x1)), ey = int(std::floor(y1));
  const float dx = x1 - x0, dy = y1 - y0;
  const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
  const float inf = std::numeric_limits<float>::infinity();
  // The segment's parameter t (0..1) at the next column and row line, and per cell.
  const float step_x = dx != 0 ? std::fabs(1 / dx) : inf, step_y = dy != 0 ? std::fabs(1 / dy) : inf;
  float next_x = dx != 0 ? (float(cx + (sx > 0)) - x0) / dx : inf;
  float next_y = dy != 0 ? (float(cy + (sy > 0)) - y0) / dy : inf;
  for (int n = std::abs(ex - cx) + std::abs(ey - cy); n > 0; --n) {
    if (next_x < next_y) cx += sx, next_x += step_x;
    else cy += sy, next_y += step_y;
    apply_tool(app, float(cx) + 0.5f, float(cy) + 0.5f, false);
  }
}

// A stroke goes on to the world position (wx, wy). It lays a dab every half brush along
// the pointer's path, so that a quick movement, whose motion events come cells apart,
// still paints a solid line.
void continue_stroke(App& app, float wx, float wy) {
  if (app.brush <= kFineBrush) {
    const float x0 = app.last_paint_x, y0 = app.last_paint_y;
    app.last_paint_x = wx, app.last_paint_y = wy;
    if (std::hypot(wx - x0, wy - y0) <= 4096) fine_stroke(app, x0, y0, wx, wy);
    else apply_tool(app, wx, wy, false);
    return;
  }
  const float step = std::max(0.5f, app.brush * 0.5f);
  float x0 = app.last_paint_x, y0 = app.last_paint_y, d = std::hypot(wx - x0, wy - y0);
  if (!(d <= 4096 * step)) x0 = wx, y0 = wy, d = 0;  // no stroke to continue: a dab here
  int dabs = d > 0 ? int(d / step) : 1;
  for (int k = 1; k <= dabs; ++k) {
    float t = d > 0 ? float(k) * step / d : 1;
    app.last_paint_x = x0 + (wx - x0) * t, app.last_paint_y = y0 + (wy - y0) * t;
    apply_tool(app, app.last_paint_x, app.last_paint_y, false);
  }
}

// The camera follows a drag of the pointer to screen (x, y).
void drag_camera_to(App& app, int x, int y) {
  app.camera.x -= float(x - app.drag_x) / app.camera.zoom;
  app.camera.y -= float(y - app.drag_y) / app.camera.zoom;
  app.drag_x = x, app.drag_y = y;
}

// A button pressed over the world: the left button uses the tool (and starts a stroke,
// which follows the path the pointer took before the press was decided), the right and
// middle ones drag the camera (as far as the pointer has gone since).
void press_in_world(App& app, const App::Press& p) {
  if (p.button == SDL_BUTTON_LEFT) {
    // A stroke starts where the button went down, on the map or off it.
    app.last_paint_x = p.wx, app.last_paint_y = p.wy;
    apply_tool(app, p.wx, p.wy, true);
    for (int k = 0; k < p.path_count; ++k) continue_stroke(app, p.path_x[k], p.path_y[k]);
    app.painting = !p.released;
  } else if (p.button == SDL_BUTTON_RIGHT || p.button == SDL_BUTTON_MIDDLE) {
    app.drag_button = p.button;
    app.drag_x = p.x, app.drag_y = p.y;
    if (p.moved) drag_camera_to(app, p.moved_x, p.moved_y);
    app.dragging = !p.released;
    app.follow = false;
  }
}

// A press as its event found it: screen and world position.
App::Press press_of(const App& app, const SDL_MouseButtonEvent& b) {
  App::Press p{b.x, b.y, b.button};
  p.wx = world_x(app.camera, float(b.x)), p.wy = world_y(app.camera, float(b.y));
  return p;
}

// A motion event while presses of this frame are held and not yet decided: a point of a
// left press's path (the last point replaced once the path is full), the place a right or
// middle press's drag has reached.
void follow_pending_presses(App& app, int x, int y) {
  for (int i = 0; i < app.press_count; ++i) {
    App::Press& p = app.presses[i];
    if (p.released) continue;
    p.moved = true, p.moved_x = x, p.moved_y = y;
    if (p.button != SDL_BUTTON_LEFT) continue;
    int k = std::min(p.path_count, App::kMaxPathPoints - 1);
    p.path_x[k] = world_x(app.camera, float(x)), p.path_y[k] = world_y(app.camera, float(y));
    p.path_count = k + 1;
  }
}

}  // namespace

void app_handle_event(App& app, const SDL_Event& e) {
  if (app.imgui_ready) ImGui_ImplSDL2_ProcessEvent(&e);
  if (debugger_handle_key(app.debugger, e)) return;
  bool ui_mouse = app.imgui_ready && ImGui::GetIO().WantCaptureMouse;
  bool ui_keys = app.imgui_ready && ImGui::GetIO().WantTextInput;
  Camera& cam = app.camera;
  switch (e.type) {
    case SDL_QUIT: app.quit = true; break;
    case SDL_WINDOWEVENT:
      if (e.window.event == SDL_WINDOWEVENT_ENTER || e.window.event == SDL_WINDOWEVENT_LEAVE)
        app.pointer_in_window = e.window.event == SDL_WINDOWEVENT_ENTER;
      if (e.window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
        // A view that held the whole map is fitted to the new size; any other view keeps
        // its centre and zoom (and stays on the map).
        bool whole_map = shows_whole_map(app) || holds_whole_map(cam, float(app.game->width), float(app.game->height));
        int w = 0, h = 0;
        SDL_GetRendererOutputSize(app.renderer, &w, &h);
        cam.view_w = float(w), cam.view_h = float(h);
        if (whole_map) show_whole_map(app);
        clamp_to_map(cam, float(app.game->width), float(app.game->height));
      }
      break;
    case SDL_KEYDOWN:
      if (!ui_keys) handle_key(app, e.key);
      break;
    case SDL_MOUSEBUTTONDOWN:
      // Whether a press is the interface's is known only after NewFrame has placed the
      // pointer: decided in begin_interface_frame.
      if (!app.imgui_ready) press_in_world(app, press_of(app, e.button));
      else if (app.press_count < App::kMaxPresses) app.presses[app.press_count++] = press_of(app, e.button);
      break;
    case SDL_MOUSEBUTTONUP:
      for (int i = 0; i < app.press_count; ++i)
        if (app.presses[i].button == e.button.button) app.presses[i].released = true;
      if (e.button.button == SDL_BUTTON_LEFT) app.painting = false;
      if (e.button.button == app.drag_button) app.dragging = false;
      break;
    case SDL_MOUSEMOTION:
      if (app.dragging) drag_camera_to(app, e.motion.x, e.motion.y);
      if (app.painting && !ui_mouse)
        continue_stroke(app, world_x(cam, float(e.motion.x)), world_y(cam, float(e.motion.y)));
      follow_pending_presses(app, e.motion.x, e.motion.y);
      break;
    case SDL_MOUSEWHEEL:
      if (e.wheel.y == 0) break;
      SDL_GetMouseState(&app.wheel_x, &app.wheel_y);
      if (app.imgui_ready) app.wheel_steps += e.wheel.y;  // decided in begin_interface_frame
      else zoom_toward(cam, std::pow(1.2f, float(e.wheel.y)), float(app.wheel_x), float(app.wheel_y));
      break;
    default: break;
  }
}

// [SECTION] Time control (fixed ticks, independent of the frame rate)

namespace {

// The ants the next tick's commands spawn (the spawn tool, the Stress panel).
uint64_t ants_asked(const Game& g) {
  uint64_t n = 0;
  for (const Command& c : g.pending_commands)
    if (c.kind == CommandKind::SpawnAnts) n += c.count;
  return n;
}

}  // namespace

void judge_tick_rate(App& app) {
  if (app.speed != app.rate_speed || app.paused != app.rate_paused)
    app.rate_speed = app.speed, app.rate_paused = app.paused, app.rate_since = app.seconds;
  const bool settled = app.seconds - app.rate_since > 1.0;
  const double asked = double(kTicksPerSecond) * app.speed;
  app.ticks_fall_short =
      settled && !app.paused && !app.config.fixed_step && app.stats.tps > 0 && app.stats.tps < 0.9 * asked;
}

namespace {

// The ticks owed to the clock this frame (app.tick_run's request): speed x 60 ticks per
// second of (frame) time, or the single steps asked for while paused. Main thread.
void plan_ticks(App& app, double dt) {
  TickRun& run = app.tick_run;
  run.want = 0, run.done = 0, run.busy_ms = 0;
  run.fixed = app.config.fixed_step;  // deterministic runs: every owed tick runs
  // A past tick shown: time stands still there; a step goes one tick on through the history.
  if (rewound(app)) {
    app.tick_debt = 0;
    if (app.step_requests) app.rewind_request = {RewindRequest::ToTick, app.game->tick + app.step_requests};
    app.step_requests = 0;
    return;
  }
  if (app.paused) {
    run.want = app.step_requests;
    app.tick_debt = 0;
  } else {
    app.tick_debt += dt * kTicksPerSecond * app.speed;
    run.want = uint64_t(app.tick_debt);
    app.tick_debt -= double(run.want);
  }
  app.step_requests = 0;
}

// Runs app.tick_run's ticks with their hooks, never past the per-frame budget (the rest is
// dropped, so a slow machine runs slower instead of spiralling). On the simulation thread,
// or on the main thread without one: it touches the world, the history, the debugger's
// per-tick records, the population chart and the hooks' state, and nothing the main
// thread reads while it draws.
void run_ticks(App& app) {
  TickRun& run = app.tick_run;
  run.thread = std::this_thread::get_id();
  Game& g = *app.game;
  History& history = app.history;
  uint64_t t0 = now_ns();
  uint32_t done = 0;
  for (; done < run.want; ++done) {
    if (!run.fixed && done > 0 && ms_since(t0) > kTickBudgetMs) break;
    if (app.before_tick) app.before_tick(g);
    history_before_tick(history, g);
    const uint64_t asked = ants_asked(g), refused_before = g.command_spawns_refused;
    simulate_tick(g);
    // Ants asked for and refused for want of room say so (the HUD's counter alone mixed
    // them with the colonies' own refused births).
    if (asked && g.command_spawns_refused > refused_before)
      run.refused = std::to_string(g.command_spawns_refused - refused_before) + " of " + std::to_string(asked) +
                    " ants refused: no room in " + refusing_pools(g, true);
    if (app.after_tick) app.after_tick(g);
    history_after_tick(history, g);
    debugger_after_tick(app.debugger, g);
    sample_population(app.population, g);
  }
  run.done = done;
  run.busy_ms = ms_since(t0);
}

// After the ticks, on the main thread: what they leave for the frames to show.
void finish_ticks(App& app) {
  TickRun& run = app.tick_run;
  if (!run.refused.empty()) show_notice(app, std::move(run.refused)), run.refused.clear();
  take_blasts(app.effects, *app.game);
  announce_fates(app);
}

}  // namespace

// [SECTION] Camera and simulation region

namespace {

void update_camera(App& app, double dt) {
  Camera& cam = app.camera;
  Game& g = *app.game;
  bool ui_keys = app.imgui_ready && ImGui::GetIO().WantTextInput;
  if (!ui_keys) {
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    float step = float(dt) * 700.f / cam.zoom;  // pixels per second, whatever the zoom
    float dx = 0, dy = 0;
    if (keys[SDL_SCANCODE_A] || keys[SDL_SCANCODE_LEFT]) dx -= step;
    if (keys[SDL_SCANCODE_D] || keys[SDL_SCANCODE_RIGHT]) dx += step;
    if (keys[SDL_SCANCODE_W] || keys[SDL_SCANCODE_UP]) dy -= step;
    if (keys[SDL_SCANCODE_S] || keys[SDL_SCANCODE_DOWN]) dy += step;
    if (dx != 0 || dy != 0) app.follow = false;
    cam.x += dx, cam.y += dy;
  }
  if (app.link.camera_jump) {
    cam.x = app.link.camera_x, cam.y = app.link.camera_y;
    app.link.camera_jump = false;
    app.follow = false;
  }
  if (app.follow) {
    if (const Body* b = g.ecs->alive(app.selected) ? g.ecs->payload(app.selected) : nullptr) {
      float k = 1.f - std::exp(-float(dt) * 8.f);
      cam.x += (b->x - cam.x) * k, cam.y += (b->y - cam.y) * k;
    } else {
      app.follow = false;
    }
  }
  clamp_to_map(cam, float(g.width), float(g.height));
}

// A scenario whose region covers the whole map is simulated whole, in the window as
// headless. Otherwise the simulated region follows the camera: the visible rectangle plus
// a margin, snapped to whole chunks (so a small pan does not churn tiers) and capped in
// size (kMaxRegionCells, named on the HUD).
void follow_with_region(App& app) {
  Game& g = *app.game;
  if (simulates_whole_map(g)) {
    if (g.region_x != 0 || g.region_y != 0 || g.region_w != float(g.width) || g.region_h != float(g.height))
      set_sim_region(g, 0, 0, float(g.width), float(g.height));
    return;
  }
  const float cs = float(g.ecs->grid().chunk_cells);
  Camera view = app.camera;
  view.shake_x = view.shake_y = 0;
  ViewRect r = visible_rect(view, cs);
  float half = kMaxRegionCells * 0.5f;
  r.x0 = std::max(r.x0, view.x - half), r.x1 = std::min(r.x1, view.x + half);
  r.y0 = std::max(r.y0, view.y - half), r.y1 = std::min(r.y1, view.y + half);
  float x0 = std::floor(std::max(0.f, r.x0) / cs) * cs, y0 = std::floor(std::max(0.f, r.y0) / cs) * cs;
  float x1 = std::ceil(std::min(float(g.width), r.x1) / cs) * cs,
        y1 = std::ceil(std::min(float(g.height), r.y1) / cs) * cs;
  if (x0 != g.region_x || y0 != g.region_y || x1 - x0 != g.region_w || y1 - y0 != g.region_h)
    set_sim_region(g, x0, y0, x1 - x0, y1 - y0);
}

}  // namespace

// [SECTION] Frame

namespace {

// Starts the interface's frame right after the events, before the ticks: Dear ImGui's
// NewFrame places the pointer and finds the panel under it, and only then do this frame's
// button presses go to the world, or not (a press over a panel is the panel's alone). A
// bomb dropped this frame then explodes in this frame's tick.
// In a frame with presses the pointer is placed where the first went down, not where the
// pointer has gone since: a press on the map flicked onto a panel within the frame is
// the world's (and clicks no button where it ended), a press on a button whose pointer
// has left it is the button's. The Dear ImGui backend gives it a press within the frame
// as a button held this frame, so it takes the click at that place. Later presses of the
// same frame (rare: two clicks in one frame) go where the first went.
void begin_interface_frame(App& app) {
  imgui_sdl::new_renderer_frame();
  ImGui_ImplSDL2_NewFrame();
  // The pointer as SDL's own events left it. The SDL2 backend of Dear ImGui 1.86 reads
  // SDL's global mouse state on X11, which SDL refreshes only on raw input events: with a
  // pointer that sends none (Xvfb and xdotool) it stays where the last click was, and a
  // click on a panel would reach the world while the next click on the world is lost.
  if (app.press_count > 0) {
    ImGui::GetIO().MousePos = ImVec2(float(app.presses[0].x), float(app.presses[0].y));
  } else if ((SDL_GetWindowFlags(app.window) & SDL_WINDOW_MOUSE_FOCUS) || app.pointer_in_window) {
    int mx = 0, my = 0;
    SDL_GetMouseState(&mx, &my);
    ImGui::GetIO().MousePos = ImVec2(float(mx), float(my));
  }
  ImGui::NewFrame();
  const bool ui_mouse = ImGui::GetIO().WantCaptureMouse;
  for (int i = 0; i < app.press_count; ++i)
    if (!ui_mouse) press_in_world(app, app.presses[i]);
  app.press_count = 0;
  if (app.wheel_steps != 0 && !ui_mouse)
    zoom_toward(app.camera, std::pow(1.2f, float(app.wheel_steps)), float(app.wheel_x), float(app.wheel_y));
  app.wheel_steps = 0;
}

// How a command looks before it is applied: a bomb's kill and maim rings, a ring for fire,
// a disc of the paint's colour, a small ring for food and spawning. `queued` marks a
// command waiting for the next tick (bolder), otherwise the tool's reach under the mouse.
void draw_command_marker(App& app, const Command& c, bool queued) {
  const Camera& cam = app.camera;
  const Uint8 a = queued ? 200 : 110;
  auto ring = [&](float radius, SDL_Color col) {
    push_sprite(app.batch, kLayerLight, cam, c.x, c.y, 0, radius * 2 / 0.86f, radius * 2 / 0.86f, kSpriteSelect, col);
  };
  // A queued stroke is a run of discs, one per dab: they read as one band of paint.
  auto brush = [&](float radius, SDL_Color col) {
    if (!queued) return ring(radius, col);
    col.a = 150;
    push_sprite(app.batch, kLayerSmoke, cam, c.x, c.y, 0, radius * 2, radius * 2, kSpriteDot, col);
  };
  // A queued bomb, food drop or spawn also marks its centre, so it is not taken for the
  // tool's reach under the mouse.
  if (queued && c.kind != CommandKind::PaintTerrain && c.kind != CommandKind::Ignite)
    push_sprite(app.batch, kLayerLight, cam, c.x, c.y, 0, 1.2f, 1.2f, kSpriteDot, {255, 255, 255, 220});
  switch (c.kind) {
    case CommandKind::Bomb:
    case CommandKind::BigBomb: {
      float maim = c.kind == CommandKind::Bomb ? kBombMaimScale : kBigBombMaimScale;
      ring(c.radius, {255, 120, 80, a}), ring(c.radius * maim, {255, 200, 120, Uint8(a / 2)});
      break;
    }
    case CommandKind::Ignite: brush(c.radius, {255, 150, 40, a}); break;
    case CommandKind::PaintTerrain: {
      SDL_Color col = c.terrain == Terrain::Water  ? SDL_Color{90, 160, 255, a}
                      : c.terrain == Terrain::Rock ? SDL_Color{190, 190, 200, a}
                                                   : SDL_Color{120, 230, 90, a};
      brush(c.radius, col);
      break;
    }
    case CommandKind::SpawnAnts: {
      // In the colony's colour: which colony the ants will join.
      const Game& g = *app.game;
      SDL_Color col =
          c.colony < g.colonies.size() ? abgr_color(g.colonies[c.colony].color) : SDL_Color{255, 255, 255, 255};
      col.a = a;
      ring(c.radius, col);
      break;
    }
    default: ring(1.5f, {255, 255, 255, Uint8(a / 2)}); break;
  }
}

// This frame's events. A key released in the same frame it went down keeps its release for
// the next frame, so the interface sees it down for one frame (app.h, held_releases); the
// game's own keys act on the press and are unaffected.
void poll_events(App& app) {
  SDL_Event held[App::kMaxHeldReleases];
  int held_count = app.held_release_count;
  std::copy(app.held_releases, app.held_releases + held_count, held);
  app.held_release_count = 0;
  for (int i = 0; i < held_count; ++i) app_handle_event(app, held[i]);
  bool went_down[SDL_NUM_SCANCODES] = {};
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    if (e.type == SDL_KEYDOWN && unsigned(e.key.keysym.scancode) < SDL_NUM_SCANCODES)
      went_down[e.key.keysym.scancode] = true;
    if (e.type == SDL_KEYUP && unsigned(e.key.keysym.scancode) < SDL_NUM_SCANCODES &&
        went_down[e.key.keysym.scancode] && app.held_release_count < App::kMaxHeldReleases) {
      app.held_releases[app.held_release_count++] = e;
      continue;
    }
    app_handle_event(app, e);
  }
}

// The current tool's reach under the mouse.
void draw_tool_preview(App& app) {
  if (app.imgui_ready && ImGui::GetIO().WantCaptureMouse) return;
  if (!(SDL_GetWindowFlags(app.window) & SDL_WINDOW_MOUSE_FOCUS)) return;
  int mx = 0, my = 0;
  SDL_GetMouseState(&mx, &my);
  Command c;
  c.x = world_x(app.camera, float(mx)), c.y = world_y(app.camera, float(my));
  // Off the map a click does nothing (apply_tool), and the preview says so by its absence.
  if (!in_map(*app.game, c.x, c.y)) return;
  if (app.tools_off && app.tool != Tool::Select) return;
  if (!tool_command(app, c.x, c.y, &c)) c.kind = CommandKind::PlaceFood;  // Select: the small ring
  draw_command_marker(app, c, false);
}

// Commands queued for the next tick: the world changes only when it runs, so while the
// game is paused a stroke or a bomb would otherwise show nothing until the next step.
// Bombs are drawn as explosions are, at most kMaxExplosions, and one where a bomb of the
// same kind and size is drawn already is not drawn again: 300 queued big bombs would draw
// 300 rings a frame (4 frames a second), stacked into a white disc over the map.
void draw_queued_commands(App& app) {
  std::array<const Command*, kMaxExplosions> bombs{};
  size_t drawn = 0;
  for (const Command& c : app.game->pending_commands) {
    if (c.kind == CommandKind::Bomb || c.kind == CommandKind::BigBomb) {
      auto same = [&](const Command* b) {
        return b->kind == c.kind && b->x == c.x && b->y == c.y && b->radius == c.radius;
      };
      if (drawn == bombs.size() || std::any_of(bombs.begin(), bombs.begin() + drawn, same)) continue;
      bombs[drawn++] = &c;
    }
    draw_command_marker(app, c, true);
  }
}

}  // namespace

namespace {

// The world as this frame shows it, read while no tick runs: the sprite batch (ants,
// effects, fights, queued commands, the tool's reach) and the terrain textures with the
// copies that draw them.
void read_world(App& app) {
  Game& g = *app.game;
  clear_batch(app.batch);
  BatchInput in;
  in.camera = &app.camera;
  in.detail = detail_for_zoom(app.camera.zoom);
  in.highlight = app.selected;
  if (Handle h = debugger_highlight(app.debugger, g); !h.is_null()) in.highlight = h;
  in.seconds = float(app.seconds);
  in.atlas = &app.atlas;
  in.hide_ants = app.hide_ants;
  if (!app.skip_world) {
    build_world_batch(app.batch, g, in);
    draw_effects(app.effects, app.batch, app.camera);
    draw_fights(g, app.batch, app.camera);
    draw_queued_commands(app);
    draw_tool_preview(app);
  }
  if (!app.skip_terrain) {
    // The trails view draws the trails in place of the scent overlay.
    refresh_terrain(app.terrain, app.renderer, g, app.camera, app.trails_view ? Overlay::Off : app.overlay);
    if (app.trails_view) refresh_trails(app.terrain, app.renderer, g, app.camera);
    refresh_fire_glow(app.terrain, app.renderer, g, app.camera);
  }
}

// The interface's windows, built from the world (Dear ImGui copies what they show into its
// draw lists).
void build_interface(App& app) {
  if (!app.skip_ui) draw_ui(app);
  if (!app.skip_ui && app.show_hud) draw_timeline(app);
  // Kept whether or not the HUD shows now (F2): a panel's first placement is for the run.
  // Set each frame because the font's line height is known only after NewFrame.
  app.debugger.top_clear = toolbar_bottom();
  // The kernel's peak trails its resident count by a page or two: the peak shown is at least the count.
  app.stats.rss_mb = resident_mb();
  app.stats.peak_rss_mb = std::max(peak_resident_mb(), app.stats.rss_mb);
  const FrameStats& st = app.stats;
  FrameTimes ft{st.build_ms, st.submit_ms, st.ui_ms, st.fps, st.tps, st.rss_mb, st.peak_rss_mb};
  ft.present_ms = st.present_ms, ft.sim_ms = st.sim_ms, ft.wait_ms = st.wait_ms;
  ft.ticks = st.ticks_per_frame;
  ft.sim_thread = app.sim_thread != nullptr;
  draw_debugger(app.debugger, *app.game, ft, app.link);
}

// The frame's timings into the smoothed figures, the sums and the rates.
void count_frame(App& app, double build_ms, double submit_ms, double ui_ms, double work_ms, double present_ms,
                 double wait_ms) {
  FrameStats& s = app.stats;
  const TickRun& run = app.tick_run;
  const double k = 0.1;
  s.build_ms += (build_ms - s.build_ms) * k;
  s.submit_ms += (submit_ms - s.submit_ms) * k;
  s.ui_ms += (ui_ms - s.ui_ms) * k;
  s.present_ms += (present_ms - s.present_ms) * k;
  s.sim_ms += (run.busy_ms - s.sim_ms) * k;
  s.wait_ms += (wait_ms - s.wait_ms) * k;
  s.frame_ms += (work_ms + present_ms + wait_ms - s.frame_ms) * k;
  s.ticks_per_frame = run.done;
  ++s.frames;
  ++s.window_frames;
  s.window_ticks += run.done;
  s.sum_build_ms += build_ms, s.sum_submit_ms += submit_ms, s.sum_ui_ms += ui_ms;
  s.sum_sim_ms += run.busy_ms, s.sum_wait_ms += wait_ms, s.sum_present_ms += present_ms;
  s.sum_frame_ms += work_ms + present_ms + wait_ms;
  double window_s = double(now_ns() - s.window_start_ns) / 1e9;
  if (window_s >= 0.5) {
    s.fps = double(s.window_frames) / window_s;
    if (s.frames > 60 && (s.slowest_fps == 0 || s.fps < s.slowest_fps)) s.slowest_fps = s.fps;
    s.tps = double(s.window_ticks) / window_s;
    s.window_frames = s.window_ticks = 0;
    s.window_start_ns = now_ns();
  }
  if (s.frames > 60 && work_ms + wait_ms > s.longest_frame_ms)
    s.longest_frame_ms = work_ms + wait_ms, s.longest_frame_tick = app.game->tick;
}

}  // namespace

bool app_frame(App& app) {
  uint64_t frame_start = now_ns();
  // Fixed-step runs (--frames, tests) advance exactly 1/60 s per frame.
  double dt = app.config.fixed_step ? 1.0 / 60.0 : std::min(0.1, double(frame_start - app.last_frame_ns) / 1e9);
  app.last_frame_ns = frame_start;
  app.seconds += dt;

  poll_events(app);
  if (app.quit) return false;
  begin_interface_frame(app);

  // Requests from the debugger.
  if (app.link.pause_request) app.paused = true, app.link.pause_request = false;
  if (!app.link.load_scenario.empty()) {
    std::string path = std::move(app.link.load_scenario), err;
    app.link.load_scenario.clear();
    if (const std::string why = load_refusal(app); !why.empty())
      show_error(app, path + ": loading a scenario is off " + why);
    else if (!app_load_scenario(app, path, &err)) show_error(app, err);
  }
  if (app.link.selected != app.selected) app.selected = app.link.selected;
  serve_rewind_request(app);

  update_camera(app, dt);
  // A past tick keeps the region it had (its next ticks re-simulate with the recorded one).
  if (!rewound(app)) follow_with_region(app);
  // Before the ticks: auto-bomb queues in them. A past tick takes no commands.
  app.debugger.commands_off = app.tools_off || rewound(app);
  app.debugger.commands_off_why =
      app.tools_off || !rewound(app)
          ? ""
          : "A past tick is shown: these act once play goes on from it (Space) or back at live (End).";
  plan_ticks(app, dt);
  // The ticks overlap the drawing on the simulation thread. The last frame of a timed run
  // ticks first, as without the thread, so that its picture (the screenshot) shows the
  // world the run leaves (--save, the state hash).
  const bool last = app.config.frames > 0 && app.stats.frames + 1 >= app.config.frames;
  const bool overlap = app.sim_thread && !last && app.tick_run.want > 0;
  if (!overlap) run_ticks(app), finish_ticks(app);
  advance_effects(app.effects, float(dt), app.camera);

  // Reading the world (no tick runs): the sprites, the terrain and the interface's windows.
  uint64_t t_build = now_ns();
  read_world(app);
  double build_ms = ms_since(t_build);
  uint64_t t_ui = now_ns();
  build_interface(app);
  double ui_ms = ms_since(t_ui);

  // Drawing what was read, while the ticks run: from here to the join the main thread
  // touches neither the world nor what the ticks write.
  if (overlap) app.sim_thread->start();
  uint64_t t_submit = now_ns();
  SDL_SetRenderDrawColor(app.renderer, 18, 16, 14, 255);
  SDL_RenderClear(app.renderer);
  if (!app.skip_terrain) draw_terrain(app.terrain, app.renderer);
  submit_batch(app.batch, app.renderer, app.atlas);
  SDL_RenderFlush(app.renderer);
  double submit_ms = ms_since(t_submit);
  t_ui = now_ns();
  ImGui::Render();
  imgui_sdl::render(ImGui::GetDrawData());
  ui_ms += ms_since(t_ui);

  if (app.capture) {
    SDL_GetRendererOutputSize(app.renderer, &app.frame_w, &app.frame_h);
    app.frame_pixels.resize(size_t(app.frame_w) * size_t(app.frame_h));
    SDL_RenderReadPixels(app.renderer, nullptr, SDL_PIXELFORMAT_ABGR8888, app.frame_pixels.data(), app.frame_w * 4);
  }
  double work_ms = ms_since(frame_start);  // the screenshot below is not part of the frame
  if (last && !app.config.screenshot.empty()) {
    std::string err;
    if (!save_screenshot(app, app.config.screenshot, &err)) {
      app.screenshot_error = err;
      show_error(app, err);
      SDL_RenderPresent(app.renderer);
      return false;
    }
  }
  uint64_t t_present = now_ns();
  SDL_RenderPresent(app.renderer);
  if (app.frame_wait) app.frame_wait();
  app.presents.fetch_add(1, std::memory_order_release);
  app.presents.notify_all();
  double present_ms = ms_since(t_present);

  // The frame ends with its ticks: outside app_frame the world is the main thread's.
  double wait_ms = 0;
  if (overlap) wait_ms = app.sim_thread->join(), finish_ticks(app);
  count_frame(app, build_ms, submit_ms, ui_ms, work_ms, present_ms, wait_ms);
  judge_tick_rate(app);
  return !last;
}

double average_fps(const App& app) {
  double secs = double(now_ns() - app.stats.run_start_ns) / 1e9;
  return secs > 0 ? double(app.stats.frames) / secs : 0;
}

// [SECTION] Screenshot

bool save_screenshot(App& app, const std::string& path, std::string* err) {
  int w = 0, h = 0;
  SDL_GetRendererOutputSize(app.renderer, &w, &h);
  SDL_Surface* shot = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ABGR8888);
  if (!shot) {
    *err = printable(path) + ": " + SDL_GetError();
    return false;
  }
  bool ok = SDL_RenderReadPixels(app.renderer, nullptr, SDL_PIXELFORMAT_ABGR8888, shot->pixels, shot->pitch) == 0;
  if (ok) {
    // The frame is opaque; make sure the PNG is too, whatever the back buffer's alpha.
    for (int y = 0; y < h; ++y) {
      auto* row = reinterpret_cast<uint32_t*>(static_cast<uint8_t*>(shot->pixels) + size_t(y) * shot->pitch);
      for (int x = 0; x < w; ++x) row[x] |= 0xFF000000u;
    }
    // Through a temporary file beside it: a failed write leaves any earlier PNG whole.
    PendingFile file;
    ok = file.open(path, err);
    SDL_RWops* rw = ok ? SDL_RWFromFP(file.stream(), SDL_FALSE) : nullptr;
    bool saved = rw && IMG_SavePNG_RW(shot, rw, 1) == 0;
    std::string why = saved ? std::string() : std::string("cannot write the screenshot: ") + SDL_GetError();
    ok = ok && file.close(err, why) && file.commit(err);
  }
  if (!ok && err->empty()) *err = printable(path) + ": cannot read the frame back: " + SDL_GetError();
  SDL_FreeSurface(shot);
  return ok;
}

}  // namespace colony::render
