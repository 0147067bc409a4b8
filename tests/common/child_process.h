// child_process.h — the colony executable as a child process the test holds by its pid:
// started with a file-size limit (RLIMIT_FSIZE, the disk-full stand-in) or stopped at one
// of the program's test stop points (COLONY_STOP_AT, files.h), continued, killed, waited
// for. stderr goes to a file the test reads; no window ever opens (offscreen driver).
#pragma once
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace colony_test {

struct ChildOptions {
  rlim_t file_size_limit = RLIM_INFINITY;  // bytes a file may grow to
  const char* stop_at = nullptr;           // COLONY_STOP_AT
};

// Starts `exe` with args; stderr to err_path. The pid (or -1).
inline pid_t start_child(const std::string& exe, const std::vector<std::string>& args, const std::string& err_path,
                         const ChildOptions& o = {}) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), nul = ::open("/dev/null", O_RDWR);
  ::dup2(nul, 0), ::dup2(nul, 1), ::dup2(err, 2);
  if (o.file_size_limit != RLIM_INFINITY) {
    struct rlimit rl {
      o.file_size_limit, o.file_size_limit
    };
    ::setrlimit(RLIMIT_FSIZE, &rl);
  }
  if (o.stop_at) ::setenv("COLONY_STOP_AT", o.stop_at, 1);
  else ::unsetenv("COLONY_STOP_AT");
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  ::execv(exe.c_str(), argv.data());
  ::_exit(127);
}

// Waits until the child stops itself (true) or ends (false).
inline bool wait_stopped(pid_t pid) {
  int status = 0;
  if (::waitpid(pid, &status, WUNTRACED) != pid) return false;
  return WIFSTOPPED(status);
}

// Waits for the child's end: its exit code, or 128 + the signal that ended it.
inline int wait_exit(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) == pid) {
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  }
  return -1;
}

inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace colony_test
