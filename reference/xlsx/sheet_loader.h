// Phases A and B for the worksheets of a workbook: inflate each sheet part, split it at row
// boundaries into chunks, parse the chunks on the worker pool, then stitch each sheet's
// chunks together in document order (row numbers fixed up, boundaries verified, a sheet whose
// split turned out unsafe re-parsed whole). The first error in document order wins.
#pragma once

#include <exception>
#include <functional>
#include <optional>
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
  Growth memory;  // of a whole parse (parse_whole_part): what its segment charged to max_memory
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

// Joins one sheet's chunk results in document order as they come (numbering each chunk's
// leading relative rows from the rows before it) and decides, once the sheet has ended, what a
// stitch of the whole sheet would have done: keep the chunks, re-parse the part whole (a split
// point was not a row boundary, or an index may be past the shared string table), or fail with
// the first error in document order.
class ChunkStitcher {
 public:
  enum class Outcome : std::uint8_t { chunks, whole_unsafe, whole_indexes };

  ChunkStitcher(const Package& package, const std::string& part) : package_(package), part_(part) {}
  // Adds the next chunk; final says it ends the part. Its rows are numbered when no chunk
  // before it failed.
  void add(ChunkResult& result, const std::exception_ptr& error, bool final);
  // Whether the chunks so far are the sheet's rows (none failed): what a consumer may use.
  bool sound() const { return !failure_; }
  // After the last chunk: throws the sheet's error, or says what to do. shared_strings: the
  // table's size when indexes were not checked as the chunks were parsed.
  Outcome finish(const std::exception_ptr& stream_error, std::optional<std::size_t> shared_strings) const;
  std::size_t chunks() const { return chunks_; }

 private:
  const Package& package_;
  const std::string& part_;
  std::size_t chunks_ = 0;
  std::uint32_t previous_row_ = 0;
  std::uint64_t shared_string_bound_ = 0;
  bool parse_failed_ = false;  // a chunk's parse failed: later chunks do not count for safety
  bool unsafe_ = false;
  std::string open_names_;           // of the first chunk
  std::string last_closed_names_;    // of the last chunk, when it did not fail
  bool last_failed_ = false;
  std::exception_ptr failure_;       // the first row-range or parse error in document order
};

// Parses a worksheet part whole, in one chunk (the stitcher's fallback); charge = false reads
// again a part already counted against the inflate budget.
SheetOutput parse_whole_part(const Package& package, const std::string& part, const SheetParseContext& context);

// A consumer of parsed chunks in document order (the streamed dump): chunk() gets each chunk of
// each sheet (index into parts) in order, then sheet_end() the sheet's inflate error if any. One
// call at a time, on whichever worker is free; each result is freed after its call (its memory
// charge given back unless the consumer took it). At most `window` chunks are inflated and not
// yet consumed (plus one per worker), so memory is bounded by the window, not the sheet.
struct ChunkConsumer {
  std::size_t window = 8;
  bool charge_inflate = true;  // false: the parts were counted against the budget before
  std::function<void(std::size_t sheet, ChunkResult& result, const std::exception_ptr& error, bool final)> chunk;
  std::function<void(std::size_t sheet, const std::exception_ptr& stream_error)> sheet_end;
};

// Runs the pipeline of load_sheets over parts, handing every chunk to consumer in document
// order instead of keeping it. Returns the shared string table's size when shared_strings is
// given (its error is rethrown after the pipeline, as load_sheets does).
std::size_t stream_sheets(const Package& package, const std::vector<std::string>& parts,
                          const SheetParseContext& context, const LoadOptions& options, const ChunkConsumer& consumer,
                          const SharedStringsJob& shared_strings = {});

}  // namespace docconform::xlsx
