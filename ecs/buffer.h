// buffer.h — the one way the engine takes big arrays: once, zero-filled, starting on a
// cache line, and (from 2 MiB) committed by the OS as they are first touched, or at once
// (make_committed_buffer) for scratch a mass release must not fault in.
//
// A pool of 16,000,000 render pieces is ~384 MB of address space (16-byte pieces and
// 8-byte back-pointers); a world that uses a tenth of it must not pay for all of it. A
// fresh anonymous mapping is zero pages the kernel only commits when they are written,
// whereas `new T[n]` runs T's default member initialisers over every element and commits
// every page up front.
//
// Buffers of 2 MiB and more ask for transparent huge pages (madvise): the pools, the
// directory and the record arena are read at random by the batched release, and with
// 4 KiB pages nearly every one of those reads also missed the TLB. They are still
// committed lazily, a 2 MiB page at a time.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>

namespace ecs {

inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;
inline constexpr std::size_t kCacheLineBytes = 64;

// Frees what make_buffer took: munmap for a mapping (its size is kept), free otherwise.
struct BufferDeleter {
  std::size_t mapped_bytes = 0;
  void operator()(void* p) const {
    if (mapped_bytes) munmap(p, mapped_bytes);
    else std::free(p);
  }
};

// Owning pointer to n elements of a trivially copyable T (so zero bytes are a valid
// value to overwrite and no destructor has to run).
template <class T>
using Buffer = std::unique_ptr<T[], BufferDeleter>;

template <class T>
Buffer<T> make_buffer(std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "engine buffers hold plain data only");
  static_assert(alignof(T) <= alignof(std::max_align_t), "over-aligned element type");
  std::size_t bytes = (n ? n : 1) * sizeof(T);
  if (bytes < kHugePageBytes) {
    // On a cache line, as a mapping is: rows padded to whole lines (the store's directory)
    // then never straddle two, and the prefetches that name a row's lines name its own.
    std::size_t lines = (bytes + kCacheLineBytes - 1) / kCacheLineBytes * kCacheLineBytes;
    void* p = std::aligned_alloc(kCacheLineBytes, lines);
    if (!p) throw std::bad_alloc();
    std::memset(p, 0, lines);
    return Buffer<T>(static_cast<T*>(p));
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without THP the buffer still works
  return Buffer<T>(static_cast<T*>(p), BufferDeleter{bytes});
}

// A buffer that is committed now: for the scratch a mass release works in (the sort's
// buffers, the dead-entry bitmaps), so that the first bomb does not stall on page faults
// (lazily committed, a million-ant world's first 50 % kill spends about a fifth of its
// time faulting in the sort's 38 MB). A mapping has each page written once; a smaller
// buffer is zeroed, and so committed, by make_buffer. Costs the memory up front, where
// make_buffer defers it.
template <class T>
Buffer<T> make_committed_buffer(std::size_t n) {
  Buffer<T> b = make_buffer<T>(n);
  volatile unsigned char* bytes = reinterpret_cast<volatile unsigned char*>(b.get());
  for (std::size_t off = 0, size = b.get_deleter().mapped_bytes; off < size; off += 4096) bytes[off] = 0;
  return b;
}

}  // namespace ecs
