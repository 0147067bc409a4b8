// files.cpp — regular files read whole, files written through a temporary and a rename,
// and file names made printable for one-line errors.
#include "files.h"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>

namespace colony {

namespace {

std::string reason() { return std::strerror(errno); }

// The temporary's name pattern beside path, for mkstemp: the file's name and a 7-byte
// suffix, the name cut short where the two would pass the 255 bytes a file system allows
// a name (so that any legal name, 250 bytes say, can be written).
std::string temp_pattern(const std::string& path) {
  constexpr size_t kMaxName = 255, kSuffix = 7;
  const std::filesystem::path p(path);
  std::string name = p.filename().string();
  if (name.size() + kSuffix > kMaxName) name.resize(kMaxName - kSuffix);
  return (p.parent_path() / (name + ".XXXXXX")).string();
}

// How many symbolic links a write follows before it calls them a loop (as the kernel does).
constexpr int kMaxLinkHops = 40;

// Where a write to path lands: a symbolic link is followed, link by link, to the file it
// names, whether or not that file exists yet, so that the finished file replaces (or
// becomes) that file and the link stays: renaming over the link itself would replace it
// with a plain file. A chain that does not end (a loop) ends at a link, which
// why_not_writable refuses.
std::string write_target(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = path;
  for (int hop = 0; hop < kMaxLinkHops && fs::is_symlink(fs::symlink_status(p, ec)); ++hop) {
    fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  return p.string();
}

// Temporaries removed on an interrupt. A fixed table the signal handler reads: a slot's
// path is written before the slot is marked used, and the handler only calls unlink, which
// is safe in a signal handler. The handlers are installed while any slot is used and the
// ones before them put back after. SIGXFSZ (a write past the file-size limit, ulimit -f)
// is ignored meanwhile: the write then fails with EFBIG, and the run says so in its one
// line and removes the temporary, where the signal would have killed it and left the
// temporary behind.
constexpr int kInterruptSlots = 8, kInterruptPathBytes = 4096;
constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};
char interrupt_paths[kInterruptSlots][kInterruptPathBytes];
volatile std::sig_atomic_t interrupt_used[kInterruptSlots];
struct sigaction interrupt_previous[std::size(kInterruptSignals)];
struct sigaction file_size_previous;
int interrupt_count = 0;

void remove_temporaries_and_end(int sig) {
  for (int i = 0; i < kInterruptSlots; ++i)
    if (interrupt_used[i]) ::unlink(interrupt_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// A slot for temp, or -1 when the table is full or the name too long (it then is only
// removed by the destructor).
int register_temporary(const std::string& temp) {
  if (temp.size() >= size_t(kInterruptPathBytes)) return -1;
  for (int i = 0; i < kInterruptSlots; ++i) {
    if (interrupt_used[i]) continue;
    std::memcpy(interrupt_paths[i], temp.c_str(), temp.size() + 1);
    interrupt_used[i] = 1;
    if (interrupt_count++ == 0) {
      struct sigaction sa {};
      sa.sa_handler = remove_temporaries_and_end;
      sigemptyset(&sa.sa_mask);
      for (size_t k = 0; k < std::size(kInterruptSignals); ++k)
        ::sigaction(kInterruptSignals[k], &sa, &interrupt_previous[k]);
      struct sigaction ignore {};
      ignore.sa_handler = SIG_IGN;
      sigemptyset(&ignore.sa_mask);
      ::sigaction(SIGXFSZ, &ignore, &file_size_previous);
    }
    return i;
  }
  return -1;
}

void unregister_temporary(int& slot) {
  if (slot < 0) return;
  interrupt_used[slot] = 0;
  slot = -1;
  if (--interrupt_count == 0) {
    for (size_t k = 0; k < std::size(kInterruptSignals); ++k)
      ::sigaction(kInterruptSignals[k], &interrupt_previous[k], nullptr);
    ::sigaction(SIGXFSZ, &file_size_previous, nullptr);
  }
}

// Why the system would refuse to create path for its length, or "": each part of it at
// most the bytes a name may have in its folder (pathconf, 255 on the usual file
// systems), the whole shorter than a path may be (PATH_MAX with its terminating zero).
// The rename that puts a finished file in place uses this very name, so a name passing
// here is one the commit can create.
std::string name_length_problem(const std::string& path, const std::string& folder) {
  long name_max = ::pathconf(folder.c_str(), _PC_NAME_MAX);
  if (name_max <= 0) name_max = 255;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (end - start > size_t(name_max))
      return "the name " + printable(path.substr(start, 40)) + "... is " + std::to_string(end - start) +
             " bytes long, more than the " + std::to_string(name_max) + " a file name may have";
    start = end + 1;
  }
  if (path.size() >= size_t(PATH_MAX))
    return "the path is " + std::to_string(path.size()) + " bytes long, more than the " + std::to_string(PATH_MAX - 1) +
           " a path may have";
  // Whatever else the system finds too long (it speaks last).
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 && errno == ENAMETOOLONG) return "the name is too long (" + reason() + ")";
  return {};
}

// Opens path for reading if it is a regular file: fd and size are set and "" returned,
// or the problem. Opened without blocking, so that a pipe with no writer cannot hang the
// open itself; the type is read from the open file, not from the name.
std::string open_regular(const std::string& path, int& fd, std::uint64_t& size) {
  fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? "cannot open (no such file)" : "cannot open (" + reason() + ")";
  struct stat st {};
  std::string problem;
  if (::fstat(fd, &st) != 0) problem = "cannot read (" + reason() + ")";
  else if (S_ISDIR(st.st_mode)) problem = "is a folder, not a file";
  else if (!S_ISREG(st.st_mode)) problem = "not a regular file (a pipe, socket or device)";
  if (!problem.empty()) ::close(fd);
  size = std::uint64_t(st.st_size);
  return problem;
}

}  // namespace

std::string why_not_readable(const std::string& path) {
  int fd = -1;
  std::uint64_t size = 0;
  std::string problem = open_regular(path, fd, size);
  if (problem.empty()) ::close(fd);
  return problem;
}

// Reads up to n bytes into to; how many it got (fewer at the end of the file or on an error).
size_t read_up_to(int fd, std::uint8_t* to, size_t n) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = ::read(fd, to + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += size_t(r);
  }
  return got;
}

std::string read_regular_file(const std::string& path, std::vector<std::uint8_t>& out, std::uint64_t max_bytes,
                              const HeadCheck& head) {
  int fd = -1;
  std::uint64_t size = 0;
  if (std::string problem = open_regular(path, fd, size); !problem.empty()) return problem;
  // The head first, then (once it passed) the rest after it.
  const char* shrank = "cannot read (the file shrank or a read failed)";
  out.resize(size_t(std::min<std::uint64_t>(head.check ? head.bytes : 0, size)));
  const size_t have = out.size();
  std::string problem;
  if (read_up_to(fd, out.data(), have) != have) problem = shrank;
  else if (head.check) problem = head.check(out.data(), have, size);
  if (problem.empty() && size > max_bytes)
    problem = "too large (" + std::to_string(size) + " bytes, at most " + std::to_string(max_bytes) + ")";
  if (problem.empty()) {
    out.resize(size_t(size));
    if (read_up_to(fd, out.data() + have, out.size() - have) != out.size() - have) problem = shrank;
  }
  ::close(fd);
  return problem;
}

bool read_file_bytes(const std::string& path, std::vector<std::uint8_t>& out, std::string* err, std::uint64_t max_bytes,
                     const HeadCheck& head) {
  std::string problem = read_regular_file(path, out, max_bytes, head);
  if (problem.empty()) return true;
  if (err) *err = printable(path) + ": " + problem;
  return false;
}

std::string why_not_writable(const std::string& given) {
  if (given.empty()) return "empty file name";
  const std::string path = write_target(given);
  std::error_code ec;
  if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec))) return "symbolic links in a loop";
  auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) return "is a folder";
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    return "not a regular file (a pipe, socket or device)";
  auto parent = std::filesystem::path(path).parent_path();
  // The length first: a path too long names no folder the system would look into.
  if (std::string too_long = name_length_problem(path, parent.empty() ? "." : parent.string()); !too_long.empty())
    return too_long;
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    return "folder does not exist: " + printable(parent.string());
  std::string probe = temp_pattern(path);
  int fd = ::mkstemp(probe.data());
  if (fd < 0) return "cannot create a file there (" + reason() + ")";
  ::close(fd);
  ::unlink(probe.c_str());
  return {};
}

PendingFile::~PendingFile() {
  if (file_) std::fclose(file_);
  if (!temp_.empty()) ::unlink(temp_.c_str());
  unregister_temporary(interrupt_slot_);
}

bool PendingFile::open(const std::string& path, std::string* err) {
  path_ = path;
  std::string temp = temp_pattern(write_target(path));
  int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    if (err) *err = printable(path) + ": cannot create a temporary file beside it (" + reason() + ")";
    return false;
  }
  // mkstemp makes the file private (0600); a finished file gets the usual permissions.
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  temp_ = temp;
  interrupt_slot_ = register_temporary(temp_);
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    if (err) *err = printable(path) + ": cannot write (" + reason() + ")";
    return false;
  }
  return true;
}

bool PendingFile::close(std::string* err, const std::string& problem) {
  if (!file_) {
    if (err) *err = printable(path_) + ": write failed (not open)";
    return false;
  }
  bool ok = !std::ferror(file_);
  ok = std::fflush(file_) == 0 && ok;
  // On the disk before it replaces anything: a crash after the rename finds the whole file.
  ok = ok && ::fsync(::fileno(file_)) == 0;
  int saved = errno;
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (ok && problem.empty()) return true;
  failed_ = true;
  if (err)
    *err = printable(path_) + ": write failed (" +
           (problem.empty() ? std::string(std::strerror(saved ? saved : errno)) : problem) + ")";
  return false;
}

bool PendingFile::commit(std::string* err) {
  PendingFile* self = this;
  return commit_all(&self, 1, err);
}

namespace {

// The folder of path flushed to the disk, so that the renames in it last through a crash.
void sync_folder(const std::string& path) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A second name for the file at target, beside it ("<name>.XXXXXX"), so that it can be
// put back after target has been replaced. The new name in `aside`; "" or the problem.
std::string link_aside(const std::string& target, std::string& aside) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    aside = temp_pattern(target);
    int fd = ::mkstemp(aside.data());
    if (fd < 0) return "cannot keep the previous file aside (" + reason() + ")";
    ::close(fd);
    ::unlink(aside.c_str());
    if (::link(target.c_str(), aside.c_str()) == 0) return {};
    if (errno != EEXIST) return "cannot keep the previous file aside (" + reason() + ")";
  }
  return "cannot keep the previous file aside (no free name)";
}

// The interrupts a commit holds back, so that it is never left half done by one.
sigset_t interrupt_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kInterruptSignals) sigaddset(&set, sig);
  return set;
}

}  // namespace

bool commit_all(PendingFile* const* files, size_t n, std::string* err) {
  for (size_t i = 0; i < n; ++i) {
    const PendingFile* f = files[i];
    if (f && (f->file_ || f->failed_ || f->temp_.empty())) {
      if (err) *err = printable(f->path_) + ": nothing to commit (the write failed or was not closed)";
      return false;
    }
  }
  stop_point_for_tests("commit");
  const sigset_t held = interrupt_set();
  sigset_t before;
  ::sigprocmask(SIG_BLOCK, &held, &before);
  // Each file in turn: its previous content linked aside, then the new one renamed over it.
  struct Step {
    size_t file;
    std::string target, aside;  // aside: "" when no file was there
  };
  std::vector<Step> done;
  done.reserve(n);
  std::string problem;
  size_t failed = n;
  for (size_t i = 0; i < n && problem.empty(); ++i) {
    PendingFile* f = files[i];
    if (!f) continue;
    Step step{i, write_target(f->path_), {}};
    struct stat st {};
    if (::lstat(step.target.c_str(), &st) == 0) problem = link_aside(step.target, step.aside);
    if (problem.empty() && ::rename(f->temp_.c_str(), step.target.c_str()) != 0) {
      problem = "cannot move the finished file into place (" + reason() + ")";
      if (!step.aside.empty()) ::unlink(step.aside.c_str());
    }
    if (!problem.empty()) {
      failed = i;
      break;
    }
    done.push_back(step);
  }
  // A failure puts back what was there before, the latest first.
  std::string not_restored;
  if (!problem.empty()) {
    for (size_t k = done.size(); k-- > 0;) {
      const Step& s = done[k];
      bool back = s.aside.empty() ? ::unlink(s.target.c_str()) == 0 : ::rename(s.aside.c_str(), s.target.c_str()) == 0;
      if (!back && not_restored.empty())
        not_restored = "; and " + printable(s.target) + " could not be put back (" + reason() + ")" +
                       (s.aside.empty() ? "" : ", its previous content is in " + printable(s.aside));
    }
  } else {
    for (const Step& s : done) {
      if (!s.aside.empty()) ::unlink(s.aside.c_str());
      sync_folder(s.target);
    }
  }
  // The temporaries renamed are gone either way (put in place, or put back and removed).
  for (const Step& s : done) {
    files[s.file]->temp_.clear();
    unregister_temporary(files[s.file]->interrupt_slot_);
  }
  ::sigprocmask(SIG_SETMASK, &before, nullptr);
  stop_point_for_tests("committed");
  if (!problem.empty() && err) *err = printable(files[failed]->path_) + ": " + problem + not_restored;
  return problem.empty();
}

void stop_point_for_tests(const char* point) {
  const char* want = std::getenv("COLONY_STOP_AT");
  if (!want) return;
  // A comma-separated list of points.
  const size_t n = std::strlen(point);
  for (const char* at = want; (at = std::strstr(at, point)) != nullptr; at += n) {
    const bool starts = at == want || at[-1] == ',', ends = at[n] == '\0' || at[n] == ',';
    if (starts && ends) {
      std::raise(SIGSTOP);
      return;
    }
  }
}

std::string printable(const std::string& text) {
  std::string out;
  auto escape = [&](unsigned char c) {
    static const char* kHex = "0123456789abcdef";
    out += "\\x";
    out += kHex[c >> 4];
    out += kHex[c & 15];
  };
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t n = text.size();
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    if (c < 0x20 || c == 0x7f) {
      escape(c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      out += char(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length from the lead byte, then continuation bytes only
    // (overlong two-byte forms and stray continuation bytes are escaped).
    size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    bool ok = len != 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) ok = (s[i + k] & 0xc0) == 0x80;
    if (!ok) {
      escape(c);
      ++i;
      continue;
    }
    out.append(text, i, len);
    i += len;
  }
  return out;
}

}  // namespace colony
