// outputs_test.cpp — a run's outputs (--report, --save, --record) are all written or none
// changes, under every failure injected at every output in turn: a name too long (refused
// before the run), a folder made read-only between the check and the commit, the disk
// full (the file-size limit) while each is written. Each time every file there before is
// byte-identical afterwards, nothing stray is left, and the error is one line.
#include <gtest/gtest.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "../common/child_process.h"
#include "../common/scratch.h"

namespace {

namespace fs = std::filesystem;
using colony_test::file_text;

// A small world: quick to run, a save of some kilobytes.
const char* kSmall = R"({
  "world": { "width": 48, "height": 48, "chunk_size": 16 },
  "colonies": [ { "nest": [12, 12], "workers": 60, "soldiers": 10 }, { "nest": [36, 36], "workers": 60 } ],
  "random_food": { "count": 4 }
})";

struct Ran {
  int code = -1;
  std::string err;
};

int lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// The three outputs, each in a folder of its own (a folder can then fail alone), each
// holding a file from before.
struct Outputs {
  fs::path root, scenario;
  const char* flags[3] = {"--report", "--save", "--record"};
  fs::path dirs[3], files[3];
  std::string before[3] = {"the previous report\n", "the previous save\n", "the previous recording\n"};

  explicit Outputs(const std::string& name) {
    root = colony_test::scratch_path(name);
    fs::create_directories(root);
    scenario = root / "small.json";
    std::ofstream(scenario) << kSmall;
    const char* names[3] = {"report.json", "world.colony", "run.replay"};
    for (int i = 0; i < 3; ++i) {
      dirs[i] = root / ("out" + std::to_string(i));
      fs::create_directories(dirs[i]);
      files[i] = dirs[i] / names[i];
    }
    reset();
  }
  void reset() {
    for (int i = 0; i < 3; ++i) {
      for (const auto& e : fs::directory_iterator(dirs[i])) fs::remove_all(e.path());
      std::ofstream(files[i]) << before[i];
    }
  }
  std::vector<std::string> args(int ticks, const bool use[3]) const {
    std::vector<std::string> a = {"--headless", "--scenario", scenario.string(), "--ticks", std::to_string(ticks)};
    for (int i = 0; i < 3; ++i)
      if (use[i]) a.insert(a.end(), {flags[i], files[i].string()});
    return a;
  }
  Ran run(const std::vector<std::string>& a, const colony_test::ChildOptions& o = {}) const {
    const std::string err = (root / "stderr.txt").string();
    pid_t pid = colony_test::start_child(COLONY_BIN, a, err, o);
    Ran r;
    r.code = colony_test::wait_exit(pid);
    r.err = file_text(err);
    return r;
  }
  // Every file from before byte-identical, and nothing else in its folder.
  void expect_untouched(const std::string& why) const {
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(file_text(files[i].string()), before[i]) << why << ": " << files[i];
      std::vector<std::string> names;
      for (const auto& e : fs::directory_iterator(dirs[i])) names.push_back(e.path().filename().string());
      EXPECT_EQ(names, std::vector<std::string>{files[i].filename().string()}) << why << ": stray files in " << dirs[i];
    }
  }
};

// The error: one line (no progress line before it, though the run is past 600 ticks),
// naming the file.
void expect_one_line(const Ran& r, const std::string& needle, const std::string& why) {
  EXPECT_EQ(r.code, 2) << why << "\n" << r.err;
  EXPECT_EQ(lines(r.err), 1) << why << "\n" << r.err;
  EXPECT_EQ(r.err.rfind("colony: ", 0), 0u) << why << "\n" << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << why << "\n" << r.err;
}

const bool kAll[3] = {true, true, true};

// A name longer than a file system allows, for each output in turn: refused before the
// run, one line naming the flag. It had passed the check (the probe beside it took a
// shorter name), the run went on, and the report had replaced the one there when the
// save's rename failed.
TEST(Outputs, ANameTooLongForEachOutputIsRefusedBeforeTheRun) {
  Outputs o("too_long");
  for (int k = 0; k < 3; ++k) {
    const fs::path saved = o.files[k];
    // A name of 300 bytes in a folder that exists.
    o.files[k] = o.dirs[k] / (std::string(300, 'n') + ".json");
    Ran r = o.run(o.args(700, kAll));
    o.files[k] = saved;
    expect_one_line(r, std::string(o.flags[k]) + ": ", o.flags[k]);
    EXPECT_NE(r.err.find("is 305 bytes long, more than the 255 a file name may have"), std::string::npos) << r.err;
    o.expect_untouched(std::string("name too long for ") + o.flags[k]);
    // A whole path past PATH_MAX, each of its parts short ("./" repeated: a folder that
    // exists all along).
    std::string deep;
    for (int i = 0; i < 2100; ++i) deep += "./";
    o.files[k] = o.dirs[k] / (deep + "x.out");
    r = o.run(o.args(700, kAll));
    o.files[k] = saved;
    expect_one_line(r, std::string(o.flags[k]) + ": ", o.flags[k]);
    EXPECT_NE(r.err.find("a path may have"), std::string::npos) << r.err;
    o.expect_untouched(std::string("path too long for ") + o.flags[k]);
  }
}

// A folder that takes no new entry: chmod for a user; for root, whom permissions do not
// stop, the immutable attribute. False when neither is possible here.
bool set_immutable(const fs::path& dir, bool on) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) return false;
  int flags = 0;
  bool ok = ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
  flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
  ok = ok && ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
  ::close(fd);
  return ok;
}
bool set_read_only(const fs::path& dir, bool read_only) {
  const bool root = ::geteuid() == 0;
  // The attribute forbids changing the permissions too: off before them, on after them.
  if (root && !read_only && !set_immutable(dir, false)) return false;
  fs::permissions(dir, read_only ? fs::perms::owner_read | fs::perms::owner_exec : fs::perms::owner_all);
  return !root || !read_only || set_immutable(dir, true);
}

// Each output's folder made read-only after every output was written and checked, right
// before they are put in place (the program stops itself there for the test): the outputs
// put in place before it get their previous content back, those after are never touched.
TEST(Outputs, AFolderMadeReadOnlyBeforeTheCommitChangesNothing) {
  Outputs o("read_only");
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(o.flags[k]);
    o.reset();
    const std::string err = (o.root / "stderr.txt").string();
    pid_t pid = colony_test::start_child(COLONY_BIN, o.args(700, kAll), err, {RLIM_INFINITY, "commit"});
    ASSERT_TRUE(colony_test::wait_stopped(pid)) << file_text(err);
    const bool made = set_read_only(o.dirs[k], true);
    // Writable again however the test leaves this scope: an immutable folder outlives the
    // process and nobody can remove it.
    struct Writable {
      const fs::path& dir;
      ~Writable() { set_read_only(dir, false); }
    } writable{o.dirs[k]};
    ::kill(pid, SIGCONT);
    Ran r;
    r.code = colony_test::wait_exit(pid);
    r.err = file_text(err);
    ASSERT_TRUE(set_read_only(o.dirs[k], false));
    if (!made) GTEST_SKIP() << "no way to make a folder read-only here";
    expect_one_line(r, o.files[k].string() + ": ", o.flags[k]);
    // The finished temporary in the read-only folder could not be removed from it; the
    // test removes it (anything else stray is a failure).
    for (const auto& e : fs::directory_iterator(o.dirs[k]))
      if (e.path() != o.files[k] && e.path().filename().string().rfind(o.files[k].filename().string() + ".", 0) == 0)
        fs::remove(e.path());
    o.expect_untouched(std::string("folder read-only for ") + o.flags[k]);
  }
}

// The disk full (the file-size limit, which the program meets as a write failing with
// EFBIG: SIGXFSZ is not ignored by the test, the program ignores it itself) while each
// output is written in turn: report, then save, then recording.
TEST(Outputs, AFullDiskAtEachOutputChangesNothing) {
  Outputs o("disk_full");
  // The sizes the outputs reach, from a run without a limit.
  Ran full = o.run(o.args(700, kAll));
  ASSERT_EQ(full.code, 0) << full.err;
  uintmax_t size[3];
  for (int i = 0; i < 3; ++i) size[i] = fs::file_size(o.files[i]);
  ASSERT_LT(size[0], size[1]) << "the report is written first and must fit where the save does not";
  for (int k = 0; k < 3; ++k) {
    SCOPED_TRACE(o.flags[k]);
    o.reset();
    // The outputs before k fit under the limit; k does not. A save larger than the
    // recording would fail first, so it stays out of the recording's case then.
    bool use[3] = {true, k != 2 || size[1] < size[2], true};
    uintmax_t fits = 0;
    for (int i = 0; i < k; ++i)
      if (use[i]) fits = std::max(fits, size[i]);
    ASSERT_LT(fits, size[k]);
    Ran r = o.run(o.args(700, use), {rlim_t(fits + (size[k] - fits) / 2), nullptr});
    expect_one_line(r, o.files[k].string() + ": write failed (" + std::strerror(EFBIG) + ")", o.flags[k]);
    o.expect_untouched(std::string("disk full at ") + o.flags[k]);
  }
}

// The run's progress line comes after the outputs are in place, never before an error.
TEST(Outputs, TheProgressLineFollowsTheOutputs) {
  Outputs o("progress");
  o.reset();
  Ran r = o.run(o.args(700, kAll));
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("tick 700/700"), std::string::npos) << r.err;
  EXPECT_EQ(nlohmann::json::parse(file_text(o.files[0].string()))["ticks"], 700);
}

}  // namespace
