// world_release.h — how World releases pool slots: one entity at a time by swap-with-last,
// and the batched mass release (mark pass, then each pool closes its holes by tail fill or
// compaction), with the prefetching that keeps their cache misses in flight.
// Included by world.h; the declarations and their contracts are in the class there.
#pragma once
#include <cstring>

#include "world.h"

namespace ecs {

// Test builds define ECS_POISON_FREED_ENTRIES: the entries a release frees, [from, to),
// are then overwritten with 0xA5 bytes, so that a slot list still naming one reads
// garbage instead of the right value by luck (tests/ecs/differential_test.cpp).
template <class C>
inline void poison_freed(Pool<C>& p, u32 from, u32 to) {
#ifdef ECS_POISON_FREED_ENTRIES
  std::memset(static_cast<void*>(p.items.get() + from), 0xA5, size_t(to - from) * sizeof(C));
#else
  (void)p, (void)from, (void)to;
#endif
}

// Pass 1 for pools Ps over the batch: notes per pool how many entries the batch
// frees and where the lowest one is, sets their bits in the pool's dead bitmap and
// empties the slot lists (a duplicate then finds nothing left to count); frees the
// records as the mode says, by the store's batched free (the records' holes are closed
// once, at the end). It never touches a pool entry. What it reads is prefetched by
// prefetch_victims: the head of the directory row 2 x kPrefetchAhead victims ahead,
// the rest of the row's used lines and the chunk neighbours the store's free unlinks
// kPrefetchAhead ahead, once the head naming them has arrived, and the bitmap words the
// slots are marked in half as far ahead. Returns how many live entities it marked.
template <Positioned Payload, Component... Cs>
template <MarkMode kMode, bool kJournal, class... Ps>
u32 World<Payload, Cs...>::mark_batch(std::span<const Handle> batch) {
  (reset_marks<Ps>(), ...);
  auto count = [&](u32 index) {
    if constexpr (kJournal) journal_.victim({index, store_.dir(index).generation});
    (count_dead<Ps>(index), ...);
  };
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
// The journal is asked once here, and the release runs in the version that writes it or
// in the one that never mentions it.
template <Positioned Payload, Component... Cs>
template <MarkMode kMode>
u32 World<Payload, Cs...>::destroy_entities(std::span<const Handle> batch) {
  if (journal_.on()) [[unlikely]]
    return destroy_entities_as<kMode, true>(batch);
  return destroy_entities_as<kMode, false>(batch);
}
template <Positioned Payload, Component... Cs>
template <MarkMode kMode, bool kJournal>
u32 World<Payload, Cs...>::destroy_entities_as(std::span<const Handle> batch) {
  if (batch.size() <= swap_release_max_ || is_small_world()) {
    if constexpr (!kJournal) return release_small_batch<kMode, false>(batch);
    journal_.begin(ReleasePath::OneAtATime, release_footprint());
    u32 died = release_small_batch<kMode, true>(batch);
    journal_.end();
    return died;
  }
  if constexpr (kJournal) journal_.begin(ReleasePath::TailFill, release_footprint());
  ReleaseTimes t{.batches = 1};
  Stopwatch watch;
  std::span<const Handle> ordered = in_directory_order(batch);
  t.sort_ms = watch.lap_ms();
  u32 died = mark_batch<kMode, kJournal, Cs...>(ordered);
  t.mark_ms = watch.lap_ms();
  ((close_holes<Cs, kJournal>(ReleaseStrategy::Auto), t.close_ms[index_of<Cs>()] = watch.lap_ms()), ...);
  t.victims = died;
  note_release(t);
  if constexpr (kJournal) journal_.end();
  return died;
}
// A small batch, released one entity at a time, in a function of its own: inlined into
// destroy_entities beside the mark pass, the same loop runs measurably slower than
// destroy() called once per victim (docs/performance-notes.md).
template <Positioned Payload, Component... Cs>
template <MarkMode kMode, bool kJournal>
[[gnu::noinline]] u32 World<Payload, Cs...>::release_small_batch(std::span<const Handle> batch) {
  return release_one_at_a_time<kMode, kJournal>(batch);
}
template <Positioned Payload, Component... Cs>
void World<Payload, Cs...>::note_release(const ReleaseTimes& t) {
  last_release_ = t;
  release_totals_.add(t);
}
// Every slot of each live victim released by swap-with-last, then its record freed:
// destroy() and the small batches.
template <Positioned Payload, Component... Cs>
template <MarkMode kMode, bool kJournal>
u32 World<Payload, Cs...>::release_one_at_a_time(std::span<const Handle> batch) {
  return visit_victims<kMode, false>(batch, [&](u32 index) {
    if constexpr (kJournal) journal_.victim({index, store_.dir(index).generation});
    (release_list<Cs, kJournal>(index), ...);
  });
}
// remove_one's work once the handle and local index are known good: the entry is
// swap-removed, then the owner's later slots shift down one place and their
// back-pointers learn their new local index.
template <Positioned Payload, Component... Cs>
template <class C, bool kJournal>
void World<Payload, Cs...>::remove_one_as(Handle h, u32 local) {
  constexpr size_t I = index_of<C>();
  Pool<C>& p = pool<C>();
  auto& l = list_at<C>(h.index);
  if constexpr (kJournal) journal_.begin_pool(I, ReleasePath::RemoveOne, p.stats.taken);
  p.leave_histogram(l);
  swap_remove_entry<C, kJournal>(p, l.slot[local]);
  for (u32 c = local; c + 1 < l.reserved; ++c) {
    l.slot[c] = l.slot[c + 1];
    p.owners[l.slot[c]].local = c;
    if constexpr (kJournal) journal_.renumber(I, l.slot[c], h, c);
  }
  --l.reserved;
  --l.added;
  p.enter_histogram(l);
  if constexpr (kJournal) journal_.end_pool(I, p.stats.taken);
}
template <Positioned Payload, Component... Cs>
std::span<const Handle> World<Payload, Cs...>::in_directory_order(std::span<const Handle> batch) {
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
template <Positioned Payload, Component... Cs>
template <MarkMode kMode, bool kBatch, class... Ps, class Visit>
u32 World<Payload, Cs...>::visit_victims(std::span<const Handle> batch, Visit&& visit) {
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
template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::reset_marks() {
  mark_dead_[index_of<C>()] = 0;
  mark_first_hole_[index_of<C>()] = kNone;
}
template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::count_dead(u32 index) {
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
template <Positioned Payload, Component... Cs>
template <class C>
bool World<Payload, Cs...>::is_dead(u32 s) const {
  return test_bit(dead_bits_[index_of<C>()].get(), s);
}

// Pass 2 for pool C: closes the holes the marked entries leave, in one of two ways,
// each moving every survivor at most once: tail fill (work ~ holes) or compaction
// (work ~ pool tail; keeps each entity's entries in their order). Both find the dead
// through the bitmap; a moved survivor's owner row is prefetched kRowAhead entries
// before the move rewires it. The bitmap is cleared behind them.
template <Positioned Payload, Component... Cs>
template <class C, bool kJournal>
void World<Payload, Cs...>::close_holes(ReleaseStrategy strategy) {
  constexpr size_t I = index_of<C>();
  Pool<C>& p = pool<C>();
  u32 dead = mark_dead_[I], first_hole = mark_first_hole_[I];
  if (dead == 0) return;
  u32 taken = p.stats.taken, new_taken = taken - dead;
  bool compact = strategy == ReleaseStrategy::Compact ||
                 (strategy == ReleaseStrategy::Auto && u64(taken - first_hole - dead) * kCompactDivisor <= dead);
  if constexpr (kJournal) {
    // The holes first, in entry order, each with the victim that held it (its
    // back-pointer is untouched until a survivor moves in).
    journal_.begin_pool(I, compact ? ReleasePath::Compact : ReleasePath::TailFill, taken);
    SetBits holes{dead_bits_[I].get(), first_hole, taken};
    for (u32 h; holes.next(h);) journal_.hole(I, h, journal_owner(p.owners[h]), u32(p.owners[h].local));
  }
  u64 rewires = compact ? compact_holes<C, kJournal>(p, first_hole, taken)
                        : tail_fill_holes<C, kJournal>(p, first_hole, new_taken, taken);
  if constexpr (kJournal) journal_.end_pool(I, new_taken);
  clear_bits(dead_bits_[I].get(), first_hole, taken);
  p.stats.taken = new_taken;
  poison_freed(p, new_taken, taken);
  p.count(&PoolCounters::removes, dead);
  p.count(&PoolCounters::rewires, rewires);
  last_strategy_[I] = compact ? ReleaseStrategy::Compact : ReleaseStrategy::TailFill;
}

// Compaction: one stable sweep from the first hole to the end, the survivors sliding
// down in order. Returns the moves (each a rewire).
template <Positioned Payload, Component... Cs>
template <class C, bool kJournal>
[[gnu::always_inline]] inline u64 World<Payload, Cs...>::compact_holes(Pool<C>& p, u32 first_hole, u32 taken) {
  u64 rewires = 0;
  u32 w = first_hole;
  for (u32 s = first_hole; s < taken; ++s) {
    if (s + kRowAhead < taken) prefetch_owner_row(p, s + kRowAhead);
    if (is_dead<C>(s)) continue;
    if (s != w) {
      p.move_entry(s, w);
      point_owner_at(p, w);
      if constexpr (kJournal) journal_.move(index_of<C>(), s, w, journal_owner(p.owners[w]), u32(p.owners[w].local));
      ++rewires;
    }
    ++w;
  }
  return rewires;
}
// Tail fill: the survivors past the new end move into the holes below it, lowest hole
// first, the highest survivor first. Each hole is prefetched kHoleAhead holes before its
// move (a hole is a victim's entry, cold). Returns the moves (each a rewire).
template <Positioned Payload, Component... Cs>
template <class C, bool kJournal>
[[gnu::always_inline]] inline u64 World<Payload, Cs...>::tail_fill_holes(Pool<C>& p, u32 first_hole, u32 new_taken,
                                                                         u32 taken) {
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
    if constexpr (kJournal)
      journal_.move(index_of<C>(), tail, hole, journal_owner(p.owners[hole]), u32(p.owners[hole].local));
  }
  return rewires;
}

template <Positioned Payload, Component... Cs>
template <class... Ps>
void World<Payload, Cs...>::prefetch_victims(std::span<const Handle> batch, u32 i, bool free) {
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
template <Positioned Payload, Component... Cs>
void World<Payload, Cs...>::prefetch_row(u32 index, size_t bytes) {
  if (!store_.in_directory(index)) return;
  const char* row = reinterpret_cast<const char*>(&store_.dir(index));
  for (size_t off = 0; off < std::min(bytes, size_t(store_.dir_stride())); off += 64) prefetch_for_write(row + off);
  prefetch_for_write(&store_.sim_link(index));
}
// The lines of pool C's slot list past the row's head that the list uses: up to its
// count when the count lies in the head (already loaded), else the whole list.
template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::prefetch_list_past_head(u32 index) {
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
// from the caches (docs/performance-notes.md).
template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::prefetch_dead_bits(u32 index) {
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
template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::prefetch_back_pointers(u32 index) {
  const auto& l = list_at<C>(index);
  if (l.reserved == 0) return;
  const BackPointer* owners = pool<C>().owners.get();
  prefetch_for_write(&owners[l.slot[0]]);
  prefetch_for_write(&owners[l.slot[l.reserved - 1]]);
}
// What the store's batched free of a victim touches besides its directory entry: the
// chunk neighbours it is unlinked from.
template <Positioned Payload, Component... Cs>
void World<Payload, Cs...>::prefetch_chunk_links(Handle h) {
  if (!store_.alive(h)) return;
  const SimLink& l = store_.sim_link(h.index);
  if (l.prev) prefetch_for_write(&store_.sim_link(l.prev));
  if (l.next) prefetch_for_write(&store_.sim_link(l.next));
}
// The line of the owner's slot list that entry s's rewire will write. Asked for every
// entry, not once per run of entries with the same owner: an ant's render slots cross a
// line of its row at the thirteenth piece, and a run's rewires find the second line
// cold (docs/performance-notes.md).
template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::prefetch_owner_row(Pool<C>& p, u32 s) {
  prefetch_for_write(&list_at<C>(p.owners[s].owner_index).slot[p.owners[s].local]);
}

// Frees entry s by moving the pool's last entry into it and rewiring that entry's owner.
template <Positioned Payload, Component... Cs>
template <class C, bool kJournal>
void World<Payload, Cs...>::swap_remove_entry(Pool<C>& p, u32 s) {
  u32 last = p.stats.taken - 1;
  if constexpr (kJournal) journal_.hole(index_of<C>(), s, journal_owner(p.owners[s]), u32(p.owners[s].local));
  if (s != last) {
    p.move_entry(last, s);
    rewire(p, s);
    if constexpr (kJournal) journal_.move(index_of<C>(), last, s, journal_owner(p.owners[s]), u32(p.owners[s].local));
  }
  p.stats.taken = last;
  poison_freed(p, last, last + 1);
  p.count(&PoolCounters::removes);
}
template <Positioned Payload, Component... Cs>
template <class C, bool kJournal>
void World<Payload, Cs...>::release_list(u32 index) {
  Pool<C>& p = pool<C>();
  auto& l = list_at<C>(index);
  if (l.reserved == 0) return;
  if constexpr (kJournal) journal_.begin_pool(index_of<C>(), ReleasePath::OneAtATime, p.stats.taken);
  p.forget_list(l);
  // From the back: a rewire may only touch this entity's not yet released slots.
  for (u32 k = l.reserved; k-- > 0;) swap_remove_entry<C, kJournal>(p, l.slot[k]);
  l.reserved = l.added = 0;
  if constexpr (kJournal) journal_.end_pool(index_of<C>(), p.stats.taken);
}

}  // namespace ecs
