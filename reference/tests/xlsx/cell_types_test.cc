#include <gtest/gtest.h>

#include <bit>
#include <charconv>
#include <vector>

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

TEST(XlsxCellTypes, OnlyXsdSpellingsOfTheSpecialValues) {
  EXPECT_EQ(cells("<row r=\"1\"><c r=\"A1\"><v>INF</v></c><c r=\"B1\"><v>-INF</v></c><c r=\"C1\"><v>+INF</v></c>"
                  "<c r=\"D1\"><v> NaN </v></c></row>"),
            "cell A1 n Infinity\ncell B1 n -Infinity\ncell C1 n Infinity\ncell D1 n NaN\n");
  for (const char* text : {"inf", "Infinity", "-inf", "nan", "nan(123)", "NAN", "-NaN", "+-1", "+", "-", "e5", "0x10"}) {
    EXPECT_THROW(load_workbook(workbook_with_sheet(sheet(std::string("<row r=\"1\"><c r=\"A1\"><v>") + text + "</v></c></row>"))),
                 Error)
        << text;
  }
}

TEST(XlsxCellTypes, ShortDecimalsRoundAsFromCharsDoes) {
  // Up to 15 digits take an exact shortcut (one division); the rest std::from_chars. Both must
  // give the same bits.
  std::vector<std::string> values = {"999999999999999", "9999999999999999", "0.000000000000001", "123456789012.345",
                                     "1234567890123.456", "-0.0", "00012", "1.", ".5", "-.5", "1.0e5", "5e-324",
                                     "0.1", "-2.675", "1.7976931348623157", "4.35", "0", "-0"};
  std::uint64_t state = 7;
  for (int i = 0; i < 3000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const int digits = 1 + static_cast<int>((state >> 33) % 17);
    const int point = static_cast<int>((state >> 13) % (digits + 1));
    std::string v = (state >> 7) % 3 == 0 ? "-" : "";
    std::uint64_t r = state;
    for (int d = 0; d < digits; ++d) {
      if (d == point && d > 0) v += '.';
      r = r * 6364136223846793005ull + 1442695040888963407ull;
      v += static_cast<char>('0' + (r >> 40) % 10);
    }
    values.push_back(v);
  }
  std::string rows;
  for (std::size_t i = 0; i < values.size(); ++i) {
    rows += "<row r=\"" + std::to_string(i + 1) + "\"><c><v>" + values[i] + "</v></c></row>";
  }
  const Workbook wb = load_workbook(workbook_with_sheet(sheet(rows)));
  const Segment& seg = wb.sheets[0].segments[0];
  ASSERT_EQ(seg.cells.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    double expected = 0;
    const std::string& v = values[i];
    std::from_chars(v.data(), v.data() + v.size(), expected);
    EXPECT_EQ(std::bit_cast<std::uint64_t>(seg.cells[i].number()), std::bit_cast<std::uint64_t>(expected)) << v;
  }
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

// ST_CellRef (ECMA-376 Part 1 18.18.7) is column letters then a row number: neither alone.
TEST(XlsxCellTypes, ACellReferenceNeedsItsColumnAndItsRow) {
  for (const char* ref : {"B", "7", "", "1A", "A0"}) {
    EXPECT_THROW(cells(std::string("<row r=\"1\"><c r=\"") + ref + "\"><v>1</v></c></row>"), Error) << ref;
    EXPECT_THROW(cells(std::string("<row><c r=\"") + ref + "\"><v>1</v></c></row>"), Error) << ref;
  }
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
