// Replaces the global allocation functions with counting versions. Linked only into programs
// that measure allocations (tests, docconform-bench); never into the library or the CLI.
#include <cstdlib>
#include <new>

#include "alloc_slots.h"

namespace docconform::detail {
namespace {

std::atomic<std::size_t> next_slot{0};

inline void count_allocation(std::size_t n) noexcept {
  thread_local std::size_t slot = alloc_slot_count;  // constant-initialized: no allocation
  if (slot == alloc_slot_count) slot = next_slot.fetch_add(1, std::memory_order_relaxed) % alloc_slot_count;
  const std::size_t c = alloc_size_class(n);
  alloc_slots[slot].count[c].fetch_add(1, std::memory_order_relaxed);
  alloc_slots[slot].bytes[c].fetch_add(n, std::memory_order_relaxed);
}

void* allocate(std::size_t n) {
  count_allocation(n);
  for (;;) {
    if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

void* allocate_aligned(std::size_t n, std::align_val_t alignment) {
  count_allocation(n);
  const auto a = static_cast<std::size_t>(alignment);
  const std::size_t rounded = ((n == 0 ? 1 : n) + a - 1) / a * a;
  for (;;) {
    if (void* p = std::aligned_alloc(a, rounded)) return p;
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) throw std::bad_alloc();
    handler();
  }
}

}  // namespace
}  // namespace docconform::detail

using docconform::detail::allocate;
using docconform::detail::allocate_aligned;

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try { return allocate(n); } catch (...) { return nullptr; }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try { return allocate(n); } catch (...) { return nullptr; }
}
void* operator new(std::size_t n, std::align_val_t a) { return allocate_aligned(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return allocate_aligned(n, a); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
