// replay.cpp — the recorder, the replayer and the replay file (checked on every read).
//
// Table of contents
//   [SECTION] Recording
//   [SECTION] Playing back
//   [SECTION] The file
#include "replay.h"

#include <xxhash.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstring>

#include "save.h"

namespace colony {

namespace {

std::string hex(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

// A full state hash walks every entity: worlds hash every tick up to this many entities,
// then once per this many more, at most every kMaxHashInterval ticks.
constexpr std::uint32_t kEntitiesPerHashedTick = 1000;
constexpr std::uint32_t kMaxHashInterval = 60;

}  // namespace

std::uint64_t tick_digest(const Game& g) {
  XXH3_state_t* s = XXH3_createState();
  XXH3_64bits_reset(s);
  auto pod = [&](const auto& v) { XXH3_64bits_update(s, &v, sizeof v); };
  pod(g.tick), pod(g.rng.state), pod(g.rng.inc), pod(g.event_rng.state), pod(g.event_rng.inc);
  pod(g.food_sources), pod(g.spawn_refused), pod(g.burning.size());
  for (const Colony& c : g.colonies)
    pod(c.alive), pod(c.born), pod(c.died.by_cause), pod(c.food), pod(c.delivered), pod(c.queen);
  for (const ecs::PoolStats* st : g.ecs->all_stats())
    pod(st->taken), pod(st->reserved_unused), pod(st->owners), pod(st->total);
  pod(g.ecs->live_count()), pod(g.ecs->simulated_count()), pod(g.ecs->failed_creates()), pod(g.pending_commands.size());
  // The simulated entities' bodies (positions, headings, health, ...): the part of the
  // world that moves every tick, walked densely.
  const_cast<ColonyEcs&>(*g.ecs).for_each_simulated([&](const Record& r) { pod(r.payload); });
  std::uint64_t h = XXH3_64bits_digest(s);
  XXH3_freeState(s);
  return h;
}

// [SECTION] Recording

bool Recorder::start(const Game& g, std::string* err, std::uint32_t hash_interval) {
  replay = Replay{};
  if (hash_interval == 0)
    hash_interval = std::clamp<std::uint32_t>(
        (g.ecs->live_count() + kEntitiesPerHashedTick - 1) / kEntitiesPerHashedTick, 1, kMaxHashInterval);
  replay.hash_interval = hash_interval;
  replay.start_tick = g.tick;
  if (!save_game_to_bytes(g, replay.start_save, err)) return false;
  last_region[0] = g.region_x, last_region[1] = g.region_y, last_region[2] = g.region_w, last_region[3] = g.region_h;
  return true;
}

void Recorder::before_tick(const Game& g) {
  const float region[4] = {g.region_x, g.region_y, g.region_w, g.region_h};
  if (std::memcmp(region, last_region, sizeof region) != 0) {
    ReplayEvent e;
    e.tick = g.tick;
    e.type = ReplayEvent::Region;
    std::memcpy(e.region, region, sizeof region);
    std::memcpy(last_region, region, sizeof region);
    replay.events.push_back(e);
  }
  for (const Command& c : g.pending_commands) {
    ReplayEvent e;
    e.tick = g.tick;
    e.type = ReplayEvent::Command;
    e.command = c;
    replay.events.push_back(e);
  }
}

void Recorder::after_tick(const Game& g) {
  replay.ticks = g.tick - replay.start_tick;
  replay.digests.push_back(tick_digest(g));
  if (replay.ticks % replay.hash_interval == 0) replay.hashes.push_back(state_hash(g));
}

void Recorder::cut_after(const Game& g) {
  const std::uint64_t tick = std::max(g.tick, replay.start_tick);
  if (tick < replay.start_tick + replay.ticks) {
    while (!replay.events.empty() && replay.events.back().tick >= tick) replay.events.pop_back();
    replay.ticks = tick - replay.start_tick;
    replay.digests.resize(size_t(replay.ticks));
    replay.hashes.resize(size_t(replay.ticks / replay.hash_interval));
  }
  last_region[0] = g.region_x, last_region[1] = g.region_y, last_region[2] = g.region_w, last_region[3] = g.region_h;
}

bool Recorder::write(const std::string& path, std::string* err) const {
  PendingFile file;
  return file.open(path, err) && write(file, err) && file.commit(err);
}

bool Recorder::write(PendingFile& file, std::string* err) const {
  std::vector<std::uint8_t> bytes = encode_replay(replay);
  std::fwrite(bytes.data(), 1, bytes.size(), file.stream());
  return file.close(err);
}

bool write_run_outputs(const Game& g, const RunOutputs& o, std::string* err, SaveStats* saved) {
  stop_point_for_tests("outputs");
  PendingFile report, save, record;
  const bool reporting = !o.report.empty(), saving = !o.save.empty(), recording = o.recorder && !o.record.empty();
  bool ok = true;
  if (reporting) {
    ok = report.open(o.report, err);
    if (ok) std::fwrite(o.report_text.data(), 1, o.report_text.size(), report.stream());
    ok = ok && report.close(err);
  }
  ok = ok && (!saving || (save.open(o.save, err) && write_save(g, save, err, {}, saved)));
  ok = ok && (!recording || (record.open(o.record, err) && o.recorder->write(record, err)));
  if (!ok) return false;
  PendingFile* const files[] = {reporting ? &report : nullptr, saving ? &save : nullptr, recording ? &record : nullptr};
  return commit_all(files, std::size(files), err);
}

// [SECTION] Playing back

std::unique_ptr<Game> Replayer::start_game(const std::string& name, std::string* err) {
  std::string inner;
  auto g = load_game_from_bytes(replay.start_save.data(), replay.start_save.size(), "starting world", &inner);
  if (!g) {
    if (err) *err = printable(name) + ": " + inner;
    return nullptr;
  }
  if (g->tick != replay.start_tick) {
    if (err)
      *err = printable(name) + ": the starting world is at tick " + std::to_string(g->tick) +
             ", the replay starts at " + std::to_string(replay.start_tick);
    return nullptr;
  }
  // Each tick's recorded commands within the bound queue_command holds live play to.
  std::vector<Command> tick_commands;
  for (size_t i = 0; i < replay.events.size();) {
    const std::uint64_t tick = replay.events[i].tick;
    tick_commands.clear();
    for (; i < replay.events.size() && replay.events[i].tick == tick; ++i)
      if (replay.events[i].type == ReplayEvent::Command) tick_commands.push_back(replay.events[i].command);
    if (std::string why = tick_commands_problem(*g, tick_commands); !why.empty()) {
      if (err) *err = printable(name) + ": tick " + std::to_string(tick) + ": " + why;
      return nullptr;
    }
  }
  region[0] = g->region_x, region[1] = g->region_y, region[2] = g->region_w, region[3] = g->region_h;
  next_event = 0;
  verified = checked = 0;
  diverged = false;
  return g;
}

void Replayer::before_tick(Game& g) {
  if (finished(g)) return;
  g.pending_commands.clear();  // during playback only the recording acts
  g.pending_command_cells = 0;
  const auto& ev = replay.events;
  while (next_event < ev.size() && ev[next_event].tick < g.tick) ++next_event;  // (only after a divergence)
  for (; next_event < ev.size() && ev[next_event].tick == g.tick; ++next_event) {
    const ReplayEvent& e = ev[next_event];
    if (e.type == ReplayEvent::Region) std::memcpy(region, e.region, sizeof region);
    else {
      g.pending_commands.push_back(e.command);
      g.pending_command_cells += command_cells(g, e.command);
    }
  }
  if (g.region_x != region[0] || g.region_y != region[1] || g.region_w != region[2] || g.region_h != region[3])
    set_sim_region(g, region[0], region[1], region[2], region[3]);
}

bool Replayer::after_tick(const Game& g) {
  if (diverged || g.tick <= replay.start_tick) return !diverged;
  std::uint64_t done = g.tick - replay.start_tick;
  if (done > replay.ticks) return true;
  std::uint64_t want_digest = replay.digests[size_t(done - 1)], have_digest = tick_digest(g);
  if (have_digest != want_digest) {
    diverged = true;
    divergence =
        "tick " + std::to_string(g.tick) + ": tick digest " + hex(have_digest) + ", recorded " + hex(want_digest);
    return false;
  }
  ++checked;
  if (done % replay.hash_interval != 0) return true;
  std::uint64_t want = replay.hashes[size_t(done / replay.hash_interval - 1)];
  std::uint64_t have = state_hash(g);
  if (have != want) {
    diverged = true;
    divergence = "tick " + std::to_string(g.tick) + ": state hash " + hex(have) + ", recorded " + hex(want);
    return false;
  }
  ++verified;
  return true;
}

// [SECTION] The file

namespace {

struct Writer {
  std::vector<std::uint8_t>& out;
  template <class T>
  void pod(const T& v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  }
};

struct Reader {
  const std::uint8_t* p;
  size_t left;
  std::string error;
  template <class T>
  bool pod(T& v) {
    if (!error.empty()) return false;
    if (left < sizeof v) {
      error = "truncated";
      return false;
    }
    std::memcpy(&v, p, sizeof v);
    p += sizeof v, left -= sizeof v;
    return true;
  }
};

constexpr size_t kReplayHeaderBytes = 32;

bool finite(float v) { return std::isfinite(v); }

}  // namespace

std::vector<std::uint8_t> encode_replay(const Replay& r) {
  std::vector<std::uint8_t> body;
  Writer w{body};
  w.pod(r.hash_interval), w.pod(r.start_tick), w.pod(r.ticks);
  w.pod(std::uint64_t(r.start_save.size()));
  body.insert(body.end(), r.start_save.begin(), r.start_save.end());
  w.pod(std::uint64_t(r.events.size()));
  for (const ReplayEvent& e : r.events) {
    w.pod(e.tick), w.pod(std::uint8_t(e.type));
    if (e.type == ReplayEvent::Region) {
      for (float v : e.region) w.pod(v);
    } else {
      const Command& c = e.command;
      w.pod(std::uint8_t(c.kind)), w.pod(c.x), w.pod(c.y), w.pod(c.radius), w.pod(c.count), w.pod(c.colony),
          w.pod(std::uint8_t(c.caste)), w.pod(std::uint8_t(c.terrain));
    }
  }
  w.pod(std::uint64_t(r.hashes.size()));
  for (std::uint64_t h : r.hashes) w.pod(h);
  w.pod(std::uint64_t(r.digests.size()));
  for (std::uint64_t h : r.digests) w.pod(h);

  std::vector<std::uint8_t> out(kReplayMagic, kReplayMagic + 8);
  out.reserve(kReplayHeaderBytes + body.size());
  Writer hw{out};
  hw.pod(kReplayVersion), hw.pod(std::uint32_t(0)), hw.pod(std::uint64_t(body.size())),
      hw.pod(XXH3_64bits(body.data(), body.size()));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

namespace {

// A replay file's header: version, flags, the content's size and checksum.
struct ReplayHeader {
  std::uint32_t version = 0, flags = 0;
  std::uint64_t body_size = 0, checksum = 0;
};
ReplayHeader read_replay_header(const std::uint8_t* head) {
  Reader h{head + 8, kReplayHeaderBytes - 8, {}};
  ReplayHeader r;
  h.pod(r.version), h.pod(r.flags), h.pod(r.body_size), h.pod(r.checksum);
  return r;
}

// What is wrong with a replay file whose first n bytes are head and whose size is
// file_size, as far as its header tells, or "".
std::string replay_header_problem(const std::uint8_t* head, size_t n, std::uint64_t file_size) {
  if (n >= 8 && std::memcmp(head, kSaveMagic, 8) == 0) return "a Colony save, not a replay (read it with --load)";
  if (n < 8 || std::memcmp(head, kReplayMagic, 8) != 0) return "not a Colony replay (no COLONYRP magic number)";
  if (n < kReplayHeaderBytes) return "truncated: the header is cut short (" + std::to_string(n) + " bytes)";
  const ReplayHeader h = read_replay_header(head);
  if (h.version != kReplayVersion)
    return "replay format version " + std::to_string(h.version) + ", this build reads version " +
           std::to_string(kReplayVersion);
  if (h.flags != 0) return "unknown format flags " + std::to_string(h.flags);
  std::uint64_t have = file_size - kReplayHeaderBytes;
  if (have < h.body_size)
    return "truncated: " + std::to_string(have) + " of " + std::to_string(h.body_size) + " content bytes present";
  if (have > h.body_size) return std::to_string(have - h.body_size) + " stray bytes after the content";
  return "";
}

}  // namespace

bool decode_replay(const std::uint8_t* data, size_t size, const std::string& name, Replay& out, std::string* err) {
  auto fail = [&](const std::string& what) {
    if (err) *err = printable(name) + ": " + what;
    return false;
  };
  if (std::string problem = replay_header_problem(data, size, size); !problem.empty()) return fail(problem);
  const std::uint64_t checksum = read_replay_header(data).checksum;
  const size_t have = size - kReplayHeaderBytes;
  const std::uint8_t* body = data + kReplayHeaderBytes;
  if (XXH3_64bits(body, have) != checksum) return fail("corrupted: checksum mismatch (the content was damaged or cut)");

  Replay r;
  Reader in{body, have, {}};
  std::uint64_t save_size = 0, nevents = 0, nhashes = 0;
  in.pod(r.hash_interval), in.pod(r.start_tick), in.pod(r.ticks), in.pod(save_size);
  if (!in.error.empty()) return fail("bad content: " + in.error);
  if (r.hash_interval == 0) return fail("bad content: hash interval 0");
  if (r.ticks > (std::uint64_t(1) << 40) || r.start_tick > (std::uint64_t(1) << 48))
    return fail("bad content: tick counts out of range");
  if (save_size > in.left) return fail("bad content: the starting save is longer than the file");
  r.start_save.assign(in.p, in.p + save_size);
  in.p += save_size, in.left -= size_t(save_size);
  in.pod(nevents);
  if (nevents > in.left / 9) return fail("bad content: more events than the file can hold");
  r.events.resize(size_t(nevents));
  std::uint64_t last_tick = r.start_tick;
  for (ReplayEvent& e : r.events) {
    std::uint8_t type = 0;
    in.pod(e.tick), in.pod(type);
    if (type > ReplayEvent::Region) return fail("bad content: unknown event type " + std::to_string(type));
    e.type = ReplayEvent::Type(type);
    if (e.type == ReplayEvent::Region) {
      for (float& v : e.region) in.pod(v);
      if (!finite(e.region[0]) || !finite(e.region[1]) || !finite(e.region[2]) || !finite(e.region[3]))
        return fail("bad content: region not finite");
    } else {
      Command& c = e.command;
      std::uint8_t kind = 0, caste = 0, terrain = 0;
      in.pod(kind), in.pod(c.x), in.pod(c.y), in.pod(c.radius), in.pod(c.count), in.pod(c.colony), in.pod(caste),
          in.pod(terrain);
      if (kind >= u8(CommandKind::Count) || caste >= u8(Kind::Count) || terrain >= u8(Terrain::Count))
        return fail("bad content: unknown command, caste or terrain");
      c.kind = CommandKind(kind), c.caste = Kind(caste), c.terrain = Terrain(terrain);
      if (!(std::fabs(c.x) <= 1e7f && std::fabs(c.y) <= 1e7f && c.radius >= 0 && c.radius <= 1e5f))
        return fail("bad content: command position or radius out of range");
    }
    if (!in.error.empty()) return fail("bad content: " + in.error + " in the events");
    if (e.tick < last_tick || e.tick >= r.start_tick + r.ticks)
      return fail("bad content: event at tick " + std::to_string(e.tick) + " out of order or outside the recording");
    last_tick = e.tick;
  }
  in.pod(nhashes);
  if (nhashes != r.ticks / r.hash_interval)
    return fail("bad content: " + std::to_string(nhashes) + " hashes for " + std::to_string(r.ticks) + " ticks");
  if (nhashes > in.left / 8) return fail("bad content: more hashes than the file can hold");
  r.hashes.resize(size_t(nhashes));
  for (std::uint64_t& v : r.hashes) in.pod(v);
  std::uint64_t ndigests = 0;
  in.pod(ndigests);
  if (!in.error.empty()) return fail("bad content: " + in.error + " in the hashes");
  if (ndigests != r.ticks)
    return fail("bad content: " + std::to_string(ndigests) + " tick digests for " + std::to_string(r.ticks) + " ticks");
  if (ndigests > in.left / 8) return fail("bad content: more tick digests than the file can hold");
  r.digests.resize(size_t(ndigests));
  for (std::uint64_t& v : r.digests) in.pod(v);
  if (!in.error.empty()) return fail("bad content: " + in.error + " in the tick digests");
  if (in.left != 0) return fail("bad content: " + std::to_string(in.left) + " unread bytes");
  out = std::move(r);
  return true;
}

std::string Replayer::summary(const std::string& name, std::uint64_t tick, const char* stopped) const {
  const std::uint64_t end = end_tick();
  std::string after = tick < end ? std::string(" (") + stopped + " before the end of the recording)"
                      : tick > end
                          ? " (the end of the recording; play went on live to tick " + std::to_string(tick) + ")"
                          : "";
  return printable(name) + ": " + std::to_string(checked) + " tick digests and " + std::to_string(verified) +
         " full state hashes matched through tick " + std::to_string(std::min(tick, end)) + after;
}

bool load_replay(const std::string& path, Replayer& out, std::string* err) {
  std::vector<std::uint8_t> bytes;
  if (!read_file_bytes(path, bytes, err, ~std::uint64_t(0), {kReplayHeaderBytes, replay_header_problem})) return false;
  Replayer r;
  if (!decode_replay(bytes.data(), bytes.size(), path, r.replay, err)) return false;
  out = std::move(r);
  return true;
}

}  // namespace colony
