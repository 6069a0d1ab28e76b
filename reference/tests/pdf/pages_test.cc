// The page-tree walk: inheritable attributes reach every page below the node that sets them,
// a page's own value wins, and the walk hands out /Resources without copying it per page. The
// walk reads nodes ahead a level at a time in file order, so a window crosses the file about
// once per level, and errors still come in tree order.
#include <gtest/gtest.h>

#include <vector>

#include "docconform/error.h"

#include "docconform/pdf/document.h"
#include "docconform/pdf/dump.h"
#include "docconform/pdf/source.h"
#include "pdf_test_util.h"

namespace {

using namespace docconform::pdf;
using pdftest::classic_pdf;

struct Seen {
  std::uint32_t num;
  std::string media_box, crop_box, rotate, resources;
};

std::vector<Seen> walk(const std::string& pdf) {
  auto source = memory_source(pdf);
  Document doc(*source);
  std::vector<Seen> pages;
  doc.walk_pages([&](const PageInfo& page) {
    pages.push_back({page.id.num, canonical_text(page.media_box), canonical_text(page.crop_box),
                     canonical_text(page.rotate), page.resources ? canonical_text(*page.resources) : "absent"});
  });
  return pages;
}

TEST(PageTree, InheritedAttributesReachEveryPageAndOwnValuesWin) {
  const std::string pdf = classic_pdf({
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] /Rotate 90 /Resources << /A 1 >> >>",
      "<< /Type /Page /Parent 2 0 R /Rotate 0 >>",
      "<< /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 1 /CropBox 7 0 R /Resources 6 0 R >>",
      "<< /Type /Page /Parent 4 0 R /MediaBox [0 0 100 100] >>",
      "<< /B 2 >>",
      "[1 1 50 50]",
  });
  const std::vector<Seen> pages = walk(pdf);
  ASSERT_EQ(pages.size(), 2u);
  EXPECT_EQ(pages[0].num, 3u);
  EXPECT_EQ(pages[0].media_box, "[0 0 612 792]");
  EXPECT_EQ(pages[0].crop_box, "null");
  EXPECT_EQ(pages[0].rotate, "0");
  EXPECT_EQ(pages[0].resources, "<</A 1>>");
  EXPECT_EQ(pages[1].num, 5u);
  EXPECT_EQ(pages[1].media_box, "[0 0 100 100]");
  EXPECT_EQ(pages[1].crop_box, "[1 1 50 50]");  // resolved
  EXPECT_EQ(pages[1].rotate, "90");
  EXPECT_EQ(pages[1].resources, "6 0 R");       // as written
}

TEST(PageTree, NodesAreReadAheadInFileOrderSoTheWindowCrossesTheFileOncePerLevel) {
  GenerateOptions options;
  options.objects = 3000;
  options.payload = 200;
  options.shuffle = true;  // pages anywhere in the file
  options.pages = 320;     // ten /Pages nodes of 32 pages under the root
  pdftest::TempFile file(pdftest::generated_pdf(options), "page_walk");
  SourceOptions window;
  window.kind = SourceKind::mapped;
  window.window = 64 << 10;
  window.granularity = 4 << 10;
  auto source = open_source(file.path(), window);
  Document doc(*source);
  const std::uint64_t maps_before = source->counts().map;
  ASSERT_EQ(doc.page_count(), 320u);
  const std::uint64_t windows = (source->size() + window.window - 1) / window.window;
  ASSERT_GE(windows, 8u);
  // The ten nodes under the root in one forward pass, their 320 pages in another: at most every
  // window once per pass, plus the one a pass starts from, plus the catalog's and the root's.
  // Visited in /Kids order as they are read, they took about one map per page.
  EXPECT_LE(source->counts().map - maps_before, 2 * (windows + 1) + 2);
}

TEST(PageTree, ATreeLargerThanTheReadAheadIsWalkedInOrder) {
  GenerateOptions options;
  options.objects = 100;
  options.payload = 20;
  options.shuffle = true;
  options.pages = 6000;  // three levels; its page dictionaries hold more than the read-ahead's 1 MiB
  const std::string pdf = pdftest::generated_pdf(options);
  auto source = memory_source(pdf);
  Document doc(*source);
  std::vector<std::uint32_t> numbers;
  doc.walk_pages([&](const PageInfo& page) { numbers.push_back(page.id.num); });
  ASSERT_EQ(numbers.size(), 6000u);
  for (std::uint32_t i = 0; i < numbers.size(); ++i) ASSERT_EQ(numbers[i], 3 + i) << "page " << i;  // the generator numbers pages from 3
}

TEST(PageTree, ErrorsComeInTreeOrderThoughKidsAreReadInFileOrder) {
  std::vector<std::size_t> offsets;
  std::string pdf = classic_pdf(
      {
          "<< /Type /Catalog /Pages 2 0 R >>",
          "<< /Type /Pages /Kids [5 0 R 4 0 R 3 0 R] /Count 3 >>",
          "<< /Type /Page /Parent 2 0 R >>",
          "<< /Type /Page /Parent 2 0 R >>",
          "<< /Type /Page /Parent 2 0 R >>",
      },
      "", "\r\n", &offsets);
  ASSERT_TRUE(pdftest::break_object_header(pdf, offsets[2]));  // object 3: first in the file, last in /Kids
  ASSERT_TRUE(pdftest::break_object_header(pdf, offsets[4]));  // object 5: last in the file, first in /Kids
  auto source = memory_source(pdf);
  Document doc(*source);
  const std::string error = pdftest::outcome_of([&] { doc.page_count(); });
  EXPECT_NE(error.find("object 5 "), std::string::npos) << error;
}

}  // namespace
