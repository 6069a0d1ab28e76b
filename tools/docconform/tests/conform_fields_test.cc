// The fields of a dump that `conform sweep` compares one by one (conform_fields.h).
#include "conform_fields.h"

#include <gtest/gtest.h>

namespace docconform::cli {
namespace {

TEST(DumpFields, XlsxCellsBelongToTheirSheet) {
  const std::string two_sheets =
      "docconform-dump xlsx 1\nworkbook date1904=false sheets=2\nsheet 1 \"A\" visible worksheet\ncell A1 n 1\n"
      "sheet 2 \"B\" visible worksheet\nmerge \"A1:B2\"\nend\n";
  const std::string moved =
      "docconform-dump xlsx 1\nworkbook date1904=false sheets=2\nsheet 1 \"A\" visible worksheet\n"
      "sheet 2 \"B\" visible worksheet\ncell A1 n 1\nmerge \"A1:B2\"\nend\n";
  const auto a = dump_field_digests("xlsx", two_sheets);
  const auto b = dump_field_digests("xlsx", moved);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a.at("sheets").lines, 3u);
  EXPECT_EQ(a.at("cells").lines, 1u);  // the sheet markers are not lines of the field
  EXPECT_EQ(a.at("other").lines, 3u);  // the header, merge, end
  EXPECT_EQ(a.at("sheets"), b.at("sheets"));
  EXPECT_EQ(a.at("other"), b.at("other"));
  EXPECT_NE(a.at("cells"), b.at("cells"));  // the same cell in another sheet
}

TEST(DumpFields, PdfPagesObjectsAndOther) {
  const auto f = dump_field_digests(
      "pdf3", "docconform-dump pdf 1\nlevel 3\nversion \"1.7\"\npages 1\nobjects 1\nxref 1 0 n 15\nsection 9 table 2\n"
              "page 1 3 0 mediabox [0 0 1 1] rotate null\nobj 1 0 null\n");
  EXPECT_EQ(f.at("pages").lines, 2u);
  EXPECT_EQ(f.at("objects").lines, 3u);
  EXPECT_EQ(f.at("other").lines, 4u);
  EXPECT_EQ(dump_field_names("pdf"), (std::vector<std::string>{"pages", "objects", "other"}));
}

TEST(DumpFields, SstStringsAndEmptyFields) {
  const auto f = dump_field_digests("sst", "docconform-dump sst 1\nstrings 2\n\"a\"\n\"strings 3\"\n");
  EXPECT_EQ(f.at("strings").lines, 3u);
  EXPECT_EQ(f.at("other").lines, 1u);
  const auto none = dump_field_digests("sst", "");
  EXPECT_EQ(none.at("strings").lines, 0u);
  EXPECT_EQ(none.at("strings").sha256, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_NE(f.at("strings"), dump_field_digests("sst", "docconform-dump sst 1\nstrings 2\n\"a\"\n\"b\"\n").at("strings"));
}

}  // namespace
}  // namespace docconform::cli
