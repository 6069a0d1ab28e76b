// The relationship walk from the package root to the worksheets, shared by the loader and the
// streaming row reader.
#pragma once

#include <functional>
#include <new>
#include <string>
#include <vector>

#include "docconform/budget.h"
#include "docconform/error.h"
#include "docconform/parallel.h"
#include "docconform/xlsx/workbook.h"
#include "limits.h"
#include "load_budgets.h"
#include "package.h"
#include "sheet_loader.h"
#include "xml_scanner.h"

namespace docconform::xlsx {

class SpilledStrings;

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
// When it is parsed as it inflates, between_reads runs before each read of the part. Given
// spill, a table over its limit goes there instead, and the part is parsed as it inflates, on
// the calling thread, so that neither its XML nor its strings are held whole.
void read_shared_strings_part(const Package& package, const std::string& part, const LoadOptions& options,
                              SharedStrings& out, const std::function<void()>& between_reads = {},
                              LoadBudgets* budgets = nullptr, SpilledStrings* spill = nullptr);

// Fails when the shared strings and sheet parts declare more than the inflate budget (checked
// before they are inflated on several threads, so that the error is the same at every count).
void check_declared_budget(const Package& package, const WorkbookIndex& index);

// The context of the sheet parses of a load charging budgets.
SheetParseContext sheet_parse_context(const LoadOptions& options, LoadBudgets& budgets);

// Reads the shared strings into index.workbook (or spill) now and gives context their count,
// or, when one worker is to read them beside the sheets (several threads, a table no larger
// than the sheets), returns that job for load_sheets or stream_sheets and leaves the count
// unknown.
SharedStringsJob plan_shared_strings(const Package& package, WorkbookIndex& index, const LoadOptions& options,
                                     LoadBudgets& budgets, SheetParseContext& context, SpilledStrings* spill = nullptr);

// Runs attempt(options). A limit reached while several threads built the model may be the sum
// of what they held at that moment: after a limit error or a failed allocation the attempt is
// made again on one thread, in document order, so that its result or error is the same at every
// thread count.
template <class Attempt>
auto with_serial_retry(const LoadOptions& options, const std::string& label, Attempt&& attempt) {
  if (runs_parallel(options.threads)) {
    try {
      return attempt(options);
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::limit) throw;
    } catch (const std::bad_alloc&) {
    }
  }
  LoadOptions serial = options;
  serial.threads = 1;
  try {
    return attempt(serial);
  } catch (const std::bad_alloc&) {
    throw allocation_failure({label, "", std::nullopt});
  }
}

// Phase C for one worksheet: its comments, tables, drawings and their charts.
void read_sheet_extras(const Package& package, Sheet& sheet, const SheetOutput& output, const ScanLimits& limits,
                       const std::string& workbook_part, Budget& memory);

}  // namespace docconform::xlsx
