// The canonical dump of a PDF (conformance/SPEC.md, format pdf): level 1 = version, page count and
// object count; level 2 adds the merged cross-reference table; level 3 adds the sections, the
// trailer, the pages and every object canonically serialized.
#pragma once

#include <string>

#include "docconform/pdf/document.h"
#include "docconform/pdf/limits.h"
#include "docconform/pdf/object.h"
#include "docconform/pdf/source.h"

namespace docconform::pdf {

constexpr int max_dump_level = 3;

// Appends the canonical text of a direct object (names #xx-escaped, strings as byte strings,
// dictionaries with sorted keys and null entries dropped). Streams are written by the dump.
void append_canonical(std::string& out, const Object& object);
std::string canonical_text(const Object& object);

std::string pdf_dump(Document& document, int level);
// Opens path with the given source and dumps it; errors carry the file name.
std::string pdf_dump_file(const std::string& path, const SourceOptions& source, int level, const Limits& limits = {});

}  // namespace docconform::pdf
