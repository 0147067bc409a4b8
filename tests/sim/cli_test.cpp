// cli_test.cpp — the real colony binary on the command line: headless runs, the report,
// validation, and every bad flag or bad scenario exiting 2 with one error line.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

namespace fs = std::filesystem;

struct ProcessResult {
  int code = -1;
  std::string err;
};

fs::path temp_dir() {
  fs::path d = fs::temp_directory_path() / ("colony_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ProcessResult run(const std::string& args) {
  fs::path err = temp_dir() / "stderr.txt";
  std::string cmd = std::string(COLONY_EXE) + " " + args + " >/dev/null 2>" + err.string();
  int status = std::system(cmd.c_str());
  ProcessResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_file(err);
  return r;
}

fs::path write_scenario(const std::string& name, const std::string& text) {
  fs::path p = temp_dir() / name;
  std::ofstream(p) << text;
  return p;
}

const char* kSmall = R"({
  "world": { "width": 48, "height": 48, "chunk_size": 16 },
  "colonies": [ { "nest": [12, 12], "workers": 60, "soldiers": 10 }, { "nest": [36, 36], "workers": 60 } ],
  "random_food": { "count": 4 },
  "region": { "x": 0, "y": 0, "w": 20, "h": 20 },
  "events": [ { "kind": "bomb", "tick": 20, "at": [12, 12], "radius": 5 } ]
})";

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

TEST(Cli, HeadlessRunWritesTheReport) {
  fs::path scen = write_scenario("small.json", kSmall);
  fs::path rep = temp_dir() / "report.json";
  ProcessResult r = run("--headless --scenario " + scen.string() + " --ticks 120 --seed 9 --validate --report " + rep.string());
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(read_file(rep));
  EXPECT_EQ(j["ticks"], 120);
  EXPECT_EQ(j["seed"], 9);
  EXPECT_EQ(j["state_hash"].get<std::string>().size(), 16u);
  EXPECT_GT(j["ants"]["alive"].get<int>(), 0);
  EXPECT_GT(j["ants"]["died"]["explosion"].get<int>(), 0);
  for (const char* cause : {"explosion", "fire", "combat", "age", "starvation"}) EXPECT_TRUE(j["ants"]["died"].contains(cause)) << cause;
  EXPECT_EQ(j["colonies"].size(), 2u);
  for (const char* pool : {"render_pieces", "collision_volumes", "sensors"})
    for (const char* key : {"capacity", "taken", "high_water", "failed_reservations", "rewires"}) EXPECT_TRUE(j["pools"][pool].contains(key)) << pool << "." << key;
  EXPECT_EQ(j["invariant_violations"], 0);
  for (const char* system : {"simulate", "pheromones", "fire", "destroy", "regions", "dormant", "corpses"})
    EXPECT_TRUE(j["timing_ms"].contains(system)) << system;
  EXPECT_TRUE(j["rss_mb"].contains("start"));
  EXPECT_TRUE(j["rss_mb"].contains("end"));
}

TEST(Cli, SameSeedSameHashOtherSeedOtherHash) {
  fs::path scen = write_scenario("small.json", kSmall);
  auto hash = [&](int seed) {
    fs::path rep = temp_dir() / "h";
    rep += std::to_string(seed) + ".json";  // ("h" + string: GCC 12 warns falsely, -Wrestrict)
    ProcessResult r = run("--headless --scenario " + scen.string() + " --ticks 90 --seed " + std::to_string(seed) + " --report " + rep.string());
    EXPECT_EQ(r.code, 0) << r.err;
    return nlohmann::json::parse(read_file(rep))["state_hash"].get<std::string>();
  };
  std::string a = hash(1), b = hash(1), c = hash(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
}

// Bad flags: one line on stderr, exit 2.
TEST(Cli, BadFlagsExitTwoWithOneLine) {
  fs::path scen = write_scenario("small.json", kSmall);
  const std::string s = " --scenario " + scen.string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--headless --ticks abc" + s, "--ticks"},
      {"--headless --ticks -5" + s, "--ticks"},
      {"--headless --ticks" + s, "--ticks"},
      {"--headless --ticks 10 --seed x" + s, "--seed"},
      {"--headless --scenario /nonexistent/file.json", "--scenario"},
      {"--headless --ticks 10 --report /nonexistent/dir/r.json" + s, "--report"},
      {"--width 5", "--width"},
      {"--height 99999", "--height"},
      {"--frames 0", "--frames"},
      {"--frames many", "--frames"},
      {"--load /nonexistent/save.bin", "--load"},
      {"--replay /nonexistent/r.rep", "--replay"},
      {"--screenshot /nonexistent/dir/x.png", "--screenshot"},
      {"--no-such-flag", "no-such-flag"},
  };
  for (const auto& [args, mention] : cases) {
    ProcessResult r = run(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << args << "\n" << r.err;
    EXPECT_NE(r.err.find(mention), std::string::npos) << args << "\n" << r.err;
  }
}

// Bad scenarios through the binary: exit 2, one line naming the file and the key path.
TEST(Cli, BadScenariosExitTwoNamingFileAndKey) {
  std::string good = kSmall;
  auto variant = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    return s.replace(s.find(from), from.size(), to);
  };
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"unknown_key.json", variant("\"workers\": 60, \"soldiers\"", "\"wokers\": 60, \"soldiers\""), "colonies[0].wokers: unknown key"},
      {"wrong_type.json", variant("\"width\": 48", "\"width\": true"), "world.width: expected an integer, got a boolean"},
      {"negative_radius.json", variant("\"radius\": 5", "\"radius\": -5"), "events[0].radius: radius must not be negative"},
      {"nest_in_water.json", variant("\"random_food\"", "\"terrain\": { \"shapes\": [ { \"terrain\": \"water\", \"circle\": [12, 12, 3] } ] }, \"random_food\""), "colonies[0].nest: the nest is in water"},
      {"too_many_ants.json", variant("\"random_food\"", "\"capacity\": { \"sensors\": 100 }, \"random_food\""), "capacity.sensors: the scenario starts with"},
      {"truncated.json", good.substr(0, good.size() - 40), "(document): invalid JSON"},
  };
  for (const auto& [name, text, message] : cases) {
    fs::path p = write_scenario(name, text);
    fs::path rep = temp_dir() / "should_not_exist.json";
    fs::remove(rep);
    ProcessResult r = run("--headless --ticks 10 --scenario " + p.string() + " --report " + rep.string());
    EXPECT_EQ(r.code, 2) << name << "\n" << r.err;
    EXPECT_EQ(lines(r.err), 1) << name << "\n" << r.err;
    EXPECT_NE(r.err.find(p.string()), std::string::npos) << name << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << name << "\n" << r.err;
    EXPECT_FALSE(fs::exists(rep)) << name << ": nothing may run";
  }
}

TEST(Cli, HelpExitsZero) {
  ProcessResult r = run("--help");
  EXPECT_EQ(r.code, 0);
}

}  // namespace
