// differential_test.cpp — a long random run of every world operation against a plain
// reference model (std containers, no cleverness). After every operation the results must
// agree; after every release the contents of the entities it touched (its victims and
// every entity whose entries it may have moved) must agree; every thousand operations the
// full observable contents (each live entity's tier, chunk, payload and components in
// order, per pool) must agree; every 2,048 the validator must find nothing. The build
// poisons freed pool entries (ECS_POISON_FREED_ENTRIES), so a slot list left naming one
// reads garbage rather than the value it held.
//
// The release journal is on throughout: after every batched release, and every 16th other
// release, the journaled steps applied to a copy of the pools' before-state must give the
// pools' after-state exactly (entries, back-pointers), each step naming the owner and slot
// the copy holds where it reads.
//
//   COLONY_DIFF_SEED=<n>  run another seed (the default is fixed)
//   COLONY_DIFF_OPS=<n>   run another number of operations (default 1,000,000; a build
//                         may lower the default with -DCOLONY_DIFF_DEFAULT_OPS=<n>)
//
// Table of contents
//   [SECTION] Random numbers and configuration
//   [SECTION] Reference model
//   [SECTION] The run: one function per operation
//   [SECTION] Comparison of observable contents
//   [SECTION] The test
#include <gtest/gtest.h>

#include <array>
#include <algorithm>
#include <chrono>
#include <memory>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "test_world.h"

#ifndef COLONY_DIFF_DEFAULT_OPS
#define COLONY_DIFF_DEFAULT_OPS 1000000
#endif

using namespace ecs_test;

namespace {

// [SECTION] Random numbers and configuration

struct Rng {
  u64 state;
  u64 next() {  // splitmix64
    u64 z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  u32 below(u32 n) { return n ? u32(((next() >> 32) * u64(n)) >> 32) : 0; }
  bool percent(u32 p) { return below(100) < p; }
};

u64 env_u64(const char* name, u64 fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v) return fallback;
  return std::strtoull(v, nullptr, 0);
}

constexpr u32 kMaxEntities = 2000;
constexpr u32 kCells = 256, kChunkCells = 16;
constexpr std::array<u32, 3> kCapacity = {10000, 3000, 1200};
constexpr std::array<u32, 3> kMaxPer = {Piece::kMaxPerEntity, Volume::kMaxPerEntity, Sensor::kMaxPerEntity};
constexpr u32 kValidateEvery = 2048;
constexpr u32 kCompareEvery = 1000;

using Components = std::tuple<Piece, Volume, Sensor>;
template <size_t I>
using Comp = std::tuple_element_t<I, Components>;

// Calls fn(std::integral_constant<size_t, I>) for the pool chosen at run time.
template <class Fn>
void with_pool(u32 i, Fn&& fn) {
  switch (i) {
    case 0: fn(std::integral_constant<size_t, 0>{}); break;
    case 1: fn(std::integral_constant<size_t, 1>{}); break;
    default: fn(std::integral_constant<size_t, 2>{}); break;
  }
}

// [SECTION] Reference model

struct RefEntity {
  Handle h;
  Tier tier;
  u32 chunk;
  Pos pos;
  std::array<u32, 3> reserved{};
  std::array<std::vector<u32>, 3> added;  // tags, in local order
  bool dying = false;
};

struct Model {
  std::unordered_map<u32, RefEntity> live;  // by handle index
  std::vector<Handle> handles;              // live handles, for picking
  std::unordered_map<u32, size_t> handle_pos;
  std::vector<Handle> dead;   // recently dead handles (stale from then on)
  std::vector<Handle> queue;  // queued for destruction
  std::array<u64, 3> taken{}, failed{};
  u64 failed_creates = 0;

  RefEntity* find(Handle h) {
    auto it = live.find(h.index);
    return it != live.end() && it->second.h == h ? &it->second : nullptr;
  }
  void add_live(const RefEntity& e) {
    live.emplace(e.h.index, e);
    handle_pos[e.h.index] = handles.size();
    handles.push_back(e.h);
  }
  void kill(Handle h) {
    RefEntity& e = live.at(h.index);
    for (u32 p = 0; p < 3; ++p) taken[p] -= e.reserved[p];
    size_t at = handle_pos.at(h.index);
    handles[at] = handles.back();
    handle_pos[handles[at].index] = at;
    handles.pop_back();
    handle_pos.erase(h.index);
    live.erase(h.index);
    if (dead.size() < 4096) dead.push_back(h);
    else dead[h.generation % 4096] = h;
  }
  void release(RefEntity& e, u32 p) {
    taken[p] -= e.reserved[p];
    e.reserved[p] = 0;
    e.added[p].clear();
  }
};

// [SECTION] The run: one function per operation

// Batches of up to 8 victims release one at a time, larger ones in a batch: both paths run.
TestWorld::Config diff_config() {
  TestWorld::Config c = make_config(kMaxEntities, kCapacity[0], kCapacity[1], kCapacity[2], kCells, kChunkCells);
  c.swap_release_max = 8;
  // Room for any release of these pools: a hole and a move per entry at most.
  c.journal_steps = 2 * (kCapacity[0] + kCapacity[1] + kCapacity[2]);
  c.journal_victims = kMaxEntities;
  c.journal_releases = 16;
  return c;
}

// A pool's entries [0, taken) as tags and back-pointers: the state a journal is replayed on.
struct PoolCopy {
  std::vector<u32> tag;
  std::vector<BackPointer> owners;
};
bool same(const BackPointer& a, const BackPointer& b) {
  return a.owner_index == b.owner_index && a.owner_generation == b.owner_generation && a.chunk == b.chunk &&
         a.local == b.local;
}

struct DiffRun {
  Rng rng;
  TestWorld w{diff_config()};
  Model m;
  u32 next_tag = 1;
  u64 op = 0;
  std::array<u64, 16> result_counts{};  // how often each Result came out, to show coverage
  u64 bombs = 0, bomb_kills = 0, batches = 0;
  std::array<u64, 3> apply_strategy{};  // how the piece pool closed its holes in each apply
  std::array<u64, 3> pool_full{};       // reservations each pool refused for want of room
  u64 spawns = 0, spawns_refused = 0, add_eaches = 0, touched_checks = 0;
  std::vector<u32> touched;        // entities the coming release may change (by index)
  std::array<PoolCopy, 3> before;  // the pools before a journal-checked release
  u64 journal_from = 0;            // the journal's release count before it
  bool journal_checking = false;
  std::array<u64, 8> journal_checked{};  // releases replayed, by ReleasePath (per pool part)

  std::string where() const { return "op " + std::to_string(op) + " seed " + std::to_string(seed_); }
  u64 seed_ = 0;

  void expect(Result got, Result want, const char* what) {
    ++result_counts[size_t(got)];
    ASSERT_EQ(got, want) << what << " at " << where();
  }

  // A live handle most of the time; otherwise a stale one or a made-up one.
  Handle pick() {
    u32 roll = rng.below(100);
    if (roll < 85 && !m.handles.empty()) return m.handles[rng.below(u32(m.handles.size()))];
    if (roll < 97 && !m.dead.empty()) return m.dead[rng.below(u32(m.dead.size()))];
    switch (rng.below(3)) {
      case 0: return Handle{};
      case 1: return Handle{1 + rng.below(kMaxEntities), 0};
      default: return Handle{kMaxEntities + 1 + rng.below(10), 1};
    }
  }
  // Positions on a quarter-cell lattice: every distance test below is exact in float.
  Pos random_pos(u32 id) { return Pos{float(rng.below(kCells * 4)) / 4.f, float(rng.below(kCells * 4)) / 4.f, id}; }

  // [SECTION] Release journal check

  template <size_t I>
  void copy_pool(PoolCopy& c) {
    const auto& p = w.pool<Comp<I>>();
    c.tag.resize(p.taken());
    c.owners.assign(p.owners.get(), p.owners.get() + p.taken());
    for (u32 e = 0; e < p.taken(); ++e) c.tag[e] = p.items[e].tag;
  }
  // Before a release: every batched one and every 16th other one is checked.
  void journal_before(bool batched) {
    journal_checking = batched || op % 16 == 0;
    if (!journal_checking) return;
    copy_pool<0>(before[0]), copy_pool<1>(before[1]), copy_pool<2>(before[2]);
    journal_from = w.journal().release_count();
  }
  // One step applied to the copy; the step must name the owner and slot the copy holds.
  void replay(const JournalStep& s) {
    PoolCopy& c = before[s.pool];
    ASSERT_LT(s.from, c.owners.size()) << where();
    const BackPointer& at = c.owners[s.from];
    ASSERT_EQ(at.owner_index, s.owner.index) << "step names another owner at " << where();
    ASSERT_EQ(at.owner_generation, generation_check(s.owner.generation)) << where();
    if (s.kind == StepKind::Renumber) {
      c.owners[s.from].local = s.local;
      return;
    }
    ASSERT_EQ(at.local, s.local) << "step names another slot at " << where();
    if (s.kind == StepKind::Move) {
      ASSERT_LT(s.to, c.owners.size()) << where();
      c.tag[s.to] = c.tag[s.from];
      c.owners[s.to] = c.owners[s.from];
    }
  }
  template <size_t I>
  void expect_pool_is_copy(const TestWorld::JournalRelease& r) {
    const auto& p = w.pool<Comp<I>>();
    PoolCopy& c = before[I];
    if (r.pools[I].path != ReleasePath::None) { ASSERT_EQ(r.pools[I].taken_after, p.taken()) << where(); }
    ASSERT_GE(c.tag.size(), p.taken()) << where();
    for (u32 e = 0; e < p.taken(); ++e) {
      ASSERT_EQ(c.tag[e], p.items[e].tag) << Comp<I>::kPoolName << " entry " << e << " at " << where();
      ASSERT_TRUE(same(c.owners[e], p.owners[e])) << Comp<I>::kPoolName << " back-pointer " << e << " at " << where();
    }
    c.tag.resize(p.taken());
    c.owners.resize(p.taken());
  }
  // After the release: each release journaled since journal_before, its steps in order.
  void journal_after() {
    if (!journal_checking) return;
    const auto& j = w.journal();
    for (u64 serial = journal_from; serial < j.release_count(); ++serial) {
      const TestWorld::JournalRelease* r = j.release(serial);
      ASSERT_NE(r, nullptr) << where();
      ASSERT_EQ(r->dropped(), 0u) << where();
      ASSERT_TRUE(j.steps_kept(*r)) << where();
      for (u64 k = 0; k < r->steps_recorded; ++k) {
        replay(j.step(*r, k));
        if (::testing::Test::HasFatalFailure()) return;
      }
      expect_pool_is_copy<0>(*r), expect_pool_is_copy<1>(*r), expect_pool_is_copy<2>(*r);
      if (::testing::Test::HasFatalFailure()) return;
      for (const JournalPool& part : r->pools) ++journal_checked[size_t(part.path)];
    }
  }

  void op_create() {
    Pos p = random_pos(next_tag++);
    Tier t = rng.percent(50) ? Tier::Simulated : Tier::Dormant;
    u32 chunk = w.grid().chunk_at(p.x, p.y);
    bool bad = rng.percent(2);
    if (bad) {
      if (rng.percent(50)) chunk = w.grid().chunk_count() + rng.below(5);
      else t = Tier::Free;
    }
    Handle h = w.create(chunk, t, u16(p.id & 0xFF), p);
    if (bad || m.live.size() == kMaxEntities) {
      ASSERT_TRUE(h.is_null()) << where();
      ++m.failed_creates;
      return;
    }
    ASSERT_FALSE(h.is_null()) << where();
    ASSERT_EQ(m.find(h), nullptr) << "handle handed out twice at " << where();
    ASSERT_EQ(m.live.count(h.index), 0u) << "index of a live entity handed out again at " << where();
    RefEntity e{h, t, chunk, p, {}, {}, false};
    m.add_live(e);
  }

  template <size_t I>
  void op_reserve(std::integral_constant<size_t, I>) {
    Handle h = pick();
    u32 n = rng.percent(2) ? 0xFFFFFFF0u + rng.below(16) : rng.below(kMaxPer[I] + 2);
    Result want;
    RefEntity* e = m.find(h);
    if (!e) want = Result::StaleHandle;
    else if (n > kMaxPer[I] - e->reserved[I]) want = Result::EntityMaxReached;
    else if (n > kCapacity[I] - m.taken[I]) want = Result::PoolFull;
    else want = Result::Ok;
    expect(w.reserve<Comp<I>>(h, n), want, "reserve");
    if (want == Result::EntityMaxReached || want == Result::PoolFull) ++m.failed[I];
    pool_full[I] += want == Result::PoolFull;
    if (want != Result::Ok) return;
    e->reserved[I] += n;
    m.taken[I] += n;
  }

  template <size_t I>
  void op_add(std::integral_constant<size_t, I>) {
    Handle h = pick();
    Comp<I> c{};
    c.tag = next_tag++;
    RefEntity* e = m.find(h);
    Result want =
        !e ? Result::StaleHandle : (e->added[I].size() >= e->reserved[I] ? Result::NoReservedSlot : Result::Ok);
    expect(w.add<Comp<I>>(h, c), want, "add");
    if (want == Result::Ok) e->added[I].push_back(c.tag);
  }

  template <size_t I>
  void op_remove_one(std::integral_constant<size_t, I>) {
    Handle h = pick();
    RefEntity* e = m.find(h);
    u32 local = rng.below(e ? u32(e->added[I].size()) + 2 : 4);
    if (rng.percent(1)) local = 0xFFFFFFFFu;
    Result want = !e ? Result::StaleHandle : (local >= e->added[I].size() ? Result::BadLocalIndex : Result::Ok);
    if (want == Result::Ok) note_tail<I>(1), touched.push_back(h.index);
    journal_before(false);
    expect(w.remove_one<Comp<I>>(h, local), want, "remove_one");
    journal_after();
    if (want != Result::Ok) return;
    e->added[I].erase(e->added[I].begin() + local);
    e->reserved[I] -= 1;
    m.taken[I] -= 1;
    compare_touched();
  }

  template <size_t I>
  void op_release_all(std::integral_constant<size_t, I>) {
    Handle h = pick();
    RefEntity* e = m.find(h);
    if (e) note_tail<I>(e->reserved[I]), touched.push_back(h.index);
    journal_before(false);
    expect(w.release_all<Comp<I>>(h), e ? Result::Ok : Result::StaleHandle, "release_all");
    journal_after();
    if (e) m.release(*e, I);
    compare_touched();
  }

  void op_destroy() {
    Handle h = pick();
    RefEntity* e = m.find(h);
    if (e) note_release(std::vector<Handle>{h}, ReleaseStrategy::TailFill);
    journal_before(false);
    expect(w.destroy(h), e ? Result::Ok : Result::StaleHandle, "destroy");
    journal_after();
    if (!e) return;
    if (e->dying) std::erase(m.queue, h);
    m.kill(h);
    compare_touched();
  }

  void op_queue_destroy() {
    Handle h = pick();
    RefEntity* e = m.find(h);
    Result want = !e ? Result::StaleHandle : (e->dying ? Result::AlreadyQueued : Result::Ok);
    expect(w.queue_destroy(h), want, "queue_destroy");
    if (want != Result::Ok) return;
    e->dying = true;
    m.queue.push_back(h);
  }

  void op_apply() {
    ASSERT_EQ(w.pending_destructions().size(), m.queue.size()) << where();
    u64 removes = w.stats<Piece>().total.removes;
    note_release(m.queue, ReleaseStrategy::Auto);
    journal_before(true);
    ASSERT_EQ(w.apply_destructions(), u32(m.queue.size())) << where();
    journal_after();
    if (::testing::Test::HasFatalFailure()) return;
    if (w.stats<Piece>().total.removes != removes) ++apply_strategy[size_t(w.last_release_strategy<Piece>())];
    for (Handle h : m.queue) m.kill(h);
    m.queue.clear();
    compare_touched();
  }

  // The bomb: everything in a circle is queued while the radius query walks it, then the
  // deaths are applied as one batch. The query must find exactly the model's victims.
  void op_bomb() {
    float x = float(rng.below(kCells * 4)) / 4.f, y = float(rng.below(kCells * 4)) / 4.f;
    float r = float(rng.below((rng.percent(10) ? 120 : 30) * 4)) / 4.f;
    std::set<u32> want, got;
    for (auto& [index, e] : m.live) {
      float dx = e.pos.x - x, dy = e.pos.y - y;
      if (dx * dx + dy * dy <= r * r) want.insert(index);
    }
    bool ok = true;
    w.for_each_in_radius(x, y, r, [&](TestWorld::Record& rec) {
      Handle h = rec.header.handle;
      ok &= got.insert(h.index).second;
      Result res = w.queue_destroy(h);
      RefEntity* e = m.find(h);
      ok &= e != nullptr && res == (e->dying ? Result::AlreadyQueued : Result::Ok);
      if (e && !e->dying) {
        e->dying = true;
        m.queue.push_back(h);
      }
    });
    ASSERT_TRUE(ok) << "radius query visited something twice or queueing disagreed at " << where();
    ASSERT_EQ(got, want) << "radius query at " << where();
    ++bombs;
    bomb_kills += m.queue.size();
    op_apply();
  }

  // A direct batched release of one pool: duplicates, stale and made-up handles mixed in,
  // the strategy forced either way or left to the world.
  template <size_t I>
  void op_release_batch(std::integral_constant<size_t, I>) {
    std::vector<Handle> batch;
    u32 n = 1 + rng.below(rng.percent(50) ? 8 : 400);
    for (u32 k = 0; k < n; ++k) {
      batch.push_back(pick());
      if (rng.percent(10)) batch.push_back(batch.back());
    }
    auto strategy = ReleaseStrategy(rng.below(3));
    note_release(batch, strategy, I);
    journal_before(true);
    w.release_batch<Comp<I>>(batch, strategy);
    journal_after();
    if (::testing::Test::HasFatalFailure()) return;
    std::set<u32> done;
    for (Handle h : batch)
      if (RefEntity* e = m.find(h); e && done.insert(h.index).second) m.release(*e, I);
    ++batches;
    compare_touched();
  }

  // A spawn as the game dresses an entity: room in every pool asked for at once
  // (reserve_all, all or nothing), then each pool's components written in place
  // (add_each). Mostly a new entity, sometimes a live, stale or made-up one; sometimes
  // more than an entity may hold.
  void op_spawn() {
    const bool fresh = rng.percent(70) && m.live.size() < kMaxEntities;
    Handle h = fresh ? Handle{} : pick();
    if (fresh) {
      Pos p = random_pos(next_tag++);
      h = w.create(w.grid().chunk_at(p.x, p.y), rng.percent(50) ? Tier::Simulated : Tier::Dormant, u16(p.id & 0xFF), p);
      ASSERT_FALSE(h.is_null()) << where();
      m.add_live(RefEntity{h, Tier(w.find(h)->header.tier), w.find(h)->header.chunk, p, {}, {}, false});
    }
    std::array<u32, 3> n{};
    for (u32 i = 0; i < 3; ++i) n[i] = rng.percent(3) ? kMaxPer[i] + 1 : rng.below(kMaxPer[i] / 2 + 1);
    RefEntity* e = m.find(h);
    Result want = e ? Result::Ok : Result::StaleHandle;
    if (e) {
      for (u32 i = 0; i < 3; ++i) {  // every pool is asked, and each refusal counted
        Result r = n[i] > kMaxPer[i] - e->reserved[i] ? Result::EntityMaxReached
                   : n[i] > kCapacity[i] - m.taken[i] ? Result::PoolFull
                                                      : Result::Ok;
        if (r != Result::Ok) ++m.failed[i];
        pool_full[i] += r == Result::PoolFull;
        if (want == Result::Ok) want = r;
      }
    }
    expect(w.reserve_all<Piece, Volume, Sensor>(h, n), want, "reserve_all");
    ++spawns;
    if (want != Result::Ok) {
      ++spawns_refused;
      return;
    }
    for (u32 i = 0; i < 3; ++i) e->reserved[i] += n[i], m.taken[i] += n[i];
    with_pool(rng.below(3), [&](auto i) { op_add_each(i, h); });
  }

  // Writes several components into an entity's reserved slots at once (add_each): all
  // or nothing, refused past the slots reserved.
  template <size_t I>
  void op_add_each(std::integral_constant<size_t, I>, Handle h) {
    RefEntity* e = m.find(h);
    u32 room = e ? e->reserved[I] - u32(e->added[I].size()) : 0;
    u32 n = rng.percent(10) ? room + 1 + rng.below(3) : rng.below(room + 1);
    Result want = !e ? Result::StaleHandle : (n > room ? Result::NoReservedSlot : Result::Ok);
    const u32 first_tag = next_tag;
    next_tag += n;
    expect(w.add_each<Comp<I>>(h, n, [&](Comp<I>& c, u32 k) { c = Comp<I>{}, c.tag = first_tag + k; }), want,
           "add_each");
    ++add_eaches;
    if (want != Result::Ok) return;
    for (u32 k = 0; k < n; ++k) e->added[I].push_back(first_tag + k);
  }

  // [SECTION] What a release touches

  // Before pool I loses `dead` entries one at a time by swap-with-last: the entries that
  // can move are the pool's last `dead`; their owners are noted.
  template <size_t I>
  void note_tail(u32 dead) {
    const auto& p = w.pool<Comp<I>>();
    u32 taken = p.stats.taken;
    for (u32 s = taken - std::min(dead, taken); s < taken; ++s) touched.push_back(u32(p.owners[s].owner_index));
  }
  // Before the victims' entries are released (in pool `only`, or in every pool) with
  // the strategy given: notes the victims and the owners of every entry the release may
  // move. Tail fill and one-at-a-time moves only entries from the last `dead`; compaction
  // moves the entries from the lowest victim entry up (Auto compacts only when that span
  // is at most about twice the dead, so a longer span is tail filled).
  void note_release(const std::vector<Handle>& victims, ReleaseStrategy strategy, u32 only = 3) {
    std::set<u32> unique;
    for (Handle h : victims)
      if (m.find(h)) unique.insert(h.index), touched.push_back(h.index);
    for (u32 i = 0; i < 3; ++i) {
      if (only < 3 && i != only) continue;
      with_pool(i, [&](auto pool) {
        constexpr size_t I = decltype(pool)::value;
        const auto& p = w.pool<Comp<I>>();
        u32 dead = 0, first_hole = p.stats.taken;
        for (u32 index : unique) {
          const auto& l = w.list_at<Comp<I>>(index);
          dead += l.reserved;
          for (u32 k = 0; k < l.reserved; ++k) first_hole = std::min(first_hole, l.slot[k]);
        }
        u32 taken = p.stats.taken, from = taken - std::min(dead, taken);
        bool may_compact = strategy == ReleaseStrategy::Compact ||
                           (strategy == ReleaseStrategy::Auto && taken - first_hole <= 2 * dead + 64);
        if (may_compact) from = std::min(from, first_hole);
        for (u32 s = from; s < taken; ++s) touched.push_back(u32(p.owners[s].owner_index));
      });
    }
  }
  // After the release: every noted entity still alive agrees with the model.
  void compare_touched() {
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    for (u32 index : touched) {
      auto it = m.live.find(index);
      if (it == m.live.end()) continue;
      compare_entity(it->second);
      ++touched_checks;
      if (::testing::Test::HasFatalFailure()) break;
    }
    touched.clear();
  }

  void op_move_chunk() {
    Handle h = pick();
    RefEntity* e = m.find(h);
    Pos p = random_pos(e ? e->pos.id : 0);
    u32 chunk = w.grid().chunk_at(p.x, p.y);
    bool bad = rng.percent(2);
    if (bad) chunk = w.grid().chunk_count() + rng.below(3);
    Result want = !e ? Result::StaleHandle : (bad ? Result::BadChunk : Result::Ok);
    // The game moves the position with the chunk; the payload is written first, as a
    // system would before filing the entity under its new chunk.
    if (e && !bad) {
      w.payload(h)->x = p.x;
      w.payload(h)->y = p.y;
    }
    expect(w.move_chunk(h, chunk), want, "move_chunk");
    if (want != Result::Ok) return;
    e->chunk = chunk;
    e->pos = p;
  }

  // Immediate batched destruction: live, queued, stale and made-up handles and duplicates
  // mixed in; up to swap_release_max (8) victims go one at a time, more through the batch
  // passes.
  void op_destroy_batch() {
    std::vector<Handle> batch;
    u32 n = 1 + rng.below(rng.percent(50) ? 8 : 60);
    for (u32 k = 0; k < n; ++k) {
      batch.push_back(pick());
      if (rng.percent(10)) batch.push_back(batch.back());
    }
    std::vector<Handle> victims;
    std::set<u32> seen;
    for (Handle h : batch)
      if (m.find(h) && seen.insert(h.index).second) victims.push_back(h);
    note_release(victims, ReleaseStrategy::Auto);
    journal_before(true);
    ASSERT_EQ(w.destroy_batch(batch), u32(victims.size())) << where();
    journal_after();
    if (::testing::Test::HasFatalFailure()) return;
    for (Handle h : victims) {
      if (m.find(h)->dying) std::erase(m.queue, h);
      m.kill(h);
    }
    ++batches;
    compare_touched();
  }

  // Deferred moves applied in one call, as a walk collects them: each to a new position's
  // chunk, then a tier; some to a bad chunk (not moved), some to Tier::Free (moved, but
  // the tier change is refused and the move not counted).
  void op_move_chunks() {
    std::vector<TestWorld::ChunkMove> moves;
    std::vector<Pos> to;
    u32 n = 1 + rng.below(24), want = 0;
    for (u32 k = 0; k < n; ++k) {
      Handle h = pick();
      RefEntity* e = m.find(h);
      Pos p = random_pos(e ? e->pos.id : 0);
      u32 chunk = rng.percent(3) ? w.grid().chunk_count() + rng.below(3) : w.grid().chunk_at(p.x, p.y);
      Tier t = rng.percent(3) ? Tier::Free : (rng.percent(50) ? Tier::Simulated : Tier::Dormant);
      moves.push_back({h, chunk, t});
      to.push_back(p);
    }
    // The model takes the moves in order, as the world does (a handle may come twice).
    for (u32 k = 0; k < n; ++k) {
      RefEntity* e = m.find(moves[k].h);
      if (!e || moves[k].chunk >= w.grid().chunk_count()) continue;
      w.payload(moves[k].h)->x = to[k].x;  // the system writes the position, then files the move
      w.payload(moves[k].h)->y = to[k].y;
      e->chunk = moves[k].chunk;
      e->pos = to[k];
      if (moves[k].tier != Tier::Free) e->tier = moves[k].tier, ++want;
    }
    ASSERT_EQ(w.move_chunks(moves), want) << where();
  }

  void op_set_tier() {
    Handle h = pick();
    RefEntity* e = m.find(h);
    Tier t = rng.percent(3) ? Tier::Free : (rng.percent(50) ? Tier::Simulated : Tier::Dormant);
    Result want = !e ? Result::StaleHandle : (t == Tier::Free ? Result::BadTier : Result::Ok);
    expect(w.set_tier(h, t), want, "set_tier");
    if (want == Result::Ok) e->tier = t;
  }

  void op_lookup() {
    Handle h = pick();
    RefEntity* e = m.find(h);
    u32 chunk = e ? e->chunk : rng.below(w.grid().chunk_count());
    TestWorld::Record* r = w.lookup(h, chunk);
    if (!e) {
      ASSERT_EQ(r, nullptr) << "stale handle resolved at " << where();
      ASSERT_EQ(w.find(h), nullptr) << where();
      return;
    }
    ASSERT_NE(r, nullptr) << where();
    ASSERT_EQ(r->header.handle, h) << where();
    ASSERT_EQ(r->payload.id, e->pos.id) << where();
    ASSERT_EQ(w.lookup(h, (chunk + 1 + rng.below(w.grid().chunk_count() - 1)) % w.grid().chunk_count()), nullptr)
        << "lookup with the wrong chunk resolved at " << where();
  }

  // Operations by weight (per mille). The run alternates between growth phases (the store
  // and the pools fill up until creation and reservation are refused) and decline phases
  // (deaths outnumber births), 40,000 operations each.
  void step() {
    const bool growing = (op / 40000) % 2 == 0;
    const u32 create = growing ? 120 : 30, destroy = growing ? 10 : 40, queue = growing ? 10 : 60;
    u32 roll = rng.below(1000 + create + destroy + queue);
    u32 pool = rng.below(3);
    if (roll >= 1000) {
      roll -= 1000;
      if (roll < create) return op_create();
      if (roll < create + destroy) return op_destroy();
      return op_queue_destroy();
    }
    if (roll < 250) return with_pool(pool, [&](auto i) { op_reserve(i); });
    if (roll < 520) return with_pool(pool, [&](auto i) { op_add(i); });
    if (roll < 610) return with_pool(pool, [&](auto i) { op_remove_one(i); });
    if (roll < 630) return with_pool(pool, [&](auto i) { op_release_all(i); });
    if (roll < 640) return op_apply();
    if (roll < 641) return op_bomb();
    if (roll < 645) return with_pool(pool, [&](auto i) { op_release_batch(i); });
    if (roll < 745) return op_move_chunk();
    if (roll < 845) return op_set_tier();
    if (roll < 847) return op_destroy_batch();
    if (roll < 857) return op_move_chunks();
    if (roll < 887) return op_spawn();
    if (roll < 907) {
      Handle h = pick();
      return with_pool(pool, [&](auto i) { op_add_each(i, h); });
    }
    if (roll < 998) return op_lookup();
    w.begin_tick();
  }

  // [SECTION] Comparison of observable contents

  template <size_t I>
  void compare_pool(const RefEntity& e, const TestWorld::Record& r) {
    const auto& l = w.list<Comp<I>>(r);
    ASSERT_EQ(l.reserved, e.reserved[I]) << Comp<I>::kPoolName << " entity " << e.h.index << " at " << where();
    ASSERT_EQ(l.added, e.added[I].size()) << Comp<I>::kPoolName << " entity " << e.h.index << " at " << where();
    std::vector<u32> got;
    w.for_each_component<Comp<I>>(r, [&](u32, const Comp<I>& c) { got.push_back(c.tag); });
    ASSERT_EQ(got, e.added[I]) << Comp<I>::kPoolName << " entity " << e.h.index << " at " << where();
  }

  void compare_entity(const RefEntity& e) {
    const u32 index = e.h.index;
    const TestWorld::Record* r = w.lookup(e.h, e.chunk);
    ASSERT_NE(r, nullptr) << "entity " << index << " at " << where();
    ASSERT_EQ(Tier(r->header.tier), e.tier) << "entity " << index << " at " << where();
    ASSERT_EQ(r->header.chunk, e.chunk) << where();
    ASSERT_EQ(r->payload.id, e.pos.id) << where();
    ASSERT_EQ(r->payload.x, e.pos.x) << where();
    ASSERT_EQ(r->payload.y, e.pos.y) << where();
    ASSERT_EQ(w.dying(e.h), e.dying) << where();
    compare_pool<0>(e, *r);
    compare_pool<1>(e, *r);
    compare_pool<2>(e, *r);
  }

  void compare() {
    ASSERT_EQ(w.live_count(), m.live.size()) << where();
    u32 simulated = 0;
    for (const auto& [index, e] : m.live) {
      compare_entity(e);
      if (::testing::Test::HasFatalFailure()) return;
      simulated += e.tier == Tier::Simulated;
    }
    ASSERT_EQ(w.simulated_count(), simulated) << where();
    for (Handle d : m.dead) ASSERT_FALSE(w.alive(d)) << "dead handle alive at " << where();
    ASSERT_EQ(w.stats<Piece>().taken, m.taken[0]) << where();
    ASSERT_EQ(w.stats<Volume>().taken, m.taken[1]) << where();
    ASSERT_EQ(w.stats<Sensor>().taken, m.taken[2]) << where();
    ASSERT_EQ(w.stats<Piece>().total.failed_reservations, m.failed[0]) << where();
    ASSERT_EQ(w.stats<Volume>().total.failed_reservations, m.failed[1]) << where();
    ASSERT_EQ(w.stats<Sensor>().total.failed_reservations, m.failed[2]) << where();
    ASSERT_EQ(w.failed_creates(), m.failed_creates) << where();
    ASSERT_EQ(w.pending_destructions().size(), m.queue.size()) << where();
  }

  void validate() {
    std::string v = violations(w);
    ASSERT_EQ(v, "") << "validator at " << where();
  }
};

// [SECTION] The test

TEST(Differential, RandomOperationsAgreeWithTheReferenceModel) {
  const u64 seed = env_u64("COLONY_DIFF_SEED", 20260521);
  const u64 ops = env_u64("COLONY_DIFF_OPS", COLONY_DIFF_DEFAULT_OPS);
  auto run = std::make_unique<DiffRun>();
  ASSERT_TRUE(run->w.set_journal(true));
  run->rng.state = seed;
  run->seed_ = seed;
  auto start = std::chrono::steady_clock::now();
  u64 validations = 0;
  size_t peak_live = 0;
  std::array<u64, 3> peak_taken{};
  for (run->op = 1; run->op <= ops; ++run->op) {
    run->step();
    if (::testing::Test::HasFatalFailure()) return;
    peak_live = std::max(peak_live, run->m.live.size());
    for (u32 p = 0; p < 3; ++p) peak_taken[p] = std::max(peak_taken[p], run->m.taken[p]);
    if (run->op % kCompareEvery == 0) {
      run->compare();
      if (::testing::Test::HasFatalFailure()) return;
    }
    if (run->op % kValidateEvery == 0) {
      run->validate();
      ++validations;
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  --run->op;
  run->op_apply();  // drain the queue, then the final full check
  run->compare();
  if (::testing::Test::HasFatalFailure()) return;
  run->validate();
  ++validations;
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const auto& c = run->result_counts;
  std::printf(
      "differential: %llu ops, seed %llu, %.2f s, %llu validations, peak live %zu, peak taken %llu/%llu/%llu, "
      "%llu bombs (%llu kills), %llu direct batches, applies by tail fill %llu / compaction %llu\n",
      (unsigned long long)ops, (unsigned long long)seed, secs, (unsigned long long)validations, peak_live,
      (unsigned long long)peak_taken[0], (unsigned long long)peak_taken[1], (unsigned long long)peak_taken[2],
      (unsigned long long)run->bombs, (unsigned long long)run->bomb_kills, (unsigned long long)run->batches,
      (unsigned long long)run->apply_strategy[size_t(ReleaseStrategy::TailFill)],
      (unsigned long long)run->apply_strategy[size_t(ReleaseStrategy::Compact)]);
  std::printf(
      "differential: pool full %llu/%llu/%llu, %llu spawns (%llu refused), %llu add_each, %llu entities compared after "
      "releases\n",
      (unsigned long long)run->pool_full[0], (unsigned long long)run->pool_full[1],
      (unsigned long long)run->pool_full[2], (unsigned long long)run->spawns, (unsigned long long)run->spawns_refused,
      (unsigned long long)run->add_eaches, (unsigned long long)run->touched_checks);
  std::printf(
      "differential results: ok %llu, stale %llu, pool full %llu, entity max %llu, no reserved slot %llu, "
      "bad local %llu, bad chunk %llu, already queued %llu, bad tier %llu; failed creates %llu\n",
      (unsigned long long)c[size_t(Result::Ok)], (unsigned long long)c[size_t(Result::StaleHandle)],
      (unsigned long long)c[size_t(Result::PoolFull)], (unsigned long long)c[size_t(Result::EntityMaxReached)],
      (unsigned long long)c[size_t(Result::NoReservedSlot)], (unsigned long long)c[size_t(Result::BadLocalIndex)],
      (unsigned long long)c[size_t(Result::BadChunk)], (unsigned long long)c[size_t(Result::AlreadyQueued)],
      (unsigned long long)c[size_t(Result::BadTier)], (unsigned long long)run->m.failed_creates);
  // Every outcome was exercised, so the run says something about each of them.
  if (ops >= 100000) {
    for (Result r :
         {Result::Ok, Result::StaleHandle, Result::PoolFull, Result::EntityMaxReached, Result::NoReservedSlot,
          Result::BadLocalIndex, Result::BadChunk, Result::AlreadyQueued, Result::BadTier}) {
      EXPECT_GT(c[size_t(r)], 0u) << result_name(r) << " never happened";
    }
    EXPECT_GT(run->bombs, 0u);
    EXPECT_GT(run->apply_strategy[size_t(ReleaseStrategy::TailFill)], 0u);
    EXPECT_GT(run->apply_strategy[size_t(ReleaseStrategy::Compact)], 0u);
    EXPECT_GT(run->m.failed_creates, 0u);
    for (u32 p = 0; p < 3; ++p) EXPECT_GT(run->pool_full[p], 0u) << "pool " << p << " was never full";
    EXPECT_GT(run->spawns - run->spawns_refused, 0u);
    EXPECT_GT(run->spawns_refused, 0u);
    EXPECT_GT(run->add_eaches, 0u);
    EXPECT_GT(run->touched_checks, ops / 20) << "the releases' touched entities were hardly compared";
    // The journal was replayed for every way a release goes.
    for (ReleasePath p : {ReleasePath::OneAtATime, ReleasePath::TailFill, ReleasePath::Compact, ReleasePath::RemoveOne})
      EXPECT_GT(run->journal_checked[size_t(p)], 0u) << release_path_name(p) << " never replayed";
  }
  std::printf(
      "differential journal: replayed pool parts: one at a time %llu, tail fill %llu, compaction %llu, remove one "
      "%llu\n",
      (unsigned long long)run->journal_checked[size_t(ReleasePath::OneAtATime)],
      (unsigned long long)run->journal_checked[size_t(ReleasePath::TailFill)],
      (unsigned long long)run->journal_checked[size_t(ReleasePath::Compact)],
      (unsigned long long)run->journal_checked[size_t(ReleasePath::RemoveOne)]);
}

}  // namespace
