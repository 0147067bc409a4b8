// entity_store.h — where entity records live, untyped (records are fixed-size byte
// blobs so this code is written once for every world).
//
// Table of contents
//   [SECTION] Record header and directory
//   [SECTION] Block lists (simulated store, chunk-local dormant storage)
//   [SECTION] EntityStore
//
// Layout:
//   directory[index]  -> generation, tier, chunk, (block, offset) of the record
//   simulated store   -> one BlockList walked every tick
//   chunk c           -> a BlockList of its dormant records, plus an intrusive
//                        list (through the directory) of its simulated members
// Records are only ever moved by memcpy between blocks; the directory is updated
// with them, so a handle finds its record in O(1) in both tiers.
#pragma once
#include <cstring>
#include <vector>

#include "buffer.h"
#include "chunk_grid.h"
#include "ecs_types.h"

namespace ecs {

// [SECTION] Record header and directory

// First bytes of every record. A record knows its own handle so that when it is moved
// (swap-remove inside a block list) its directory entry can be pointed at the new place.
struct RecordHeader {
  Handle handle;
  u32 chunk;
  u16 tag;  // the user's own tag (the game's entity kind): views skip records by it
  u8 tier;  // Tier
  u8 flags;
};

// kFlagDying: queued for destruction (world.h's queue_destroy).
enum : u8 { kFlagDying = 1 };

// A set of record tags, a bit each; tags from 63 up share bit 63. Every storage block
// keeps the set of tags its records have had since it was taken (EntityStore::block_tags),
// so a walk that skips some tags passes a block holding nothing else without reading it.
using TagSet = u64;
constexpr TagSet tag_bit(u16 tag) { return TagSet(1) << (tag < 63 ? tag : 63); }
template <class... Tags>
constexpr TagSet tag_set(Tags... tags) {
  return (TagSet(0) | ... | tag_bit(u16(tags)));
}

struct DirEntry {
  u32 generation;
  u32 chunk;
  u32 block;
  u16 offset;
  u8 tier;  // Tier::Free when the index is not in use
  u8 flags;
  u32 queue_pos;  // position in the world's destruction queue while kFlagDying is set
};

// Chunk membership of a simulated entity: its neighbours (handle indices) in its chunk's
// list. Kept apart from the directory in a dense array (8 bytes an entity): creating,
// destroying and moving an entity touch its neighbours' links, and in this array those
// stay in cache where a directory row each would not.
struct SimLink {
  u32 prev, next;
};

// [SECTION] Block lists

// A list of records stored in fixed-size blocks taken from one preallocated arena.
// Every block but the last is full; removal swaps the list's last record into the hole.
struct BlockList {
  u32 first = kNone;
  u32 last = kNone;
  u32 count = 0;
};

// Records per storage block when a config does not say.
inline constexpr u32 kDefaultBlockRecords = 32;

struct StoreConfig {
  u32 max_entities = 0;  // live entities at once (index 0 is extra and never used)
  u32 record_size = 0;   // bytes per record, header included
  u32 record_align = 8;
  u32 chunk_count = 1;
  u32 block_records = kDefaultBlockRecords;  // records per storage block (rounded up to a power of two)
  u32 entity_extra_bytes = 0;                // kept beside each directory entry (see entity_extra)
};

// [SECTION] EntityStore

class EntityStore {
 public:
  explicit EntityStore(const StoreConfig& config);
  EntityStore(const EntityStore&) = delete;
  EntityStore& operator=(const EntityStore&) = delete;
  // Moving hands the buffers over; a moved-from store may only be destroyed or assigned to.
  EntityStore(EntityStore&&) noexcept = default;
  EntityStore& operator=(EntityStore&&) noexcept = default;

  // Takes a free index and appends a zeroed record to the tier's storage.
  // Returns the null handle when no index or no block is left.
  Handle create(u32 chunk, Tier tier, u16 tag);
  // Frees the record and the index. The handle is stale at once (its index is Free), and
  // the index's next create() hands it out with the next generation.
  void destroy(Handle h);

  // Whether an index names a directory entry (index 0 is reserved and never does).
  bool in_directory(u32 index) const { return index != 0 && index <= config_.max_entities; }
  bool alive(Handle h) const {
    if (!in_directory(h.index)) return false;
    const DirEntry& d = entry(h.index);
    return Tier(d.tier) != Tier::Free && d.generation == h.generation;
  }
  // O(1) in both tiers. nullptr for a stale handle.
  RecordHeader* find(Handle h) { return alive(h) ? record_of_index(h.index) : nullptr; }
  const RecordHeader* find(Handle h) const { return const_cast<EntityStore*>(this)->find(h); }
  // Internal: the record of a live index, no generation check.
  RecordHeader* record_of_index(u32 index) {
    const DirEntry& d = entry(index);
    return at(d.block, d.offset);
  }
  const DirEntry& dir(u32 index) const { return entry(index); }
  DirEntry& dir_mut(u32 index) { return entry(index); }
  // The StoreConfig::entity_extra_bytes kept beside an index's directory entry (the
  // world keeps the entity's slot lists there: one cache-line burst finds both).
  std::byte* entity_extra(u32 index) { return dir_bytes_.get() + size_t(index) * dir_stride_ + sizeof(DirEntry); }
  const std::byte* entity_extra(u32 index) const {
    return dir_bytes_.get() + size_t(index) * dir_stride_ + sizeof(DirEntry);
  }
  u32 dir_stride() const { return dir_stride_; }

  // Moves the entity into another chunk. Dormant records move between chunk storages;
  // simulated ones are relinked. Returns the record's (possibly new) address.
  RecordHeader* move_chunk(Handle h, u32 new_chunk);
  // Moves the record between the simulated store and its chunk's dormant storage.
  RecordHeader* set_tier(Handle h, Tier tier);

  // Batched destruction (the world's mass release), in three calls:
  //   begin_batch_free()  numbers the simulated store's blocks in chain order;
  //   free_in_batch(i)    frees the live entity at index i as destroy() does, except
  //                       that a simulated record is not moved: its place is only
  //                       marked in a bitmap (the caller has checked the handle);
  //   end_batch_free()    fills the marked places below the store's new end with the
  //                       live records past it, lowest place first, and gives the
  //                       emptied blocks back.
  // destroy() fills each hole with the store's last record at once: at a 50 % kill half
  // of those records are victims themselves, moved only to be removed again, and every
  // victim's record and the moved record's directory entry are loaded. The batch moves
  // each survivor at most once, only into holes it keeps, and free_in_batch touches
  // nothing but the directory entry and the chunk links.
  // Between begin and end the store holds freed records; nothing may create, move or
  // walk entities there.
  void begin_batch_free();
  void free_in_batch(u32 index);
  void end_batch_free();
  // Whether the batched free's bitmap is all zero, as it must be between batches (the
  // validator asks).
  bool batch_scratch_clear() const;

  // Iteration helpers: the record at position i of a block list walk.
  u32 block_records() const { return config_.block_records; }
  u32 record_size() const { return config_.record_size; }
  RecordHeader* at(u32 block, u32 offset) {
    return reinterpret_cast<RecordHeader*>(arena_.get() +
                                           (size_t(block) * config_.block_records + offset) * config_.record_size);
  }
  const RecordHeader* at(u32 block, u32 offset) const { return const_cast<EntityStore*>(this)->at(block, offset); }
  u32 next_block(u32 block) const { return block_next_[block]; }
  // The tags of the records a block has held since it was taken: a superset of those it
  // holds now (a record leaving does not clear its bit), never missing one.
  TagSet block_tags(u32 block) const { return block_tags_[block]; }

  // The simulated store's blocks in chain order, numbered into the batched free's scratch
  // both ways (so valid until the next batched free or structural change): the block at
  // each rank is what a walk split into jobs of whole blocks starts each job from, and
  // the rank of each block gives a batched free the place of a record.
  const u32* rank_simulated_blocks() {
    u32 rank = 0;
    for (u32 b = simulated_.first; b != kNone; b = block_next_[b], ++rank)
      block_rank_[b] = rank, ranked_block_[rank] = b;
    return ranked_block_.get();
  }

  // Puts the simulated store's records in chunk order (stable: within a chunk, the order
  // they had), so that a walk of the store walks the map chunk by chunk and the per-cell
  // data its records read comes in runs. Each record is copied out to its sorted place in
  // a scratch as large as the store's capacity (committed as the first sort writes it)
  // and back, and its directory entry follows. Like a batched free, nothing else may use
  // the store while it runs.
  void sort_simulated_by_chunk();

  const BlockList& simulated() const { return simulated_; }
  const BlockList& dormant(u32 chunk) const { return dormant_[chunk]; }
  u32 sim_head(u32 chunk) const { return sim_head_[chunk]; }
  const SimLink& sim_link(u32 index) const { return sim_links_[index]; }
  u32 sim_count_in(u32 chunk) const { return sim_count_[chunk]; }
  u32 chunk_count() const { return config_.chunk_count; }
  u32 max_entities() const { return config_.max_entities; }
  u32 live_count() const { return live_; }
  u32 free_index_count() const { return free_index_count_; }
  // Indices whose generation ran out (kLastGeneration): free in the directory, never reused.
  u32 retired_count() const { return retired_; }
  // Calls bad(k, index, in_range_once) for each entry k of the free index stack that the
  // next create must not take: out of range or repeated (in_range_once false), or live or
  // retired (true). The validator reports them; a snapshot is refused for the first.
  template <class Bad>
  void check_free_indices(Bad&& bad) const {
    std::vector<u8> seen(size_t(config_.max_entities) + 1, 0);
    for (u32 k = 0; k < free_index_count_; ++k) {
      u32 i = free_indices_[k];
      if (i == 0 || i > config_.max_entities || seen[i]) {
        bad(k, i, false);
        continue;
      }
      seen[i] = 1;
      if (Tier(entry(i).tier) != Tier::Free || entry(i).generation == kLastGeneration) bad(k, i, true);
    }
  }
  // The free block stack, for the validator.
  u32 free_block_at(u32 k) const { return free_blocks_[k]; }
  // The index the next create() will take (0 when none is free).
  u32 next_free_index(u32 k) const { return k < free_index_count_ ? free_indices_[free_index_count_ - 1 - k] : 0; }
  u32 free_blocks() const { return free_block_count_; }
  u32 total_blocks() const { return total_blocks_; }

  // Calls fn(block, n) for each block of a list in chain order, with the records it holds
  // (block_records but in the last).
  template <class Fn>
  void walk_blocks(const BlockList& list, Fn&& fn) const {
    u32 remaining = list.count;
    for (u32 b = list.first; b != kNone && remaining; b = block_next_[b]) {
      u32 n = remaining < config_.block_records ? remaining : config_.block_records;
      fn(b, n);
      remaining -= n;
    }
  }
  // Calls fn(RecordHeader*) for each record of a list. The list must not change
  // structurally during the walk (creation appends and is fine).
  template <class Fn>
  void walk(const BlockList& list, Fn&& fn) {
    walk_blocks(list, [&](u32 b, u32 n) {
      for (u32 i = 0; i < n; ++i) fn(at(b, i));
    });
  }
  // Calls fn(RecordHeader*) for each entity in a chunk: simulated members then dormant.
  // An entity fn creates is not visited: a simulated one joins the members' list at its
  // head, already passed, and the dormant records are counted before the walk starts.
  template <class Fn>
  void walk_chunk(u32 chunk, Fn&& fn) {
    const BlockList dormant_at_start = dormant_[chunk];
    for (u32 i = sim_head_[chunk]; i != 0; i = sim_links_[i].next) fn(record_of_index(i));
    walk(dormant_at_start, fn);
  }

 private:
  friend struct SnapshotAccess;   // snapshot.h writes and restores the storage exactly
  friend struct WorldTestAccess;  // tests/ecs reach the batched free's scratch to dirty it
  BlockList& list_for(Tier tier, u32 chunk) { return tier == Tier::Simulated ? simulated_ : dormant_[chunk]; }
  // Appends a record slot to a list; returns false when no block is free.
  bool push(BlockList& list, u32* block, u32* offset);
  // Removes the record at (block, offset) from the list, filling the hole with the last.
  void remove(BlockList& list, u32 block, u32 offset);
  // Copies a record to (block, offset) and points its directory entry there.
  void relocate(const RecordHeader* src, u32 block, u32 offset) {
    RecordHeader* dst = at(block, offset);
    std::memcpy(dst, src, config_.record_size);
    block_tags_[block] |= tag_bit(dst->tag);
    DirEntry& moved = entry(dst->handle.index);
    moved.block = block;
    moved.offset = u16(offset);
  }
  // Moves a live index's record from one list to the end of another; false when no block
  // is left for it.
  bool transfer(u32 index, BlockList& from, BlockList& to);
  // The record at a place of the simulated store, counted in chain order (batched free
  // only: begin_batch_free numbers the blocks).
  RecordHeader* at_place(u32 place) { return at(ranked_block_[place >> block_shift_], place & block_mask_); }
  // Words of the batched free's bitmap: one bit per place of the simulated store, which
  // holds at most max_entities records, in blocks all full but its last.
  size_t dead_place_words() const {
    return ((size_t(config_.max_entities) + block_mask_) >> block_shift_ << block_shift_) / 64 + 1;
  }
  // Frees the index itself: the directory entry says Free, the index goes on the stack.
  void free_index(DirEntry& d, u32 index);
  void link_sim(u32 index, u32 chunk);
  void unlink_sim(u32 index, u32 chunk);

  StoreConfig config_;
  u32 block_mask_ = 0, block_shift_ = 0;  // block_records is 1 << block_shift_
  u32 total_blocks_ = 0;
  Buffer<std::byte> arena_;
  Buffer<u32> block_next_, block_prev_;
  Buffer<TagSet> block_tags_;  // see block_tags()
  Buffer<u32> free_blocks_;
  u32 free_block_count_ = 0;
  // The directory: one DirEntry (plus the extra bytes) every dir_stride_ bytes.
  Buffer<std::byte> dir_bytes_;
  u32 dir_stride_ = sizeof(DirEntry);
  DirEntry& entry(u32 index) { return *reinterpret_cast<DirEntry*>(dir_bytes_.get() + size_t(index) * dir_stride_); }
  const DirEntry& entry(u32 index) const {
    return *reinterpret_cast<const DirEntry*>(dir_bytes_.get() + size_t(index) * dir_stride_);
  }
  Buffer<u32> free_indices_;
  u32 free_index_count_ = 0;
  u32 live_ = 0;
  u32 retired_ = 0;
  BlockList simulated_;
  Buffer<BlockList> dormant_;
  Buffer<u32> sim_head_, sim_count_;
  Buffer<SimLink> sim_links_;  // one per index (0 = none)
  // Scratch of the batched free: each block's place in the simulated chain and the block
  // at each place (numbered again by every begin_batch_free), and one bit per record
  // place (all zero between batches).
  Buffer<u32> block_rank_, ranked_block_;
  Buffer<u64> dead_places_;
  // Scratch of sort_simulated_by_chunk: the next sorted place of each chunk, and the
  // records in sorted order.
  Buffer<u32> sort_counts_;
  Buffer<std::byte> sort_records_;
  u32 batch_dead_ = 0, batch_first_hole_ = kNone;
};

}  // namespace ecs
