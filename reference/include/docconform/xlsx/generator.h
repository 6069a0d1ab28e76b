// Deterministic synthetic workbooks (the `gen xlsx` command): the same options always give the
// same bytes. Cells mix numbers, shared or inline strings, non-ASCII text, rich text runs,
// `_xHHHH_` escapes and XML references; each sheet gets a comment and a table.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace docconform::xlsx {

struct GenOptions {
  std::uint32_t sheets = 1;
  std::uint32_t rows = 10;     // including the header row
  std::uint32_t columns = 4;
  bool inline_strings = false;  // t="inlineStr" instead of shared strings
  std::uint64_t seed = 1;
  bool malformed_utf8 = false;  // put ill-formed UTF-8 bytes into some strings
  bool implicit_refs = false;   // omit r on every other row and on cells
  bool extras = true;           // a comment and a table per sheet
};

// The .xlsx file's bytes, written with libzip.
std::string generate_workbook(const GenOptions& options);

// A zip archive (deflated, fixed timestamps) holding these entries in this order: the
// building block of hand-made test workbooks. stored: the entries (by index) kept uncompressed.
std::string build_zip(const std::vector<std::pair<std::string, std::string>>& entries,
                      const std::vector<bool>& stored = {});

}  // namespace docconform::xlsx
