// sparks.cpp — the engine on its own: two component types of its own, a world without a
// grid, spawns with variable counts, a batched kill, views, a move and the validator.
// Built from ecs/ alone; exits 1 when a number is not what the operations must give.
#include <cstdio>
#include <utility>
#include <vector>

#include "world.h"

using ecs::u32;

struct Spark {  // a variable number per entity, up to 8
  float heat = 0;
  static constexpr u32 kMaxPerEntity = 8;
  static constexpr const char* kPoolName = "sparks";
};
struct Label {  // one per entity
  u32 id = 0;
  static constexpr u32 kMaxPerEntity = 1;
  static constexpr const char* kPoolName = "labels";
};
struct Where {
  float x = 0, y = 0;
};
using Pools = ecs::PoolList<Spark, Label>;
using Sparks = Pools::World<Where>;
enum : ecs::u16 { kDim = 0, kBright = 1 };  // the user's own tags

int main() {
  Sparks::Config cfg;
  cfg.max_entities = 1000;
  cfg.pool_capacity.of<Spark>() = 8000;
  cfg.pool_capacity.of<Label>() = 1000;
  Sparks w(cfg);

  std::vector<ecs::Handle> victims;
  u32 kept_sparks = 0, kept_bright = 0;
  for (u32 i = 0; i < 1000; ++i) {
    const ecs::u16 tag = i % 3 ? kDim : kBright;
    const ecs::Handle h = w.create(Where{float(i), 0}, tag);
    const u32 n = 1 + i % 8;
    if (w.reserve_all<Spark, Label>(h, {n, 1}) != ecs::Result::Ok) return 1;
    w.add_each<Spark>(h, n, [&](Spark& s, u32 k) { s.heat = float(k + 1); });
    w.add<Label>(h, Label{i});
    if (i % 2) victims.push_back(h);
    else kept_sparks += n, kept_bright += tag == kBright;
  }
  const u32 died = w.destroy_batch(victims);  // one mark pass, then each pool closes its holes

  u32 sparks = 0;
  for (Spark& s : w.components<Spark>()) sparks += s.heat > 0;
  u32 bright = 0;
  w.in_chunk(0, ecs::tag_set(kDim)).for_each([&](Sparks::Record&) { ++bright; });
  u32 odd_labels = 0;
  w.components<Label>().for_each_with_owner(
      [&](Label& l, ecs::Handle owner) { odd_labels += (l.id % 2) + owner.is_null(); });

  Sparks moved = std::move(w);
  const std::vector<ecs::Violation> problems = moved.validate();
  for (const ecs::Violation& v : problems) std::printf("%s\n", ecs::describe(v).c_str());
  std::printf("died %u, live %u, sparks %u (%u expected), bright %u (%u expected), %zu violations\n", died,
              moved.live_count(), sparks, kept_sparks, bright, kept_bright, problems.size());
  const bool ok = died == 500 && moved.live_count() == 500 && sparks == kept_sparks && bright == kept_bright &&
                  odd_labels == 0 && problems.empty();
  return ok ? 0 : 1;
}
