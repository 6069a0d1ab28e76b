#include <gtest/gtest.h>

#include "docconform/error.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

std::string cells(const std::string& sheet_data, const std::string& sst = "", const std::string& after = "") {
  return cells_of(workbook_with_sheet(sheet(sheet_data, after), sst));
}

TEST(XlsxCellTypes, NumberIsTheDefaultType) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\"><v>1.5</v></c><c r=\"B1\" t=\"n\"><v>-0</v></c></row>"),
            "cell A1 n 1.5\ncell B1 n -0\n");
}

TEST(XlsxCellTypes, NumbersAreCorrectlyRounded) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\"><v>0.1</v></c><c r=\"B1\"><v>1E-3</v></c><c r=\"C1\"><v>+2</v></c>"
                  "<c r=\"D1\"><v> 9007199254740993 </v></c><c r=\"E1\"><v>1e400</v></c></row>"),
            "cell A1 n 0.1\ncell B1 n 0.001\ncell C1 n 2\ncell D1 n 9007199254740992\ncell E1 n Infinity\n");
}

TEST(XlsxCellTypes, SharedStringIndexesTheTable) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>1</v></c></row>", "<si><t>a</t></si><si><t>b</t></si>"),
            "cell A1 s \"b\"\n");
}

TEST(XlsxCellTypes, FormulaStringInlineStringBooleanErrorDate) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\" t=\"str\"><f>\"x\"&amp;\"y\"</f><v>xy</v></c>"
                  "<c r=\"B1\" t=\"inlineStr\"><is><t>inline</t></is><v>ignored</v></c>"
                  "<c r=\"C1\" t=\"b\"><v>1</v></c><c r=\"D1\" t=\"b\"><v>0</v></c>"
                  "<c r=\"E1\" t=\"e\"><v>#DIV/0!</v></c><c r=\"F1\" t=\"d\"><v>2024-02-29T12:00:00</v></c></row>"),
            "cell A1 s \"xy\"\nformula normal \"\\\"x\\\"&\\\"y\\\"\"\ncell B1 s \"inline\"\ncell C1 b true\n"
            "cell D1 b false\ncell E1 e \"#DIV/0!\"\ncell F1 d \"2024-02-29T12:00:00\"\n");
}

TEST(XlsxCellTypes, StyleIndexAndBlankCells) {
  const std::string s = sheet("<row r=\"2\"><c r=\"A2\" s=\"3\"/><c r=\"B2\" s=\"\"><v>1</v></c></row>");
  EXPECT_EQ(cells_of(workbook_with_sheet(s)), "cell A2 blank\ncell B2 n 1\n");
  const Workbook wb = load_workbook(workbook_with_sheet(s));
  const Segment& seg = wb.sheets[0].segments[0];
  EXPECT_EQ(seg.cells[0].style, 3u);
  EXPECT_EQ(seg.cells[0].type, CellType::blank);
  EXPECT_EQ(seg.cells[1].style, 0u);
}

TEST(XlsxCellTypes, CellsHiddenByAMergedRangeAreNotDumped) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\"><v>1</v></c><c r=\"B1\"><v>2</v></c><c r=\"C1\"><v>3</v></c></row>",
                  "", "<mergeCells count=\"1\"><mergeCell ref=\"A1:B1\"/></mergeCells>"),
            "cell A1 n 1\ncell C1 n 3\nmerge \"A1:B1\"\n");
}

TEST(XlsxCellTypes, SharedAndArrayFormulasKeepTheirCachedValues) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\"><f t=\"shared\" ref=\"A1:A2\" si=\"0\">B1*2</f><v>4</v></c></row>"
                  "<row r=\"2\"><c r=\"A2\"><f t=\"shared\" si=\"0\"/><v>6</v></c>"
                  "<c r=\"B2\"><f t=\"array\" ref=\"B2\">SUM(A1:A2)</f><v>10</v></c></row>"),
            "cell A1 n 4\nformula shared si=0 ref=\"A1:A2\" \"B1*2\"\ncell A2 n 6\nformula shared si=0 \"\"\n"
            "cell B2 n 10\nformula array ref=\"B2\" \"SUM(A1:A2)\"\n");
}

TEST(XlsxCellTypes, MissingReferencesAreImplied) {
  EXPECT_EQ(cells("<row><c><v>1</v></c><c><v>2</v></c></row><row r=\"5\"><c r=\"C5\"><v>3</v></c><c><v>4</v></c></row>"
                  "<row><c><v>5</v></c></row>"),
            "cell A1 n 1\ncell B1 n 2\ncell C5 n 3\ncell D5 n 4\ncell A6 n 5\n");
}

TEST(XlsxCellTypes, RowWithoutNumberTakesItFromItsFirstCell) {
  EXPECT_EQ(cells("<row><c r=\"B7\"><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c></row>"),
            "cell B7 n 1\ncell C7 n 2\ncell A8 n 3\n");
}

TEST(XlsxCellTypes, RichTextRunsConcatenatePhoneticTextExcluded) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\" t=\"s\"><v>0</v></c></row>",
                  "<si><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space=\"preserve\"> rest</t></r>"
                  "<rPh sb=\"0\" eb=\"1\"><t>PH</t></rPh><phoneticPr fontId=\"1\"/></si>"),
            "cell A1 s \"bold rest\"\n");
}

TEST(XlsxCellTypes, DuplicateCellsLastOneWinsAndCellsAreOrdered) {
  EXPECT_EQ(cells("<row r=\"2\"><c r=\"B2\"><v>1</v></c></row><row r=\"1\"><c r=\"A1\"><v>2</v></c></row>"
                  "<row r=\"2\"><c r=\"B2\"><v>3</v></c></row>"),
            "cell A1 n 2\ncell B2 n 3\n");
}

TEST(XlsxCellTypes, BadValuesAreRejected) {
  for (const char* bad : {"<row r=\"1\"><c r=\"A1\"><v>abc</v></c></row>",
                          "<row r=\"1\"><c r=\"A1\" t=\"b\"><v>2</v></c></row>",
                          "<row r=\"1\"><c r=\"A1\" t=\"x\"><v>2</v></c></row>",
                          "<row r=\"1\"><c r=\"A1\" t=\"s\"><v>x</v></c></row>"}) {
    EXPECT_THROW(cells(bad, "<si><t>a</t></si>"), Error) << bad;
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
