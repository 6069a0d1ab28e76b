// strings_file: any bytes as a strings file (conformance/SPEC.md, format sst, "Strings files";
// the case files of format sstw), read with the fuzz limits. Three properties:
//
// 1. Only docconform::Error escapes parse_strings_jsonl.
// 2. What it reads survives the canonical writer: format_strings_jsonl of the table parses to the
//    same table, and formats to the same text again.
// 3. The sstw path: a workbook written from those cells (write_xls, both SST writers, few rows per
//    column so that small inputs span several columns and sheets) reads back as the cells'
//    distinct strings in order of first use, with cstTotal the cell count. The distinct list is
//    computed here the slow way, independently of the writer's index.
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "docconform/error.h"
#include "docconform/sst/strings_file.h"
#include "docconform/sst/xls.h"
#include "fuzz_check.h"

namespace {

using namespace docconform::sst;

constexpr std::size_t max_input = 1 << 16;

// Everything that makes two strings different, as one byte string.
std::string key(const SstStringView& s) {
  std::string k;
  const auto put = [&k](const void* bytes, std::size_t n) {
    k.append(reinterpret_cast<const char*>(&n), sizeof n);
    k.append(static_cast<const char*>(bytes), n);
  };
  put(s.text.data(), s.text.size() * sizeof(char16_t));
  k += s.runs ? 'R' : '-';
  if (s.runs) put(s.runs->data(), s.runs->size_bytes());
  k += s.ext_rst ? 'E' : '-';
  if (s.ext_rst) put(s.ext_rst->data(), s.ext_rst->size());
  return k;
}

SstTable distinct_in_order(const SstTable& cells) {
  std::set<std::string> seen;
  SstTable out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (seen.insert(key(cells[i])).second) out.append(cells[i]);
  }
  out.set_total_refs(cells.size());
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > max_input) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const Limits limits = Limits::fuzz();
  SstTable cells;
  try {
    cells = parse_strings_jsonl(text, "fuzz", limits);
  } catch (const docconform::Error&) {
    return 0;
  }

  const std::string canonical = format_strings_jsonl(cells);
  SstTable again;
  try {
    again = parse_strings_jsonl(canonical, "canonical", limits);
  } catch (const docconform::Error&) {
    FUZZ_CHECK(!"the canonical form of a table that parsed does not parse", data, size);
  }
  FUZZ_CHECK(again == cells, data, size);
  FUZZ_CHECK(format_strings_jsonl(again) == canonical, data, size);

  const SstTable expected = distinct_in_order(cells);
  for (const WriterKind writer : {WriterKind::fast, WriterKind::naive}) {
    XlsOptions options;
    options.writer = writer;
    options.rows_per_sheet = 3;
    options.columns_per_sheet = 2;
    std::string workbook;
    try {
      workbook = write_xls(cells, options);
    } catch (const docconform::Error&) {
      // Only a table past a limit of the workbook may be refused; these cells are few.
      FUZZ_CHECK(!"write_xls refused cells that parsed", data, size);
    }
    FUZZ_CHECK(read_xls_sst(workbook, limits) == expected, data, size);
  }
  return 0;
}
