// lookahead.h — a cursor that runs a fixed distance ahead of the loop that consumes what
// it finds. The batched release's fills find their holes and survivors with it and
// prefetch each one when it is found, so that its lines have arrived when the loop gets
// there, and each position is found once.
#pragma once
#include <array>
#include <cstddef>

#include "ecs_types.h"

namespace ecs {

// Hands out the positions find(u32&) yields, in its order, kAhead finds after finding
// them. find returns false when there are no more, and keeps returning false if called
// again; it is where the caller prefetches what the position's turn will touch. The ring
// holds the positions found and not yet handed out. It is the caller's array, not a
// member, so that the compiler keeps the counts in registers (with the ring inside, it
// spills them and the render close runs about 3 % more instructions).
template <std::size_t kAhead, class Find>
class Lookahead {
  static_assert(kAhead > 0 && (kAhead & (kAhead - 1)) == 0, "the ring's size is a power of two");

 public:
  using Ring = std::array<u32, kAhead>;
  Lookahead(Ring& ring, Find find) : find_(find), ring_(ring) {
    for (u32 k = 0; k < kAhead; ++k) step();
  }
  bool next(u32& pos) {
    if (given_ == found_) return false;
    // The place this position leaves takes the one found next, kAhead positions later.
    pos = ring_[given_++ % kAhead];
    step();
    return true;
  }

 private:
  void step() {
    if (u32 pos; find_(pos)) ring_[found_++ % kAhead] = pos;
  }

  Find find_;
  Ring& ring_;
  u32 found_ = 0, given_ = 0;
};

template <std::size_t kAhead, class Find>
Lookahead<kAhead, Find> lookahead(std::array<u32, kAhead>& ring, Find find) {
  return Lookahead<kAhead, Find>(ring, find);
}

}  // namespace ecs
