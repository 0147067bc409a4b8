// buffer.h — the one way the engine takes big arrays: once, zero-filled, and committed
// by the OS page by page as they are first touched.
//
// A pool of 16,000,000 render pieces is ~450 MB of address space; a world that uses a
// tenth of it must not pay for all of it. std::calloc on a large block maps fresh zero
// pages without writing them, whereas `new T[n]` runs T's default member initialisers
// over every element and commits every page up front.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>

namespace ecs {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// Owning pointer to n elements of a trivially copyable T (so zero bytes are a valid
// value to overwrite and no destructor has to run).
template <class T>
using Buffer = std::unique_ptr<T[], FreeDeleter>;

template <class T>
Buffer<T> make_buffer(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "engine buffers hold plain data only");
  static_assert(alignof(T) <= alignof(std::max_align_t), "over-aligned element type");
  void* p = std::calloc(n ? n : 1, sizeof(T));
  if (!p) throw std::bad_alloc();
  return Buffer<T>(static_cast<T*>(p));
}

}  // namespace ecs
