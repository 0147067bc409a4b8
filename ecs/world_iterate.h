// world_iterate.h — walks over World's entities: every simulated record, a chunk's records,
// every entity in storage order, a radius, an entity's components.
// Included by world.h; the walk rules (what fn may do) are in the class there.
#pragma once
#include "world.h"

namespace ecs {

template <Positioned Payload, Component... Cs>
template <class Fn>
void World<Payload, Cs...>::for_each_simulated(Fn&& fn) {
  store_.walk(store_.simulated(), [&](RecordHeader* h) { fn(*as_record(h)); });
}
template <Positioned Payload, Component... Cs>
template <class Fn>
void World<Payload, Cs...>::for_each_dormant_in_chunk(u32 chunk, Fn&& fn) {
  store_.walk(store_.dormant(chunk), [&](RecordHeader* h) { fn(*as_record(h)); });
}
template <Positioned Payload, Component... Cs>
template <class Fn>
void World<Payload, Cs...>::for_each_entity(Fn&& fn) {
  for_each_simulated(fn);
  for (u32 c = 0; c < grid_.chunk_count(); ++c) for_each_dormant_in_chunk(c, fn);
}
template <Positioned Payload, Component... Cs>
template <class Fn>
void World<Payload, Cs...>::for_each_in_chunk(u32 chunk, Fn&& fn) {
  store_.walk_chunk(chunk, [&](RecordHeader* h) { fn(*as_record(h)); });
}
template <Positioned Payload, Component... Cs>
template <class Fn>
void World<Payload, Cs...>::for_each_in_radius(float x, float y, float r, Fn&& fn) {
  grid_.for_each_chunk_in_circle(x, y, r, [&](u32 chunk) {
    for_each_in_chunk(chunk, [&](Record& rec) {
      float dx = float(rec.payload.x) - x, dy = float(rec.payload.y) - y;
      if (dx * dx + dy * dy <= r * r) fn(rec);
    });
  });
}
template <Positioned Payload, Component... Cs>
template <class C, class Fn>
void World<Payload, Cs...>::for_each_component(const Record& r, Fn&& fn) {
  const auto& l = list<C>(r);
  for (u32 k = 0; k < l.added; ++k) fn(k, pool<C>().items[l.slot[k]]);
}

}  // namespace ecs
