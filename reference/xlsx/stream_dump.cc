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
//
// An output that can be taken back to a point it passed (a digest, a file not yet in place)
// needs no survey first: the table is read, then each sheet's cells are written as they are
// parsed while the survey's notes are kept beside. The first sheet that needs its notes before
// its first line (merged ranges that may hide a cell it wrote, cells out of order, an unsafe
// split) is taken back to its start, and the sheets from there on are written as the second
// pass writes them. On an error of the input the output starts again with both passes, which
// find the full load's error. An output that cannot go back (a pipe) gets the one pass through
// a temporary file, once it is complete; both passes only when no such file can be had.
#include <algorithm>
#include <memory>
#include <optional>

#include "common/scratch_file.h"
#include "docconform/sha256.h"
#include "docconform/xlsx/dump.h"
#include "dump_writer.h"
#include "spilled_strings.h"
#include "stream_dump.h"
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

// Writes the lines of the sheets from next_sheet up to sheet's own: those before it are
// chartsheets, which have no cells. next_sheet is the first sheet whose line is not written yet.
void reach_sheet(DumpWriter& writer, std::size_t& next_sheet, std::size_t sheet) {
  for (; next_sheet <= sheet; ++next_sheet) {
    writer.sheet_begin(next_sheet);
    if (next_sheet < sheet) writer.sheet_end(next_sheet);
  }
}

// Writes the chartsheets after the last worksheet, then the end.
void finish_dump(DumpWriter& writer, std::size_t& next_sheet, std::size_t sheets) {
  for (; next_sheet < sheets; ++next_sheet) {
    writer.sheet_begin(next_sheet);
    writer.sheet_end(next_sheet);
  }
  writer.end();
}

// What goes to a rewindable sink, stopped at max_output_bytes; it knows whether the sink failed.
class RewindingOutput {
 public:
  RewindingOutput(RewindableSink& sink, const OutputLimits& limits, const std::string& label)
      : sink_(sink), limits_(limits), label_(label) {}
  void write(std::string_view piece) {
    check_output_bytes(limits_, label_, bytes_ + piece.size());
    to_sink([&] { sink_.write(piece); });
    bytes_ += piece.size();
  }
  void mark() {
    to_sink([&] { sink_.mark(); });
    marked_bytes_ = bytes_;
  }
  void go_back() {
    to_sink([&] { sink_.go_back(); });
    bytes_ = marked_bytes_;
  }
  void restart() {
    to_sink([&] { sink_.restart(); });
    bytes_ = marked_bytes_ = 0;
  }
  bool sink_failed() const { return sink_failed_; }

 private:
  template <typename Call>
  void to_sink(const Call& call) {
    try {
      call();
    } catch (...) {
      sink_failed_ = true;
      throw;
    }
  }

  RewindableSink& sink_;
  const OutputLimits& limits_;
  const std::string& label_;
  std::uint64_t bytes_ = 0, marked_bytes_ = 0;
  bool sink_failed_ = false;
};

// The SHA-256 of the pieces, with the hash at the mark kept to go back to.
class DigestSink final : public RewindableSink {
 public:
  void write(std::string_view piece) override { hash_.update(piece); }
  void mark() override { marked_ = hash_; }
  void go_back() override { hash_ = marked_; }
  void restart() override { hash_ = marked_ = Sha256(); }
  std::string final_hex() { return hash_.final_hex(); }

 private:
  Sha256 hash_, marked_;
};

class StreamedDump {
 public:
  // release_input (may be empty) lets go of the input read so far (a mapping's pages).
  StreamedDump(std::string_view bytes, const LoadOptions& options, const std::string& label, std::size_t window,
               const std::function<void()>& release_input)
      : options_(with_worker_inflate(options)),
        package_(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), label, options.limits, options.inflater),
        budgets_(options.limits), window_(std::max<std::size_t>(window, 1)), table_(options.table_memory),
        release_input_(release_input) {}

  // Pass 1: every error of the load, and what each sheet needs before its first line.
  void survey();
  // Pass 2: the dump.
  void write(const std::function<void(std::string_view)>& sink) { write_from(sink, 0, 0, true); }
  // Both passes in one for the sheets that allow it, into an output that can go back to a
  // point it passed. Throws whatever went wrong; the caller then runs both passes.
  void write_once(RewindingOutput& output);

 private:
  // What the survey keeps of a sheet.
  struct Survey {
    std::unique_ptr<ChunkStitcher> stitcher;
    std::exception_ptr stream_error;
    CellOrder order;
    SheetOutput output;  // merged ranges and relationship ids, no segments
    Growth held;         // the merged ranges kept, charged to max_memory
  };
  // The workbook's index, the budget of its parts, the parse context and an empty survey a sheet.
  void start_survey();
  // The survey's notes of a chunk of worksheet part.
  void note(std::size_t part, ChunkResult& result, const std::exception_ptr& error, bool final);
  // After the sheets were surveyed: the outcome of each from part first on, in document order as
  // load_sheets stitches them, then phase C for those sheets, as the full load reads it.
  void settle(std::size_t first, std::optional<std::size_t> unchecked);
  // Phase C of one sheet: its comments, tables and drawings; its merged ranges to the workbook.
  void read_extras(std::size_t sheet);
  // Each worksheet part's index in the workbook's sheets.
  std::vector<std::size_t> sheets_of_parts() const;
  // Pass 2 from worksheet part first on; the lines before sheet next_sheet are written already,
  // and the header unless header is set.
  void write_from(const std::function<void(std::string_view)>& sink, std::size_t first, std::size_t next_sheet,
                  bool header);

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
  SpilledStrings table_;       // the shared strings, when there are more than memory may hold
  std::vector<Survey> surveys_;   // per worksheet part
  std::vector<SheetMode> modes_;  // per worksheet part
  const std::function<void()>& release_input_;
  std::size_t consumed_ = 0;
};

void StreamedDump::start_survey() {
  index_ = index_workbook(package_, options_, &budgets_);
  check_declared_budget(package_, index_);
  context_ = sheet_parse_context(options_, budgets_);
  surveys_.resize(index_.worksheet_parts.size());
  for (std::size_t i = 0; i < surveys_.size(); ++i) {
    surveys_[i].stitcher = std::make_unique<ChunkStitcher>(package_, index_.worksheet_parts[i]);
  }
  modes_.assign(surveys_.size(), SheetMode::stream);
}

void StreamedDump::note(std::size_t part, ChunkResult& result, const std::exception_ptr& error, bool final) {
  Survey& sheet = surveys_[part];
  sheet.stitcher->add(result, error, final);
  if (!sheet.stitcher->sound()) return;
  sheet.order.add(result.segment);
  std::uint64_t bytes = sheet.held.charged();
  for (auto& m : result.merged_cells) {
    bytes += sizeof(std::u16string) + m.size() * sizeof(char16_t);
    sheet.output.merged_cells.push_back(std::move(m));
  }
  const std::string& name = index_.worksheet_parts[part];
  sheet.held.update(&budgets_.memory, bytes, 0, [&] { return ErrorContext{package_.label(), name, std::nullopt}; });
  for (auto& t : result.table_ids) sheet.output.table_ids.push_back(std::move(t));
  for (auto& d : result.drawing_ids) sheet.output.drawing_ids.push_back(std::move(d));
}

void StreamedDump::survey() {
  start_survey();
  const SharedStringsJob shared_strings = plan_shared_strings(package_, index_, options_, budgets_, context_, &table_);
  ChunkConsumer consumer;
  consumer.window = window_;
  consumer.chunk = [&](std::size_t part, ChunkResult& result, const std::exception_ptr& error, bool final) {
    consumed();
    note(part, result, error, final);
  };
  consumer.sheet_end = [&](std::size_t part, const std::exception_ptr& stream_error) {
    surveys_[part].stream_error = stream_error;
    consumed();
  };
  const std::size_t table = stream_sheets(package_, index_.worksheet_parts, context_, options_, consumer, shared_strings);
  const std::optional<std::size_t> unchecked = shared_strings ? std::optional(table) : std::nullopt;
  if (shared_strings) context_.shared_strings = table;
  settle(0, unchecked);
}

void StreamedDump::settle(std::size_t first, std::optional<std::size_t> unchecked) {
  const std::vector<std::string>& parts = index_.worksheet_parts;
  for (std::size_t i = first; i < parts.size(); ++i) {
    Survey& sheet = surveys_[i];
    if (sheet.stitcher->finish(sheet.stream_error, unchecked) == ChunkStitcher::Outcome::chunks) {
      modes_[i] = sheet.order.in_order() ? SheetMode::stream : SheetMode::hold;
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
  const Workbook& wb = index_.workbook;
  for (std::size_t i = 0; i < wb.sheets.size(); ++i) {
    const std::size_t part = index_.worksheet_of_sheet[i];
    if (part != no_part && part >= first) read_extras(i);
  }
}

void StreamedDump::read_extras(std::size_t sheet) {
  Workbook& wb = index_.workbook;
  const std::size_t part = index_.worksheet_of_sheet[sheet];
  read_sheet_extras(package_, wb.sheets[sheet], surveys_[part].output, context_.limits, index_.workbook_part, budgets_.memory);
  wb.sheets[sheet].merged_cells = std::move(surveys_[part].output.merged_cells);
}

std::vector<std::size_t> StreamedDump::sheets_of_parts() const {
  std::vector<std::size_t> sheet_of_part(index_.worksheet_parts.size());
  for (std::size_t i = 0; i < index_.worksheet_of_sheet.size(); ++i) {
    if (index_.worksheet_of_sheet[i] != no_part) sheet_of_part[index_.worksheet_of_sheet[i]] = i;
  }
  return sheet_of_part;
}

void StreamedDump::write_once(RewindingOutput& output) {
  start_survey();
  // The table first: cells are written as they come, with their strings.
  if (const SharedStringsJob job = plan_shared_strings(package_, index_, options_, budgets_, context_, &table_)) {
    context_.shared_strings = job({});
  }
  Workbook& wb = index_.workbook;
  const std::vector<std::size_t> sheet_of_part = sheets_of_parts();
  const std::function<void(std::string_view)> sink = [&](std::string_view piece) { output.write(piece); };
  DumpWriter writer(wb, sink, &table_);
  writer.begin();
  std::size_t next_sheet = 0;            // the first sheet whose line is not written yet
  std::size_t current = no_part;          // the part whose chunks come now
  std::size_t taken_back = no_part;       // the first part that needs its survey before its lines
  std::size_t next_sheet_at_mark = 0;
  const std::vector<std::u16string> no_merges;
  MergeCover no_cover(no_merges);
  WrittenCells written;  // of the current part, for its merged ranges
  const auto start = [&](std::size_t part) {
    if (current == part) return;
    current = part;
    if (taken_back != no_part) return;
    writer.flush();
    output.mark();
    next_sheet_at_mark = next_sheet;
    written.clear();
    reach_sheet(writer, next_sheet, sheet_of_part[part]);
  };
  const auto in_order = [&](std::size_t part) {
    const Survey& sheet = surveys_[part];
    return sheet.stitcher->sound() && sheet.order.in_order();
  };
  ChunkConsumer consumer;
  consumer.window = window_;
  consumer.chunk = [&](std::size_t part, ChunkResult& result, const std::exception_ptr& error, bool final) {
    start(part);
    consumed();
    note(part, result, error, final);
    if (taken_back != no_part) return;
    if (!in_order(part)) {
      taken_back = part;
      return;
    }
    // Written before the merged ranges are known (they follow the cells): checked at the end.
    writer.cells_in_order(result.segment, no_cover);
    written.add(result.segment);
  };
  consumer.sheet_end = [&](std::size_t part, const std::exception_ptr& stream_error) {
    start(part);
    Survey& sheet = surveys_[part];
    sheet.stream_error = stream_error;
    consumed();
    if (taken_back != no_part) return;
    if (!in_order(part) || sheet.stitcher->finish(stream_error, std::nullopt) != ChunkStitcher::Outcome::chunks ||
        written.may_hide_any(sheet.output.merged_cells)) {
      taken_back = part;
      return;
    }
    read_extras(sheet_of_part[part]);
    writer.sheet_end(sheet_of_part[part]);
  };
  stream_sheets(package_, index_.worksheet_parts, context_, options_, consumer);
  if (taken_back == no_part) {
    finish_dump(writer, next_sheet, wb.sheets.size());
    return;
  }
  output.go_back();
  settle(taken_back, std::nullopt);
  write_from(sink, taken_back, next_sheet_at_mark, false);
}

void StreamedDump::write_from(const std::function<void(std::string_view)>& sink, std::size_t first,
                              std::size_t next_sheet, bool header) {
  // The dump parses these sheets again: their cells were counted against max_cells by the survey.
  budgets_.cells.release(budgets_.cells.used());
  Workbook& wb = index_.workbook;
  const std::vector<std::string>& parts = index_.worksheet_parts;
  const std::vector<std::size_t> sheet_of_part = sheets_of_parts();
  DumpWriter writer(wb, sink, &table_);
  if (header) writer.begin();

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
    reach_sheet(writer, next_sheet, sheet_of_part[part]);
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
  consumer.chunk = [&](std::size_t rest_part, ChunkResult& result, const std::exception_ptr& error, bool final) {
    const std::size_t part = first + rest_part;
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
  consumer.sheet_end = [&](std::size_t rest_part, const std::exception_ptr& stream_error) {
    const std::size_t part = first + rest_part;
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
  stream_sheets(package_, std::vector<std::string>(parts.begin() + static_cast<std::ptrdiff_t>(first), parts.end()),
                context_, options_, consumer);
  finish_dump(writer, next_sheet, wb.sheets.size());
}

// Both passes: every error is found before the first piece goes to sink.
void stream_two_passes(std::string_view bytes, const LoadOptions& options, const std::string& label,
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

// The dump into an output that can go back: in one pass where it can be, else (on any error of
// the input too) in two. A failure of the output's sink is thrown as it comes.
void write_rewinding(std::string_view bytes, const LoadOptions& options, const std::string& label,
                     RewindingOutput& output, std::size_t window, const std::function<void()>& release_input) {
  try {
    StreamedDump once(bytes, options, label, window, release_input);
    once.write_once(output);
    return;
  } catch (...) {
    // The sink's own failure (a full disk) would meet a second try too. Anything else: the two
    // passes give the full load's error, or its dump.
    if (output.sink_failed()) throw;
  }
  output.restart();
  stream_two_passes(bytes, options, label, [&](std::string_view piece) { output.write(piece); }, window, release_input);
}

void stream_rewindable(std::string_view bytes, const LoadOptions& options, const std::string& label, RewindableSink& sink,
                       const OutputLimits& limits, std::size_t window, const std::function<void()>& release_input) {
  RewindingOutput output(sink, limits, label);
  write_rewinding(bytes, options, label, output, window, release_input);
}

// A dump kept in a temporary file until it is complete, for a sink that cannot go back.
class SpooledSink final : public RewindableSink {
 public:
  SpooledSink() : file_("the dump's temporary file") {}
  void write(std::string_view piece) override { file_.append(piece.data(), piece.size()); }
  void mark() override { marked_ = file_.size(); }
  void go_back() override { file_.truncate(marked_); }
  void restart() override {
    file_.clear();
    marked_ = 0;
  }
  void copy_to(const std::function<void(std::string_view)>& sink) { file_.read_all(sink); }

 private:
  ScratchFile file_;
  std::uint64_t marked_ = 0;
};

// The dump into a sink that cannot go back: one pass into a temporary file, passed on once
// complete, so the sink gets the whole dump or nothing; both passes straight into the sink when
// no temporary file can be had (none can be made, or its disk is full).
void stream_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                 const std::function<void(std::string_view)>& sink, const OutputLimits& limits, std::size_t window,
                 const std::function<void()>& release_input) {
  std::optional<SpooledSink> spool;
  try {
    spool.emplace();
  } catch (const Error&) {
  }
  if (spool) {
    RewindingOutput output(*spool, limits, label);
    try {
      write_rewinding(bytes, options, label, output, window, release_input);
      spool->copy_to(sink);
      return;
    } catch (...) {
      if (!output.sink_failed()) throw;  // the input's error, or the sink's while it was copied
    }
  }
  spool.reset();  // a full disk gets its space back
  stream_two_passes(bytes, options, label, bounded_sink(limits, label, sink), window, release_input);
}

// Runs read on the file's mapping; a file that shrank while it was read gives that error,
// whatever its lost bytes led to.
void read_mapped(const std::string& path,
                 const std::function<void(std::string_view bytes, const std::function<void()>& release_input)>& read) {
  const FileMapping mapping(path);
  try {
    read(mapping.bytes(), [&] { mapping.drop_resident_pages(); });
    mapping.verify_unchanged();
  } catch (const Error&) {
    mapping.verify_unchanged();
    throw;
  }
}

}  // namespace

void write_two_pass_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                         const std::function<void(std::string_view)>& sink, std::size_t window) {
  stream_two_passes(bytes, options, label, sink, window, {});
}

void write_streamed_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                         const std::function<void(std::string_view)>& sink, const OutputLimits& limits,
                         std::size_t window) {
  stream_dump(bytes, options, label, sink, limits, window, {});
}

void write_streamed_dump_file(const std::string& path, const LoadOptions& options,
                              const std::function<void(std::string_view)>& sink, const OutputLimits& limits,
                              std::size_t window) {
  read_mapped(path, [&](std::string_view bytes, const std::function<void()>& release_input) {
    stream_dump(bytes, options, path, sink, limits, window, release_input);
  });
}

void write_streamed_dump(std::string_view bytes, const LoadOptions& options, const std::string& label, RewindableSink& sink,
                         const OutputLimits& limits, std::size_t window) {
  stream_rewindable(bytes, options, label, sink, limits, window, {});
}

void write_streamed_dump_file(const std::string& path, const LoadOptions& options, RewindableSink& sink,
                              const OutputLimits& limits, std::size_t window) {
  read_mapped(path, [&](std::string_view bytes, const std::function<void()>& release_input) {
    stream_rewindable(bytes, options, path, sink, limits, window, release_input);
  });
}

std::string streamed_dump_sha256(std::string_view bytes, const LoadOptions& options, const std::string& label,
                                 const OutputLimits& limits, std::size_t window) {
  DigestSink digest;
  write_streamed_dump(bytes, options, label, digest, limits, window);
  return digest.final_hex();
}

std::string streamed_dump_sha256_file(const std::string& path, const LoadOptions& options, const OutputLimits& limits,
                                      std::size_t window) {
  DigestSink digest;
  write_streamed_dump_file(path, options, digest, limits, window);
  return digest.final_hex();
}

}  // namespace docconform::xlsx
