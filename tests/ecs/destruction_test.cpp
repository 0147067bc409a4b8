// destruction_test.cpp — deferred destruction during iteration and the batched mass
// release (tail fill, compaction and the automatic choice between them).
#include <gtest/gtest.h>

#include <set>

#include <map>
#include <vector>

#include "test_world.h"

using namespace ecs_test;

namespace {

TEST(Destruction, QueueDuringIterationVisitsEveryoneAndAppliesLater) {
  TestWorld w(make_config(2000, 40000, 4000, 4000));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 1000; ++i) {
    Handle h = w.create(i % 256, Tier::Simulated, 0, Pos{0, 0, i});
    ASSERT_EQ(give<Piece>(w, h, 1 + i % 16, i * 100), Result::Ok);
    ASSERT_EQ(give<Volume>(w, h, 1 + i % 3, i * 100), Result::Ok);
    hs.push_back(h);
  }
  Handle dormant = w.create(0, Tier::Dormant, 0, Pos{0, 0, 5000});
  ASSERT_EQ(give<Piece>(w, dormant, 3, 0), Result::Ok);
  u32 pieces_before = w.stats<Piece>().taken;

  std::vector<bool> seen(1000, false);
  u32 visits = 0, queued = 0;
  w.for_each_simulated([&](TestWorld::Record& r) {
    ++visits;
    u32 id = r.payload.id;
    ASSERT_LT(id, 1000u);
    EXPECT_FALSE(seen[id]) << "visited twice: " << id;
    seen[id] = true;
    // Every record and its components stay readable mid-loop, queued or not.
    EXPECT_EQ(tags<Piece>(w, r.header.handle).size(), 1 + id % 16);
    EXPECT_EQ(tags<Piece>(w, r.header.handle)[0], id * 100);
    if (id % 3 != 1) {                  // kill two thirds, including entities already visited
      if (!w.dying(r.header.handle)) {  // else queued from an earlier visit (below)
        EXPECT_EQ(w.queue_destroy(r.header.handle), Result::Ok);
        ++queued;
      }
      EXPECT_EQ(w.queue_destroy(r.header.handle), Result::AlreadyQueued);
      // Kill one not yet visited too, from inside the loop.
      Handle ahead = hs[(id + 500) % 1000];
      if (!w.dying(ahead) && ((id + 500) % 1000) % 3 != 1) {
        EXPECT_EQ(w.queue_destroy(ahead), Result::Ok);
        ++queued;
      }
    }
  });
  EXPECT_EQ(visits, 1000u);
  for (bool s : seen) EXPECT_TRUE(s);
  EXPECT_EQ(w.pending_destructions().size(), queued);
  // Not applied yet: everyone alive, pools untouched, queued ones flagged.
  EXPECT_EQ(w.live_count(), 1001u);
  EXPECT_EQ(w.stats<Piece>().taken, pieces_before);
  for (u32 i = 0; i < 1000; ++i) {
    EXPECT_TRUE(w.alive(hs[i]));
    EXPECT_EQ(w.dying(hs[i]), i % 3 != 1) << i;
  }
  EXPECT_EQ(violations(w), "");

  u32 expected_pieces = 3;
  for (u32 i = 0; i < 1000; ++i)
    if (i % 3 == 1) expected_pieces += 1 + i % 16;
  EXPECT_EQ(w.apply_destructions(), queued);
  EXPECT_EQ(w.pending_destructions().size(), 0u);
  EXPECT_EQ(w.apply_destructions(), 0u);
  for (u32 i = 0; i < 1000; ++i) {
    EXPECT_EQ(w.alive(hs[i]), i % 3 == 1) << i;
    if (i % 3 == 1) {
      EXPECT_FALSE(w.dying(hs[i]));
      auto t = tags<Piece>(w, hs[i]);
      ASSERT_EQ(t.size(), 1 + i % 16);
      for (u32 k = 0; k < t.size(); ++k) EXPECT_EQ(t[k], i * 100 + k);
    }
  }
  EXPECT_EQ(w.stats<Piece>().taken, expected_pieces);
  EXPECT_EQ(w.live_count(), 1001u - queued);
  EXPECT_EQ(violations(w), "");
}

TEST(Destruction, DestroyingAQueuedEntityTakesItOffTheQueue) {
  TestWorld w(make_config(2, 100, 10, 10));
  Handle a = w.create(0, Tier::Simulated, 0), b = w.create(0, Tier::Simulated, 0);
  ASSERT_EQ(w.queue_destroy(a), Result::Ok);
  ASSERT_EQ(w.queue_destroy(b), Result::Ok);
  ASSERT_EQ(w.destroy(a), Result::Ok);
  EXPECT_EQ(w.pending_destructions().size(), 1u);
  EXPECT_EQ(violations(w), "");
  // The index is reused and queued again many times: the queue never overflows or
  // holds a dead handle.
  for (int i = 0; i < 50; ++i) {
    Handle c = w.create(0, Tier::Dormant, 0);
    ASSERT_FALSE(c.is_null());
    ASSERT_EQ(w.queue_destroy(c), Result::Ok);
    ASSERT_EQ(w.destroy(c), Result::Ok);
    ASSERT_LE(w.pending_destructions().size(), 2u);
  }
  EXPECT_EQ(violations(w), "");
  EXPECT_EQ(w.apply_destructions(), 1u);
  EXPECT_FALSE(w.alive(b));
  EXPECT_EQ(w.live_count(), 0u);
  EXPECT_EQ(violations(w), "");
}

// A world with many owners spread through the pools, and the expected contents after a
// batch dies: the contents of every survivor must come out the same for any strategy.
struct BatchFixture {
  static TestWorld::Config config(u32 swap_release_max) {
    auto c = make_config(600, 20000, 5000, 2000);
    c.swap_release_max = swap_release_max;
    return c;
  }
  TestWorld w;
  std::vector<Handle> all;
  std::map<u32, std::vector<u32>> expect_pieces, expect_volumes;
  explicit BatchFixture(u32 swap_release_max = 256) : w(config(swap_release_max)) {
    for (u32 i = 0; i < 500; ++i) {
      Handle h = w.create(i % 200, i % 2 ? Tier::Dormant : Tier::Simulated, 0, Pos{0, 0, i});
      give<Piece>(w, h, 1 + (i * 7) % 32, i * 100);
      give<Volume>(w, h, (i * 3) % 9, i * 100);
      w.reserve<Piece>(h, i % 2 ? 0u : std::min<u32>(1, 31 - (i * 7) % 32));  // some reserved-unused
      all.push_back(h);
    }
  }
  // Handles of the victims (with duplicates and stale handles mixed in).
  std::vector<Handle> batch_of(u32 every, u32 stale) {
    std::vector<Handle> batch;
    for (u32 i = 0; i < all.size(); i += every) {
      batch.push_back(all[i]);
      if (i % (every * 5) == 0) batch.push_back(all[i]);  // duplicate
    }
    for (u32 i = 0; i < stale; ++i) batch.push_back(Handle{all[i].index, all[i].generation + 77});
    batch.push_back(Handle{});
    return batch;
  }
  // volumes_too: the batch was released from the volume pool as well as the piece pool.
  void expect_survivors(const std::vector<Handle>& batch, bool volumes_too) {
    std::vector<bool> dead(all.size(), false);
    for (Handle h : batch)
      for (u32 i = 0; i < all.size(); ++i)
        if (all[i] == h) dead[i] = true;
    u32 pieces = 0;
    for (u32 i = 0; i < all.size(); ++i) {
      if (dead[i]) {
        EXPECT_EQ(w.list<Piece>(*w.find(all[i])).reserved, 0) << i;
        u32 volumes_left = volumes_too ? 0 : (i * 3) % 9;
        EXPECT_EQ(w.list<Volume>(*w.find(all[i])).reserved, volumes_left) << i;
        continue;
      }
      auto t = tags<Piece>(w, all[i]);
      ASSERT_EQ(t.size(), 1 + (i * 7) % 32) << i;
      for (u32 k = 0; k < t.size(); ++k) ASSERT_EQ(t[k], i * 100 + k) << i;
      auto v = tags<Volume>(w, all[i]);
      ASSERT_EQ(v.size(), (i * 3) % 9) << i;
      for (u32 k = 0; k < v.size(); ++k) ASSERT_EQ(v[k], i * 100 + k) << i;
      pieces += w.list<Piece>(*w.find(all[i])).reserved;
    }
    EXPECT_EQ(w.stats<Piece>().taken, pieces);
    EXPECT_EQ(violations(w), "");
  }
};

class ReleaseBatch : public ::testing::TestWithParam<ReleaseStrategy> {};

TEST_P(ReleaseBatch, ReleasesTheBatchAndKeepsEverySurvivorIntact) {
  for (u32 every : {1u, 2u, 7u, 50u, 499u}) {
    BatchFixture f;
    auto batch = f.batch_of(every, 10);
    u32 dead_pieces = 0;
    std::vector<bool> counted(f.all.size(), false);
    std::set<u32> dead_slots;
    for (Handle h : batch)
      for (u32 i = 0; i < f.all.size(); ++i)
        if (f.all[i] == h && !counted[i]) {
          counted[i] = true;
          const auto& l = f.w.list<Piece>(*f.w.find(h));
          dead_pieces += l.reserved;
          dead_slots.insert(l.slot, l.slot + l.reserved);
        }
    u32 taken = f.w.stats<Piece>().taken;
    // The moves each way makes: a tail fill one per hole below the new end, a compaction
    // one per survivor past the first hole.
    const u32 new_taken = taken - dead_pieces;
    const u64 holes_below =
        u64(std::count_if(dead_slots.begin(), dead_slots.end(), [&](u32 d) { return d < new_taken; }));
    const u64 past_first_hole = dead_slots.empty() ? 0 : u64(taken - *dead_slots.begin()) - dead_pieces;
    f.w.begin_tick();
    f.w.release_batch<Piece>(batch, GetParam());
    f.w.release_batch<Volume>(batch, GetParam());
    EXPECT_EQ(f.w.stats<Piece>().taken, taken - dead_pieces) << "every " << every;
    EXPECT_EQ(f.w.stats<Piece>().tick.removes, dead_pieces);
    if (GetParam() != ReleaseStrategy::Auto) { EXPECT_EQ(f.w.last_release_strategy<Piece>(), GetParam()); }
    // Every survivor moved at most once, and only those the strategy has to move.
    const bool compacted = f.w.last_release_strategy<Piece>() == ReleaseStrategy::Compact;
    EXPECT_EQ(f.w.stats<Piece>().tick.rewires, compacted ? past_first_hole : holes_below) << "every " << every;
    // The entities themselves live on.
    for (Handle h : f.all) EXPECT_TRUE(f.w.alive(h));
    f.expect_survivors(batch, true);
    // Releasing the same batch again changes nothing.
    f.w.release_batch<Piece>(batch, GetParam());
    EXPECT_EQ(f.w.stats<Piece>().taken, taken - dead_pieces);
    f.expect_survivors(batch, true);
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, ReleaseBatch,
                         ::testing::Values(ReleaseStrategy::TailFill, ReleaseStrategy::Compact, ReleaseStrategy::Auto),
                         [](const auto& info) {
                           switch (info.param) {
                             case ReleaseStrategy::TailFill: return std::string("TailFill");
                             case ReleaseStrategy::Compact: return std::string("Compact");
                             default: return std::string("Auto");
                           }
                         });

TEST(ReleaseBatchChoice, AutoTailFillsUnlessFewSurvivePastTheFirstHole) {
  {
    BatchFixture f;
    std::vector<Handle> one{f.all[3]};  // one victim near the front: compaction would walk the pool
    f.w.begin_tick();
    f.w.release_batch<Piece>(one);
    EXPECT_EQ(f.w.last_release_strategy<Piece>(), ReleaseStrategy::TailFill);
    EXPECT_LE(f.w.stats<Piece>().tick.rewires, 32u);  // at most one move per hole
    f.expect_survivors(one, false);
  }
  {
    // Half dies: tail fill (it moves at most one survivor per hole, in address order).
    BatchFixture f;
    auto half = f.batch_of(2, 0);
    f.w.release_batch<Piece>(half);
    EXPECT_EQ(f.w.last_release_strategy<Piece>(), ReleaseStrategy::TailFill);
    f.expect_survivors(half, false);
  }
  {
    // All but every eighth entity dies: the few survivors slide down in one sweep.
    BatchFixture f;
    std::vector<Handle> most;
    for (u32 i = 0; i < f.all.size(); ++i)
      if (i % 8 != 0) most.push_back(f.all[i]);
    f.w.release_batch<Piece>(most);
    EXPECT_EQ(f.w.last_release_strategy<Piece>(), ReleaseStrategy::Compact);
    f.expect_survivors(most, false);
  }
  {
    // Compaction keeps survivors in their pool order (a stable sweep).
    BatchFixture f;
    auto half = f.batch_of(2, 0);
    std::vector<u32> order_before;
    auto& p = f.w.pool<Piece>();
    for (u32 s = 0; s < p.taken(); ++s) {
      u32 owner = p.owners[s].owner_index;
      bool dies = false;
      for (Handle h : half) dies |= h.index == owner;
      if (!dies) order_before.push_back(p.items[s].tag);
    }
    f.w.release_batch<Piece>(half, ReleaseStrategy::Compact);
    std::vector<u32> order_after;
    for (u32 s = 0; s < p.taken(); ++s) order_after.push_back(p.items[s].tag);
    EXPECT_EQ(order_after, order_before);
  }
}

// The queue of 167 victims goes through the batch passes (swap_release_max 0), which
// release every pool's entries: pieces, volumes and sensors.
TEST(Destruction, ApplyReleasesEveryPoolInOneBatch) {
  BatchFixture f(0);
  u32 surviving_sensors = 0, surviving_volumes = 0;
  for (u32 i = 0; i < f.all.size(); ++i) {
    give<Sensor>(f.w, f.all[i], 1 + i % 4, i * 100);
    if (i % 3 != 0) surviving_sensors += 1 + i % 4, surviving_volumes += (i * 3) % 9;
  }
  auto victims = f.batch_of(3, 0);
  u32 queued = 0;
  for (Handle h : victims)
    if (f.w.queue_destroy(h) == Result::Ok) ++queued;
  f.w.begin_tick();
  EXPECT_EQ(f.w.apply_destructions(), queued);
  for (u32 i = 0; i < f.all.size(); ++i) EXPECT_EQ(f.w.alive(f.all[i]), i % 3 != 0);
  EXPECT_EQ(f.w.stats<Sensor>().taken, surviving_sensors);
  EXPECT_EQ(f.w.stats<Volume>().taken, surviving_volumes);  // every third ant holds none
  // The batch passes closed the holes (one entity at a time leaves no strategy).
  EXPECT_NE(f.w.last_release_strategy<Piece>(), ReleaseStrategy::Auto);
  EXPECT_NE(f.w.last_release_strategy<Sensor>(), ReleaseStrategy::Auto);
  EXPECT_EQ(violations(f.w), "");
  // Survivors kept their components.
  for (u32 i = 0; i < f.all.size(); ++i) {
    if (i % 3 == 0) continue;
    auto t = tags<Piece>(f.w, f.all[i]);
    ASSERT_EQ(t.size(), 1 + (i * 7) % 32);
    EXPECT_EQ(t.back(), i * 100 + u32(t.size()) - 1);
  }
}

// destroy_batch kills now, through the batched release or (a batch of at most
// swap_release_max) one entity at a time: duplicates and stale handles are skipped, a
// queued victim leaves the queue, a queued survivor stays on it, survivors keep their
// components in order.
TEST(Destruction, DestroyBatchKillsNowAndSkipsDuplicatesAndStaleHandles) {
  struct Case {
    u32 every, swap_release_max;
  } cases[] = {{1, 16}, {3, 16}, {7, 256}};
  for (Case c : cases) {
    BatchFixture f(c.swap_release_max);
    auto batch = f.batch_of(c.every, 4);
    ASSERT_EQ(f.w.queue_destroy(f.all[0]), Result::Ok);  // a victim in every batch
    ASSERT_EQ(f.w.queue_destroy(f.all[1]), Result::Ok);  // a survivor unless every == 1
    u32 victims = (u32(f.all.size()) + c.every - 1) / c.every, pieces = 0;
    EXPECT_EQ(f.w.destroy_batch(batch), victims) << "every " << c.every;
    EXPECT_EQ(f.w.pending_destructions().size(), c.every == 1 ? 0u : 1u);
    for (u32 i = 0; i < f.all.size(); ++i) {
      ASSERT_EQ(f.w.alive(f.all[i]), i % c.every != 0) << i;
      if (i % c.every == 0) continue;
      auto t = tags<Piece>(f.w, f.all[i]);
      ASSERT_EQ(t.size(), 1 + (i * 7) % 32) << i;
      for (u32 k = 0; k < t.size(); ++k) ASSERT_EQ(t[k], i * 100 + k) << i;
      pieces += f.w.list<Piece>(*f.w.find(f.all[i])).reserved;
    }
    EXPECT_EQ(f.w.stats<Piece>().taken, pieces);
    EXPECT_EQ(f.w.live_count(), u32(f.all.size()) - victims);
    EXPECT_EQ(violations(f.w), "");
    // The survivor still queued dies at the next apply.
    EXPECT_EQ(f.w.apply_destructions(), c.every == 1 ? 0u : 1u);
    EXPECT_EQ(violations(f.w), "");
  }
}

// A batch holding many of the live entities is walked in handle index order (a radix
// sort over two passes of the index for a directory of 5,000): shuffled victims with
// duplicates and stale handles die exactly, and every survivor keeps its components.
TEST(Destruction, ADenseBatchDiesExactlyWhateverItsOrder) {
  auto config = make_config(5000, 60000, 20000, 10);
  config.swap_release_max = 256;
  TestWorld w(config);
  std::vector<Handle> all;
  for (u32 i = 0; i < 4500; ++i) {
    Handle h = w.create(i % 256, i % 5 ? Tier::Simulated : Tier::Dormant, 0);
    ASSERT_EQ(give<Piece>(w, h, 1 + i % 12, i * 100), Result::Ok);
    ASSERT_EQ(give<Volume>(w, h, 1 + i % 3, i * 100), Result::Ok);
    all.push_back(h);
  }
  // Every third entity dies, listed in a scrambled order, some twice, with stale handles.
  std::vector<Handle> batch;
  for (u32 k = 0; k < 1500; ++k) batch.push_back(all[(k * 7919) % 1500 * 3]);
  for (u32 k = 0; k < 100; ++k) batch.push_back(all[k * 3]);
  for (u32 k = 0; k < 50; ++k) batch.push_back(Handle{all[k * 3 + 1].index, all[k * 3 + 1].generation + 1});
  ASSERT_EQ(w.destroy_batch(batch), 1500u);
  u32 pieces = 0;
  for (u32 i = 0; i < all.size(); ++i) {
    ASSERT_EQ(w.alive(all[i]), i % 3 != 0) << i;
    if (i % 3 == 0) continue;
    auto t = tags<Piece>(w, all[i]);
    ASSERT_EQ(t.size(), 1 + i % 12) << i;
    for (u32 k = 0; k < t.size(); ++k) ASSERT_EQ(t[k], i * 100 + k) << i;
    pieces += u32(t.size());
  }
  EXPECT_EQ(w.stats<Piece>().taken, pieces);
  EXPECT_EQ(w.live_count(), 3000u);
  EXPECT_EQ(violations(w), "");
}

// A batch frees the simulated records together: the survivors below the store's new end
// stay where they are, and the holes there are filled, lowest first, by the survivors past
// it in their order; each survivor moves at most once and the emptied blocks go back.
// (Swap-with-last one victim at a time would fill the first hole with the last record.)
// A dormant victim in the same batch leaves its chunk's storage.
TEST(Destruction, ABatchFillsRecordHolesWithTheSurvivorsPastTheNewEndInOrder) {
  TestWorld w(make_config(400, 1000, 1000, 1000));
  std::vector<Handle> all;
  for (u32 i = 0; i < 100; ++i) all.push_back(w.create(i % 7, Tier::Simulated, 0, Pos{0, 0, i}));
  Handle dormant = w.create(3, Tier::Dormant, 0, Pos{0, 0, 1000});
  Handle dormant_survivor = w.create(3, Tier::Dormant, 0, Pos{0, 0, 1001});
  u32 blocks_before = w.store().free_blocks();
  // 15 simulated victims: places 0..9 and the last five, 95..99. The new end is 85: the
  // ten holes below it take 85..94 in order (one at a time, they would take 85..89 and
  // then 94 down to 90).
  std::vector<Handle> batch{dormant};
  for (u32 i = 0; i < 10; ++i) batch.push_back(all[i]);
  for (u32 i = 95; i < 100; ++i) batch.push_back(all[i]);
  ASSERT_EQ(w.destroy_batch(batch), 16u);
  std::vector<u32> order;
  w.for_each_simulated([&](TestWorld::Record& r) { order.push_back(r.payload.id); });
  std::vector<u32> expected;
  for (u32 i = 0; i < 85; ++i) expected.push_back(i < 10 ? 85 + i : i);
  EXPECT_EQ(order, expected);
  // 100 records took 4 blocks of 32, 85 take 3; the dormant chunk keeps its one block.
  EXPECT_EQ(w.store().free_blocks(), blocks_before + 1);
  EXPECT_EQ(w.store().dormant(3).count, 1u);
  EXPECT_EQ(w.lookup(dormant_survivor, 3)->payload.id, 1001u);
  EXPECT_EQ(violations(w), "");
}

// The batched free at its edges: a batch of only the store's last records moves nothing,
// and a batch of every simulated entity empties the store and gives every block back;
// the store then fills again from its first block.
TEST(Destruction, ABatchOfTheTailOrOfEveryoneLeavesTheStoreConsistent) {
  TestWorld w(make_config(400, 1000, 1000, 1000));
  u32 blocks_free = w.store().free_blocks();
  std::vector<Handle> all;
  for (u32 i = 0; i < 70; ++i) all.push_back(w.create(i % 5, Tier::Simulated, 0, Pos{0, 0, i}));
  std::vector<Handle> tail(all.begin() + 40, all.end());
  ASSERT_EQ(w.destroy_batch(tail), 30u);
  std::vector<u32> order;
  w.for_each_simulated([&](TestWorld::Record& r) { order.push_back(r.payload.id); });
  ASSERT_EQ(order.size(), 40u);
  for (u32 i = 0; i < 40; ++i) EXPECT_EQ(order[i], i);
  EXPECT_EQ(w.store().free_blocks(), blocks_free - 2);
  EXPECT_EQ(violations(w), "");

  std::vector<Handle> rest(all.begin(), all.begin() + 40);
  ASSERT_EQ(w.destroy_batch(rest), 40u);
  EXPECT_EQ(w.simulated_count(), 0u);
  EXPECT_EQ(w.store().free_blocks(), blocks_free);
  EXPECT_EQ(violations(w), "");
  Handle again = w.create(2, Tier::Simulated, 0, Pos{0, 0, 7});
  ASSERT_NE(w.lookup(again, 2), nullptr);
  EXPECT_EQ(w.lookup(again, 2)->payload.id, 7u);
  EXPECT_EQ(violations(w), "");
}

}  // namespace

namespace {

// What the iteration contract in world.h allows inside for_each_simulated: pool changes,
// simulated chunk moves and creation all leave the walk intact.
TEST(Iteration, PoolChangesChunkMovesAndCreationDuringTheWalkAreSafe) {
  TestWorld w(make_config(3000, 60000, 1000, 1000));
  std::vector<Handle> hs;
  for (u32 i = 0; i < 1000; ++i) {
    Handle h = w.create(i % 256, Tier::Simulated, 0, Pos{0, 0, i});
    ASSERT_EQ(give<Piece>(w, h, 1 + i % 8, i * 100), Result::Ok);
    hs.push_back(h);
  }
  std::vector<u32> visits(1000, 0);
  u32 created = 0;
  w.for_each_simulated([&](TestWorld::Record& r) {
    u32 id = r.payload.id;
    ASSERT_LT(id, 1000u) << "an entity created during the walk was visited";
    ++visits[id];
    Handle h = r.header.handle;
    EXPECT_EQ(w.move_chunk(h, (id * 13) % 256), Result::Ok);
    EXPECT_EQ(give<Piece>(w, h, 2, 90000 + id), Result::Ok);
    if (id % 2) { EXPECT_EQ(w.remove_one<Piece>(h, 0), Result::Ok); }
    if (id % 5 == 0) { EXPECT_EQ(w.release_all<Piece>(h), Result::Ok); }
    if (id % 4 == 0 && !w.create(0, Tier::Simulated, 0, Pos{0, 0, 5000 + id}).is_null()) ++created;
  });
  for (u32 i = 0; i < 1000; ++i) EXPECT_EQ(visits[i], 1u) << i;
  EXPECT_EQ(created, 250u);
  EXPECT_EQ(w.simulated_count(), 1250u);
  for (u32 i = 0; i < 1000; ++i) {
    ASSERT_NE(w.lookup(hs[i], (i * 13) % 256), nullptr) << i;
    auto t = tags<Piece>(w, hs[i]);
    if (i % 5 == 0) {
      EXPECT_TRUE(t.empty()) << i;
      continue;
    }
    ASSERT_EQ(t.size(), 1 + i % 8 + 2 - i % 2) << i;
    EXPECT_EQ(t.back(), 90001 + i) << i;
  }
  EXPECT_EQ(violations(w), "");
}

}  // namespace

namespace {

// Systems walking records skip the dead by the record header's flag; it must follow the
// directory's through queue_destroy and a destroy that takes the entity off the queue.
TEST(Destruction, DyingFlagIsMirroredInTheRecordHeader) {
  TestWorld w(make_config(100, 1000, 100, 100));
  Handle a = w.create(0, Tier::Simulated, 0, Pos{0, 0, 1});
  Handle b = w.create(1, Tier::Dormant, 0, Pos{0, 0, 2});
  EXPECT_FALSE(w.find(a)->header.flags & ecs::kFlagDying);
  ASSERT_EQ(w.queue_destroy(a), Result::Ok);
  ASSERT_EQ(w.queue_destroy(b), Result::Ok);
  EXPECT_TRUE(w.find(a)->header.flags & ecs::kFlagDying);
  EXPECT_TRUE(w.find(b)->header.flags & ecs::kFlagDying);
  EXPECT_TRUE(w.validate().empty());
  // The dormant record moves between chunk storages; the flag travels with it.
  ASSERT_EQ(w.move_chunk(b, 2), Result::Ok);
  EXPECT_TRUE(w.find(b)->header.flags & ecs::kFlagDying);
  ASSERT_EQ(w.destroy(a), Result::Ok);
  EXPECT_TRUE(w.validate().empty());
  EXPECT_EQ(w.apply_destructions(), 1u);
  EXPECT_FALSE(w.alive(b));
}

}  // namespace

namespace {

// Builds the same 60 entities in w; returns their handles.
std::vector<Handle> populate(TestWorld& w) {
  std::vector<Handle> hs;
  for (u32 i = 0; i < 60; ++i) {
    Handle h = w.create(i % 8, Tier::Simulated, 0, Pos{0, 0, i});
    EXPECT_EQ(give<Piece>(w, h, 1 + i % 12, i * 100), Result::Ok);
    hs.push_back(h);
  }
  return hs;
}

std::vector<u32> piece_tags_in_pool_order(TestWorld& w) {
  std::vector<u32> out;
  for (u32 s = 0; s < w.stats<Piece>().taken; ++s) out.push_back(w.pool<Piece>().items[s].tag);
  return out;
}

// A batch no larger than swap_release_max is released exactly as destroy() would, one
// victim at a time; a larger threshold of 0 sends the same batch through the batched path.
TEST(Destruction, SmallBatchesReleaseOneAtATime) {
  auto config = make_config(100, 1000, 100, 100);
  config.swap_release_max = 16;
  TestWorld queued(config), direct(config), batched(make_config(100, 1000, 100, 100));
  std::vector<Handle> a = populate(queued), b = populate(direct), c = populate(batched);
  const u32 victims[] = {3, 17, 40, 8, 55, 21, 30, 0, 12, 44};
  for (u32 v : victims) {
    ASSERT_EQ(queued.queue_destroy(a[v]), Result::Ok);
    ASSERT_EQ(batched.queue_destroy(c[v]), Result::Ok);
    ASSERT_EQ(direct.destroy(b[v]), Result::Ok);
  }
  EXPECT_EQ(queued.apply_destructions(), 10u);
  EXPECT_EQ(batched.apply_destructions(), 10u);
  EXPECT_EQ(piece_tags_in_pool_order(queued), piece_tags_in_pool_order(direct));
  EXPECT_NE(piece_tags_in_pool_order(batched), piece_tags_in_pool_order(direct));
  EXPECT_EQ(queued.stats<Piece>().taken, batched.stats<Piece>().taken);
  EXPECT_TRUE(queued.validate().empty());
  for (u32 v : victims) EXPECT_FALSE(queued.alive(a[v]));
}

// The release footprint is the live entities' directory rows with their slot lists and
// every taken pool entry with its back-pointer. A world whose footprint is at most
// small_world_bytes releases a batch of any size one victim at a time, as destroy() would,
// and times nothing; a byte less and the same batch takes the batched passes.
TEST(Destruction, ASmallWorldReleasesOneAtATime) {
  auto config = make_config(100, 1000, 100, 100);
  TestWorld probe(config), direct(config);
  populate(probe);
  const u32 pieces = probe.stats<Piece>().taken;
  ASSERT_GT(pieces, 0u);
  const u64 footprint = probe.release_footprint();
  EXPECT_EQ(footprint, 60u * probe.store().dir_stride() + u64(pieces) * (sizeof(Piece) + sizeof(BackPointer)));

  config.small_world_bytes = footprint;
  TestWorld small(config);
  config.small_world_bytes = footprint - 1;
  TestWorld large(config);
  std::vector<Handle> a = populate(small), b = populate(direct), c = populate(large);
  const u32 victims[] = {3, 17, 40, 8, 55, 21, 30, 0, 12, 44, 59, 33};
  std::vector<Handle> batch_a, batch_c;
  for (u32 v : victims) {
    batch_a.push_back(a[v]);
    batch_c.push_back(c[v]);
    ASSERT_EQ(direct.destroy(b[v]), Result::Ok);
  }
  ASSERT_EQ(small.release_footprint(), footprint);
  EXPECT_TRUE(small.is_small_world());
  EXPECT_FALSE(large.is_small_world());
  EXPECT_EQ(small.destroy_batch(batch_a), 12u);
  EXPECT_EQ(large.destroy_batch(batch_c), 12u);
  EXPECT_EQ(piece_tags_in_pool_order(small), piece_tags_in_pool_order(direct));
  EXPECT_NE(piece_tags_in_pool_order(large), piece_tags_in_pool_order(direct));
  EXPECT_EQ(small.release_totals().batches, 0u);
  EXPECT_EQ(large.release_totals().batches, 1u);
  EXPECT_EQ(small.stats<Piece>().taken, large.stats<Piece>().taken);
  EXPECT_TRUE(small.validate().empty());
  EXPECT_TRUE(large.validate().empty());
}

// The batched release times its passes: each timed batch is noted as the last one and
// added to the totals, with the victims it freed; a batch small enough to go one entity
// at a time is not timed, and leaves both as they were.
TEST(Destruction, ABatchedReleaseTimesItsPassesAndASmallOneDoesNot) {
  auto config = make_config(100, 1000, 100, 100);
  config.swap_release_max = 4;
  TestWorld w(config);
  std::vector<Handle> h = populate(w);
  EXPECT_EQ(w.release_totals().batches, 0u);

  std::vector<Handle> batch(h.begin(), h.begin() + 10);
  batch.push_back(h[0]);  // a duplicate is not a victim twice
  ASSERT_EQ(w.destroy_batch(batch), 10u);
  const TestWorld::ReleaseTimes& last = w.last_release();
  EXPECT_EQ(last.batches, 1u);
  EXPECT_EQ(last.victims, 10u);
  EXPECT_GE(last.sort_ms, 0.0);
  EXPECT_GE(last.mark_ms, 0.0);
  for (double ms : last.close_ms) EXPECT_GE(ms, 0.0);
  EXPECT_DOUBLE_EQ(last.total_ms(),
                   last.sort_ms + last.mark_ms + last.close_ms[0] + last.close_ms[1] + last.close_ms[2]);
  EXPECT_GT(last.total_ms(), 0.0);

  for (u32 i = 10; i < 30; ++i) ASSERT_EQ(w.queue_destroy(h[i]), Result::Ok);
  ASSERT_EQ(w.apply_destructions(), 20u);
  EXPECT_EQ(w.last_release().victims, 20u);
  EXPECT_EQ(w.release_totals().batches, 2u);
  EXPECT_EQ(w.release_totals().victims, 30u);

  // Four victims go one at a time: nothing is timed.
  const double total_ms = w.release_totals().total_ms();
  ASSERT_EQ(w.destroy_batch(std::span<const Handle>(h.data() + 30, 4)), 4u);
  EXPECT_EQ(w.release_totals().batches, 2u);
  EXPECT_EQ(w.release_totals().victims, 30u);
  EXPECT_EQ(w.release_totals().total_ms(), total_ms);
  EXPECT_EQ(w.last_release().victims, 20u);
  EXPECT_TRUE(w.validate().empty());
}

}  // namespace
