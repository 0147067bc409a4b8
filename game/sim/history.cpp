// history.cpp — keyframes, inputs and live hashes of the recent past; restoring a past
// tick by re-simulating from the nearest keyframe; the headless rewind check.
//
// Table of contents
//   [SECTION] Settings
//   [SECTION] Keyframes (save bytes, zstd)
//   [SECTION] Bounds (thinning old keyframes, the history's reach)
//   [SECTION] Recording
//   [SECTION] Going back
//   [SECTION] The headless check
#include "history.h"

#include <zstd.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <ctime>

#include "random.h"
#include "save.h"

namespace colony {

namespace {

std::string hex(u64 v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

// A full state hash walks every entity: worlds hash every tick up to this many entities,
// then once per this many more, at most every kMaxHashInterval ticks (the recorder's rule).
constexpr u32 kEntitiesPerHashedTick = 1000;
constexpr u32 kMaxHashInterval = 60;

}  // namespace

// [SECTION] Settings

const char* marker_kind_name(MarkerKind k) {
  switch (k) {
    case MarkerKind::Bomb: return "bomb";
    case MarkerKind::Fire: return "fire";
    case MarkerKind::Spawn: return "spawn";
    case MarkerKind::Release: return "mass release";
    default: return "?";
  }
}

u64 default_history_bytes() {
  const u64 cap = u64(256) << 20;
  MemoryBudget b = memory_budget();
  if (!b.problem.empty() || b.bytes <= 0) return cap;
  return std::min(cap, u64(b.bytes / 8));
}

u32 keyframe_interval(u64 keyframe_bytes, u64 max_bytes) {
  const u64 minute = 60 * kTicksPerSecond;
  const u64 room = std::max<u64>(1, max_bytes / 2);
  const u64 keyframes = std::max<u64>(1, room / std::max<u64>(1, keyframe_bytes));  // a minute's worth that fit
  return u32(std::clamp<u64>((minute + keyframes - 1) / keyframes, kTicksPerSecond, minute));
}

// [SECTION] Keyframes

namespace {

// The calling thread's CPU time in ms: what a keyframe costs its thread, whatever else the
// machine runs (wall time on a shared machine counts the time it waits its turn).
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

Compressed compress(const std::vector<std::uint8_t>& save) {
  const double t0 = thread_cpu_ms();
  Compressed c;
  c.bytes.resize(ZSTD_compressBound(save.size()));
  size_t n = ZSTD_compress(c.bytes.data(), c.bytes.size(), save.data(), save.size(), 1);
  c.bytes.resize(ZSTD_isError(n) ? 0 : n);
  c.bytes.shrink_to_fit();
  c.cpu_ms = thread_cpu_ms() - t0;
  return c;
}

// The world now as a keyframe: the save file, uncompressed, then zstd'd whole (one pass of
// the compressor over a buffer in memory), here or on a thread of its own.
bool make_keyframe(History& h, const Game& g, Keyframe& k, bool background, std::string* err) {
  std::shared_ptr<std::vector<std::uint8_t>> save;
  if (!h.spare_saves.empty()) save = std::move(h.spare_saves.back()), h.spare_saves.pop_back();
  else save = std::make_shared<std::vector<std::uint8_t>>();
  SaveOptions raw;
  raw.compress = false;
  if (!save_game_to_bytes(g, *save, err, raw)) return false;
  k.tick = g.tick;
  k.save_bytes = save->size();
  if (background) {
    k.save = save;
    k.compressing = std::async(std::launch::async, [save] { return compress(*save); });
    return true;
  }
  Compressed c = compress(*save);
  k.zstd = std::move(c.bytes);
  if (h.spare_saves.empty()) h.spare_saves.push_back(std::move(save));
  if (k.zstd.empty()) {
    if (err) *err = "zstd could not compress the keyframe";
    return false;
  }
  return true;
}

// Takes the results of the compressions that have finished (all of them when `wait`).
void settle(History& h, bool wait) {
  for (Keyframe& k : h.keyframes) {
    if (!k.compressing.valid()) continue;
    if (!wait && k.compressing.wait_for(std::chrono::seconds(0)) != std::future_status::ready) continue;
    Compressed c = k.compressing.get();
    h.slowest_compress_ms = std::max(h.slowest_compress_ms, c.cpu_ms);
    std::vector<std::uint8_t>& z = c.bytes;
    if (z.empty()) continue;  // keeps the save itself: as good to restore from, only larger
    h.keyframe_bytes = h.keyframe_bytes - k.counted + z.size();
    k.counted = z.size();
    k.zstd = std::move(z);
    // The buffer goes back for the next keyframe (a restore may still hold it: then it goes).
    if (k.save.use_count() == 1 && h.spare_saves.empty())
      h.spare_saves.push_back(std::const_pointer_cast<std::vector<std::uint8_t>>(std::move(k.save)));
    k.save.reset();
  }
}

std::unique_ptr<Game> open_keyframe(const Keyframe& k, std::string* err) {
  const std::string name = "the keyframe of tick " + std::to_string(k.tick);
  if (k.save) return load_game_from_bytes(k.save->data(), k.save->size(), name, err);
  std::vector<std::uint8_t> save(size_t(k.save_bytes));
  size_t n = ZSTD_decompress(save.data(), save.size(), k.zstd.data(), k.zstd.size());
  if (ZSTD_isError(n) || n != save.size()) {
    if (err) *err = name + " does not decompress";
    return nullptr;
  }
  return load_game_from_bytes(save.data(), save.size(), name, err);
}

// [SECTION] Bounds

// Drops the oldest keyframe and what only it reached.
void drop_first(History& h) {
  h.keyframe_bytes -= h.keyframes.front().counted;
  h.keyframes.pop_front();
  const u64 first = h.keyframes.front().tick;
  const u64 gone = first - h.first;
  h.digests.erase(h.digests.begin(), h.digests.begin() + ptrdiff_t(gone));
  h.hashes.erase(h.hashes.begin(), h.hashes.begin() + ptrdiff_t(gone));
  auto input_end =
      std::find_if(h.inputs.begin(), h.inputs.end(), [&](const ReplayEvent& e) { return e.tick >= first; });
  h.inputs.erase(h.inputs.begin(), input_end);
  auto marker_end = std::find_if(h.markers.begin(), h.markers.end(), [&](const Marker& m) { return m.tick >= first; });
  h.markers.erase(h.markers.begin(), marker_end);
  h.first = first;
}

// Within the memory bound: thins old keyframes first (an interior keyframe whose removal
// leaves the smallest gap for its age goes), so that the recent past stays quick to reach
// and the old past stays reachable by longer re-simulation; only with two keyframes left
// does the history's start move up. Also keeps the history's reach at settings.keep_ticks.
void keep_bounds(History& h) {
  while (h.keyframes.size() > 1 && h.keyframes[1].tick + h.settings.keep_ticks <= h.last) drop_first(h);
  while (history_bytes(h) > h.max_bytes && h.keyframes.size() > 2) {
    size_t best = 1;
    double best_score = 0;
    for (size_t i = 1; i + 1 < h.keyframes.size(); ++i) {
      const double gap = double(h.keyframes[i + 1].tick - h.keyframes[i - 1].tick);
      const double age = double(h.last - h.keyframes[i].tick) + h.interval;
      const double score = gap / age;
      if (i == 1 || score < best_score) best = i, best_score = score;
    }
    h.keyframe_bytes -= h.keyframes[best].counted;
    h.keyframes.erase(h.keyframes.begin() + ptrdiff_t(best));
    ++h.thinned;
  }
  while (history_bytes(h) > h.max_bytes && h.keyframes.size() > 1) drop_first(h);
}

bool add_keyframe(History& h, const Game& g, std::string* err) {
  const double t0 = thread_cpu_ms();
  Keyframe k;
  if (!make_keyframe(h, g, k, h.settings.background, err)) return false;
  h.slowest_keyframe_ms = std::max(h.slowest_keyframe_ms, thread_cpu_ms() - t0);
  // Until its compression is done a keyframe counts as large as the last one compressed.
  const u64 last = h.keyframes.empty() ? 0 : h.keyframes.back().zstd.size();
  k.counted = k.compressing.valid() ? std::max<u64>(last, k.save_bytes / 32) : k.zstd.size();
  h.keyframe_bytes += k.counted;
  // A world whose keyframes grow takes them less often: a minute still fits half the bound.
  if (!h.settings.keyframe_ticks) h.interval = std::max(h.interval, keyframe_interval(k.counted, h.max_bytes));
  h.keyframes.push_back(std::move(k));
  keep_bounds(h);
  return true;
}

}  // namespace

// [SECTION] Recording

bool history_start(History& h, const Game& g, std::string* err, const HistorySettings& settings) {
  h = History{};
  h.settings = settings;
  h.max_bytes = settings.max_bytes ? settings.max_bytes : default_history_bytes();
  h.hash_interval =
      std::clamp<u32>((g.ecs->live_count() + kEntitiesPerHashedTick - 1) / kEntitiesPerHashedTick, 1, kMaxHashInterval);
  h.first = h.last = g.tick;
  h.last_region[0] = g.region_x, h.last_region[1] = g.region_y, h.last_region[2] = g.region_w,
  h.last_region[3] = g.region_h;
  h.interval = settings.keyframe_ticks ? settings.keyframe_ticks : kTicksPerSecond;
  Keyframe k;
  if (!make_keyframe(h, g, k, false, err)) return false;
  if (k.save_bytes > h.max_bytes / 2) {
    if (err)
      *err = "a keyframe of this world is " + size_text(double(k.save_bytes)) +
             " before compression, more than half the " + size_text(double(h.max_bytes)) +
             " the history may take (--history-mb)";
    h = History{};
    return false;
  }
  if (!settings.keyframe_ticks) h.interval = keyframe_interval(k.zstd.size(), h.max_bytes);
  k.counted = h.keyframe_bytes = k.zstd.size();
  h.keyframes.push_back(std::move(k));
  return true;
}

void history_before_tick(History& h, const Game& g) {
  if (h.keyframes.empty()) return;
  const float region[4] = {g.region_x, g.region_y, g.region_w, g.region_h};
  if (std::memcmp(region, h.last_region, sizeof region) != 0) {
    ReplayEvent e;
    e.tick = g.tick;
    e.type = ReplayEvent::Region;
    std::memcpy(e.region, region, sizeof region);
    std::memcpy(h.last_region, region, sizeof region);
    h.inputs.push_back(e);
  }
  u32 fires = 0, spawned = 0;
  for (const Command& c : g.pending_commands) {
    ReplayEvent e;
    e.tick = g.tick;
    e.type = ReplayEvent::Command;
    e.command = c;
    h.inputs.push_back(e);
    if (c.kind == CommandKind::Ignite) ++fires;
    if (c.kind == CommandKind::SpawnAnts) spawned += c.count;
  }
  // The scenario's fires and spawns due this tick.
  for (size_t i = 0; i < g.scenario.events.size() && i < g.event_next.size(); ++i) {
    if (g.event_next[i] != g.tick) continue;
    const EventSpec& e = g.scenario.events[i];
    if (e.kind == EventKind::Fire) ++fires;
    if (e.kind == EventKind::Spawn) spawned += e.count;
  }
  if (fires) h.markers.push_back({g.tick, MarkerKind::Fire, fires});
  if (spawned) h.markers.push_back({g.tick, MarkerKind::Spawn, spawned});
  h.died_before = ants_died(g).total();
}

void history_after_tick(History& h, const Game& g) {
  if (h.keyframes.empty() || g.tick != h.last + 1) return;
  settle(h, false);
  const u64 tick = g.tick - 1;  // the tick just simulated
  h.last = g.tick;
  h.digests.push_back(tick_digest(g));
  h.hashes.push_back((g.tick - h.first) % h.hash_interval == 0 ? state_hash(g) : 0);
  u32 bombs = 0;
  for (const Blast& b : g.blasts) bombs += b.tick == tick;
  if (bombs) h.markers.push_back({tick, MarkerKind::Bomb, bombs});
  const u64 died = ants_died(g).total() - h.died_before;
  if (died >= kMassRelease) h.markers.push_back({tick, MarkerKind::Release, u32(std::min<u64>(died, UINT32_MAX))});
  if (g.tick - h.keyframes.back().tick >= h.interval) {
    std::string err;
    if (add_keyframe(h, g, &err)) return;
    // A keyframe that cannot be made (out of memory) leaves the older ones; the next is tried later.
    if (h.mismatch.empty()) h.mismatch = "tick " + std::to_string(g.tick) + ": no keyframe: " + err;
  }
  keep_bounds(h);
}

u64 history_working_bytes(const History& h) {
  u64 n = 0;
  for (const auto& s : h.spare_saves) n += s->capacity();
  for (const Keyframe& k : h.keyframes)
    if (k.save) n += k.save->capacity();
  return n;
}

double history_seconds(const History& h) { return double(h.last - h.first) / kTicksPerSecond; }

u64 history_bytes(const History& h) {
  return h.keyframe_bytes + h.inputs.size() * sizeof(ReplayEvent) + (h.digests.size() + h.hashes.size()) * sizeof(u64) +
         h.markers.size() * sizeof(Marker);
}

// [SECTION] Going back

namespace {

bool note_mismatch(History& h, const std::string& what) {
  if (h.mismatch.empty()) h.mismatch = what;
  // A re-simulated tick that differs from its live self is a bug: debug builds stop on it.
  assert(!h.assert_match && "a re-simulated tick differs from the tick it was live");
  return false;
}

}  // namespace

bool history_step(History& h, Game& g) {
  if (g.tick < h.first || g.tick >= h.last) return false;
  // The tick's recorded inputs replace whatever is queued; the region in force is the last
  // one recorded up to this tick, or the one the world holds.
  g.pending_commands.clear();
  g.pending_command_cells = 0;
  auto it = std::lower_bound(h.inputs.begin(), h.inputs.end(), g.tick,
                             [](const ReplayEvent& e, u64 t) { return e.tick < t; });
  for (; it != h.inputs.end() && it->tick == g.tick; ++it) {
    if (it->type == ReplayEvent::Region) {
      set_sim_region(g, it->region[0], it->region[1], it->region[2], it->region[3]);
    } else {
      g.pending_commands.push_back(it->command);
      g.pending_command_cells += command_cells(g, it->command);
    }
  }
  simulate_tick(g);
  const size_t i = size_t(g.tick - h.first - 1);
  ++h.checked_ticks;
  if (u64 have = tick_digest(g); have != h.digests[i])
    return note_mismatch(
        h, "tick " + std::to_string(g.tick) + ": tick digest " + hex(have) + ", live " + hex(h.digests[i]));
  if (h.hashes[i] != 0)
    if (u64 have = state_hash(g); have != h.hashes[i])
      return note_mismatch(
          h, "tick " + std::to_string(g.tick) + ": state hash " + hex(have) + ", live " + hex(h.hashes[i]));
  return true;
}

std::unique_ptr<Game> history_restore(History& h, u64 tick, std::string* err, bool journal) {
  if (h.keyframes.empty() || tick < h.first || tick > h.last) {
    if (err)
      *err = "tick " + std::to_string(tick) + " is outside the history (ticks " + std::to_string(h.first) + " to " +
             std::to_string(h.last) + ")";
    return nullptr;
  }
  // The nearest keyframe at or before `tick` (the first is at h.first). Journaled, the nearest
  // at or before tick - 1: the tick ending at `tick` is then re-simulated and its release
  // journaled.
  const u64 from = journal && tick > h.first ? tick - 1 : tick;
  auto k = std::upper_bound(h.keyframes.begin(), h.keyframes.end(), from,
                            [](u64 t, const Keyframe& kf) { return t < kf.tick; });
  --k;
  std::unique_ptr<Game> g = open_keyframe(*k, err);
  if (!g) return nullptr;
  g->ecs->set_journal(journal);
  while (g->tick < tick) {
    if (!history_step(h, *g)) {
      if (err) *err = "re-simulation differs from live play at " + h.mismatch;
      return nullptr;
    }
  }
  return g;
}

u64 history_live_hash(const History& h, u64 tick) {
  if (tick <= h.first || tick > h.last) return 0;
  return h.hashes[size_t(tick - h.first - 1)];
}

void history_cut_after(History& h, const Game& g) {
  const u64 tick = g.tick;
  if (tick < h.first || tick >= h.last) return;
  while (!h.keyframes.empty() && h.keyframes.back().tick > tick) {
    h.keyframe_bytes -= h.keyframes.back().counted;
    h.keyframes.pop_back();
  }
  h.digests.resize(size_t(tick - h.first));
  h.hashes.resize(size_t(tick - h.first));
  while (!h.inputs.empty() && h.inputs.back().tick >= tick) h.inputs.pop_back();
  while (!h.markers.empty() && h.markers.back().tick >= tick) h.markers.pop_back();
  h.last = tick;
  h.last_region[0] = g.region_x, h.last_region[1] = g.region_y, h.last_region[2] = g.region_w,
  h.last_region[3] = g.region_h;
}

// [SECTION] The headless check

std::vector<std::string> history_check(History& h, u32 count, u64 seed, u64* checked) {
  std::vector<std::string> out;
  Rng rng(seed, 0x5EC0DE);
  const u64 before = h.checked_ticks;
  for (u32 n = 0; n < count && h.last > h.first; ++n) {
    const u64 tick = h.first + 1 + rng.below(u32(h.last - h.first));
    h.mismatch.clear();
    std::string err;
    std::unique_ptr<Game> g = history_restore(h, tick, &err);
    if (!g) {
      out.push_back("rewind to tick " + std::to_string(tick) + ": " + err);
      continue;
    }
    // The tick itself is compared in full, whatever the hash interval.
    const u64 live = history_live_hash(h, tick);
    if (live != 0 && state_hash(*g) != live)
      out.push_back("rewind to tick " + std::to_string(tick) + ": state hash differs from live");
  }
  if (checked) *checked = h.checked_ticks - before;
  return out;
}

}  // namespace colony
