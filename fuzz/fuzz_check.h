// Property checks for fuzz targets: on failure, print the input as hex and abort so every
// engine (libFuzzer, AFL++, the replay driver) records a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace docconform::fuzz {

[[noreturn]] inline void fail(const char* what, const std::uint8_t* data, std::size_t size) {
  std::fprintf(stderr, "fuzz property violated: %s\ninput (%zu bytes):", what, size);
  for (std::size_t i = 0; i < size && i < 4096; ++i) std::fprintf(stderr, " %02X", data[i]);
  std::fprintf(stderr, "\n");
  std::abort();
}

}  // namespace docconform::fuzz

#define FUZZ_CHECK(condition, data, size) \
  do {                                    \
    if (!(condition)) ::docconform::fuzz::fail(#condition, data, size); \
  } while (0)
