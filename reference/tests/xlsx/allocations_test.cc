// The loader allocates per chunk, not per cell or token (counted with the allocation hook).
#include <gtest/gtest.h>

#include "alloc_counter.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

GenOptions four_columns(std::uint32_t sheets, std::uint32_t rows) {
  GenOptions g;
  g.sheets = sheets;
  g.rows = rows;
  g.columns = 4;
  return g;
}

struct CountedLoad {
  Workbook workbook;
  LoadStats stats;
  AllocStats used;  // by the load alone
};

CountedLoad counted_load(const std::string& bytes, unsigned threads, std::size_t chunk_bytes = LoadOptions{}.chunk_bytes) {
  LoadOptions options;
  options.threads = threads;
  options.chunk_bytes = chunk_bytes;
  CountedLoad out;
  const AllocStats before = alloc_snapshot();
  out.workbook = load_workbook(bytes, options, "g", &out.stats);
  out.used = alloc_snapshot() - before;
  return out;
}

TEST(XlsxAllocations, WellUnderAQuarterAllocationPerCell) {
  for (const bool inline_strings : {false, true}) {
    GenOptions g = four_columns(4, 5000);
    g.inline_strings = inline_strings;
    const std::string bytes = generate_workbook(g);
    for (const unsigned threads : {1u, 2u}) {
      const CountedLoad load = counted_load(bytes, threads);
      const double per_cell = static_cast<double>(load.used.total_count()) / static_cast<double>(load.workbook.cell_count());
      EXPECT_LT(per_cell, 0.25) << "threads " << threads << " inline " << inline_strings;
    }
  }
}

// A long sheet is parsed in many chunks; the buffers they are inflated into are reused. The
// model (cells, rows, shared strings) takes about 1.1 bytes per byte of sheet XML; a fresh
// buffer per chunk adds about 1.5 more (2.6 in all).
TEST(XlsxAllocations, ChunkBuffersAreReusedAcrossChunks) {
  GenOptions g = four_columns(1, 20000);
  g.extras = false;
  const std::string bytes = generate_workbook(g);
  for (const unsigned threads : {1u, 2u}) {
    const CountedLoad load = counted_load(bytes, threads, 16 << 10);
    ASSERT_GT(load.stats.chunks, 50u);
    const double per_xml_byte = static_cast<double>(load.used.total_bytes()) / static_cast<double>(load.stats.inflated_bytes);
    EXPECT_LT(per_xml_byte, 1.5) << "threads " << threads;
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
