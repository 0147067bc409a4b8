// fourth_pool_save_test.cpp — a pool added to the game's list is one struct and one line,
// and everything that visits the pools takes it: this world is the game's three pools plus
// a fourth, saved and loaded by the engine's snapshot, hashed and reported by the code the
// game's state hash and headless report use, and checked by the validator.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "components.h"
#include "snapshot.h"
#include "world_report.h"

namespace {

using namespace colony;

// The whole of the new pool.
struct Leg {
  float length = 1;
  u32 joint = 0;
  static constexpr u32 kMaxPerEntity = 6;
  static constexpr const char* kPoolName = "legs";
};
// The one line: the game's pools and the new one.
using FourPools = ecs::PoolList<COLONY_POOLS, Leg>;
using FourWorld = FourPools::World<Body>;

struct Bytes final : ecs::ByteSink, ecs::ByteSource {
  std::vector<unsigned char> data;
  size_t at = 0;
  void write(const void* p, size_t n) override {
    const auto* b = static_cast<const unsigned char*>(p);
    data.insert(data.end(), b, b + n);
  }
  bool read(void* p, size_t n) override {
    if (data.size() - at < n) return false;
    std::memcpy(p, data.data() + at, n);
    at += n;
    return true;
  }
};

FourWorld::Config config() {
  FourWorld::Config c;
  c.max_entities = 64;
  c.grid = ecs::ChunkGrid::make(64, 64, 16);
  c.pool_capacity = FourWorld::PerPool<u32>::filled(200);
  c.pool_capacity.of<Leg>() = 40;
  return c;
}

// Every record's hashed bytes, as the state hash takes them.
std::string hashed(FourWorld& w) {
  std::string out;
  hash_records(w, [&](const void* p, size_t n) { out.append(static_cast<const char*>(p), n); });
  return out;
}

void fill(FourWorld& w) {
  for (u32 i = 0; i < 10; ++i) {
    Body b;
    b.x = float(i * 6 + 1), b.y = float(i * 5 + 2), b.kind = Kind::Worker;
    Handle h = w.create_at(i % 2 ? ecs::Tier::Simulated : ecs::Tier::Dormant, u16(Kind::Worker), b);
    ASSERT_EQ((w.reserve_all<RenderPiece, Leg>(h, {3, 4})), ecs::Result::Ok);
    ASSERT_EQ(w.add_each<Leg>(h, 3, [&](Leg& l, u32 k) { l.joint = i * 10 + k, l.length = 0.5f + float(k); }),
              ecs::Result::Ok);
    ASSERT_EQ(w.add_each<RenderPiece>(h, 3, [&](RenderPiece& p, u32 k) { p.sprite = u8(k); }), ecs::Result::Ok);
    if (i == 4) { ASSERT_EQ(w.queue_destroy(h), ecs::Result::Ok); }
  }
  w.apply_destructions();
}

TEST(FourthPool, RoundTripsThroughSaveLoadHashReportAndTheValidator) {
  FourWorld w(config());
  fill(w);
  ASSERT_TRUE(w.validate().empty());
  EXPECT_EQ(w.stats<Leg>().taken, 9u * 4);

  Bytes saved;
  ecs::write_snapshot(w, saved);
  FourWorld loaded(config());
  std::string err;
  ASSERT_TRUE(ecs::read_snapshot(loaded, saved, &err)) << err;
  EXPECT_TRUE(loaded.validate().empty());
  EXPECT_EQ(hashed(loaded), hashed(w));

  // The hash sees the fourth pool: one leg's joint changed, the bytes differ.
  const std::string before = hashed(loaded);
  loaded.components<Leg>().items()[5].joint += 1;
  EXPECT_NE(hashed(loaded), before);

  // The report names it with its numbers.
  nlohmann::json report = pools_json(loaded);
  ASSERT_TRUE(report.contains("legs"));
  EXPECT_EQ(report["legs"]["taken"], 36);
  EXPECT_EQ(report["legs"]["capacity"], 40);
  EXPECT_EQ(report.size(), 4u);

  // A save of a world with its legs refused by a world with fewer room for them.
  FourWorld::Config small = config();
  small.pool_capacity.of<Leg>() = 39;
  FourWorld refused(small);
  saved.at = 0;
  EXPECT_FALSE(ecs::read_snapshot(refused, saved, &err));
  EXPECT_NE(err.find("legs"), std::string::npos) << err;

  // Corruption in the new pool is caught by the validator, by name.
  loaded.pool<Leg>().owners[0].local = (loaded.pool<Leg>().owners[0].local + 1) % 4;
  std::vector<ecs::Violation> v = loaded.validate();
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].pool, "legs");
}

}  // namespace
