// pool_list.h — a world's component pools declared once, as a type list, and values kept
// per pool that are reached by the pool's type.
//
//   using Pools = ecs::PoolList<Piece, Volume, Sensor>;   // the one list
//   using MyWorld = Pools::World<Pos>;                      // world.h
//   cfg.pool_capacity.of<Volume>() = 5000;                  // named by type
//   Pools::for_each([]<class C>(std::type_identity<C>) { ... C::kPoolName ... });
//
// PerPool has no brace-list constructor: a capacity cannot be given by position, so a
// pool added to the list cannot silently get the capacity meant for another, or none.
#pragma once
#include <array>
#include <cstddef>
#include <type_traits>

#include "pool.h"

namespace ecs {

// What a world's payload must have: a position, which places the entity in the chunk
// grid (a world without space has one chunk, and its payloads may sit at 0, 0).
template <class P>
concept Positioned = std::is_trivially_copyable_v<P> && requires(P p) {
  { p.x } -> std::convertible_to<float>;
  { p.y } -> std::convertible_to<float>;
};

template <Positioned Payload, Component... Cs>
class World;

template <Component... Cs>
struct PoolList {
  // The world holding these pools, with payload P (world.h).
  template <Positioned P>
  using World = ecs::World<P, Cs...>;
  static constexpr size_t kCount = sizeof...(Cs);
  // The position of C in the list (kCount when it is not listed).
  template <class C>
  static constexpr size_t index_of() {
    constexpr bool matches[] = {std::is_same_v<C, Cs>..., false};
    for (size_t i = 0; i < kCount; ++i)
      if (matches[i]) return i;
    return kCount;
  }
  template <class C>
  static constexpr bool contains() {
    return index_of<C>() < kCount;
  }
  // fn(std::type_identity<C>{}) for every pool, in list order.
  template <class Fn>
  static constexpr void for_each(Fn&& fn) {
    (fn(std::type_identity<Cs>{}), ...);
  }
  // fn(std::type_identity<C>{}) for the pool at position i; nothing for a bad i.
  template <class Fn>
  static constexpr void visit(size_t i, Fn&& fn) {
    size_t k = 0;
    ((k++ == i ? (fn(std::type_identity<Cs>{}), 0) : 0), ...);
  }
  // The pool names, in list order.
  static constexpr std::array<const char*, kCount> names() { return {Cs::kPoolName...}; }
};

// One T for each pool of a list, reached by the pool's type (of<C>()) or its position.
template <class T, Component... Cs>
class PerPool {
 public:
  using List = PoolList<Cs...>;
  PerPool() = default;
  // Every pool the same value.
  static PerPool filled(const T& v) {
    PerPool p;
    p.values_.fill(v);
    return p;
  }
  template <class C>
  T& of() {
    static_assert(List::template contains<C>(), "not a pool of this world");
    return values_[List::template index_of<C>()];
  }
  template <class C>
  const T& of() const {
    static_assert(List::template contains<C>(), "not a pool of this world");
    return values_[List::template index_of<C>()];
  }
  T& operator[](size_t i) { return values_[i]; }
  const T& operator[](size_t i) const { return values_[i]; }
  static constexpr size_t size() { return sizeof...(Cs); }
  auto begin() { return values_.begin(); }
  auto end() { return values_.end(); }
  auto begin() const { return values_.begin(); }
  auto end() const { return values_.end(); }
  friend bool operator==(const PerPool&, const PerPool&) = default;

 private:
  std::array<T, sizeof...(Cs)> values_{};
};

}  // namespace ecs
