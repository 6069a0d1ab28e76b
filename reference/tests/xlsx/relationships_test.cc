#include <gtest/gtest.h>

#include "docconform/error.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

const std::string one_cell = sheet("<row r=\"1\"><c r=\"A1\"><v>7</v></c></row>");

std::string workbook_xml(const std::string& sheets = "<sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/>") {
  return std::string("<workbook xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel + "\"><sheets>" + sheets +
         "</sheets></workbook>";
}

Workbook load(const Entries& entries) { return load_workbook(build_zip(with_content_types(entries)), {}, "test.xlsx"); }

Error load_error(const Entries& entries) {
  try {
    load(entries);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded";
  return Error(ErrorKind::usage, {}, "");
}

TEST(XlsxRelationships, WorkbookFoundThroughRootRelsNotByName) {
  const Workbook wb = load({{"_rels/.rels", rels({{"officeDocument", "book/main.xml"}})},
                            {"book/main.xml", workbook_xml()},
                            {"book/_rels/main.xml.rels", rels({{"worksheet", "../data/s.xml"}})},
                            {"data/s.xml", one_cell}});
  ASSERT_EQ(wb.sheets.size(), 1u);
  EXPECT_EQ(wb.sheets[0].part, "data/s.xml");
  EXPECT_EQ(wb.cell_count(), 1u);
}

// Macro sheets hold ordinary sheetData; dialog sheets hold none. Both are listed with their kind.
TEST(XlsxRelationships, EverySheetKindListedWithItsKindAndCells) {
  const std::string macro = std::string("<xm:macrosheet xmlns=\"") + ns_main +
                            "\" xmlns:xm=\"http://schemas.microsoft.com/office/excel/2006/main\"><sheetData>"
                            "<row r=\"1\"><c r=\"A1\" t=\"b\"><f>RETURN()</f><v>1</v></c><c r=\"B1\"><v>2</v></c>"
                            "</row></sheetData></xm:macrosheet>";
  const std::string dialog = std::string("<dialogsheet xmlns=\"") + ns_main + "\"><sheetPr/></dialogsheet>";
  const Workbook wb = load(
      {{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
       {"xl/workbook.xml", workbook_xml("<sheet name=\"W\" sheetId=\"1\" r:id=\"rId1\"/>"
                                        "<sheet name=\"M\" sheetId=\"2\" r:id=\"rId2\"/>"
                                        "<sheet name=\"D\" sheetId=\"3\" r:id=\"rId3\"/>"
                                        "<sheet name=\"I\" sheetId=\"4\" r:id=\"rId4\"/>")},
       {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"},
                                            {"xlMacrosheet", "macrosheets/sheet1.xml"},
                                            {"dialogsheet", "dialogsheets/sheet1.xml"},
                                            {"xlIntlMacrosheet", "macrosheets/intlsheet1.xml"}})},
       {"xl/worksheets/sheet1.xml", one_cell},
       {"xl/macrosheets/sheet1.xml", macro},
       {"xl/dialogsheets/sheet1.xml", dialog},
       {"xl/macrosheets/intlsheet1.xml", macro}});
  ASSERT_EQ(wb.sheets.size(), 4u);
  EXPECT_EQ(wb.sheets[0].kind, SheetKind::worksheet);
  EXPECT_EQ(wb.sheets[1].kind, SheetKind::macrosheet);
  EXPECT_EQ(wb.sheets[2].kind, SheetKind::dialogsheet);
  EXPECT_EQ(wb.sheets[3].kind, SheetKind::intlmacrosheet);
  EXPECT_EQ(wb.sheets[0].cell_count(), 1u);
  EXPECT_EQ(wb.sheets[1].cell_count(), 2u);
  EXPECT_EQ(wb.sheets[2].cell_count(), 0u);
  EXPECT_EQ(wb.sheets[3].cell_count(), 2u);
}

// A relationship's kind is its type URI under the namespaces that define it (ECMA-376 Part 1
// transitional and strict, MS-XLSX): the same last segment under any other URI is another type.
TEST(XlsxRelationships, TypesAreMatchedAsWholeUrisOfTheirNamespaces) {
  auto with_sheet_type = [](const std::string& type) {
    std::string book_rels = rels({{"worksheet", "worksheets/sheet1.xml"}});
    book_rels.replace(book_rels.find(ns_rel), std::string(ns_rel).size() + std::string("/worksheet").size(), type);
    return Entries{{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                   {"xl/workbook.xml", workbook_xml()},
                   {"xl/_rels/workbook.xml.rels", book_rels},
                   {"xl/worksheets/sheet1.xml", one_cell}};
  };
  EXPECT_EQ(load(with_sheet_type("http://purl.oclc.org/ooxml/officeDocument/relationships/worksheet")).sheets.size(), 1u);
  for (const char* other : {"http://example.com/relationships/worksheet",
                            "http://schemas.openxmlformats.org/officeDocument/2006/relationships/x/worksheet",
                            "worksheet"}) {
    const Error e = load_error(with_sheet_type(other));
    EXPECT_EQ(e.kind(), ErrorKind::format) << other << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find("outside the namespaces"), std::string::npos) << e.what();
  }
}

TEST(XlsxRelationships, AbsoluteTargetsCaseAndBackslashes) {
  const Workbook wb = load({{"_rels/.rels", rels({{"officeDocument", "/xl/workbook.xml"}})},
                            {"xl/workbook.xml", workbook_xml("<sheet name=\"A\" sheetId=\"1\" r:id=\"rId1\"/>"
                                                             "<sheet name=\"B\" sheetId=\"2\" r:id=\"rId2\" "
                                                             "state=\"veryHidden\"/>")},
                            {"xl/_rels/workbook.xml.rels",
                             rels({{"worksheet", "/xl/worksheets/sheet1.xml"}, {"worksheet", "Worksheets\\SHEET2.xml"}})},
                            {"XL/Worksheets/Sheet1.xml", one_cell},
                            {"xl/worksheets/sheet2.xml", one_cell}});
  ASSERT_EQ(wb.sheets.size(), 2u);
  EXPECT_EQ(wb.sheets[1].state, SheetState::very_hidden);
  EXPECT_EQ(wb.cell_count(), 2u);
}

TEST(XlsxRelationships, CommentsTablesDrawingsAndCharts) {
  const std::string s = sheet("<row r=\"1\"><c r=\"A1\"><v>7</v></c></row>",
                              "<mergeCells count=\"1\"><mergeCell ref=\"B1:C2\"/></mergeCells>"
                              "<drawing r:id=\"rId3\"/><tableParts count=\"1\"><tablePart r:id=\"rId2\"/></tableParts>");
  const Workbook wb = load(
      {{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
       {"xl/workbook.xml", workbook_xml()},
       {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}})},
       {"xl/worksheets/sheet1.xml", s},
       {"xl/worksheets/_rels/sheet1.xml.rels",
        rels({{"comments", "../comments1.xml"}, {"table", "/xl/tables/table1.xml"}, {"drawing", "../drawings/d1.xml"}})},
       {"xl/comments1.xml", std::string("<comments xmlns=\"") + ns_main +
                                "\"><authors><author>me</author></authors><commentList><comment ref=\"A1\" "
                                "authorId=\"0\"><text><t>hi</t></text></comment></commentList></comments>"},
       {"xl/tables/table1.xml", std::string("<table xmlns=\"") + ns_main + "\" id=\"1\" name=\"T\" displayName=\"T\" ref=\"A1:A1\"/>"},
       {"xl/drawings/d1.xml", "<wsDr/>"},
       {"xl/drawings/_rels/d1.xml.rels", rels({{"chart", "../charts/chart1.xml"}})},
       {"xl/charts/chart1.xml", "<chartSpace/>"}});
  const Sheet& sh = wb.sheets[0];
  ASSERT_EQ(sh.comments.size(), 1u);
  EXPECT_EQ(sh.comments[0].author, u"me");
  EXPECT_EQ(sh.comments[0].text, u"hi");
  ASSERT_EQ(sh.tables.size(), 1u);
  EXPECT_EQ(sh.tables[0].ref, u"A1:A1");
  ASSERT_EQ(sh.merged_cells.size(), 1u);
  EXPECT_EQ(sh.drawings, std::vector<std::string>{"xl/drawings/d1.xml"});
  EXPECT_EQ(sh.charts, std::vector<std::string>{"xl/charts/chart1.xml"});
}

TEST(XlsxRelationships, CommentAuthorIdIsAnUnsignedInteger) {
  const auto with_author_id = [](const std::string& id) {
    return Entries{
        {"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
        {"xl/workbook.xml", workbook_xml()},
        {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}})},
        {"xl/worksheets/sheet1.xml", sheet("<row r=\"1\"><c r=\"A1\"><v>7</v></c></row>")},
        {"xl/worksheets/_rels/sheet1.xml.rels", rels({{"comments", "../comments1.xml"}})},
        {"xl/comments1.xml", std::string("<comments xmlns=\"") + ns_main +
                                 "\"><authors><author>a</author><author>b</author></authors><commentList><comment ref=\"A1\" "
                                 "authorId=\"" + id + "\"><text><t>hi</t></text></comment></commentList></comments>"}};
  };
  EXPECT_EQ(load(with_author_id(" 1 ")).sheets[0].comments.at(0).author, u"b");
  for (const char* bad : {"0junk", "-0", "1x", ""}) {
    const Error e = load_error(with_author_id(bad));
    EXPECT_EQ(e.context().part, "xl/comments1.xml") << bad;
    EXPECT_NE(e.message().find("authorId is not an integer"), std::string::npos) << bad << ": " << e.message();
  }
}

TEST(XlsxRelationships, MissingRelationshipsAreErrorsWithPartAndOffset) {
  // A target that is not in the package: the <Relationship> element in the .rels part.
  const std::string workbook_rels = rels({{"worksheet", "worksheets/missing.xml"}});
  Error e = load_error({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                        {"xl/workbook.xml", workbook_xml()},
                        {"xl/_rels/workbook.xml.rels", workbook_rels}});
  EXPECT_EQ(e.context().part, "xl/_rels/workbook.xml.rels");
  EXPECT_EQ(e.context().offset, workbook_rels.find("<Relationship "));
  EXPECT_NE(e.message().find("not in the package"), std::string::npos);

  // An r:id the .rels part lacks: the element that names it.
  const std::string workbook = workbook_xml("<sheet name=\"S\" sheetId=\"1\" r:id=\"rId9\"/>");
  e = load_error({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                  {"xl/workbook.xml", workbook},
                  {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}})},
                  {"xl/worksheets/sheet1.xml", one_cell}});
  EXPECT_NE(e.message().find("rId9"), std::string::npos);
  EXPECT_EQ(e.context().part, "xl/workbook.xml");
  EXPECT_EQ(e.context().offset, workbook.find("<sheet "));

  e = load_error({{"xl/workbook.xml", workbook_xml()}});
  EXPECT_EQ(e.context().part, "_rels/.rels");
  EXPECT_NE(e.message().find("missing"), std::string::npos);

  // A root .rels part without an officeDocument relationship: its end, where the list stopped.
  const std::string root_rels = rels({{"worksheet", "xl/worksheets/sheet1.xml"}});
  e = load_error({{"_rels/.rels", root_rels}, {"xl/workbook.xml", workbook_xml()}});
  EXPECT_EQ(e.context().part, "_rels/.rels");
  EXPECT_EQ(e.context().offset, root_rels.size());
  EXPECT_NE(e.message().find("no officeDocument relationship"), std::string::npos);
}

TEST(XlsxRelationships, CyclesAreErrors) {
  Error e = load_error({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                        {"xl/workbook.xml", workbook_xml()},
                        {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "workbook.xml"}})}});
  EXPECT_NE(e.message().find("cycle"), std::string::npos);
  const std::string s = sheet("", "<drawing r:id=\"rId1\"/>");
  e = load_error({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                  {"xl/workbook.xml", workbook_xml()},
                  {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}})},
                  {"xl/worksheets/sheet1.xml", s},
                  {"xl/worksheets/_rels/sheet1.xml.rels", rels({{"drawing", "../drawings/d1.xml"}})},
                  {"xl/drawings/d1.xml", "<wsDr/>"},
                  {"xl/drawings/_rels/d1.xml.rels", rels({{"chart", "../worksheets/sheet1.xml"}})}});
  EXPECT_NE(e.message().find("cycle"), std::string::npos);
}

TEST(XlsxRelationships, ARepeatedIdIsAnErrorAtTheSecondRelationship) {
  // Two rId1 in the workbook's rels, pointing at different sheets (OPC [M1.26]: Ids are unique).
  std::string book_rels = rels({{"worksheet", "worksheets/sheet1.xml"}, {"worksheet", "worksheets/sheet2.xml"}});
  book_rels.replace(book_rels.find("rId2"), 4, "rId1");
  const std::size_t second = book_rels.find("<Relationship", book_rels.find("rId1"));
  const Error e = load_error({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                              {"xl/workbook.xml", workbook_xml()},
                              {"xl/_rels/workbook.xml.rels", book_rels},
                              {"xl/worksheets/sheet1.xml", one_cell},
                              {"xl/worksheets/sheet2.xml", one_cell}});
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().part, "xl/_rels/workbook.xml.rels");
  EXPECT_GE(e.context().offset.value_or(0), second) << e.what();
  EXPECT_NE(e.message().find("relationship Id 'rId1' repeats an earlier one"), std::string::npos) << e.what();
}

// ECMA-376 Part 1 18.2.19: a sheet's name shall be unique; names differing only in case are
// distinct there (Office's case-insensitive rule is its own, MS-OI29500 2.1.578).
TEST(XlsxRelationships, SheetNamesAreUniqueAtTheSecondSheet) {
  const auto two_sheets = [](const char* second) {
    return Entries{{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                   {"xl/workbook.xml", workbook_xml(std::string("<sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/><sheet name=\"") +
                                                    second + "\" sheetId=\"2\" r:id=\"rId2\"/>")},
                   {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}, {"worksheet", "worksheets/sheet2.xml"}})},
                   {"xl/worksheets/sheet1.xml", one_cell},
                   {"xl/worksheets/sheet2.xml", one_cell}};
  };
  EXPECT_EQ(load(two_sheets("s")).sheets.size(), 2u);
  const Entries same = two_sheets("S");
  const Error e = load_error(same);
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().part, "xl/workbook.xml");
  EXPECT_EQ(e.context().offset, same[1].second.find("<sheet name=\"S\" sheetId=\"2\"")) << e.what();
  EXPECT_EQ(e.message(), "a second sheet has the name \"S\" (sheet names are unique)");
}

TEST(XlsxRelationships, TargetsLeavingThePackageAreErrors) {
  const Error e = load_error({{"_rels/.rels", rels({{"officeDocument", "../../etc/workbook.xml"}})}});
  EXPECT_EQ(e.kind(), ErrorKind::format);
}

TEST(XlsxRelationships, Date1904AcceptsXsdBooleans) {
  for (const char* v : {"1", "true"}) {
    const Workbook wb =
        load({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
              {"xl/workbook.xml", std::string("<workbook xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel +
                                      "\"><workbookPr date1904=\"" + v + "\"/><sheets/></workbook>"}});
    EXPECT_TRUE(wb.date1904) << v;
  }
}

}  // namespace
}  // namespace docconform::xlsx::test

namespace docconform::xlsx::test {
namespace {

// Rejections of the walk give the byte offset of the element at fault.
TEST(XlsxRelationshipOffsets, UnsupportedSheetTypeAtItsRelationship) {
  const std::string wb_rels = rels({{"customXml", "worksheets/sheet1.xml"}});
  const Error e = load_error({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                              {"xl/workbook.xml", workbook_xml()},
                              {"xl/_rels/workbook.xml.rels", wb_rels},
                              {"xl/worksheets/sheet1.xml", one_cell}});
  EXPECT_EQ(e.kind(), ErrorKind::unsupported);
  EXPECT_EQ(e.context().part, "xl/_rels/workbook.xml.rels");
  EXPECT_EQ(e.context().offset, wb_rels.find("<Relationship "));
  EXPECT_EQ(std::string(e.what()), "test.xlsx: xl/_rels/workbook.xml.rels: offset " +
                                       std::to_string(wb_rels.find("<Relationship ")) +
                                       ": unsupported error: sheet 'rId1' has unsupported relationship type " +
                                       ns_rel + "/customXml");
}

TEST(XlsxRelationshipOffsets, SheetsOverTheLimitAtTheFirstSheetOver) {
  const std::string book = workbook_xml("<sheet name=\"A\" sheetId=\"1\" r:id=\"rId1\"/><sheet name=\"B\" sheetId=\"2\" r:id=\"rId1\"/>");
  LoadOptions options;
  options.limits.max_sheets = 1;
  try {
    load_workbook(build_zip(with_content_types({{"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
                                                {"xl/workbook.xml", book},
                                                {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}})},
                                                {"xl/worksheets/sheet1.xml", one_cell}})),
                  options, "test.xlsx");
    ADD_FAILURE() << "loaded";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "test.xlsx: xl/workbook.xml: offset " + std::to_string(book.find("<sheet name=\"B\"")) +
                                         ": limit error: more sheets than max_sheets (1)");
  }
}

}  // namespace
}  // namespace docconform::xlsx::test
