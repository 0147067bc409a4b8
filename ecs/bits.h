// bits.h — the bitmaps the batched release marks its dead in: one bit per pool entry
// (world.h) or per record place (entity_store.h), set by the mark pass, walked by the
// pass that closes the holes, and cleared behind it.
#pragma once
#include <algorithm>
#include <bit>

#include "ecs_types.h"

namespace ecs {

inline void set_bit(u64* bits, u32 pos) { bits[pos >> 6] |= u64(1) << (pos & 63); }
inline bool test_bit(const u64* bits, u32 pos) { return bits[pos >> 6] >> (pos & 63) & 1; }
// Clears the words holding bits [from, end).
inline void clear_bits(u64* bits, u32 from, u32 end) {
  if (from < end) std::fill(bits + (from >> 6), bits + ((end - 1) >> 6) + 1, u64(0));
}

// Walks the set bits of a bitmap in [from, end), lowest first, a word at a time.
struct SetBits {
  const u64* bits;
  u32 word;
  u32 end;
  u64 set;
  SetBits(const u64* b, u32 from, u32 e)
      : bits(b), word(from >> 6), end(e), set(b[from >> 6] & (~u64(0) << (from & 63))) {}
  bool next(u32& pos) {
    while (set == 0) {
      if (u64(++word) << 6 >= end) return false;
      set = bits[word];
    }
    pos = (word << 6) | u32(std::countr_zero(set));
    set &= set - 1;
    return pos < end;
  }
};

}  // namespace ecs
