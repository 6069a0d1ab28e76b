// The formats the suite knows: how the reference implementation dumps a case file of each.
// The golden checker and the conformance runner look formats up here.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/output_limit.h"
#include "phases.h"

namespace docconform::cli {


struct DumpFormat {
  std::string name;                     // utf8, xlsx, pdf, pdf3, sst, sstw
  std::string header;                   // the dump's first line (conformance/SPEC.md, "Header")
  std::vector<std::string> extensions;  // case file extensions, e.g. ".bin"
  // Writes the dump with default options (max_output_bytes included) in pieces to the sink;
  // throws Error (possibly after some pieces, so a caller that keeps the text discards it on
  // error). With a log, also times the format's phases (conformance/SPEC.md section 2: sstw
  // sst_serialize, xlsx xlsx_load, pdf pdf_objects).
  std::function<void(const std::string& path, const DumpSink& sink, PhaseLog* phases)> write;
  std::string cli_dump = name;  // the same dump from the CLI: `docconform dump <cli_dump> FILE`
  bool timed_phases = false;     // whether the conformance runner times the format's phases (SPEC section 2)
};

const std::vector<DumpFormat>& dump_formats();
// The password a PDF case is read with (conformance/SPEC.md, format pdf "Encryption"): the bytes
// of `<case>.password` beside it, or empty (the empty user password) when there is none.
std::string case_password(const std::string& path);
// The CLI words that make `docconform dump` read a case as the format does (`cli_dump`, then
// `--password` and the case's password, when it has one).
std::vector<std::string> cli_dump_words(const DumpFormat& format, const std::string& path);
const DumpFormat* find_dump_format(const std::string& name);
// "utf8, pdf, ...": every format's name, for messages.
std::string dump_format_names();
// The whole dump as one string.
std::string dump_text(const DumpFormat& format, const std::string& path);

}  // namespace docconform::cli
