// Phases A and B for the worksheets of a workbook: inflate each sheet part, split it at row
// boundaries into chunks, parse the chunks on the worker pool, then stitch each sheet's
// chunks together in document order (row numbers fixed up, boundaries verified, a sheet whose
// split turned out unsafe re-parsed whole). The first error in document order wins.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "docconform/xlsx/workbook.h"
#include "package.h"
#include "sheet_parser.h"

namespace docconform::xlsx {

struct SheetOutput {
  std::vector<Segment> segments;
  std::vector<std::u16string> merged_cells;
  std::vector<RelationshipUse> table_ids;
  std::vector<RelationshipUse> drawing_ids;
  bool split = false;
};

// Reads the shared string table and returns its size. It calls between_reads between pieces of
// the part, so that the worker running it also parses the sheet chunks that are ready.
using SharedStringsJob = std::function<std::size_t(const std::function<void()>& between_reads)>;

// Loads the worksheet parts (zip entry names) and returns one output per part, in order.
// Given a shared_strings job (context.shared_strings then unknown), the first free worker runs
// it while the others parse sheets; its error outranks every sheet's, and a sheet with an
// error or an index past the table is re-parsed whole with the table's size, so errors are
// those of reading the table first.
std::vector<SheetOutput> load_sheets(const Package& package, const std::vector<std::string>& parts,
                                     const SheetParseContext& context, const LoadOptions& options, LoadStats& stats,
                                     const SharedStringsJob& shared_strings = {});

}  // namespace docconform::xlsx
