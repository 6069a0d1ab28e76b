// Merged ranges hide every cell inside them but the top-left one (conformance/SPEC.md, format
// xlsx): the dump leaves those cells out whatever the ranges overlap, compared with testing each
// cell against each range.
#include <gtest/gtest.h>

#include <random>

#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

struct Range {
  std::uint32_t top, left, bottom, right;
};

std::string letters(std::uint32_t column) {
  std::string out;
  for (; column > 0; column = (column - 1) / 26) out.insert(out.begin(), static_cast<char>('A' + (column - 1) % 26));
  return out;
}

TEST(XlsxMergedCells, HiddenCellsAreThoseInsideARangeButItsTopLeftWhateverTheRangesOverlap) {
  std::mt19937 random(35);
  for (int round = 0; round < 40; ++round) {
    const std::uint32_t rows = 12, columns = 6;
    std::string data;
    for (std::uint32_t r = 1; r <= rows; ++r) {
      data += "<row r=\"" + std::to_string(r) + "\">";
      for (std::uint32_t c = 1; c <= columns; ++c) {
        data += "<c r=\"" + letters(c) + std::to_string(r) + "\"><v>" + std::to_string(r * 10 + c) + "</v></c>";
      }
      data += "</row>";
    }
    // Ranges anywhere around the grid: overlapping, nested, one cell, reversed, past its edge.
    std::vector<Range> ranges;
    std::string merges = "<mergeCells>";
    const int count = static_cast<int>(random() % 12);
    for (int i = 0; i < count; ++i) {
      Range g{static_cast<std::uint32_t>(1 + random() % 14), static_cast<std::uint32_t>(1 + random() % 8),
              static_cast<std::uint32_t>(1 + random() % 14), static_cast<std::uint32_t>(1 + random() % 8)};
      ranges.push_back(g);
      merges += "<mergeCell ref=\"" + letters(g.left) + std::to_string(g.top) + ":$" + letters(g.right) + "$" +
                std::to_string(g.bottom) + "\"/>";
    }
    merges += "<mergeCell ref=\"B2\"/><mergeCell ref=\"XFD3:XFD4\"/></mergeCells>";  // no colon; past the grid

    std::string want;
    for (std::uint32_t r = 1; r <= rows; ++r) {
      for (std::uint32_t c = 1; c <= columns; ++c) {
        bool hidden = false;
        for (const Range& g : ranges) {
          hidden |= r >= g.top && r <= g.bottom && c >= g.left && c <= g.right && !(r == g.top && c == g.left);
        }
        if (!hidden) want += "cell " + letters(c) + std::to_string(r) + " n " + std::to_string(r * 10 + c) + "\n";
      }
    }
    std::string got = cells_of(workbook_with_sheet(sheet(data, merges)));
    got = got.substr(0, got.find("merge "));
    EXPECT_EQ(got, want) << merges;
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
