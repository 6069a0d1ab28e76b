// The relationship walk from the package root to the worksheets, shared by the loader and the
// streaming row reader.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "docconform/xlsx/workbook.h"
#include "limits.h"
#include "load_budgets.h"
#include "package.h"
#include "xml_scanner.h"

namespace docconform::xlsx {

// What the relationship walk finds before any cell is read.
struct WorkbookIndex {
  Workbook workbook;                            // sheets listed; no cells, no shared strings yet
  std::vector<std::string> worksheet_parts;     // zip entry names of the sheets that hold cells
  std::vector<std::size_t> worksheet_of_sheet;  // each sheet's index in worksheet_parts (-1: chartsheet)
  std::string workbook_part;
  std::string shared_strings_part;  // checked but not read; empty when the workbook has none
};

// Reads _rels/.rels, the workbook part, its rels and styles. The shared strings part comes
// before styles and sheets in the walk: when a later step fails, that part is read first so
// that its own error, if any, is the one reported.
// budgets (when given) are charged for the shared strings read there.
WorkbookIndex index_workbook(const Package& package, const LoadOptions& options, LoadBudgets* budgets = nullptr);

// Reads the shared strings part into out (split into chunks on the pool as options allow).
// When it is parsed as it inflates, between_reads runs before each read of the part.
void read_shared_strings_part(const Package& package, const std::string& part, const LoadOptions& options,
                              SharedStrings& out, const std::function<void()>& between_reads = {},
                              LoadBudgets* budgets = nullptr);

}  // namespace docconform::xlsx
