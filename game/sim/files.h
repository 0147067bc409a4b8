// files.h — reading and writing the game's files: scenarios, saves, replays, reports.
//
// Reading takes regular files only: a pipe, a device or a folder is refused by name
// instead of blocking or reading forever. Writing goes through a PendingFile: the bytes
// go to a temporary file beside the destination, flushed to the disk, which replaces the
// destination only on commit(), so a failed, abandoned or killed write leaves whatever was
// there before untouched. Several files commit together (commit_all): all of them are put
// in place, or, when one cannot be, none is changed.
// Every error is one line, "<path>: <problem>".
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace colony {

// A look at a file's first bytes before the rest is read: its header (up to `bytes` of
// it, less when the file is shorter) and the file's size; "" to read on, or the problem
// (a file that is no save is refused before a gigabyte of it is read).
struct HeadCheck {
  size_t bytes = 0;
  std::function<std::string(const std::uint8_t* head, size_t n, std::uint64_t file_size)> check;
};

// Reads a whole regular file of at most max_bytes, after its head passes `head`. Returns
// "" or the problem (missing, a folder, not a regular file, too large, unreadable, or the
// head's), without the path.
std::string read_regular_file(const std::string& path, std::vector<std::uint8_t>& out,
                              std::uint64_t max_bytes = ~std::uint64_t(0), const HeadCheck& head = {});
// The same, false with "<path>: <problem>" in *err.
bool read_file_bytes(const std::string& path, std::vector<std::uint8_t>& out, std::string* err,
                     std::uint64_t max_bytes = ~std::uint64_t(0), const HeadCheck& head = {});

// Why path cannot be read as a regular file, or "" when it can (nothing is read).
std::string why_not_readable(const std::string& path);

// Why path cannot be written, or "" when it can: each part of its name within the
// length the file system allows a name and the whole within the length of a path, its
// folder existing and taking a new file (checked by creating and removing the temporary
// a write makes there), and what the path names now, if anything, a regular file.
// Nothing is left behind.
std::string why_not_writable(const std::string& path);

class PendingFile;
// Puts every closed file in `files` in place, all or none: each file a path named before
// is linked aside first, and when a later file cannot be put in place the earlier ones
// get their previous content back (or are removed when there was none). SIGINT, SIGTERM
// and SIGHUP wait until it is over. Null entries are skipped. False with
// "<path>: <problem>" for the file that failed.
bool commit_all(PendingFile* const* files, size_t n, std::string* err);

// A pause for tests that act between two steps of a run: when the environment variable
// COLONY_STOP_AT names `point` (a comma-separated list), the process stops itself
// (SIGSTOP) there until SIGCONT. Points: "outputs" (before the outputs are written),
// "commit" (written, not yet in place), "committed" (in place, or put back).
void stop_point_for_tests(const char* point);

// A file being written under a unique temporary name beside path ("<path>.XXXXXX").
// commit() moves it over path; destroyed without a commit, the temporary is removed.
// A path that is a symbolic link is written to the file the link names (the link stays).
// While a temporary exists, SIGINT, SIGTERM and SIGHUP remove it before the process ends
// as the signal would have ended it: an interrupted run leaves no stray file.
class PendingFile {
 public:
  PendingFile() = default;
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;
  ~PendingFile();

  // Creates the temporary. False with "<path>: cannot create ..." in *err.
  bool open(const std::string& path, std::string* err);
  FILE* stream() const { return file_; }
  // Flushes the temporary to the disk (fsync) and closes it; false with
  // "<path>: write failed (...)" if any write since open() failed. `problem` overrides the
  // system's reason when not empty.
  bool close(std::string* err, const std::string& problem = "");
  // Renames the closed temporary over path (commit_all of this one file).
  bool commit(std::string* err);
  const std::string& path() const { return path_; }

 private:
  std::string path_, temp_;
  FILE* file_ = nullptr;
  bool failed_ = false;
  int interrupt_slot_ = -1;  // where the signal handler finds temp_ (-1: not registered)

  friend bool commit_all(PendingFile* const* files, size_t n, std::string* err);
};

// A file name as an error line can show it: control characters and bytes that are not
// UTF-8 become \xNN escapes, so the message stays one readable line.
std::string printable(const std::string& text);

}  // namespace colony
