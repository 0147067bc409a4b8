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
using i16 = std::int16_t;
using i32 = std::int32_t;
using i64 = std::int64_t;

inline constexpr u32 kNone = 0xFFFFFFFFu;
inline constexpr u32 kLastGeneration = 0xFFFFFFFFu;

// An entity handle: directory index + generation. Index 0 is reserved and never valid,
// so a zero-initialised handle is always "no entity". A destroyed entity's index is
// reused with a higher generation, so an old handle is detected instead of resolving
// to whoever lives in that slot now. An index whose generation reaches kLastGeneration
// is retired when that entity dies, never reused: a generation never wraps back to one
// an old handle holds.
struct Handle {
  u32 index = 0;
  u32 generation = 0;
  constexpr bool is_null() const { return index == 0; }
  friend constexpr bool operator==(Handle a, Handle b) = default;
};

// Every pool entry knows who owns it: the owner's handle, the chunk it lives in and
// its position in the owner's slot list. Swap-with-last removal uses this to rewire
// the moved entry's owner in O(1).
// 8 bytes, because a mass release moves each survivor's back-pointer with its component.
// The owner's handle keeps its index whole and the low kGenerationCheckBits bits of its
// generation: a rewire goes by the index alone (an entry's owner is alive by invariant),
// and the directory holds the whole generation (World::owner_of); the bits are the
// validator's cross-check that the entry's owner is still the entity that reserved it.
inline constexpr u32 kOwnerIndexBits = 28, kGenerationCheckBits = 8, kChunkBits = 22, kLocalBits = 6;
static_assert(kOwnerIndexBits + kGenerationCheckBits + kChunkBits + kLocalBits == 64,
              "a back-pointer is one 64-bit word");
inline constexpr u32 kMaxEntityIndex = (1u << kOwnerIndexBits) - 1;  // largest index a back-pointer can name
inline constexpr u32 kMaxChunks = 1u << kChunkBits;                  // chunks a back-pointer can name
inline constexpr u32 kMaxLocal = 1u << kLocalBits;                   // slots per entity in one pool
constexpr u32 generation_check(u32 generation) { return generation & ((1u << kGenerationCheckBits) - 1); }

struct BackPointer {
  u64 owner_index : kOwnerIndexBits;            // up to kMaxEntityIndex
  u64 owner_generation : kGenerationCheckBits;  // generation_check(owner's generation)
  u64 chunk : kChunkBits;                       // below kMaxChunks
  u64 local : kLocalBits;                       // below kMaxLocal
  // Whether this entry names h as its owner (index, and generation as far as it keeps it).
  constexpr bool names(Handle h) const {
    return owner_index == h.index && owner_generation == generation_check(h.generation);
  }
};
static_assert(sizeof(BackPointer) == 8);

// Simulated entities live in one dense store that is walked every tick; dormant ones
// live in the chunk-local storage of the chunk under their position.
enum class Tier : u8 { Free = 0, Simulated = 1, Dormant = 2 };
// Whether an entity can live in tier t (Free marks an unused index; anything past Dormant
// is no tier at all).
inline constexpr bool is_living_tier(Tier t) { return t == Tier::Simulated || t == Tier::Dormant; }

enum class Result : u8 {
  Ok,
  StaleHandle,       // handle is null, destroyed, or from an earlier generation
  PoolFull,          // reserve would exceed the pool's capacity
  EntityMaxReached,  // reserve would exceed the per-entity maximum
  NoReservedSlot,    // add with every reserved slot already used
  BadLocalIndex,     // remove_one with a local index past the added components
  StoreFull,         // no free entity index or no storage block left
  BadChunk,          // chunk index outside the grid
  AlreadyQueued,     // queue_destroy on an entity already queued
  BadTier,           // set_tier to a tier no entity lives in (Tier::Free: use destroy)
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
