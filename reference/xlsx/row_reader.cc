#include "docconform/xlsx/row_reader.h"

#include "docconform/error.h"
#include "package.h"
#include "sheet_parser.h"
#include "walk.h"

namespace docconform::xlsx {

struct RowReader::State {
  FileMapping mapping;
  Package package;
  Workbook workbook;
  std::string part;
  SheetParseContext context;
  std::unique_ptr<PartStream> stream;
  std::string buffer;            // inflated bytes not yet parsed
  std::uint64_t buffer_base = 0;  // offset of buffer[0] in the part
  ChunkStart start = ChunkStart::document;
  std::uint32_t previous_row = 0;
  ChunkResult chunk;
  std::size_t next_row = 0;  // in chunk.segment.rows
  bool finished = false;
  std::size_t piece;
  std::size_t peak = 0;
  TextCollector collector;

  State(const std::string& path, const RowReaderOptions& options)
      : mapping(path), package(reinterpret_cast<const std::uint8_t*>(mapping.bytes().data()), mapping.bytes().size(),
                               path, options.limits, options.inflater),
        piece(std::max<std::size_t>(options.piece_bytes, 64)) {}

  // Parses what the buffer holds up to its last row boundary; false when nothing is left.
  bool refill() {
    for (;;) {
      if (finished) return false;
      const std::size_t n = stream->read(buffer, piece);
      const bool final = n == 0;
      peak = std::max(peak, buffer.size());
      chunk = ChunkResult{};
      next_row = 0;
      parse_sheet_chunk(reinterpret_cast<const std::uint8_t*>(buffer.data()), buffer.size(), buffer_base, start,
                        previous_row, final, context, collector, chunk);
      Segment& seg = chunk.segment;
      if (final) {
        finished = true;
        std::string().swap(buffer);  // frees it (assigning std::string() keeps the capacity)
      } else {
        // Keep the rows before the last boundary; the bytes after it are parsed again later.
        seg.rows.resize(chunk.safe_rows);
        seg.cells.resize(chunk.safe_cells);
        seg.formulas.resize(chunk.safe_formulas);
        seg.arena.resize(chunk.safe_arena);
        if (chunk.safe_bytes == 0) continue;  // not even one boundary yet: read more
        buffer.erase(0, chunk.safe_bytes);
        buffer_base += chunk.safe_bytes;
        start = ChunkStart::rows;
      }
      if (!seg.rows.empty()) {
        previous_row = seg.rows.back().number;
        return true;
      }
      if (finished) return false;
    }
  }
};

RowReader::RowReader(const std::string& path, std::size_t sheet_index, const RowReaderOptions& options)
    : state_(std::make_unique<State>(path, options)) {
  State& s = *state_;
  LoadOptions load;
  load.threads = 1;
  load.limits = options.limits;
  WorkbookIndex index = index_workbook(s.package, load);
  if (!index.shared_strings_part.empty()) {
    read_shared_strings_part(s.package, index.shared_strings_part, load, index.workbook.shared_strings);
  }
  s.workbook = std::move(index.workbook);
  const auto& parts = index.worksheet_parts;
  const auto& of_sheet = index.worksheet_of_sheet;
  if (sheet_index >= s.workbook.sheets.size()) {
    throw Error(ErrorKind::range, {path, "", std::nullopt},
                "sheet " + std::to_string(sheet_index) + " does not exist (the workbook has " +
                    std::to_string(s.workbook.sheets.size()) + ")");
  }
  s.context.shared_strings = s.workbook.shared_strings.items.size();
  s.context.limits = scan_limits(options.limits);
  s.context.max_row_bytes = options.limits.max_row_bytes;
  if (of_sheet[sheet_index] == static_cast<std::size_t>(-1)) {
    s.finished = true;  // a chartsheet has no rows
    return;
  }
  s.part = parts[of_sheet[sheet_index]];
  s.stream = std::make_unique<PartStream>(s.package, s.part);
}

RowReader::~RowReader() = default;

bool RowReader::next(RowView& row) {
  State& s = *state_;
  try {
    // Rows come from the file as it was: the guard's flag per row, its size before each refill.
    if (s.mapping.truncated()) s.mapping.verify_unchanged();
    if (s.next_row >= s.chunk.segment.rows.size()) {
      const bool more = s.refill();
      s.mapping.verify_unchanged();
      if (!more) return false;
    }
  } catch (const Error& e) {
    throw e.with_file(s.package.label()).with_part(s.part);
  }
  const Segment& seg = s.chunk.segment;
  const Row& r = seg.rows[s.next_row++];
  row.number = r.number;
  row.cells = seg.cells.data() + r.first_cell;
  row.cell_count = r.cell_count;
  row.segment = &seg;
  row.shared = &s.workbook.shared_strings;
  return true;
}

const Workbook& RowReader::workbook() const { return state_->workbook; }
std::size_t RowReader::peak_buffer_bytes() const { return state_->peak; }

void for_each_row(const std::string& path, std::size_t sheet_index, const std::function<void(const RowView&)>& visit,
                  const RowReaderOptions& options) {
  RowReader reader(path, sheet_index, options);
  RowView row;
  while (reader.next(row)) visit(row);
}

}  // namespace docconform::xlsx
