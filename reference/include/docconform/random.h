// The deterministic generator behind every synthetic input (gen xlsx, gen pdf, gen strings):
// splitmix64, so the same seed gives the same file on every platform and compiler.
#pragma once

#include <cstdint>

namespace docconform {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // In [0, bound); bound must not be 0.
  std::uint64_t below(std::uint64_t bound) { return next() % bound; }
  // In [lo, hi].
  std::uint64_t between(std::uint64_t lo, std::uint64_t hi) { return lo + below(hi - lo + 1); }

 private:
  std::uint64_t state_;
};

}  // namespace docconform
