// scratch.h — one folder per test process for the files its tests write (saves, reports,
// recordings, screenshots, pipes), removed with everything in it when the process exits,
// so that runs of the suite leave nothing behind in the system's temporary folder.
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include <filesystem>
#include <string>
#include <system_error>

namespace colony_test {

// The folder, made on first use: <gtest temp dir>/colony_test_<pid>_<six random
// characters> (mkdtemp), a new one whatever an earlier process with the same pid left
// (a run killed while a folder in it was immutable leaves one nobody can remove).
inline const std::filesystem::path& scratch_dir() {
  struct Folder {
    std::filesystem::path path;
    Folder() {
      std::string name =
          (std::filesystem::path(testing::TempDir()) / ("colony_test_" + std::to_string(::getpid()) + "_XXXXXX"))
              .string();
      if (!::mkdtemp(name.data()))
        throw std::filesystem::filesystem_error("mkdtemp", name, std::error_code(errno, std::generic_category()));
      path = name;
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
