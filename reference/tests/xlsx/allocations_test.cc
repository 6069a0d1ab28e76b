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

}  // namespace
}  // namespace docconform::xlsx::test
