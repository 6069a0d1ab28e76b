// The lines of the canonical dump (conformance/SPEC.md, format xlsx), shared by the dump of a
// loaded workbook and the streamed dump, which writes a sheet's cells as they are parsed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

class SpilledStrings;

// Which cells the merged ranges hide: a cell inside a range other than its top-left one. Asked
// about cells in (row, column) order, it keeps the ranges that span the current row as a count
// per column (a Fenwick tree over the columns: a range adds one over its columns from its top
// row, and takes it away after its bottom row); a cell is hidden when more ranges cover it than
// have it as their top-left cell. O((cells + ranges) log columns), where testing each cell
// against each range took 4 s for 50,000 merges.
class MergeCover {
 public:
  explicit MergeCover(const std::vector<std::u16string>& merged_cells);
  // Rows must not decrease from one call to the next.
  bool hides(std::uint32_t row, std::uint32_t column);

 private:
  struct Event {
    std::uint32_t row, left, right;
    std::int32_t delta;
  };
  void add(std::uint32_t column, std::int64_t delta);
  std::int64_t covered(std::uint32_t column) const;  // ranges over this column in the current row

  std::vector<Event> events_;
  std::size_t next_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> corners_;  // (top, left), sorted
  std::vector<std::int64_t> counts_;  // Fenwick tree of range starts and ends, by column
};

// Whether cells seen in document order come strictly by (row, column): then the dump writes
// them where they lie, with nothing to reorder or drop.
class CellOrder {
 public:
  void add(std::uint32_t row, std::uint32_t column) {
    if (seen_ && (row < row_ || (row == row_ && column <= column_))) in_order_ = false;
    seen_ = true;
    row_ = row;
    column_ = column;
  }
  void add(const Segment& segment) {
    for (const Row& row : segment.rows) {
      for (std::uint32_t i = row.first_cell; i < row.first_cell + row.cell_count; ++i) add(row.number, segment.cells[i].column);
    }
  }
  bool in_order() const { return in_order_; }

 private:
  std::uint32_t row_ = 0, column_ = 0;
  bool seen_ = false, in_order_ = true;
};

// The cells a sheet's one pass wrote, for its merged ranges, which come after them: the first
// cells exactly, and the rows and columns each chunk spans. Cells must come in (row, column) order.
class WrittenCells {
 public:
  // Cells kept exactly (8 bytes each): a sheet's header rows, where ranges usually lie.
  static constexpr std::size_t kept_cells = 1 << 16;

  void add(const Segment& segment);
  void clear();
  // Whether the ranges may hide a written cell: exact over the cells kept (MergeCover), else
  // false only when no range meets a chunk's span; gives up (true) after a number of those
  // comparisons linear in the ranges and the chunks.
  bool may_hide_any(const std::vector<std::u16string>& merged_cells) const;

 private:
  struct Span {
    std::uint32_t first_row, last_row, first_column, last_column;
  };
  std::vector<Span> spans_;                                     // one a chunk with cells
  std::vector<std::pair<std::uint32_t, std::uint32_t>> first_;  // (row, column) of the first cells
  bool all_kept_ = true;
};

class DumpWriter {
 public:
  // The last piece is flushed by end(): a sink may throw (a full disk, an output limit), and a
  // destructor must not.
  // spilled, when it took the table, holds the shared strings instead of the workbook.
  DumpWriter(const Workbook& workbook, const std::function<void(std::string_view)>& sink,
             SpilledStrings* spilled = nullptr);
  void begin();                       // the header and workbook lines
  void sheet_begin(std::size_t index);  // the sheet line
  // The cells of a segment whose cells continue the sheet's in (row, column) order.
  void cells_in_order(const Segment& segment, MergeCover& cover);
  // Every cell of a sheet held whole, by (row, column), the last of duplicates kept.
  void cells(const Sheet& sheet);
  void sheet_end(std::size_t index);  // merges, comments, tables, charts
  void end();
  // Passes the lines written so far on to the sink (before a point the output may go back to).
  void flush();

 private:
  void line_done();
  void cell(const Segment& segment, const Cell& cell, std::uint32_t row);

  const Workbook& workbook_;
  SpilledStrings* spilled_;
  const std::function<void(std::string_view)>& sink_;
  std::string out_;
};

}  // namespace docconform::xlsx
