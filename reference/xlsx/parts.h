// The small parts of a workbook: workbook.xml, sharedStrings, styles, comments, tables and
// drawings. Each reader takes the part's inflated XML and throws Error naming the part.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "docconform/xlsx/workbook.h"
#include "load_budgets.h"
#include "relationship_use.h"
#include "xml_scanner.h"

namespace docconform::xlsx {

class SpilledStrings;

struct SheetEntry {
  std::u16string name;
  SheetState state = SheetState::visible;
  RelationshipUse relationship;
};

struct WorkbookPart {
  bool date1904 = false;
  std::vector<SheetEntry> sheets;
};

WorkbookPart read_workbook_part(const std::string& xml, const ScanLimits& limits);
// Shared strings; a large table is split at <si> boundaries and parsed on the pool (chunk_bytes
// of XML per job, 0 = never), with the same result as a serial parse. The table is charged to
// budgets (when given) as it grows.
// A table over spill's limit (when given) goes there, out left empty.
void read_shared_strings(const std::string& xml, const ScanLimits& limits, SharedStrings& out,
                         const LoadOptions& options, LoadBudgets* budgets = nullptr, SpilledStrings* spill = nullptr);
// Appends up to max more bytes of a part to out; returns the count, 0 at the part's end.
using PartReader = std::function<std::size_t(std::string& out, std::size_t max)>;
// The same on the calling thread, parsing the part as it inflates, so that its XML is never
// held whole (options.chunk_bytes must not be 0). expected_bytes is the part's declared size
// (0: unknown), used to size the table once. Returns false, out untouched, when a split point
// turned out not to be an <si> boundary: the caller then parses the whole part.
bool read_shared_strings_streaming(const PartReader& next, std::uint64_t expected_bytes, const ScanLimits& limits,
                                   SharedStrings& out, const LoadOptions& options, LoadBudgets* budgets = nullptr,
                                   SpilledStrings* spill = nullptr);
// The number of <xf> in <cellXfs>.
std::uint32_t read_cell_format_count(const std::string& xml, const ScanLimits& limits);
std::vector<Comment> read_comments(const std::string& xml, const ScanLimits& limits);
Table read_table(const std::string& xml, const ScanLimits& limits);

}  // namespace docconform::xlsx
