// slot_list.h — what an entity keeps per pool: the pool indices of its slots, in order,
// and how many are reserved and how many hold an added component.
#pragma once
#include "ecs_types.h"

namespace ecs {

// slot[0 .. added) hold components, slot[added .. reserved) are reserved for later adds.
// The counts come first, so an entity with a few slots reads one cache line.
template <u32 Max>
struct SlotList {
  static_assert(Max >= 1 && Max <= 255, "per-entity maximum must fit in a u8 count");
  u8 reserved;
  u8 added;
  u32 slot[Max];
};

}  // namespace ecs
