// The canonical dump of a UTF-8 decoding (conformance/SPEC.md, "utf8"): the UTF-16 code units
// the passthrough decoder produces for a byte string.
#pragma once

#include <string>
#include <string_view>

namespace docconform {

inline constexpr int utf8_dump_version = 1;

std::string utf8_dump(std::string_view bytes);

}  // namespace docconform
