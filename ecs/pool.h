// pool.h — one world-wide, fixed-capacity, dense pool of component type C.
//
// Structure of arrays: items[] holds only component data (what a pass over the
// components reads), owners[] holds the back-pointers (what removal reads). The
// entities' side, their slot lists, is in the world's list table (world.h).
// Entries [0, taken) are in use; removal keeps them dense by moving the last entry
// (or, in a batch, the survivors) into the holes and rewiring the moved entry's owner.
//
// A component type declares its pool:
//   struct RenderPiece { ...; static constexpr ecs::u32 kMaxPerEntity = 32;
//                        static constexpr const char* kPoolName = "render_pieces"; };
#pragma once
#include <memory>
#include <type_traits>

#include "buffer.h"
#include "ecs_types.h"
#include "slot_list.h"

namespace ecs {

template <class C>
concept Component = std::is_trivially_copyable_v<C> && requires {
  { C::kMaxPerEntity } -> std::convertible_to<u32>;
  { C::kPoolName } -> std::convertible_to<const char*>;
};

struct PoolCounters {
  u64 reserves = 0;             // slots reserved
  u64 adds = 0;                 // components added into reserved slots
  u64 removes = 0;              // slots given back (remove one, release, destroy)
  u64 rewires = 0;              // entries moved, each rewiring its owner's slot
  u64 failed_reservations = 0;  // reserve calls refused whole
};

// Numbers the debugger, the report and the tests read. Copyable, type-free.
struct PoolStats {
  static constexpr u32 kMaxHistogram = 64;
  const char* name = "";
  u32 capacity = 0;
  u32 taken = 0;
  u32 high_water = 0;
  u32 max_per_entity = 0;
  u64 reserved_unused = 0;            // slots reserved by entities but holding no component
  u32 owners = 0;                     // entities holding at least one slot
  PoolCounters tick;                  // since the last begin_tick()
  PoolCounters total;                 // since the world was created
  u32 histogram[kMaxHistogram] = {};  // owners by number of added components
};

template <Component C>
struct Pool {
  static constexpr u32 kMax = C::kMaxPerEntity;
  static_assert(kMax < PoolStats::kMaxHistogram, "histogram too small for this maximum");
  static_assert(kMax <= kMaxLocal, "a back-pointer's local index cannot name this many slots");
  using List = SlotList<kMax>;

  Buffer<C> items;
  Buffer<BackPointer> owners;
  PoolStats stats;

  // Allocated once; pages are committed by the OS only as the pool fills.
  explicit Pool(u32 capacity) : items(make_buffer<C>(capacity)), owners(make_buffer<BackPointer>(capacity)) {
    stats.name = C::kPoolName;
    stats.capacity = capacity;
    stats.max_per_entity = kMax;
  }

  u32 taken() const { return stats.taken; }
  u32 capacity() const { return stats.capacity; }

  // Histogram upkeep around any change of an owner's counts.
  void leave_histogram(const List& l) {
    if (l.reserved) {
      --stats.histogram[l.added];
      --stats.owners;
    }
  }
  void enter_histogram(const List& l) {
    if (l.reserved) {
      ++stats.histogram[l.added];
      ++stats.owners;
    }
  }
  // Takes an owner's list out of the books before all its slots are given back.
  void forget_list(const List& l) {
    leave_histogram(l);
    stats.reserved_unused -= u32(l.reserved - l.added);
  }
  void count(u64 PoolCounters::*field, u64 n = 1) {
    stats.tick.*field += n;
    stats.total.*field += n;
  }
  // Moves entry `from` to `to` (both < taken) with its back-pointer; the caller rewires.
  void move_entry(u32 from, u32 to) {
    items[to] = items[from];
    owners[to] = owners[from];
  }
};

}  // namespace ecs
