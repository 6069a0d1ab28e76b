// The streamed dump: the canonical dump written as the sheets are parsed, in bounded memory.
//
// A sheet's first cell line depends on things its XML gives only at its end: the merged ranges
// (<mergeCells> follows <sheetData>) hide cells; cells out of (row, column) order are sorted
// (the last of duplicates kept); and the full load reports any error of any sheet, or of the
// comments and tables read after every sheet, before a line is written. So the sheets are
// parsed twice through the loader's pipeline, with a window of chunks in flight: a survey keeps
// only each sheet's merged ranges, relationship ids, cell order and outcome (the loader's
// stitch, chunk by chunk) and finds every error; then the dump parses them again and writes each
// chunk's cells as it comes. A sheet out of order, or one whose split point was unsafe (re-parsed
// whole), is held whole for its turn, as the full load holds it, charged to max_memory.
#include <algorithm>
#include <memory>
#include <optional>

#include "docconform/xlsx/dump.h"
#include "dump_writer.h"
#include "walk.h"

namespace docconform::xlsx {
namespace {

enum class SheetMode : std::uint8_t {
  stream,  // cells written chunk by chunk
  hold,    // cells out of order: the sheet's chunks are held and sorted
  whole,   // the split was unsafe: the part is parsed whole
};

constexpr std::size_t no_part = static_cast<std::size_t>(-1);

// Chunks (and sheet ends) consumed between calls of release_input: with ~512 KiB chunks, 32 MiB
// of sheet XML, a few MiB of a mapped file.
constexpr std::size_t chunks_per_release = 64;

class StreamedDump {
 public:
  // release_input (may be empty) lets go of the input read so far (a mapping's pages).
  StreamedDump(std::string_view bytes, const LoadOptions& options, const std::string& label, std::size_t window,
               const std::function<void()>& release_input)
      : options_(with_worker_inflate(options)),
        package_(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), label, options.limits, options.inflater),
        budgets_(options.limits), window_(std::max<std::size_t>(window, 1)), release_input_(release_input) {}

  // Pass 1: every error of the load, and what each sheet needs before its first line.
  void survey();
  // Pass 2: the dump.
  void write(const std::function<void(std::string_view)>& sink);

 private:
  static LoadOptions with_worker_inflate(LoadOptions options) {
    options.inflate = InflateMode::workers;
    return options;
  }
  // Called by the consumer after each chunk and at each sheet's end (a workbook of many small
  // sheets must not pay one release a sheet).
  void consumed() {
    if (!release_input_ || ++consumed_ % chunks_per_release != 0) return;
    release_input_();
  }

  LoadOptions options_;
  Package package_;
  LoadBudgets budgets_;
  std::size_t window_;
  WorkbookIndex index_;
  SheetParseContext context_;  // knows the shared string table's size after the survey
  std::vector<SheetMode> modes_;  // per worksheet part
  const std::function<void()>& release_input_;
  std::size_t consumed_ = 0;
};

void StreamedDump::survey() {
  index_ = index_workbook(package_, options_, &budgets_);
  check_declared_budget(package_, index_);
  context_ = sheet_parse_context(options_, budgets_);
  const SharedStringsJob shared_strings = plan_shared_strings(package_, index_, options_, budgets_, context_);
  const std::vector<std::string>& parts = index_.worksheet_parts;

  struct Survey {
    std::unique_ptr<ChunkStitcher> stitcher;
    std::exception_ptr stream_error;
    CellOrder order;
    SheetOutput output;  // merged ranges and relationship ids, no segments
    Growth held;         // the merged ranges kept, charged to max_memory
  };
  std::vector<Survey> sheets(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) sheets[i].stitcher = std::make_unique<ChunkStitcher>(package_, parts[i]);
  ChunkConsumer consumer;
  consumer.window = window_;
  consumer.chunk = [&](std::size_t part, ChunkResult& result, const std::exception_ptr& error, bool final) {
    Survey& sheet = sheets[part];
    consumed();
    sheet.stitcher->add(result, error, final);
    if (!sheet.stitcher->sound()) return;
    sheet.order.add(result.segment);
    std::uint64_t bytes = sheet.held.charged();
    for (auto& m : result.merged_cells) {
      bytes += sizeof(std::u16string) + m.size() * sizeof(char16_t);
      sheet.output.merged_cells.push_back(std::move(m));
    }
    sheet.held.update(&budgets_.memory, bytes, 0, [&] { return ErrorContext{package_.label(), parts[part], std::nullopt}; });
    for (auto& t : result.table_ids) sheet.output.table_ids.push_back(std::move(t));
    for (auto& d : result.drawing_ids) sheet.output.drawing_ids.push_back(std::move(d));
  };
  consumer.sheet_end = [&](std::size_t part, const std::exception_ptr& stream_error) {
    sheets[part].stream_error = stream_error;
    consumed();
  };
  const std::size_t table = stream_sheets(package_, parts, context_, options_, consumer, shared_strings);
  const std::optional<std::size_t> unchecked = shared_strings ? std::optional(table) : std::nullopt;
  if (shared_strings) context_.shared_strings = table;

  // The outcome of each sheet in document order, as load_sheets stitches them.
  modes_.assign(parts.size(), SheetMode::stream);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    Survey& sheet = sheets[i];
    if (sheet.stitcher->finish(sheet.stream_error, unchecked) == ChunkStitcher::Outcome::chunks) {
      if (!sheet.order.in_order()) modes_[i] = SheetMode::hold;
      continue;
    }
    modes_[i] = SheetMode::whole;
    sheet.held.release(&budgets_.memory);
    sheet.output = parse_whole_part(package_, parts[i], context_);
    sheet.output.segments.clear();
    sheet.output.memory.release(&budgets_.memory);
    std::uint64_t bytes = 0;
    for (const auto& m : sheet.output.merged_cells) bytes += sizeof(std::u16string) + m.size() * sizeof(char16_t);
    sheet.held.update(&budgets_.memory, bytes, 0, [&] { return ErrorContext{package_.label(), parts[i], std::nullopt}; });
  }

  // Phase C, as the full load reads it: after every sheet.
  Workbook& wb = index_.workbook;
  for (std::size_t i = 0; i < wb.sheets.size(); ++i) {
    const std::size_t part = index_.worksheet_of_sheet[i];
    if (part == no_part) continue;
    read_sheet_extras(package_, wb.sheets[i], sheets[part].output, context_.limits, index_.workbook_part, budgets_.memory);
    wb.sheets[i].merged_cells = std::move(sheets[part].output.merged_cells);
  }
}

void StreamedDump::write(const std::function<void(std::string_view)>& sink) {
  // The dump parses every sheet again: its cells were counted against max_cells by the survey.
  budgets_.cells.release(budgets_.cells.used());
  Workbook& wb = index_.workbook;
  const std::vector<std::string>& parts = index_.worksheet_parts;
  std::vector<std::size_t> sheet_of_part(parts.size());
  for (std::size_t i = 0; i < wb.sheets.size(); ++i) {
    if (index_.worksheet_of_sheet[i] != no_part) sheet_of_part[index_.worksheet_of_sheet[i]] = i;
  }
  DumpWriter writer(wb, sink);
  writer.begin();
  std::size_t next_sheet = 0;  // the first sheet whose line is not written yet
  // Writes the lines up to sheet's own: the chartsheets before it have no cells.
  const auto reach = [&](std::size_t sheet) {
    for (; next_sheet <= sheet && next_sheet < wb.sheets.size(); ++next_sheet) {
      writer.sheet_begin(next_sheet);
      if (next_sheet < sheet) writer.sheet_end(next_sheet);
    }
  };

  struct Current {
    std::size_t part = no_part;
    std::unique_ptr<ChunkStitcher> stitcher;
    std::unique_ptr<MergeCover> cover;
    std::vector<Segment> held;
    std::uint64_t held_memory = 0;  // what the held segments charged to max_memory
  } current;
  const auto start = [&](std::size_t part) {
    if (current.part == part) return;
    current.part = part;
    current.stitcher = std::make_unique<ChunkStitcher>(package_, parts[part]);
    current.cover = std::make_unique<MergeCover>(wb.sheets[sheet_of_part[part]].merged_cells);
    reach(sheet_of_part[part]);
  };
  // Writes the cells of a sheet held whole, then gives back what it held.
  const auto write_held = [&](Sheet& sheet, std::vector<Segment>&& segments, std::uint64_t charged) {
    sheet.segments = std::move(segments);
    writer.cells(sheet);
    std::vector<Segment>().swap(sheet.segments);
    budgets_.memory.release(charged);
  };

  ChunkConsumer consumer;
  consumer.window = window_;
  consumer.charge_inflate = false;  // the survey counted every part
  consumer.chunk = [&](std::size_t part, ChunkResult& result, const std::exception_ptr& error, bool final) {
    start(part);
    consumed();
    if (modes_[part] == SheetMode::whole) return;
    current.stitcher->add(result, error, final);
    if (!current.stitcher->sound()) return;  // thrown at the sheet's end (the file changed?)
    if (modes_[part] == SheetMode::stream) {
      writer.cells_in_order(result.segment, *current.cover);
      return;
    }
    current.held.push_back(std::move(result.segment));
    current.held_memory += result.memory.charged();  // the charge goes with the segment
    result.memory = Growth{};
  };
  consumer.sheet_end = [&](std::size_t part, const std::exception_ptr& stream_error) {
    start(part);
    Sheet& sheet = wb.sheets[sheet_of_part[part]];
    if (modes_[part] == SheetMode::whole) {
      SheetOutput whole = parse_whole_part(package_, parts[part], context_);
      write_held(sheet, std::move(whole.segments), whole.memory.charged());
    } else {
      current.stitcher->finish(stream_error, std::nullopt);
      if (modes_[part] == SheetMode::hold) write_held(sheet, std::move(current.held), current.held_memory);
      current.held_memory = 0;
    }
    writer.sheet_end(sheet_of_part[part]);
    consumed();
  };
  stream_sheets(package_, parts, context_, options_, consumer);
  for (; next_sheet < wb.sheets.size(); ++next_sheet) {  // chartsheets after the last worksheet
    writer.sheet_begin(next_sheet);
    writer.sheet_end(next_sheet);
  }
  writer.end();
}

void stream_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                 const std::function<void(std::string_view)>& sink, std::size_t window,
                 const std::function<void()>& release_input) {
  std::unique_ptr<StreamedDump> dump = with_serial_retry(options, label, [&](const LoadOptions& how) {
    auto attempt = std::make_unique<StreamedDump>(bytes, how, label, window, release_input);
    attempt->survey();
    return attempt;
  });
  try {
    dump->write(sink);
  } catch (const std::bad_alloc&) {
    throw allocation_failure({label, "", std::nullopt});
  }
}

}  // namespace

void write_streamed_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                         const std::function<void(std::string_view)>& sink, std::size_t window) {
  stream_dump(bytes, options, label, sink, window, {});
}

void write_streamed_dump_file(const std::string& path, const LoadOptions& options,
                              const std::function<void(std::string_view)>& sink, std::size_t window) {
  const FileMapping mapping(path);
  // A file that shrank while it was read gives that error, whatever its lost bytes led to.
  try {
    stream_dump(mapping.bytes(), options, path, sink, window, [&] { mapping.drop_resident_pages(); });
    mapping.verify_unchanged();
  } catch (const Error&) {
    mapping.verify_unchanged();
    throw;
  }
}

}  // namespace docconform::xlsx
