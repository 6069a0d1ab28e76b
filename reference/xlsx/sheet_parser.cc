#include "sheet_parser.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <new>

#include "docconform/error.h"
#include "rich_text.h"
#include "shape_match.h"

namespace docconform::xlsx {
namespace {

// Clinger's fast path: "[-]digits[.digits]" with at most 15 digits is a mantissa below 2^53
// and a power of ten up to 1e15, both exact, so one division rounds correctly. Anything else
// returns false and goes to std::from_chars.
bool parse_short_decimal(const std::uint8_t* p, const std::uint8_t* end, double& value) {
  static constexpr double powers[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  const bool negative = p < end && *p == '-';
  p += negative;
  if (end - p > 16 || p == end) return false;
  std::uint64_t mantissa = 0;
  int digits = 0, fraction = -1;  // fraction: digits after the point, -1 before it
  for (; p < end; ++p) {
    const unsigned digit = static_cast<unsigned>(*p) - '0';
    if (digit <= 9) {
      mantissa = mantissa * 10 + digit;
      ++digits;
      fraction += fraction >= 0;
    } else if (*p == '.' && fraction < 0 && digits > 0) {
      fraction = 0;
    } else {
      return false;
    }
  }
  if (digits > 15 || fraction == 0) return false;
  // Integers need no division (its latency shows in profiles of number-heavy sheets).
  const double v = fraction < 0 ? static_cast<double>(mantissa) : static_cast<double>(mantissa) / powers[fraction];
  value = negative ? -v : v;
  return true;
}

// xsd:double text, correctly rounded (std::from_chars); a leading '+' is allowed. Of the
// special values only xsd's own spellings: INF, +INF, -INF and NaN (from_chars would also take
// inf, infinity and nan(...) in any case).
bool parse_double(Span s, double& value) {
  s = trim(s);
  if (parse_short_decimal(s.data, s.data + s.size, value)) return true;
  const char* b = reinterpret_cast<const char*>(s.data);
  const char* e = b + s.size;
  const std::string_view text(b, static_cast<std::size_t>(e - b));
  if (text == "INF" || text == "+INF" || text == "-INF" || text == "NaN") {
    value = text == "NaN" ? std::numeric_limits<double>::quiet_NaN()
                          : (text[0] == '-' ? -1 : 1) * std::numeric_limits<double>::infinity();
    return true;
  }
  if (b < e && *b == '+' && e - b > 1 && *(b + 1) != '-' && *(b + 1) != '+') ++b;
  const char* digits = b < e && *b == '-' ? b + 1 : b;
  if (digits == e || (*digits != '.' && (*digits < '0' || *digits > '9'))) return false;
  const auto r = std::from_chars(b, e, value, std::chars_format::general);
  if (r.ptr != e) return false;
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow to infinity or underflow to zero, rounded as strtod does.
    const std::string copy(b, e);
    value = std::strtod(copy.c_str(), nullptr);
    return true;
  }
  return r.ec == std::errc();
}

enum class CellTag : std::uint8_t { n, s, str, inline_str, b, e, d };

bool parse_cell_type(Span t, CellTag& tag) {
  switch (t.size) {
    case 1:
      switch (t.data[0]) {
        case 'n': tag = CellTag::n; return true;
        case 's': tag = CellTag::s; return true;
        case 'b': tag = CellTag::b; return true;
        case 'e': tag = CellTag::e; return true;
        case 'd': tag = CellTag::d; return true;
        default: return false;
      }
    case 3:
      if (span_is(t, "str")) {
        tag = CellTag::str;
        return true;
      }
      return false;
    case 9:
      if (span_is(t, "inlineStr")) {
        tag = CellTag::inline_str;
        return true;
      }
      return false;
    default: return false;
  }
}

class SheetParser {
 public:
  SheetParser(XmlScanner& scanner, const SheetParseContext& context, TextCollector& collector, ChunkResult& out,
              std::optional<std::uint32_t> previous_row)
      : sc_(scanner), ctx_(context), col_(collector), out_(out), seg_(out.segment),
        relative_(!previous_row.has_value()), previous_row_(previous_row.value_or(0)),
        row_gap_start_(scanner.position()) {}

  void run(bool in_sheet_data) {
    in_sheet_data_ = in_sheet_data;
    if (in_sheet_data_) mark_safe();
    Span parent2;
    for (;;) {
      if (ctx_.shortcut && in_sheet_data_ && sc_.depth() == 2) {
        const std::uint8_t* const row = sc_.cursor();
        const std::uint8_t* const after = match_row_start(row, sc_.input_end(), row_shape_);
        if (after && sc_.take_start_tag(after, {row + 1, 3}, row_shape_.attributes, row_shape_.count)) {
          read_row();
          continue;
        }
      }
      const Token t = next_token(sc_);
      if (t == Token::end_of_input) {
        check_row_gap(sc_.position());
        return;
      }
      if (t == Token::end) {
        if (sc_.depth() == 1) in_sheet_data_ = false;  // </sheetData> or another top-level child
        continue;
      }
      if (t != Token::start) continue;
      const std::size_t d = sc_.depth();
      const Span name = sc_.local();
      if (d == 3 && in_sheet_data_) {
        if (span_is(name, "row")) {
          read_row();
        } else {
          skip_element(sc_);
          mark_safe();
        }
      } else if (d == 2) {
        parent2 = name;
        if (span_is(name, "sheetData")) {
          in_sheet_data_ = true;
          mark_safe();
        } else if (span_is(name, "drawing")) {
          if (const auto* id = relationship_id()) {
            out_.drawing_ids.push_back({attribute_bytes(*id, sc_.token_offset()), sc_.token_offset()});
          }
          skip_element(sc_);
        } else if (!span_is(name, "mergeCells") && !span_is(name, "tableParts")) {
          skip_element(sc_);
        }
      } else if (d == 3) {
        if (span_is(parent2, "mergeCells") && span_is(name, "mergeCell")) {
          if (const auto* ref = sc_.attribute("ref")) {
            out_.merged_cells.push_back(attribute_text(*ref, sc_.token_offset()));
            merged_bytes_ += sizeof(std::u16string) + out_.merged_cells.back().size() * sizeof(char16_t);
            account(sc_.token_offset(), false);
          }
        } else if (span_is(parent2, "tableParts") && span_is(name, "tablePart")) {
          if (const auto* id = relationship_id()) {
            out_.table_ids.push_back({attribute_bytes(*id, sc_.token_offset()), sc_.token_offset()});
          }
        }
        skip_element(sc_);
      }
    }
  }

  bool in_sheet_data() const { return in_sheet_data_; }

 private:
  // r:id (the relationships namespace is bound to some prefix; match the prefixed "id").
  const Attribute* relationship_id() const {
    for (const auto& a : sc_.attributes()) {
      if (span_is(a.local, "id") && a.prefix.size > 0) return &a;
    }
    return nullptr;
  }

  // The streaming loader holds the XML between two row starts at once: bound it the same way
  // whether the part is parsed whole or in chunks (each chunk starts at a row start).
  void check_row_gap(std::uint64_t offset) const {
    if (offset - row_gap_start_ <= ctx_.max_row_bytes) return;
    throw Error(ErrorKind::limit, {"", "", offset},
                std::to_string(offset - row_gap_start_) + " bytes of sheet XML without a row start exceed max_row_bytes (" +
                    std::to_string(ctx_.max_row_bytes) + ")");
  }

  // The row whose start tag was just read, up to its end.
  void read_row() {
    check_row_gap(sc_.token_offset());
    row_gap_start_ = sc_.token_offset();
    parse_row();
    mark_safe();
  }

  void mark_safe() {
    out_.safe_bytes = sc_.consumed();
    out_.safe_rows = seg_.rows.size();
    out_.safe_cells = seg_.cells.size();
    out_.safe_formulas = seg_.formulas.size();
    out_.safe_arena = seg_.arena.size();
  }

  [[noreturn]] void range_error(std::uint64_t offset, const std::string& message) const {
    throw Error(ErrorKind::range, {"", "", offset}, message);
  }

  struct RowState {
    bool implicit = true;           // number implied by the previous row
    bool counted_relative = false;  // counted in relative_rows
    std::uint32_t cells = 0;
  };

  void parse_row() {
    Row row;
    row.offset = sc_.token_offset();
    row.first_cell = static_cast<std::uint32_t>(seg_.cells.size());
    RowState state;
    if (const auto* r = sc_.attribute("r")) {
      std::uint64_t n = 0;
      if (!parse_uint(r->value, n)) sc_.fail("row number is not an integer");
      if (n < 1 || n > max_rows) range_error(row.offset, "row " + std::to_string(n) + " is outside 1..1048576");
      row.number = static_cast<std::uint32_t>(n);
      state.implicit = false;
      seen_explicit_ = true;
    } else {
      row.number = previous_row_ + 1;
      if (relative_ && !seen_explicit_) {
        ++out_.relative_rows;
        state.counted_relative = true;
      } else if (row.number > max_rows) {
        range_error(row.offset, "implied row " + std::to_string(row.number) + " is beyond row 1048576");
      }
    }
    std::uint32_t previous_column = 0;
    const std::size_t depth = sc_.depth();
    for (;;) {
      if (ctx_.shortcut) {
        const std::uint8_t* const after = match_cell_shape(sc_.cursor(), sc_.input_end(), shape_);
        if (after && sc_.take_element(after, shape_.has_value ? 2 : 1, shape_.longest_token, shape_.attributes)) {
          add_shaped_cell(row, state, previous_column);
          continue;
        }
        const std::uint8_t* const end_tag = sc_.cursor();
        if (const std::uint8_t* const after_end = match_row_end(end_tag, sc_.input_end());
            after_end && sc_.take_end_tag(after_end, {end_tag + 2, 3})) {
          break;
        }
        if (sc_.try_simple_element("c", "v", simple_)) {
          add_simple_cell(row, state, previous_column);
          continue;
        }
      }
      const Token t = next_token(sc_);
      if (t == Token::end) {
        if (sc_.depth() < depth) break;
        continue;
      }
      if (t == Token::end_of_input) unexpected_end(sc_, "unexpected end of part inside a row");
      if (t != Token::start) continue;
      if (sc_.depth() == depth + 1 && span_is(sc_.local(), "c")) {
        parse_cell(row, state, previous_column);
      } else {
        skip_element(sc_);
      }
    }
    row.cell_count = static_cast<std::uint32_t>(seg_.cells.size() - row.first_cell);
    previous_row_ = row.number;
    seg_.rows.push_back(row);
    account(row.offset, false);
  }

 public:
  // Charges the model built so far to the load's budgets: in steps, or all of it (final).
  void account(std::uint64_t offset, bool final) {
    if (ctx_.budgets == nullptr) return;
    const auto where = [&] { return ErrorContext{"", "", offset}; };
    out_.cells.update(&ctx_.budgets->cells, seg_.cells.size(), final ? 0 : cells_per_charge, where);
    const std::uint64_t bytes = seg_.rows.size() * sizeof(Row) + seg_.cells.size() * sizeof(Cell) +
                                seg_.formulas.size() * sizeof(Formula) + seg_.arena.size() * sizeof(char16_t) +
                                merged_bytes_;
    out_.memory.update(&ctx_.budgets->memory, bytes, final ? 0 : bytes_per_charge, where);
  }

 private:
  static constexpr std::uint64_t cells_per_charge = 1 << 16, bytes_per_charge = 1 << 20;

  // The attributes r, s and t of the cell whose start tag was just read, in document order.
  Cell begin_cell(const Attribute* first, const Attribute* last, Row& row, RowState& state,
                  std::uint32_t& previous_column, CellTag& tag) {
    const std::uint64_t offset = sc_.token_offset();
    Cell cell;
    std::uint32_t column = 0;
    for (; first != last; ++first) {
      const Attribute& a = *first;
      if (a.prefix.size != 0 || a.local.size != 1) continue;
      switch (a.local.data[0]) {
        case 'r': cell_reference(a.value, offset, row, state, column); break;
        case 's': cell_style(a.value, cell); break;
        case 't': cell_type(a.value, tag); break;
        default: break;
      }
    }
    place_cell(cell, column, offset, state, previous_column);
    return cell;
  }

  // r: the cell's column, and its row's number when the row has none.
  void cell_reference(Span value, std::uint64_t offset, Row& row, RowState& state, std::uint32_t& column) {
    std::uint32_t ref_row = 0;
    // ST_CellRef: column letters, then a row number (ECMA-376 Part 1 18.18.7).
    if (!parse_cell_ref(value, column, ref_row) || column == 0 || ref_row == 0) sc_.fail("malformed cell reference");
    if (column > max_columns || ref_row > max_rows) {
      range_error(offset, "cell reference " + std::string(value.view()) + " is outside A1:XFD1048576");
    }
    if (state.implicit && state.cells == 0) {
      // A row without r whose first cell carries a reference: the cell numbers the row.
      if (state.counted_relative) --out_.relative_rows;
      state.counted_relative = false;
      row.number = ref_row;
      state.implicit = false;
      seen_explicit_ = true;
    } else if (!state.implicit && ref_row != row.number) {
      sc_.fail("cell reference names another row than its <row>");
    }
  }

  void cell_style(Span value, Cell& cell) {
    std::uint64_t style = 0;  // s="" means the default, as s absent does
    if ((trim(value).size != 0 && !parse_uint(value, style)) || style > 0xFFFFFFFFu) sc_.fail("style index is not an integer");
    cell.style = static_cast<std::uint32_t>(style);
  }

  void cell_type(Span value, CellTag& tag) {
    if (!parse_cell_type(value, tag)) sc_.fail("unknown cell type");
  }

  // The column is the cell's own, or (0) the one after the previous cell's.
  void place_cell(Cell& cell, std::uint32_t column, std::uint64_t offset, RowState& state, std::uint32_t& previous_column) {
    if (column == 0) {
      column = previous_column + 1;
      if (column > max_columns) range_error(offset, "implied column is beyond column XFD (16384)");
    }
    previous_column = column;
    ++state.cells;
    cell.column = static_cast<std::uint16_t>(column);
  }

  // A cell matched byte for byte (shape_match.h): its attributes come in the order r, s, t.
  [[gnu::flatten]] void add_shaped_cell(Row& row, RowState& state, std::uint32_t& previous_column) {
    const std::uint64_t offset = sc_.token_offset();
    CellTag tag = CellTag::n;
    // Built in place: copying a cell just written field by field stalls on store forwarding.
    Cell& cell = seg_.cells.emplace_back();
    std::uint32_t column = 0;
    if (shape_.r.data) cell_reference(shape_.r, offset, row, state, column);
    if (shape_.s.data) cell_style(shape_.s, cell);
    if (shape_.t.data) cell_type(shape_.t, tag);
    place_cell(cell, column, offset, state, previous_column);
    if (shape_.has_value && tag != CellTag::inline_str) set_value(cell, tag, shape_.value, offset + shape_.value_offset);
  }

  // A cell read whole by the scanner's shortcut: <c ...>, at most a <v>, </c>.
  void add_simple_cell(Row& row, RowState& state, std::uint32_t& previous_column) {
    CellTag tag = CellTag::n;
    Cell cell = begin_cell(simple_.outer, simple_.outer + simple_.outer_count, row, state, previous_column, tag);
    if (simple_.has_inner && tag != CellTag::inline_str) set_value(cell, tag, simple_.text, simple_.inner_offset);
    seg_.cells.push_back(cell);
  }

  void parse_cell(Row& row, RowState& state, std::uint32_t& previous_column) {
    CellTag tag = CellTag::n;
    const auto& attributes = sc_.attributes();
    Cell cell = begin_cell(attributes.data(), attributes.data() + attributes.size(), row, state, previous_column, tag);
    const std::size_t depth = sc_.depth();
    for (;;) {
      const Token t = next_token(sc_);
      if (t == Token::end) {
        if (sc_.depth() < depth) break;
        continue;
      }
      if (t == Token::end_of_input) unexpected_end(sc_, "unexpected end of part inside a cell");
      if (t != Token::start) continue;
      const Span name = sc_.local();
      if (sc_.depth() != depth + 1) {
        skip_element(sc_);
      } else if (span_is(name, "v")) {
        const std::uint64_t at = sc_.token_offset();
        read_leaf(sc_, col_);
        if (tag != CellTag::inline_str) set_value(cell, tag, col_.bytes(), at);
      } else if (span_is(name, "f")) {
        parse_formula(cell);
      } else if (span_is(name, "is")) {
        if (tag == CellTag::inline_str) {
          const TextRef text = read_rich_text(sc_, col_, seg_.arena, ctx_.shortcut);
          cell.type = CellType::string;
          cell.payload = text.offset;
          cell.text_length = text.length;
        } else {
          skip_element(sc_);
        }
      } else {
        skip_element(sc_);
      }
    }
    seg_.cells.push_back(cell);
  }

  void set_value(Cell& cell, CellTag tag, Span bytes, std::uint64_t at) {
    switch (tag) {
      case CellTag::n: {
        if (trim(bytes).size == 0) return;  // <v/>: no value
        double value = 0;
        if (!parse_double(bytes, value)) sc_.fail_at(at, "cell value is not a number");
        std::memcpy(&cell.payload, &value, sizeof value);
        cell.type = CellType::number;
        return;
      }
      case CellTag::s: {
        if (trim(bytes).size == 0) return;
        std::uint64_t index = 0;
        if (!parse_uint(bytes, index)) sc_.fail_at(at, "shared string index is not an integer");
        if (ctx_.shared_strings && index >= *ctx_.shared_strings) {
          range_error(at, "shared string index " + std::to_string(index) + " is out of range (the table has " +
                              std::to_string(*ctx_.shared_strings) + ")");
        }
        const std::uint64_t bound = std::min<std::uint64_t>(index, UINT64_MAX - 1) + 1;  // never wraps to 0
        out_.shared_string_bound = std::max(out_.shared_string_bound, bound);
        cell.payload = index;
        cell.type = CellType::shared_string;
        return;
      }
      case CellTag::b: {
        const Span v = trim(bytes);
        if (v.size == 0) return;
        if (span_is(v, "0") || span_is(v, "false")) cell.payload = 0;
        else if (span_is(v, "1") || span_is(v, "true")) cell.payload = 1;
        else sc_.fail_at(at, "boolean cell value is not 0 or 1");
        cell.type = CellType::boolean;
        return;
      }
      case CellTag::str:
      case CellTag::e:
      case CellTag::d: {
        if (tag != CellTag::str && trim(bytes).size == 0) return;
        TextRef text;
        if (tag == CellTag::str) {
          text = append_xstring(bytes, seg_.arena);
        } else {
          text.offset = append_utf16(bytes, seg_.arena);
          text.length = static_cast<std::uint32_t>(seg_.arena.size() - text.offset);
        }
        cell.payload = text.offset;
        cell.text_length = text.length;
        cell.type = tag == CellTag::str ? CellType::string : tag == CellTag::e ? CellType::error : CellType::date;
        return;
      }
      case CellTag::inline_str: return;
    }
  }

  void parse_formula(Cell& cell) {
    Formula f;
    const std::uint64_t at = sc_.token_offset();
    if (const auto* t = sc_.attribute("t")) {
      const Span v = t->value;
      if (span_is(v, "normal")) f.kind = FormulaKind::normal;
      else if (span_is(v, "shared")) f.kind = FormulaKind::shared;
      else if (span_is(v, "array")) f.kind = FormulaKind::array;
      else if (span_is(v, "dataTable")) f.kind = FormulaKind::data_table;
      else sc_.fail("unknown formula type");
    }
    if (const auto* si = sc_.attribute("si")) {
      std::uint64_t n = 0;
      if (!parse_uint(si->value, n) || n > 0x7FFFFFFF) sc_.fail("shared formula index is not an integer");
      f.si = static_cast<std::int64_t>(n);
    }
    if (const auto* ref = sc_.attribute("ref")) {
      const std::string bytes = attribute_bytes(*ref, at);
      f.ref.offset = append_utf16({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, seg_.arena);
      f.ref.length = static_cast<std::uint32_t>(seg_.arena.size() - f.ref.offset);
    }
    read_leaf(sc_, col_);
    f.text.offset = append_utf16(col_.bytes(), seg_.arena);
    f.text.length = static_cast<std::uint32_t>(seg_.arena.size() - f.text.offset);
    cell.formula = static_cast<std::uint32_t>(seg_.formulas.size());
    seg_.formulas.push_back(f);
  }

  XmlScanner& sc_;
  const SheetParseContext& ctx_;
  TextCollector& col_;
  ChunkResult& out_;
  Segment& seg_;
  bool relative_;
  std::uint32_t previous_row_;
  std::uint64_t row_gap_start_;  // offset of the last row start (or of the chunk)
  bool seen_explicit_ = false;
  bool in_sheet_data_ = false;
  std::uint64_t merged_bytes_ = 0;
  SimpleElement simple_;
  CellShape shape_;
  RowShape row_shape_;
};

// Plain cells take 30-45 bytes of XML, rows 4 or more cells: reserving for that spares the
// copies and page faults of growing; a chunk that used less than half gives the rest back.
constexpr std::size_t xml_bytes_per_cell = 32, xml_bytes_per_row = 128;

void reserve_for(std::size_t xml_bytes, Segment& segment) {
  segment.cells.reserve(xml_bytes / xml_bytes_per_cell);
  segment.rows.reserve(xml_bytes / xml_bytes_per_row);
}

template <typename T>
void give_back_excess(std::vector<T>& v) {
  if (v.size() < v.capacity() / 2) v.shrink_to_fit();
}

}  // namespace

void release(ChunkResult& result, LoadBudgets* budgets) {
  if (budgets == nullptr) return;
  result.memory.release(&budgets->memory);
  result.cells.release(&budgets->cells);
}

std::string column_letters(std::uint32_t column) {
  std::string out;
  while (column > 0) {
    const std::uint32_t rem = (column - 1) % 26;
    out.insert(out.begin(), static_cast<char>('A' + rem));
    column = (column - 1) / 26;
  }
  return out;
}

bool is_tag_start(const std::uint8_t* data, std::size_t size, std::size_t at, std::string_view tag) {
  std::size_t name = at + 1;
  std::size_t k = name;
  while (k < size && k - name < 64 && data[k] != ':' && data[k] != ' ' && data[k] != '>' && data[k] != '/' &&
         data[k] != '\t' && data[k] != '\n' && data[k] != '\r' && data[k] != '<') {
    ++k;
  }
  if (k < size && data[k] == ':') name = k + 1;
  if (name + tag.size() + 1 > size || std::memcmp(data + name, tag.data(), tag.size()) != 0) return false;
  const std::uint8_t after = data[name + tag.size()];
  return is_xml_space(after) || after == '>' || after == '/';
}

std::size_t find_tag_split(const std::uint8_t* data, std::size_t size, std::size_t min_offset, std::string_view tag) {
  // A byte loop, not memrchr: ThreadSanitizer checks memrchr's whole range on every call, so
  // with a '<' every few bytes (2.5 million rich runs in one shared string) the search was
  // quadratic under it. Splits are usually found within a row's length.
  for (std::size_t at = size; at > min_offset;) {
    --at;
    if (data[at] == '<' && is_tag_start(data, size, at, tag)) return at;
  }
  return 0;
}

std::size_t find_row_split(const std::uint8_t* data, std::size_t size, std::size_t min_offset) {
  return find_tag_split(data, size, min_offset, "row");
}

std::size_t find_next_row_start(const std::uint8_t* data, std::size_t size, std::size_t from) {
  while (from < size) {
    const void* lt = std::memchr(data + from, '<', size - from);
    if (lt == nullptr) return 0;
    const std::size_t at = static_cast<std::size_t>(static_cast<const std::uint8_t*>(lt) - data);
    if (at > 0 && is_tag_start(data, size, at, "row")) return at;
    from = at + 1;
  }
  return 0;
}

void parse_sheet_chunk(const std::uint8_t* data, std::size_t size, std::uint64_t base, ChunkStart start,
                       std::optional<std::uint32_t> previous_row, bool final, const SheetParseContext& context,
                       TextCollector& collector, ChunkResult& out) {
  XmlScanner scanner(data, size, base, final, context.limits);
  if (start == ChunkStart::rows) scanner.assume_open(2);
  SheetParser parser(scanner, context, collector, out, previous_row);
  try {
    reserve_for(size, out.segment);
    parser.run(start == ChunkStart::rows);
    parser.account(scanner.position(), true);
    give_back_excess(out.segment.cells);
    give_back_excess(out.segment.rows);
  } catch (const IncompleteInput&) {
    out.end = ChunkEnd::unsafe;
    return;
  } catch (const std::bad_alloc&) {
    throw allocation_failure({"", "", scanner.position()});
  }
  out.closed_names = scanner.closed_assumed();
  if (final) {
    out.end = ChunkEnd::complete;
  } else if (parser.in_sheet_data() && scanner.depth() == 2) {
    out.end = ChunkEnd::boundary;
    out.open_names = scanner.open_names();
  } else {
    out.end = ChunkEnd::unsafe;
  }
}

}  // namespace docconform::xlsx
