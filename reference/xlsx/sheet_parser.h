// SpreadsheetML worksheet parsing, one chunk at a time. A chunk is either the whole part, the
// part's beginning up to a row boundary, or a run of whole <row> elements (the middle), or the
// rest of the part from a row boundary. Chunks of one sheet can be parsed in parallel: a chunk
// that does not know the row number before it numbers its leading rows without `r` relative
// to its start, and the sheet fixes them up once every chunk is done.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "docconform/xlsx/workbook.h"
#include "load_budgets.h"
#include "relationship_use.h"
#include "xml_scanner.h"
#include "xml_text.h"

namespace docconform::xlsx {

// XML whitespace, and a span without it at either end.
inline bool is_xml_space(std::uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

inline Span trim(Span s) {
  // Values rarely carry whitespace: one look at each end settles most of them.
  if (s.size == 0 || (s.data[0] > ' ' && s.data[s.size - 1] > ' ')) return s;
  while (s.size > 0 && is_xml_space(s.data[0])) {
    ++s.data;
    --s.size;
  }
  while (s.size > 0 && is_xml_space(s.data[s.size - 1])) --s.size;
  return s;
}

// An unsigned decimal integer between optional XML whitespace (style and string indexes,
// authorId); false for anything else, or past 64 bits. Decimal digits only, as std::from_chars
// reads them. Inline, as parse_cell_ref: both run for most cells.
inline bool parse_uint(Span s, std::uint64_t& value) {
  s = trim(s);
  if (s.size == 0) return false;
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < s.size; ++i) {
    const unsigned digit = static_cast<unsigned>(s.data[i]) - '0';
    if (digit > 9 || __builtin_mul_overflow(v, 10u, &v) || __builtin_add_overflow(v, digit, &v)) return false;
  }
  value = v;
  return true;
}

// "AB12" -> column 28, row 12; false when malformed. Either part may be absent ("AB", "12").
inline bool parse_cell_ref(Span ref, std::uint32_t& column, std::uint32_t& row) {
  const std::uint8_t* p = ref.data;
  const std::uint8_t* const end = p + ref.size;
  std::uint32_t c = 0;
  for (; p < end; ++p) {
    const unsigned letter = static_cast<unsigned>(*p | 0x20) - 'a';  // 0..25 for A-Z and a-z only
    if (letter > 25) break;
    c = c * 26 + letter + 1;
    if (c > 0xFFFFFF) return false;
  }
  const std::uint8_t* const digits = p;
  std::uint32_t r = 0;
  for (; p < end; ++p) {
    const unsigned digit = static_cast<unsigned>(*p) - '0';
    if (digit > 9) return false;
    r = r * 10 + digit;
    if (r > 0xFFFFFFF) return false;
  }
  if ((c == 0 && p == digits) || (p > digits && r == 0)) return false;
  column = c;
  row = r;
  return true;
}

enum class ChunkStart : std::uint8_t {
  document,  // the part's first byte
  rows,      // inside <sheetData>, at a row boundary
};

enum class ChunkEnd : std::uint8_t {
  complete,  // the whole document ended (final chunks)
  boundary,  // the data ended between rows inside <sheetData>
  unsafe,    // the data ended anywhere else: the split point was not a row boundary
};

struct ChunkResult {
  Segment segment;
  ChunkEnd end = ChunkEnd::unsafe;
  std::size_t relative_rows = 0;  // leading rows numbered relative to the chunk start
  std::size_t safe_bytes = 0;     // bytes consumed up to the last row boundary
  std::size_t safe_rows = 0, safe_cells = 0, safe_formulas = 0, safe_arena = 0;  // contents there
  std::string open_names;         // qualified names open at the end ("worksheet sheetData")
  std::string closed_names;       // qualified names that closed the assumed-open elements
  std::vector<std::u16string> merged_cells;
  std::vector<RelationshipUse> table_ids;    // r:id of <tablePart>
  std::vector<RelationshipUse> drawing_ids;  // r:id of <drawing>
  std::uint64_t shared_string_bound = 0; // 1 + the highest shared string index read (0: none)
  Growth memory, cells;  // charged to the load's budgets (released when the result is dropped)
};

// Gives back what a dropped result charged to the load's budgets.
void release(ChunkResult& result, LoadBudgets* budgets);

struct SheetParseContext {
  // The shared string table's size, for index checks; unknown while the table is still being
  // read beside the sheets (the caller then checks shared_string_bound).
  std::optional<std::size_t> shared_strings = 0;
  ScanLimits limits;
  std::uint64_t max_row_bytes = Limits{}.max_row_bytes;
  bool shortcut = true;  // plain cells read whole by XmlScanner::try_simple_element
  LoadBudgets* budgets = nullptr;  // charged for the model as it is built (none: not counted)
};

// Parses data (offset base in the part) starting as start says. previous_row is the row number
// before the chunk when known (0 = before the first row); unknown makes leading implicit rows
// relative. final says whether the data ends the part. Errors carry the offset in the part (a
// failed allocation is a limit error at the scan position).
void parse_sheet_chunk(const std::uint8_t* data, std::size_t size, std::uint64_t base, ChunkStart start,
                       std::optional<std::uint32_t> previous_row, bool final, const SheetParseContext& context,
                       TextCollector& collector, ChunkResult& out);

// Finds a split point: the offset of the last "<row" (any prefix) start tag in data that lies at
// or after min_offset, or 0 when there is none.
std::size_t find_row_split(const std::uint8_t* data, std::size_t size, std::size_t min_offset);
// The same for any element name (local name, any prefix): "<si" for shared strings.
std::size_t find_tag_split(const std::uint8_t* data, std::size_t size, std::size_t min_offset, std::string_view tag);
bool is_tag_start(const std::uint8_t* data, std::size_t size, std::size_t at, std::string_view tag);
// The first "<row" start tag at or after from (never at offset 0), or 0 when there is none.
std::size_t find_next_row_start(const std::uint8_t* data, std::size_t size, std::size_t from);


// A column number as letters (1 -> "A").
std::string column_letters(std::uint32_t column);

}  // namespace docconform::xlsx
