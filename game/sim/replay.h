// replay.h — recording every player action with its tick, and playing it back so the
// world reaches the same state hash at every checked tick.
//
// What changes a running world from outside is exactly: the commands queued between
// ticks (tools, spawns, kill-percent; game.h's Command) and the simulation region (the
// camera). The recorder notes both right before each tick; after every tick it notes a
// tick digest (tick, random streams, colony counters, every pool's counts and the bodies
// of the simulated entities: cheap next to the tick itself) and, every hash_interval
// ticks, the full state hash (which walks every entity, tiles and dormant chunks too:
// ~0.3 us each, so a large world is fully hashed less often). A divergence shows in the
// digest at the tick it happens (dormant-only changes at the next full hash). A replay file carries the complete save
// of the world it started from, so playback needs no scenario file and cannot start from the wrong world.
//
// File layout: magic "COLONYRP" | u32 version | u32 flags (0) | u64 body bytes |
//   u64 XXH3-64 of the body | body. The body: hash interval, start tick, ticks recorded,
//   the starting save (a whole save file), the events (tick, command or region), the
//   state hashes (one per hash interval, after the tick), the tick digests (one per tick).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "files.h"
#include "game.h"
#include "save.h"

namespace colony {

inline constexpr std::uint32_t kReplayVersion = 1;
inline constexpr char kReplayMagic[8] = {'C', 'O', 'L', 'O', 'N', 'Y', 'R', 'P'};

// One recorded input: a command queued for tick `tick`, or the region set before it.
struct ReplayEvent {
  enum Type : std::uint8_t { Command = 0, Region = 1 };
  std::uint64_t tick = 0;
  Type type = Command;
  colony::Command command;
  float region[4] = {};  // x, y, w, h
};

struct Replay {
  std::uint32_t hash_interval = 1;  // a full state hash after every this many ticks
  std::uint64_t start_tick = 0;
  std::uint64_t ticks = 0;               // ticks recorded
  std::vector<std::uint8_t> start_save;  // the save file of the starting world
  std::vector<ReplayEvent> events;       // in tick order
  std::vector<std::uint64_t> hashes;     // hashes[i]: state after tick start + (i+1) * interval
  std::vector<std::uint64_t> digests;    // digests[i]: tick_digest after tick start + i + 1
};

// A cheap digest of what every tick changes (tick, random streams, colony counters,
// every pool's taken and total counters, entity counts, pending commands, the bodies of
// the simulated entities).
std::uint64_t tick_digest(const Game& g);

// Records a running game. Call before_tick right before simulate_tick and after_tick
// right after it.
struct Recorder {
  Replay replay;
  float last_region[4] = {};

  // Starts recording from the world as it is now. hash_interval 0 picks one from the
  // world's size: every tick up to 1,000 entities, then one tick more per thousand
  // (the default map: every ~26 ticks), at most every 60th tick.
  bool start(const Game& g, std::string* err, std::uint32_t hash_interval = 0);
  void before_tick(const Game& g);
  void after_tick(const Game& g);
  // A fork: g, a world restored at an earlier tick of the recording, plays on from its
  // tick. The recording forgets what it holds after that tick and goes on from g, so it
  // plays back to the forked future.
  void cut_after(const Game& g);
  // Writes the file (temporary file + rename). False with "<path>: <problem>".
  bool write(const std::string& path, std::string* err) const;
  // Writes into a file opened by the caller and closes it without committing it.
  bool write(PendingFile& file, std::string* err) const;
};

// The files a run ends with. Each is written to a temporary file beside it and flushed
// to the disk, then all are put in place together (commit_all), so a failure at any step
// changes none of them.
// An empty path (or no recorder) skips that file.
struct RunOutputs {
  std::string report, report_text;  // --report and its JSON
  std::string save;                 // --save
  std::string record;               // --record, written from recorder
  const Recorder* recorder = nullptr;
};
// False with "<path>: <problem>" in *err; *saved gets the save's sizes.
bool write_run_outputs(const Game& g, const RunOutputs& o, std::string* err, SaveStats* saved = nullptr);

// Plays a replay back into the game built from its starting save.
struct Replayer {
  Replay replay;
  size_t next_event = 0;
  std::uint64_t verified = 0;  // full state hashes compared equal so far
  std::uint64_t checked = 0;   // ticks whose digest compared equal so far
  bool diverged = false;
  std::string divergence;  // "tick T: state hash X, recorded Y" (or "tick digest")
  float region[4] = {};    // the recorded simulation region in force

  // Builds the starting world. nullptr with *err on failure.
  std::unique_ptr<Game> start_game(const std::string& name, std::string* err);
  // Replaces whatever the player queued with the recorded commands for this tick, and
  // sets the recorded region (whatever the camera asked for).
  void before_tick(Game& g);
  // Compares the tick digest, and the state hash when one was recorded for this tick.
  // False on divergence.
  bool after_tick(const Game& g);
  bool finished(const Game& g) const { return g.tick >= replay.start_tick + replay.ticks; }
  std::uint64_t end_tick() const { return replay.start_tick + replay.ticks; }
  // The line a finished replay prints: what matched, through the last recorded tick
  // played, and what happened past it. `stopped` says how a run ended early ("closed"
  // for the window, "stopped" for --ticks).
  std::string summary(const std::string& name, std::uint64_t tick, const char* stopped) const;
};

// Encodes / decodes a replay file. Decoding checks everything (also the embedded save's
// header); errors are one line "<name>: <problem>".
std::vector<std::uint8_t> encode_replay(const Replay& r);
bool decode_replay(const std::uint8_t* data, size_t size, const std::string& name, Replay& out, std::string* err);
bool load_replay(const std::string& path, Replayer& out, std::string* err);

}  // namespace colony
