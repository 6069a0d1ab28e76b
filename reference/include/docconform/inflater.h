// Which deflate decoder inflates the XLSX zip parts and the PDF streams: zlib (the reference,
// always built) or ISA-L's isal_inflate (when the build has it). Both give the same bytes and
// the same error classes; the choice is speed only.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace docconform {

enum class InflaterKind : unsigned char { zlib, isal };

// The inflater options start from: ISA-L when it was built, else zlib.
InflaterKind default_inflater();
// The inflaters this build offers, zlib first.
std::vector<InflaterKind> available_inflaters();
bool inflater_available(InflaterKind kind);
std::string_view inflater_name(InflaterKind kind);  // "zlib", "isal"
// "zlib" or "isal"; throws Error(usage) for other names and for an inflater not built.
InflaterKind parse_inflater(std::string_view name);

// The versions of the libraries that do the product's compression and cryptography, for
// `version --verbose`: "zlib 1.2.13", "ISA-L 2.30.0" (or "ISA-L not built"), "libzip ...", "OpenSSL ...".
std::vector<std::string> library_versions();

}  // namespace docconform
