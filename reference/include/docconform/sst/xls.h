// A minimal BIFF8 workbook (conformance/SPEC.md, format sst, "The .xls writer"): the globals records
// that Excel, LibreOffice, POI and xlrd need, BOUNDSHEET8 per sheet, SST + EXTSST, and sheets of
// LABELSST cells, in a CFB container. And the reverse: the SST of any BIFF8 .xls.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/sst/model.h"
#include "docconform/sst/writer.h"

namespace docconform::sst {

inline constexpr std::size_t xls_rows_per_sheet = 65536;
inline constexpr std::size_t xls_columns_per_sheet = 256;

struct XlsOptions {
  WriterKind writer = WriterKind::fast;
  std::size_t rows_per_sheet = xls_rows_per_sheet;        // smaller values exercise more sheets
  std::size_t columns_per_sheet = xls_columns_per_sheet;
};

// The strings of a workbook's cells as its SST holds them: each distinct string once, in the
// order of its first cell (cstTotal counts cells, cstUnique the entries), and each cell's index.
struct SharedStrings {
  SstTable table;
  std::vector<std::uint32_t> isst;  // per cell
};
SharedStrings share_strings(const SstTable& cells);

// Cell i holds cells[i], column by column: with R rows and C columns per sheet, sheet
// i / (R*C), column (i % (R*C)) / R, row i % R. Equal strings share one SST entry.
std::string write_xls_stream(const SharedStrings& strings, const XlsOptions& options = {});
std::string write_xls(const SharedStrings& strings, const XlsOptions& options = {});
inline std::string write_xls_stream(const SstTable& cells, const XlsOptions& options = {}) {
  return write_xls_stream(share_strings(cells), options);
}
inline std::string write_xls(const SstTable& cells, const XlsOptions& options = {}) {
  return write_xls(share_strings(cells), options);
}

// The shared string table of a BIFF8 workbook file (CFB + Workbook stream); an empty table when
// the workbook has no SST. BIFF5/7 workbooks and encrypted ones are Error(unsupported).
SstTable read_xls_sst(std::string_view file, const Limits& limits = {}, const std::string& label = {});
// The same from a Workbook stream (also what a bare, container-less BIFF file holds).
SstTable read_workbook_stream_sst(std::string_view stream, const Limits& limits = {}, const std::string& label = {});

// The two kinds of file the sst format reads (conformance/SPEC.md, format sst, "Case files"): a
// workbook (a Compound File or a bare BIFF stream) or a raw SST record file. The name tells
// them apart, not the bytes: records named .sst, anything else a workbook.
enum class SstFileKind : std::uint8_t { workbook, records };
SstFileKind sst_file_kind(std::string_view path);

// The canonical dump (conformance/SPEC.md, format sst) of a file of that kind.
inline constexpr int sst_dump_version = 1;
std::string sst_dump(std::string_view bytes, SstFileKind kind, const Limits& limits = {}, const std::string& label = {});
std::string sst_dump_table(const SstTable& table);

// The dump of format sstw (conformance/SPEC.md): a writer judged by a reader. The strings file's
// lines become the cells of a workbook written by `write_xls`, and the reference reader dumps
// that workbook's SST. A strings-file error names `label` and the line. `written`, when given,
// sees the SST's table after the dump is made (the conformance runner times its serialization).
std::string written_sst_dump(std::string_view strings_file, const XlsOptions& options = {}, const std::string& label = {},
                             const std::function<void(const SstTable& sst)>& written = {});

}  // namespace docconform::sst
