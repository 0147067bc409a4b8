// scenario_test.cpp — the scenario reader: every shipped scenario loads and builds, and
// every kind of bad input gives one line naming the file, the key path and the problem.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../common/scratch.h"
#include "game.h"

namespace colony {
namespace {

const char* kGood = R"({
  "world": { "width": 64, "height": 48, "chunk_size": 16 },
  "terrain": { "base": "grass", "shapes": [ { "terrain": "water", "rect": [30, 0, 4, 48] } ] },
  "colonies": [ { "nest": [10, 10], "workers": 20, "soldiers": 5 } ],
  "food": [ { "at": [20, 20], "crumbs": 10 } ],
  "events": [ { "kind": "bomb", "tick": 5, "at": [12, 12], "radius": 4 } ]
})";

std::string parse_error(const std::string& text) {
  Scenario s;
  std::string err;
  EXPECT_FALSE(parse_scenario(text, "bad.json", s, &err)) << text;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  EXPECT_EQ(err.rfind("bad.json: ", 0), 0u) << err;
  return err;
}

// The good document with one substring replaced.
std::string with(const std::string& from, const std::string& to) {
  std::string s = kGood;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(Scenario, TheGoodDocumentLoadsAndBuilds) {
  Scenario s;
  std::string err;
  ASSERT_TRUE(parse_scenario(kGood, "good.json", s, &err)) << err;
  EXPECT_EQ(s.width, 64u);
  ASSERT_EQ(s.colonies.size(), 1u);
  EXPECT_EQ(s.colonies[0].workers, 20u);
  ASSERT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.events[0].kind, EventKind::Bomb);
  auto g = make_game(s, 3, &err);
  ASSERT_TRUE(g) << err;
  EXPECT_EQ(ants_alive(*g), 26u);
  EXPECT_EQ(g->terrain[10 * 64 + 31], Terrain::Water);
}

TEST(Scenario, EveryShippedScenarioLoads) {
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(COLONY_SCENARIO_DIR)) {
    if (e.path().extension() != ".json") continue;
    Scenario s;
    std::string err;
    EXPECT_TRUE(load_scenario(e.path().string(), s, &err)) << err;
    ++n;
  }
  EXPECT_GE(n, 5);
}

TEST(Scenario, UnknownKey) {
  EXPECT_EQ(parse_error(with("\"workers\": 20", "\"wrokers\": 20")),
            "bad.json: colonies[0].wrokers: unknown key (known here: nest, color, workers, soldiers, spread, food)");
  EXPECT_EQ(parse_error(with("\"world\"", "\"extra\": 1, \"world\"")),
            "bad.json: extra: unknown key (known here: name, description, seed, world, terrain, colonies, food, "
            "random_food, region, capacity, rules, events)");
}

TEST(Scenario, WrongType) {
  EXPECT_EQ(parse_error(with("\"width\": 64", "\"width\": \"64\"")),
            "bad.json: world.width: expected an integer, got a string");
  EXPECT_EQ(parse_error(with("\"crumbs\": 10", "\"crumbs\": 2.5")),
            "bad.json: food[0].crumbs: expected an integer, got the decimal number 2.5");
  EXPECT_EQ(parse_error(with("\"width\": 64", "\"width\": 64.0")),
            "bad.json: world.width: expected an integer, got the decimal number 64.0");
  EXPECT_EQ(parse_error(with("\"nest\": [10, 10]", "\"nest\": 10")),
            "bad.json: colonies[0].nest: expected an array, got an integer");
}

TEST(Scenario, OutOfRange) {
  EXPECT_EQ(parse_error(with("\"radius\": 4", "\"radius\": -3")),
            "bad.json: events[0].radius: radius must not be negative, got -3");
  EXPECT_EQ(parse_error(with("\"workers\": 20", "\"workers\": -1")), "bad.json: colonies[0].workers: -1 is negative");
  // "-0" is a signed zero to the JSON reader: zero, and out of range here ("expected an
  // integer, got an integer" before).
  EXPECT_EQ(parse_error(with("\"width\": 64", "\"width\": -0")), "bad.json: world.width: 0 is out of range [16, 8192]");
  // A speed of 0.9, the most allowed, is taken (compared as a double, it was above 0.9f).
  {
    Scenario s;
    std::string err;
    EXPECT_TRUE(
        parse_scenario(with("\"events\"", "\"rules\": { \"worker_speed\": 0.9 }, \"events\""), "good.json", s, &err))
        << err;
  }
  EXPECT_EQ(parse_error(with("\"events\"", "\"rules\": { \"soldier_speed\": 0.91 }, \"events\"")),
            "bad.json: rules.soldier_speed: 0.91 is out of range [0, 0.9]");
  EXPECT_EQ(parse_error(with("\"chunk_size\": 16", "\"chunk_size\": 1")),
            "bad.json: world.chunk_size: 1 is out of range [4, 256]");
  EXPECT_EQ(parse_error(with("\"at\": [20, 20]", "\"at\": [200, 20]")),
            "bad.json: food[0].at: (200, 20) is outside the 64x48 map");
}

TEST(Scenario, NestInWater) {
  EXPECT_EQ(parse_error(with("\"nest\": [10, 10]", "\"nest\": [31, 10]")),
            "bad.json: colonies[0].nest: the nest is in water");
}

// The check and the world builder agree where a rectangle ends: [10, 0, 1.5, 32] paints
// column 10 only (columns floor(x) .. floor(x + w) - 1), so a nest at 11.2 is on grass,
// and one at 10.9 is in the water.
TEST(Scenario, ARectangleEndsWhereTheBuilderStopsPainting) {
  const std::string doc = with("\"rect\": [30, 0, 4, 48]", "\"rect\": [10, 0, 1.5, 48]");
  Scenario s;
  std::string err;
  ASSERT_TRUE(parse_scenario(std::string(doc).replace(doc.find("[10, 10]"), 8, "[11.2, 16]"), "good.json", s, &err))
      << err;
  auto g = make_game(s, 3, &err);
  ASSERT_TRUE(g) << err;
  EXPECT_EQ(g->terrain[16 * 64 + 10], Terrain::Water);
  EXPECT_EQ(g->terrain[16 * 64 + 11], Terrain::Grass);
  EXPECT_EQ(parse_error(std::string(doc).replace(doc.find("[10, 10]"), 8, "[10.9, 16]")),
            "bad.json: colonies[0].nest: the nest is in water");
}

// A scenario is JSON text: a NUL byte (which the parser would take for the end) is refused
// where it stands, and nothing after it is silently dropped.
TEST(Scenario, ANulByteIsRefused) {
  std::string doc = std::string(kGood) + std::string(1, '\0') + "not json {{{";
  EXPECT_EQ(parse_error(doc), "bad.json: (document): a NUL byte at offset " +
                                  std::to_string(std::string(kGood).size()) + " (a scenario is JSON text)");
}

// A few MiB of shapes or events could ask for hours of painting or bombing: past a budget
// of cells touched, as multiples of the map's, the scenario is refused with the totals.
TEST(Scenario, ShapesAndEventsBeyondTheirBudgetAreRefused) {
  std::string shapes;
  for (int i = 0; i < 70; ++i)
    shapes += std::string(i ? ", " : "") + "{ \"terrain\": \"dirt\", \"rect\": [0, 0, 64, 48] }";
  EXPECT_EQ(parse_error(with("{ \"terrain\": \"water\", \"rect\": [30, 0, 4, 48] }", shapes)),
            "bad.json: terrain.shapes[64]: the shapes up to here paint 199680 cells, more than 64 times the map's 3072 "
            "(fewer or smaller shapes)");
  const std::string storm =
      with("\"radius\": 4 }",
           "\"radius\": 4 }, { \"kind\": \"fire\", \"tick\": 0, \"every\": 1, \"at\": [20, 20], \"radius\": 4096 }");
  std::string many = storm;
  for (int i = 0; i < 20; ++i)
    many = std::string(many).replace(
        many.find("\"radius\": 4096 }"), 16,
        "\"radius\": 4096 }, { \"kind\": \"fire\", \"tick\": 0, \"every\": 1, \"at\": [20, 20], \"radius\": 4096 }");
  EXPECT_EQ(parse_error(many),
            "bad.json: events: the repeating events touch 64512 cells a tick, more than 16 times the map's 3072");
  Scenario s;
  std::string err;
  EXPECT_TRUE(parse_scenario(storm, "good.json", s, &err)) << err;  // one such fire is within it
  // Repeating events count their first firing with the rest: 257 whole-map bombs on one
  // tick are refused however long their period (they would all go off at tick 1).
  std::string bombs;
  for (int i = 0; i < 257; ++i)
    bombs += ", { \"kind\": \"bomb\", \"tick\": 1, \"every\": 1000000000, \"at\": [20, 20], \"radius\": 4096 }";
  EXPECT_EQ(parse_error(with("\"radius\": 4 }", "\"radius\": 4 }" + bombs)),
            "bad.json: events: the events' first firings touch 789759 cells, more than 256 times the map's 3072");
}

// Many shapes and many spawn events: past a million shape tests the land checks look the
// painted terrain up in a grid of the map (the tests were shapes x events), and answer as
// the shape-by-shape walk does: the water strip, and a circle of rock painted over land,
// refuse a spawn event in them; a dirt rect painted last over the rock is land again.
TEST(Scenario, ManyShapesAndSpawnEventsAreCheckedAlike) {
  std::string shapes = "{ \"terrain\": \"water\", \"rect\": [30, 0, 4, 48] }";
  for (int i = 0; i < 1500; ++i) shapes += ", { \"terrain\": \"grass\", \"rect\": [0, 0, 1, 1] }";
  shapes += ", { \"terrain\": \"rock\", \"circle\": [50, 30, 3] }, { \"terrain\": \"dirt\", \"rect\": [50, 30, 1, 1] }";
  const std::string doc = with("{ \"terrain\": \"water\", \"rect\": [30, 0, 4, 48] }", shapes);
  auto events = [&](const std::string& last) {
    std::string e = "\"events\": [ ";
    for (int i = 0; i < 700; ++i)
      e += "{ \"kind\": \"spawn\", \"tick\": 5, \"at\": [10, 10], \"count\": 1, \"colony\": 0 }, ";
    return std::string(doc).replace(doc.find("\"events\": ["), 11, e + last + ", ");
  };
  auto spawn_at = [](float x, float y) {
    return "{ \"kind\": \"spawn\", \"tick\": 5, \"at\": [" + number_text(x) + ", " + number_text(y) +
           "], \"count\": 1, \"colony\": 0 }";
  };
  EXPECT_EQ(parse_error(events(spawn_at(31.5f, 20))), "bad.json: events[700].at: the ants would appear in water");
  EXPECT_EQ(parse_error(events(spawn_at(49.5f, 31.5f))), "bad.json: events[700].at: the ants would appear in rock");
  Scenario s;
  std::string err;
  EXPECT_TRUE(parse_scenario(events(spawn_at(50.5f, 30.5f)), "good.json", s, &err)) << err;
  EXPECT_EQ(s.events.size(), 702u);
}

TEST(Scenario, MoreAntsThanThePoolsHold) {
  std::string doc = with("\"events\"", "\"capacity\": { \"render_pieces\": 3000 }, \"events\"");
  EXPECT_EQ(parse_error(doc),
            "bad.json: capacity.render_pieces: the scenario starts with 3417 render pieces but the capacity is 3000");
  doc = with("\"events\"", "\"capacity\": { \"max_ants\": 10 }, \"events\"");
  EXPECT_EQ(parse_error(doc), "bad.json: capacity.max_ants: the scenario starts with 26 ants but the capacity is 10");
}

TEST(Scenario, MissingKeyAndFile) {
  EXPECT_EQ(parse_error(R"({"colonies": []})"), "bad.json: world: missing");
  Scenario s;
  std::string err;
  EXPECT_FALSE(load_scenario("/nonexistent/x.json", s, &err));
  EXPECT_EQ(err, "/nonexistent/x.json: (file): cannot open (no such file)");
}

// What is not a regular file is refused by name, not read: a pipe with no writer would
// block the reader, a device like /dev/zero would never end.
TEST(Scenario, APipeADeviceAndAFolderAreRefusedUnread) {
  const std::string fifo = colony_test::scratch_path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  Scenario s;
  std::string err;
  EXPECT_FALSE(load_scenario(fifo, s, &err));
  EXPECT_EQ(err, fifo + ": (file): not a regular file (a pipe, socket or device)");
  std::filesystem::remove(fifo);
  EXPECT_FALSE(load_scenario("/dev/zero", s, &err));
  EXPECT_EQ(err, "/dev/zero: (file): not a regular file (a pipe, socket or device)");
  EXPECT_FALSE(load_scenario(testing::TempDir(), s, &err));
  EXPECT_NE(err.find(": (file): is a folder, not a file"), std::string::npos) << err;
}

TEST(Scenario, AFileLargerThanAnyScenarioIsRefusedUnread) {
  const std::string big = colony_test::scratch_path("big.json");
  { std::ofstream(big) << "{}"; }
  std::filesystem::resize_file(big, kMaxScenarioBytes + 1);
  Scenario s;
  std::string err;
  EXPECT_FALSE(load_scenario(big, s, &err));
  EXPECT_EQ(err, big + ": (file): too large (" + std::to_string(kMaxScenarioBytes + 1) + " bytes, at most " +
                     std::to_string(kMaxScenarioBytes) + ")");
  std::filesystem::remove(big);
}

// Two nests closer than two mounds side by side: one would hide the other and their
// colonies mix on it; food entries whose 3x3 squares overlap: the later one would cover
// fewer cells than the README promises. Both are refused at the later entry; far enough apart,
// both load.
TEST(Scenario, NestsTooCloseAndFoodThatOverlapsAreRefused) {
  const std::string two_nests = "\"colonies\": [ ";  // a colony before the one at (10, 10)
  EXPECT_EQ(parse_error(with("\"colonies\": [ ", two_nests + "{ \"nest\": [10, 10] }, ")),
            "bad.json: colonies[1].nest: the nest is 0 cells from colonies[0]'s, closer than 5");
  EXPECT_EQ(parse_error(with("\"colonies\": [ ", two_nests + "{ \"nest\": [13, 13] }, ")),
            "bad.json: colonies[1].nest: the nest is 4.24264 cells from colonies[0]'s, closer than 5");
  EXPECT_EQ(parse_error(with("{ \"at\": [20, 20], \"crumbs\": 10 }",
                             "{ \"at\": [20, 20], \"crumbs\": 10 }, { \"at\": [22, 21], \"crumbs\": 4 }")),
            "bad.json: food[1].at: its 3x3 cells overlap food[0]'s");
  Scenario s;
  std::string err;
  EXPECT_TRUE(parse_scenario(with("{ \"at\": [20, 20], \"crumbs\": 10 }",
                                  "{ \"at\": [20, 20], \"crumbs\": 10 }, { \"at\": [23, 17], \"crumbs\": 4 }"),
                             "good.json", s, &err))
      << err;
  EXPECT_TRUE(parse_scenario(with("\"colonies\": [ ", two_nests + "{ \"nest\": [15, 10] }, "), "good.json", s, &err))
      << err;
}

// nlohmann-json keeps the last of two equal keys; a scenario must not say two things.
TEST(Scenario, AKeyGivenTwiceIsRefusedAtItsPath) {
  EXPECT_EQ(parse_error(with("\"width\": 64", "\"width\": 64, \"width\": 32")),
            "bad.json: world.width: key given twice");
  EXPECT_EQ(parse_error(with("\"crumbs\": 10", "\"crumbs\": 10, \"crumbs\": 5")),
            "bad.json: food[0].crumbs: key given twice");
  EXPECT_EQ(parse_error(with("\"events\"", "\"seed\": 2, \"seed\": 3, \"events\"")), "bad.json: seed: key given twice");
  // Equal keys in different objects are not a repeat.
  Scenario s;
  std::string err;
  EXPECT_TRUE(
      parse_scenario(with("\"food\": [ { \"at\": [20, 20], \"crumbs\": 10 } ]",
                          "\"food\": [ { \"at\": [20, 20], \"crumbs\": 10 }, { \"at\": [23, 20], \"crumbs\": 9 } ]"),
                     "good.json", s, &err))
      << err;
}

// Each object's keys are kept in a hash set: a document with very many keys is read in
// time proportional to its size (a list searched per key would take minutes at 16 MiB).
TEST(Scenario, ARepeatIsFoundAmongManyKeys) {
  std::string doc = "{\"world\": {\"width\": 64, \"height\": 48, \"extra\": {";
  for (int i = 0; i < 200000; ++i) doc += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  doc += "\"k17\": 0}}}";
  EXPECT_EQ(parse_error(doc), "bad.json: world.extra.k17: key given twice");
}

TEST(Scenario, ANumberTooLargeForAnyTypeIsNamedByItsPath) {
  EXPECT_EQ(parse_error(with("\"crumbs\": 10", "\"crumbs\": 1e400")), "bad.json: food[0].crumbs: number too large");
  EXPECT_EQ(parse_error(with("\"at\": [12, 12]", "\"at\": [12, -1e999]")),
            "bad.json: events[0].at[1]: number too large");
}

// A whole number past 64 bits is shown as written, not as the decimal number the parser
// makes of it (not "expected an integer, got the decimal number 1e+23").
TEST(Scenario, AWholeNumberPast64BitsIsShownAsWritten) {
  EXPECT_EQ(parse_error(with("\"width\": 64", "\"width\": 100000000000000000000000")),
            "bad.json: world.width: 100000000000000000000000 is too large");
  EXPECT_EQ(parse_error(with("\"crumbs\": 10", "\"crumbs\": -100000000000000000000000")),
            "bad.json: food[0].crumbs: -100000000000000000000000 is too far below zero");
  EXPECT_EQ(parse_error(with("\"at\": [20, 20]", "\"at\": [20, 18446744073709551616]")),
            "bad.json: food[0].at[1]: 18446744073709551616 is too large");
  // The largest 64-bit integer is read, and refused by the field's range.
  EXPECT_EQ(parse_error(with("\"width\": 64", "\"width\": 18446744073709551615")),
            "bad.json: world.width: 18446744073709551615 is out of range [16, 8192]");
}

// A value written inside the map that rounds to its edge as a float is shown as written,
// with what it became (not "(48, 20) is outside the 48x48 map" for 47.999999999).
TEST(Scenario, ACoordinateThatRoundsToTheEdgeIsShownAsWritten) {
  EXPECT_EQ(parse_error(with("\"at\": [20, 20]", "\"at\": [20, 47.999999999]")),
            "bad.json: food[0].at: (20, 47.999999999) is outside the 64x48 map (47.999999999 rounds to its edge, 48)");
  EXPECT_EQ(
      parse_error(with("\"at\": [20, 20]", "\"at\": [63.9999999999, 20]")),
      "bad.json: food[0].at: (63.9999999999, 20) is outside the 64x48 map (63.9999999999 rounds to its edge, 64)");
  // A range's message shows the value written too (not "4096 is out of range [0, 4096]").
  EXPECT_EQ(parse_error(with("\"radius\": 4", "\"radius\": 4096.0001")),
            "bad.json: events[0].radius: 4096.0001 is out of range [0, 4096]");
}

// Nesting stops at 32 levels, named by its key path: unbounded, a million nested arrays
// take a minute and a half and print a path of megabytes.
TEST(Scenario, NestingPastThirtyTwoLevelsIsRefusedAtItsPath) {
  const size_t depth = 1'000'000;
  std::string doc = "{\"name\": " + std::string(depth, '[') + "1" + std::string(depth, ']') + "}";
  std::string path = "name";
  for (int i = 0; i < 31; ++i) path += "[0]";
  EXPECT_EQ(parse_error(doc), "bad.json: " + path + ": nested deeper than 32 levels");
}

TEST(Scenario, TruncatedJson) {
  std::string doc = kGood;
  std::string err = parse_error(doc.substr(0, doc.size() / 2));
  EXPECT_NE(err.find("bad.json: (document): invalid JSON: parse error"), std::string::npos) << err;
  err = parse_error("");
  EXPECT_NE(err.find("invalid JSON"), std::string::npos) << err;
}

TEST(Scenario, BadEventsAndColours) {
  EXPECT_EQ(parse_error(with("\"kind\": \"bomb\"", "\"kind\": \"nuke\"")),
            "bad.json: events[0].kind: unknown event kind 'nuke' (bomb, fire, spawn, food)");
  EXPECT_EQ(parse_error(with("\"radius\": 4", "\"radius\": 4, \"count\": 3")),
            "bad.json: events[0].count: unknown key (known here: kind, tick, every, until, at, spread, radius, outer)");
  EXPECT_EQ(parse_error(with("\"workers\": 20", "\"color\": \"red\"")),
            "bad.json: colonies[0].color: expected a colour like \"#ff8800\", got \"red\"");
  EXPECT_EQ(parse_error(with("\"radius\": 4", "\"radius\": 0")),
            "bad.json: events[0].radius: a bomb needs a radius above 0");
  EXPECT_EQ(parse_error(with("\"radius\": 4", "\"radius\": 1e-45")),
            "bad.json: events[0].radius: 1e-45 is below the smallest radius, 0.01 (or 0)");
  EXPECT_EQ(parse_error(with("\"radius\": 4", "\"radius\": 4, \"outer\": 1e-300")),
            "bad.json: events[0].outer: 1e-300 is below the smallest radius, 0.01 (or 0)");
  EXPECT_EQ(parse_error(with("\"tick\": 5", "\"tick\": 50, \"until\": 40")),
            "bad.json: events[0].until: tick 40 is before the event's first tick 50");
  // The water strip is x 30..34: ants spawned there would stand in water, as a nest may not.
  const char* spawn_in_water = R"({ "kind": "spawn", "tick": 5, "at": [31, 20], "count": 10, "colony": 0 })";
  EXPECT_EQ(parse_error(with("{ \"kind\": \"bomb\", \"tick\": 5, \"at\": [12, 12], \"radius\": 4 }", spawn_in_water)),
            "bad.json: events[0].at: the ants would appear in water");
}

// The memory budget follows a container's limit: the smallest limit on the process's
// control group or any group above it, in either cgroup hierarchy; "max" and the v1
// "unlimited" value set none.
TEST(MemoryBudget, TheControlGroupLimitIsTheSmallestOnTheGroupsPath) {
  namespace fs = std::filesystem;
  const fs::path root = colony_test::scratch_path("cgroup");
  auto put = [&](const fs::path& file, const std::string& text) {
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << "\n";
  };
  const std::string self = (root / "self").string();
  put(root / "a/b/memory.max", "max");
  put(root / "a/memory.max", "1073741824");
  put(root / "memory.max", "2147483648");
  put(self, "0::/a/b");
  EXPECT_EQ(cgroup_memory_limit(root.string(), self), 1073741824u);
  put(root / "a/memory.max", "max");
  EXPECT_EQ(cgroup_memory_limit(root.string(), self), 2147483648u);
  put(root / "memory.max", "max");
  EXPECT_EQ(cgroup_memory_limit(root.string(), self), 0u);
  // cgroup v1: the memory controller's own folder; a huge value is no limit.
  put(root / "memory/x/memory.limit_in_bytes", "9223372036854771712");
  put(root / "memory/memory.limit_in_bytes", "536870912");
  put(self, "5:cpu,cpuacct:/x\n4:memory:/x\n0::/a/b");
  EXPECT_EQ(cgroup_memory_limit(root.string(), self), 536870912u);
  put(self, "4:cpu:/x");
  EXPECT_EQ(cgroup_memory_limit(root.string(), self), 0u);
  EXPECT_EQ(cgroup_memory_limit(root.string(), (root / "none").string()), 0u);
}

}  // namespace
}  // namespace colony
