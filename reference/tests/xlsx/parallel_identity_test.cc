// Serial, every thread count, both inflate modes and chunk sizes down to a few rows give the
// same dump (or the same error) for every real file and generated workbooks.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "docconform/error.h"
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
  reference.parallel = false;
  reference.chunk_bytes = 0;
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

}  // namespace
}  // namespace docconform::xlsx::test
