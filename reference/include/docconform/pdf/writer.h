// Writing PDF: object syntax, and incremental updates (§7.5.6) that append changed or new
// objects plus a cross-reference section of the same kind as the file's newest one, leaving
// every original byte untouched.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "docconform/pdf/document.h"
#include "docconform/pdf/object.h"

namespace docconform::pdf {

// PDF syntax for a direct object: literal strings with escapes, names #xx-escaped, reals in the
// shortest fixed-point form. Streams are not direct objects: Error(usage).
void append_pdf_syntax(std::string& out, const Object& object);
// The name escaping shared by the writer and the canonical dump.
void append_pdf_name(std::string& out, const std::string& name);

struct UpdateChanges {
  // Objects to replace (existing numbers keep their generation) or add (numbers >= /Size).
  std::vector<std::pair<std::uint32_t, Object>> objects;
  // Document-information entries to set (KEY without the slash, VALUE in UTF-8), written as
  // PDF text strings (§7.9.2.2): ASCII as it is, anything else as UTF-16BE after a byte-order mark.
  std::vector<std::pair<std::string, std::string>> info;
};

// Copies the document's bytes to out and appends one update with the changes. Returns the
// offset of the new cross-reference section (the new startxref).
std::uint64_t write_incremental_update(Document& document, const UpdateChanges& changes, std::ostream& out);

// The same into the file at `path` (docconform/output_file.h: complete or not at all; path may
// be the document's own file), which must be a regular file or not exist yet (Error(io)
// otherwise). The result is read back before it is put in place: a file this reader refuses
// (every object resolved, as a level-3 dump does) is never written; the error names path and why.
void append_incremental_update(Document& document, const UpdateChanges& changes, const std::string& path);

// Parses PDF syntax for one direct object (the CLI's --object N=TEXT); throws Error(usage).
Object parse_object_text(const std::string& text);

}  // namespace docconform::pdf
