// world_report.h — what the state hash and the headless report take from a world,
// written once over its pool list: every record in storage order with its components
// pool by pool, and every pool's numbers under its kPoolName. A world with other pools (a
// test's fourth) is hashed and reported by the same code as the game's.
#pragma once
#include <array>
#include <cstddef>
#include <cstring>
#include <nlohmann/json.hpp>

#include "world.h"

namespace colony {

// bytes(const void*, size_t) with each record's hashed bytes, in storage order (the order
// the systems visit records in affects the future): handle, chunk, tag, tier, flags,
// payload, then per pool the slot counts and the added components.
template <class W, class Bytes>
void hash_records(W& w, Bytes&& bytes) {
  constexpr size_t kMost = [] {
    size_t n = sizeof(typename W::Record);
    W::Pools::for_each([&]<class C>(std::type_identity<C>) { n += 2 + C::kMaxPerEntity * sizeof(C); });
    return n;
  }();
  std::array<std::byte, kMost> buf;
  w.for_each_entity([&](const typename W::Record& r) {
    size_t n = 0;
    auto put = [&](const auto& v) {
      std::memcpy(buf.data() + n, &v, sizeof v);
      n += sizeof v;
    };
    put(r.header.handle), put(r.header.chunk), put(r.header.tag), put(r.header.tier), put(r.header.flags);
    put(r.payload);
    W::Pools::for_each([&]<class C>(std::type_identity<C>) {
      const auto& l = w.template list<C>(r);
      put(l.reserved), put(l.added);
      for (ecs::u32 k = 0; k < l.added; ++k) put(w.template pool<C>().items[l.slot[k]]);
    });
    bytes(buf.data(), n);
  });
}

// Each pool's numbers, under its name.
template <class W>
nlohmann::json pools_json(const W& w) {
  nlohmann::json pools = nlohmann::json::object();
  for (const ecs::PoolStats* st : w.all_stats()) {
    pools[st->name] = {{"capacity", st->capacity},     {"taken", st->taken},
                       {"high_water", st->high_water}, {"failed_reservations", st->total.failed_reservations},
                       {"rewires", st->total.rewires}, {"reserves", st->total.reserves},
                       {"removes", st->total.removes}, {"reserved_unused", st->reserved_unused}};
  }
  return pools;
}

}  // namespace colony
