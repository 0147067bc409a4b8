// random.h — the simulation's random numbers: a small seeded generator (PCG32) with
// split streams, and a stateless hash for per-entity randomness that does not depend
// on the order entities are visited in. No global state, no time-based seeding.
#pragma once
#include <cstdint>

namespace colony {

// SplitMix64 finaliser: a strong 64-bit mix, used to derive seeds and for hashing.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// PCG32 (XSH RR): 64-bit state, 32-bit output, one of 2^63 streams.
struct Rng {
  std::uint64_t state = 0x853C49E6748FEA9Bull;
  std::uint64_t inc = 0xDA3E39CB94B95BDBull;  // always odd

  Rng() = default;
  Rng(std::uint64_t seed, std::uint64_t stream) { reseed(seed, stream); }

  void reseed(std::uint64_t seed, std::uint64_t stream) {
    state = 0;
    inc = (stream << 1u) | 1u;
    next_u32();
    state += seed;
    next_u32();
  }
  // An independent generator for a named purpose (terrain, events, ...), derived
  // from this one's current state without advancing it.
  Rng split(std::uint64_t stream) const { return Rng(mix64(state ^ mix64(stream)), mix64(inc + stream)); }

  std::uint32_t next_u32() {
    std::uint64_t old = state;
    state = old * 6364136223846793005ull + inc;
    auto xorshifted = std::uint32_t(((old >> 18u) ^ old) >> 27u);
    auto rot = std::uint32_t(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
  }
  // Uniform in [0, 1).
  float next_float() { return float(next_u32() >> 8) * (1.0f / 16777216.0f); }
  // Uniform in [lo, hi).
  float range(float lo, float hi) { return lo + (hi - lo) * next_float(); }
  // Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, bias negligible here).
  std::uint32_t below(std::uint32_t n) { return std::uint32_t((std::uint64_t(next_u32()) * n) >> 32); }

  friend bool operator==(const Rng&, const Rng&) = default;
};

// Stateless per-entity randomness: the same (seed, tick, id, salt) always gives the
// same number, whichever order entities are processed in. It is two mixes: one of the
// seed and tick (tick_key), the same for every entity in a tick, so that a walk of many
// entities takes it once and pays one mix each (draw_u32).
inline std::uint64_t tick_key(std::uint64_t seed, std::uint64_t tick) { return mix64(seed ^ mix64(tick)); }
inline std::uint32_t draw_u32(std::uint64_t key, std::uint32_t id, std::uint32_t salt) {
  return std::uint32_t(mix64(key + (std::uint64_t(id) << 8) + salt) >> 32);
}
// Uniform in [0, 1).
inline float draw_float(std::uint64_t key, std::uint32_t id, std::uint32_t salt) {
  return float(draw_u32(key, id, salt) >> 8) * (1.0f / 16777216.0f);
}
inline std::uint32_t hash_u32(std::uint64_t seed, std::uint64_t tick, std::uint32_t id, std::uint32_t salt) {
  return draw_u32(tick_key(seed, tick), id, salt);
}
inline float hash_float(std::uint64_t seed, std::uint64_t tick, std::uint32_t id, std::uint32_t salt) {
  return draw_float(tick_key(seed, tick), id, salt);
}

}  // namespace colony
