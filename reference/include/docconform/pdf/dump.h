// The canonical dump of a PDF (conformance/SPEC.md, format pdf): level 1 = version, page count and
// object count; level 2 adds the merged cross-reference table; level 3 adds the sections, the
// trailer, the pages and every object canonically serialized.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "docconform/pdf/document.h"
#include "docconform/pdf/limits.h"
#include "docconform/pdf/object.h"
#include "docconform/pdf/source.h"
#include "docconform/pdf/sweep.h"

namespace docconform::pdf {

constexpr int max_dump_level = 3;
inline constexpr int dump_version = 1;  // of the dump's text (conformance/SPEC.md, format pdf)

// Appends the canonical text of a direct object (names #xx-escaped, strings as byte strings,
// dictionaries with sorted keys and null entries dropped). Streams are written by the dump.
void append_canonical(std::string& out, const Object& object);
std::string canonical_text(const Object& object);

// Writes the dump in pieces of at most about 1 MiB to sink, so a level-3 dump of a large file
// (several times the file's size) is never held whole. A piece may be as short as one line (a
// sink that writes to a file gathers them). An error may come after some pieces: a
// consumer that must not show a partial dump collects it first (pdf_dump). Level 3's objects
// are read on up to `threads` threads (0 = auto), each extra one through a source of its own
// (ByteSource::another()); the dump, and the error on bad input, are the same at every count.
// Level 3 reads its objects in batches of at most Limits::dump_batch_bytes of the file, each
// batch's bytes copied in file order and then parsed in number order; the lines of object
// streams whose bytes a batch holds for their members are made then and held until their turn. Returns what the object
// readers did (nothing below level 3).
SweepResult write_pdf_dump(Document& document, int level, const std::function<void(std::string_view)>& sink,
                           unsigned threads = 0);
std::string pdf_dump(Document& document, int level, unsigned threads = 0);
// Opens path with the given source (and password, for an encrypted file: Document) and dumps
// it; errors carry the file name. A dump of a file read with recovery starts (after its header
// line) with the `recovered` line of its repairs.
void write_pdf_dump_file(const std::string& path, const SourceOptions& source, int level, const Limits& limits,
                         const std::function<void(std::string_view)>& sink, unsigned threads = 0,
                         std::string_view password = {}, Recovery recovery = Recovery::strict);
std::string pdf_dump_file(const std::string& path, const SourceOptions& source, int level, const Limits& limits = {},
                          unsigned threads = 0, std::string_view password = {}, Recovery recovery = Recovery::strict);

}  // namespace docconform::pdf
