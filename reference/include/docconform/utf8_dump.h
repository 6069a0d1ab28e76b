// The canonical dump of a UTF-8 decoding (conformance/SPEC.md, "utf8"): the UTF-16 code units
// the passthrough decoder produces for a byte string.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace docconform {

inline constexpr int utf8_dump_version = 1;

struct Utf8DumpLimits {
  // The dump is held in memory at up to ~8 bytes per input byte; the cases are test vectors.
  std::size_t max_input_bytes = 16 << 20;
};

// Throws Error(limit) when the input is over the limit.
std::string utf8_dump(std::string_view bytes, const Utf8DumpLimits& limits = {});

}  // namespace docconform
