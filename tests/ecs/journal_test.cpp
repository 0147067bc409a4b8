// journal_test.cpp — the release journal's own promises: off, it records nothing; on, a
// release names its victims, its path, the holes and moves per pool in order, and the
// caller's tick and cause; a release larger than the step ring keeps its first steps and
// counts the rest as dropped; releases the rings have moved past are gone. (That the
// steps are true, replayed against the pools, is the differential test's.)
#include <gtest/gtest.h>

#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

// 100 entities of 4 pieces each: piece entries 0..399, entity k owning 4k..4k+3.
struct Fixture {
  TestWorld w;
  std::vector<Handle> hs;
  explicit Fixture(u32 steps = 4096, u32 releases = 8) : w(config(steps, releases)) {
    for (u32 i = 0; i < 100; ++i) {
      Handle h = w.create(0, Tier::Simulated, 1, Pos{1, 1, i});
      EXPECT_EQ(give<Piece>(w, h, 4, 4 * i), Result::Ok);
      hs.push_back(h);
    }
  }
  static TestWorld::Config config(u32 steps, u32 releases) {
    TestWorld::Config c = make_config(200, 1000, 100, 100);
    c.swap_release_max = 4;
    c.journal_steps = steps;
    c.journal_victims = 64;
    c.journal_releases = releases;
    return c;
  }
};

TEST(Journal, OffRecordsNothing) {
  Fixture f;
  EXPECT_FALSE(f.w.journal_on());
  f.w.destroy(f.hs[3]);
  EXPECT_EQ(f.w.journal().release_count(), 0u);
  // A world made without rings cannot turn it on.
  TestWorld bare(make_config(10, 10, 10, 10));
  EXPECT_FALSE(bare.set_journal(true));
}

TEST(Journal, OneAtATimeRecordsHoleThenSwapWithLast) {
  Fixture f;
  ASSERT_TRUE(f.w.set_journal(true));
  f.w.journal_context(42, 7);
  ASSERT_EQ(f.w.destroy(f.hs[0]), Result::Ok);
  const auto* r = f.w.journal().latest();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->tick, 42u);
  EXPECT_EQ(r->cause, 7u);
  EXPECT_EQ(r->path, ReleasePath::OneAtATime);
  ASSERT_EQ(r->victims_recorded, 1u);
  EXPECT_EQ(f.w.journal().victim(*r, 0), f.hs[0]);
  const JournalPool& p = r->pools[TestWorld::pool_index<Piece>()];
  EXPECT_EQ(p.taken_before, 400u);
  EXPECT_EQ(p.taken_after, 396u);
  EXPECT_EQ(p.holes, 4u);
  EXPECT_EQ(p.moves, 4u);
  ASSERT_EQ(r->steps_recorded, 8u);
  // From the back of the victim's list: entry 3 freed, the last entry (399, entity 99's
  // fourth piece) moves into it; then entry 2 and 398, ...
  const JournalStep& hole = f.w.journal().step(*r, 0);
  EXPECT_EQ(hole.kind, StepKind::Hole);
  EXPECT_EQ(hole.from, 3u);
  EXPECT_EQ(hole.owner, f.hs[0]);
  EXPECT_EQ(hole.local, 3u);
  const JournalStep& move = f.w.journal().step(*r, 1);
  EXPECT_EQ(move.kind, StepKind::Move);
  EXPECT_EQ(move.from, 399u);
  EXPECT_EQ(move.to, 3u);
  EXPECT_EQ(move.owner, f.hs[99]);
  EXPECT_EQ(move.local, 3u);
  EXPECT_EQ(slots<Piece>(f.w, f.hs[99]).slot[3], 3u);  // the rewired slot-list entry
  EXPECT_EQ(r->pools[TestWorld::pool_index<Volume>()].path, ReleasePath::None);
}

TEST(Journal, BatchRecordsHolesFirstThenTheTailFill) {
  Fixture f;
  ASSERT_TRUE(f.w.set_journal(true));
  std::vector<Handle> batch;
  for (u32 i = 0; i < 100; i += 10) batch.push_back(f.hs[i]);  // 10 victims: past swap_release_max
  ASSERT_EQ(f.w.destroy_batch(batch), 10u);
  const auto* r = f.w.journal().latest();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->path, ReleasePath::TailFill);
  EXPECT_EQ(r->victims, 10u);
  const JournalPool& p = r->pools[TestWorld::pool_index<Piece>()];
  EXPECT_EQ(p.path, ReleasePath::TailFill);
  EXPECT_EQ(p.holes, 40u);
  EXPECT_EQ(p.first_hole, 0u);
  EXPECT_EQ(p.taken_after, 360u);
  for (u64 k = 0; k < r->steps_recorded; ++k)
    EXPECT_EQ(f.w.journal().step(*r, k).kind, k < 40 ? StepKind::Hole : StepKind::Move) << k;
  // Every move lands below the new end and comes from above it.
  for (u64 k = 40; k < r->steps_recorded; ++k) {
    EXPECT_LT(f.w.journal().step(*r, k).to, 360u);
    EXPECT_GE(f.w.journal().step(*r, k).from, 360u);
  }
  EXPECT_GE(r->cpu_ms, 0.0);
}

TEST(Journal, ARingTooSmallKeepsTheFirstStepsAndCountsTheRest) {
  Fixture f(/*steps=*/16);
  ASSERT_TRUE(f.w.set_journal(true));
  std::vector<Handle> batch(f.hs.begin(), f.hs.begin() + 50);
  ASSERT_EQ(f.w.destroy_batch(batch), 50u);
  const auto* r = f.w.journal().latest();
  ASSERT_NE(r, nullptr);
  const JournalPool& p = r->pools[TestWorld::pool_index<Piece>()];
  EXPECT_EQ(r->steps_recorded, 16u);
  EXPECT_EQ(p.holes, 200u);
  EXPECT_EQ(p.moves, 200u);  // the survivors past the first hole, all 200, moved (compaction)
  EXPECT_EQ(p.dropped, u64(p.holes + p.moves - 16));
  EXPECT_EQ(r->victims, 50u);
  EXPECT_EQ(r->victims_recorded, 50u);
}

TEST(Journal, OldReleasesAreGoneOnceTheRingWraps) {
  Fixture f(4096, /*releases=*/4);
  ASSERT_TRUE(f.w.set_journal(true));
  for (u32 i = 0; i < 6; ++i) f.w.destroy(f.hs[i]);
  EXPECT_EQ(f.w.journal().release_count(), 6u);
  EXPECT_EQ(f.w.journal().release(0), nullptr);
  EXPECT_EQ(f.w.journal().release(1), nullptr);
  ASSERT_NE(f.w.journal().release(2), nullptr);
  EXPECT_EQ(f.w.journal().release(2)->serial, 2u);
  EXPECT_EQ(f.w.journal().release(6), nullptr);
}

TEST(Journal, RemoveOneRecordsTheRenumberedSlots) {
  Fixture f;
  ASSERT_TRUE(f.w.set_journal(true));
  ASSERT_EQ(f.w.remove_one<Piece>(f.hs[5], 1), Result::Ok);
  const auto* r = f.w.journal().latest();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->path, ReleasePath::RemoveOne);
  // hole 21, last (399) moves into it, then the owner's slots 2 and 3 become 1 and 2.
  ASSERT_EQ(r->steps_recorded, 4u);
  EXPECT_EQ(f.w.journal().step(*r, 0).from, 21u);
  EXPECT_EQ(f.w.journal().step(*r, 1).from, 399u);
  EXPECT_EQ(f.w.journal().step(*r, 2).kind, StepKind::Renumber);
  EXPECT_EQ(f.w.journal().step(*r, 2).from, 22u);
  EXPECT_EQ(f.w.journal().step(*r, 2).local, 1u);
  EXPECT_EQ(f.w.journal().step(*r, 3).from, 23u);
  EXPECT_EQ(f.w.journal().step(*r, 3).local, 2u);
}

}  // namespace
