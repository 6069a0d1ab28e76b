// Streaming row reader for one worksheet: rows are visited in document order while the part
// is inflated piece by piece, so memory stays bounded by the largest row (plus one piece),
// not by the sheet. Shared strings are loaded first (they are needed to resolve cells).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

struct RowView {
  std::uint32_t number = 0;
  const Cell* cells = nullptr;
  std::size_t cell_count = 0;
  const Segment* segment = nullptr;        // owns the text of string, error and date cells
  const SharedStrings* shared = nullptr;   // for shared_string cells

  // The text of a string-like cell (shared, inline, str, error, date).
  std::u16string_view text(const Cell& cell) const {
    return cell.type == CellType::shared_string ? shared->at(cell.payload) : segment->cell_text(cell);
  }
};

struct RowReaderOptions {
  std::size_t piece_bytes = 256 << 10;  // inflated bytes read at a time
  InflaterKind inflater = default_inflater();
  Limits limits;
};

class RowReader {
 public:
  // Opens sheet number sheet_index (0-based, every sheet kind counted) of a file.
  RowReader(const std::string& path, std::size_t sheet_index, const RowReaderOptions& options = {});
  ~RowReader();
  RowReader(const RowReader&) = delete;
  RowReader& operator=(const RowReader&) = delete;

  // The next row, or false at the end of the sheet. The view is valid until the next call.
  bool next(RowView& row);

  const Workbook& workbook() const;  // names, states, shared strings (no cells)
  std::size_t peak_buffer_bytes() const;  // largest inflated window held at once

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Calls visit for every row of the sheet in order.
void for_each_row(const std::string& path, std::size_t sheet_index, const std::function<void(const RowView&)>& visit,
                  const RowReaderOptions& options = {});

}  // namespace docconform::xlsx
