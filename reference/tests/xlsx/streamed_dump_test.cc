// The streamed dump against the dump of the full load, the same bytes (their SHA-256) or the
// same error: write_streamed_dump (one pass through a temporary file), into a sink that goes back
// and the streamed digest (one pass up to the first sheet that needs its survey), and both passes
// straight into a sink. For the bundled cases, the real-file corpus and workbooks made to need
// what a sheet gives only at its end (merged ranges, cells out of order, unsafe split points,
// errors after the first sheet), at 1 and 2 threads, several chunk sizes, windows of 1 and 2
// chunks, and shared string tables held in memory or in a temporary file.
// Named "Parallel" so that ci/sanitizers runs it under TSan.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/scratch_file.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "test_workbook.h"
#include "xlsx/stream_dump.h"

namespace docconform::xlsx::test {
namespace {

std::string full_outcome(const std::string& bytes, const LoadOptions& options) {
  try {
    return dump(load_workbook(bytes, options, "f"));
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

std::string digest_outcome(const std::string& bytes, const LoadOptions& options, std::size_t window) {
  try {
    return streamed_dump_sha256(bytes, options, "f", {}, window);
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

// A string that can go back, as a file not yet in place does; it counts the times it went back.
class StringSink final : public RewindableSink {
 public:
  void write(std::string_view piece) override { text += piece; }
  void mark() override { marked_ = text.size(); }
  void go_back() override {
    text.resize(marked_);
    ++went_back;
  }
  void restart() override {
    text.clear();
    marked_ = 0;
    ++restarted;
  }
  std::string text;
  int went_back = 0, restarted = 0;

 private:
  std::size_t marked_ = 0;
};

std::string rewindable_outcome(const std::string& bytes, const LoadOptions& options, std::size_t window) {
  StringSink sink;
  try {
    write_streamed_dump(bytes, options, "f", sink, {}, window);
    return sink.text;
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

// The streamed dump, once its digest and its one pass into a sink that goes back were checked
// against it.
std::string streamed_outcome(const std::string& bytes, const LoadOptions& options, std::size_t window) {
  std::string out;
  std::string outcome;
  try {
    write_streamed_dump(bytes, options, "f", [&](std::string_view piece) { out.append(piece); }, {}, window);
    outcome = out;
  } catch (const Error& e) {
    EXPECT_EQ(out, "") << "output before the error";
    outcome = std::string("error: ") + e.what();
  }
  const bool failed = outcome.rfind("error: ", 0) == 0;
  EXPECT_EQ(digest_outcome(bytes, options, window), failed ? outcome : sha256_hex(outcome))
      << "the streamed digest, threads " << options.threads << " chunk " << options.chunk_bytes << " window " << window;
  EXPECT_EQ(rewindable_outcome(bytes, options, window), outcome)
      << "into a sink that goes back, threads " << options.threads << " chunk " << options.chunk_bytes << " window " << window;
  out.clear();
  try {
    write_two_pass_dump(bytes, options, "f", [&](std::string_view piece) { out.append(piece); }, window);
  } catch (const Error& e) {
    EXPECT_EQ(out, "") << "output of both passes before the error";
    out = std::string("error: ") + e.what();
  }
  EXPECT_EQ(out, outcome) << "both passes, threads " << options.threads << " chunk " << options.chunk_bytes << " window "
                          << window;
  return outcome;
}

// table_memory 1: every shared string table goes to a temporary file.
LoadOptions with(unsigned threads, std::size_t chunk_bytes, const Limits& limits = {},
                 std::uint64_t table_memory = LoadOptions{}.table_memory) {
  LoadOptions o;
  o.threads = threads;
  o.chunk_bytes = chunk_bytes;
  o.limits = limits;
  o.table_memory = table_memory;
  return o;
}

// Sets TMPDIR for the scope (where temporary files go).
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const char* dir) : had_(std::getenv("TMPDIR") != nullptr) {
    if (had_) old_ = std::getenv("TMPDIR");
    ::setenv("TMPDIR", dir, 1);
  }
  ~TemporaryDirectory() { had_ ? ::setenv("TMPDIR", old_.c_str(), 1) : ::unsetenv("TMPDIR"); }

 private:
  bool had_;
  std::string old_;
};

// small_chunk: the smallest chunk size tried (a few rows of the workbooks here).
void expect_same_as_full_load(const std::string& bytes, const std::string& name, const Limits& limits = {},
                              std::size_t small_chunk = 200) {
  const std::string expected = full_outcome(bytes, with(1, 0, limits));
  for (const unsigned threads : {1u, 2u}) {
    for (const std::size_t chunk : {std::size_t{0}, std::size_t{16384}, small_chunk}) {
      for (const std::size_t window : {1u, 2u}) {
        const std::uint64_t table_memory = window == 1 ? 1 : LoadOptions{}.table_memory;
        ASSERT_EQ(streamed_outcome(bytes, with(threads, chunk, limits, table_memory), window), expected)
            << name << " threads " << threads << " chunk " << chunk << " window " << window << " table memory "
            << table_memory;
      }
    }
  }
}

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void expect_directory_same(const std::filesystem::path& dir) {
  // One configuration a file, in turn: 1 thread, chunks of 4 KiB, a window of 1; 2 threads,
  // chunks of 200 bytes, a window of 2; each with the table in memory, then in a temporary file
  // (the sets are large enough to cover every kind).
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".xlsx" && entry.path().extension() != ".xlsm") continue;
    const std::string bytes = read_all(entry.path());
    const unsigned threads = files % 2 == 0 ? 1 : 2;
    const std::uint64_t table_memory = files % 4 < 2 ? LoadOptions{}.table_memory : 1;
    ASSERT_EQ(streamed_outcome(bytes, with(threads, threads == 1 ? 4096 : 200, {}, table_memory), threads),
              full_outcome(bytes, with(1, 0)))
        << entry.path().filename().string() << " threads " << threads << " table memory " << table_memory;
    ++files;
  }
  EXPECT_GT(files, 0u);
}

TEST(XlsxStreamedDumpParallel, BundledCases) {
  expect_directory_same(std::filesystem::path(DOCCONFORM_SOURCE_DIR) / "conformance" / "cases" / "xlsx");
}

TEST(XlsxStreamedDumpParallel, RealCorpus) {
  const std::filesystem::path dir = std::filesystem::path(DOCCONFORM_SHARED_DIR) / "corpus-real" / "xlsx";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no " << dir << " (the shared real-file corpus)";
  expect_directory_same(dir);
}

TEST(XlsxStreamedDumpParallel, GeneratedWorkbooks) {
  for (const bool inline_strings : {false, true}) {
    GenOptions g;
    g.sheets = 3;
    g.rows = 150;
    g.columns = 5;
    g.inline_strings = inline_strings;
    g.implicit_refs = !inline_strings;
    g.malformed_utf8 = true;
    expect_same_as_full_load(generate_workbook(g), "generated");
  }
}

// What only a sheet's end tells: ranges that hide cells already parsed, cells out of order and
// duplicated (sorted, the last kept), and split points inside comments and CDATA.
TEST(XlsxStreamedDumpParallel, WhatTheSheetEndDecides) {
  std::string rows, unordered, tricky;
  for (int r = 1; r <= 120; ++r) {
    const std::string n = std::to_string(r);
    rows += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + n + "</v></c><c r=\"B" + n + "\"><v>1</v></c></row>";
    unordered += "<row r=\"" + std::to_string(121 - r) + "\"><c><v>" + n + "</v></c></row>";
    tricky += "<row r=\"" + n + "\"><c t=\"inlineStr\"><is><t>x<![CDATA[<row r=\"9\">]]></t></is></c><!-- <row r=\"7\"> --></row>";
  }
  unordered += "<row r=\"3\"><c r=\"A3\"><v>-1</v></c></row>";
  expect_same_as_full_load(workbook_with_sheet(sheet(rows, "<mergeCells><mergeCell ref=\"A2:B100\"/></mergeCells>")),
                           "merged");
  expect_same_as_full_load(workbook_with_sheet(sheet(unordered)), "out of order");
  expect_same_as_full_load(workbook_with_sheet(sheet(tricky)), "unsafe splits");
}

// Two sheets, S1 then S2, the first with the given rels (for its tables).
std::string two_sheets(const std::string& first, const std::string& second, const std::string& first_rels = "") {
  std::vector<std::pair<std::string, std::string>> entries{
      {"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
      {"xl/workbook.xml", std::string("<workbook xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel +
                              "\"><sheets><sheet name=\"S1\" sheetId=\"1\" r:id=\"rId1\"/>"
                              "<sheet name=\"S2\" sheetId=\"2\" r:id=\"rId2\"/></sheets></workbook>"},
      {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}, {"worksheet", "worksheets/sheet2.xml"}})},
      {"xl/worksheets/sheet1.xml", first},
      {"xl/worksheets/sheet2.xml", second},
  };
  if (!first_rels.empty()) entries.push_back({"xl/worksheets/_rels/sheet1.xml.rels", first_rels});
  return build_zip(with_content_types(std::move(entries)));
}

// The digest hashes a sheet's cells as they come and goes back to the start of the first sheet
// whose end says it needed its survey: the sheets before it stay hashed once, the header too.
TEST(XlsxStreamedDumpParallel, DigestGoesBackToTheFirstSheetThatNeedsItsSurvey) {
  std::string rows, unordered;
  for (int r = 1; r <= 300; ++r) {
    const std::string n = std::to_string(r);
    rows += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + n + "</v></c><c r=\"B" + n + "\"><v>1</v></c></row>";
    unordered += "<row r=\"" + std::to_string(301 - r) + "\"><c><v>" + n + "</v></c></row>";
  }
  const std::string merged = sheet(rows, "<mergeCells><mergeCell ref=\"A2:B100\"/></mergeCells>");
  expect_same_as_full_load(two_sheets(sheet(rows), merged), "merged second sheet", {}, 2048);
  expect_same_as_full_load(two_sheets(merged, sheet(rows)), "merged first sheet", {}, 2048);
  expect_same_as_full_load(two_sheets(sheet(rows), sheet(unordered)), "second sheet out of order", {}, 2048);
}

// Merged ranges follow a sheet's cells: the sheet is taken back only when one may hide a cell
// written before them. The first 65,536 cells are known exactly; beyond them, only the rows and
// columns each chunk spans.
TEST(XlsxStreamedDumpParallel, MergedRangesThatHideNoWrittenCellNeedNoSecondPass) {
  const auto rows = [](int count) {
    std::string xml;
    for (int r = 1; r <= count; ++r) {
      const std::string n = std::to_string(r);
      xml += "<row r=\"" + n + "\"><c r=\"A" + n + "\"><v>" + n + "</v></c><c r=\"B" + n + "\"><v>1</v></c></row>";
    }
    return xml;
  };
  struct Expected {
    int rows;
    std::string ref;
    int went_back;
  };
  // Beside the cells, reversed (covers nothing), below them, over a corner alone: nothing
  // hidden. Over B7 or A10: hidden. Past the cells kept exactly (40,000 rows of two cells), a
  // range over a corner alone is taken back (a chunk's span meets it), one beside is not.
  const std::vector<Expected> cases{{300, "D1:E2", 0},         {300, "B5:A3", 0},         {300, "A301:B400", 0},
                                    {300, "A9:A9", 0},         {300, "B7:C9", 1},         {300, "A9:A10", 1},
                                    {40000, "A3:A3", 0},       {40000, "A3:B3", 1},       {40000, "A39000:A39000", 1},
                                    {40000, "C39000:D39001", 0}};
  for (const Expected& e : cases) {
    const std::string bytes =
        two_sheets(sheet(rows(300)), sheet(rows(e.rows), "<mergeCells><mergeCell ref=\"" + e.ref + "\"/></mergeCells>"));
    const std::string expected = full_outcome(bytes, with(1, 0));
    for (const unsigned threads : {1u, 2u}) {
      for (const std::size_t chunk : {std::size_t{0}, std::size_t{2048}}) {
        StringSink sink;
        write_streamed_dump(bytes, with(threads, chunk), "f", sink);
        EXPECT_EQ(sink.text, expected) << e.ref << " threads " << threads << " chunk " << chunk;
        EXPECT_EQ(sink.went_back, e.went_back) << e.ref << " threads " << threads << " chunk " << chunk;
        EXPECT_EQ(sink.restarted, 0) << e.ref;
      }
    }
  }
}

// An error of the input restarts the sink, whose two passes then find the full load's error
// before writing; a failure of the sink itself is thrown as it comes, with no second try.
TEST(XlsxStreamedDumpParallel, ErrorsRestartTheSinkButTheSinksOwnAreThrown) {
  std::string rows;
  for (int r = 1; r <= 300; ++r) rows += "<row r=\"" + std::to_string(r) + "\"><c><v>1</v></c></row>";
  const std::string bad = two_sheets(sheet(rows), sheet(rows + "<row r=\"301\"><c><v>1</v></row>"));
  StringSink sink;
  EXPECT_THROW(write_streamed_dump(bad, with(1, 2048), "f", sink), Error);
  EXPECT_EQ(sink.restarted, 1);
  EXPECT_EQ(sink.text, "");

  class FailingSink final : public RewindableSink {
   public:
    void write(std::string_view) override {
      ++writes;
      throw Error(ErrorKind::io, {"out", "", std::nullopt}, "write failed: No space left on device");
    }
    void mark() override {}
    void go_back() override {}
    void restart() override { ++restarts; }
    int writes = 0, restarts = 0;
  } failing;
  try {
    write_streamed_dump(two_sheets(sheet(rows), sheet(rows)), with(1, 2048), "f", failing);
    FAIL() << "the sink's failure was lost";
  } catch (const Error& e) {
    EXPECT_EQ(e.context().file, "out");
  }
  EXPECT_EQ(failing.writes, 1);
  EXPECT_EQ(failing.restarts, 0);
}

// Into a digest and into a sink that cannot go back (which then gets nothing), through the
// temporary file or, where none can be made, both passes.
TEST(XlsxStreamedDump, StopsAtMaxOutputBytes) {
  GenOptions g;
  g.rows = 50;
  const std::string bytes = generate_workbook(g);
  const std::string full = dump(load_workbook(bytes));
  const auto streamed = [&](const OutputLimits& limits) {
    std::string out;
    try {
      write_streamed_dump(bytes, {}, "f", [&](std::string_view piece) { out.append(piece); }, limits);
    } catch (const Error& e) {
      EXPECT_EQ(out, "") << "output before the limit error";
      return std::string(to_string(e.kind())) + ": " + e.what();
    }
    return out;
  };
  OutputLimits limits;
  limits.max_output_bytes = full.size();
  EXPECT_EQ(streamed_dump_sha256(bytes, {}, "f", limits), sha256_hex(full));
  EXPECT_EQ(streamed(limits), full);
  limits.max_output_bytes = full.size() - 1;
  try {
    streamed_dump_sha256(bytes, {}, "f", limits);
    FAIL() << "no limit error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::limit);
  }
  const std::string spooled = streamed(limits);
  EXPECT_EQ(spooled.rfind("limit: f: ", 0), 0u) << spooled;
  TemporaryDirectory none("/nonexistent-directory");
  EXPECT_EQ(streamed(limits), spooled);
  limits.max_output_bytes = full.size();
  EXPECT_EQ(streamed(limits), full);
}

// Errors late in a sheet, after more cells than the dump buffers before its first piece (so a
// dump that wrote cells before finding the error shows it), and in a later step of the load.
TEST(XlsxStreamedDumpParallel, ErrorsAreTheFullLoads) {
  std::string rows;
  for (int r = 1; r <= 5000; ++r) rows += "<row r=\"" + std::to_string(r) + "\"><c t=\"s\"><v>0</v></c></row>";
  const std::string sst = "<si><t>a</t></si>";
  const auto expect_same = [](const std::string& bytes, const std::string& name, const Limits& limits = {}) {
    expect_same_as_full_load(bytes, name, limits, 2048);
  };
  expect_same(workbook_with_sheet(sheet(rows + "<row><c><v>x</v></c></row>"), sst), "bad number");
  expect_same(workbook_with_sheet(sheet(rows + "<row><c t=\"s\"><v>5</v></c></row>"), sst), "index");
  expect_same(workbook_with_sheet(sheet(rows + "<row r=\"2\"><c><v>1</v></c></row><row>"), sst), "unclosed");
  expect_same(workbook_with_sheet(sheet(rows), "<si><t>a</t></si><si><t>b</x></si>"), "bad table");
  Limits few_cells;
  few_cells.max_cells = 3000;
  expect_same(workbook_with_sheet(sheet(rows), sst), "max_cells", few_cells);
  // The full load reads a sheet's tables after every sheet's cells: a later sheet's error first.
  const std::string table_rels = rels({{"table", "../tables/none.xml"}});
  std::string plain;
  for (int r = 1; r <= 5000; ++r) plain += "<row r=\"" + std::to_string(r) + "\"><c><v>" + std::to_string(r) + "</v></c></row>";
  const std::string with_table = sheet(plain, "<tableParts><tablePart r:id=\"rId1\"/></tableParts>");
  expect_same(two_sheets(with_table, sheet("<row><c><v>x</v></c></row>"), table_rels), "missing table, bad second sheet");
  expect_same(two_sheets(with_table, sheet(plain), table_rels), "missing table");
}

// The cells are not held: a workbook whose model passes max_memory dumps in a small window.
TEST(XlsxStreamedDumpParallel, MemoryHoldsAWindowNotTheSheet) {
  GenOptions g;
  g.rows = 8000;
  g.columns = 4;
  g.inline_strings = true;
  const std::string bytes = generate_workbook(g);
  Limits tight;
  tight.max_memory = 1 << 20;
  for (const unsigned threads : {1u, 2u}) {
    EXPECT_EQ(full_outcome(bytes, with(threads, 32 << 10, tight)).rfind("error: ", 0), 0u);
    EXPECT_EQ(streamed_outcome(bytes, with(threads, 32 << 10, tight), 2), full_outcome(bytes, with(threads, 0)));
  }
}

// A table larger than table_memory is not held: the dump passes a max_memory the table alone
// passes, and a temporary file that cannot be made is an error only when the table needs one.
TEST(XlsxStreamedDumpParallel, ATableOverTableMemoryGoesToATemporaryFile) {
  GenOptions g;
  g.rows = 20000;
  g.columns = 4;
  const std::string bytes = generate_workbook(g);  // a table of about 1.3 MB in memory
  Limits tight;
  tight.max_memory = 1 << 20;
  for (const unsigned threads : {1u, 2u}) {
    const std::string expected = full_outcome(bytes, with(threads, 0));
    EXPECT_NE(streamed_outcome(bytes, with(threads, 32 << 10, tight, 0), 2), expected) << "the table fits in max_memory";
    EXPECT_EQ(streamed_outcome(bytes, with(threads, 32 << 10, tight, 64 << 10), 2), expected);
  }
  std::string unmade, held;
  {
    TemporaryDirectory none("/nonexistent-directory");
    unmade = digest_outcome(bytes, with(1, 32 << 10, {}, 64 << 10), 2);
    held = digest_outcome(bytes, with(1, 32 << 10, {}, 0), 2);
  }
  EXPECT_EQ(unmade.rfind("error: ", 0), 0u) << unmade;
  EXPECT_NE(unmade.find("the shared string table's temporary file: cannot be created in /nonexistent-directory"),
            std::string::npos)
      << unmade;
  EXPECT_EQ(held, sha256_hex(full_outcome(bytes, with(1, 0))));
}

// A dump larger than the temporary file's buffer comes back whole from the file; one that fills
// its disk (here: the process's file size limit) goes to both passes straight into the sink,
// which gets the same bytes.
TEST(XlsxStreamedDump, ATemporaryFileThatCannotGrowFallsBackToBothPasses) {
  GenOptions g;
  g.rows = 20000;
  const std::string bytes = generate_workbook(g);
  const std::string full = dump(load_workbook(bytes));
  ASSERT_GT(full.size(), 2u * ScratchFile::buffer_bytes) << "the dump must reach the disk";
  std::string spooled;
  write_streamed_dump(bytes, {}, "f", [&](std::string_view piece) { spooled.append(piece); });
  EXPECT_EQ(spooled, full) << "through the temporary file";
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead
  rlimit small = saved;
  small.rlim_cur = 64 << 10;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string out;
  std::string error;
  try {
    write_streamed_dump(bytes, {}, "f", [&](std::string_view piece) { out.append(piece); });
  } catch (const Error& e) {
    error = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(error, "");
  EXPECT_EQ(out, full);
}

}  // namespace
}  // namespace docconform::xlsx::test
