#include "docconform/inflater.h"

#include <openssl/crypto.h>
#include <zip.h>
#include <zlib.h>

#ifdef DOCCONFORM_WITH_ISAL
#include <isa-l.h>
#endif

#include "docconform/error.h"

namespace docconform {

#ifdef DOCCONFORM_WITH_ISAL
constexpr bool isal_built = true;
#else
constexpr bool isal_built = false;
#endif

// zlib, whether or not ISA-L is built: a verdict must not depend on the build, and ISA-L accepts
// incomplete Huffman codes that zlib rejects (docconform/inflater.h).
InflaterKind default_inflater() { return InflaterKind::zlib; }

bool inflater_available(InflaterKind kind) { return kind == InflaterKind::zlib || isal_built; }

std::vector<InflaterKind> available_inflaters() {
  std::vector<InflaterKind> kinds{InflaterKind::zlib};
  if (isal_built) kinds.push_back(InflaterKind::isal);
  return kinds;
}

std::string_view inflater_name(InflaterKind kind) { return kind == InflaterKind::isal ? "isal" : "zlib"; }

InflaterKind parse_inflater(std::string_view name) {
  for (const InflaterKind kind : {InflaterKind::zlib, InflaterKind::isal}) {
    if (name != inflater_name(kind)) continue;
    if (!inflater_available(kind)) throw Error(ErrorKind::usage, {}, "inflater '" + std::string(name) + "' is not built");
    return kind;
  }
  throw Error(ErrorKind::usage, {}, "unknown inflater '" + std::string(name) + "' (zlib, isal)");
}

std::vector<std::string> library_versions() {
  std::vector<std::string> lines{std::string("zlib ") + zlibVersion()};
#ifdef DOCCONFORM_WITH_ISAL
  lines.push_back("ISA-L " + std::to_string(ISAL_MAJOR_VERSION) + "." + std::to_string(ISAL_MINOR_VERSION) + "." +
                  std::to_string(ISAL_PATCH_VERSION));
#else
  lines.push_back("ISA-L not built");
#endif
  lines.push_back(std::string("libzip ") + zip_libzip_version());
  lines.push_back(OpenSSL_version(OPENSSL_VERSION));
  return lines;
}

}  // namespace docconform
