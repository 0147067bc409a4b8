// counting_allocator.h — replaces the global operator new/delete (and, outside sanitizer
// builds, malloc and friends) with versions that count, for the tests that prove a piece
// of work never touches the heap. Include it in ONE source file of a test binary: it
// defines the replacements.
#pragma once
#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<unsigned long> g_allocations{0};
std::atomic<bool> g_counting{false};
void note_allocation() {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
}
void* checked(void* p) {
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(std::size_t n) {
  note_allocation();
  return checked(std::malloc(n ? n : 1));
}
void* operator new[](std::size_t n) {
  note_allocation();
  return checked(std::malloc(n ? n : 1));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  note_allocation();
  return std::malloc(n ? n : 1);
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  note_allocation();
  return std::malloc(n ? n : 1);
}
void* operator new(std::size_t n, std::align_val_t a) {
  note_allocation();
  std::size_t al = std::size_t(a);
  return checked(std::aligned_alloc(al, (n + al - 1) / al * al));
}
void* operator new[](std::size_t n, std::align_val_t a) { return operator new(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

#if !defined(COLONY_NO_MALLOC_HOOK) && !defined(__SANITIZE_ADDRESS__) && defined(__GLIBC__)
// The engine takes its big arrays with calloc, so malloc and friends are counted too:
// they forward to glibc's own entry points. (Sanitizer builds keep their own allocator.)
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void __libc_free(void*);
void* malloc(std::size_t n) {
  note_allocation();
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t s) {
  note_allocation();
  return __libc_calloc(n, s);
}
void* realloc(void* p, std::size_t n) {
  note_allocation();
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
}
constexpr bool kCountsMalloc = true;
#else
constexpr bool kCountsMalloc = false;
#endif

namespace {

// Counts allocations between construction and count().
struct AllocationWatch {
  unsigned long start;
  AllocationWatch() : start(g_allocations.load()) { g_counting = true; }
  ~AllocationWatch() { g_counting = false; }
  unsigned long count() const { return g_allocations.load() - start; }
};

}  // namespace
