// Serial, every thread count, both inflate modes and chunk sizes down to a few rows give the
// same dump (or the same error) for every real file and generated workbooks, and the same as
// a serial load that reads every cell token by token.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "docconform/error.h"
#include "docconform/parallel.h"
#include "docconform/sha256.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

std::string outcome(const std::string& bytes, const LoadOptions& options, LoadStats* stats = nullptr) {
  try {
    return sha256_hex(dump(load_workbook(bytes, options, "f", stats)));
  } catch (const Error& e) {
    return std::string("error: ") + e.what();
  }
}

constexpr std::size_t chunk_sizes[] = {0, 4096, 300, 40};

// full: every thread count with every chunk size; otherwise each thread count once, each with
// another chunk size (the real corpus is large enough for that to cover every combination kind).
void expect_identical(const std::string& bytes, const std::string& name, bool full = true) {
  LoadOptions reference;
  reference.threads = 1;
  reference.chunk_bytes = 0;
  reference.shortcut = false;  // token by token: the shortcut for plain cells is checked too
  const std::string expected = outcome(bytes, reference);
  for (const InflateMode mode : {InflateMode::serial, InflateMode::workers}) {
    for (const unsigned threads : {1u, 2u, 3u, 4u}) {
      for (const std::size_t chunk : chunk_sizes) {
        if (!full && chunk != chunk_sizes[threads - 1]) continue;
        if (!full && chunk < 300 && bytes.size() > (256 << 10)) continue;  // keep big files to sane chunk counts
        LoadOptions o;
        o.inflate = mode;
        o.threads = threads;
        o.chunk_bytes = chunk;
        ASSERT_EQ(outcome(bytes, o), expected)
            << name << " threads " << threads << " chunk " << chunk << " mode " << static_cast<int>(mode);
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

TEST(XlsxParallelIdentity, RealCorpus) {
  const std::filesystem::path dir = std::filesystem::path(DOCCONFORM_SHARED_DIR) / "corpus-real" / "xlsx";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no " << dir << " (the shared real-file corpus)";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    expect_identical(read_all(entry.path()), entry.path().filename().string(), false);
    ++files;
  }
  EXPECT_GT(files, 0u);
}

TEST(XlsxParallelIdentity, GeneratedWorkbooks) {
  for (const bool inline_strings : {false, true}) {
    for (const bool implicit : {false, true}) {
      GenOptions g;
      g.sheets = 3;
      g.rows = 120;
      g.columns = 5;
      g.inline_strings = inline_strings;
      g.implicit_refs = implicit;
      g.malformed_utf8 = true;
      g.seed = 11;
      expect_identical(generate_workbook(g), "generated");
    }
  }
}

TEST(XlsxParallelIdentity, SmallChunksReallySplitSheets) {
  GenOptions g;
  g.rows = 200;
  g.implicit_refs = true;
  LoadOptions o;
  o.chunk_bytes = 64;
  LoadStats stats;
  const Workbook wb = load_workbook(generate_workbook(g), o, "g", &stats);
  EXPECT_TRUE(wb.sheets[0].split);
  EXPECT_GT(stats.chunks, 50u);
  EXPECT_EQ(stats.serial_fallbacks, 0u);
}

TEST(XlsxParallelIdentity, UnsafeSplitPointsFallBackToSerial) {
  // "<row" inside a comment, CDATA and a processing instruction, right where chunks split.
  std::string data;
  for (int r = 1; r <= 60; ++r) {
    data += "<row r=\"" + std::to_string(r) + "\"><c t=\"inlineStr\"><is><t>x<![CDATA[<row r=\"9\">]]></t></is></c>"
            "<!-- <row r=\"7\"> --><?p <row ?></row>";
  }
  const std::string bytes = workbook_with_sheet(sheet(data));
  expect_identical(bytes, "tricky");
  LoadOptions o;
  o.chunk_bytes = 50;
  LoadStats stats;
  load_workbook(bytes, o, "t", &stats);
  EXPECT_GT(stats.serial_fallbacks, 0u);
}

TEST(XlsxParallelIdentity, SharedStringsSplitAtSiBoundaries) {
  std::string sst, data;
  for (int i = 0; i < 80; ++i) {
    sst += "<si><t>s" + std::to_string(i) + "<![CDATA[<si>]]></t><!-- <si> --></si>";
    data += "<row r=\"" + std::to_string(i + 1) + "\"><c t=\"s\"><v>" + std::to_string(79 - i) + "</v></c></row>";
  }
  expect_identical(workbook_with_sheet(sheet(data), sst), "sst");
  const std::string plain = workbook_with_sheet(sheet(data), "<si><t>a</t></si><si><r><t>b</t></r></si>" + sst);
  expect_identical(plain, "sst plain");
}

// Errors of a workbook whose shared strings one worker reads while the others parse sheets
// are those of reading the table first: the table's own error outranks every sheet's and later
// steps of the walk; an index past the table outranks a later error in the same chunk.
TEST(XlsxParallelIdentity, SharedStringsReadBesideSheetsKeepTheErrorsOfReadingThemFirst) {
  if (hardware_threads() < 2) GTEST_SKIP() << "one hardware thread: the table is always read first";
  std::string rows;  // a sheet larger than the table, so the table is read beside it
  for (int r = 1; r <= 300; ++r) rows += "<row r=\"" + std::to_string(r) + "\"><c t=\"s\"><v>0</v></c></row>";
  const std::string bad_sst = "<si><t>a</t></si><si><t>b</x></si>";
  const std::string bad_sheet = sheet(rows + "<row r=\"301\"><c><v>not a number</v></c></row>");
  const std::string late_index = sheet(rows + "<row r=\"301\"><c t=\"s\"><v>7</v></c></row>" +
                                       "<row r=\"302\"><c><v>not a number</v></c></row>");
  const std::string huge_index = sheet(rows + "<row r=\"301\"><c t=\"s\"><v>18446744073709551615</v></c></row>");
  const std::string missing_sheet_relationship = build_zip(with_content_types({
      {"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
      {"xl/workbook.xml", std::string("<workbook xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel +
                              "\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId9\"/></sheets></workbook>"},
      {"xl/_rels/workbook.xml.rels", rels({{"sharedStrings", "sharedStrings.xml"}})},
      {"xl/sharedStrings.xml", std::string("<sst xmlns=\"") + ns_main + "\">" + bad_sst + "</sst>"},
  }));
  struct Case {
    const char* name;
    std::string bytes;
    const char* part;
    const char* message;
    bool beside;  // false: the walk fails before any sheet is read
  };
  const Case cases[] = {
      {"bad table, bad sheet", workbook_with_sheet(bad_sheet, bad_sst), "xl/sharedStrings.xml", "end tag does not match", true},
      {"bad table, a sheet without its relationship", missing_sheet_relationship, "xl/sharedStrings.xml",
       "end tag does not match", false},
      {"index past the table before a bad number", workbook_with_sheet(late_index, "<si><t>a</t></si>"),
       "xl/worksheets/sheet1.xml", "shared string index 7 is out of range", true},
      {"index at the integer limit", workbook_with_sheet(huge_index, "<si><t>a</t></si>"), "xl/worksheets/sheet1.xml",
       "out of range", true},
  };
  for (const Case& c : cases) {
    LoadOptions beside;
    beside.threads = 2;
    LoadStats stats;
    Error error(ErrorKind::usage, {}, "");
    try {
      load_workbook(c.bytes, beside, "f", &stats);
      ADD_FAILURE() << c.name << ": loaded";
    } catch (const Error& e) {
      error = e;
    }
    EXPECT_EQ(stats.shared_strings_beside_sheets, c.beside) << c.name;
    EXPECT_EQ(error.context().part, c.part) << c.name << ": " << error.what();
    EXPECT_NE(std::string(error.what()).find(c.message), std::string::npos) << c.name << ": " << error.what();
    expect_identical(c.bytes, c.name);
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
