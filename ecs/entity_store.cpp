// entity_store.cpp — entity directory, block-list storage and tier/chunk moves.
#include "entity_store.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstring>
#include <limits>

#include "bits.h"
#include "lookahead.h"

namespace ecs {

EntityStore::EntityStore(const StoreConfig& config) : config_(config) {
  // DirEntry::offset is a u16: a block holds at most 65,536 records.
  constexpr u32 kMaxBlockRecords = u32(std::numeric_limits<u16>::max()) + 1;
  if (config_.block_records == 0) config_.block_records = kDefaultBlockRecords;
  config_.block_records = std::min(config_.block_records, kMaxBlockRecords);
  // A power of two: the position of a list's last record is then a mask, not a division
  // (freeing a record asks for it up to three times, and a division costs tens of cycles).
  config_.block_records = std::bit_ceil(config_.block_records);
  block_mask_ = config_.block_records - 1;
  block_shift_ = u32(std::countr_zero(config_.block_records));
  if (config_.chunk_count == 0) config_.chunk_count = 1;
  u32 align = config_.record_align ? config_.record_align : 8;
  config_.record_size = (config_.record_size + align - 1) / align * align;
  // Every list may hold one partly filled block: the simulated store and each chunk.
  u32 full_blocks = u32((u64(config_.max_entities) + block_mask_) >> block_shift_);
  total_blocks_ = full_blocks + config_.chunk_count + 1;
  // Pages of the arena are only touched when a block is used.
  arena_ = make_buffer<std::byte>(size_t(total_blocks_) * config_.block_records * config_.record_size);
  block_next_ = make_buffer<u32>(total_blocks_);
  block_prev_ = make_buffer<u32>(total_blocks_);
  block_tags_ = make_buffer<TagSet>(total_blocks_);
  free_blocks_ = make_buffer<u32>(total_blocks_);
  // Lowest block on top of the stack, so a fresh world fills blocks in address order.
  for (u32 i = 0; i < total_blocks_; ++i) free_blocks_[i] = total_blocks_ - 1 - i;
  free_block_count_ = total_blocks_;

  // With extra bytes each entry is padded to whole cache lines, so an entry and its
  // extra bytes never share a line with a neighbour.
  if (config_.entity_extra_bytes) dir_stride_ = u32((sizeof(DirEntry) + config_.entity_extra_bytes + 63) / 64 * 64);
  dir_bytes_ = make_buffer<std::byte>((size_t(config_.max_entities) + 1) * dir_stride_);  // zeroed: every index Free
  free_indices_ = make_buffer<u32>(config_.max_entities);
  for (u32 i = 0; i < config_.max_entities; ++i) free_indices_[i] = config_.max_entities - i;  // index 1 on top
  free_index_count_ = config_.max_entities;

  dormant_ = make_buffer<BlockList>(config_.chunk_count);
  for (u32 c = 0; c < config_.chunk_count; ++c) dormant_[c] = BlockList{};
  sim_head_ = make_buffer<u32>(config_.chunk_count);
  sim_count_ = make_buffer<u32>(config_.chunk_count);
  sim_links_ = make_buffer<SimLink>(size_t(config_.max_entities) + 1);
  block_rank_ = make_buffer<u32>(total_blocks_);
  ranked_block_ = make_buffer<u32>(total_blocks_);
  dead_places_ = make_buffer<u64>(dead_place_words());
  sort_counts_ = make_buffer<u32>(size_t(config_.chunk_count) + 1);
  // Committed page by page as a sort first writes it: a world that never sorts never
  // pays for it.
  sort_records_ = make_buffer<std::byte>(size_t(config_.max_entities) * config_.record_size);
}

void EntityStore::sort_simulated_by_chunk() {
  const u32 n = simulated_.count;
  if (n < 2) return;
  rank_simulated_blocks();
  const size_t size = config_.record_size;
  // A count of the records per chunk, summed into each chunk's first sorted place.
  u32* next = sort_counts_.get();
  std::fill(next, next + config_.chunk_count + 1, 0u);
  for (u32 p = 0; p < n; ++p) ++next[at_place(p)->chunk + 1];
  for (u32 c = 0; c < config_.chunk_count; ++c) next[c + 1] += next[c];
  // Each record is copied to its sorted place in the scratch, read in place order (so
  // each chunk keeps the order it had), and then back into the store front to back, its
  // directory entry following. Both copies stream; the directory entries lie at random
  // and are prefetched kAhead records before they are written. (Following the
  // permutation's cycles in place needs no scratch, but each step waits for the one
  // before: about five times slower at a million records.)
  std::byte* sorted = sort_records_.get();
  for (u32 p = 0; p < n; ++p) {
    const RecordHeader* r = at_place(p);
    std::memcpy(sorted + next[r->chunk]++ * size, r, size);
  }
  constexpr u32 kAhead = 16;
  for (u32 k = 0; k < n; ++k) {
    if (k + kAhead < n)
      prefetch_for_write(&entry(reinterpret_cast<const RecordHeader*>(sorted + (k + kAhead) * size)->handle.index));
    relocate(reinterpret_cast<const RecordHeader*>(sorted + k * size), ranked_block_[k >> block_shift_],
             k & block_mask_);
  }
}

bool EntityStore::push(BlockList& list, u32* block, u32* offset) {
  u32 in_last = list.count & block_mask_;
  if (list.count == 0 || in_last == 0) {
    if (free_block_count_ == 0) return false;
    u32 b = free_blocks_[--free_block_count_];
    block_next_[b] = kNone;
    block_prev_[b] = list.last;
    block_tags_[b] = 0;
    if (list.last != kNone) block_next_[list.last] = b;
    else list.first = b;
    list.last = b;
    in_last = 0;
  }
  *block = list.last;
  *offset = in_last;
  ++list.count;
  return true;
}

void EntityStore::remove(BlockList& list, u32 block, u32 offset) {
  assert(list.count > 0);
  u32 last_offset = (list.count - 1) & block_mask_;
  if (block != list.last || offset != last_offset) relocate(at(list.last, last_offset), block, offset);
  --list.count;
  if (last_offset == 0) {  // the last block is now empty: give it back
    u32 b = list.last;
    list.last = block_prev_[b];
    if (list.last != kNone) block_next_[list.last] = kNone;
    else list.first = kNone;
    free_blocks_[free_block_count_++] = b;
  }
}

void EntityStore::link_sim(u32 index, u32 chunk) {
  SimLink& l = sim_links_[index];
  l.prev = 0;
  l.next = sim_head_[chunk];
  if (l.next) sim_links_[l.next].prev = index;
  sim_head_[chunk] = index;
  ++sim_count_[chunk];
}

void EntityStore::unlink_sim(u32 index, u32 chunk) {
  SimLink& l = sim_links_[index];
  if (l.prev) sim_links_[l.prev].next = l.next;
  else sim_head_[chunk] = l.next;
  if (l.next) sim_links_[l.next].prev = l.prev;
  l.prev = l.next = 0;
  --sim_count_[chunk];
}

Handle EntityStore::create(u32 chunk, Tier tier, u16 tag) {
  if (free_index_count_ == 0 || chunk >= config_.chunk_count || !is_living_tier(tier)) return {};
  u32 block, offset;
  if (!push(list_for(tier, chunk), &block, &offset)) return {};
  u32 index = free_indices_[--free_index_count_];
  DirEntry& d = entry(index);
  d.generation += 1;  // below kLastGeneration: an index at the last one is retired, not freed
  d.chunk = chunk;
  d.block = block;
  d.offset = u16(offset);
  d.tier = u8(tier);
  d.flags = 0;
  if (tier == Tier::Simulated) link_sim(index, chunk);
  RecordHeader* r = at(block, offset);
  std::memset(static_cast<void*>(r), 0, config_.record_size);
  r->handle = {index, d.generation};
  r->chunk = chunk;
  r->tag = tag;
  block_tags_[block] |= tag_bit(tag);
  r->tier = u8(tier);
  ++live_;
  return r->handle;
}

void EntityStore::free_index(DirEntry& d, u32 index) {
  d.tier = u8(Tier::Free);
  d.flags = 0;
  if (d.generation == kLastGeneration) ++retired_;  // its next generation would wrap
  else free_indices_[free_index_count_++] = index;
  --live_;
}

void EntityStore::destroy(Handle h) {
  if (!alive(h)) return;
  DirEntry& d = entry(h.index);
  if (Tier(d.tier) == Tier::Simulated) unlink_sim(h.index, d.chunk);
  remove(list_for(Tier(d.tier), d.chunk), d.block, d.offset);
  free_index(d, h.index);
}

void EntityStore::begin_batch_free() {
  rank_simulated_blocks();
  batch_dead_ = 0;
  batch_first_hole_ = kNone;
}

void EntityStore::free_in_batch(u32 index) {
  DirEntry& d = entry(index);
  if (Tier(d.tier) != Tier::Simulated) return destroy({index, d.generation});
  unlink_sim(index, d.chunk);
  u32 place = block_rank_[d.block] << block_shift_ | d.offset;
  set_bit(dead_places_.get(), place);
  batch_first_hole_ = std::min(batch_first_hole_, place);
  ++batch_dead_;
  free_index(d, index);
}

// How many survivors ahead the fill prefetches their record and then, once the record
// has arrived, the directory entry it rewrites.
static constexpr std::size_t kFillAhead = 16;

void EntityStore::end_batch_free() {
  if (batch_dead_ == 0) return;
  BlockList& list = simulated_;
  u32 count = list.count, new_count = count - batch_dead_;
  const u64* dead = dead_places_.get();
  // Holes below the new end, lowest first; survivors at or past it, lowest first. There
  // are as many of one as of the other. Each is found once, by a cursor running ahead of
  // the moves that prefetches what a move will touch: a survivor's record 2 x kFillAhead
  // moves ahead, then kFillAhead ahead the directory entry it names (the record has
  // arrived by then); a hole's record kFillAhead ahead.
  std::array<u32, kFillAhead> record_ring, survivor_ring, hole_ring;
  auto records = lookahead(record_ring, [&, place = new_count](u32& p) mutable {
    while (place < count && test_bit(dead, place)) ++place;
    if (place >= count) return false;
    p = place++;
    prefetch_for_read(at_place(p));
    return true;
  });
  auto survivors = lookahead(survivor_ring, [&](u32& p) {
    if (!records.next(p)) return false;
    prefetch_for_write(&entry(at_place(p)->handle.index));
    return true;
  });
  SetBits hole_bits{dead, batch_first_hole_, new_count};
  auto holes = lookahead(hole_ring, [&](u32& p) {
    if (!hole_bits.next(p)) return false;
    prefetch_for_write(at_place(p));
    return true;
  });
  for (u32 hole, from; holes.next(hole) && survivors.next(from);)
    relocate(at_place(from), ranked_block_[hole >> block_shift_], hole & block_mask_);
  clear_bits(dead_places_.get(), batch_first_hole_, count);
  // The blocks past the new end go back, the last first (as destroy() gives them back).
  u32 keep = (new_count + block_mask_) >> block_shift_, used = (count + block_mask_) >> block_shift_;
  for (u32 r = used; r-- > keep;) free_blocks_[free_block_count_++] = ranked_block_[r];
  list.count = new_count;
  if (keep) {
    list.last = ranked_block_[keep - 1];
    block_next_[list.last] = kNone;
  } else {
    list.first = list.last = kNone;
  }
  batch_dead_ = 0;
}

// Push first (it may take a block), copy, then remove the old place (the list's last
// record fills it).
bool EntityStore::transfer(u32 index, BlockList& from, BlockList& to) {
  u32 block, offset;
  if (!push(to, &block, &offset)) return false;
  const DirEntry& d = entry(index);
  const u32 old_block = d.block, old_offset = d.offset;
  relocate(record_of_index(index), block, offset);  // the entry names the new place now
  remove(from, old_block, old_offset);
  return true;
}

bool EntityStore::batch_scratch_clear() const {
  return std::all_of(dead_places_.get(), dead_places_.get() + dead_place_words(), [](u64 w) { return w == 0; });
}

RecordHeader* EntityStore::move_chunk(Handle h, u32 new_chunk) {
  if (!alive(h) || new_chunk >= config_.chunk_count) return nullptr;
  DirEntry& d = entry(h.index);
  if (d.chunk == new_chunk) return record_of_index(h.index);
  if (Tier(d.tier) == Tier::Simulated) {
    unlink_sim(h.index, d.chunk);
    link_sim(h.index, new_chunk);
  } else if (!transfer(h.index, dormant_[d.chunk], dormant_[new_chunk])) {
    return nullptr;
  }
  d.chunk = new_chunk;
  RecordHeader* r = record_of_index(h.index);
  r->chunk = new_chunk;
  return r;
}

RecordHeader* EntityStore::set_tier(Handle h, Tier tier) {
  if (!alive(h) || !is_living_tier(tier)) return nullptr;
  DirEntry& d = entry(h.index);
  if (Tier(d.tier) == tier) return record_of_index(h.index);
  if (!transfer(h.index, list_for(Tier(d.tier), d.chunk), list_for(tier, d.chunk))) return nullptr;
  if (tier == Tier::Simulated) link_sim(h.index, d.chunk);
  else unlink_sim(h.index, d.chunk);
  d.tier = u8(tier);
  RecordHeader* r = record_of_index(h.index);
  r->tier = u8(tier);
  return r;
}

}  // namespace ecs
