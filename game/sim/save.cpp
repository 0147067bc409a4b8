// save.cpp — the save file: header, checksum, zstd streaming, the Game's fields and the
// ECS snapshot, written through a temporary file; and the checked loader.
//
// Table of contents
//   [SECTION] Scenario as JSON
//   [SECTION] Payload streams (checksum + zstd, both directions)
//   [SECTION] Writing a game
//   [SECTION] Reading a game (every value checked before use)
//   [SECTION] Files and bytes
#include "save.h"

#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <chrono>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>

#include "replay.h"
#include "sim_internal.h"
#include "snapshot.h"

namespace colony {

// [SECTION] Scenario as JSON

namespace {

using nlohmann::json;

std::string color_text(u32 c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c & 0xFF, c >> 8 & 0xFF, c >> 16 & 0xFF);
  return buf;
}

const char* caste_text(Kind k) { return k == Kind::Soldier ? "soldier" : "worker"; }

}  // namespace

std::string scenario_to_json(const Scenario& s) {
  json j;
  j["name"] = s.name;
  j["description"] = s.description;
  j["seed"] = s.seed;
  j["world"] = {{"width", s.width}, {"height", s.height}, {"chunk_size", s.chunk_size}};
  json terrain = {{"base", terrain_name(s.base)}};
  if (s.noise.enabled)
    terrain["noise"] = {
        {"scale", s.noise.scale}, {"water", s.noise.water}, {"rock", s.noise.rock}, {"dirt", s.noise.dirt}};
  json shapes = json::array();
  for (const TerrainShape& sh : s.shapes) {
    if (sh.circle) shapes.push_back({{"terrain", terrain_name(sh.terrain)}, {"circle", {sh.x, sh.y, sh.r}}});
    else shapes.push_back({{"terrain", terrain_name(sh.terrain)}, {"rect", {sh.x, sh.y, sh.w, sh.h}}});
  }
  terrain["shapes"] = shapes;
  j["terrain"] = terrain;
  json colonies = json::array();
  for (const ColonySpec& c : s.colonies)
    colonies.push_back({{"nest", {c.nest_x, c.nest_y}},
                        {"color", color_text(c.color)},
                        {"workers", c.workers},
                        {"soldiers", c.soldiers},
                        {"spread", c.spread},
                        {"food", c.food}});
  j["colonies"] = colonies;
  json food = json::array();
  for (const FoodSpec& f : s.food) food.push_back({{"at", {f.x, f.y}}, {"crumbs", f.crumbs}});
  j["food"] = food;
  j["random_food"] = {{"count", s.random_food.count}, {"crumbs", {s.random_food.crumbs_min, s.random_food.crumbs_max}}};
  j["region"] = {{"x", s.region_x}, {"y", s.region_y}, {"w", s.region_w}, {"h", s.region_h}};
  json cap = json::object();
  auto put_cap = [&](const char* key, u32 v) {
    if (v) cap[key] = v;  // zero means "derive", which is what an absent key says
  };
  put_cap("entities", s.capacity.entities);
  ColonyPools::for_each([&]<class C>(std::type_identity<C>) { put_cap(C::kPoolName, s.capacity.pools.of<C>()); });
  put_cap("max_ants", s.capacity.max_ants);
  j["capacity"] = cap;
  const Rules& r = s.rules;
  j["rules"] = {{"worker_speed", r.worker_speed},
                {"soldier_speed", r.soldier_speed},
                {"worker_lifespan", r.worker_lifespan},
                {"soldier_lifespan", r.soldier_lifespan},
                {"upkeep", r.upkeep},
                {"ant_cost", r.ant_cost},
                {"lay_interval", r.lay_interval},
                {"soldier_fraction", r.soldier_fraction},
                {"max_population", r.max_population},
                {"fire_spread", r.fire_spread},
                {"burn_ticks", r.burn_ticks},
                {"evaporation", r.evaporation},
                {"deposit", r.deposit},
                {"dormant_period", r.dormant_period},
                {"corpse_ticks", r.corpse_ticks},
                {"regrowth", r.regrowth},
                {"refound_food", r.refound_food},
                {"refound_delay", r.refound_delay},
                {"strike_chance", r.strike_chance}};
  json events = json::array();
  for (const EventSpec& e : s.events) {
    json o = {{"kind", event_kind_name(e.kind)}, {"tick", e.tick}, {"at", {e.x, e.y}}, {"spread", e.spread}};
    if (e.every) o["every"] = e.every;
    if (e.until != ~u64(0)) o["until"] = e.until;
    if (e.kind != EventKind::Food) o["radius"] = e.radius;
    if (e.kind == EventKind::Bomb && e.outer > 0) o["outer"] = e.outer;
    if (e.kind == EventKind::Spawn || e.kind == EventKind::Food) o["count"] = e.count;
    if (e.kind == EventKind::Spawn) o["colony"] = e.colony, o["caste"] = caste_text(e.caste);
    events.push_back(o);
  }
  j["events"] = events;
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// [SECTION] Payload streams

namespace {

using Emit = std::function<bool(const void*, size_t)>;

// Everything written goes through the checksum, then (optionally) zstd, then emit().
class PayloadSink final : public ecs::ByteSink {
 public:
  PayloadSink(Emit emit, const SaveOptions& o) : emit_(std::move(emit)), compress_(o.compress) {
    XXH3_64bits_reset(hash_);
    if (compress_) {
      cctx_ = ZSTD_createCCtx();
      ZSTD_CCtx_setParameter(cctx_, ZSTD_c_compressionLevel, o.level);
      buf_.resize(ZSTD_CStreamOutSize());
    }
  }
  ~PayloadSink() override {
    XXH3_freeState(hash_);
    if (cctx_) ZSTD_freeCCtx(cctx_);
  }
  void write(const void* p, size_t n) override {
    if (n == 0) return;
    XXH3_64bits_update(hash_, p, n);
    payload_ += n;
    if (!compress_) {
      put(p, n);
      return;
    }
    ZSTD_inBuffer in{p, n, 0};
    while (in.pos < in.size) pump(&in, ZSTD_e_continue);
  }
  // Flushes the compressor. Returns false when a write failed.
  bool finish() {
    if (compress_) {
      ZSTD_inBuffer in{nullptr, 0, 0};
      while (pump(&in, ZSTD_e_end) != 0 && ok_) {}
    }
    return ok_;
  }
  u64 payload_bytes() const { return payload_; }
  u64 stored_bytes() const { return stored_; }
  u64 checksum() const { return XXH3_64bits_digest(hash_); }
  const std::string& error() const { return error_; }

 private:
  size_t pump(ZSTD_inBuffer* in, ZSTD_EndDirective mode) {
    ZSTD_outBuffer out{buf_.data(), buf_.size(), 0};
    size_t left = ZSTD_compressStream2(cctx_, &out, in, mode);
    if (ZSTD_isError(left)) {
      fail(std::string("zstd: ") + ZSTD_getErrorName(left));
      in->pos = in->size;
      return 0;
    }
    put(buf_.data(), out.pos);
    return left;
  }
  void put(const void* p, size_t n) {
    if (!ok_ || n == 0) return;
    if (!emit_(p, n)) fail("write failed");
    stored_ += n;
  }
  void fail(const std::string& e) {
    if (ok_) error_ = e;
    ok_ = false;
  }

  Emit emit_;
  bool compress_;
  ZSTD_CCtx* cctx_ = nullptr;
  XXH3_state_t* hash_ = XXH3_createState();
  std::vector<char> buf_;
  u64 payload_ = 0, stored_ = 0;
  bool ok_ = true;
  std::string error_;
};

// Reads the stored bytes back (through zstd when compressed), hashing what it delivers
// and refusing to deliver more than the header's payload size.
class PayloadSource final : public ecs::ByteSource {
 public:
  PayloadSource(const std::uint8_t* data, size_t size, bool compressed, u64 payload)
      : in_{data, size, 0}, compressed_(compressed), payload_(payload) {
    XXH3_64bits_reset(hash_);
    if (compressed_) dctx_ = ZSTD_createDCtx();
  }
  ~PayloadSource() override {
    XXH3_freeState(hash_);
    if (dctx_) ZSTD_freeDCtx(dctx_);
  }
  bool read(void* p, size_t n) override {
    if (!error_.empty()) return false;
    if (n > payload_ - delivered_) return fail("the content is longer than its header says");
    if (!compressed_) {
      if (n > in_.size - in_.pos) return fail("the content ends early");
      std::memcpy(p, static_cast<const std::uint8_t*>(in_.src) + in_.pos, n);
      in_.pos += n;
    } else {
      ZSTD_outBuffer out{p, n, 0};
      while (out.pos < out.size) {
        size_t before_in = in_.pos, before_out = out.pos;
        size_t r = ZSTD_decompressStream(dctx_, &out, &in_);
        if (ZSTD_isError(r))
          return fail(std::string("the compressed content is damaged (zstd: ") + ZSTD_getErrorName(r) + ")");
        if (in_.pos == before_in && out.pos == before_out) return fail("the compressed content ends early");
      }
    }
    XXH3_64bits_update(hash_, p, n);
    delivered_ += n;
    return true;
  }
  // Reads whatever is left so the checksum covers the whole payload.
  bool drain() {
    std::vector<char> scratch(1 << 16);
    while (delivered_ < payload_ && error_.empty())
      read(scratch.data(), size_t(std::min<u64>(scratch.size(), payload_ - delivered_)));
    return error_.empty();
  }
  bool complete() const { return delivered_ == payload_ && (!compressed_ || in_.pos == in_.size); }
  u64 checksum() const { return XXH3_64bits_digest(hash_); }
  const std::string& error() const { return error_; }

 private:
  bool fail(const std::string& e) {
    if (error_.empty()) error_ = e;
    return false;
  }
  ZSTD_inBuffer in_;
  bool compressed_;
  u64 payload_, delivered_ = 0;
  ZSTD_DCtx* dctx_ = nullptr;
  XXH3_state_t* hash_ = XXH3_createState();
  std::string error_;
};

// [SECTION] Writing a game

// Section tags, so a damaged file names where it went wrong.
constexpr u32 tag(const char (&s)[5]) {
  return u32(u8(s[0])) | u32(u8(s[1])) << 8 | u32(u8(s[2])) << 16 | u32(u8(s[3])) << 24;
}

struct Out {
  ecs::ByteSink& sink;
  template <class T>
  void pod(const T& v) {
    sink.pod(v);
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    pod(u64(v.size()));
    sink.write(v.data(), v.size() * sizeof(T));
  }
  void str(const std::string& s) {
    pod(u64(s.size()));
    sink.write(s.data(), s.size());
  }
};

void write_game(const Game& g, ecs::ByteSink& sink) {
  Out o{sink};
  o.pod(tag("SCEN"));
  o.str(g.scenario.path);
  o.str(scenario_to_json(g.scenario));
  o.pod(tag("GAME"));
  o.pod(g.seed), o.pod(g.tick), o.pod(g.width), o.pod(g.height);
  o.pod(g.food_sources), o.pod(g.spawn_refused), o.pod(g.invariant_violations), o.pod(g.moves), o.pod(g.refused_moves);
  o.pod(tag("CELL"));
  o.vec(g.terrain), o.vec(g.tiles), o.vec(g.fire), o.vec(g.scorch), o.vec(g.food_at), o.vec(g.danger);
  o.pod(u64(g.fields.size()));
  for (const auto& f : g.fields) o.vec(f);
  o.pod(tag("FIRE"));
  o.vec(g.burning), o.vec(g.chunk_burning);
  o.pod(tag("COLO"));
  o.pod(u64(g.colonies.size()));
  for (const Colony& c : g.colonies) {
    o.pod(c.nest_x), o.pod(c.nest_y), o.pod(c.color), o.pod(c.queen), o.pod(c.food);
    o.pod(c.alive), o.pod(c.born), o.pod(c.died.by_cause), o.pod(c.delivered), o.pod(u8(c.starving));
    o.pod(c.down_since), o.pod(c.refounds);
  }
  o.pod(tag("RNGS"));
  o.pod(g.rng.state), o.pod(g.rng.inc), o.pod(g.event_rng.state), o.pod(g.event_rng.inc);
  o.vec(g.event_next);
  o.pod(tag("REGN"));
  o.pod(g.region_x), o.pod(g.region_y), o.pod(g.region_w), o.pod(g.region_h);
  o.vec(g.chunk_simulated), o.vec(g.dirty_chunks_stamp);
  o.pod(tag("CMDS"));
  o.pod(u64(g.pending_commands.size()));
  for (const Command& c : g.pending_commands) {
    o.pod(u8(c.kind)), o.pod(c.x), o.pod(c.y), o.pod(c.radius), o.pod(c.count), o.pod(c.colony), o.pod(u8(c.caste)),
        o.pod(u8(c.terrain));
  }
  o.pod(tag("BLST"));
  o.pod(u64(g.blasts.size()));
  for (const Blast& b : g.blasts)
    o.pod(b.x), o.pod(b.y), o.pod(b.radius), o.pod(b.outer), o.pod(b.tick), o.pod(b.killed), o.pod(b.maimed);
  o.pod(tag("ECS "));
  ecs::write_snapshot(*g.ecs, sink);
  o.pod(tag("END "));
}

// [SECTION] Reading a game

// Checked reads: any problem throws with the section it happened in.
struct In {
  ecs::ByteSource& src;
  const char* section = "the header";
  [[noreturn]] void fail(const std::string& what) const {
    throw ecs::SnapshotError{std::string(section) + ": " + what};
  }
  void need(bool ok, const std::string& what) const {
    if (!ok) fail(what);
  }
  template <class T>
  T pod() {
    T v;
    if (!src.pod(v)) fail("ends early");
    return v;
  }
  void expect_tag(u32 want, const char* name) {
    section = name;
    if (pod<u32>() != want) fail("section marker missing");
  }
  // A vector whose length must be exactly `n`.
  template <class T>
  void vec(std::vector<T>& v, u64 n) {
    u64 have = pod<u64>();
    if (have != n) fail("holds " + std::to_string(have) + " entries where " + std::to_string(n) + " belong");
    v.resize(size_t(n));
    if (n && !src.read(v.data(), size_t(n) * sizeof(T))) fail("ends early");
  }
  // A vector of at most `max` entries.
  template <class T>
  void vec_upto(std::vector<T>& v, u64 max) {
    u64 have = pod<u64>();
    if (have > max) fail(std::to_string(have) + " entries, more than the " + std::to_string(max) + " allowed");
    v.resize(size_t(have));
    if (have && !src.read(v.data(), size_t(have) * sizeof(T))) fail("ends early");
  }
  std::string str(u64 max) {
    u64 n = pod<u64>();
    if (n > max) fail("a text of " + std::to_string(n) + " bytes is too long");
    std::string s(size_t(n), '\0');
    if (n && !src.read(s.data(), size_t(n))) fail("ends early");
    return s;
  }
};

bool finite_in(float v, float lo, float hi) { return std::isfinite(v) && v >= lo && v <= hi; }

// Payload checks the ECS validator cannot make: kinds, colonies, positions and cells in
// range, every tile entity where the tile grid says, every body in the chunk under it.
void check_entities(Game& g, In& in) {
  ColonyEcs& w = *g.ecs;
  const size_t cells = g.terrain.size();
  auto check = [&](Record& r) {
    const Body& b = r.payload;
    std::string who = "entity " + std::to_string(r.header.handle.index) + ": ";
    in.need(b.kind < Kind::Count && r.header.tag == u16(b.kind), who + "unknown kind");
    in.need(b.colony < g.colonies.size(), who + "colony out of range");
    in.need(u8(b.state) <= u8(AntState::Idle) && b.legs <= 6 && b.antennae <= 2 && b.carrying <= 1,
            who + "body state out of range");
    in.need(finite_in(b.x, 0, float(g.width)) && finite_in(b.y, 0, float(g.height)) && b.x < float(g.width) &&
                b.y < float(g.height),
            who + "position outside the map");
    in.need(std::isfinite(b.heading) && std::isfinite(b.scent), who + "heading or scent not finite");
    in.need(finite_in(b.speed, 0, kMaxAntSpeed),
            who + "speed out of range (0 to " + number_text(kMaxAntSpeed) + " cells a tick)");
    in.need(b.cell < cells, who + "cell out of range");
    in.need(r.header.chunk == w.grid().chunk_at(b.x, b.y), who + "not in the chunk under it");
    const auto& pieces = w.list<RenderPiece>(r);
    for (u32 k = 0; k < pieces.added; ++k)
      in.need(w.component<RenderPiece>(r, k).part < Part::Count, who + "render piece of unknown part");
    // Volumes and sensors: finite and within the reach of any body plan (an ant steers by
    // its sensors: a NaN angle became its heading).
    const auto& volumes = w.list<CollisionVolume>(r);
    for (u32 k = 0; k < volumes.added; ++k) {
      const CollisionVolume& v = w.component<CollisionVolume>(r, k);
      in.need(finite_in(v.offset_x, -kMaxPartCells, kMaxPartCells) &&
                  finite_in(v.offset_y, -kMaxPartCells, kMaxPartCells) && finite_in(v.radius, 0, kMaxPartCells) &&
                  v.role <= 2,
              who + "collision volume out of range");
    }
    const auto& sensors = w.list<Sensor>(r);
    for (u32 k = 0; k < sensors.added; ++k) {
      const Sensor& sn = w.component<Sensor>(r, k);
      in.need(
          finite_in(sn.angle, -kPi, kPi) && finite_in(sn.reach, 0, kMaxPartCells) && finite_in(sn.reading, 0, FLT_MAX),
          who + "sensor out of range");
    }
  };
  w.for_each_entity(check);
  for (size_t cell = 0; cell < cells; ++cell) {
    const Record* r = w.find(g.tiles[cell]);
    in.need(r && r->payload.kind == Kind::Tile && r->payload.cell == cell && w.list<RenderPiece>(*r).added >= 1,
            "tile " + std::to_string(cell) + " is not a live tile entity");
  }
  // A colony's queen is a live queen of that colony, or none; its nest stands on land.
  for (size_t i = 0; i < g.colonies.size(); ++i) {
    const Colony& c = g.colonies[i];
    std::string who = "colony " + std::to_string(i) + ": ";
    const Record* q = c.queen.is_null() ? nullptr : w.find(c.queen);
    in.need(c.queen.is_null() || (q && q->payload.kind == Kind::Queen && q->payload.colony == i),
            who + "its queen is not a live queen of the colony");
    in.need(passable(g.terrain[cell_of(g, c.nest_x, c.nest_y)]), who + "the nest is not on land");
  }
}

// The grids steering and fire read: scent and danger finite and not negative, and the
// burning list exactly the cells whose fire is still burning, each once.
void check_grids(Game& g, In& in) {
  auto scent_ok = [](const std::vector<float>& f) {
    return std::all_of(f.begin(), f.end(), [](float v) { return std::isfinite(v) && v >= 0; });
  };
  in.need(scent_ok(g.danger), "the danger grid holds a negative or non-finite value");
  for (const auto& f : g.fields) in.need(scent_ok(f), "a pheromone field holds a negative or non-finite value");
  std::vector<u8> listed(g.fire.size(), 0);
  for (u32 c : g.burning) {
    in.need(g.fire[c] > 0 && !listed[c], "the burning list names a cell that is not burning, or one twice");
    listed[c] = 1;
  }
  size_t burning = size_t(std::count_if(g.fire.begin(), g.fire.end(), [](u16 v) { return v > 0; }));
  in.need(burning == g.burning.size(), "cells on fire that the burning list does not name");
}

// What the world's history allows, which a checksum cannot vouch for (a save whose
// content is altered and its checksum recomputed): every colony's queen link names its
// live queen, each colony's ants born are exactly those alive and those dead, the
// violation count within what the validator can have found by this tick, and every tick
// stamp and age one the ticks so far can have made (a world tick moved forward alone
// made every ant die of age at once).
void check_history(Game& g, In& in) {
  ColonyEcs& w = *g.ecs;
  const Rules& rules = g.scenario.rules;
  std::vector<u64> queens(g.colonies.size(), 0);
  // The longest an ant or a corpse goes unadvanced: a dormant chunk's turn comes every
  // dormant_period ticks (its stamp is the tick it was advanced in, the world's tick one
  // more).
  const u32 max_gap = std::max(1u, rules.dormant_period) + 1;
  const u32 now = u32(g.tick);  // stamps hold the tick's low 32 bits
  w.for_each_entity([&](Record& r) {
    const Body& b = r.payload;
    if (r.header.flags & ecs::kFlagDying) return;
    if (b.kind == Kind::Queen) ++queens[b.colony];
    if (!is_ant(b.kind) && b.kind != Kind::Corpse) return;
    const std::string who = "entity " + std::to_string(r.header.handle.index) + ": ";
    const u32 gap = now - b.last_tick;
    in.need(gap <= max_gap, who + "its tick stamp " + std::to_string(b.last_tick) + " is not within the " +
                                std::to_string(max_gap) + " ticks before the world's tick " + std::to_string(g.tick) +
                                " (a stamp in the future, or a world tick moved alone)");
    // Age grows only where the ant is advanced, which ends it at its lifespan (an ant born
    // this tick has not aged yet, whatever its lifespan).
    if (b.kind == Kind::Worker || b.kind == Kind::Soldier)
      in.need(b.age == 0 || b.age < b.lifespan, who + "its age " + std::to_string(b.age) +
                                                    " has reached its lifespan " + std::to_string(b.lifespan) +
                                                    " (it would have died)");
    if (b.kind == Kind::Corpse)
      in.need(b.age == 0 || b.age < rules.corpse_ticks,
              who + "a corpse older than the " + std::to_string(rules.corpse_ticks) + " ticks a corpse lasts");
  });
  for (size_t i = 0; i < g.colonies.size(); ++i) {
    const Colony& c = g.colonies[i];
    const std::string who = "colony " + std::to_string(i) + ": ";
    in.need(queens[i] <= 1, who + std::to_string(queens[i]) + " live queens");
    in.need(!c.queen.is_null() || queens[i] == 0, who + "its queen link is empty while its queen lives");
    // Born = alive + died, added without overflow: a counter near 2^64 cannot pass.
    u64 died = 0;
    bool fits = true;
    for (u64 n : c.died.by_cause) fits = fits && !__builtin_add_overflow(died, n, &died);
    u64 accounted = 0;
    fits = fits && !__builtin_add_overflow(died, c.alive, &accounted);
    in.need(fits && accounted == c.born, who + "its ants alive (" + std::to_string(c.alive) + ") and dead (" +
                                             (fits ? std::to_string(died) : "past 2^64") +
                                             ") do not add up to its ants born (" + std::to_string(c.born) + ")");
  }
  // One validation a tick at most, each finding at most a few problems per entity, chunk,
  // colony and cell.
  const u64 per_check = 8 * (u64(w.max_entities()) + w.grid().chunk_count() + g.colonies.size() + g.terrain.size());
  u64 allowed = 0;
  if (__builtin_mul_overflow(g.tick, per_check, &allowed)) allowed = ~u64(0);
  in.need(g.invariant_violations <= allowed, "the invariant violation count " + std::to_string(g.invariant_violations) +
                                                 " is more than the " + std::to_string(allowed) + " that " +
                                                 std::to_string(g.tick) + " validated ticks can find");
  for (const Blast& b : g.blasts)
    in.need(b.tick <= g.tick,
            "an explosion at tick " + std::to_string(b.tick) + ", after the world's tick " + std::to_string(g.tick));
}

std::unique_ptr<Game> read_game(ecs::ByteSource& src, const LoadLimits& limits) {
  In in{src};
  in.expect_tag(tag("SCEN"), "the scenario");
  std::string path = in.str(4096);
  std::string text = in.str(64u << 20);
  Scenario s;
  std::string err;
  if (!parse_scenario(text, path, s, &err)) in.fail("does not parse (" + err + ")");
  u64 cells = u64(s.width) * s.height;
  Capacity cap = resolved_capacity(s);
  in.need(cells <= limits.max_cells && cap.entities <= limits.max_entities,
          "the world is larger than this loader accepts");
  if (std::string problem = memory_problem(s); !problem.empty()) in.fail(problem);

  auto game = std::make_unique<Game>();
  Game& g = *game;
  g.scenario = s;
  ColonyEcs::Config cfg;
  cfg.max_entities = cap.entities;
  cfg.grid = ecs::ChunkGrid::make(s.width, s.height, s.chunk_size);
  cfg.pool_capacity = cap.pools;
  cfg.journal_steps = kJournalSteps, cfg.journal_victims = kJournalVictims, cfg.journal_releases = kJournalReleases;
  g.ecs = std::make_unique<ColonyEcs>(cfg);
  const u64 chunks = cfg.grid.chunk_count();

  in.expect_tag(tag("GAME"), "the game counters");
  g.seed = in.pod<u64>(), g.tick = in.pod<u64>(), g.width = in.pod<u32>(), g.height = in.pod<u32>();
  in.need(g.width == s.width && g.height == s.height, "map size disagrees with the scenario");
  // Far past any game (2^62 ticks is billions of years at 60 a second): a tick near the top
  // would wrap to 0 and run the scenario's events again.
  in.need(g.tick < (u64(1) << 62), "tick " + std::to_string(g.tick) + " out of range");
  g.food_sources = in.pod<u32>(), g.spawn_refused = in.pod<u64>(), g.invariant_violations = in.pod<u64>();
  g.moves = in.pod<u64>(), g.refused_moves = in.pod<u64>();

  in.expect_tag(tag("CELL"), "the cell grids");
  in.vec(g.terrain, cells);
  for (Terrain t : g.terrain) in.need(t < Terrain::Count, "unknown terrain");
  in.vec(g.tiles, cells), in.vec(g.fire, cells), in.vec(g.scorch, cells);
  in.vec(g.food_at, cells), in.vec(g.danger, cells);
  u64 nfields = in.pod<u64>();
  // Two per colony: the scenario's and those placed since (PlaceColony), kMaxColonies in all.
  in.need(nfields % 2 == 0 && nfields >= s.colonies.size() * 2 && nfields <= kMaxColonies * 2,
          "pheromone field count disagrees with the colonies");
  g.fields.resize(size_t(nfields));
  for (auto& f : g.fields) in.vec(f, cells);

  in.expect_tag(tag("FIRE"), "the fire");
  in.vec_upto(g.burning, cells * 4);
  for (u32 c : g.burning) in.need(c < cells, "burning cell out of range");
  in.vec(g.chunk_burning, chunks);

  in.expect_tag(tag("COLO"), "the colonies");
  in.need(in.pod<u64>() == nfields / 2, "colony count disagrees with the pheromone fields");
  g.colonies.resize(size_t(nfields / 2));
  for (Colony& c : g.colonies) {
    c.nest_x = in.pod<float>(), c.nest_y = in.pod<float>(), c.color = in.pod<u32>(), c.queen = in.pod<Handle>(),
    c.food = in.pod<double>();
    c.alive = in.pod<u64>(), c.born = in.pod<u64>(), c.died.by_cause = in.pod<decltype(c.died.by_cause)>();
    c.delivered = in.pod<u64>(), c.starving = in.pod<u8>() != 0;
    c.down_since = in.pod<u64>(), c.refounds = in.pod<u64>();
    in.need(c.down_since <= g.tick + 1, "a colony fell after the save's tick");
    in.need(finite_in(c.nest_x, 0, float(g.width)) && finite_in(c.nest_y, 0, float(g.height)) &&
                std::isfinite(c.food) && c.food >= 0,
            "nest or food out of range");
  }
  // Nests and colours never change in a game: they are the scenario's.
  for (size_t i = 0; i < s.colonies.size(); ++i) {
    const Colony& c = g.colonies[i];
    const ColonySpec& cs = s.colonies[i];
    in.need(c.nest_x == cs.nest_x && c.nest_y == cs.nest_y && c.color == cs.color,
            "colony " + std::to_string(i) + ": its nest or colour differs from the scenario's");
  }

  in.expect_tag(tag("RNGS"), "the random streams");
  g.rng.state = in.pod<u64>(), g.rng.inc = in.pod<u64>(), g.event_rng.state = in.pod<u64>(),
  g.event_rng.inc = in.pod<u64>();
  in.need((g.rng.inc & 1) && (g.event_rng.inc & 1), "a random stream with an even increment (PCG32's are odd)");
  in.vec(g.event_next, s.events.size());
  for (size_t i = 0; i < s.events.size(); ++i)
    in.need(g.event_next[i] == event_next_due(s.events[i], g.tick),
            "event " + std::to_string(i) + ": its next tick is not the one its schedule gives at tick " +
                std::to_string(g.tick));

  in.expect_tag(tag("REGN"), "the simulation region");
  g.region_x = in.pod<float>(), g.region_y = in.pod<float>(), g.region_w = in.pod<float>(),
  g.region_h = in.pod<float>();
  in.need(
      std::isfinite(g.region_x) && std::isfinite(g.region_y) && std::isfinite(g.region_w) && std::isfinite(g.region_h),
      "region not finite");
  in.need(g.region_w >= 0 && g.region_h >= 0, "region of negative size");
  in.vec(g.chunk_simulated, chunks), in.vec(g.dirty_chunks_stamp, chunks);
  for (u8 v : g.chunk_simulated) in.need(v <= 1, "chunk tier flag out of range");

  in.expect_tag(tag("CMDS"), "the pending commands");
  u64 ncmd = in.pod<u64>();
  in.need(ncmd <= (1u << 20), "too many pending commands");
  g.pending_commands.resize(size_t(ncmd));
  for (Command& c : g.pending_commands) {
    c.kind = CommandKind(in.pod<u8>()), c.x = in.pod<float>(), c.y = in.pod<float>(), c.radius = in.pod<float>();
    c.count = in.pod<u32>(), c.colony = in.pod<u8>(), c.caste = Kind(in.pod<u8>()), c.terrain = Terrain(in.pod<u8>());
    in.need(c.kind < CommandKind::Count && c.caste < Kind::Count && c.terrain < Terrain::Count,
            "unknown command, caste or terrain");
    in.need(finite_in(c.x, -1e7f, 1e7f) && finite_in(c.y, -1e7f, 1e7f) && finite_in(c.radius, 0, 1e5f),
            "command position or radius out of range");
  }
  const std::string too_much = tick_commands_problem(g, g.pending_commands);
  in.need(too_much.empty(), too_much);
  g.pending_command_cells = commands_cells(g, g.pending_commands);

  in.expect_tag(tag("BLST"), "the recent explosions");
  u64 nblast = in.pod<u64>();
  in.need(nblast <= kMaxBlasts, "too many recent explosions");
  g.blasts.resize(size_t(nblast));
  for (Blast& b : g.blasts) {
    b.x = in.pod<float>(), b.y = in.pod<float>(), b.radius = in.pod<float>(), b.outer = in.pod<float>();
    b.tick = in.pod<u64>(), b.killed = in.pod<u32>(), b.maimed = in.pod<u32>();
    in.need(finite_in(b.x, -1e7f, 1e7f) && finite_in(b.y, -1e7f, 1e7f) && finite_in(b.radius, 0, 1e5f) &&
                finite_in(b.outer, 0, 1e5f),
            "explosion out of range");
  }

  in.expect_tag(tag("ECS "), "the entities and pools");
  std::string ecs_err;
  if (!ecs::read_snapshot(*g.ecs, src, &ecs_err)) in.fail(ecs_err);
  check_entities(g, in);
  in.section = "the cell grids";  // what check_grids reads came in that section
  check_grids(g, in);
  in.expect_tag(tag("END "), "the end marker");

  // Derived grids (cell flags, scent chunks) and scratch the systems expect sized
  // (occupancy stamps are stale between ticks).
  rebuild_cell_flags(g);
  size_scratch(g);
  in.section = "the game's history";
  check_history(g, in);
  in.section = "the game";
  u64 found = 0;
  std::vector<ecs::Violation> v = validate_game(g, 1, &found);
  g.invariant_violations -= found;
  if (!v.empty()) in.fail("inconsistent: " + ecs::describe(v.front()));
  return game;
}

// [SECTION] Files and bytes

void put_u32(std::uint8_t* p, u32 v) { std::memcpy(p, &v, 4); }
void put_u64(std::uint8_t* p, u64 v) { std::memcpy(p, &v, 8); }
u32 get_u32(const std::uint8_t* p) {
  u32 v;
  std::memcpy(&v, p, 4);
  return v;
}
u64 get_u64(const std::uint8_t* p) {
  u64 v;
  std::memcpy(&v, p, 8);
  return v;
}

void make_header(std::uint8_t* h, const SaveOptions& o, u64 payload, u64 stored, u64 checksum) {
  std::memcpy(h, kSaveMagic, 8);
  put_u32(h + 8, kSaveVersion);
  put_u32(h + 12, o.compress ? 1u : 0u);
  put_u64(h + 16, payload);
  put_u64(h + 24, stored);
  put_u64(h + 32, checksum);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

bool save_game_to_bytes(const Game& g, std::vector<std::uint8_t>& out, std::string* err, const SaveOptions& options) {
  out.assign(kSaveHeaderBytes, 0);
  PayloadSink sink(
      [&](const void* p, size_t n) {
        out.insert(out.end(), static_cast<const std::uint8_t*>(p), static_cast<const std::uint8_t*>(p) + n);
        return true;
      },
      options);
  write_game(g, sink);
  if (!sink.finish()) {
    if (err) *err = "(memory): " + sink.error();
    return false;
  }
  make_header(out.data(), options, sink.payload_bytes(), sink.stored_bytes(), sink.checksum());
  return true;
}

bool write_save(const Game& g, PendingFile& file, std::string* err, const SaveOptions& options, SaveStats* stats) {
  auto t0 = std::chrono::steady_clock::now();
  FILE* f = file.stream();
  std::uint8_t header[kSaveHeaderBytes] = {};
  bool ok = std::fwrite(header, 1, sizeof header, f) == sizeof header;
  int write_errno = 0;  // the system's reason for the first failed write
  PayloadSink sink(
      [&](const void* p, size_t n) {
        if (std::fwrite(p, 1, n, f) == n) return true;
        if (!write_errno) write_errno = errno;
        return false;
      },
      options);
  write_game(g, sink);
  ok = sink.finish() && ok;
  make_header(header, options, sink.payload_bytes(), sink.stored_bytes(), sink.checksum());
  ok = ok && std::fseek(f, 0, SEEK_SET) == 0 && std::fwrite(header, 1, sizeof header, f) == sizeof header;
  std::string problem = ok                      ? std::string()
                        : write_errno           ? std::string(std::strerror(write_errno))
                        : !sink.error().empty() ? sink.error()
                                                : std::string(std::strerror(errno));
  if (!file.close(err, problem)) return false;
  if (stats) {
    stats->payload_bytes = sink.payload_bytes();
    stats->file_bytes = kSaveHeaderBytes + sink.stored_bytes();
    stats->seconds = seconds_since(t0);
  }
  return true;
}

bool save_game(const Game& g, const std::string& path, std::string* err, const SaveOptions& options, SaveStats* stats) {
  PendingFile file;
  return file.open(path, err) && write_save(g, file, err, options, stats) && file.commit(err);
}

std::string save_header_problem(const std::uint8_t* head, size_t n, std::uint64_t file_size) {
  if (n >= sizeof kReplayMagic && std::memcmp(head, kReplayMagic, sizeof kReplayMagic) == 0)
    return "a Colony replay, not a save (read it with --replay)";
  if (n < sizeof kSaveMagic || std::memcmp(head, kSaveMagic, sizeof kSaveMagic) != 0)
    return "not a Colony save (no COLONYSV magic number)";
  if (n < kSaveHeaderBytes) return "truncated: the header is cut short (" + std::to_string(n) + " bytes)";
  u32 version = get_u32(head + 8), flags = get_u32(head + 12);
  u64 payload = get_u64(head + 16), stored = get_u64(head + 24);
  if (version != kSaveVersion)
    return "save format version " + std::to_string(version) + ", this build reads version " +
           std::to_string(kSaveVersion);
  if (flags > 1) return "unknown format flags " + std::to_string(flags);
  u64 have = file_size - kSaveHeaderBytes;
  if (have < stored)
    return "truncated: " + std::to_string(have) + " of " + std::to_string(stored) + " content bytes present";
  if (have > stored) return std::to_string(have - stored) + " stray bytes after the content";
  if (!(flags & 1) && payload != stored) return "corrupted: uncompressed content size disagrees with the header";
  // The content is a copy of a world's state, and the world has to fit the memory budget
  // once loaded: content past the budget is refused before any of it is read (a 6.5 MB
  // file can declare 200 GB of zstd's repeated blocks, 16 s to read through).
  if (MemoryBudget budget = memory_budget(); budget.problem.empty() && double(payload) > budget.bytes)
    return "the content would take " + size_text(double(payload)) + " uncompressed, more than the " +
           size_text(budget.bytes) + " allowed for a world (" + budget.how + ")";
  return "";
}

std::unique_ptr<Game> load_game_from_bytes(const std::uint8_t* data, size_t size, const std::string& name,
                                           std::string* err, const LoadLimits& limits) {
  auto fail = [&](const std::string& what) -> std::unique_ptr<Game> {
    if (err) *err = printable(name) + ": " + what;
    return nullptr;
  };
  if (std::string problem = save_header_problem(data, size, size); !problem.empty()) return fail(problem);
  u32 flags = get_u32(data + 12);
  u64 payload = get_u64(data + 16), stored = get_u64(data + 24), checksum = get_u64(data + 32);

  PayloadSource src(data + kSaveHeaderBytes, size_t(stored), flags & 1, payload);
  std::unique_ptr<Game> game;
  std::string problem;
  bool out_of_memory = false;
  try {
    game = read_game(src, limits);
  } catch (const ecs::SnapshotError& e) { problem = e.what; } catch (const std::bad_alloc&) {
    out_of_memory = true;
  }
  // The checksum speaks first: a damaged file is "corrupted", not "inconsistent".
  if (!src.drain()) return fail("corrupted: " + src.error());
  if (src.checksum() != checksum) return fail("corrupted: checksum mismatch (the content was damaged or cut)");
  if (out_of_memory) return fail("out of memory while building the world it holds (the file itself is sound)");
  if (!problem.empty()) return fail("bad content in " + problem);
  if (!src.complete()) return fail("corrupted: unread bytes after the end marker");
  return game;
}

std::unique_ptr<Game> load_game(const std::string& path, std::string* err, const LoadLimits& limits, SaveStats* stats) {
  auto t0 = std::chrono::steady_clock::now();
  std::vector<std::uint8_t> bytes;
  if (!read_file_bytes(path, bytes, err, ~std::uint64_t(0), {kSaveHeaderBytes, save_header_problem})) return nullptr;
  auto game = load_game_from_bytes(bytes.data(), bytes.size(), path, err, limits);
  if (game && stats) {
    stats->file_bytes = bytes.size();
    stats->payload_bytes = get_u64(bytes.data() + 16);
    stats->seconds = seconds_since(t0);
  }
  return game;
}

}  // namespace colony
