// The loader allocates per chunk, not per cell or token (counted with the allocation hook).
#include <gtest/gtest.h>

#include "docconform/alloc_counter.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

TEST(XlsxAllocations, WellUnderAQuarterAllocationPerCell) {
  ASSERT_TRUE(alloc_hook_installed());
  for (const bool inline_strings : {false, true}) {
    GenOptions g;
    g.sheets = 4;
    g.rows = 5000;
    g.columns = 4;
    g.inline_strings = inline_strings;
    const std::string bytes = generate_workbook(g);
    for (const unsigned threads : {1u, 2u}) {
      LoadOptions o;
      o.threads = threads;
      const AllocStats before = alloc_snapshot();
      const Workbook wb = load_workbook(bytes, o, "g");
      const AllocStats used = alloc_snapshot() - before;
      const double per_cell = static_cast<double>(used.total_count()) / static_cast<double>(wb.cell_count());
      EXPECT_LT(per_cell, 0.25) << "threads " << threads << " inline " << inline_strings;
    }
  }
}

// A long sheet is parsed in many chunks; the buffers they are inflated into are reused. The
// model (cells, rows, shared strings) takes about 1.1 bytes per byte of sheet XML; a fresh
// buffer per chunk adds about 1.5 more (2.6 in all).
TEST(XlsxAllocations, ChunkBuffersAreReusedAcrossChunks) {
  ASSERT_TRUE(alloc_hook_installed());
  GenOptions g;
  g.sheets = 1;
  g.rows = 20000;
  g.columns = 4;
  g.extras = false;
  const std::string bytes = generate_workbook(g);
  for (const unsigned threads : {1u, 2u}) {
    LoadOptions o;
    o.threads = threads;
    o.chunk_bytes = 16 << 10;
    LoadStats stats;
    const AllocStats before = alloc_snapshot();
    const Workbook wb = load_workbook(bytes, o, "g", &stats);
    const AllocStats used = alloc_snapshot() - before;
    ASSERT_GT(stats.chunks, 50u);
    const double per_xml_byte = static_cast<double>(used.total_bytes()) / static_cast<double>(stats.inflated_bytes);
    EXPECT_LT(per_xml_byte, 1.5) << "threads " << threads;
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
