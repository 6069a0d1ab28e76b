#include "docconform/xlsx/dump.h"

#include <algorithm>

#include "docconform/canonical.h"
#include "docconform/sha256.h"
#include "dump_writer.h"
#include "sheet_parser.h"
#include "spilled_strings.h"

namespace docconform::xlsx {
namespace {

struct Position {
  std::uint32_t row, column, segment, cell;
};

const char* state_name(SheetState s) {
  switch (s) {
    case SheetState::visible: return "visible";
    case SheetState::hidden: return "hidden";
    case SheetState::very_hidden: return "veryHidden";
  }
  return "visible";
}

const char* kind_name(SheetKind k) {
  switch (k) {
    case SheetKind::worksheet: return "worksheet";
    case SheetKind::chartsheet: return "chartsheet";
    case SheetKind::dialogsheet: return "dialogsheet";
    case SheetKind::macrosheet: return "macrosheet";
    case SheetKind::intlmacrosheet: return "intlmacrosheet";
  }
  return "worksheet";
}

const char* formula_kind(FormulaKind k) {
  switch (k) {
    case FormulaKind::normal: return "normal";
    case FormulaKind::shared: return "shared";
    case FormulaKind::array: return "array";
    case FormulaKind::data_table: return "dataTable";
  }
  return "normal";
}

// Calls visit(position) for every cell of the segments in document order.
template <class Visit>
void for_each_cell(const Sheet& sheet, Visit visit) {
  for (std::uint32_t s = 0; s < sheet.segments.size(); ++s) {
    const Segment& seg = sheet.segments[s];
    for (const Row& row : seg.rows) {
      for (std::uint32_t i = row.first_cell; i < row.first_cell + row.cell_count; ++i) {
        visit(Position{row.number, seg.cells[i].column, s, i});
      }
    }
  }
}

// Calls visit(position) for cells by (row, column); of duplicates the last in document order
// stays. Cells already in order, the common case, are visited where they lie, without a list of
// every position (16 bytes a cell).
template <class Visit>
void for_each_cell_in_order(const Sheet& sheet, Visit visit) {
  CellOrder order;
  for (const Segment& segment : sheet.segments) order.add(segment);
  if (order.in_order()) {
    for_each_cell(sheet, visit);
    return;
  }
  std::vector<Position> cells;
  cells.reserve(sheet.cell_count());
  for_each_cell(sheet, [&](const Position& p) { cells.push_back(p); });
  std::stable_sort(cells.begin(), cells.end(), [](const Position& a, const Position& b) {
    return a.row != b.row ? a.row < b.row : a.column < b.column;
  });
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const bool replaced = i + 1 < cells.size() && cells[i + 1].row == cells[i].row && cells[i + 1].column == cells[i].column;
    if (!replaced) visit(cells[i]);
  }
}

// Comment position for ordering: (row, column) of its ref, unparsable refs last.
std::pair<std::uint64_t, std::uint64_t> comment_key(const std::u16string& ref) {
  std::string ascii;
  for (char16_t c : ref) ascii += c < 0x80 ? static_cast<char>(c) : '?';
  std::uint32_t column = 0, row = 0;
  if (!parse_cell_ref({reinterpret_cast<const std::uint8_t*>(ascii.data()), ascii.size()}, column, row)) {
    return {~0ull, ~0ull};
  }
  return {row, column};
}

struct Area {
  std::uint32_t top, left, bottom, right;
};

bool parse_ref16(std::u16string_view text, std::uint32_t& column, std::uint32_t& row) {
  std::string ascii;
  for (char16_t c : text) {
    if (c >= 0x80 || c == '$') {
      if (c == '$') continue;
      return false;
    }
    ascii += static_cast<char>(c);
  }
  return parse_cell_ref({reinterpret_cast<const std::uint8_t*>(ascii.data()), ascii.size()}, column, row) &&
         column > 0 && row > 0;
}

// Merged ranges that parse as A1:B2 rectangles.
std::vector<Area> merged_areas(const std::vector<std::u16string>& merged_cells) {
  std::vector<Area> out;
  for (const auto& m : merged_cells) {
    const std::size_t colon = m.find(u':');
    if (colon == std::u16string::npos) continue;
    Area a;
    if (parse_ref16(std::u16string_view(m).substr(0, colon), a.left, a.top) &&
        parse_ref16(std::u16string_view(m).substr(colon + 1), a.right, a.bottom)) {
      out.push_back(a);
    }
  }
  return out;
}

}  // namespace

MergeCover::MergeCover(const std::vector<std::u16string>& merged_cells) {
  for (const Area& a : merged_areas(merged_cells)) {
    // A reversed range covers nothing; no cell lies past the last row or column.
    if (a.top > a.bottom || a.left > a.right || a.top > max_rows || a.left > max_columns) continue;
    const std::uint32_t right = std::min(a.right, max_columns);
    events_.push_back({a.top, a.left, right, 1});
    events_.push_back({a.bottom + 1, a.left, right, -1});
    corners_.emplace_back(a.top, a.left);
  }
  std::sort(events_.begin(), events_.end(), [](const Event& x, const Event& y) { return x.row < y.row; });
  std::sort(corners_.begin(), corners_.end());
  if (!events_.empty()) counts_.assign(max_columns + 2, 0);
}

void WrittenCells::add(const Segment& segment) {
  if (segment.cells.empty()) return;
  Span e{UINT32_MAX, 0, UINT32_MAX, 0};
  for (const Row& row : segment.rows) {
    if (row.cell_count == 0) continue;
    e.first_row = std::min(e.first_row, row.number);
    e.last_row = std::max(e.last_row, row.number);
    for (std::uint32_t i = row.first_cell; i < row.first_cell + row.cell_count && all_kept_; ++i) {
      if (first_.size() == kept_cells) {
        all_kept_ = false;
        break;
      }
      first_.emplace_back(row.number, segment.cells[i].column);
    }
  }
  for (const Cell& c : segment.cells) {
    e.first_column = std::min<std::uint32_t>(e.first_column, c.column);
    e.last_column = std::max<std::uint32_t>(e.last_column, c.column);
  }
  spans_.push_back(e);
}

void WrittenCells::clear() {
  spans_.clear();
  first_.clear();
  all_kept_ = true;
}

bool WrittenCells::may_hide_any(const std::vector<std::u16string>& merged_cells) const {
  if (merged_cells.empty() || spans_.empty()) return false;
  // The cells kept, exactly, by the rule the dump drops cells by.
  MergeCover cover(merged_cells);
  for (const auto& [row, column] : first_) {
    if (cover.hides(row, column)) return true;
  }
  if (all_kept_) return false;
  // Every written cell of the rows before the last kept one is kept; a range that reaches that
  // row may hide one that is not: it is met against the chunks' spans, whose rows do not
  // decrease, so those that meet the range's rows are a run starting at the first that ends at
  // or after its top.
  const std::vector<Area> areas = merged_areas(merged_cells);
  std::size_t budget = 8 * (areas.size() + spans_.size()) + 1024;
  for (const Area& a : areas) {
    if (a.top > a.bottom || a.left > a.right || a.bottom < first_.back().first) continue;
    auto e = std::partition_point(spans_.begin(), spans_.end(), [&](const Span& x) { return x.last_row < a.top; });
    for (; e != spans_.end() && e->first_row <= a.bottom; ++e) {
      if (budget-- == 0) return true;
      if (e->first_column <= a.right && a.left <= e->last_column) return true;
    }
  }
  return false;
}

bool MergeCover::hides(std::uint32_t row, std::uint32_t column) {
  if (events_.empty()) return false;
  for (; next_ < events_.size() && events_[next_].row <= row; ++next_) {
    add(events_[next_].left, events_[next_].delta);
    add(events_[next_].right + 1, -events_[next_].delta);
  }
  const std::int64_t covering = covered(column);
  if (covering == 0) return false;
  const auto [first, last] = std::equal_range(corners_.begin(), corners_.end(), std::pair(row, column));
  return covering > last - first;
}

void MergeCover::add(std::uint32_t column, std::int64_t delta) {
  for (std::size_t i = column; i < counts_.size(); i += i & (~i + 1)) counts_[i] += delta;
}

std::int64_t MergeCover::covered(std::uint32_t column) const {
  std::int64_t sum = 0;
  for (std::size_t i = column; i > 0; i -= i & (~i + 1)) sum += counts_[i];
  return sum;
}

DumpWriter::DumpWriter(const Workbook& workbook, const std::function<void(std::string_view)>& sink,
                       SpilledStrings* spilled)
    : workbook_(workbook), spilled_(spilled != nullptr && spilled->taken() ? spilled : nullptr), sink_(sink) {
  out_.reserve(1 << 16);
}

void DumpWriter::line_done() {
  out_ += '\n';
  if (out_.size() >= (1 << 16) - 1024) {
    sink_(out_);
    out_.clear();
  }
}

void DumpWriter::cell(const Segment& seg, const Cell& c, std::uint32_t row) {
  std::string& o = out_;
  o += "cell ";
  o += column_letters(c.column);
  o += std::to_string(row);
  switch (c.type) {
    case CellType::blank: o += " blank"; break;
    case CellType::number:
      o += " n ";
      append_number(o, c.number());
      break;
    case CellType::shared_string:
      o += " s ";
      append_quoted(o, spilled_ != nullptr ? spilled_->at(c.payload) : workbook_.shared_strings.at(c.payload));
      break;
    case CellType::string:
      o += " s ";
      append_quoted(o, seg.cell_text(c));
      break;
    case CellType::boolean: o += c.payload ? " b true" : " b false"; break;
    case CellType::error:
      o += " e ";
      append_quoted(o, seg.cell_text(c));
      break;
    case CellType::date:
      o += " d ";
      append_quoted(o, seg.cell_text(c));
      break;
  }
  line_done();
  if (c.formula != no_formula) {
    const Formula& f = seg.formulas[c.formula];
    o += "formula ";
    o += formula_kind(f.kind);
    if (f.si >= 0) {
      o += " si=";
      o += std::to_string(f.si);
    }
    if (f.ref.length > 0) {
      o += " ref=";
      append_quoted(o, seg.text(f.ref));
    }
    o += ' ';
    append_quoted(o, seg.text(f.text));
    line_done();
  }
}

void DumpWriter::begin() {
  out_ += dump_header("xlsx", dump_version);
  line_done();
  out_ += "workbook date1904=";
  out_ += workbook_.date1904 ? "true" : "false";
  out_ += " sheets=" + std::to_string(workbook_.sheets.size());
  line_done();
}

void DumpWriter::sheet_begin(std::size_t index) {
  const Sheet& sheet = workbook_.sheets[index];
  out_ += "sheet " + std::to_string(index + 1) + " ";
  append_quoted(out_, sheet.name);
  out_ += ' ';
  out_ += state_name(sheet.state);
  out_ += ' ';
  out_ += kind_name(sheet.kind);
  line_done();
}

void DumpWriter::cells_in_order(const Segment& seg, MergeCover& cover) {
  for (const Row& row : seg.rows) {
    for (std::uint32_t i = row.first_cell; i < row.first_cell + row.cell_count; ++i) {
      if (!cover.hides(row.number, seg.cells[i].column)) cell(seg, seg.cells[i], row.number);
    }
  }
}

void DumpWriter::cells(const Sheet& sheet) {
  MergeCover cover(sheet.merged_cells);
  for_each_cell_in_order(sheet, [&](const Position& p) {
    if (cover.hides(p.row, p.column)) return;
    const Segment& seg = sheet.segments[p.segment];
    cell(seg, seg.cells[p.cell], p.row);
  });
}

void DumpWriter::sheet_end(std::size_t index) {
  const Sheet& sheet = workbook_.sheets[index];
  std::string& o = out_;
  std::vector<std::u16string> merged = sheet.merged_cells;
  std::sort(merged.begin(), merged.end());
  for (const auto& m : merged) {
    o += "merge ";
    append_quoted(o, m);
    line_done();
  }
  std::vector<const Comment*> comments;
  for (const auto& c : sheet.comments) comments.push_back(&c);
  std::stable_sort(comments.begin(), comments.end(),
                   [](const Comment* a, const Comment* b) { return comment_key(a->ref) < comment_key(b->ref); });
  for (const Comment* c : comments) {
    o += "comment ";
    append_quoted(o, c->ref);
    o += ' ';
    append_quoted(o, c->author);
    o += ' ';
    append_quoted(o, c->text);
    line_done();
  }
  for (const auto& t : sheet.tables) {
    o += "table ";
    append_quoted(o, t.name);
    o += ' ';
    append_quoted(o, t.ref);
    line_done();
  }
  if (!sheet.charts.empty()) {
    o += "charts " + std::to_string(sheet.charts.size());
    line_done();
  }
}

void DumpWriter::end() {
  out_ += "end";
  line_done();
  flush();
}

void DumpWriter::flush() {
  if (!out_.empty()) sink_(out_);
  out_.clear();
}

void write_dump(const Workbook& wb, const std::function<void(std::string_view)>& sink) {
  DumpWriter w(wb, sink);
  w.begin();
  for (std::size_t i = 0; i < wb.sheets.size(); ++i) {
    w.sheet_begin(i);
    w.cells(wb.sheets[i]);
    w.sheet_end(i);
  }
  w.end();
}

std::string dump(const Workbook& workbook) {
  std::string out;
  write_dump(workbook, [&](std::string_view piece) { out.append(piece); });
  return out;
}

std::string dump_sha256(const Workbook& workbook) {
  Sha256 hash;
  write_dump(workbook, [&](std::string_view piece) { hash.update(piece); });
  return hash.final_hex();
}

}  // namespace docconform::xlsx
