// files.cpp — regular files read whole, files written through a temporary and a rename,
// and file names made printable for one-line errors.
#include "files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <iterator>

namespace colony {

namespace {

std::string reason() { return std::strerror(errno); }

// The temporary's name pattern beside path, for mkstemp: the file's name and a 7-byte
// suffix, the name cut short where the two would pass the 255 bytes a file system allows
// a name (a legal 250-byte name had been refused).
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
      for (size_t k = 0; k < std::size(kInterruptSignals); ++k) ::sigaction(kInterruptSignals[k], &sa, &interrupt_previous[k]);
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
    for (size_t k = 0; k < std::size(kInterruptSignals); ++k) ::sigaction(kInterruptSignals[k], &interrupt_previous[k], nullptr);
    ::sigaction(SIGXFSZ, &file_size_previous, nullptr);
  }
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
  if (problem.empty() && size > max_bytes) problem = "too large (" + std::to_string(size) + " bytes, at most " + std::to_string(max_bytes) + ")";
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
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return "not a regular file (a pipe, socket or device)";
  auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec)) return "folder does not exist: " + printable(parent.string());
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
  int saved = errno;
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (ok && problem.empty()) return true;
  failed_ = true;
  if (err) *err = printable(path_) + ": write failed (" + (problem.empty() ? std::string(std::strerror(saved ? saved : errno)) : problem) + ")";
  return false;
}

bool PendingFile::commit(std::string* err) {
  if (file_ || failed_ || temp_.empty()) {
    if (err) *err = printable(path_) + ": nothing to commit (the write failed or was not closed)";
    return false;
  }
  if (std::rename(temp_.c_str(), write_target(path_).c_str()) != 0) {
    if (err) *err = printable(path_) + ": cannot move the finished file into place (" + reason() + ")";
    return false;
  }
  temp_.clear();
  unregister_temporary(interrupt_slot_);
  return true;
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
    if (c < 0x20 || c == 0x7f) { escape(c); ++i; continue; }
    if (c < 0x80) { out += char(c); ++i; continue; }
    // A UTF-8 sequence: its length from the lead byte, then continuation bytes only
    // (overlong two-byte forms and stray continuation bytes are escaped).
    size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    bool ok = len != 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) ok = (s[i + k] & 0xc0) == 0x80;
    if (!ok) { escape(c); ++i; continue; }
    out.append(text, i, len);
    i += len;
  }
  return out;
}

}  // namespace colony
