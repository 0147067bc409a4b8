// view.h — how users walk a world without knowing its storage: the records of one block
// list (the simulated store, a chunk's dormant storage) as a range or a for_each, the
// records of a chunk in both tiers, and a pool's components with their owners.
//
//   for (Record& r : world.simulated()) ...                  // every simulated record
//   world.in_chunk(c, ecs::tag_set(kTile)).for_each(fn);     // a chunk, tiles skipped
//   world.components<Piece>().for_each_with_owner(fn);       // fn(Piece&, Handle)
//
// A skip set names record tags a walk does not want: a storage block whose records have
// only had skipped tags (EntityStore::block_tags) is passed without reading a record, and
// a skipped record elsewhere is not handed to fn. What fn may do while a walk runs is what
// the World's walks allow (world.h, "Iteration").
#pragma once
#include <bit>
#include <cassert>
#include <span>

#include "entity_store.h"
#include "pool.h"

namespace ecs {

// [SECTION] A position in one block list

// The record at a place of a block list and the way to the next: what a walk that looks
// ahead (prefetching what later records name) steps with, two cursors apart.
template <class R>
class RecordCursor {
 public:
  RecordCursor() = default;
  RecordCursor(EntityStore& store, const BlockList& list) : store_(&store), block_(list.first), left_(list.count) {}
  // `count` records from the start of `block` on, following the chain.
  RecordCursor(EntityStore& store, u32 block, u32 count) : store_(&store), block_(block), left_(count) {}
  bool done() const { return left_ == 0; }
  u32 left() const { return left_; }
  R& operator*() const { return *reinterpret_cast<R*>(store_->at(block_, offset_)); }
  R* operator->() const { return &**this; }
  RecordCursor& operator++() {
    if (++offset_ == store_->block_records()) offset_ = 0, block_ = store_->next_block(block_);
    --left_;
    return *this;
  }
  struct End {};
  friend bool operator==(const RecordCursor& c, End) { return c.left_ == 0; }

 private:
  EntityStore* store_ = nullptr;
  u32 block_ = kNone, offset_ = 0, left_ = 0;
};

// [SECTION] Records of one block list

// The records a block list holds when the view is made, in storage order. Records
// created during a walk are not visited (the count is taken at the start).
template <class R>
class RecordView {
 public:
  RecordView(EntityStore& store, const BlockList& list, TagSet skip = 0) : store_(&store), list_(list), skip_(skip) {}
  u32 size() const { return list_.count; }
  RecordCursor<R> begin() const { return {*store_, list_}; }
  typename RecordCursor<R>::End end() const { return {}; }

  // fn(R&) for each record whose tag is not skipped. With a skip set, blocks holding only
  // skipped tags are passed unread, and the next block's records are prefetched while
  // this one is walked (a chunk's blocks lie anywhere in the arena and are too short for
  // the hardware's stream prefetch to lock on).
  template <class Fn>
  void for_each(Fn&& fn) const {
    if (!skip_) {
      store_->walk_blocks(list_, [&](u32 b, u32 n) {
        for (u32 i = 0; i < n; ++i) fn(record(b, i));
      });
      return;
    }
    const u32 per = store_->block_records();
    u32 left = list_.count;
    for (u32 b = list_.first; b != kNone && left; b = store_->next_block(b)) {
      const u32 n = left < per ? left : per, next = store_->next_block(b);
      left -= n;
      if ((store_->block_tags(b) & ~skip_) == 0) continue;
      const bool ahead = next != kNone && left && (store_->block_tags(next) & ~skip_);
      for (u32 i = 0; i < n; ++i) {
        if (ahead) prefetch_for_read(store_->at(next, i));
        R& r = record(b, i);
        if (!(tag_bit(r.header.tag) & skip_)) fn(r);
      }
    }
  }

 private:
  R& record(u32 b, u32 i) const { return *reinterpret_cast<R*>(store_->at(b, i)); }
  EntityStore* store_;
  BlockList list_;
  TagSet skip_;
};

// [SECTION] Records of one block list, in jobs

// A block list's records cut into jobs of whole blocks, numbered in storage order. Job j
// holds the same records whatever thread walks it (workers.h), so a walk split this way
// can leave the same results for any thread count. Taken at the start of a walk; the
// list must not change structurally while the jobs are walked.
template <class R>
class RecordJobs {
 public:
  RecordJobs(EntityStore& store, const BlockList& list, const u32* blocks, u32 records_per_job)
      : store_(&store),
        list_(list),
        blocks_(blocks),
        blocks_per_job_(blocks_for(store, records_per_job)),
        block_shift_(u32(std::countr_zero(store.block_records()))) {}
  u32 records_per_job() const { return blocks_per_job_ * store_->block_records(); }
  u32 size() const { return (list_.count + records_per_job() - 1) / records_per_job(); }
  // The place in the list of the job's first record, and how many it holds.
  u32 first(u32 job) const { return job * records_per_job(); }
  u32 count(u32 job) const {
    const u32 left = list_.count - first(job);
    return left < records_per_job() ? left : records_per_job();
  }
  RecordCursor<R> begin(u32 job) const { return {*store_, blocks_[job * blocks_per_job_], count(job)}; }
  // The records by their place in the list (below its count): a walk that reads ahead at
  // several distances finds each record from its place, with no cursor to keep per
  // distance. A value the walk keeps in registers: the arena, the blocks in list order
  // and the block size (records of R exactly, as the store keeps them for a World).
  struct Places {
    R* arena;
    const u32* blocks;
    u32 shift;
    R& operator()(u32 place) const {
      return arena[size_t(blocks[place >> shift]) << shift | (place & ((u32(1) << shift) - 1))];
    }
  };
  Places places() const {
    assert(store_->record_size() == sizeof(R));
    return {reinterpret_cast<R*>(store_->at(0, 0)), blocks_, block_shift_};
  }
  template <class Fn>
  void for_each(u32 job, Fn&& fn) const {
    for (RecordCursor<R> c = begin(job); !c.done(); ++c) fn(*c);
  }

 private:
  static u32 blocks_for(const EntityStore& store, u32 records) {
    const u32 per = store.block_records();
    return records > per ? (records + per - 1) / per : 1;
  }
  EntityStore* store_;
  BlockList list_;
  const u32* blocks_;
  u32 blocks_per_job_;
  u32 block_shift_;  // block_records is a power of two (EntityStore)
};

// [SECTION] Records of one chunk

// A chunk's records in both tiers: its simulated members (through the chunk's member
// list), then its dormant storage, skipping the tags in `skip`. Records created during
// the walk are not visited.
template <class R>
class ChunkView {
 public:
  ChunkView(EntityStore& store, u32 chunk, TagSet skip = 0) : store_(&store), chunk_(chunk), skip_(skip) {}
  u32 size() const { return store_->sim_count_in(chunk_) + store_->dormant(chunk_).count; }
  template <class Fn>
  void for_each(Fn&& fn) const {
    const RecordView<R> dormant(*store_, store_->dormant(chunk_), skip_);
    for_each_simulated(fn);
    dormant.for_each(fn);
  }
  // Only the simulated members, or only the dormant storage.
  template <class Fn>
  void for_each_simulated(Fn&& fn) const {
    for (u32 i = store_->sim_head(chunk_); i != 0; i = store_->sim_link(i).next) {
      R& r = *reinterpret_cast<R*>(store_->record_of_index(i));
      if (!(tag_bit(r.header.tag) & skip_)) fn(r);
    }
  }
  RecordView<R> dormant() const { return {*store_, store_->dormant(chunk_), skip_}; }

 private:
  EntityStore* store_;
  u32 chunk_;
  TagSet skip_;
};

// [SECTION] A pool's components

// The taken entries of one pool, in pool order: the components alone (a span), or each
// with its owner's handle. Components may be written; entries must not be added or
// removed while a walk runs (removal moves entries).
template <class C, class Owners>
class ComponentView {
 public:
  ComponentView(Pool<C>& pool, const Owners& owners) : pool_(&pool), owners_(&owners) {}
  u32 size() const { return pool_->taken(); }
  std::span<C> items() const { return {pool_->items.get(), pool_->taken()}; }
  C* begin() const { return pool_->items.get(); }
  C* end() const { return pool_->items.get() + pool_->taken(); }
  template <class Fn>
  void for_each(Fn&& fn) const {
    for (C& c : items()) fn(c);
  }
  // fn(C&, Handle owner). The owner's whole handle comes from the directory (an entry's
  // owner is alive by the world's invariant).
  template <class Fn>
  void for_each_with_owner(Fn&& fn) const {
    const u32 n = pool_->taken();
    for (u32 s = 0; s < n; ++s) fn(pool_->items[s], owners_->owner_of(pool_->owners[s]));
  }

 private:
  Pool<C>* pool_;
  const Owners* owners_;
};

}  // namespace ecs
