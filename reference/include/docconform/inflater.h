// Which deflate decoder inflates the XLSX zip parts and the PDF streams: zlib (the reference,
// always built, the default) or ISA-L's isal_inflate (when the build has it, about 2.5 times
// faster). Both give the same bytes and the same error classes on every stream but one class:
// a dynamic block whose code-length, literal/length or distance code is incomplete (its code
// lengths leave codes unassigned, other than a distance or literal/length code of one length-1
// code) is rejected by zlib ("invalid code set") and decoded by ISA-L. Over-subscribed codes are
// rejected by both. A file with such a stream fails with zlib and may load with ISA-L.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace docconform {

enum class InflaterKind : unsigned char { zlib, isal };

// The inflater options start from: zlib, in every build.
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
