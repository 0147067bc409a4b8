// ecs_types.h — the small vocabulary every part of the engine speaks:
// integer aliases, entity handles, pool back-pointers, tiers and operation results.
#pragma once
#include <cstddef>
#include <cstdint>

namespace ecs {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i32 = std::int32_t;

inline constexpr u32 kNone = 0xFFFFFFFFu;

// An entity handle: directory index + generation. Index 0 is reserved and never valid,
// so a zero-initialised handle is always "no entity". A destroyed entity's index is
// reused with a higher generation, so an old handle is detected instead of resolving
// to whoever lives in that slot now.
struct Handle {
  u32 index = 0;
  u32 generation = 0;
  constexpr bool is_null() const { return index == 0; }
  friend constexpr bool operator==(Handle a, Handle b) = default;
};

// Every pool entry knows who owns it: the owner's handle, the chunk it lives in and
// its position in the owner's slot list. Swap-with-last removal uses this to rewire
// the moved entry's owner in O(1). owner_index == 0 marks an entry being released.
// 12 bytes: chunk and local index share a word. Every byte counts here, because a mass
// release moves each survivor's back-pointer with its component.
struct BackPointer {
  u32 owner_index;
  u32 owner_generation;
  u32 chunk : 24;  // below kMaxChunks
  u32 local : 8;   // below 256 (a per-entity maximum is a u8 count)
};
static_assert(sizeof(BackPointer) == 12);
inline constexpr u32 kMaxChunks = 1u << 24;

// Simulated entities live in one dense store that is walked every tick; dormant ones
// live in the chunk-local storage of the chunk under their position.
enum class Tier : u8 { Free = 0, Simulated = 1, Dormant = 2 };

enum class Result : u8 {
  Ok,
  StaleHandle,       // handle is null, destroyed, or from an earlier generation
  WrongChunk,        // the handle is alive but not in the chunk the caller named
  PoolFull,          // reserve would exceed the pool's capacity
  EntityMaxReached,  // reserve would exceed the per-entity maximum
  NoReservedSlot,    // add with every reserved slot already used
  BadLocalIndex,     // remove_one with a local index past the added components
  StoreFull,         // no free entity index or no storage block left
  BadChunk,          // chunk index outside the grid
  AlreadyQueued,     // queue_destroy on an entity already queued
  BadTier,           // set_tier to Tier::Free (use destroy)
};

const char* result_name(Result r);

// Start loading the cache line at p, which the caller will read (or write) soon.
// The empty volatile asm is what keeps the prefetch: GCC treats __builtin_prefetch as
// free of side effects, so it finds a helper made only of prefetches "pure" and deletes
// every call to it as dead code (GCC 12 silently did so to each of the world's prefetch
// helpers). A volatile asm is a side effect that costs no instruction.
inline void prefetch_for_read(const void* p) {
  __builtin_prefetch(p, 0);
  asm volatile("");
}
inline void prefetch_for_write(const void* p) {
  __builtin_prefetch(p, 1);
  asm volatile("");
}

}  // namespace ecs
