// fuzz_entries.cpp — the fuzzers' bodies. Anything may come in; the code under test must
// refuse it with an error or accept it and keep a consistent world, never crash.
#include "fuzz_entries.h"

#include <xxhash.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "game.h"
#include "replay.h"
#include "save.h"

namespace colony::fuzz {

namespace {

// Worlds the fuzzers build stay small (a fuzzer runs thousands of inputs a second).
constexpr LoadLimits kLimits{128 * 128, 100'000};
constexpr u64 kTicks = 3;

// A consistent world stays consistent for a few more ticks.
void exercise(Game& g) {
  for (u64 t = 0; t < kTicks; ++t) simulate_tick(g);
  auto v = validate_game(g, 1);
  if (!v.empty()) {
    std::fprintf(stderr, "fuzz: world inconsistent after loading and running: %s\n", ecs::describe(v.front()).c_str());
    std::abort();
  }
}

void put_u64(std::uint8_t* p, std::uint64_t v) { std::memcpy(p, &v, 8); }

}  // namespace

void scenario_one(const std::uint8_t* data, size_t size) {
  Scenario s;
  std::string err;
  if (!parse_scenario(std::string(reinterpret_cast<const char*>(data), size), "fuzz.json", s, &err)) return;
  if (u64(s.width) * s.height > kLimits.max_cells || resolved_capacity(s).entities > kLimits.max_entities) return;
  auto g = make_game(s, s.seed, &err);
  if (g) exercise(*g);
}

void save_one(const std::uint8_t* data, size_t size) {
  std::string err;
  if (auto g = load_game_from_bytes(data, size, "fuzz.colony", &err, kLimits)) exercise(*g);
  // The same bytes behind a correct header: an uncompressed save whose checksum matches.
  // A save-file input (magic first) contributes its content without its old header.
  size_t skip = size >= kSaveHeaderBytes && std::memcmp(data, kSaveMagic, 8) == 0 ? kSaveHeaderBytes : 0;
  std::vector<std::uint8_t> sealed(kSaveHeaderBytes + size - skip);
  std::memcpy(sealed.data(), kSaveMagic, 8);
  std::uint32_t version = kSaveVersion, flags = 0;
  std::memcpy(sealed.data() + 8, &version, 4);
  std::memcpy(sealed.data() + 12, &flags, 4);
  put_u64(sealed.data() + 16, size - skip);
  put_u64(sealed.data() + 24, size - skip);
  if (size > skip) std::memcpy(sealed.data() + kSaveHeaderBytes, data + skip, size - skip);
  put_u64(sealed.data() + 32, XXH3_64bits(sealed.data() + kSaveHeaderBytes, size - skip));
  if (auto g = load_game_from_bytes(sealed.data(), sealed.size(), "fuzz.colony", &err, kLimits)) exercise(*g);
}

ReplayRun replay_one(const std::uint8_t* data, size_t size) {
  std::vector<std::uint8_t> bytes(data, data + size);
  // Reseal the checksum so mutations of the body are decoded, not just refused.
  constexpr size_t kHeader = 32;
  if (size >= kHeader && std::memcmp(data, kReplayMagic, 8) == 0)
    put_u64(bytes.data() + 24, XXH3_64bits(bytes.data() + kHeader, size - kHeader));
  Replay replay;
  std::string err;
  if (!decode_replay(bytes.data(), bytes.size(), "fuzz.replay", replay, &err)) return {};
  auto play = [&](ReplayRun& run) -> u64 {
    Replayer r;
    r.replay = replay;
    auto g = load_game_from_bytes(r.replay.start_save.data(), r.replay.start_save.size(), "start", &err, kLimits);
    if (!g || g->tick != r.replay.start_tick) return 0;
    r.region[0] = g->region_x, r.region[1] = g->region_y, r.region[2] = g->region_w, r.region[3] = g->region_h;
    for (u64 t = 0; t < kTicks && !r.finished(*g); ++t) {
      r.before_tick(*g);
      simulate_tick(*g);
      r.after_tick(*g);
      ++run.ticks;
    }
    run.played = true;
    run.divergence = r.divergence;
    return state_hash(*g);
  };
  ReplayRun first, second;
  const u64 a = play(first), b = play(second);
  if (a != b || first.played != second.played || first.ticks != second.ticks || first.divergence != second.divergence) {
    std::fprintf(stderr,
                 "fuzz: a replay played back twice ended apart: hash %016llx / %016llx, divergence '%s' / '%s'\n",
                 (unsigned long long)a, (unsigned long long)b, first.divergence.c_str(), second.divergence.c_str());
    std::abort();
  }
  return first;
}

}  // namespace colony::fuzz
