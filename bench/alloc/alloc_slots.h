// Internal: the per-thread counter slots the hook adds to and a snapshot sums.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "alloc_counter.h"

namespace docconform::detail {

// One cache line per slot so threads never share a line. Each thread takes a slot on its first
// allocation; past alloc_slot_count threads, slots are shared (still correct: adds are atomic).
struct alignas(64) AllocSlot {
  std::atomic<std::uint64_t> count[AllocStats::classes];
  std::atomic<std::uint64_t> bytes[AllocStats::classes];
};

inline constexpr std::size_t alloc_slot_count = 256;
extern AllocSlot alloc_slots[alloc_slot_count];

}  // namespace docconform::detail
