// Counting allocator for tests and benchmarks. Linking the docconform::alloc_hook object library
// (bench/CMakeLists.txt) replaces the global operator new/delete of the program with versions
// that count allocations and bytes by size class. Counters live in per-thread slots (no global
// lock); a snapshot sums the slots.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace docconform {

struct AllocStats {
  static constexpr std::size_t classes = 4;  // <=32, <=64, <=256, larger
  std::array<std::uint64_t, classes> count{};
  std::array<std::uint64_t, classes> bytes{};

  std::uint64_t total_count() const noexcept;
  std::uint64_t total_bytes() const noexcept;
  AllocStats operator-(const AllocStats& earlier) const noexcept;
};

// The size class of an allocation of n bytes: 0 (<=32), 1 (<=64), 2 (<=256), 3 (larger).
std::size_t alloc_size_class(std::size_t n) noexcept;

// Sum of every thread's counters since the program started.
AllocStats alloc_snapshot() noexcept;

}  // namespace docconform
