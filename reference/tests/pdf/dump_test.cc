// The level-3 dump of a large file is written in bounded pieces (never held whole) that join to
// exactly the dump pdf_dump returns.
#include <gtest/gtest.h>

#include <algorithm>

#include "docconform/pdf/dump.h"
#include "docconform/pdf/generate.h"
#include "pdf_test_util.h"

namespace {

using namespace docconform::pdf;

TEST(PdfDump, LargeDumpComesInBoundedPiecesThatJoinToTheWholeDump) {
  GenerateOptions options;
  options.objects = 6000;
  options.payload = 300;
  options.object_streams = true;
  options.pages = 10;
  pdftest::TempFile file(pdftest::generated_pdf(options), "pieces");

  std::string joined;
  std::size_t pieces = 0, largest = 0;
  write_pdf_dump_file(file.path(), {}, 3, {}, [&](std::string_view piece) {
    ++pieces;
    largest = std::max(largest, piece.size());
    joined += piece;
  });
  const std::string whole = pdf_dump_file(file.path(), {}, 3);
  EXPECT_EQ(joined, whole);
  ASSERT_GT(whole.size(), 2u << 20);
  EXPECT_GE(pieces, 2u);
  EXPECT_LT(largest, (1u << 20) + 64 * 1024) << "a piece is 1 MiB plus at most one line";
}

}  // namespace
