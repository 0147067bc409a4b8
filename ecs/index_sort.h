// index_sort.h — ordering a batch of handles by directory index: the LSD radix sort the
// batched release walks a dense batch in (world.h, in_directory_order), so that the
// victims' directory rows are read nearly in address order.
#pragma once
#include <array>
#include <span>
#include <utility>

#include "ecs_types.h"

namespace ecs {

inline constexpr u32 kIndexSortBits = 11;  // digit width: 2,048 buckets a pass
inline constexpr u32 kIndexSortMaxPasses = (32 + kIndexSortBits - 1) / kIndexSortBits;

// Sorts `batch` by index (stable: equal indices keep their order) for indices below
// 2^index_bits, passing between the two scratch buffers of batch.size() handles each;
// returns the sorted handles, which lie in one of them. One read of the batch counts the
// digits of every pass. Each pass scatters to 2,048 places at once, which no hardware
// stream follows, into a buffer the caller's other work has evicted; so each pass's
// output lines are prefetched in address order one pass ahead (by the count, then by the
// pass before).
inline std::span<const Handle> sort_by_index(std::span<const Handle> batch, u32 index_bits,
                                             std::array<Handle*, 2> scratch) {
  constexpr u32 kMask = (1u << kIndexSortBits) - 1, kHandlesPerLine = 64 / sizeof(Handle);
  const u32 n = u32(batch.size()), passes = (index_bits + kIndexSortBits - 1) / kIndexSortBits;
  std::array<std::array<u32, kMask + 1>, kIndexSortMaxPasses> at{};
  for (u32 i = 0; i < n; ++i) {
    if (i % kHandlesPerLine == 0) prefetch_for_write(scratch[0] + i);
    for (u32 p = 0; p < passes; ++p) ++at[p][(batch[i].index >> (p * kIndexSortBits)) & kMask];
  }
  for (u32 p = 0; p < passes; ++p)
    for (u32 d = 0, sum = 0; d <= kMask; ++d) sum += std::exchange(at[p][d], sum);
  const Handle* from = batch.data();
  for (u32 p = 0; p < passes; ++p) {
    Handle* to = scratch[p & 1];
    Handle* next = p + 1 < passes ? scratch[(p + 1) & 1] : nullptr;
    for (u32 i = 0; i < n; ++i) {
      if (next && i % kHandlesPerLine == 0) prefetch_for_write(next + i);
      to[at[p][(from[i].index >> (p * kIndexSortBits)) & kMask]++] = from[i];
    }
    from = to;
  }
  return {from, n};
}

}  // namespace ecs
