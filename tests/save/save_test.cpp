// save_test.cpp — saving and loading whole worlds: continuing a loaded world gives exactly
// the state of running straight, a re-save is byte-identical (every pool's slot order,
// the directory and the free lists survive), and every kind of bad file is refused with
// one line naming the file and the problem, the previous save intact.
#include <xxhash.h>

#include <sys/resource.h>
#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <limits>
#include <cstring>

#include "replay.h"
#include "forged_saves.h"
#include "save_test_util.h"

namespace colony {
namespace {

using test::make_from;
using test::run;
using test::temp_path;

u32 cell_index(const Game& g, float x, float y) { return u32(y) * g.width + u32(x); }

// Changes the first live entity of `kind` (a world spoiled for a loader test).
template <class Fn>
void spoil_first(Game& g, Kind kind, Fn change) {
  bool done = false;
  g.ecs->for_each_entity([&](ColonyEcs::Record& r) {
    if (done || r.payload.kind != kind) return;
    change(r);
    done = true;
  });
}

// The player's hand at tick 300: a bomb, a spawn and a region change wait in the queue
// when the world is saved, so pending commands and tier moves cross the save.
void player_inputs(Game& g) {
  Command bomb;
  bomb.kind = CommandKind::Bomb;
  bomb.x = g.colonies[0].nest_x + 6, bomb.y = g.colonies[0].nest_y;
  queue_command(g, bomb);
  Command spawn;
  spawn.kind = CommandKind::SpawnAnts;
  spawn.x = g.colonies[1].nest_x, spawn.y = g.colonies[1].nest_y, spawn.count = 40, spawn.colony = 1;
  queue_command(g, spawn);
  set_sim_region(g, 0, 0, float(g.width) / 2, float(g.height));
}

TEST(SaveLoad, ContinuingALoadedWorldEqualsRunningStraight) {
  auto straight = make_from("default.json");
  auto first = make_from("default.json");
  run(*straight, 300), run(*first, 300);
  player_inputs(*straight), player_inputs(*first);
  const std::string path = temp_path("continue.colony");
  std::string err;
  ASSERT_TRUE(save_game(*first, path, &err)) << err;
  auto loaded = load_game(path, &err);
  ASSERT_NE(loaded, nullptr) << err;
  EXPECT_EQ(state_hash(*loaded), state_hash(*first));
  EXPECT_EQ(loaded->tick, 300u);
  run(*straight, 300), run(*loaded, 300);
  EXPECT_EQ(loaded->tick, 600u);
  EXPECT_EQ(state_hash(*loaded), state_hash(*straight));
  EXPECT_EQ(ants_alive(*loaded), ants_alive(*straight));
  EXPECT_TRUE(validate_game(*loaded).empty());
}

// The tick's command budget crosses a save: a loaded queue has spent what it touches, so
// the loaded world refuses the command the saved one would have refused. default.json's
// map is 192 x 128 cells, which a big bomb of radius 4096 covers whole: 256 fill a tick.
TEST(SaveLoad, ALoadedQueueKeepsWhatItSpentOfTheTicksBudget) {
  auto g = make_from("default.json");
  run(*g, 5);
  const Command whole_map{CommandKind::BigBomb, 10, 10, 4096, 0};
  ASSERT_EQ(command_cells(*g, whole_map), 192.0 * 128);
  for (int i = 0; i < 255; ++i) ASSERT_TRUE(queue_command(*g, whole_map)) << i;
  const std::string path = temp_path("budget.colony");
  std::string err;
  ASSERT_TRUE(save_game(*g, path, &err)) << err;
  auto loaded = load_game(path, &err);
  ASSERT_NE(loaded, nullptr) << err;
  EXPECT_EQ(loaded->pending_command_cells, 255 * 192.0 * 128);
  EXPECT_TRUE(queue_command(*loaded, whole_map));
  EXPECT_FALSE(queue_command(*loaded, whole_map));
  EXPECT_EQ(loaded->refused_commands, 1u);
  EXPECT_EQ(loaded->pending_commands.size(), 256u);
}

// Bytes of the uncompressed payload are compared, so every pool entry, back-pointer,
// storage block, directory entry and free-list position must come back exactly.
TEST(SaveLoad, ResavingALoadedWorldIsByteIdentical) {
  auto g = make_from("default.json");
  run(*g, 250);
  player_inputs(*g);
  run(*g, 7);  // mid-bomb: corpses, maimed ants, fire
  std::vector<std::uint8_t> a, b;
  std::string err;
  SaveOptions raw;
  raw.compress = false;
  ASSERT_TRUE(save_game_to_bytes(*g, a, &err, raw)) << err;
  auto loaded = load_game_from_bytes(a.data(), a.size(), "memory", &err);
  ASSERT_NE(loaded, nullptr) << err;
  ASSERT_TRUE(save_game_to_bytes(*loaded, b, &err, raw)) << err;
  EXPECT_EQ(a.size(), b.size());
  EXPECT_TRUE(a == b);
  // The pools themselves, entry by entry.
  auto same_pool = [&](auto tag) {
    using C = decltype(tag);
    const auto& p = g->ecs->pool<C>();
    const auto& q = loaded->ecs->pool<C>();
    ASSERT_EQ(p.taken(), q.taken());
    EXPECT_EQ(std::memcmp(p.items.get(), q.items.get(), sizeof(C) * p.taken()), 0);
    EXPECT_EQ(std::memcmp(p.owners.get(), q.owners.get(), sizeof(ecs::BackPointer) * p.taken()), 0);
  };
  same_pool(RenderPiece{});
  same_pool(CollisionVolume{});
  same_pool(Sensor{});
  // The next entity created gets the same handle in both (same free index stack).
  Body body{};
  body.x = 3, body.y = 3, body.kind = Kind::Food;
  EXPECT_EQ(g->ecs->create_at(ecs::Tier::Dormant, u16(Kind::Food), body),
            loaded->ecs->create_at(ecs::Tier::Dormant, u16(Kind::Food), body));
}

// Water or rock painted over a nest covers the land around it, not the nest's own cell:
// the world stays one a save can hold (a save with a drowned nest is refused on load).
TEST(SaveLoad, PaintingWaterOverANestKeepsItsCellAndTheSaveLoads) {
  auto g = make_from("default.json");
  run(*g, 5);
  const Colony& c = g->colonies[0];
  for (Terrain t : {Terrain::Water, Terrain::Rock}) {
    Command paint;
    paint.kind = CommandKind::PaintTerrain, paint.terrain = t;
    paint.x = c.nest_x, paint.y = c.nest_y, paint.radius = 3;
    ASSERT_TRUE(queue_command(*g, paint));
    run(*g, 1);
    EXPECT_TRUE(passable(g->terrain[cell_index(*g, c.nest_x, c.nest_y)])) << terrain_name(t) << " on the nest's cell";
    EXPECT_EQ(g->terrain[cell_index(*g, c.nest_x + 2, c.nest_y)], t) << "the land beside the nest is painted";
    std::vector<std::uint8_t> bytes;
    std::string err;
    ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
    auto loaded = load_game_from_bytes(bytes.data(), bytes.size(), "memory", &err);
    ASSERT_NE(loaded, nullptr) << err;
    EXPECT_EQ(state_hash(*loaded), state_hash(*g));
  }
}

TEST(SaveLoad, UncompressedSavesLoadToo) {
  auto g = make_from("default.json");
  run(*g, 60);
  const std::string path = temp_path("raw.colony");
  std::string err;
  SaveOptions raw;
  raw.compress = false;
  SaveStats st;
  ASSERT_TRUE(save_game(*g, path, &err, raw, &st)) << err;
  EXPECT_EQ(st.file_bytes, st.payload_bytes + kSaveHeaderBytes);
  auto loaded = load_game(path, &err);
  ASSERT_NE(loaded, nullptr) << err;
  EXPECT_EQ(state_hash(*loaded), state_hash(*g));
}

// [bad files]

class BadSave : public ::testing::Test {
 protected:
  void SetUp() override {
    auto g = make_from("default.json");
    run(*g, 30);
    std::string err;
    ASSERT_TRUE(save_game_to_bytes(*g, good, &err)) << err;
    path = temp_path("bad.colony");
  }
  // Writes bytes to the file, loads it, expects a refusal naming the file and `problem`.
  void expect_refused(const std::vector<std::uint8_t>& bytes, const std::string& problem) {
    test::write_bytes(path, bytes);
    std::string err;
    auto g = load_game(path, &err);
    EXPECT_EQ(g, nullptr);
    EXPECT_EQ(err.rfind(path + ": ", 0), 0u) << err;
    EXPECT_NE(err.find(problem), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
  // A world of `scenario` run `ticks` ticks, spoiled, saved as it is and loaded: refused.
  void expect_spoiled_refused(const std::string& scenario, std::uint64_t ticks, const std::function<void(Game&)>& spoil,
                              const std::string& problem) {
    SCOPED_TRACE(problem);
    auto g = make_from(scenario);
    run(*g, ticks);
    spoil(*g);
    std::vector<std::uint8_t> bytes;
    std::string err;
    ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
    expect_refused(bytes, problem);
  }
  static void reseal(std::vector<std::uint8_t>& b) {  // recomputes the checksum of an uncompressed save
    std::uint64_t h = XXH3_64bits(b.data() + kSaveHeaderBytes, b.size() - kSaveHeaderBytes);
    std::memcpy(b.data() + 32, &h, 8);
  }
  std::vector<std::uint8_t> good;
  std::string path;
};

TEST_F(BadSave, MissingFileOrFolder) {
  std::string err;
  EXPECT_EQ(load_game(path, &err), nullptr);
  EXPECT_EQ(err, path + ": cannot open (no such file)");
  std::filesystem::create_directory(path);
  EXPECT_EQ(load_game(path, &err), nullptr);
  EXPECT_EQ(err, path + ": is a folder, not a file");
  std::filesystem::remove(path);
  // A pipe with no writer is refused, not waited on.
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  EXPECT_EQ(load_game(path, &err), nullptr);
  EXPECT_EQ(err, path + ": not a regular file (a pipe, socket or device)");
  std::filesystem::remove(path);
}

TEST_F(BadSave, NotASave) {
  expect_refused({}, "not a Colony save");
  auto text = test::read_bytes(test::scenario_path("default.json"));
  expect_refused(text, "not a Colony save");
}

TEST_F(BadSave, Truncated) {
  expect_refused({good.begin(), good.begin() + 20}, "truncated: the header is cut short");
  expect_refused({good.begin(), good.end() - 100}, "truncated");
  expect_refused({good.begin(), good.begin() + kSaveHeaderBytes}, "truncated");
}

TEST_F(BadSave, CorruptedContent) {
  for (size_t at : {kSaveHeaderBytes + 5, good.size() / 2, good.size() - 3}) {
    auto bad = good;
    bad[at] ^= 0x5A;
    expect_refused(bad, "corrupted");
  }
  auto longer = good;
  longer.push_back(0);
  expect_refused(longer, "stray bytes");
}

// Content declared larger than any world this machine may build is refused unread.
TEST_F(BadSave, ContentLargerThanTheMemoryBudgetIsRefusedUnread) {
  auto bad = good;
  const std::uint64_t declared = std::uint64_t(1) << 40;
  std::memcpy(bad.data() + 16, &declared, 8);
  expect_refused(bad, "the content would take 1099.5 GB uncompressed, more than the ");
}

// A large file that is no save (or a save whose header is wrong) is refused from its
// header: the rest is never read into memory (a gigabyte was read whole, then refused).
TEST_F(BadSave, ALargeFileIsRefusedFromItsHeaderUnread) {
  auto peak_kb = [] {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return long(u.ru_maxrss);
  };
  const std::uintmax_t large = std::uintmax_t(512) << 20;
  std::string err;
  { std::ofstream(path, std::ios::binary).write("not a save at all", 17); }
  std::filesystem::resize_file(path, large);  // sparse: no disk used
  const long before = peak_kb();
  EXPECT_EQ(load_game(path, &err), nullptr);
  EXPECT_EQ(err, path + ": not a Colony save (no COLONYSV magic number)");
  // A save's header that does not match the file's size.
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(good.data()), std::streamsize(kSaveHeaderBytes));
  }
  std::filesystem::resize_file(path, large);
  EXPECT_EQ(load_game(path, &err), nullptr);
  EXPECT_NE(err.find("stray bytes after the content"), std::string::npos) << err;
  Replayer r;
  EXPECT_FALSE(load_replay(path, r, &err));
  EXPECT_EQ(err, path + ": a Colony save, not a replay (read it with --load)");
  EXPECT_LT(peak_kb() - before, 64 * 1024) << "the refused files were read into memory";
  std::filesystem::remove(path);
}

TEST_F(BadSave, WrongVersion) {
  auto bad = good;
  std::uint32_t v = 99;
  std::memcpy(bad.data() + 8, &v, 4);
  expect_refused(bad, "save format version 99, this build reads version " + std::to_string(colony::kSaveVersion));
}

// Content damaged in a way the checksum cannot see (forged): the loader's own checks
// refuse it or load a world that is still consistent; it never crashes.
TEST_F(BadSave, ForgedContentIsCheckedNotTrusted) {
  auto g = make_from("default.json");
  run(*g, 30);
  std::vector<std::uint8_t> raw;
  std::string err;
  SaveOptions o;
  o.compress = false;
  ASSERT_TRUE(save_game_to_bytes(*g, raw, &err, o));
  int refused = 0;
  const size_t step = raw.size() / 97 + 1;
  for (size_t at = kSaveHeaderBytes; at < raw.size(); at += step) {
    auto bad = raw;
    bad[at] ^= 0xFF;
    reseal(bad);
    auto loaded = load_game_from_bytes(bad.data(), bad.size(), "forged", &err);
    if (!loaded) {
      ++refused;
      EXPECT_EQ(err.rfind("forged: ", 0), 0u) << err;
      continue;
    }
    EXPECT_TRUE(validate_game(*loaded).empty());
    run(*loaded, 2);
  }
  EXPECT_GT(refused, 0);
  // A changed scenario text must parse like any scenario file.
  auto bad = raw;
  const char* key = "\"world\"";
  auto it = std::search(bad.begin(), bad.end(), key, key + std::strlen(key));
  ASSERT_NE(it, bad.end());
  it[1] = 'W';
  reseal(bad);
  EXPECT_EQ(load_game_from_bytes(bad.data(), bad.size(), "forged", &err), nullptr);
  EXPECT_NE(err.find("the scenario: does not parse"), std::string::npos) << err;
}

// A save whose checksum is right but whose content cannot happen: each world below is
// broken in one way through its fields, saved as it is, and refused on load by name.
TEST_F(BadSave, ImpossibleGridsQueensNestsAndRegionsAreRefused) {
  const std::vector<std::pair<std::function<void(Game&)>, std::string>> cases = {
      {[](Game& g) { g.danger[7] = std::numeric_limits<float>::quiet_NaN(); },
       "the danger grid holds a negative or non-finite value"},
      {[](Game& g) { g.fields[1][9] = -1.0f; }, "a pheromone field holds a negative or non-finite value"},
      {[](Game& g) { g.fire[3] = 40; },
       "bad content in the cell grids: cells on fire that the burning list does not name"},
      {[](Game& g) { g.tick = ~0ull; }, "bad content in the game counters: tick 18446744073709551615 out of range"},
      {[](Game& g) { g.colonies[0].food = -1; }, "bad content in the colonies: nest or food out of range"},
      {[](Game& g) { g.burning.push_back(4); }, "the burning list names a cell that is not burning"},
      {[](Game& g) { g.colonies[0].queen = g.tiles[0]; }, "colony 0: its queen is not a live queen of the colony"},
      {[](Game& g) { g.colonies[1].queen = g.colonies[0].queen; },
       "colony 1: its queen is not a live queen of the colony"},
      {[](Game& g) { g.terrain[cell_index(g, g.colonies[0].nest_x, g.colonies[0].nest_y)] = Terrain::Water; },
       "colony 0: the nest is not on land"},
      {[](Game& g) { g.region_w = -5; }, "region of negative size"},
      {[](Game& g) { g.colonies[1].nest_x += 1; }, "colony 1: its nest or colour differs from the scenario's"},
      {[](Game& g) { g.colonies[0].color ^= 0xFF; }, "colony 0: its nest or colour differs from the scenario's"},
      {[](Game& g) { g.rng.inc = 0; }, "a random stream with an even increment"},
      {[](Game& g) { g.event_rng.inc &= ~1ull; }, "a random stream with an even increment"},
      // A negative speed would have a dormant ant take billions of steps a tick (the step
      // count is the distance over half a cell, rounded up, in 32 bits).
      {[](Game& g) { spoil_first(g, Kind::Worker, [](ColonyEcs::Record& r) { r.payload.speed = -1; }); },
       "speed out of range (0 to 0.9 cells a tick)"},
      // A worker's sensor angle of NaN became its heading once it steered by it.
      {[](Game& g) {
         spoil_first(g, Kind::Worker, [&](ColonyEcs::Record& r) {
           g.ecs->component<Sensor>(r, 1).angle = std::numeric_limits<float>::quiet_NaN();
         });
       },
       "sensor out of range"},
      {[](Game& g) {
         spoil_first(g, Kind::Soldier, [&](ColonyEcs::Record& r) {
           g.ecs->component<CollisionVolume>(r, 0).radius = std::numeric_limits<float>::infinity();
         });
       },
       "collision volume out of range"},
      // A queue of commands past one tick's budget: each whole-map bomb takes 20 ms on a
      // 1024 x 1024 map, and a save could queue a million.
      {[](Game& g) {
         for (int i = 0; i < 300; ++i) g.pending_commands.push_back(Command{CommandKind::BigBomb, 10, 10, 4096, 0});
       },
       "bad content in the pending commands: the commands of one tick touch 7372800 cells, more than 256 times the "
       "map's 24576"},
  };
  for (const auto& [spoil, problem] : cases) expect_spoiled_refused("default.json", 10, spoil, problem);
}

// A save whose checksum is right but whose content makes no sense: a queen link emptied
// while the queen lives, counters at 2^64-1, the world's tick moved without the ants'
// stamps. Each is refused, naming the check it fails; each had loaded.
TEST_F(BadSave, ASaveThatMakesNoSenseIsRefusedByTheCheckItFails) {
  for (const test::ForgedSave& f : test::forged_saves()) {
    SCOPED_TRACE(f.name);
    std::vector<std::uint8_t> bytes = test::forged_save_bytes(f, test::scenario_path("default.json"));
    ASSERT_FALSE(bytes.empty());
    expect_refused(bytes, f.check);
  }
  // The same world unforged loads (the checks pass on what a game reaches).
  auto g = make_from("default.json");
  run(*g, 40);
  std::vector<std::uint8_t> bytes;
  std::string err;
  ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
  EXPECT_NE(load_game_from_bytes(bytes.data(), bytes.size(), "sound", &err), nullptr) << err;
}

// Saves taken all along busy runs (bombs, fire, births, deaths, dormant chunks) pass the
// history checks: what a game reaches is never refused.
TEST(SaveLoad, SavesAlongBusyRunsPassTheHistoryChecks) {
  for (const char* scenario : {"default.json", "carpet_bombing.json", "kingdom_fire.json", "exhaustion.json"}) {
    SCOPED_TRACE(scenario);
    auto g = make_from(scenario);
    for (int round = 0; round < 12; ++round) {
      run(*g, 37);
      std::vector<std::uint8_t> bytes;
      std::string err;
      ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
      ASSERT_NE(load_game_from_bytes(bytes.data(), bytes.size(), scenario, &err), nullptr)
          << "tick " << g->tick << ": " << err;
    }
  }
}

// An event's next tick follows from the scenario and the tick: bombs that would fire at
// a tick off their schedule, never again, or a second time are refused.
TEST_F(BadSave, AnEventsNextTickOffItsScheduleIsRefused) {
  // carpet_bombing.json: event 0 is a bomb at tick 180, then every 720 ticks.
  const std::string problem = "event 0: its next tick is not the one its schedule gives at tick ";
  for (std::uint64_t next : {181ull, 5ull, 900ull, ~0ull})
    expect_spoiled_refused(
        "carpet_bombing.json", 10, [next](Game& g) { g.event_next[0] = next; }, problem + "10");
  // After it fired at 180 the next is 900; 180 again (or the 1,620 after) is refused.
  for (std::uint64_t next : {180ull, 1620ull})
    expect_spoiled_refused(
        "carpet_bombing.json", 200, [next](Game& g) { g.event_next[0] = next; }, problem + "200");
}

// The schedule's own values load: saved before, on and after an event's ticks, a world
// continues as the one that ran straight.
TEST_F(BadSave, SavesAroundAnEventsTicksLoadAndContinue) {
  for (std::uint64_t ticks : {0, 179, 180, 181, 899, 900}) {
    SCOPED_TRACE(ticks);
    auto g = make_from("carpet_bombing.json");
    run(*g, ticks);
    std::vector<std::uint8_t> bytes;
    std::string err;
    ASSERT_TRUE(save_game_to_bytes(*g, bytes, &err)) << err;
    auto loaded = load_game_from_bytes(bytes.data(), bytes.size(), "around", &err);
    ASSERT_NE(loaded, nullptr) << err;
    run(*g, 3), run(*loaded, 3);
    EXPECT_EQ(state_hash(*loaded), state_hash(*g));
  }
}

// The file-size limit makes the write itself fail partway (EFBIG), as a full disk would.
struct FileSizeLimit {
  rlimit old{};
  explicit FileSizeLimit(rlim_t bytes) {
    // The signal's default (end the process) stays: the save itself must not die of it.
    std::signal(SIGXFSZ, SIG_DFL);
    getrlimit(RLIMIT_FSIZE, &old);
    rlimit lim = old;
    lim.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &lim);
  }
  ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &old); }
};

// Files in the save's folder other than the ones named.
std::vector<std::string> strays(const std::string& folder, const std::vector<std::string>& expected) {
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(folder)) {
    std::string name = e.path().filename().string();
    if (std::find(expected.begin(), expected.end(), name) == expected.end()) found.push_back(name);
  }
  return found;
}

TEST(SaveFile, AFailedSaveLeavesThePreviousSaveIntact) {
  auto g = make_from("default.json");
  run(*g, 20);
  const std::string folder = temp_path("keep_folder");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directory(folder);
  const std::string path = folder + "/keep.colony";
  std::string err;
  ASSERT_TRUE(save_game(*g, path, &err)) << err;
  u64 saved_hash = state_hash(*g);
  run(*g, 20);
  {
    FileSizeLimit limit(4096);
    EXPECT_FALSE(save_game(*g, path, &err));
  }
  EXPECT_EQ(err, path + ": write failed (" + std::strerror(EFBIG) + ")");
  auto back = load_game(path, &err);
  ASSERT_NE(back, nullptr) << err;
  EXPECT_EQ(state_hash(*back), saved_hash);
  EXPECT_EQ(strays(folder, {"keep.colony"}), std::vector<std::string>{}) << "the temporary file was left behind";
  EXPECT_FALSE(save_game(*g, temp_path("no_such_folder") + "/x.colony", &err));
  EXPECT_NE(err.find("cannot create"), std::string::npos);
  std::filesystem::remove_all(folder);
}

// Whatever already lies beside the save under a temporary-looking name is not the save's
// to remove: the save picks a fresh temporary name and leaves the rest alone.
TEST(SaveFile, ASaveTouchesNothingButItsOwnFile) {
  auto g = make_from("default.json");
  const std::string folder = temp_path("own_folder");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directory(folder);
  const std::string path = folder + "/own.colony";
  std::filesystem::create_directory(path + ".tmp");
  { std::ofstream(path + ".XXXXXX") << "not ours"; }
  std::string err;
  ASSERT_TRUE(save_game(*g, path, &err)) << err;
  EXPECT_TRUE(std::filesystem::is_directory(path + ".tmp"));
  auto kept = test::read_bytes(path + ".XXXXXX");
  EXPECT_EQ(std::string(kept.begin(), kept.end()), "not ours");
  EXPECT_EQ(strays(folder, {"own.colony", "own.colony.tmp", "own.colony.XXXXXX"}), std::vector<std::string>{});
  ASSERT_NE(load_game(path, &err), nullptr) << err;
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace colony

namespace colony {
namespace {

// An interrupt while an output is being written leaves no temporary beside it: the
// handler removes it, then the process ends as the signal would have ended it (a run
// stopped with Ctrl+C while saving a big world would otherwise leave a 72 MB temporary).
TEST(PendingFileDeathTest, AnInterruptRemovesTheTemporary) {
  GTEST_FLAG_SET(death_test_style, "fast");  // the child writes where the parent looks
  const std::string dir = colony_test::scratch_path("interrupted");
  std::filesystem::create_directories(dir);
  for (int sig : {SIGINT, SIGTERM}) {
    EXPECT_EXIT(
        {
          PendingFile file;
          std::string err;
          if (!file.open(dir + "/out.colony", &err)) std::_Exit(7);
          std::fputs("half a save", file.stream());
          std::fflush(file.stream());
          std::raise(sig);
          std::_Exit(8);
        },
        testing::KilledBySignal(sig), "");
    EXPECT_TRUE(std::filesystem::is_empty(dir)) << "a temporary was left after signal " << sig;
  }
  // Committed, the file stays, and the handlers are gone: a signal then ends the process
  // with nothing to remove.
  EXPECT_EXIT(
      {
        PendingFile file;
        std::string err;
        if (!file.open(dir + "/kept.colony", &err) || !file.close(&err) || !file.commit(&err)) std::_Exit(7);
        std::raise(SIGTERM);
        std::_Exit(8);
      },
      testing::KilledBySignal(SIGTERM), "");
  EXPECT_TRUE(std::filesystem::exists(dir + "/kept.colony"));
}

}  // namespace
}  // namespace colony
