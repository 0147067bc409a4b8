// history.h — the rewind history of a running world: keyframes of the whole world (the
// save format, serialized in memory and zstd-compressed) every few ticks, every input
// (player commands, the simulation region) with its tick, and what each tick was live (its
// digest every tick, its full state hash every few ticks and at every keyframe), over the
// last minute of game time or more.
//
// Going to a past tick restores the nearest keyframe at or before it and re-simulates to
// it with the recorded inputs, checking every re-simulated tick against what it was live.
// Memory is bounded (HistorySettings::max_bytes): past the bound old keyframes are thinned
// (their ticks are then reached by re-simulating further), never the recent ones.
//
// Per tick, the owner calls history_before_tick right before simulate_tick and
// history_after_tick right after it, as the replay recorder does. No SDL, no ImGui: the
// window's timeline and the headless --rewind-check both drive this.
#pragma once
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "game.h"
#include "replay.h"

namespace colony {

// [SECTION] Settings

struct HistorySettings {
  // The memory the keyframes may take (0: default_history_bytes()).
  u64 max_bytes = 0;
  // Ticks between keyframes (0: picked from the world's size, see keyframe_interval).
  u32 keyframe_ticks = 0;
  // How long the history reaches back at most, in ticks (older keyframes and inputs go).
  u64 keep_ticks = 5 * 60 * kTicksPerSecond;
  // Keyframes are compressed on a thread of their own, from the save the tick wrote (the
  // tick itself only serializes the world); false compresses them in the tick.
  bool background = true;
};
// At most 256 MB, or an eighth of the memory budget (memory_budget()) when that is less.
u64 default_history_bytes();
// The history must hold a minute of game time: its keyframes every `ticks` ticks, each of
// about `keyframe_bytes`, must fit a minute in half of max_bytes. Returns at least 60.
u32 keyframe_interval(u64 keyframe_bytes, u64 max_bytes);

// [SECTION] What the history holds

// A keyframe's compression, done on its own thread: the bytes and the CPU time it took.
struct Compressed {
  std::vector<std::uint8_t> bytes;
  double cpu_ms = 0;
};
struct Keyframe {
  u64 tick = 0;
  std::vector<std::uint8_t> zstd;  // zstd of a whole save file (uncompressed inside)
  u64 save_bytes = 0;              // the save's size before compression
  // While its compression runs on another thread: the save itself (restores read it), and
  // the compressor's result to come.
  std::shared_ptr<const std::vector<std::uint8_t>> save;
  std::future<Compressed> compressing;
  u64 counted = 0;  // what History::keyframe_bytes counts for it (an estimate until compressed)
};

// What the timeline marks: explosions, fires lit, ants spawned (a command or a scenario
// event), and ticks whose deaths make a mass release (at least kMassRelease ants).
enum class MarkerKind : std::uint8_t { Bomb = 0, Fire, Spawn, Release, Count };
const char* marker_kind_name(MarkerKind k);
inline constexpr u32 kMassRelease = 20;
struct Marker {
  u64 tick = 0;  // the tick it happened in (the world reads tick + 1 after it)
  MarkerKind kind = MarkerKind::Bomb;
  u32 count = 0;  // bombs, fires, ants spawned or dead in that tick
};

struct History {
  HistorySettings settings;
  u64 max_bytes = 0;                // settings.max_bytes resolved
  u32 interval = 60;                // ticks between keyframes now
  u32 hash_interval = 1;            // a full state hash after every this many ticks (as the recorder's)
  std::deque<Keyframe> keyframes;   // tick order; the first is the history's start
  u64 keyframe_bytes = 0;           // their compressed bytes together
  std::vector<ReplayEvent> inputs;  // tick order: commands queued for, and regions set before, each tick
  // Per tick t in (first, last]: the state after the tick that ends at t.
  std::deque<u64> digests;  // digests[t - first - 1] = tick_digest
  std::deque<u64> hashes;   // hashes[t - first - 1] = state_hash, or 0 when none was taken
  std::vector<Marker> markers;
  u64 first = 0, last = 0;  // the ticks the history spans (restorable: first..last)
  float last_region[4] = {};
  // Measured (ms of the thread's CPU time): the slowest keyframe's time in the tick that
  // took it (the serialization, and the compression too when not in the background), and
  // the slowest compression; how many keyframes were thinned away.
  double slowest_keyframe_ms = 0, slowest_compress_ms = 0;
  u64 thinned = 0;
  // Re-simulation checks: ticks compared, and the first mismatch ("tick T: ...", "" none).
  u64 checked_ticks = 0;
  std::string mismatch;
  // In debug builds a mismatch also fails an assertion (tests of the mismatch line turn
  // it off).
  bool assert_match = true;

  // Save buffers whose compression is done, kept for the next keyframes: a buffer already
  // the size of a save is written without growing or faulting in fresh pages.
  std::vector<std::shared_ptr<std::vector<std::uint8_t>>> spare_saves;

  // Scratch between before_tick and after_tick.
  std::vector<u64> event_next_before;
  u64 died_before = 0, blasts_seen_tick = 0;
  u32 commands_bombs = 0;
};

// [SECTION] Recording

// Starts the history at the world as it is now (its first keyframe). False with *err when
// the world cannot be serialized, or when its save is larger than half the bound: the
// history's working buffers (the save being compressed, one kept for the next) are each a
// save's size, so such a world keeps no history and says so.
bool history_start(History& h, const Game& g, std::string* err, const HistorySettings& settings = {});
void history_before_tick(History& h, const Game& g);
void history_after_tick(History& h, const Game& g);
// Seconds of game time the history holds.
double history_seconds(const History& h);
// The bytes it keeps: keyframes, inputs, digests and hashes (what the bound counts).
u64 history_bytes(const History& h);
// The working buffers beside them: saves being compressed, and the one kept for the next.
u64 history_working_bytes(const History& h);

// [SECTION] Going back

// The world as it was at `tick` (first <= tick <= last): the nearest keyframe at or
// before it, re-simulated. nullptr with *err when the tick is outside the history, a
// keyframe does not load, or a re-simulated tick differs from its live self (also noted
// in h.mismatch). With `journal`, the engine's release journal is on through the
// re-simulation (which then includes the tick ending at `tick`), so the releases of the
// ticks re-simulated can be replayed move by move.
std::unique_ptr<Game> history_restore(History& h, u64 tick, std::string* err, bool journal = false);
// Re-simulates g (a restored world inside the history, g.tick < last) one tick with the
// recorded inputs and checks it. False on a mismatch (h.mismatch says where).
bool history_step(History& h, Game& g);
// The hash the world had live after the tick ending at `tick`, when one was taken (0 when not).
u64 history_live_hash(const History& h, u64 tick);
// Forgets everything after g.tick: the future of a fork (g, a restored world, plays on
// from there and is recorded from its tick and region).
void history_cut_after(History& h, const Game& g);

// [SECTION] The headless check

// Rewinds to `count` ticks of the history picked by `seed` and re-simulates each, comparing
// digests and hashes with the live ones. Returns the mismatches (empty: all equal);
// *checked gets how many ticks were compared.
std::vector<std::string> history_check(History& h, u32 count, u64 seed, u64* checked = nullptr);

}  // namespace colony
