#include "alloc_counter.h"

#include "alloc_slots.h"

namespace docconform {

std::uint64_t AllocStats::total_count() const noexcept {
  std::uint64_t total = 0;
  for (const auto c : count) total += c;
  return total;
}

std::uint64_t AllocStats::total_bytes() const noexcept {
  std::uint64_t total = 0;
  for (const auto b : bytes) total += b;
  return total;
}

AllocStats AllocStats::operator-(const AllocStats& earlier) const noexcept {
  AllocStats diff;
  for (std::size_t i = 0; i < classes; ++i) {
    diff.count[i] = count[i] - earlier.count[i];
    diff.bytes[i] = bytes[i] - earlier.bytes[i];
  }
  return diff;
}

std::size_t alloc_size_class(std::size_t n) noexcept {
  if (n <= 32) return 0;
  if (n <= 64) return 1;
  if (n <= 256) return 2;
  return 3;
}

AllocStats alloc_snapshot() noexcept {
  AllocStats stats;
  for (const auto& slot : detail::alloc_slots) {
    for (std::size_t c = 0; c < AllocStats::classes; ++c) {
      stats.count[c] += slot.count[c].load(std::memory_order_relaxed);
      stats.bytes[c] += slot.bytes[c].load(std::memory_order_relaxed);
    }
  }
  return stats;
}

namespace detail {
AllocSlot alloc_slots[alloc_slot_count];
}  // namespace detail

}  // namespace docconform
