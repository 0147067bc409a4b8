// variants.h — the four ways of storing an ant's variable-count pieces and volumes that
// the kill/spawn/iterate benchmarks compare. All share one shape:
//
//   using Ref = ...;                        what the benchmark keeps per live ant
//   static constexpr const char* kName;     the <variant> part of the benchmark name
//   explicit V(u32 max_ants);               all memory a variant preallocates
//   Ref  spawn(const AntShape&);            create an ant with its pieces and volumes
//   void kill(std::span<const Ref>);        kill these ants (all different, all alive)
//   u64  move_all_pieces(float dt);         one pass over every live piece; bytes touched
//   u64  live_pieces() const;
//   double bytes_per_live_piece() const;    piece storage held per live piece
//   std::string check();                    "" when the structure is consistent
//
// Table of contents
//   [SECTION] pools and pools_swap_one — the engine (ColonyEcs)
//   [SECTION] heap — an object per ant holding std::vectors
//   [SECTION] size_buckets — the seed's first idea: free lists bucketed by array size
#pragma once
#include <malloc.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "workload.h"

namespace bench {

// A benchmark that cannot do what it measures stops loudly instead of measuring less.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "colony_bench: %s\n", what);
    std::abort();
  }
}

// [SECTION] pools and pools_swap_one — the engine (ColonyEcs)

// kBatched: a kill is one destroy_batch call (the engine's batched release). Otherwise
// each victim is destroyed on its own, every piece released with one swap-with-last, as
// the seed does. kJournal: the release journal is on (with the game's ring sizes), as
// while the debugger is open: pools_journal beside pools is what recording costs.
template <bool kBatched, bool kJournal = false>
struct PoolsVariant {
  using Ref = ecs::Handle;
  static constexpr const char* kName = kJournal ? "pools_journal" : kBatched ? "pools" : "pools_swap_one";

  std::unique_ptr<colony::ColonyEcs> world;
  // The engine's thresholds for one-at-a-time release (Config::swap_release_max and
  // small_world_bytes) for the worlds made from now on. A --tiny run lowers both, so that
  // its toy-sized batched kills take the batch passes the full run measures, and are
  // validated after every step like the rest.
  static inline u32 swap_release_max = colony::ColonyEcs::kDefaultSwapReleaseMax;
  static inline u64 small_world_bytes = colony::ColonyEcs::kDefaultSmallWorldBytes;

  explicit PoolsVariant(u32 max_ants) {
    colony::ColonyEcs::Config c;
    c.max_entities = max_ants;
    c.grid = ecs::ChunkGrid::make(u32(kWorldCells), u32(kWorldCells), 32);
    c.pool_capacity.of<RenderPiece>() = max_ants * kMaxPieces;
    c.pool_capacity.of<CollisionVolume>() = max_ants * kMaxVolumes;
    c.pool_capacity.of<colony::Sensor>() = 1;
    c.swap_release_max = swap_release_max;
    c.small_world_bytes = small_world_bytes;
    if (kJournal)
      c.journal_steps = colony::kJournalSteps, c.journal_victims = colony::kJournalVictims,
      c.journal_releases = colony::kJournalReleases;
    world = std::make_unique<colony::ColonyEcs>(c);
    require(world->set_journal(kJournal) == kJournal, "pools: the journal did not turn on");
  }

  Ref spawn(const AntShape& s) {
    colony::ColonyEcs& w = *world;
    Ref h = w.create_at(ecs::Tier::Simulated, u16(colony::Kind::Worker), make_body(s));
    require(!h.is_null(), "pools: entity store full");
    // Reserved, then filled in place in the pool (as the heap variant fills its vectors).
    require(w.reserve<RenderPiece>(h, s.pieces) == ecs::Result::Ok, "pools: piece reservation refused");
    w.add_each<RenderPiece>(h, s.pieces, [&](RenderPiece& p, u32 k) { fill_piece(p, s, k); });
    require(w.reserve<CollisionVolume>(h, s.volumes) == ecs::Result::Ok, "pools: volume reservation refused");
    w.add_each<CollisionVolume>(h, s.volumes, [&](CollisionVolume& v, u32 k) { fill_volume(v, s, k); });
    return h;
  }

  void kill(std::span<const Ref> victims) {
    colony::ColonyEcs& w = *world;
    if constexpr (kBatched) {
      require(w.destroy_batch(victims) == victims.size(), "pools: a victim was not destroyed");
    } else {
      for (Ref h : victims) w.destroy(h);
    }
  }

  u64 move_all_pieces(float dt) {
    auto& p = world->pool<RenderPiece>();
    u32 n = p.taken();
    move_pieces(p.items.get(), n, dt);
    return u64(n) * sizeof(RenderPiece);
  }

  u64 live_pieces() const { return world->stats<RenderPiece>().taken; }

  // Entries with their back-pointers up to the high-water mark, plus each live entity's
  // slot list for the pool.
  double bytes_per_live_piece() const {
    const ecs::PoolStats& s = world->stats<RenderPiece>();
    double bytes = double(s.high_water) * (sizeof(RenderPiece) + sizeof(ecs::BackPointer)) +
                   double(world->live_count()) * sizeof(ecs::SlotList<RenderPiece::kMaxPerEntity>);
    return s.taken ? bytes / s.taken : 0.0;
  }

  std::string check() {
    auto violations = world->validate(4);
    std::string out;
    for (const auto& v : violations) out += ecs::describe(v) + "; ";
    return out;
  }
};
using Pools = PoolsVariant<true>;
using PoolsSwapOne = PoolsVariant<false>;
using PoolsJournal = PoolsVariant<true, true>;

// [SECTION] heap — an object per ant holding std::vectors

// The baseline a newcomer writes: each ant a heap object with a std::vector of pieces and
// one of volumes (sized once with reserve), the ants in a std::vector of pointers, and a
// kill = delete + swap-with-last in that vector.
struct HeapVariant {
  struct Ant {
    Body body;
    std::vector<RenderPiece> pieces;
    std::vector<CollisionVolume> volumes;
    u32 index;  // position in ants
  };
  using Ref = Ant*;
  static constexpr const char* kName = "heap";

  std::vector<Ant*> ants;

  explicit HeapVariant(u32 max_ants) { ants.reserve(max_ants); }
  ~HeapVariant() {
    for (Ant* a : ants) delete a;
  }
  HeapVariant(const HeapVariant&) = delete;
  HeapVariant& operator=(const HeapVariant&) = delete;

  Ref spawn(const AntShape& s) {
    Ant* a = new Ant{make_body(s), {}, {}, u32(ants.size())};
    a->pieces.reserve(s.pieces);
    for (u32 k = 0; k < s.pieces; ++k) fill_piece(a->pieces.emplace_back(), s, k);
    a->volumes.reserve(s.volumes);
    for (u32 k = 0; k < s.volumes; ++k) fill_volume(a->volumes.emplace_back(), s, k);
    ants.push_back(a);
    return a;
  }

  void kill(std::span<const Ref> victims) {
    for (Ant* a : victims) {
      Ant* last = ants.back();
      ants[a->index] = last;
      last->index = a->index;
      ants.pop_back();
      delete a;
    }
  }

  u64 move_all_pieces(float dt) {
    u64 n = 0;
    for (Ant* a : ants) {
      move_pieces(a->pieces.data(), u32(a->pieces.size()), dt);
      n += a->pieces.size();
    }
    return n * sizeof(RenderPiece);
  }

  u64 live_pieces() const {
    u64 n = 0;
    for (const Ant* a : ants) n += a->pieces.size();
    return n;
  }

  // Each piece array's malloc block (usable size plus glibc's 8-byte chunk header) and
  // the vector object that points at it.
  double bytes_per_live_piece() const {
    double bytes = 0;
    for (const Ant* a : ants)
      bytes += double(malloc_usable_size(const_cast<RenderPiece*>(a->pieces.data())) + 8 + sizeof(a->pieces));
    u64 n = live_pieces();
    return n ? bytes / double(n) : 0.0;
  }

  std::string check() {
    for (u32 i = 0; i < ants.size(); ++i)
      if (ants[i]->index != i) return "heap: ant " + std::to_string(i) + " has index " + std::to_string(ants[i]->index);
    return "";
  }
};

// [SECTION] size_buckets — the seed's first idea: free lists bucketed by array size

// One preallocated arena of C. A freed array of size s goes onto free list s (linked
// through its own first bytes). Taking n looks in list n, then upwards for the closest
// larger array, and only then grows the arena: memory is reused, but a larger array
// handed to a smaller request stays oversized, and small freed arrays can never serve
// larger requests.
// The arena is one engine buffer (ecs::make_buffer), in the same huge pages as the pools.
template <class C, u32 Max>
struct BucketArena {
  ecs::Buffer<C> items;
  u32 capacity = 0;
  u32 bump = 0;  // high-water mark: the arena never shrinks
  std::array<u32, Max + 1> free_head;

  explicit BucketArena(u32 cap) : items(ecs::make_buffer<C>(cap)), capacity(cap) { free_head.fill(ecs::kNone); }

  // Returns the first index; *size is the array's real size (>= n).
  u32 take(u32 n, u8* size) {
    for (u32 s = n; s <= Max; ++s) {
      u32 first = free_head[s];
      if (first == ecs::kNone) continue;
      std::memcpy(&free_head[s], &items[first], sizeof(u32));
      *size = u8(s);
      return first;
    }
    require(bump + n <= capacity, "size_buckets: arena exhausted");
    u32 first = bump;
    bump += n;
    *size = u8(n);
    return first;
  }

  void give(u32 first, u32 size) {
    std::memcpy(static_cast<void*>(&items[first]), &free_head[size], sizeof(u32));
    free_head[size] = first;
  }
};

struct SizeBucketsVariant {
  // The seed's entity: the arrays' first indices, counts and real sizes.
  struct Ant {
    Body body;
    u32 id;
    u32 pieces, volumes;
    u8 piece_count, piece_size;
    u8 volume_count, volume_size;
  };
  using Ref = u32;  // ant id; where_ maps it to the ant's place in ants_
  static constexpr const char* kName = "size_buckets";

  BucketArena<RenderPiece, RenderPiece::kMaxPerEntity> piece_arena;
  BucketArena<CollisionVolume, CollisionVolume::kMaxPerEntity> volume_arena;
  std::vector<Ant> ants;
  std::vector<u32> where, free_ids;

  // Twice the worst live piece count: room for the fragmentation churn leaves behind.
  explicit SizeBucketsVariant(u32 max_ants)
      : piece_arena(2 * max_ants * kMaxPieces), volume_arena(2 * max_ants * kMaxVolumes) {
    ants.reserve(max_ants);
    where.resize(max_ants);
    free_ids.reserve(max_ants);
    for (u32 i = max_ants; i-- > 0;) free_ids.push_back(i);
  }

  Ref spawn(const AntShape& s) {
    require(!free_ids.empty(), "size_buckets: out of ant ids");
    Ant a{make_body(s), free_ids.back(), 0, 0, s.pieces, 0, s.volumes, 0};
    free_ids.pop_back();
    a.pieces = piece_arena.take(s.pieces, &a.piece_size);
    for (u32 k = 0; k < s.pieces; ++k) fill_piece(piece_arena.items[a.pieces + k], s, k);
    a.volumes = volume_arena.take(s.volumes, &a.volume_size);
    for (u32 k = 0; k < s.volumes; ++k) fill_volume(volume_arena.items[a.volumes + k], s, k);
    where[a.id] = u32(ants.size());
    ants.push_back(a);
    return a.id;
  }

  void kill(std::span<const Ref> victims) {
    for (Ref id : victims) {
      u32 i = where[id];
      const Ant& a = ants[i];
      piece_arena.give(a.pieces, a.piece_size);
      volume_arena.give(a.volumes, a.volume_size);
      ants[i] = ants.back();
      where[ants[i].id] = i;
      ants.pop_back();
      free_ids.push_back(id);
    }
  }

  u64 move_all_pieces(float dt) {
    u64 n = 0;
    RenderPiece* items = piece_arena.items.get();
    for (const Ant& a : ants) {
      move_pieces(&items[a.pieces], a.piece_count, dt);
      n += a.piece_count;
    }
    return n * sizeof(RenderPiece);
  }

  u64 live_pieces() const {
    u64 n = 0;
    for (const Ant& a : ants) n += a.piece_count;
    return n;
  }

  // The arena up to its high-water mark, plus what each ant keeps of its piece array (its
  // first index, count and real size), as the pools are charged each entity's slot list
  // and the heap each vector.
  double bytes_per_live_piece() const {
    u64 n = live_pieces();
    constexpr double kPerAnt = sizeof(Ant::pieces) + sizeof(Ant::piece_count) + sizeof(Ant::piece_size);
    return n ? (double(piece_arena.bump) * sizeof(RenderPiece) + double(ants.size()) * kPerAnt) / double(n) : 0.0;
  }

  std::string check() {
    for (u32 i = 0; i < ants.size(); ++i)
      if (where[ants[i].id] != i) return "size_buckets: ant " + std::to_string(i) + " not where its id says";
    return "";
  }
};

}  // namespace bench
