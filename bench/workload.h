// workload.h — what every benchmark variant is fed: a fixed-seed generator of ant shapes
// (render-piece and collision-volume counts), piece contents, victim choice, the thread
// CPU clock the timed regions are measured with, and the sizes a run registers.
//
// Table of contents
//   [SECTION] Sizes (full run and --tiny)
//   [SECTION] Random stream and ant shapes
//   [SECTION] Piece contents and the per-piece work of the iterate pass
//   [SECTION] Timing
#pragma once
#include <time.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <emmintrin.h>
#include <span>
#include <utility>
#include <vector>

#include "components.h"

namespace bench {

using colony::Body;
using colony::CollisionVolume;
using colony::RenderPiece;
using ecs::u16;
using ecs::u32;
using ecs::u64;
using ecs::u8;

// [SECTION] Sizes (full run and --tiny)

// One run's sizes. The full run is what the issue asks for; --tiny (or COLONY_BENCH_TINY=1)
// registers the same benchmarks at toy sizes so a test can prove each one works.
struct Sizes {
  bool tiny = false;
  std::vector<u32> ants;           // N for kill/spawn/iterate
  std::vector<u32> kill_percents;  // K%
  std::vector<u32> churn_rounds;   // iterate churn
  u64 stream_bytes = 0;            // stream/rmw buffer
  std::vector<u32> tick_full_ants;
  u32 tick_chunked_ants = 0;
  u32 tick_bomb_victims = 0;
};
Sizes full_sizes();
Sizes tiny_sizes();

// Every ant of the workload lives in this square world (cells), so variants that need a
// position (the engine's chunk grid) get the same ones.
inline constexpr float kWorldCells = 1024.0f;
inline constexpr u64 kWorkloadSeed = 0xC010'4E57'2026'0001ull;
inline constexpr u32 kMinPieces = 8, kMaxPieces = 16;
inline constexpr u32 kMinVolumes = 1, kMaxVolumes = 3;

// [SECTION] Random stream and ant shapes

// splitmix64: tiny, fast, and identical on every platform.
struct SplitMix {
  u64 state;
  u64 next() {
    u64 z = (state += 0x9E37'79B9'7F4A'7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (multiply-shift; the bias is far below anything measured here).
  u32 below(u32 n) { return u32((next() >> 32) * n >> 32); }
  u32 between(u32 lo, u32 hi) { return lo + below(hi - lo + 1); }
  float unit() { return float(next() >> 40) * (1.0f / 16777216.0f); }
};

// What one ant is made of.
struct AntShape {
  u8 pieces;
  u8 volumes;
  float x, y;
  u32 serial;  // the ant's birth number; piece contents derive from it
};

// The one generator every variant draws from, so counts, victims and respawns are the
// same sequence whichever storage is under test.
struct Workload {
  SplitMix rng{kWorkloadSeed};
  u32 born = 0;

  AntShape next_shape() {
    AntShape s;
    s.pieces = u8(rng.between(kMinPieces, kMaxPieces));
    s.volumes = u8(rng.between(kMinVolumes, kMaxVolumes));
    s.x = rng.unit() * kWorldCells;
    s.y = rng.unit() * kWorldCells;
    s.serial = born++;
    return s;
  }

  // Moves k uniformly chosen entries of live to its front (partial Fisher-Yates); the
  // caller kills live[0, k) and writes the respawned ants back into the same places.
  template <class Ref>
  void choose_victims(std::vector<Ref>& live, u32 k) {
    u32 n = u32(live.size());
    for (u32 i = 0; i < k; ++i) std::swap(live[i], live[i + rng.below(n - i)]);
  }
};

// [SECTION] Piece contents and the per-piece work of the iterate pass

// An ant's k-th piece starts as the k-th of a fixed body plan, built at compile time, as
// the game copies its castes' plans (body_plans.cpp); the spawn gives it the ant's colour.
inline constexpr std::array<RenderPiece, kMaxPieces> kPiecePlan = [] {
  std::array<RenderPiece, kMaxPieces> plan{};
  for (u32 k = 0; k < kMaxPieces; ++k) {
    plan[k].set_offset(0.1f * float(k), 0.05f * float(k & 1 ? 1 : -1));
    plan[k].set_size(0.25f + 0.01f * float(k), 0.125f);
    plan[k].sprite = u8(k);
    plan[k].part = k == 0 ? colony::Part::Head : colony::Part::Leg;
  }
  return plan;
}();

// Pieces and volumes are written in place by every variant: built in a temporary and
// copied, the copy's wide loads would wait on the narrow stores that built it (a
// store-forwarding stall that costs more than the rest of a spawn). The plan's pieces
// are written long before.
inline void fill_piece(RenderPiece& p, const AntShape& s, u32 k) {
  p = kPiecePlan[k];
  p.color = 0xFF00'0000u | (s.serial & 0xFFFFFFu);
}

inline void fill_volume(CollisionVolume& v, const AntShape&, u32 k) {
  v.offset_x = 0.3f * float(k);
  v.offset_y = 0.0f;
  v.radius = 0.4f;
  v.role = u8(k);
}

inline Body make_body(const AntShape& s) {
  Body b;
  b.x = s.x;
  b.y = s.y;
  b.kind = colony::Kind::Worker;
  b.legs = 6;
  b.antennae = 2;
  return b;
}

// The iterate benchmarks' work per piece: position += velocity * dt style, using the
// piece's own fields (size stands in for a velocity) so every byte of the piece's cache
// lines is brought in and written back. The piece keeps fixed point (components.h), so
// the step is in its units: x += width * dt as the high half of the 32-bit product of
// width and dt in 65536ths (pmulhw), within a unit and a half of the exact step at any
// size (the low half shifted down, as before, wrapped past two cells of size). The piece
// is one vector of eight 16-bit lanes, changed in a register and written whole: field by
// field, GCC vectorised the loop across pieces into narrow stores that the next pieces'
// wide loads overlapped, and each load waited for them (a tenth of the memory's speed).
using PieceLanes = ecs::i16 __attribute__((vector_size(16)));  // colour, colour, x, y, width, height, turn, sprite|part
static_assert(sizeof(RenderPiece) == sizeof(PieceLanes) && offsetof(RenderPiece, x_units) == 4 &&
              offsetof(RenderPiece, width_units) == 8 && offsetof(RenderPiece, turn_units) == 12);
struct PieceStep {
  PieceLanes per_size;  // dt in 65536ths under x and y, zero elsewhere
  PieceLanes turn;      // the rotation's step under turn, zero elsewhere
};
inline PieceStep piece_step(float dt) {
  const auto step = ecs::i16(dt * 65536.0f), turn = ecs::i16(dt * 1024.0f);
  return {PieceLanes{0, 0, step, step, 0, 0, 0, 0}, PieceLanes{0, 0, 0, 0, 0, 0, turn, 0}};
}
inline void move_piece(RenderPiece& piece, const PieceStep& step) {
  PieceLanes v;
  std::memcpy(&v, static_cast<const void*>(&piece), sizeof v);
  // Width and height moved under x and y (whole 32-bit pairs: one shuffle).
  PieceLanes velocity = __builtin_shufflevector(v, v, 0, 1, 4, 5, 0, 1, 0, 1);
  v += PieceLanes(_mm_mulhi_epi16(__m128i(velocity), __m128i(step.per_size))) + step.turn;
  std::memcpy(static_cast<void*>(&piece), &v, sizeof v);
}
// The one loop over a run of pieces, every variant's (the pools' one run, the heap's and
// the size buckets' one per ant). A long run goes four pieces a step: rolled, the loop
// runs one piece per two cycles in cache, under the memory's speed. A short run (an ant's
// 8..16) stays rolled: unrolled, the heap's walk loses a quarter to a third of its speed.
// (GCC's unroll count must be a literal, hence the loop twice; the four steps written out
// by hand run as slow as the rolled loop: docs/performance-notes.md, iteration.)
inline constexpr u32 kUnrolledRun = 64;
inline void move_pieces(RenderPiece* pieces, u32 count, float dt) {
  const PieceStep step = piece_step(dt);
  u32 i = 0;
  if (count >= kUnrolledRun) {
#pragma GCC unroll 4
    for (; i < count; ++i) move_piece(pieces[i], step);
  }
  for (; i < count; ++i) move_piece(pieces[i], step);
}
inline constexpr float kDt = 1.0f / 60.0f;

// [SECTION] Timing

// Timed regions are measured with the thread's CPU clock: on a shared machine the time
// this thread spends descheduled is not charged to the code under test. Cache and
// memory-bandwidth interference from other processes still shows (see the README).
inline double thread_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace bench
