// The relationship walk from the package root to the worksheets, shared by the loader and the
// streaming row reader.
#pragma once

#include <string>
#include <vector>

#include "docconform/xlsx/workbook.h"
#include "package.h"
#include "xml_scanner.h"

namespace docconform::xlsx {

ScanLimits scan_limits(const Limits& limits);

// Reads _rels/.rels, the workbook part, its rels, shared strings and styles. Returns the
// workbook with its sheets listed (no cells yet); worksheet_parts lists the worksheet parts
// and worksheet_of_sheet maps each sheet to its index there (-1 for chartsheets).
Workbook index_workbook(const Package& package, const LoadOptions& options, std::vector<std::string>& worksheet_parts,
                        std::vector<std::size_t>& worksheet_of_sheet, std::string& workbook_part);

}  // namespace docconform::xlsx
