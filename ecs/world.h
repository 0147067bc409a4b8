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
#include <cstring>
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
#include "journal.h"
#include "lookahead.h"
#include "pool.h"
#include "pool_list.h"
#include "stopwatch.h"
#include "view.h"

namespace ecs {

// How a batched release closes the holes it leaves.
enum class ReleaseStrategy : u8 {
  Auto,      // compaction when few survivors lie past the first hole (see kCompactDivisor), else tail fill
  TailFill,  // move live entries from the tail into the holes (work ~ holes)
  Compact,   // one stable pass from the first hole to the end (work ~ pool tail)
};

// What the release's mark pass does besides marking the slots: nothing (release_batch:
// the entities live on), free each victim's record (apply_destructions: the whole queue
// dies), or also take a queued victim off the queue (destroy_batch).
enum class MarkMode : u8 { SlotsOnly, Free, FreeAndUnqueue };

struct Violation {
  std::string pool;  // empty for entity/chunk checks
  u32 entry = kNone;
  Handle entity;
  std::string what;
};
std::string describe(const Violation& v);

template <Positioned Payload, Component... Cs>
class World {
 public:
  // [SECTION] Record layout and configuration
  static constexpr size_t kPoolCount = sizeof...(Cs);
  // The pools as one type list: visit them with Pools::for_each (pool_list.h).
  using Pools = PoolList<Cs...>;
  // A value per pool, named by the pool's type (capacities: cfg.pool_capacity.of<C>()).
  template <class T>
  using PerPool = ecs::PerPool<T, Cs...>;
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
  template <size_t I, class L>
  struct Tagged {
    L list;
  };
  template <class Seq>
  struct ListPack;
  template <size_t... K>
  struct ListPack<std::index_sequence<K...>> : Tagged<list_order()[K], SlotList<kMaxes[list_order()[K]]>>... {};
  using Lists = ListPack<std::index_sequence_for<Cs...>>;
  struct Record {
    RecordHeader header;
    Payload payload;
  };
  static_assert(std::is_trivially_copyable_v<Record>);
  // Records live in the store's arena, which promises the alignment of any ordinary type.
  static_assert(alignof(Record) <= alignof(std::max_align_t),
                "a payload may not need more alignment than std::max_align_t");

  static constexpr u32 kDefaultSwapReleaseMax = 256;
  static constexpr u64 kDefaultSmallWorldBytes = u64(3) << 20;
  // What a world needs: room for entities and each pool's capacity. A world that uses
  // space gives a grid (ChunkGrid::make); without one the world has a single chunk.
  struct Config {
    u32 max_entities = 0;
    PerPool<u32> pool_capacity;  // by type: pool_capacity.of<C>() = n
    ChunkGrid grid;
    u32 block_records = kDefaultBlockRecords;  // records per storage block, rounded up to a power of two
    // A batch of at most this many entities is released one entity at a time by
    // swap-with-last (as destroy() does): for a few victims that beats the batch's extra
    // passes. Larger batches take the batched release (tail fill or compaction), unless
    // the world is small (small_world_bytes).
    u32 swap_release_max = kDefaultSwapReleaseMax;
    // A batch of any size is released one entity at a time as well while the world's
    // release_footprint() is at most this many bytes: a world that small sits in the
    // caches, and the batch passes, which win by keeping many misses in flight, find none
    // to overlap and run about twice the instructions (docs/performance-notes.md, small
    // worlds). The footprint counts every live entity's row, a tile's as an ant's,
    // so the rule follows what the caches must hold, not what a kill touches. 0: every
    // batch past swap_release_max takes the batch passes.
    u64 small_world_bytes = kDefaultSmallWorldBytes;
    // The release journal's rings (journal.h): steps (moves, holes), victims and release
    // records kept. All zero: no journal (set_journal cannot turn it on).
    u32 journal_steps = 0;
    u32 journal_victims = 0;
    u32 journal_releases = 0;
  };

  // Compaction is chosen when the survivors it would move (those past the first hole)
  // are at most 1/kCompactDivisor of the holes. Tail fill moves at most one survivor
  // per hole and finds the holes in address order through the bitmap, so it is as
  // cheap per move as the sweep and moves far fewer (docs/performance-notes.md).
  static constexpr u32 kCompactDivisor = 4;

  explicit World(const Config& config)
      : grid_(grid_a_back_pointer_can_name(config)),
        store_(StoreConfig{config.max_entities, u32(sizeof(Record)), u32(alignof(Record)), grid_.chunk_count(),
                           config.block_records, u32(sizeof(Lists))}),
        pools_(make_pools(config.pool_capacity, std::index_sequence_for<Cs...>{})),
        pending_(make_buffer<Handle>(config.max_entities)),
        sorted_{make_committed_buffer<Handle>(config.max_entities), make_committed_buffer<Handle>(config.max_entities)},
        dead_bits_{make_committed_buffer<u64>(dead_words(config.pool_capacity.template of<Cs>()))...},
        pool_order_(make_buffer<u32>(std::max({config.pool_capacity.template of<Cs>()...}))),
        pool_sorted_(make_buffer<std::byte>(
            std::max({size_t(config.pool_capacity.template of<Cs>()) * (sizeof(BackPointer) + sizeof(Cs))...}))),
        swap_release_max_(config.swap_release_max),
        small_world_bytes_(config.small_world_bytes),
        journal_(config.journal_steps, config.journal_victims, config.journal_releases) {}

  World(const World&) = delete;
  World& operator=(const World&) = delete;
  // Moving hands every buffer over; a moved-from world may only be destroyed or assigned to.
  World(World&&) noexcept = default;
  World& operator=(World&&) noexcept = default;

  const ChunkGrid& grid() const { return grid_; }
  EntityStore& store() { return store_; }
  const EntityStore& store() const { return store_; }

  // [SECTION] Entities: create, lookup, move between chunks and tiers

  // Returns the null handle (and counts it) when the store is full, or the chunk or the
  // tier is not one an entity can live in.
  // tag: the user's own (the game's entity kind); views can skip records by it.
  Handle create(u32 chunk, Tier tier, u16 tag, const Payload& payload = {}) {
    Handle h = store_.create(chunk, tier, tag);
    if (h.is_null()) {
      ++failed_creates_;
      return h;
    }
    as_record(store_.find(h))->payload = payload;
    // A free index's rows hold no slots (released with the entity); the stale slot
    // indices past the counts are never read.
    ((list_at<Cs>(h.index).reserved = list_at<Cs>(h.index).added = 0), ...);
    // Spawns come in runs, and a freed index's rows are cold: start loading the ones a
    // create kCreateAhead spawns later will use while the caller fills this entity.
    prefetch_row(store_.next_free_index(kCreateAhead), store_.dir_stride());
    return h;
  }
  Handle create_at(Tier tier, u16 tag, const Payload& payload) {
    return create(grid_.chunk_at(float(payload.x), float(payload.y)), tier, tag, payload);
  }
  // A simulated entity in the chunk under its position (a world without a grid has one).
  Handle create(const Payload& payload = {}, u16 tag = 0) { return create_at(Tier::Simulated, tag, payload); }

  bool alive(Handle h) const { return store_.alive(h); }
  // The seed's lookup: handle plus the chunk the caller believes it is in.
  Record* lookup(Handle h, u32 chunk) {
    Record* r = find(h);
    return r && r->header.chunk == chunk ? r : nullptr;
  }
  Record* find(Handle h) { return as_record(store_.find(h)); }
  const Record* find(Handle h) const { return as_record(const_cast<EntityStore&>(store_).find(h)); }
  // The record of the live entity at index (no generation check: for a user that keeps
  // indices of entities it knows alive, as a per-tick occupancy grid does).
  Record& record_at(u32 index) { return *as_record(store_.record_of_index(index)); }
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
  // entity's directory row, record and pool entries are cold (a dormant walk reaches them
  // once in many ticks, and a million simulated ants' rows do not fit a cache), so each
  // move's row and chunk link are prefetched 2 x kMoveAhead moves ahead and, once they
  // have arrived, its record (whose header the move rewrites), the back-pointers of its
  // slots and its chunk neighbours' links kMoveAhead ahead. Returns how many moves
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
      if (i + kMoveAhead < n && alive(moves[i + kMoveAhead].h)) {
        prefetch_for_write(store_.record_of_index(moves[i + kMoveAhead].h.index));
        (prefetch_back_pointers<Cs>(moves[i + kMoveAhead].h.index), ...);
        prefetch_chunk_links(moves[i + kMoveAhead].h);
      }
      const ChunkMove& m = moves[i];
      if (move_chunk(m.h, m.chunk) != Result::Ok) continue;
      moved += set_tier(m.h, m.tier) == Result::Ok;
    }
    return moved;
  }

  // [SECTION] Pool operations: reserve, add, remove one, release all

  template <class C>
  Pool<C>& pool() {
    return std::get<index_of<C>()>(pools_);
  }
  template <class C>
  const Pool<C>& pool() const {
    return std::get<index_of<C>()>(pools_);
  }
  // The entity's slot list in pool C (kept beside its directory entry).
  template <class C>
  auto& list(const Record& r) {
    return list_at<C>(r.header.handle.index);
  }
  template <class C>
  const auto& list(const Record& r) const {
    return list_at<C>(r.header.handle.index);
  }
  template <class C>
  auto& list_at(u32 index) {
    return static_cast<Tagged<index_of<C>(), SlotList<C::kMaxPerEntity>>&>(lists(index)).list;
  }
  template <class C>
  const auto& list_at(u32 index) const {
    return static_cast<const Tagged<index_of<C>(), SlotList<C::kMaxPerEntity>>&>(lists(index)).list;
  }
  template <class C>
  C& component(const Record& r, u32 local) {
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
    }
    (std::index_sequence_for<Ps...>{});
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
  Result add(Handle h, const C& value) {
    return add(h, std::span<const C>(&value, 1));
  }

  // Removes the added component at `local`, keeping the order of the rest (the seed's
  // DeleteRenderPiece): the entry is swap-removed from the pool, then the entity's later
  // slots shift down one place and their back-pointers learn their new local index.
  template <class C>
  Result remove_one(Handle h, u32 local) {
    if (!store_.alive(h)) return Result::StaleHandle;
    if (local >= list_at<C>(h.index).added) return Result::BadLocalIndex;
    if (journal_.on()) {
      journal_.begin(ReleasePath::RemoveOne, release_footprint());
      remove_one_as<C, true>(h, local);
      journal_.end();
    } else {
      remove_one_as<C, false>(h, local);
    }
    return Result::Ok;
  }

  // Gives back every slot h holds in pool C, one swap-with-last each.
  template <class C>
  Result release_all(Handle h) {
    if (!store_.alive(h)) return Result::StaleHandle;
    if (!journal_.on()) {
      release_list<C, false>(h.index);
      return Result::Ok;
    }
    journal_.begin(ReleasePath::OneAtATime, release_footprint());
    journal_.victim(h);
    release_list<C, true>(h.index);
    journal_.end();
    return Result::Ok;
  }

  // [SECTION] Destruction: immediate, deferred, batched mass release

  // Immediate destruction: releases every pool and frees the record and its index (every
  // handle to it is stale from now on; the index's next create bumps its generation).
  // Not for use while iterating the entity's tier: use queue_destroy there. An entity
  // already queued leaves the queue (so the queue only ever holds live entities).
  Result destroy(Handle h) {
    if (!journal_.on())
      return release_one_at_a_time<MarkMode::FreeAndUnqueue, false>({&h, 1}) ? Result::Ok : Result::StaleHandle;
    if (!alive(h)) return Result::StaleHandle;
    journal_.begin(ReleasePath::OneAtATime, release_footprint());
    release_one_at_a_time<MarkMode::FreeAndUnqueue, true>({&h, 1});
    journal_.end();
    return Result::Ok;
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
    if (!journal_.on()) {
      mark_batch<MarkMode::SlotsOnly, false, C>(batch);
      close_holes<C, false>(strategy);
      return;
    }
    journal_.begin(ReleasePath::TailFill, release_footprint());
    mark_batch<MarkMode::SlotsOnly, true, C>(batch);
    close_holes<C, true>(strategy);
    journal_.end();
  }
  template <class C>
  ReleaseStrategy last_release_strategy() const {
    return last_strategy_[index_of<C>()];
  }

  // [SECTION] Release journal

  // The journal (journal.h) of every release while it is on: read it through journal().
  // Off by default; a world made without rings (Config::journal_*) cannot turn it on.
  // Returns whether it is on now.
  bool set_journal(bool on) { return journal_.set_on(on); }
  bool journal_on() const { return journal_.on(); }
  const Journal<kPoolCount>& journal() const { return journal_; }
  using JournalRelease = ecs::JournalRelease<kPoolCount>;
  // The tick and cause stamped on the releases journaled from now on (the caller's codes).
  void journal_context(u64 tick, u32 cause) { journal_.set_context(tick, cause); }
  // A pool's index in the world's pool order (the journal's steps name pools by it).
  template <class C>
  static constexpr size_t pool_index() {
    return index_of<C>();
  }

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
  void for_each_simulated(Fn&& fn);
  template <class Fn>
  void for_each_dormant_in_chunk(u32 chunk, Fn&& fn);
  // fn(Record&) for every entity in storage order: the simulated store, then each chunk's
  // dormant storage in chunk order (the order a state hash or a full check walks).
  template <class Fn>
  void for_each_entity(Fn&& fn);
  // fn(Record&) for every entity (both tiers) in one chunk.
  template <class Fn>
  void for_each_in_chunk(u32 chunk, Fn&& fn);
  // fn(Record&) for every entity within r of (x, y); visits only chunks the circle touches.
  template <class Fn>
  void for_each_in_radius(float x, float y, float r, Fn&& fn);
  // fn(slot index, C&) for each added component of a record, in order.
  template <class C, class Fn>
  void for_each_component(const Record& r, Fn&& fn);

  // Views (view.h): ranges a walk can look ahead in, and walks that skip tags.
  // The simulated records, in storage order.
  RecordView<Record> simulated() { return {store_, store_.simulated()}; }
  // Space order for the walks: the simulated records in chunk order (EntityStore::
  // sort_simulated_by_chunk), then pool C's entries in the order of their owners there,
  // each owner's slots in its own order, the rest after in the order they had. A walk of
  // the simulated records then reads the map chunk by chunk and their C entries front to
  // back. Moves records and entries, rewiring the owners of those that move: not while a
  // walk runs or a release is under way. Each goes through a scratch as large as the
  // store's or the pool's capacity, committed as the first sort writes it.
  void sort_simulated_by_chunk() { store_.sort_simulated_by_chunk(); }
  template <class C>
  void order_pool_like_simulated() {
    static_assert(alignof(C) <= alignof(BackPointer), "the sorted entries follow the back-pointers");
    Pool<C>& p = pool<C>();
    const u32 taken = p.taken();
    u32* to = pool_order_.get();
    std::fill(to, to + taken, kNone);
    BackPointer* owners = reinterpret_cast<BackPointer*>(pool_sorted_.get());
    C* items = reinterpret_cast<C*>(owners + p.capacity());
    // The simulated owners' entries first, copied out in the store's order and each
    // owner's slot list pointed at the new places as it is read. The lists lie at random
    // (by index): each is prefetched kAhead records before it is read.
    constexpr u32 kAhead = 16;
    u32 next = 0;
    RecordCursor<Record> ahead = simulated().begin();
    for (u32 k = 0; k < kAhead && !ahead.done(); ++k) ++ahead;
    for (RecordCursor<Record> r = simulated().begin(); !r.done(); ++r) {
      if (!ahead.done()) prefetch_for_read(&list_at<C>(ahead->header.handle.index)), ++ahead;
      auto& l = list_at<C>(r->header.handle.index);
      for (u32 k = 0; k < l.reserved; ++k) {
        const u32 s = l.slot[k];
        to[s] = next, owners[next] = p.owners[s], items[next] = p.items[s];
        l.slot[k] = next++;
      }
    }
    // Then every other entry in the order it had; its owner is rewired when it moved.
    for (u32 s = 0; s < taken; ++s) {
      if (to[s] != kNone) continue;
      owners[next] = p.owners[s], items[next] = p.items[s];
      if (next != s) list_at<C>(owners[next].owner_index).slot[owners[next].local] = next;
      ++next;
    }
    std::memcpy(p.owners.get(), owners, size_t(taken) * sizeof(BackPointer));
    std::memcpy(p.items.get(), items, size_t(taken) * sizeof(C));
  }
  // The simulated records in jobs of about records_per_job (whole blocks), for a walk
  // shared between threads (workers.h).
  RecordJobs<Record> simulated_jobs(u32 records_per_job) {
    return {store_, store_.simulated(), store_.rank_simulated_blocks(), records_per_job};
  }
  // Chunk c's records, simulated members then dormant storage, minus the tags in skip.
  ChunkView<Record> in_chunk(u32 chunk, TagSet skip = 0) { return {store_, chunk, skip}; }
  // Chunk c's dormant records, minus the tags in skip.
  RecordView<Record> dormant_in(u32 chunk, TagSet skip = 0) { return {store_, store_.dormant(chunk), skip}; }
  // Pool C's components (with their owners when asked).
  template <class C>
  ComponentView<C, World> components() {
    return {pool<C>(), *this};
  }

  // [SECTION] Stats

  // Starts a new tick for the per-tick counters.
  void begin_tick() { (reset_tick<Cs>(), ...); }
  template <class C>
  const PoolStats& stats() const {
    return pool<C>().stats;
  }
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
  // How long the batched release's passes took, by the thread's CPU clock (stopwatch.h,
  // the clock of the game's system timers too): the debugger shows
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
  const ReleaseTimes& last_release() const { return last_release_; }      // the latest timed batch
  const ReleaseTimes& release_totals() const { return release_totals_; }  // every timed batch, summed
  u32 simulated_count() const { return store_.simulated().count; }
  u32 simulated_in_chunk(u32 chunk) const { return store_.sim_count_in(chunk); }
  u32 dormant_in_chunk(u32 chunk) const { return store_.dormant(chunk).count; }
  u32 max_entities() const { return store_.max_entities(); }

  // [SECTION] Validator

  // Walks every entity, every chunk and every pool entry, and checks that the batched
  // release's scratch bitmaps are clear. Returns at most max_reports violations (the rest
  // are only counted in the last message); *found, when given, gets how many there are in
  // all. Reads only: the const_cast is for the store's walks, which hand out writable
  // records.
  std::vector<Violation> validate(size_t max_reports = 256, u64* found = nullptr) const;

 private:
  friend struct SnapshotAccess;   // snapshot.h writes and restores the world exactly
  friend struct WorldTestAccess;  // tests/ecs reach the release's scratch to dirty it
  // [SECTION] Private helpers: room, rewires
  template <class C>
  static constexpr size_t index_of() {
    return Pools::template index_of<C>();
  }
  template <size_t... I>
  static std::tuple<Pool<Cs>...> make_pools(const PerPool<u32>& caps, std::index_sequence<I...>) {
    return std::tuple<Pool<Cs>...>(Pool<Cs>(caps[I])...);
  }
  static Record* as_record(RecordHeader* h) { return reinterpret_cast<Record*>(h); }
  // Words of a pool's dead-entry bitmap (a bit per entry; at least one word, also for an
  // empty pool), as the world allocates it and the validator reads it.
  static constexpr size_t dead_words(u32 capacity) { return size_t(capacity) / 64 + 1; }
  // The config's grid, once the world it describes fits its back-pointers: an owner's
  // index in 28 bits, a chunk in 22. A default grid (none given) is one chunk; a grid
  // given must come from ChunkGrid::make, and its chunk count is taken in 64 bits:
  // 65,536 x 65,536 one-cell chunks would wrap a 32-bit count to 0.
  static ChunkGrid grid_a_back_pointer_can_name(const Config& config) {
    const ChunkGrid& g = config.grid;
    if (g.cells_x == 0 && g.cells_y == 0 && g.chunk_cells == 0 && g.chunks_x == 0 && g.chunks_y == 0) {
      if (config.max_entities > kMaxEntityIndex)
        throw std::length_error("ecs::World: more entities than a back-pointer can name (2^28 - 1)");
      return ChunkGrid::make(1, 1, 1);
    }
    if (g.chunk_cells == 0 || g.chunks_x == 0 || g.chunks_y == 0)
      throw std::invalid_argument("ecs::World: the grid has no chunks (build it with ChunkGrid::make)");
    if (u64(g.chunks_x) * g.chunks_y > kMaxChunks)
      throw std::length_error("ecs::World: more chunks than a back-pointer can name (2^22)");
    if (config.max_entities > kMaxEntityIndex)
      throw std::length_error("ecs::World: more entities than a back-pointer can name (2^28 - 1)");
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
    const auto begin = reinterpret_cast<std::uintptr_t>(pending_.get()),
               at = reinterpret_cast<std::uintptr_t>(batch.data());
    return at >= begin && at < begin + sizeof(Handle) * store_.max_entities();
  }

  // [SECTION] Batched release internals
  // Defined in world_release.h, where each is explained.

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

  // kJournal: the version of the release that writes the journal (chosen once per
  // release by whether the journal is on; the other never mentions it).
  template <MarkMode kMode, bool kJournal, class... Ps>
  u32 mark_batch(std::span<const Handle> batch);
  template <MarkMode kMode>
  u32 destroy_entities(std::span<const Handle> batch);
  template <MarkMode kMode, bool kJournal>
  u32 destroy_entities_as(std::span<const Handle> batch);
  template <MarkMode kMode, bool kJournal>
  [[gnu::noinline]] u32 release_small_batch(std::span<const Handle> batch);
  void note_release(const ReleaseTimes& t);
  template <MarkMode kMode, bool kJournal>
  u32 release_one_at_a_time(std::span<const Handle> batch);
  template <class C, bool kJournal>
  void remove_one_as(Handle h, u32 local);
  // The handle of the live (or just freed) entity at a back-pointer's index, for the journal.
  Handle journal_owner(const BackPointer& bp) const {
    return {u32(bp.owner_index), store_.dir(u32(bp.owner_index)).generation};
  }
  // A batch holding at least one in kSortDensity of the live entities is walked in handle
  // index order: the directory rows are then read nearly in address order and stream in,
  // where in random order each one waits on memory (docs/performance-notes.md). A
  // sparser batch, a bomb's 10 % say, gains nothing and is walked as it comes. The sort
  // is sort_by_index (index_sort.h).
  static constexpr u32 kSortDensity = 8;
  std::span<const Handle> in_directory_order(std::span<const Handle> batch);
  template <MarkMode kMode, bool kBatch, class... Ps, class Visit>
  u32 visit_victims(std::span<const Handle> batch, Visit&& visit);
  template <class C>
  void reset_marks();
  template <class C>
  void count_dead(u32 index);
  template <class C>
  bool is_dead(u32 s) const;
  template <class C, bool kJournal>
  void close_holes(ReleaseStrategy strategy);

  template <class C, bool kJournal>
  [[gnu::always_inline]] inline u64 compact_holes(Pool<C>& p, u32 first_hole, u32 taken);
  template <class C, bool kJournal>
  [[gnu::always_inline]] inline u64 tail_fill_holes(Pool<C>& p, u32 first_hole, u32 new_taken, u32 taken);

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
  void prefetch_victims(std::span<const Handle> batch, u32 i, bool free);
  void prefetch_row(u32 index, size_t bytes);
  template <class C>
  void prefetch_list_past_head(u32 index);
  template <class C>
  void prefetch_dead_bits(u32 index);
  template <class C>
  void prefetch_back_pointers(u32 index);
  void prefetch_chunk_links(Handle h);
  template <class C>
  void prefetch_owner_row(Pool<C>& p, u32 s);

  template <class C, bool kJournal>
  void swap_remove_entry(Pool<C>& p, u32 s);
  template <class C, bool kJournal>
  void release_list(u32 index);
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
  void reset_tick() {
    pool<C>().stats.tick = PoolCounters{};
  }

  // [SECTION] Validator internals
  // Defined in world_validate.h, where each is explained.
  struct Validation;

  void validate_record(Validation& v, Record& r, Tier tier, u32 chunk);

  template <class C>
  void validate_slots(Validation& v, Record& r);

  void validate_entities(Validation& v);

  void validate_directory(Validation& v);

  bool validate_storage(Validation& v);

  template <class C>
  void validate_pool(Validation& v);

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
  // Scratch of order_pool_like_simulated: the place each entry of a simulated owner goes
  // to (kNone for the others), and the back-pointers then the entries in their new order
  // (room for the largest pool).
  Buffer<u32> pool_order_;
  Buffer<std::byte> pool_sorted_;
  u32 swap_release_max_ = kDefaultSwapReleaseMax;
  u64 small_world_bytes_ = kDefaultSmallWorldBytes;
  std::array<u32, kPoolCount> mark_dead_{}, mark_first_hole_{};
  u32 pending_count_ = 0;
  u64 failed_creates_ = 0;
  std::array<ReleaseStrategy, kPoolCount> last_strategy_{};
  ReleaseTimes last_release_, release_totals_;
  Journal<kPoolCount> journal_;
};

}  // namespace ecs

// The member definitions, by concern.
#include "world_iterate.h"
#include "world_release.h"
#include "world_validate.h"
