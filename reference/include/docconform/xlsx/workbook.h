// The XLSX reference loader: a workbook model built for speed and low allocation counts, and
// the options of the parallel load (its canonical dump: conformance/SPEC.md, format xlsx).
//
// Loading runs in three phases: A inflates worksheet parts, B parses them on the worker pool
// (large sheets split at row boundaries into chunks parsed in parallel), C reads the small
// parts (comments, tables, drawings, charts) serially. Results are identical for every thread
// count, inflate mode and chunk size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/inflater.h"

namespace docconform::xlsx {

inline constexpr std::uint32_t max_rows = 1048576;
inline constexpr std::uint32_t max_columns = 16384;

struct Limits {
  // Inflated bytes of all parts read, together: at most ratio x the file size, but never less
  // than floor and never more than cap (a zip bomb stops here, by declared or actual size).
  std::uint64_t inflate_ratio = 100;
  std::uint64_t inflate_floor = 16ull << 20;
  std::uint64_t inflate_cap = 8ull << 30;
  std::uint64_t max_part_bytes = 2ull << 30;  // one inflated part
  std::uint32_t max_depth = 256;              // XML element nesting
  std::uint64_t max_token_bytes = 64 << 20;   // one tag, text run, comment, CDATA or PI
  std::uint32_t max_attributes = 512;         // attributes of one element
  // Sheet XML from one <row> start to the next (or from a part's start or to its end): what a
  // streaming load must hold at once, so XML without rows cannot fill memory up to the budget.
  std::uint64_t max_row_bytes = 16 << 20;
  std::uint32_t max_sheets = 10000;
  std::uint64_t max_zip_entries = 65535;  // more needs ZIP64; each opened handle indexes them all
  std::uint64_t max_cells = 1'000'000'000;         // cells of all worksheets together
  std::uint64_t max_shared_strings = 100'000'000;  // items of the shared string table
  // Memory the workbook model takes as it is built: cells, rows, formulas and their text,
  // shared strings, merged ranges, comments.
  std::uint64_t max_memory = 4ull << 30;

  // Tight limits for fuzzing: small budgets so no input can run long or use much memory.
  static Limits fuzz();
  // The inflate budget for a file of this many bytes.
  std::uint64_t inflate_budget(std::uint64_t file_size) const;

  // Calls visit(name, member pointer) for every field, in declaration order: how tools set a
  // limit by name.
  template <class Visit>
  static void for_each_field(Visit&& visit) {
    visit("inflate_ratio", &Limits::inflate_ratio);
    visit("inflate_floor", &Limits::inflate_floor);
    visit("inflate_cap", &Limits::inflate_cap);
    visit("max_part_bytes", &Limits::max_part_bytes);
    visit("max_depth", &Limits::max_depth);
    visit("max_token_bytes", &Limits::max_token_bytes);
    visit("max_attributes", &Limits::max_attributes);
    visit("max_row_bytes", &Limits::max_row_bytes);
    visit("max_sheets", &Limits::max_sheets);
    visit("max_zip_entries", &Limits::max_zip_entries);
    visit("max_cells", &Limits::max_cells);
    visit("max_shared_strings", &Limits::max_shared_strings);
    visit("max_memory", &Limits::max_memory);
  }
};

enum class InflateMode : std::uint8_t {
  serial,   // phase A on the caller: every sheet part inflated before parsing starts
  workers,  // inflated on the pool (one zip handle per stream), overlapping parsing
};

struct LoadOptions {
  unsigned threads = 0;  // 0 = as many as useful, 1 = the calling thread only (docconform/parallel.h)
  InflateMode inflate = InflateMode::workers;
  // Split sheets at row boundaries into ~this much XML; 0 = never. Small enough that a chunk is
  // parsed while its inflated bytes are still in cache.
  std::size_t chunk_bytes = 512 << 10;
  // Plain cells and shared strings (<c><v>..</v></c>, <si><t>..</t></si>) read whole by one
  // shortcut instead of token by token; the result is the same (off: for differential tests).
  bool shortcut = true;
  InflaterKind inflater = default_inflater();  // which decoder inflates the zip parts
  // The streamed dump and digest (docconform/xlsx/dump.h) hold a shared string table of up to
  // this many bytes in memory, a larger one in a temporary file ($TMPDIR, else /tmp) read back
  // through a cache of this size; 0 = always in memory. The full load's model holds it whole.
  std::uint64_t table_memory = 64 << 20;
  Limits limits;
};

enum class CellType : std::uint8_t {
  blank,          // <c> without a value (may carry a style)
  number,         // t="n" or absent
  shared_string,  // t="s": payload = index into Workbook::shared_strings
  string,         // t="str" (formula result text) or t="inlineStr": text in the segment arena
  boolean,        // t="b": payload 0 or 1
  error,          // t="e": text
  date,           // t="d": ISO 8601 text, kept as written
};

// A run of text in an arena: offset and length in UTF-16 code units.
struct TextRef {
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
};

enum class FormulaKind : std::uint8_t { normal, shared, array, data_table };

struct Formula {
  TextRef text;
  TextRef ref;           // shared/array range, empty when absent
  std::int64_t si = -1;  // shared index, -1 when absent
  FormulaKind kind = FormulaKind::normal;
};

inline constexpr std::uint32_t no_formula = 0xFFFFFFFFu;

struct Cell {
  std::uint64_t payload = 0;  // number bits, string index, boolean, or text offset
  std::uint32_t text_length = 0;
  std::uint32_t style = 0;
  std::uint32_t formula = no_formula;  // index into the segment's formulas
  std::uint16_t column = 0;            // 1-based
  CellType type = CellType::blank;

  double number() const;
};

struct Row {
  std::uint32_t number = 0;  // 1-based
  std::uint32_t first_cell = 0;
  std::uint32_t cell_count = 0;
  std::uint64_t offset = 0;  // of <row> in the sheet part (for errors)
};

// The rows of one chunk of a sheet, with the text they own.
struct Segment {
  std::vector<Row> rows;
  std::vector<Cell> cells;
  std::vector<Formula> formulas;
  std::u16string arena;

  std::u16string_view text(TextRef ref) const { return {arena.data() + ref.offset, ref.length}; }
  std::u16string_view cell_text(const Cell& c) const { return {arena.data() + c.payload, c.text_length}; }
};

enum class SheetState : std::uint8_t { visible, hidden, very_hidden };
// What the workbook's relationship to a sheet says it is. Every kind but a chartsheet holds cells.
enum class SheetKind : std::uint8_t { worksheet, chartsheet, dialogsheet, macrosheet, intlmacrosheet };

struct Comment {
  std::u16string ref, author, text;
};

struct Table {
  std::u16string name, display_name, ref;
};

struct Sheet {
  std::u16string name;
  SheetState state = SheetState::visible;
  SheetKind kind = SheetKind::worksheet;
  std::string part;                 // the sheet's part name, as its relationship resolves
  std::string entry;                // the zip entry holding it, spelled as in the zip
  std::vector<Segment> segments;    // rows in document order, split where the sheet was split
  std::vector<std::u16string> merged_cells;
  std::vector<Comment> comments;
  std::vector<Table> tables;
  std::vector<std::string> drawings;  // drawing part names
  std::vector<std::string> charts;    // chart part names reached through the drawings
  bool split = false;                 // parsed in more than one chunk

  std::size_t cell_count() const;
};

struct SharedStrings {
  std::u16string arena;
  std::vector<TextRef> items;
  std::u16string_view at(std::size_t i) const { return {arena.data() + items[i].offset, items[i].length}; }
};

struct Workbook {
  bool date1904 = false;
  bool has_styles = false;
  std::uint32_t cell_formats = 0;  // <xf> entries of cellXfs in the styles part
  SharedStrings shared_strings;
  std::vector<Sheet> sheets;

  std::size_t cell_count() const;
};

// Timings of the last load's phases (seconds), for the benchmark.
struct LoadStats {
  double phase_a_s = 0, phase_b_s = 0, phase_c_s = 0;
  std::uint64_t inflated_bytes = 0;
  std::size_t chunks = 0;
  std::size_t serial_fallbacks = 0;  // sheets re-parsed whole because a split point was unsafe
  bool shared_strings_beside_sheets = false;  // one worker read them while the others parsed sheets
};

// Loads a workbook from bytes in memory (label names it in errors). Throws docconform::Error;
// never returns a partial workbook.
Workbook load_workbook(std::string_view bytes, const LoadOptions& options = {}, const std::string& label = "",
                       LoadStats* stats = nullptr);
// Loads a file through a read-only memory mapping.
Workbook load_workbook_file(const std::string& path, const LoadOptions& options = {}, LoadStats* stats = nullptr);

}  // namespace docconform::xlsx
