// world.h — the typed world: entity records, one Pool per component type, the chunk
// grid, deferred destruction, batched mass release and the validator.
//
// Table of contents
//   [SECTION] Record layout and configuration
//   [SECTION] Entities: create, lookup, move between chunks and tiers
//   [SECTION] Pool operations: reserve, add, remove one, release all
//   [SECTION] Destruction: immediate, deferred, batched mass release
//   [SECTION] Iteration and spatial queries
//   [SECTION] Stats
//   [SECTION] Validator
//   [SECTION] Private helpers: room, rewires
//   [SECTION] Batched release internals
//   [SECTION] Validator internals
//
// Every pool operation is written once, as a template over the component type.
// None of them allocates: all memory is taken when the world is created.
#pragma once
#include <algorithm>
#include <cassert>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bits.h"
#include "chunk_grid.h"
#include "entity_store.h"
#include "index_sort.h"
#include "lookahead.h"
#include "pool.h"
#include "stopwatch.h"

namespace ecs {

// How a batched release closes the holes it leaves.
enum class ReleaseStrategy : u8 {
  Auto,      // compaction when few survivors lie past the first hole (see kCompactDivisor), else tail fill
  TailFill,  // move live entries from the tail into the holes (work ~ holes)
  Compact,   // one stable pass from the first hole to the end (work ~ pool tail)
};

struct Violation {
  std::string pool;  // empty for entity/chunk checks
  u32 entry = kNone;
  Handle entity;
  std::string what;
};
std::string describe(const Violation& v);

template <class P>
concept Positioned = std::is_trivially_copyable_v<P> && requires(P p) {
  { p.x } -> std::convertible_to<float>;
  { p.y } -> std::convertible_to<float>;
};

template <Positioned Payload, Component... Cs>
class World {
 public:
  // [SECTION] Record layout and configuration
  static constexpr size_t kPoolCount = sizeof...(Cs);
  // An entity's slot lists, one per pool, side by side (a tuple is not trivially
  // copyable). They live beside the entity's directory entry (EntityStore's extra
  // bytes), not in the record: a record is what a system walking entities reads (header
  // and payload, a cache line or two); a rewire writes one list found straight from the
  // back-pointer's index with no record lookup; the batched release and a spawn find
  // directory entry and lists in one burst of adjacent lines; and a record moving
  // between tiers or chunks copies no slot indices.
  // The lists are laid out shortest first: an entity that holds a few slots in each
  // pool then has its counts and slots in the first lines after the directory entry.
  static constexpr std::array<u32, sizeof...(Cs)> kMaxes{Cs::kMaxPerEntity...};
  static constexpr std::array<size_t, sizeof...(Cs)> list_order() {
    std::array<size_t, sizeof...(Cs)> order{};
    for (size_t i = 0; i < order.size(); ++i) {  // insertion sort: stable, constexpr
      size_t j = i;
      for (; j > 0 && kMaxes[order[j - 1]] > kMaxes[i]; --j) order[j] = order[j - 1];
      order[j] = i;
    }
    return order;
  }
  template <size_t I, class L> struct Tagged { L list; };
  template <class Seq> struct ListPack;
  template <size_t... K>
  struct ListPack<std::index_sequence<K...>> : Tagged<list_order()[K], SlotList<kMaxes[list_order()[K]]>>... {};
  using Lists = ListPack<std::index_sequence_for<Cs...>>;
  struct Record {
    RecordHeader header;
    Payload payload;
  };
  static_assert(std::is_trivially_copyable_v<Record>);
  // Records live in the store's arena, which promises the alignment of any ordinary type.
  static_assert(alignof(Record) <= alignof(std::max_align_t), "a payload may not need more alignment than std::max_align_t");

  static constexpr u32 kDefaultSwapReleaseMax = 256;
  static constexpr u64 kDefaultSmallWorldBytes = u64(3) << 20;
  struct Config {
    u32 max_entities = 0;
    ChunkGrid grid;
    std::array<u32, kPoolCount> pool_capacity{};
    u32 block_records = kDefaultBlockRecords;  // records per storage block, rounded up to a power of two
    // A batch of at most this many entities is released one entity at a time by
    // swap-with-last (as destroy() does): for a few victims that beats the batch's extra
    // passes. Larger batches take the batched release (tail fill or compaction), unless
    // the world is small (small_world_bytes).
    u32 swap_release_max = kDefaultSwapReleaseMax;
    // A batch of any size is released one entity at a time as well while the world's
    // release_footprint() is at most this many bytes: a world that small sits in the
    // caches, and the batch passes, which win by keeping many misses in flight, find none
    // to overlap and run about twice the instructions (bench/README.md, "Small worlds go
    // one at a time"). The footprint counts every live entity's row, a tile's as an ant's,
    // so the rule follows what the caches must hold, not what a kill touches. 0: every
    // batch past swap_release_max takes the batch passes.
    u64 small_world_bytes = kDefaultSmallWorldBytes;
  };

  // Compaction is chosen when the survivors it would move (those past the first hole)
  // are at most 1/kCompactDivisor of the holes. Tail fill moves at most one survivor
  // per hole and finds the holes in address order through the bitmap, so it is as
  // cheap per move as the sweep and moves far fewer (bench/README.md, "Tried").
  static constexpr u32 kCompactDivisor = 4;

  explicit World(const Config& config)
      : grid_(grid_a_back_pointer_can_name(config)),
        store_(StoreConfig{config.max_entities, u32(sizeof(Record)), u32(alignof(Record)),
                           config.grid.chunk_count(), config.block_records, u32(sizeof(Lists))}),
        pools_(make_pools(config.pool_capacity, std::index_sequence_for<Cs...>{})),
        pending_(make_buffer<Handle>(config.max_entities)),
        sorted_{make_committed_buffer<Handle>(config.max_entities), make_committed_buffer<Handle>(config.max_entities)},
        dead_bits_{make_committed_buffer<u64>(dead_words(config.pool_capacity[index_of<Cs>()]))...},
        swap_release_max_(config.swap_release_max),
        small_world_bytes_(config.small_world_bytes) {}

  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const ChunkGrid& grid() const { return grid_; }
  EntityStore& store() { return store_; }
  const EntityStore& store() const { return store_; }

  // [SECTION] Entities: create, lookup, move between chunks and tiers

  // Returns the null handle (and counts it) when the store is full, or the chunk or the
  // tier is not one an entity can live in.
  Handle create(u32 chunk, Tier tier, u16 kind, const Payload& payload = {}) {
    Handle h = store_.create(chunk, tier, kind);
    if (h.is_null()) { ++failed_creates_; return h; }
    as_record(store_.find(h))->payload = payload;
    // A free index's rows hold no slots (released with the entity); the stale slot
    // indices past the counts are never read.
    ((list_at<Cs>(h.index).reserved = list_at<Cs>(h.index).added = 0), ...);
    // Spawns come in runs, and a freed index's rows are cold: start loading the ones a
    // create kCreateAhead spawns later will use while the caller fills this entity.
    prefetch_row(store_.next_free_index(kCreateAhead), store_.dir_stride());
    return h;
  }
  Handle create_at(Tier tier, u16 kind, const Payload& payload) {
    return create(grid_.chunk_at(float(payload.x), float(payload.y)), tier, kind, payload);
  }

  bool alive(Handle h) const { return store_.alive(h); }
  // The seed's lookup: handle plus the chunk the caller believes it is in.
  Record* lookup(Handle h, u32 chunk) {
    Record* r = find(h);
    return r && r->header.chunk == chunk ? r : nullptr;
  }
  Record* find(Handle h) { return as_record(store_.find(h)); }
  const Record* find(Handle h) const { return as_record(const_cast<EntityStore&>(store_).find(h)); }
  Payload* payload(Handle h) {
    Record* r = find(h);
    return r ? &r->payload : nullptr;
  }
  bool dying(Handle h) const { return alive(h) && (store_.dir(h.index).flags & kFlagDying); }
  // The handle of the entity owning a pool entry, or the null handle when no live entity
  // has that index and the generation bits the entry keeps (the directory has the rest).
  Handle owner_of(const BackPointer& bp) const {
    u32 index = u32(bp.owner_index);
    if (!store_.in_directory(index)) return {};
    const DirEntry& d = store_.dir(index);
    if (Tier(d.tier) == Tier::Free || generation_check(d.generation) != bp.owner_generation) return {};
    return {index, d.generation};
  }

  // O(slots): the record may move (dormant tier) and every back-pointer's chunk is updated.
  Result move_chunk(Handle h, u32 chunk) {
    if (!alive(h)) return Result::StaleHandle;
    if (chunk >= grid_.chunk_count()) return Result::BadChunk;
    Record* r = as_record(store_.move_chunk(h, chunk));
    if (!r) return Result::StoreFull;
    (set_owner_chunk<Cs>(*r), ...);
    return Result::Ok;
  }
  // O(1): back-pointers hold (handle, chunk, local), none of which a tier change alters,
  // so no pool entry is touched.
  Result set_tier(Handle h, Tier tier) {
    if (!alive(h)) return Result::StaleHandle;
    if (!is_living_tier(tier)) return Result::BadTier;
    return store_.set_tier(h, tier) ? Result::Ok : Result::StoreFull;
  }
  // move_chunk, then set_tier when the move succeeded, for each move in order: the moves a
  // walk over the entities collected instead of changing storage under its feet. A moved
  // entity's directory row and pool entries are cold (a dormant walk reaches them once in
  // many ticks), so each move's row is prefetched 2 x kMoveAhead moves ahead and, once it
  // has arrived, the back-pointers of its slots kMoveAhead ahead. Returns how many moves
  // were made in full (a move whose tier change found no storage block left has changed
  // chunk only, and is not counted).
  struct ChunkMove {
    Handle h;
    u32 chunk;
    Tier tier;
  };
  u32 move_chunks(std::span<const ChunkMove> moves) {
    const u32 n = u32(moves.size());
    u32 moved = 0;
    for (u32 i = 0; i < n; ++i) {
      if (i + 2 * kMoveAhead < n) prefetch_row(moves[i + 2 * kMoveAhead].h.index, kRowHead);
      if (i + kMoveAhead < n && alive(moves[i + kMoveAhead].h)) (prefetch_back_pointers<Cs>(moves[i + kMoveAhead].h.index), ...);
      const ChunkMove& m = moves[i];
      if (move_chunk(m.h, m.chunk) != Result::Ok) continue;
      moved += set_tier(m.h, m.tier) == Result::Ok;
    }
    return moved;
  }

  // [SECTION] Pool operations: reserve, add, remove one, release all

  template <class C> Pool<C>& pool() { return std::get<index_of<C>()>(pools_); }
  template <class C> const Pool<C>& pool() const { return std::get<index_of<C>()>(pools_); }
  // The entity's slot list in pool C (kept beside its directory entry).
  template <class C> auto& list(const Record& r) { return list_at<C>(r.header.handle.index); }
  template <class C> const auto& list(const Record& r) const { return list_at<C>(r.header.handle.index); }
  template <class C> auto& list_at(u32 index) {
    return static_cast<Tagged<index_of<C>(), SlotList<C::kMaxPerEntity>>&>(lists(index)).list;
  }
  template <class C> const auto& list_at(u32 index) const {
    return static_cast<const Tagged<index_of<C>(), SlotList<C::kMaxPerEntity>>&>(lists(index)).list;
  }
  template <class C> C& component(const Record& r, u32 local) {
    assert(local < list<C>(r).added);
    return pool<C>().items[list<C>(r).slot[local]];
  }

  // Reserves n more slots for h, all or nothing.
  template <class C>
  Result reserve(Handle h, u32 n) {
    if (!store_.alive(h)) return Result::StaleHandle;
    if (Result r = refuse_without_room<C>(h.index, n); r != Result::Ok) return r;
    if (n == 0) return Result::Ok;
    Pool<C>& p = pool<C>();
    auto& l = list_at<C>(h.index);
    p.leave_histogram(l);
    u32 chunk = store_.dir(h.index).chunk, base = p.stats.taken, first_local = l.reserved;
    BackPointer* owners = p.owners.get();
    for (u32 k = 0; k < n; ++k) {
      owners[base + k] = BackPointer{h.index, generation_check(h.generation), chunk, first_local + k};
      l.slot[first_local + k] = base + k;
    }
    l.reserved = u8(l.reserved + n);
    p.enter_histogram(l);
    p.stats.taken += n;
    if (p.stats.taken > p.stats.high_water) p.stats.high_water = p.stats.taken;
    p.stats.reserved_unused += n;
    p.count(&PoolCounters::reserves, n);
    return Result::Ok;
  }

  // Reserves counts[i] more slots for h in the i-th of pools Ps, all or nothing across
  // them: every pool is asked before any reserves, and each that has no room refuses and
  // counts its refusal. A refused entity leaves nothing behind in the pools that had room
  // (reserved one pool at a time, a spawn refused by its third pool showed in the first
  // as reserves and removes that never held a component).
  //   w.reserve_all<Piece, Volume, Sensor>(h, {12, 2, 3});
  template <class... Ps>
  Result reserve_all(Handle h, const std::array<u32, sizeof...(Ps)>& counts) {
    // A pool named twice would be asked twice for room it has once.
    static_assert(sizeof...(Ps) > 0 && distinct_pools<Ps...>(), "reserve_all: name each pool once");
    if (!store_.alive(h)) return Result::StaleHandle;
    return [&]<size_t... I>(std::index_sequence<I...>) {
      Result first = Result::Ok;
      ((first = first_of(first, refuse_without_room<Ps>(h.index, counts[I]))), ...);
      // Every pool has room now: none of these can refuse.
      if (first == Result::Ok) ((void)reserve<Ps>(h, counts[I]), ...);
      return first;
    }(std::index_sequence_for<Ps...>{});
  }

  // Adds n components into h's next reserved slots, all or nothing: fill(C&, k) writes
  // the k-th in place in the pool. An entity is dressed with one call per pool, paying
  // the handle check and the stats upkeep once, and no component is built elsewhere
  // and copied in.
  template <class C, class Fill>
  Result add_each(Handle h, u32 n, Fill&& fill) {
    if (!store_.alive(h)) return Result::StaleHandle;
    Pool<C>& p = pool<C>();
    auto& l = list_at<C>(h.index);
    u32 at = l.added;
    if (n > u32(l.reserved - at)) return Result::NoReservedSlot;
    C* items = p.items.get();
    for (u32 k = 0; k < n; ++k) fill(items[l.slot[at + k]], k);
    p.leave_histogram(l);
    l.added = u8(at + n);
    p.enter_histogram(l);
    p.stats.reserved_unused -= n;
    p.count(&PoolCounters::adds, n);
    return Result::Ok;
  }
  // Writes values into h's next reserved slots, all or nothing.
  template <class C>
  Result add(Handle h, std::span<const C> values) {
    return add_each<C>(h, u32(values.size()), [&](C& c, u32 k) { c = values[k]; });
  }
  // Writes value into h's next reserved slot.
  template <class C>
  Result add(Handle h, const C& value) { return add(h, std::span<const C>(&value, 1)); }

  // Removes the added component at `local`, keeping the order of the rest (the seed's
  // DeleteRenderPiece): the entry is swap-removed from the pool, then the entity's later
  // slots shift down one place and their back-pointers learn their new local index.
  template <class C>
  Result remove_one(Handle h, u32 local) {
    if (!store_.alive(h)) return Result::StaleHandle;
    Pool<C>& p = pool<C>();
    auto& l = list_at<C>(h.index);
    if (local >= l.added) return Result::BadLocalIndex;
    p.leave_histogram(l);
    swap_remove_entry(p, l.slot[local]);
    for (u32 c = local; c + 1 < l.reserved; ++c) {
      l.slot[c] = l.slot[c + 1];
      p.owners[l.slot[c]].local = c;
    }
    --l.reserved;
    --l.added;
    p.enter_histogram(l);
    return Result::Ok;
  }

  // Gives back every slot h holds in pool C, one swap-with-last each.
  template <class C>
  Result release_all(Handle h) {
    if (!store_.alive(h)) return Result::StaleHandle;
    release_list<C>(h.index);
    return Result::Ok;
  }

  // [SECTION] Destruction: immediate, deferred, batched mass release

  // Immediate destruction: releases every pool and frees the record and its index (every
  // handle to it is stale from now on; the index's next create bumps its generation).
  // Not for use while iterating the entity's tier: use queue_destroy there. An entity
  // already queued leaves the queue (so the queue only ever holds live entities).
  Result destroy(Handle h) {
    return release_one_at_a_time<MarkMode::FreeAndUnqueue>({&h, 1}) ? Result::Ok : Result::StaleHandle;
  }

  // Immediate batched destruction: every entity of the batch dies now, through the same
  // release as apply_destructions() (one mark pass, then each pool closes its holes; a
  // batch of at most Config::swap_release_max, or in a world of at most
  // Config::small_world_bytes, goes one entity at a time). Stale handles
  // and duplicates are skipped; a queued entity leaves the queue. Not for use while
  // iterating (as destroy()), and not with pending_destructions() as the batch: taking a
  // victim off the queue moves the queue's last entry into a place the walk has passed.
  // Returns how many entities died.
  u32 destroy_batch(std::span<const Handle> batch) {
    assert(!aliases_queue(batch) && "destroy_batch: use apply_destructions() for the queue");
    return destroy_entities<MarkMode::FreeAndUnqueue>(batch);
  }

  // Deferred destruction: the entity stays alive and resolvable until apply_destructions().
  // The dying flag is set in the directory and mirrored in the record header, so a system
  // walking records can skip the dead without a directory lookup.
  Result queue_destroy(Handle h) {
    if (!alive(h)) return Result::StaleHandle;
    DirEntry& d = store_.dir_mut(h.index);
    if (d.flags & kFlagDying) return Result::AlreadyQueued;
    d.flags |= kFlagDying;
    store_.record_of_index(h.index)->flags |= kFlagDying;
    d.queue_pos = pending_count_;
    pending_[pending_count_++] = h;
    return Result::Ok;
  }
  std::span<const Handle> pending_destructions() const { return {pending_.get(), pending_count_}; }

  // The one point in a tick where queued deaths happen, in two passes:
  //   1. mark  — one visit per victim: every pool counts its entries and sets their
  //              bits in the pool's dead-entry bitmap, the slot lists are emptied, the
  //              store frees the record (directory entry, chunk membership, storage);
  //              no pool entry is touched;
  //   2. close — each pool closes its holes (see close_holes), reading only the bitmap,
  //              the entries and the rows of the survivors it moves.
  // A victim is a handful of cache misses (directory entry, slot list row, chunk
  // neighbours, record), so the mark pass prefetches what it needs kPrefetchAhead
  // victims later and the misses overlap instead of following one another.
  // A batch of at most Config::swap_release_max victims, or any batch in a world of at
  // most Config::small_world_bytes, is released one entity at a time by swap-with-last
  // instead: for a few victims, or in a world the caches hold, that beats the passes.
  u32 apply_destructions() {
    u32 n = pending_count_;
    if (n == 0) return 0;
    destroy_entities<MarkMode::Free>({pending_.get(), n});
    pending_count_ = 0;
    return n;
  }

  // Releases every slot in pool C of every entity in the batch (duplicates and stale
  // handles are ignored), with the same mark and close passes; the entities live on.
  template <class C>
  void release_batch(std::span<const Handle> batch, ReleaseStrategy strategy = ReleaseStrategy::Auto) {
    mark_batch<MarkMode::SlotsOnly, C>(batch);
    close_holes<C>(strategy);
  }
  template <class C> ReleaseStrategy last_release_strategy() const { return last_strategy_[index_of<C>()]; }

  // [SECTION] Iteration and spatial queries

  // What fn may do while a walk is running:
  //   always        read and write records and components; reserve, add, remove_one,
  //                 release_all (pool entries move, records do not); queue_destroy;
  //                 create (new entities are not visited, but by for_each_entity: one
  //                 created dormant during its simulated part is met in its chunk's)
  //   never         destroy, set_tier, apply_destructions (they move records under the walk)
  //   for_each_simulated only: move_chunk (a simulated record stays where it is)
  // The game changes tiers and moves dormant records between walks.

  // fn(Record&) for every simulated entity, once each.
  template <class Fn>
  void for_each_simulated(Fn&& fn) {
    store_.walk(store_.simulated(), [&](RecordHeader* h) { fn(*as_record(h)); });
  }
  template <class Fn>
  void for_each_dormant_in_chunk(u32 chunk, Fn&& fn) {
    store_.walk(store_.dormant(chunk), [&](RecordHeader* h) { fn(*as_record(h)); });
  }
  // fn(Record&) for every entity in storage order: the simulated store, then each chunk's
  // dormant storage in chunk order (the order a state hash or a full check walks).
  template <class Fn>
  void for_each_entity(Fn&& fn) {
    for_each_simulated(fn);
    for (u32 c = 0; c < grid_.chunk_count(); ++c) for_each_dormant_in_chunk(c, fn);
  }
  // fn(Record&) for every entity (both tiers) in one chunk.
  template <class Fn>
  void for_each_in_chunk(u32 chunk, Fn&& fn) {
    store_.walk_chunk(chunk, [&](RecordHeader* h) { fn(*as_record(h)); });
  }
  // fn(Record&) for every entity within r of (x, y); visits only chunks the circle touches.
  template <class Fn>
  void for_each_in_radius(float x, float y, float r, Fn&& fn) {
    grid_.for_each_chunk_in_circle(x, y, r, [&](u32 chunk) {
      for_each_in_chunk(chunk, [&](Record& rec) {
        float dx = float(rec.payload.x) - x, dy = float(rec.payload.y) - y;
        if (dx * dx + dy * dy <= r * r) fn(rec);
      });
    });
  }
  // fn(slot index, C&) for each added component of a record, in order.
  template <class C, class Fn>
  void for_each_component(const Record& r, Fn&& fn) {
    const auto& l = list<C>(r);
    for (u32 k = 0; k < l.added; ++k) fn(k, pool<C>().items[l.slot[k]]);
  }

  // [SECTION] Stats

  // Starts a new tick for the per-tick counters.
  void begin_tick() { (reset_tick<Cs>(), ...); }
  template <class C> const PoolStats& stats() const { return pool<C>().stats; }
  std::array<const PoolStats*, kPoolCount> all_stats() const { return {&pool<Cs>().stats...}; }
  u64 failed_creates() const { return failed_creates_; }
  u32 live_count() const { return store_.live_count(); }
  // The bytes a release may touch: the live entities' directory rows (entry and slot
  // lists) and every taken pool entry with its back-pointer. At most
  // Config::small_world_bytes, every destruction goes one entity at a time.
  u64 release_footprint() const {
    u64 bytes = u64(store_.live_count()) * store_.dir_stride();
    ((bytes += u64(pool<Cs>().stats.taken) * (sizeof(Cs) + sizeof(BackPointer))), ...);
    return bytes;
  }
  u64 small_world_bytes() const { return small_world_bytes_; }
  // Whether every destruction goes one entity at a time now, whatever its size.
  bool is_small_world() const { return small_world_bytes_ && release_footprint() <= small_world_bytes_; }
  u32 swap_release_max() const { return swap_release_max_; }
  // How long the batched release's passes took, by the steady clock: the debugger shows
  // them as a bomb goes off and the benchmarks report them per victim. Timed are the
  // destructions (apply_destructions, destroy_batch) that take the batch passes; a batch
  // released one entity at a time (Config::swap_release_max, small_world_bytes) and release_batch
  // (the entities live on) are not.
  struct ReleaseTimes {
    u64 batches = 0;
    u64 victims = 0;
    double sort_ms = 0;                         // putting a dense batch in directory order
    double mark_ms = 0;                         // the mark pass, with the store's fill
    std::array<double, kPoolCount> close_ms{};  // each pool's close, in the world's pool order
    double total_ms() const {
      double t = sort_ms + mark_ms;
      for (double c : close_ms) t += c;
      return t;
    }
    void add(const ReleaseTimes& t) {
      batches += t.batches;
      victims += t.victims;
      sort_ms += t.sort_ms;
      mark_ms += t.mark_ms;
      for (size_t i = 0; i < kPoolCount; ++i) close_ms[i] += t.close_ms[i];
    }
  };
  const ReleaseTimes& last_release() const { return last_release_; }    // the latest timed batch
  const ReleaseTimes& release_totals() const { return release_totals_; }  // every timed batch, summed
  u32 simulated_count() const { return store_.simulated().count; }

  // [SECTION] Validator

  // Walks every entity, every chunk and every pool entry, and checks that the batched
  // release's scratch bitmaps are clear. Returns at most max_reports violations (the rest
  // are only counted in the last message); *found, when given, gets how many there are in
  // all. Reads only: the const_cast is for the store's walks, which hand out writable
  // records.
  std::vector<Violation> validate(size_t max_reports = 256, u64* found = nullptr) const {
    Validation v{max_reports};
    auto& self = const_cast<World&>(*this);
    self.validate_entities(v);
    // The pools' checks compare the walk's sums and read owners' records: not over
    // storage whose chains are broken.
    if (v.records_walked) (self.template validate_pool<Cs>(v), ...);
    if (!store_.batch_scratch_clear()) v.report("", kNone, {}, "the store's batched-free bitmap has bits set between batches");
    if (found) *found = v.out.size() + v.dropped;
    if (v.dropped) v.out.push_back({"", kNone, {}, std::to_string(v.dropped) + " more violations not listed"});
    return std::move(v.out);
  }

 private:
  friend struct SnapshotAccess;    // snapshot.h writes and restores the world exactly
  friend struct WorldTestAccess;   // tests/ecs reach the release's scratch to dirty it
  // [SECTION] Private helpers: room, rewires
  template <class C>
  static constexpr size_t index_of() {
    constexpr bool matches[] = {std::is_same_v<C, Cs>...};
    for (size_t i = 0; i < kPoolCount; ++i)
      if (matches[i]) return i;
    return kPoolCount;
  }
  template <size_t... I>
  static std::tuple<Pool<Cs>...> make_pools(const std::array<u32, kPoolCount>& caps, std::index_sequence<I...>) {
    return std::tuple<Pool<Cs>...>(Pool<Cs>(caps[I])...);
  }
  static Record* as_record(RecordHeader* h) { return reinterpret_cast<Record*>(h); }
  // Words of a pool's dead-entry bitmap (a bit per entry; at least one word, also for an
  // empty pool), as the world allocates it and the validator reads it.
  static constexpr size_t dead_words(u32 capacity) { return size_t(capacity) / 64 + 1; }
  // The config's grid, once the world it describes fits its back-pointers: an owner's
  // index in 28 bits, a chunk in 22. A grid must come from ChunkGrid::make (a default
  // one has no chunks), and its chunk count is taken in 64 bits: 65,536 x 65,536 one-cell
  // chunks would wrap a 32-bit count to 0.
  static const ChunkGrid& grid_a_back_pointer_can_name(const Config& config) {
    const ChunkGrid& g = config.grid;
    if (g.chunk_cells == 0 || g.chunks_x == 0 || g.chunks_y == 0)
      throw std::invalid_argument("ecs::World: the grid has no chunks (build it with ChunkGrid::make)");
    if (u64(g.chunks_x) * g.chunks_y > kMaxChunks) throw std::length_error("ecs::World: more chunks than a back-pointer can name (2^22)");
    if (config.max_entities > kMaxEntityIndex) throw std::length_error("ecs::World: more entities than a back-pointer can name (2^28 - 1)");
    return config.grid;
  }
  Lists& lists(u32 index) { return *reinterpret_cast<Lists*>(store_.entity_extra(index)); }
  const Lists& lists(u32 index) const { return *reinterpret_cast<const Lists*>(store_.entity_extra(index)); }

  // Refuses, and counts a failed reservation, when pool C cannot take n more slots for the
  // live entity at index: why, or Ok when it can. Compared as "n > room" so a huge n cannot
  // wrap around.
  template <class C>
  Result refuse_without_room(u32 index, u32 n) {
    Pool<C>& p = pool<C>();
    Result r = n > Pool<C>::kMax - list_at<C>(index).reserved ? Result::EntityMaxReached
               : n > p.stats.capacity - p.stats.taken         ? Result::PoolFull
                                                               : Result::Ok;
    if (r != Result::Ok) p.count(&PoolCounters::failed_reservations);
    return r;
  }
  static Result first_of(Result a, Result b) { return a != Result::Ok ? a : b; }
  template <class... Ps>
  static constexpr bool distinct_pools() {
    constexpr size_t pools[] = {index_of<Ps>()...};
    for (size_t a = 0; a < sizeof...(Ps); ++a)
      for (size_t b = a + 1; b < sizeof...(Ps); ++b)
        if (pools[a] == pools[b]) return false;
    return true;
  }

  // Points the owner of entry s at s (the entry has just moved there). The batch passes
  // count their rewires once at the end; rewire() counts each.
  template <class C>
  void point_owner_at(Pool<C>& p, u32 s) {
    const BackPointer& bp = p.owners[s];
    list_at<C>(bp.owner_index).slot[bp.local] = s;
  }
  template <class C>
  void rewire(Pool<C>& p, u32 s) {
    point_owner_at(p, s);
    p.count(&PoolCounters::rewires);
  }
  // Whether a batch lies in the destruction queue's buffer.
  bool aliases_queue(std::span<const Handle> batch) const {
    const auto begin = reinterpret_cast<std::uintptr_t>(pending_.get()), at = reinterpret_cast<std::uintptr_t>(batch.data());
    return at >= begin && at < begin + sizeof(Handle) * store_.max_entities();
  }

  // [SECTION] Batched release internals

  // How many victims (or pool entries) ahead the batch passes prefetch.
  static constexpr u32 kPrefetchAhead = 16;
  // How many moves ahead move_chunks prefetches a move's back-pointers (its row twice as far).
  static constexpr u32 kMoveAhead = 4;
  // How many creates ahead create() prefetches the directory row of the index it will take.
  static constexpr u32 kCreateAhead = 4;
  // How many pool entries ahead close_holes prefetches a survivor's owner row.
  static constexpr u32 kRowAhead = 64;
  // How many holes ahead the tail fill prefetches the hole's entry.
  static constexpr u32 kHoleAhead = 32;

  // What the mark pass does besides marking the slots: nothing (release_batch: the
  // entities live on), free each victim's record (apply_destructions: the whole queue
  // dies), or also take a queued victim off the queue (destroy_batch).
  enum class MarkMode : u8 { SlotsOnly, Free, FreeAndUnqueue };

  // Pass 1 for pools Ps over the batch: notes per pool how many entries the batch
  // frees and where the lowest one is, sets their bits in the pool's dead bitmap and
  // empties the slot lists (a duplicate then finds nothing left to count); frees the
  // records as the mode says, by the store's batched free (the records' holes are closed
  // once, at the end). It never touches a pool entry. What it reads is prefetched by
  // prefetch_victims: the head of the directory row 2 x kPrefetchAhead victims ahead,
  // the rest of the row's used lines and the chunk neighbours the store's free unlinks
  // kPrefetchAhead ahead, once the head naming them has arrived, and the bitmap words the
  // slots are marked in half as far ahead. Returns how many live entities it marked.
  template <MarkMode kMode, class... Ps>
  u32 mark_batch(std::span<const Handle> batch) {
    (reset_marks<Ps>(), ...);
    auto count = [&](u32 index) { (count_dead<Ps>(index), ...); };
    if constexpr (kMode == MarkMode::SlotsOnly) return visit_victims<kMode, true, Ps...>(batch, count);
    store_.begin_batch_free();
    u32 died = visit_victims<kMode, true, Ps...>(batch, count);
    store_.end_batch_free();
    return died;
  }
  // Destroys the batch's live entities (apply_destructions, destroy_batch): a batch of at
  // most swap_release_max_, or any batch while the world's release_footprint() is at most
  // small_world_bytes_, one entity at a time by swap-with-last, as destroy() does; a
  // larger one by the mark and close passes.
  template <MarkMode kMode>
  u32 destroy_entities(std::span<const Handle> batch) {
    if (batch.size() <= swap_release_max_ || is_small_world()) return release_small_batch<kMode>(batch);
    ReleaseTimes t{.batches = 1};
    Stopwatch watch;
    std::span<const Handle> ordered = in_directory_order(batch);
    t.sort_ms = watch.lap_ms();
    u32 died = mark_batch<kMode, Cs...>(ordered);
    t.mark_ms = watch.lap_ms();
    ((close_holes<Cs>(ReleaseStrategy::Auto), t.close_ms[index_of<Cs>()] = watch.lap_ms()), ...);
    t.victims = died;
    note_release(t);
    return died;
  }
  // A small batch, released one entity at a time, in a function of its own: inlined into
  // destroy_entities beside the mark pass, the same loop ran measurably slower than
  // destroy() called once per victim (bench/README.md, change 17).
  template <MarkMode kMode>
  [[gnu::noinline]] u32 release_small_batch(std::span<const Handle> batch) { return release_one_at_a_time<kMode>(batch); }
  void note_release(const ReleaseTimes& t) {
    last_release_ = t;
    release_totals_.add(t);
  }
  // Every slot of each live victim released by swap-with-last, then its record freed:
  // destroy() and the small batches.
  template <MarkMode kMode>
  u32 release_one_at_a_time(std::span<const Handle> batch) {
    return visit_victims<kMode, false>(batch, [&](u32 index) { (release_list<Cs>(index), ...); });
  }
  // A batch holding at least one in kSortDensity of the live entities is walked in handle
  // index order: the directory rows are then read nearly in address order and stream in,
  // where in random order each one waits on memory (bench/README.md, change 10). A
  // sparser batch, a bomb's 10 % say, gains nothing and is walked as it comes. The sort
  // is sort_by_index (index_sort.h).
  static constexpr u32 kSortDensity = 8;
  std::span<const Handle> in_directory_order(std::span<const Handle> batch) {
    if (u64(batch.size()) * kSortDensity < store_.live_count() || batch.size() > store_.max_entities()) return batch;
    return sort_by_index(batch, u32(std::bit_width(store_.max_entities())), {sorted_[0].get(), sorted_[1].get()});
  }
  // The one walk over a batch of victims: skips stale handles and duplicates, calls
  // visit(index) for each live victim, then frees its record (and takes it off the
  // queue) as kMode says. Returns how many it visited. kBatch: the mark pass over pools
  // Ps, which prefetches the victims ahead (their lists and bitmap words in Ps only) and
  // frees records by the store's batched free (inside its begin and end). A small batch
  // walks without both: a few victims leave little to overlap, and the prefetches cost
  // more than they hide when the world is in cache.
  template <MarkMode kMode, bool kBatch, class... Ps, class Visit>
  u32 visit_victims(std::span<const Handle> batch, Visit&& visit) {
    u32 n = u32(batch.size()), visited = 0;
    for (u32 i = 0; i < n; ++i) {
      if constexpr (kBatch) prefetch_victims<Ps...>(batch, i, kMode != MarkMode::SlotsOnly);
      Handle h = batch[i];
      if (!store_.alive(h)) continue;
      ++visited;
      visit(h.index);
      if constexpr (kMode == MarkMode::FreeAndUnqueue)
        if (store_.dir(h.index).flags & kFlagDying) unqueue(h.index);
      if constexpr (kMode != MarkMode::SlotsOnly) {
        if constexpr (kBatch) store_.free_in_batch(h.index);
        else store_.destroy(h);
      }
    }
    return visited;
  }
  template <class C>
  void reset_marks() {
    mark_dead_[index_of<C>()] = 0;
    mark_first_hole_[index_of<C>()] = kNone;
  }
  template <class C>
  void count_dead(u32 index) {
    constexpr size_t I = index_of<C>();
    Pool<C>& p = pool<C>();
    auto& l = list_at<C>(index);
    if (l.reserved == 0) return;
    p.forget_list(l);
    u64* bits = dead_bits_[I].get();
    u32 first = mark_first_hole_[I];
    for (u32 k = 0; k < l.reserved; ++k) {
      u32 s = l.slot[k];
      set_bit(bits, s);
      first = s < first ? s : first;
    }
    mark_first_hole_[I] = first;
    mark_dead_[I] += l.reserved;
    l.reserved = l.added = 0;
  }
  template <class C>
  bool is_dead(u32 s) const { return test_bit(dead_bits_[index_of<C>()].get(), s); }

  // Pass 2 for pool C: closes the holes the marked entries leave, in one of two ways,
  // each moving every survivor at most once: tail fill (work ~ holes) or compaction
  // (work ~ pool tail; keeps each entity's entries in their order). Both find the dead
  // through the bitmap; a moved survivor's owner row is prefetched kRowAhead entries
  // before the move rewires it. The bitmap is cleared behind them.
  template <class C>
  void close_holes(ReleaseStrategy strategy) {
    constexpr size_t I = index_of<C>();
    Pool<C>& p = pool<C>();
    u32 dead = mark_dead_[I], first_hole = mark_first_hole_[I];
    if (dead == 0) return;
    u32 taken = p.stats.taken, new_taken = taken - dead;
    bool compact = strategy == ReleaseStrategy::Compact ||
                   (strategy == ReleaseStrategy::Auto && u64(taken - first_hole - dead) * kCompactDivisor <= dead);
    u64 rewires = compact ? compact_holes(p, first_hole, taken) : tail_fill_holes(p, first_hole, new_taken, taken);
    clear_bits(dead_bits_[I].get(), first_hole, taken);
    p.stats.taken = new_taken;
    p.count(&PoolCounters::removes, dead);
    p.count(&PoolCounters::rewires, rewires);
    last_strategy_[I] = compact ? ReleaseStrategy::Compact : ReleaseStrategy::TailFill;
  }

  // Compaction: one stable sweep from the first hole to the end, the survivors sliding
  // down in order. Returns the moves (each a rewire).
  template <class C>
  [[gnu::always_inline]] u64 compact_holes(Pool<C>& p, u32 first_hole, u32 taken) {
    u64 rewires = 0;
    u32 w = first_hole;
    for (u32 s = first_hole; s < taken; ++s) {
      if (s + kRowAhead < taken) prefetch_owner_row(p, s + kRowAhead);
      if (is_dead<C>(s)) continue;
      if (s != w) {
        p.move_entry(s, w);
        point_owner_at(p, w);
        ++rewires;
      }
      ++w;
    }
    return rewires;
  }
  // Tail fill: the survivors past the new end move into the holes below it, lowest hole
  // first, the highest survivor first. Each hole is prefetched kHoleAhead holes before its
  // move (a hole is a victim's entry, cold). Returns the moves (each a rewire).
  template <class C>
  [[gnu::always_inline]] u64 tail_fill_holes(Pool<C>& p, u32 first_hole, u32 new_taken, u32 taken) {
    u64 rewires = 0;
    SetBits hole_bits{dead_bits_[index_of<C>()].get(), first_hole, new_taken};
    std::array<u32, kHoleAhead> ring;
    auto holes = lookahead(ring, [&](u32& h) {
      if (!hole_bits.next(h)) return false;
      prefetch_for_write(&p.items[h]);
      prefetch_for_write(&p.owners[h]);
      return true;
    });
    u32 tail = taken;
    for (u32 hole; holes.next(hole); ++rewires) {
      do { --tail; } while (is_dead<C>(tail));
      // kRowAhead entries below: the survivor's owner row and its entry (the tail is read
      // downwards, and the hardware's stream prefetch stops at every page boundary).
      if (tail >= kRowAhead) {
        prefetch_owner_row(p, tail - kRowAhead);
        prefetch_for_read(&p.items[tail - kRowAhead]);
      }
      p.move_entry(tail, hole);
      point_owner_at(p, hole);
    }
    return rewires;
  }

  // Prefetch helpers: each names the lines a batch pass or a create will touch soon.
  // A walk over victims, in three steps: 2 x kPrefetchAhead ahead the first kRowHead
  // bytes of the directory row (the entry and the list counts); kPrefetchAhead ahead, once
  // those have arrived, the rest of the lines the lists use, found from their counts, and
  // (free) the chunk links the store's free unlinks; kPrefetchAhead / 2 ahead, once the
  // lists have arrived, the dead-bitmap words their slots are marked in (lists and words
  // of the pools being marked only: release_batch marks one). An ant's row is 256 bytes
  // and its lists use two or three lines of it: loading the whole row wasted a line or two
  // per victim.
  static constexpr size_t kRowHead = 128;
  template <class... Ps>
  void prefetch_victims(std::span<const Handle> batch, u32 i, bool free) {
    if (i + 2 * kPrefetchAhead < batch.size()) prefetch_row(batch[i + 2 * kPrefetchAhead].index, kRowHead);
    if (i + kPrefetchAhead < batch.size()) {
      u32 index = batch[i + kPrefetchAhead].index;
      if (store_.in_directory(index)) (prefetch_list_past_head<Ps>(index), ...);
      if (free) prefetch_chunk_links(batch[i + kPrefetchAhead]);
    }
    if (i + kPrefetchAhead / 2 < batch.size()) {
      u32 index = batch[i + kPrefetchAhead / 2].index;
      if (store_.in_directory(index)) (prefetch_dead_bits<Ps>(index), ...);
    }
  }
  // The first `bytes` of an entity's directory row (the entry, then its slot lists), and
  // its chunk link. create() asks for the whole row: it does not know the counts to come.
  void prefetch_row(u32 index, size_t bytes) {
    if (!store_.in_directory(index)) return;
    const char* row = reinterpret_cast<const char*>(&store_.dir(index));
    for (size_t off = 0; off < std::min(bytes, size_t(store_.dir_stride())); off += 64) prefetch_for_write(row + off);
    prefetch_for_write(&store_.sim_link(index));
  }
  // The lines of pool C's slot list past the row's head that the list uses: up to its
  // count when the count lies in the head (already loaded), else the whole list.
  template <class C>
  void prefetch_list_past_head(u32 index) {
    const auto& l = list_at<C>(index);
    const char* row = reinterpret_cast<const char*>(&store_.dir(index));
    size_t begin = size_t(reinterpret_cast<const char*>(&l) - row);
    if (begin + sizeof(l) <= kRowHead) return;  // the whole list lies in the head (folds away)
    u32 used = begin < kRowHead ? l.reserved : C::kMaxPerEntity;
    size_t end = size_t(reinterpret_cast<const char*>(&l.slot[used]) - row);
    for (size_t off = std::max(begin, kRowHead) & ~size_t(63); off < end; off += 64) prefetch_for_write(row + off);
  }
  // The words of pool C's dead bitmap that the entity's first and last slots fall in: an
  // entity's slots are reserved as one run, and a tail fill moves them in runs, so most of
  // them lie in those words. The mark pass sets them by read-modify-write, and the rows
  // streaming past evict the bitmap, spread over the pool at one line per 512 entries,
  // from the caches (bench/README.md, change 14).
  template <class C>
  void prefetch_dead_bits(u32 index) {
    const auto& l = list_at<C>(index);
    if (l.reserved == 0) return;
    const u64* bits = dead_bits_[index_of<C>()].get();
    const u64* first = &bits[l.slot[0] >> 6];
    const u64* last = &bits[l.slot[l.reserved - 1] >> 6];
    prefetch_for_write(first);
    if ((reinterpret_cast<uintptr_t>(first) ^ reinterpret_cast<uintptr_t>(last)) >= 64) prefetch_for_write(last);
  }
  // The back-pointers of the entity's first and last slots in pool C: its slots are
  // reserved as one run, so most of them lie in those lines (move_chunks rewrites them all).
  template <class C>
  void prefetch_back_pointers(u32 index) {
    const auto& l = list_at<C>(index);
    if (l.reserved == 0) return;
    const BackPointer* owners = pool<C>().owners.get();
    prefetch_for_write(&owners[l.slot[0]]);
    prefetch_for_write(&owners[l.slot[l.reserved - 1]]);
  }
  // What the store's batched free of a victim touches besides its directory entry: the
  // chunk neighbours it is unlinked from.
  void prefetch_chunk_links(Handle h) {
    if (!store_.alive(h)) return;
    const SimLink& l = store_.sim_link(h.index);
    if (l.prev) prefetch_for_write(&store_.sim_link(l.prev));
    if (l.next) prefetch_for_write(&store_.sim_link(l.next));
  }
  // The line of the owner's slot list that entry s's rewire will write. Asked for every
  // entry, not once per run of entries with the same owner: an ant's render slots cross a
  // line of its row at the thirteenth piece, and a run's rewires found the second line
  // cold (bench/README.md, change 12).
  template <class C>
  void prefetch_owner_row(Pool<C>& p, u32 s) {
    prefetch_for_write(&list_at<C>(p.owners[s].owner_index).slot[p.owners[s].local]);
  }

  // Frees entry s by moving the pool's last entry into it and rewiring that entry's owner.
  template <class C>
  void swap_remove_entry(Pool<C>& p, u32 s) {
    u32 last = p.stats.taken - 1;
    if (s != last) { p.move_entry(last, s); rewire(p, s); }
    p.stats.taken = last;
    p.count(&PoolCounters::removes);
  }
  template <class C>
  void release_list(u32 index) {
    Pool<C>& p = pool<C>();
    auto& l = list_at<C>(index);
    if (l.reserved == 0) return;
    p.forget_list(l);
    // From the back: a rewire may only touch this entity's not yet released slots.
    for (u32 k = l.reserved; k-- > 0;) swap_remove_entry(p, l.slot[k]);
    l.reserved = l.added = 0;
  }
  // Takes a queued entity out of the destruction queue (the queue's last entry fills the gap).
  void unqueue(u32 index) {
    DirEntry& d = store_.dir_mut(index);
    Handle last = pending_[--pending_count_];
    pending_[d.queue_pos] = last;
    store_.dir_mut(last.index).queue_pos = d.queue_pos;
    d.flags &= u8(~kFlagDying);
    store_.record_of_index(index)->flags &= u8(~kFlagDying);
  }
  template <class C>
  void set_owner_chunk(Record& r) {
    auto& l = list<C>(r);
    for (u32 k = 0; k < l.reserved; ++k) pool<C>().owners[l.slot[k]].chunk = r.header.chunk;
  }
  template <class C>
  void reset_tick() { pool<C>().stats.tick = PoolCounters{}; }

  // [SECTION] Validator internals

  // One validation's findings, and what the entities hold per pool, summed over the walk
  // and compared with each pool's stats at the end.
  struct Validation {
    size_t max;
    std::vector<Violation> out{};
    size_t dropped = 0;
    std::array<u64, kPoolCount> reserved{}, unused{}, owners{};
    std::array<std::array<u32, PoolStats::kMaxHistogram>, kPoolCount> histogram{};
    bool records_walked = false;  // the sums above are whole (the storage's chains held)
    void report(const char* pool, u32 entry, Handle h, std::string what) {
      if (out.size() < max) out.push_back({pool, entry, h, std::move(what)});
      else ++dropped;
    }
  };

  void validate_record(Validation& v, Record& r, Tier tier, u32 chunk) {
    Handle h = r.header.handle;
    if (!store_.alive(h)) { v.report("", kNone, h, "record in storage but its handle is not alive"); return; }
    const DirEntry& d = store_.dir(h.index);
    if (store_.record_of_index(h.index) != &r.header) v.report("", kNone, h, "directory does not point at the record");
    if (Tier(r.header.tier) != tier || Tier(d.tier) != tier) v.report("", kNone, h, "tier disagrees with the storage holding the record");
    if (r.header.chunk != d.chunk) v.report("", kNone, h, "record chunk disagrees with the directory");
    if ((r.header.flags & kFlagDying) != (d.flags & kFlagDying)) v.report("", kNone, h, "record's dying flag disagrees with the directory");
    if (tier == Tier::Dormant && r.header.chunk != chunk) v.report("", kNone, h, "dormant record stored in chunk " + std::to_string(chunk) + " but says chunk " + std::to_string(r.header.chunk));
    (validate_slots<Cs>(v, r), ...);
  }

  template <class C>
  void validate_slots(Validation& v, Record& r) {
    const Pool<C>& p = pool<C>();
    const auto& l = list<C>(r);
    Handle h = r.header.handle;
    if (l.reserved > Pool<C>::kMax || l.added > l.reserved) {
      v.report(C::kPoolName, kNone, h, "counts out of range: reserved " + std::to_string(l.reserved) + ", added " + std::to_string(l.added));
      return;
    }
    for (u32 k = 0; k < l.reserved; ++k) {
      u32 s = l.slot[k];
      if (s >= p.stats.taken || s >= p.stats.capacity) { v.report(C::kPoolName, s, h, "slot " + std::to_string(k) + " points past taken"); continue; }
      const BackPointer& bp = p.owners[s];
      if (!bp.names(h) || bp.local != k || bp.chunk != r.header.chunk)
        v.report(C::kPoolName, s, h, "back-pointer does not round-trip (slot " + std::to_string(k) + ")");
    }
    constexpr size_t I = index_of<C>();
    v.reserved[I] += l.reserved;
    v.unused[I] += u32(l.reserved - l.added);
    if (l.reserved) { ++v.histogram[I][l.added]; ++v.owners[I]; }
  }

  void validate_entities(Validation& v) {
    // The record walks below follow the chains: a chain out of the arena is reported and
    // ends the entity checks but for the directory's.
    if (!validate_storage(v)) return validate_directory(v);
    v.records_walked = true;
    u32 seen = 0;
    store_.walk(store_.simulated(), [&](RecordHeader* h) { validate_record(v, *as_record(h), Tier::Simulated, h->chunk); ++seen; });
    u32 linked = 0;
    for (u32 c = 0; c < store_.chunk_count(); ++c) {
      store_.walk(store_.dormant(c), [&](RecordHeader* h) { validate_record(v, *as_record(h), Tier::Dormant, c); ++seen; });
      u32 in_chunk = 0, prev = 0;
      for (u32 i = store_.sim_head(c); i != 0 && in_chunk <= store_.simulated().count; i = store_.sim_link(i).next, ++in_chunk) {
        if (i > store_.max_entities()) { v.report("", kNone, {i, 0}, "chunk " + std::to_string(c) + " membership list holds an index past the directory"); break; }
        const DirEntry& d = store_.dir(i);
        if (Tier(d.tier) != Tier::Simulated || d.chunk != c)
          v.report("", kNone, {i, d.generation}, "chunk " + std::to_string(c) + " lists a member that is not simulated there");
        if (store_.sim_link(i).prev != prev) v.report("", kNone, {i, d.generation}, "chunk " + std::to_string(c) + " membership list: back link broken");
        prev = i;
      }
      if (in_chunk != store_.sim_count_in(c)) v.report("", kNone, {}, "chunk " + std::to_string(c) + " simulated member count disagrees with its list");
      linked += in_chunk;
    }
    if (linked != store_.simulated().count) v.report("", kNone, {}, "chunk membership lists hold " + std::to_string(linked) + " simulated entities, the store " + std::to_string(store_.simulated().count));
    if (seen != store_.live_count()) v.report("", kNone, {}, "storage holds " + std::to_string(seen) + " records, live count is " + std::to_string(store_.live_count()));
    validate_directory(v);
  }

  // Every index is either live or on the free stack; every dying entity is queued exactly
  // once, at the position its directory entry names.
  void validate_directory(Validation& v) {
    u32 live = 0, flagged = 0, retired = 0;
    for (u32 i = 1; i <= store_.max_entities(); ++i) {
      const DirEntry& d = store_.dir(i);
      if (Tier(d.tier) == Tier::Free) {
        retired += d.generation == kLastGeneration;
        continue;
      }
      ++live;
      if (!(d.flags & kFlagDying)) continue;
      ++flagged;
      Handle h{i, d.generation};
      if (d.queue_pos >= pending_count_ || !(pending_[d.queue_pos] == h)) v.report("", kNone, h, "flagged dying but not at its place in the destruction queue");
    }
    if (live != store_.live_count()) v.report("", kNone, {}, "directory holds " + std::to_string(live) + " live indices, live count is " + std::to_string(store_.live_count()));
    if (retired != store_.retired_count())
      v.report("", kNone, {}, "directory holds " + std::to_string(retired) + " retired indices, retired count is " + std::to_string(store_.retired_count()));
    if (u64(live) + store_.free_index_count() + retired != store_.max_entities())
      v.report("", kNone, {}, "live, free and retired indices do not add up to the directory size");
    // The free stack: a live index on it would be handed out again by the next create.
    store_.check_free_indices([&](u32 k, u32 i, bool in_range_once) {
      if (in_range_once) v.report("", kNone, {i, store_.dir(i).generation}, "on the free index stack but live or retired");
      else v.report("", kNone, {}, "free index stack entry " + std::to_string(k) + " (" + std::to_string(i) + ") is out of range or repeated");
    });
    if (flagged != pending_count_) v.report("", kNone, {}, std::to_string(flagged) + " entities flagged dying, " + std::to_string(pending_count_) + " queued");
    for (Handle h : pending_destructions())
      if (!dying(h)) v.report("", kNone, h, "queued for destruction but not alive and flagged");
  }

  // Every block list holds exactly the blocks its count needs, and used plus free
  // blocks add up to the arena. Returns false when a chain leaves the arena: then no walk
  // may follow the chains (the next link would be read from past the block table).
  bool validate_storage(Validation& v) {
    u64 used = 0;
    bool chains_in_arena = true;
    // Each block belongs to one chain or to the free stack, never two (a block both used
    // and free would be handed out again and its records overwritten).
    std::vector<u8> owner(store_.total_blocks(), 0);
    auto claim = [&](u32 b, const std::string& name) {
      if (b >= owner.size()) {
        v.report("", kNone, {}, name + " names block " + std::to_string(b) + ", past the arena");
        return false;
      }
      if (owner[b]++) v.report("", kNone, {}, name + " holds block " + std::to_string(b) + ", which is also used elsewhere");
      return true;
    };
    for (u32 k = 0; k < store_.free_blocks(); ++k) claim(store_.free_block_at(k), "the free block stack");
    auto check = [&](const BlockList& list, const std::string& name) {
      u32 need = (list.count + store_.block_records() - 1) / store_.block_records(), have = 0, last = kNone;
      for (u32 b = list.first; b != kNone && have <= need; b = store_.next_block(b), ++have) {
        last = b;
        if (!claim(b, name)) { chains_in_arena = false; break; }
      }
      if (have != need || last != list.last) v.report("", kNone, {}, name + " holds " + std::to_string(list.count) + " records in a chain of " + std::to_string(have) + " blocks");
      used += have;
    };
    check(store_.simulated(), "simulated store");
    for (u32 c = 0; c < store_.chunk_count(); ++c) check(store_.dormant(c), "chunk " + std::to_string(c) + " dormant storage");
    if (used + store_.free_blocks() != store_.total_blocks()) v.report("", kNone, {}, "storage blocks: " + std::to_string(used) + " used + " + std::to_string(store_.free_blocks()) + " free != " + std::to_string(store_.total_blocks()));
    return chains_in_arena;
  }

  template <class C>
  void validate_pool(Validation& v) {
    const Pool<C>& p = pool<C>();
    constexpr size_t I = index_of<C>();
    const PoolStats& st = p.stats;
    if (v.reserved[I] != st.taken) v.report(C::kPoolName, kNone, {}, "entities hold " + std::to_string(v.reserved[I]) + " slots, taken is " + std::to_string(st.taken));
    if (v.unused[I] != st.reserved_unused) v.report(C::kPoolName, kNone, {}, "reserved-unused count " + std::to_string(st.reserved_unused) + " disagrees with the entities' " + std::to_string(v.unused[I]));
    if (v.owners[I] != st.owners) v.report(C::kPoolName, kNone, {}, "owner count " + std::to_string(st.owners) + " disagrees with the entities' " + std::to_string(v.owners[I]));
    if (st.taken > st.capacity || st.high_water < st.taken || st.high_water > st.capacity) v.report(C::kPoolName, kNone, {}, "taken/high-water out of range");
    for (u32 k = 0; k <= Pool<C>::kMax; ++k)
      if (v.histogram[I][k] != st.histogram[k]) { v.report(C::kPoolName, kNone, {}, "histogram bucket " + std::to_string(k) + " disagrees"); break; }
    for (u32 s = 0; s < st.taken && s < st.capacity; ++s) {
      const BackPointer& bp = p.owners[s];
      Handle owner = owner_of(bp);
      if (owner.is_null()) { v.report(C::kPoolName, s, {u32(bp.owner_index), u32(bp.owner_generation)}, "entry owned by a dead or stale handle"); continue; }
      // The owner's chunk from the directory, not its record: a corrupt directory entry
      // (validate_record's report) may point anywhere.
      const u32 owner_chunk = store_.dir(bp.owner_index).chunk;
      const auto& l = list_at<C>(bp.owner_index);
      // A count past the maximum (a corrupt save) is validate_slots' report; no slot past
      // the list is read.
      u32 listed = std::min<u32>(l.reserved, Pool<C>::kMax);
      if (bp.local >= listed || l.slot[bp.local] != s) v.report(C::kPoolName, s, owner, "owner's slot list does not point back at this entry");
      else if (bp.chunk != owner_chunk) v.report(C::kPoolName, s, owner, "back-pointer chunk " + std::to_string(bp.chunk) + " but the owner is in chunk " + std::to_string(owner_chunk));
    }
    // The dead-entry bitmap is all zero between releases: a bit left set would make the
    // next batch take a live entry for a dead one.
    const u64* bits = dead_bits_[I].get();
    for (size_t w = 0; w < dead_words(st.capacity); ++w)
      if (bits[w]) { v.report(C::kPoolName, u32(w * 64 + size_t(std::countr_zero(bits[w]))), {}, "dead-entry bitmap has a bit set between releases"); break; }
  }

  ChunkGrid grid_;
  EntityStore store_;
  std::tuple<Pool<Cs>...> pools_;
  Buffer<Handle> pending_;
  // Scratch of in_directory_order: the two buffers its radix sort passes between. Like the
  // dead bitmaps, committed when the world is made (make_committed_buffer).
  std::array<Buffer<Handle>, 2> sorted_;
  // Scratch of the batched release (not state: all zero between calls): one bit per
  // pool entry, set for the entries a batch frees.
  std::array<Buffer<u64>, kPoolCount> dead_bits_;
  u32 swap_release_max_ = kDefaultSwapReleaseMax;
  u64 small_world_bytes_ = kDefaultSmallWorldBytes;
  std::array<u32, kPoolCount> mark_dead_{}, mark_first_hole_{};
  u32 pending_count_ = 0;
  u64 failed_creates_ = 0;
  std::array<ReleaseStrategy, kPoolCount> last_strategy_{};
  ReleaseTimes last_release_, release_totals_;
};

}  // namespace ecs
