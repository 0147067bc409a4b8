// journal.h — the release journal: what each release did to each pool, step by step.
//
// A release is one call that gives pool entries back: a batch of deaths (one entity at a
// time by swap-with-last, or the batch passes closing their holes by tail fill or
// compaction), one entity's destroy(), release_all, release_batch or a single remove_one.
// With the journal on, the world writes for each release its victims and, per pool and in
// the order it made them, every step: a hole opened (the entry and the victim owning it),
// a move (source entry, destination entry, the owner and the slot-list entry rewired) and,
// for remove_one, the owner's later slots renumbered. Applying the steps to the pool's
// before-state gives its after-state exactly (tests/ecs/differential_test.cpp).
//
// All memory is taken when the world is made: rings of steps, victims and release records
// of fixed sizes (World::Config). A release larger than the step ring keeps its first
// steps and counts the rest as dropped; older releases are overwritten as the rings wrap.
// Off, the world does not call the journal at all: each release asks once which version
// of its passes to run (a template bool), never once per move.
#pragma once
#include <array>
#include <cstddef>

#include "buffer.h"
#include "ecs_types.h"
#include "stopwatch.h"

namespace ecs {

// Which way a release went in one pool (or, for a release as a whole, the batch's path).
enum class ReleasePath : u8 {
  None,        // nothing released in this pool
  OneAtATime,  // swap-with-last per victim slot (destroy, small batches, small worlds)
  TailFill,    // batch passes: the tail's survivors fill the holes
  Compact,     // batch passes: the survivors past the first hole slide down in order
  RemoveOne,   // one component taken out, the owner's later slots renumbered
  Mixed,       // a batch whose pools went different ways (tail fill in one, compaction in another)
};
inline const char* release_path_name(ReleasePath p) {
  switch (p) {
    case ReleasePath::None: return "none";
    case ReleasePath::OneAtATime: return "one at a time";
    case ReleasePath::TailFill: return "tail fill";
    case ReleasePath::Compact: return "compaction";
    case ReleasePath::RemoveOne: return "remove one";
    case ReleasePath::Mixed: return "tail fill + compaction";
  }
  return "?";
}

enum class StepKind : u8 {
  Hole,      // entry `from` is given back; owner/local: the victim it belonged to
  Move,      // entry `from` moves to `to`; owner's slot list entry `local` now names `to`
  Renumber,  // entry `from` is now its owner's slot `local` (remove_one shifts the later slots)
};

// One step of a release in one pool.
struct JournalStep {
  u32 from = kNone;
  u32 to = kNone;
  Handle owner;
  u8 local = 0;
  u8 pool = 0;
  StepKind kind = StepKind::Hole;
};

// One pool's part of a release.
struct JournalPool {
  ReleasePath path = ReleasePath::None;
  u32 taken_before = 0, taken_after = 0;
  u32 holes = 0, moves = 0;  // as made (recorded or not)
  u32 first_hole = kNone;    // lowest entry freed
  u64 dropped = 0;           // steps that did not fit in the ring
};

// One release.
template <size_t kPools>
struct JournalRelease {
  u64 serial = 0;  // how many releases the world journaled ahead of this one
  u64 tick = 0;    // the caller's context when the release began (World::journal_context)
  u32 cause = 0;
  ReleasePath path = ReleasePath::None;
  u32 victims = 0;       // entities whose slots were released (recorded or not)
  u64 first_victim = 0;  // position in the victim ring
  u32 victims_recorded = 0;
  u64 first_step = 0;       // position in the step ring
  u64 steps_recorded = 0;   // the release's steps, all pools, in order, from first_step
  u64 footprint_bytes = 0;  // World::release_footprint() as the release began
  double cpu_ms = 0;        // the release's time by the thread's CPU clock (stopwatch.h)
  std::array<JournalPool, kPools> pools{};
  u64 dropped() const {
    u64 d = 0;
    for (const JournalPool& p : pools) d += p.dropped;
    return d;
  }
};

template <size_t kPools>
class Journal {
 public:
  using Release = JournalRelease<kPools>;
  // Ring sizes: 0 steps makes a journal that can never be turned on.
  Journal(u32 step_capacity, u32 victim_capacity, u32 release_capacity)
      : steps_(make_buffer<JournalStep>(step_capacity)),
        victims_(make_buffer<Handle>(victim_capacity)),
        releases_(make_buffer<Release>(release_capacity)),
        step_cap_(step_capacity),
        victim_cap_(victim_capacity),
        release_cap_(release_capacity) {}

  bool on() const { return on_; }
  // True when the journal is on now (it stays off without rings).
  bool set_on(bool on) { return on_ = on && step_cap_ > 0 && release_cap_ > 0; }
  // The tick and cause stamped on the releases that begin from now on (the caller's codes).
  void set_context(u64 tick, u32 cause) { tick_ = tick, cause_ = cause; }
  u64 context_tick() const { return tick_; }
  u32 context_cause() const { return cause_; }

  // [SECTION] Reading
  u64 release_count() const { return release_count_; }  // releases journaled since the world was made
  u32 release_capacity() const { return release_cap_; }
  u32 step_capacity() const { return step_cap_; }
  // The release with this serial, or null when it was never journaled or the ring has
  // moved past it.
  const Release* release(u64 serial) const {
    if (serial >= release_count_ || release_count_ - serial > release_cap_) return nullptr;
    return &releases_[serial % release_cap_];
  }
  const Release* latest() const { return release_count_ ? release(release_count_ - 1) : nullptr; }
  // Whether a release's steps and victims are still in the rings (not overwritten since).
  bool steps_kept(const Release& r) const { return r.first_step + step_cap_ >= steps_written_; }
  bool victims_kept(const Release& r) const { return r.first_victim + victim_cap_ >= victims_written_; }
  const JournalStep& step(const Release& r, u64 k) const { return steps_[(r.first_step + k) % step_cap_]; }
  Handle victim(const Release& r, u32 k) const { return victims_[(r.first_victim + k) % victim_cap_]; }

  // [SECTION] Writing (the world's release calls these while the journal is on)
  Release& begin(ReleasePath path, u64 footprint) {
    Release& r = releases_[release_count_ % release_cap_];
    r = Release{};
    r.serial = release_count_++;
    r.tick = tick_;
    r.cause = cause_;
    r.path = path;
    r.first_victim = victims_written_;
    r.first_step = steps_written_;
    r.footprint_bytes = footprint;
    current_ = &r;
    started_ms_ = thread_cpu_ms();
    return r;
  }
  void victim(Handle h) {
    ++current_->victims;
    if (victim_cap_ == 0 || current_->victims_recorded >= victim_cap_) return;
    victims_[victims_written_++ % victim_cap_] = h;
    ++current_->victims_recorded;
  }
  void begin_pool(size_t pool, ReleasePath path, u32 taken) {
    JournalPool& p = current_->pools[pool];
    if (p.path == ReleasePath::None) p.taken_before = taken;
    p.path = path;
  }
  void end_pool(size_t pool, u32 taken) { current_->pools[pool].taken_after = taken; }
  void hole(size_t pool, u32 entry, Handle owner, u32 local) {
    JournalPool& p = current_->pools[pool];
    ++p.holes;
    if (entry < p.first_hole) p.first_hole = entry;
    put(p, {entry, kNone, owner, u8(local), u8(pool), StepKind::Hole});
  }
  void move(size_t pool, u32 from, u32 to, Handle owner, u32 local) {
    JournalPool& p = current_->pools[pool];
    ++p.moves;
    put(p, {from, to, owner, u8(local), u8(pool), StepKind::Move});
  }
  void renumber(size_t pool, u32 entry, Handle owner, u32 local) {
    put(current_->pools[pool], {entry, kNone, owner, u8(local), u8(pool), StepKind::Renumber});
  }
  // Ends the release: its time, and its path as a whole.
  void end() {
    Release& r = *current_;
    r.cpu_ms = thread_cpu_ms() - started_ms_;
    if (r.path == ReleasePath::TailFill || r.path == ReleasePath::Compact) {
      bool tail = false, compact = false;
      for (const JournalPool& p : r.pools)
        tail |= p.path == ReleasePath::TailFill, compact |= p.path == ReleasePath::Compact;
      r.path = tail && compact ? ReleasePath::Mixed : compact ? ReleasePath::Compact : ReleasePath::TailFill;
    }
    current_ = nullptr;
  }

 private:
  void put(JournalPool& p, const JournalStep& s) {
    if (current_->steps_recorded >= step_cap_) {
      ++p.dropped;
      return;
    }
    steps_[steps_written_++ % step_cap_] = s;
    ++current_->steps_recorded;
  }

  Buffer<JournalStep> steps_;
  Buffer<Handle> victims_;
  Buffer<Release> releases_;
  u32 step_cap_ = 0, victim_cap_ = 0, release_cap_ = 0;
  bool on_ = false;
  u64 tick_ = 0;
  u32 cause_ = 0;
  u64 release_count_ = 0, steps_written_ = 0, victims_written_ = 0;
  Release* current_ = nullptr;
  double started_ms_ = 0;
};

}  // namespace ecs
