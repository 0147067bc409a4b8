// snapshot.h — writes a World to a byte stream and restores it exactly: the entity
// directory with its generations, the free index and free block stacks, every block
// list in chain order with its records, the chunk membership lists, every pool's
// entries in slot order with their back-pointers, stats and the live entities' slot
// lists, and the destruction queue.
// A restored world continues exactly as the original would have (same slot order, same
// free-list order, so the same future rewires and handle reuse).
//
// Table of contents
//   [SECTION] Byte streams (what the snapshot writes to and reads from)
//   [SECTION] Entity store
//   [SECTION] World
//
// Reading trusts nothing: every index, count and link is checked before it is used,
// and the restored world is run through the validator. A failure names the part that
// is wrong; the world it was read into must then be thrown away.
#pragma once
#include <cstring>
#include <string>
#include <vector>

#include "world.h"

namespace ecs {

// [SECTION] Byte streams

struct ByteSink {
  virtual ~ByteSink() = default;
  virtual void write(const void* p, size_t n) = 0;
  template <class T>
  void pod(const T& v) {
    write(&v, sizeof v);
  }
};

// Reads fail softly: after the first short read every read fails and `error` says why.
struct ByteSource {
  virtual ~ByteSource() = default;
  // Fills exactly n bytes or returns false.
  virtual bool read(void* p, size_t n) = 0;
  template <class T>
  bool pod(T& v) {
    return read(&v, sizeof v);
  }
};

struct SnapshotError {
  std::string what;
};

// [SECTION] Entity store

struct SnapshotAccess {
  static void fail(const std::string& what) { throw SnapshotError{what}; }
  static void need(bool ok, const char* what) {
    if (!ok) fail(what);
  }
  template <class T>
  static T get(ByteSource& in, const char* what) {
    T v;
    if (!in.pod(v)) fail(std::string("ends early in ") + what);
    return v;
  }
  static void get_bytes(ByteSource& in, void* p, size_t n, const char* what) {
    if (n && !in.read(p, n)) fail(std::string("ends early in ") + what);
  }

  static void write_list(const EntityStore& s, ByteSink& out, const BlockList& list) {
    out.pod(list.count);
    s.walk_blocks(list, [&](u32 b, u32 n) {
      out.pod(b);
      out.write(const_cast<EntityStore&>(s).at(b, 0), size_t(n) * s.config_.record_size);
    });
  }

  // The highest index ever used (generation above 0); every index past it is untouched.
  static u32 highest_used_index(const EntityStore& s) {
    u32 hi = s.config_.max_entities;
    while (hi > 0 && s.dir(hi).generation == 0) --hi;
    return hi;
  }

  static void write_store(const EntityStore& s, ByteSink& out) {
    const StoreConfig& c = s.config_;
    out.pod(c.max_entities), out.pod(c.record_size), out.pod(c.chunk_count), out.pod(c.block_records),
        out.pod(s.total_blocks_);
    out.pod(s.live_);
    // Free index stack: the bottom is the untouched run max, max-1, ... (one number);
    // the rest (indices given back, in stack order) is written out.
    u32 run = 0;
    while (run < s.free_index_count_ && s.free_indices_[run] == c.max_entities - run) ++run;
    out.pod(s.free_index_count_), out.pod(run);
    out.write(s.free_indices_.get() + run, size_t(s.free_index_count_ - run) * sizeof(u32));
    // Directory up to the highest index ever used (the rest is still zero).
    u32 hi = highest_used_index(s);
    out.pod(hi);
    for (u32 i = 1; i <= hi; ++i) out.pod(s.dir(i));
    out.pod(s.free_block_count_);
    out.write(s.free_blocks_.get(), size_t(s.free_block_count_) * sizeof(u32));
    write_list(s, out, s.simulated_);
    for (u32 ch = 0; ch < c.chunk_count; ++ch) write_list(s, out, s.dormant_[ch]);
    out.write(s.sim_head_.get(), size_t(c.chunk_count) * sizeof(u32));
    out.write(s.sim_count_.get(), size_t(c.chunk_count) * sizeof(u32));
    out.write(s.sim_links_.get() + 1, size_t(hi) * sizeof(SimLink));
  }

  // Reads one block list into the arena, claiming its blocks in `used`; every record
  // must name a live index whose directory entry points back at it.
  static void read_list(EntityStore& s, ByteSource& in, BlockList& list, Tier tier, u32 chunk, std::vector<u8>& used) {
    const StoreConfig& c = s.config_;
    list = BlockList{};
    u32 count = get<u32>(in, "a block list");
    need(count <= c.max_entities, "a block list holds more records than the store has entities");
    u32 remaining = count;
    while (remaining) {
      u32 b = get<u32>(in, "a block list");
      need(b < s.total_blocks_, "a block list names a block outside the arena");
      need(!used[b], "a storage block is used twice");
      used[b] = 1;
      s.block_next_[b] = kNone;
      s.block_prev_[b] = list.last;
      s.block_tags_[b] = 0;
      if (list.last != kNone) s.block_next_[list.last] = b;
      else list.first = b;
      list.last = b;
      u32 n = remaining < c.block_records ? remaining : c.block_records;
      get_bytes(in, s.at(b, 0), size_t(n) * c.record_size, "entity records");
      for (u32 k = 0; k < n; ++k) {
        RecordHeader* r = s.at(b, k);
        u32 i = r->handle.index;
        need(i >= 1 && i <= c.max_entities, "a record's handle index is outside the directory");
        const DirEntry& d = s.dir(i);
        need(Tier(d.tier) == tier && r->tier == u8(tier), "a record sits in the wrong tier's storage");
        need(d.generation == r->handle.generation, "a record's generation disagrees with the directory");
        need(d.block == b && d.offset == k, "the directory does not point at a record");
        need(d.chunk == r->chunk && d.chunk < c.chunk_count, "a record's chunk disagrees with the directory");
        need(tier == Tier::Simulated || r->chunk == chunk, "a dormant record is stored in another chunk");
        s.block_tags_[b] |= tag_bit(r->tag);
      }
      remaining -= n;
    }
    list.count = count;
  }

  // `s` must be freshly constructed with the configuration the snapshot was written with.
  static void read_store(EntityStore& s, ByteSource& in) {
    const StoreConfig& c = s.config_;
    u32 max = get<u32>(in, "the store header"), rsize = get<u32>(in, "the store header");
    u32 chunks = get<u32>(in, "the store header"), brec = get<u32>(in, "the store header");
    u32 blocks = get<u32>(in, "the store header");
    if (max != c.max_entities || rsize != c.record_size || chunks != c.chunk_count || brec != c.block_records ||
        blocks != s.total_blocks_)
      fail("the entity store was saved with another layout (" + std::to_string(max) + " entities of " +
           std::to_string(rsize) + " bytes in " + std::to_string(chunks) + " chunks; this world has " +
           std::to_string(c.max_entities) + " of " + std::to_string(c.record_size) + " in " +
           std::to_string(c.chunk_count) + ")");
    s.live_ = get<u32>(in, "the store header");
    u32 free_count = get<u32>(in, "the free index stack"), run = get<u32>(in, "the free index stack");
    need(free_count <= max && run <= free_count, "free index stack counts out of range");
    for (u32 k = 0; k < run; ++k) s.free_indices_[k] = max - k;
    get_bytes(in, s.free_indices_.get() + run, size_t(free_count - run) * sizeof(u32), "the free index stack");
    s.free_index_count_ = free_count;
    u32 hi = get<u32>(in, "the directory");
    need(hi <= max, "the directory is longer than the store");
    for (u32 i = 1; i <= hi; ++i) get_bytes(in, &s.dir_mut(i), sizeof(DirEntry), "the directory");
    u32 live = 0, retired = 0;
    for (u32 i = 1; i <= hi; ++i) {
      const DirEntry& d = s.dir(i);
      need(d.tier <= u8(Tier::Dormant), "a directory entry has an unknown tier");
      if (Tier(d.tier) != Tier::Free) {
        need(d.generation != 0, "a live directory entry has generation 0");
        ++live;
      } else if (d.generation == kLastGeneration) {
        ++retired;
      }
    }
    need(live == s.live_, "the directory's live entries disagree with the live count");
    need(u64(free_count) + live + retired == max, "live, free and retired indices do not add up to the directory size");
    s.retired_ = retired;
    // Every free index names a free directory entry that is not retired, once.
    s.check_free_indices([](u32, u32, bool) { fail("the free index stack is inconsistent"); });
    u32 free_blocks = get<u32>(in, "the free block stack");
    need(free_blocks <= blocks, "free block count out of range");
    get_bytes(in, s.free_blocks_.get(), size_t(free_blocks) * sizeof(u32), "the free block stack");
    s.free_block_count_ = free_blocks;
    std::vector<u8> used(blocks, 0);
    for (u32 k = 0; k < free_blocks; ++k) {
      u32 b = s.free_blocks_[k];
      need(b < blocks && !used[b], "the free block stack is inconsistent");
      used[b] = 1;
    }
    u64 records = 0;
    read_list(s, in, s.simulated_, Tier::Simulated, 0, used);
    records += s.simulated_.count;
    for (u32 ch = 0; ch < chunks; ++ch) {
      read_list(s, in, s.dormant_[ch], Tier::Dormant, ch, used);
      records += s.dormant_[ch].count;
    }
    need(records == s.live_, "storage holds a different number of records than live entities");
    for (u8 u : used) need(u, "a storage block is neither used nor free");
    get_bytes(in, s.sim_head_.get(), size_t(chunks) * sizeof(u32), "the chunk membership lists");
    get_bytes(in, s.sim_count_.get(), size_t(chunks) * sizeof(u32), "the chunk membership lists");
    for (u32 ch = 0; ch < chunks; ++ch)
      need(s.sim_head_[ch] <= max, "a chunk membership list starts outside the directory");
    get_bytes(in, s.sim_links_.get() + 1, size_t(hi) * sizeof(SimLink), "the chunk membership lists");
    for (u32 i = 1; i <= hi; ++i)
      need(s.sim_links_[i].prev <= hi && s.sim_links_[i].next <= hi,
           "a chunk membership link points outside the directory");
  }

  // [SECTION] World

  template <class W, class C>
  static void write_pool(const W& w, ByteSink& out) {
    const Pool<C>& p = w.template pool<C>();
    const PoolStats& st = p.stats;
    out.pod(st.capacity), out.pod(st.taken), out.pod(st.high_water), out.pod(st.reserved_unused), out.pod(st.owners);
    out.pod(st.tick), out.pod(st.total), out.pod(st.histogram);
    out.write(p.items.get(), size_t(st.taken) * sizeof(C));
    out.write(p.owners.get(), size_t(st.taken) * sizeof(BackPointer));
  }

  template <class W, class C>
  static void read_pool(W& w, ByteSource& in) {
    Pool<C>& p = w.template pool<C>();
    PoolStats& st = p.stats;
    u32 capacity = get<u32>(in, C::kPoolName);
    if (capacity != st.capacity)
      fail(std::string("pool ") + C::kPoolName + " was saved with capacity " + std::to_string(capacity) +
           ", this world has " + std::to_string(st.capacity));
    st.taken = get<u32>(in, C::kPoolName);
    st.high_water = get<u32>(in, C::kPoolName);
    st.reserved_unused = get<u64>(in, C::kPoolName);
    st.owners = get<u32>(in, C::kPoolName);
    st.tick = get<PoolCounters>(in, C::kPoolName);
    st.total = get<PoolCounters>(in, C::kPoolName);
    get_bytes(in, st.histogram, sizeof st.histogram, C::kPoolName);
    need(st.taken <= st.capacity && st.high_water <= st.capacity, "a pool's taken count is past its capacity");
    get_bytes(in, p.items.get(), size_t(st.taken) * sizeof(C), C::kPoolName);
    get_bytes(in, p.owners.get(), size_t(st.taken) * sizeof(BackPointer), C::kPoolName);
  }

  template <Positioned P, Component... Cs>
  static void write_world(const World<P, Cs...>& w, ByteSink& out) {
    using W = World<P, Cs...>;
    const ChunkGrid& g = w.grid_;
    out.pod(g.cells_x), out.pod(g.cells_y), out.pod(g.chunk_cells);
    out.pod(u32(W::kPoolCount));
    write_store(w.store_, out);
    out.pod(w.pending_count_);
    out.write(w.pending_.get(), size_t(w.pending_count_) * sizeof(Handle));
    out.pod(w.failed_creates_);
    out.pod(w.last_strategy_);
    (write_pool<W, Cs>(w, out), ...);
    // The slot lists of every live entity, in index order.
    for (u32 i = 1, hi = highest_used_index(w.store_); i <= hi; ++i)
      if (Tier(w.store_.dir(i).tier) != Tier::Free) out.pod(w.lists(i));
  }

  template <Positioned P, Component... Cs>
  static void read_world(World<P, Cs...>& w, ByteSource& in) {
    using W = World<P, Cs...>;
    const ChunkGrid& g = w.grid_;
    u32 cx = get<u32>(in, "the grid"), cy = get<u32>(in, "the grid"), cc = get<u32>(in, "the grid");
    if (cx != g.cells_x || cy != g.cells_y || cc != g.chunk_cells)
      fail("the grid was saved as " + std::to_string(cx) + "x" + std::to_string(cy) + " cells in chunks of " +
           std::to_string(cc) + ", this world is " + std::to_string(g.cells_x) + "x" + std::to_string(g.cells_y) +
           " in chunks of " + std::to_string(g.chunk_cells));
    need(get<u32>(in, "the pool list") == W::kPoolCount, "the save has another number of pools");
    read_store(w.store_, in);
    u32 pending = get<u32>(in, "the destruction queue");
    need(pending <= w.store_.max_entities(), "the destruction queue is longer than the store");
    get_bytes(in, w.pending_.get(), size_t(pending) * sizeof(Handle), "the destruction queue");
    w.pending_count_ = pending;
    w.failed_creates_ = get<u64>(in, "the world counters");
    w.last_strategy_ = get<decltype(w.last_strategy_)>(in, "the world counters");
    for (ReleaseStrategy r : w.last_strategy_) need(u8(r) <= u8(ReleaseStrategy::Compact), "unknown release strategy");
    (read_pool<W, Cs>(w, in), ...);
    // Rows of free indices stay zero; the validator checks every live row's counts and slots.
    for (u32 i = 1, hi = highest_used_index(w.store_); i <= hi; ++i)
      if (Tier(w.store_.dir(i).tier) != Tier::Free) get_bytes(in, &w.lists(i), sizeof(w.lists(i)), "the slot lists");
    // Slot lists inside the records and the pools' back-pointers must agree exactly;
    // the validator walks both (every index it follows is range-checked by now).
    std::vector<Violation> v = w.validate(1);
    if (!v.empty()) fail("the restored world is inconsistent: " + describe(v.front()));
  }
};

// Writes the world's complete state.
template <class W>
void write_snapshot(const W& world, ByteSink& out) {
  SnapshotAccess::write_world(world, out);
}

// Restores a world written by write_snapshot into `world`, which must be freshly built
// with the same configuration. On failure returns false with the problem in *err;
// `world` is then in an unspecified state and must be discarded.
template <class W>
bool read_snapshot(W& world, ByteSource& in, std::string* err) {
  try {
    SnapshotAccess::read_world(world, in);
    return true;
  } catch (const SnapshotError& e) {
    if (err) *err = e.what;
    return false;
  }
}

}  // namespace ecs
