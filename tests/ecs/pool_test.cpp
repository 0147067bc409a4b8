// pool_test.cpp — the pool operations one by one: reserve, add, remove one, release all,
// destroy, and the stats they keep.
#include <gtest/gtest.h>

#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

// Every slot of h in pool C points at an entry whose back-pointer names h, its chunk and
// the slot's local index.
template <class C>
void expect_round_trip(TestWorld& w, Handle h) {
  const auto& rec = *w.find(h);
  const auto& l = w.list<C>(rec);
  for (u32 k = 0; k < l.reserved; ++k) {
    const BackPointer& bp = w.pool<C>().owners[l.slot[k]];
    EXPECT_EQ(bp.owner_index, h.index) << "slot " << k;
    EXPECT_EQ(bp.owner_generation, generation_check(h.generation)) << "slot " << k;
    EXPECT_EQ(w.owner_of(bp), h) << "slot " << k;
    EXPECT_EQ(bp.chunk, rec.header.chunk) << "slot " << k;
    EXPECT_EQ(bp.local, k) << "slot " << k;
    EXPECT_LT(l.slot[k], w.pool<C>().taken());
  }
}

TEST(Pool, ReserveTakesSlotsAtTheEndOfThePool) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle a = w.create(1, Tier::Simulated, 0), b = w.create(2, Tier::Dormant, 0);
  ASSERT_EQ(w.reserve<Piece>(a, 3), Result::Ok);
  ASSERT_EQ(w.reserve<Piece>(b, 2), Result::Ok);
  ASSERT_EQ(w.reserve<Piece>(a, 2), Result::Ok);
  EXPECT_EQ(slots<Piece>(w, a).reserved, 5);
  EXPECT_EQ(slots<Piece>(w, a).added, 0);
  EXPECT_EQ(slots<Piece>(w, a).slot[0], 0u);
  EXPECT_EQ(slots<Piece>(w, a).slot[3], 5u);
  EXPECT_EQ(slots<Piece>(w, b).slot[0], 3u);
  EXPECT_EQ(w.stats<Piece>().taken, 7u);
  EXPECT_EQ(w.stats<Piece>().reserved_unused, 7u);
  EXPECT_EQ(w.reserve<Piece>(a, 0), Result::Ok);
  EXPECT_EQ(w.stats<Piece>().taken, 7u);
  expect_round_trip<Piece>(w, a);
  expect_round_trip<Piece>(w, b);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, ReserveBeyondCapacityFailsWholeWithNoPartialEffect) {
  TestWorld w(make_config(8, 10, 10, 10));
  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(give<Piece>(w, a, 7, 0), Result::Ok);
  ASSERT_EQ(w.reserve<Piece>(b, 1), Result::Ok);
  const PoolStats before = w.stats<Piece>();
  auto list_before = slots<Piece>(w, b);
  std::vector<BackPointer> owners_before(w.pool<Piece>().owners.get(), w.pool<Piece>().owners.get() + 10);

  EXPECT_EQ(w.reserve<Piece>(b, 3), Result::PoolFull);  // 8 taken + 3 > 10
  const PoolStats& after = w.stats<Piece>();
  EXPECT_EQ(after.taken, before.taken);
  EXPECT_EQ(after.high_water, before.high_water);
  EXPECT_EQ(after.reserved_unused, before.reserved_unused);
  EXPECT_EQ(after.owners, before.owners);
  EXPECT_EQ(after.total.reserves, before.total.reserves);
  EXPECT_EQ(after.total.failed_reservations, before.total.failed_reservations + 1);
  EXPECT_EQ(after.tick.failed_reservations, before.tick.failed_reservations + 1);
  EXPECT_EQ(slots<Piece>(w, b).reserved, list_before.reserved);
  EXPECT_EQ(slots<Piece>(w, b).added, list_before.added);
  // Not even the entries past taken (where a partial reserve would write) changed.
  for (u32 s = 0; s < 10; ++s) {
    EXPECT_EQ(w.pool<Piece>().owners[s].owner_index, owners_before[s].owner_index) << s;
    EXPECT_EQ(w.pool<Piece>().owners[s].local, owners_before[s].local) << s;
  }
  // Exactly what is left still fits.
  EXPECT_EQ(w.reserve<Piece>(b, 2), Result::Ok);
  EXPECT_EQ(w.stats<Piece>().taken, 10u);
  EXPECT_EQ(w.reserve<Piece>(a, 1), Result::PoolFull);
  EXPECT_EQ(w.stats<Piece>().total.failed_reservations, 2u);
  // Other pools are unaffected by this pool being full.
  EXPECT_EQ(w.reserve<Volume>(a, 1), Result::Ok);
  EXPECT_EQ(w.stats<Volume>().total.failed_reservations, 0u);
  EXPECT_EQ(violations(w), "");
}

// Reserving across pools: every pool is asked before any reserves, so a refusal by one
// leaves the others untouched, and each pool without room counts its own refusal.
TEST(Pool, ReserveAllIsAllOrNothingAcrossPools) {
  TestWorld w(make_config(8, 100, 4, 100));
  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ((w.reserve_all<Piece, Volume, Sensor>(a, {12, 3, 2})), Result::Ok);
  EXPECT_EQ(slots<Piece>(w, a).reserved, 12);
  EXPECT_EQ(slots<Volume>(w, a).reserved, 3);
  EXPECT_EQ(slots<Sensor>(w, a).reserved, 2);
  const PoolStats pieces = w.stats<Piece>(), sensors = w.stats<Sensor>();
  // The volumes have room for 1 more, not 2: nothing is reserved anywhere.
  EXPECT_EQ((w.reserve_all<Piece, Volume, Sensor>(b, {12, 2, 2})), Result::PoolFull);
  EXPECT_EQ(w.stats<Piece>().taken, pieces.taken);
  EXPECT_EQ(w.stats<Piece>().total.reserves, pieces.total.reserves);
  EXPECT_EQ(w.stats<Piece>().total.removes, 0u);
  EXPECT_EQ(w.stats<Piece>().total.failed_reservations, 0u);
  EXPECT_EQ(w.stats<Sensor>().total.reserves, sensors.total.reserves);
  EXPECT_EQ(w.stats<Volume>().total.failed_reservations, 1u);
  EXPECT_EQ(slots<Piece>(w, b).reserved, 0);
  // Two pools refuse at once: each counts; the first refusal is returned.
  EXPECT_EQ((w.reserve_all<Piece, Volume, Sensor>(b, {33, 2, 2})), Result::EntityMaxReached);
  EXPECT_EQ(w.stats<Piece>().total.failed_reservations, 1u);
  EXPECT_EQ(w.stats<Volume>().total.failed_reservations, 2u);
  EXPECT_EQ(w.stats<Sensor>().total.failed_reservations, 0u);
  // What fits is reserved; a stale handle is refused without counting.
  EXPECT_EQ((w.reserve_all<Piece, Volume>(b, {5, 1})), Result::Ok);
  EXPECT_EQ(w.stats<Volume>().taken, 4u);
  // Nothing asked of a full pool is no refusal.
  EXPECT_EQ((w.reserve_all<Piece, Volume>(b, {1, 0})), Result::Ok);
  EXPECT_EQ(w.stats<Volume>().tick.failed_reservations, 2u);
  ASSERT_EQ(w.destroy(a), Result::Ok);
  EXPECT_EQ((w.reserve_all<Piece, Volume>(a, {1, 1})), Result::StaleHandle);
  EXPECT_EQ(w.stats<Volume>().total.failed_reservations, 2u);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, ReserveBeyondTheEntityMaximumFailsAndCounts) {
  TestWorld w(make_config(8, 1000, 100, 100));
  Handle a = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(w.reserve<Sensor>(a, 3), Result::Ok);
  EXPECT_EQ(w.reserve<Sensor>(a, 2), Result::EntityMaxReached);
  EXPECT_EQ(slots<Sensor>(w, a).reserved, 3);
  EXPECT_EQ(w.stats<Sensor>().taken, 3u);
  EXPECT_EQ(w.stats<Sensor>().total.failed_reservations, 1u);
  EXPECT_EQ(w.reserve<Sensor>(a, 1), Result::Ok);  // exactly the maximum
  EXPECT_EQ(w.reserve<Sensor>(a, 1), Result::EntityMaxReached);
  EXPECT_EQ(w.reserve<Piece>(a, 33), Result::EntityMaxReached);
  EXPECT_EQ(w.reserve<Piece>(a, 32), Result::Ok);
  EXPECT_EQ(w.stats<Sensor>().total.failed_reservations, 2u);
  EXPECT_EQ(w.stats<Piece>().total.failed_reservations, 1u);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, HugeReserveCountCannotWrapAround) {
  TestWorld w(make_config(8, 1000, 100, 100));
  Handle a = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(w.reserve<Piece>(a, 1), Result::Ok);
  EXPECT_EQ(w.reserve<Piece>(a, 0xFFFFFFFFu), Result::EntityMaxReached);
  EXPECT_EQ(w.reserve<Piece>(a, 0xFFFFFFF0u), Result::EntityMaxReached);
  EXPECT_EQ(w.stats<Piece>().taken, 1u);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, AddFillsTheNextReservedSlot) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle a = w.create(0, Tier::Simulated, 0);
  EXPECT_EQ(w.add<Piece>(a, Piece{.tag = 1}), Result::NoReservedSlot);
  ASSERT_EQ(w.reserve<Piece>(a, 3), Result::Ok);
  for (u32 i = 0; i < 3; ++i) {
    ASSERT_EQ(w.add<Piece>(a, Piece{.tag = 10 + i}), Result::Ok);
    EXPECT_EQ(slots<Piece>(w, a).added, i + 1);
    EXPECT_EQ(w.pool<Piece>().items[slots<Piece>(w, a).slot[i]].tag, 10 + i);
    EXPECT_EQ(w.component<Piece>(*w.find(a), i).tag, 10 + i);
    EXPECT_EQ(w.stats<Piece>().reserved_unused, 2 - i);
  }
  EXPECT_EQ(w.add<Piece>(a, Piece{.tag = 99}), Result::NoReservedSlot);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{10, 11, 12}));
  EXPECT_EQ(w.stats<Piece>().total.adds, 3u);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, AddManyIsAllOrNothingAndFillsInPlace) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle a = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(w.reserve<Piece>(a, 5), Result::Ok);
  ASSERT_EQ(w.add<Piece>(a, Piece{.tag = 1}), Result::Ok);
  // Five more do not fit the four reserved slots left: nothing is written or counted.
  u32 calls = 0;
  EXPECT_EQ(w.add_each<Piece>(a, 5, [&](Piece& p, u32 k) { p.tag = 50 + k, ++calls; }), Result::NoReservedSlot);
  EXPECT_EQ(calls, 0u);
  EXPECT_EQ(slots<Piece>(w, a).added, 1);
  // Three are written straight into their pool slots, in order.
  ASSERT_EQ(w.add_each<Piece>(a, 3, [&](Piece& p, u32 k) { p.tag = 20 + k; }), Result::Ok);
  const Piece more[] = {Piece{.tag = 30}};
  ASSERT_EQ(w.add<Piece>(a, std::span<const Piece>(more)), Result::Ok);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{1, 20, 21, 22, 30}));
  EXPECT_EQ(w.stats<Piece>().reserved_unused, 0u);
  EXPECT_EQ(w.stats<Piece>().total.adds, 5u);
  EXPECT_EQ(w.stats<Piece>().histogram[5], 1u);
  EXPECT_EQ(w.add<Piece>(a, std::span<const Piece>(more)), Result::NoReservedSlot);
  ASSERT_EQ(w.destroy(a), Result::Ok);
  EXPECT_EQ(w.add_each<Piece>(a, 0, [](Piece&, u32) {}), Result::StaleHandle);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, RemoveOneFromTheMiddleKeepsOrderAndBackPointers) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle a = w.create(5, Tier::Simulated, 0), b = w.create(6, Tier::Dormant, 0);
  ASSERT_EQ(give<Piece>(w, a, 8, 0), Result::Ok);
  ASSERT_EQ(w.reserve<Piece>(a, 2), Result::Ok);     // two reserved-unused after the added ones
  ASSERT_EQ(give<Piece>(w, b, 4, 100), Result::Ok);  // b owns the pool's tail
  ASSERT_EQ(w.remove_one<Piece>(a, 3), Result::Ok);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{0, 1, 2, 4, 5, 6, 7}));
  EXPECT_EQ(tags<Piece>(w, b), (std::vector<u32>{100, 101, 102, 103}));
  EXPECT_EQ(slots<Piece>(w, a).reserved, 9);
  EXPECT_EQ(slots<Piece>(w, a).added, 7);
  EXPECT_EQ(w.stats<Piece>().taken, 13u);
  EXPECT_EQ(w.stats<Piece>().reserved_unused, 2u);
  EXPECT_EQ(w.stats<Piece>().total.removes, 1u);
  EXPECT_EQ(w.stats<Piece>().total.rewires, 1u);  // b's last piece moved into the hole
  expect_round_trip<Piece>(w, a);
  expect_round_trip<Piece>(w, b);
  // The first and the last added.
  ASSERT_EQ(w.remove_one<Piece>(a, 0), Result::Ok);
  ASSERT_EQ(w.remove_one<Piece>(a, 5), Result::Ok);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{1, 2, 4, 5, 6}));
  // Past the added ones (including the reserved-unused range) is refused.
  EXPECT_EQ(w.remove_one<Piece>(a, 5), Result::BadLocalIndex);
  EXPECT_EQ(w.remove_one<Piece>(a, 6), Result::BadLocalIndex);
  EXPECT_EQ(w.remove_one<Piece>(a, 1000), Result::BadLocalIndex);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{1, 2, 4, 5, 6}));
  expect_round_trip<Piece>(w, a);
  expect_round_trip<Piece>(w, b);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, RemoveOneWhenThePoolsLastEntryIsTheSameEntitys) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle other = w.create(0, Tier::Simulated, 0), a = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(give<Piece>(w, other, 2, 100), Result::Ok);
  ASSERT_EQ(give<Piece>(w, a, 6, 0), Result::Ok);  // a owns the tail: entries 2..7
  // The last entry (a's local 5) moves into the hole at a's local 1; then the shift.
  ASSERT_EQ(w.remove_one<Piece>(a, 1), Result::Ok);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{0, 2, 3, 4, 5}));
  expect_round_trip<Piece>(w, a);
  // Removing the pool's very last entry itself (found through a's slots): no move at all.
  std::vector<u32> expect = tags<Piece>(w, a);
  u32 last_local = 0;
  while (slots<Piece>(w, a).slot[last_local] != w.stats<Piece>().taken - 1) ++last_local;
  u64 rewires = w.stats<Piece>().total.rewires;
  ASSERT_EQ(w.remove_one<Piece>(a, last_local), Result::Ok);
  EXPECT_EQ(w.stats<Piece>().total.rewires, rewires);
  expect.erase(expect.begin() + last_local);
  EXPECT_EQ(tags<Piece>(w, a), expect);
  expect_round_trip<Piece>(w, a);
  // With a reserved-unused tail of its own: those slots shift down too.
  ASSERT_EQ(w.reserve<Piece>(a, 2), Result::Ok);
  ASSERT_EQ(w.add<Piece>(a, Piece{.tag = 50}), Result::Ok);
  ASSERT_EQ(w.remove_one<Piece>(a, 0), Result::Ok);
  expect.push_back(50);
  expect.erase(expect.begin());
  EXPECT_EQ(tags<Piece>(w, a), expect);
  EXPECT_EQ(slots<Piece>(w, a).reserved, 5);
  EXPECT_EQ(slots<Piece>(w, a).added, 4);
  expect_round_trip<Piece>(w, a);
  expect_round_trip<Piece>(w, other);
  EXPECT_EQ(tags<Piece>(w, other), (std::vector<u32>{100, 101}));
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, ReleaseAllGivesBackEveryReservedAndAddedSlot) {
  TestWorld w(make_config(8, 100, 10, 10));
  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(0, Tier::Dormant, 0), c = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(give<Piece>(w, a, 3, 0), Result::Ok);
  ASSERT_EQ(give<Piece>(w, b, 5, 100), Result::Ok);
  ASSERT_EQ(w.reserve<Piece>(b, 2), Result::Ok);
  ASSERT_EQ(give<Piece>(w, c, 4, 200), Result::Ok);
  ASSERT_EQ(w.release_all<Piece>(b), Result::Ok);
  EXPECT_EQ(slots<Piece>(w, b).reserved, 0);
  EXPECT_EQ(slots<Piece>(w, b).added, 0);
  EXPECT_EQ(w.stats<Piece>().taken, 7u);
  EXPECT_EQ(w.stats<Piece>().reserved_unused, 0u);
  EXPECT_EQ(w.stats<Piece>().total.removes, 7u);
  EXPECT_EQ(tags<Piece>(w, a), (std::vector<u32>{0, 1, 2}));
  EXPECT_EQ(tags<Piece>(w, c), (std::vector<u32>{200, 201, 202, 203}));
  expect_round_trip<Piece>(w, a);
  expect_round_trip<Piece>(w, c);
  EXPECT_EQ(w.release_all<Piece>(b), Result::Ok);  // nothing left: fine
  // The entity lives on and can reserve again.
  ASSERT_EQ(give<Piece>(w, b, 2, 300), Result::Ok);
  EXPECT_EQ(tags<Piece>(w, b), (std::vector<u32>{300, 301}));
  // Releasing the pool's tail owner and the whole pool.
  ASSERT_EQ(w.release_all<Piece>(b), Result::Ok);
  ASSERT_EQ(w.release_all<Piece>(a), Result::Ok);
  ASSERT_EQ(w.release_all<Piece>(c), Result::Ok);
  EXPECT_EQ(w.stats<Piece>().taken, 0u);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, DestroyReleasesEveryPoolAtOnce) {
  TestWorld w(make_config(8, 100, 100, 100));
  Handle a = w.create(3, Tier::Simulated, 0), b = w.create(4, Tier::Dormant, 0);
  for (Handle h : {a, b}) {
    ASSERT_EQ(give<Piece>(w, h, 11, h.index * 100), Result::Ok);
    ASSERT_EQ(give<Volume>(w, h, 3, h.index * 100), Result::Ok);
    ASSERT_EQ(w.reserve<Volume>(h, 1), Result::Ok);
    ASSERT_EQ(give<Sensor>(w, h, 2, h.index * 100), Result::Ok);
  }
  ASSERT_EQ(w.destroy(a), Result::Ok);
  EXPECT_FALSE(w.alive(a));
  EXPECT_EQ(w.stats<Piece>().taken, 11u);
  EXPECT_EQ(w.stats<Volume>().taken, 4u);
  EXPECT_EQ(w.stats<Sensor>().taken, 2u);
  EXPECT_EQ(w.stats<Volume>().reserved_unused, 1u);
  EXPECT_EQ(w.stats<Piece>().owners, 1u);
  EXPECT_EQ(tags<Piece>(w, b).size(), 11u);
  expect_round_trip<Piece>(w, b);
  expect_round_trip<Volume>(w, b);
  expect_round_trip<Sensor>(w, b);
  ASSERT_EQ(w.destroy(b), Result::Ok);
  EXPECT_EQ(w.stats<Piece>().taken, 0u);
  EXPECT_EQ(w.stats<Volume>().taken, 0u);
  EXPECT_EQ(w.stats<Sensor>().taken, 0u);
  EXPECT_EQ(w.stats<Volume>().reserved_unused, 0u);
  EXPECT_EQ(w.live_count(), 0u);
  EXPECT_EQ(violations(w), "");
}

TEST(Pool, StatsTrackTakenHighWaterUnusedAndTickCounters) {
  TestWorld w(make_config(8, 100, 100, 100));
  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(0, Tier::Simulated, 0);
  const PoolStats& s = w.stats<Piece>();
  EXPECT_STREQ(s.name, "pieces");
  EXPECT_EQ(s.capacity, 100u);
  EXPECT_EQ(s.max_per_entity, 32u);
  ASSERT_EQ(w.reserve<Piece>(a, 10), Result::Ok);
  ASSERT_EQ(w.reserve<Piece>(b, 5), Result::Ok);
  for (int i = 0; i < 4; ++i) ASSERT_EQ(w.add<Piece>(a, Piece{}), Result::Ok);
  ASSERT_EQ(w.add<Piece>(b, Piece{}), Result::Ok);
  EXPECT_EQ(s.taken, 15u);
  EXPECT_EQ(s.high_water, 15u);
  EXPECT_EQ(s.reserved_unused, 10u);
  EXPECT_EQ(s.owners, 2u);
  EXPECT_EQ(s.histogram[4], 1u);
  EXPECT_EQ(s.histogram[1], 1u);
  EXPECT_EQ(s.tick.reserves, 15u);
  EXPECT_EQ(s.tick.adds, 5u);
  EXPECT_EQ(w.reserve<Piece>(a, 100), Result::EntityMaxReached);
  EXPECT_EQ(s.tick.failed_reservations, 1u);

  w.begin_tick();
  EXPECT_EQ(s.tick.reserves, 0u);
  EXPECT_EQ(s.tick.adds, 0u);
  EXPECT_EQ(s.tick.failed_reservations, 0u);
  EXPECT_EQ(s.total.reserves, 15u);  // totals survive the tick
  EXPECT_EQ(s.total.adds, 5u);

  ASSERT_EQ(w.remove_one<Piece>(a, 0), Result::Ok);  // a's entries are first: b's last moves in
  EXPECT_EQ(s.tick.removes, 1u);
  EXPECT_EQ(s.tick.rewires, 1u);
  EXPECT_EQ(s.histogram[4], 0u);
  EXPECT_EQ(s.histogram[3], 1u);
  ASSERT_EQ(w.release_all<Piece>(a), Result::Ok);
  EXPECT_EQ(s.tick.removes, 10u);
  EXPECT_EQ(s.taken, 5u);
  EXPECT_EQ(s.high_water, 15u);  // the mark stays
  EXPECT_EQ(s.reserved_unused, 4u);
  EXPECT_EQ(s.owners, 1u);
  EXPECT_EQ(s.histogram[3], 0u);
  EXPECT_EQ(s.histogram[1], 1u);
  // Owners with zero added components count in bucket 0.
  Handle c = w.create(0, Tier::Dormant, 0);
  ASSERT_EQ(w.reserve<Piece>(c, 2), Result::Ok);
  EXPECT_EQ(s.histogram[0], 1u);
  EXPECT_EQ(w.all_stats()[0], &s);
  EXPECT_EQ(w.all_stats()[2]->name, std::string("sensors"));
  w.begin_tick();
  EXPECT_EQ(s.tick.removes, 0u);
  EXPECT_EQ(s.tick.rewires, 0u);
  EXPECT_EQ(violations(w), "");
}

}  // namespace
