// scratch.h — one folder per test process for the files its tests write (saves, reports,
// recordings, screenshots, pipes), removed with everything in it when the process exits,
// so that runs of the suite leave nothing behind in the system's temporary folder.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace colony_test {

// The folder, made on first use: <gtest temp dir>/colony_test_<pid>.
inline const std::filesystem::path& scratch_dir() {
  struct Folder {
    std::filesystem::path path;
    Folder() : path(std::filesystem::path(testing::TempDir()) / ("colony_test_" + std::to_string(::getpid()))) {
      std::filesystem::remove_all(path);
      std::filesystem::create_directories(path);
    }
    ~Folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Folder folder;
  return folder.path;
}

// A path named `name` in the scratch folder, with nothing there yet.
inline std::string scratch_path(const std::string& name) {
  std::filesystem::path p = scratch_dir() / name;
  std::error_code ec;
  std::filesystem::remove_all(p, ec);
  return p.string();
}

}  // namespace colony_test
