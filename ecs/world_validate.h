// world_validate.h — World::validate: the debug pass that checks every entity, every chunk
// list, every block chain and every pool entry, and that the release's scratch is clear.
// Included by world.h; the declarations and their contracts are in the class there.
#pragma once
#include "world.h"

namespace ecs {

// One validation's findings, and what the entities hold per pool, summed over the walk
// and compared with each pool's stats at the end.
template <Positioned Payload, Component... Cs>
struct World<Payload, Cs...>::Validation {
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

// Walks every entity, every chunk and every pool entry, and checks that the batched
// release's scratch bitmaps are clear. Returns at most max_reports violations (the rest
// are only counted in the last message); *found, when given, gets how many there are in
// all. Reads only: the const_cast is for the store's walks, which hand out writable
// records.
template <Positioned Payload, Component... Cs>
std::vector<Violation> World<Payload, Cs...>::validate(size_t max_reports, u64* found) const {
  Validation v{max_reports};
  auto& self = const_cast<World&>(*this);
  self.validate_entities(v);
  // The pools' checks compare the walk's sums and read owners' records: not over
  // storage whose chains are broken.
  if (v.records_walked) (self.template validate_pool<Cs>(v), ...);
  if (!store_.batch_scratch_clear())
    v.report("", kNone, {}, "the store's batched-free bitmap has bits set between batches");
  if (found) *found = v.out.size() + v.dropped;
  if (v.dropped) v.out.push_back({"", kNone, {}, std::to_string(v.dropped) + " more violations not listed"});
  return std::move(v.out);
}

template <Positioned Payload, Component... Cs>
void World<Payload, Cs...>::validate_record(Validation& v, Record& r, Tier tier, u32 chunk) {
  Handle h = r.header.handle;
  if (!store_.alive(h)) {
    v.report("", kNone, h, "record in storage but its handle is not alive");
    return;
  }
  const DirEntry& d = store_.dir(h.index);
  if (store_.record_of_index(h.index) != &r.header) v.report("", kNone, h, "directory does not point at the record");
  if (Tier(r.header.tier) != tier || Tier(d.tier) != tier)
    v.report("", kNone, h, "tier disagrees with the storage holding the record");
  if (r.header.chunk != d.chunk) v.report("", kNone, h, "record chunk disagrees with the directory");
  if ((r.header.flags & kFlagDying) != (d.flags & kFlagDying))
    v.report("", kNone, h, "record's dying flag disagrees with the directory");
  if (tier == Tier::Dormant && r.header.chunk != chunk)
    v.report("", kNone, h,
             "dormant record stored in chunk " + std::to_string(chunk) + " but says chunk " +
                 std::to_string(r.header.chunk));
  (validate_slots<Cs>(v, r), ...);
}

template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::validate_slots(Validation& v, Record& r) {
  const Pool<C>& p = pool<C>();
  const auto& l = list<C>(r);
  Handle h = r.header.handle;
  if (l.reserved > Pool<C>::kMax || l.added > l.reserved) {
    v.report(C::kPoolName, kNone, h,
             "counts out of range: reserved " + std::to_string(l.reserved) + ", added " + std::to_string(l.added));
    return;
  }
  for (u32 k = 0; k < l.reserved; ++k) {
    u32 s = l.slot[k];
    if (s >= p.stats.taken || s >= p.stats.capacity) {
      v.report(C::kPoolName, s, h, "slot " + std::to_string(k) + " points past taken");
      continue;
    }
    const BackPointer& bp = p.owners[s];
    if (!bp.names(h) || bp.local != k || bp.chunk != r.header.chunk)
      v.report(C::kPoolName, s, h, "back-pointer does not round-trip (slot " + std::to_string(k) + ")");
  }
  constexpr size_t I = index_of<C>();
  v.reserved[I] += l.reserved;
  v.unused[I] += u32(l.reserved - l.added);
  if (l.reserved) {
    ++v.histogram[I][l.added];
    ++v.owners[I];
  }
}

template <Positioned Payload, Component... Cs>
void World<Payload, Cs...>::validate_entities(Validation& v) {
  // The record walks below follow the chains: a chain out of the arena is reported and
  // ends the entity checks but for the directory's.
  if (!validate_storage(v)) return validate_directory(v);
  v.records_walked = true;
  u32 seen = 0;
  store_.walk(store_.simulated(), [&](RecordHeader* h) {
    validate_record(v, *as_record(h), Tier::Simulated, h->chunk);
    ++seen;
  });
  u32 linked = 0;
  for (u32 c = 0; c < store_.chunk_count(); ++c) {
    store_.walk(store_.dormant(c), [&](RecordHeader* h) {
      validate_record(v, *as_record(h), Tier::Dormant, c);
      ++seen;
    });
    u32 in_chunk = 0, prev = 0;
    for (u32 i = store_.sim_head(c); i != 0 && in_chunk <= store_.simulated().count;
         i = store_.sim_link(i).next, ++in_chunk) {
      if (i > store_.max_entities()) {
        v.report("", kNone, {i, 0},
                 "chunk " + std::to_string(c) + " membership list holds an index past the directory");
        break;
      }
      const DirEntry& d = store_.dir(i);
      if (Tier(d.tier) != Tier::Simulated || d.chunk != c)
        v.report("", kNone, {i, d.generation},
                 "chunk " + std::to_string(c) + " lists a member that is not simulated there");
      if (store_.sim_link(i).prev != prev)
        v.report("", kNone, {i, d.generation}, "chunk " + std::to_string(c) + " membership list: back link broken");
      prev = i;
    }
    if (in_chunk != store_.sim_count_in(c))
      v.report("", kNone, {}, "chunk " + std::to_string(c) + " simulated member count disagrees with its list");
    linked += in_chunk;
  }
  if (linked != store_.simulated().count)
    v.report("", kNone, {},
             "chunk membership lists hold " + std::to_string(linked) + " simulated entities, the store " +
                 std::to_string(store_.simulated().count));
  if (seen != store_.live_count())
    v.report(
        "", kNone, {},
        "storage holds " + std::to_string(seen) + " records, live count is " + std::to_string(store_.live_count()));
  validate_directory(v);
}

// Every index is either live or on the free stack; every dying entity is queued exactly
// once, at the position its directory entry names.
template <Positioned Payload, Component... Cs>
void World<Payload, Cs...>::validate_directory(Validation& v) {
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
    if (d.queue_pos >= pending_count_ || !(pending_[d.queue_pos] == h))
      v.report("", kNone, h, "flagged dying but not at its place in the destruction queue");
  }
  if (live != store_.live_count())
    v.report("", kNone, {},
             "directory holds " + std::to_string(live) + " live indices, live count is " +
                 std::to_string(store_.live_count()));
  if (retired != store_.retired_count())
    v.report("", kNone, {},
             "directory holds " + std::to_string(retired) + " retired indices, retired count is " +
                 std::to_string(store_.retired_count()));
  if (u64(live) + store_.free_index_count() + retired != store_.max_entities())
    v.report("", kNone, {}, "live, free and retired indices do not add up to the directory size");
  // The free stack: a live index on it would be handed out again by the next create.
  store_.check_free_indices([&](u32 k, u32 i, bool in_range_once) {
    if (in_range_once)
      v.report("", kNone, {i, store_.dir(i).generation}, "on the free index stack but live or retired");
    else
      v.report(
          "", kNone, {},
          "free index stack entry " + std::to_string(k) + " (" + std::to_string(i) + ") is out of range or repeated");
  });
  if (flagged != pending_count_)
    v.report("", kNone, {},
             std::to_string(flagged) + " entities flagged dying, " + std::to_string(pending_count_) + " queued");
  for (Handle h : pending_destructions())
    if (!dying(h)) v.report("", kNone, h, "queued for destruction but not alive and flagged");
}

// Every block list holds exactly the blocks its count needs, and used plus free
// blocks add up to the arena. Returns false when a chain leaves the arena: then no walk
// may follow the chains (the next link would be read from past the block table).
template <Positioned Payload, Component... Cs>
bool World<Payload, Cs...>::validate_storage(Validation& v) {
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
    if (owner[b]++)
      v.report("", kNone, {}, name + " holds block " + std::to_string(b) + ", which is also used elsewhere");
    return true;
  };
  for (u32 k = 0; k < store_.free_blocks(); ++k) claim(store_.free_block_at(k), "the free block stack");
  auto check = [&](const BlockList& list, const std::string& name) {
    u32 need = (list.count + store_.block_records() - 1) / store_.block_records(), have = 0, last = kNone;
    for (u32 b = list.first; b != kNone && have <= need; b = store_.next_block(b), ++have) {
      last = b;
      if (!claim(b, name)) {
        chains_in_arena = false;
        break;
      }
    }
    if (have != need || last != list.last)
      v.report(
          "", kNone, {},
          name + " holds " + std::to_string(list.count) + " records in a chain of " + std::to_string(have) + " blocks");
    used += have;
  };
  check(store_.simulated(), "simulated store");
  for (u32 c = 0; c < store_.chunk_count(); ++c)
    check(store_.dormant(c), "chunk " + std::to_string(c) + " dormant storage");
  if (used + store_.free_blocks() != store_.total_blocks())
    v.report("", kNone, {},
             "storage blocks: " + std::to_string(used) + " used + " + std::to_string(store_.free_blocks()) +
                 " free != " + std::to_string(store_.total_blocks()));
  return chains_in_arena;
}

template <Positioned Payload, Component... Cs>
template <class C>
void World<Payload, Cs...>::validate_pool(Validation& v) {
  const Pool<C>& p = pool<C>();
  constexpr size_t I = index_of<C>();
  const PoolStats& st = p.stats;
  if (v.reserved[I] != st.taken)
    v.report(C::kPoolName, kNone, {},
             "entities hold " + std::to_string(v.reserved[I]) + " slots, taken is " + std::to_string(st.taken));
  if (v.unused[I] != st.reserved_unused)
    v.report(C::kPoolName, kNone, {},
             "reserved-unused count " + std::to_string(st.reserved_unused) + " disagrees with the entities' " +
                 std::to_string(v.unused[I]));
  if (v.owners[I] != st.owners)
    v.report(
        C::kPoolName, kNone, {},
        "owner count " + std::to_string(st.owners) + " disagrees with the entities' " + std::to_string(v.owners[I]));
  if (st.taken > st.capacity || st.high_water < st.taken || st.high_water > st.capacity)
    v.report(C::kPoolName, kNone, {}, "taken/high-water out of range");
  for (u32 k = 0; k <= Pool<C>::kMax; ++k)
    if (v.histogram[I][k] != st.histogram[k]) {
      v.report(C::kPoolName, kNone, {}, "histogram bucket " + std::to_string(k) + " disagrees");
      break;
    }
  for (u32 s = 0; s < st.taken && s < st.capacity; ++s) {
    const BackPointer& bp = p.owners[s];
    Handle owner = owner_of(bp);
    if (owner.is_null()) {
      v.report(C::kPoolName, s, {u32(bp.owner_index), u32(bp.owner_generation)},
               "entry owned by a dead or stale handle");
      continue;
    }
    // The owner's chunk from the directory, not its record: a corrupt directory entry
    // (validate_record's report) may point anywhere.
    const u32 owner_chunk = store_.dir(bp.owner_index).chunk;
    const auto& l = list_at<C>(bp.owner_index);
    // A count past the maximum (a corrupt save) is validate_slots' report; no slot past
    // the list is read.
    u32 listed = std::min<u32>(l.reserved, Pool<C>::kMax);
    if (bp.local >= listed || l.slot[bp.local] != s)
      v.report(C::kPoolName, s, owner, "owner's slot list does not point back at this entry");
    else if (bp.chunk != owner_chunk)
      v.report(C::kPoolName, s, owner,
               "back-pointer chunk " + std::to_string(bp.chunk) + " but the owner is in chunk " +
                   std::to_string(owner_chunk));
  }
  // The dead-entry bitmap is all zero between releases: a bit left set would make the
  // next batch take a live entry for a dead one.
  const u64* bits = dead_bits_[I].get();
  for (size_t w = 0; w < dead_words(st.capacity); ++w)
    if (bits[w]) {
      v.report(C::kPoolName, u32(w * 64 + size_t(std::countr_zero(bits[w]))), {},
               "dead-entry bitmap has a bit set between releases");
      break;
    }
}

}  // namespace ecs
