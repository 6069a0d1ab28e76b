// [Content_Types].xml (conformance/SPEC.md, format xlsx, "Content types"): the part must be there
// and well-formed, and the workbook and sheet parts must be declared as what they are reached as.
#include <gtest/gtest.h>

#include "docconform/error.h"
#include "test_workbook.h"

namespace docconform::xlsx::test {
namespace {

using Entries = std::vector<std::pair<std::string, std::string>>;

const std::string types_open = "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">";
const std::string rels_default =
    "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>";
const std::string main_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml";
const std::string worksheet_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml";

std::string override_of(const std::string& part, const std::string& type) {
  return "<Override PartName=\"" + part + "\" ContentType=\"" + type + "\"/>";
}

// A one-sheet package (workbook xl/workbook.xml, sheet xl/worksheets/sheet1.xml) with these types.
Entries package_with(const std::optional<std::string>& types) {
  Entries entries{
      {"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
      {"xl/workbook.xml", std::string("<workbook xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel +
                              "\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"},
      {"xl/_rels/workbook.xml.rels", rels({{"worksheet", "worksheets/sheet1.xml"}})},
      {"xl/worksheets/sheet1.xml", sheet("<row r=\"1\"><c r=\"A1\"><v>7</v></c></row>")},
  };
  if (types) entries.insert(entries.begin(), {"[Content_Types].xml", *types});
  return entries;
}

Error load_error(const Entries& entries) {
  try {
    load_workbook(build_zip(entries), {}, "t.xlsx");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded";
  return Error(ErrorKind::usage, {}, "");
}

std::size_t loaded_cells(const std::string& types) {
  return load_workbook(build_zip(package_with(types)), {}, "t.xlsx").cell_count();
}

TEST(XlsxContentTypes, MissingPartRejectedNamingIt) {
  const Error e = load_error(package_with(std::nullopt));
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().file, "t.xlsx");
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_NE(e.message().find("missing"), std::string::npos) << e.what();
}

TEST(XlsxContentTypes, NotWellFormedRejectedAtTheEnd) {
  const std::string types = types_open + rels_default;  // <Types> never closed
  const Error e = load_error(package_with(types));
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_EQ(e.context().offset, types.size()) << e.what();
}

TEST(XlsxContentTypes, OtherRootRejected) {
  const Error e = load_error(package_with("<Typez/>"));
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_EQ(e.context().offset, 0u);
  EXPECT_NE(e.message().find("<Types>"), std::string::npos) << e.what();
}

TEST(XlsxContentTypes, WorksheetDeclaredAsSomethingElseRejectedAtItsOverride) {
  const std::string wrong = override_of("/xl/worksheets/sheet1.xml",
                                        "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml");
  const std::string types = types_open + override_of("/xl/workbook.xml", main_type) + wrong + "</Types>";
  const Error e = load_error(package_with(types));
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_EQ(e.context().offset, types.find(wrong)) << e.what();
  EXPECT_NE(e.message().find("xl/worksheets/sheet1.xml is a worksheet"), std::string::npos) << e.what();
}

// A macro sheet reached through xlMacrosheet must be declared as one, not as a worksheet.
TEST(XlsxContentTypes, MacroSheetDeclaredAsWorksheetRejectedAndAsMacroSheetRead) {
  auto entries = [](const std::string& type) {
    Entries e = package_with(types_open + rels_default + override_of("/xl/workbook.xml", main_type) +
                             override_of("/xl/worksheets/sheet1.xml", type) + "</Types>");
    e[3].second = rels({{"xlMacrosheet", "worksheets/sheet1.xml"}});
    return e;
  };
  const Error e = load_error(entries(worksheet_type));
  EXPECT_EQ(e.kind(), ErrorKind::format);
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_NE(std::string(e.what()).find("a macro sheet"), std::string::npos) << e.what();
  const Workbook wb = load_workbook(build_zip(entries("application/vnd.ms-excel.macrosheet+xml")), {}, "t.xlsx");
  ASSERT_EQ(wb.sheets.size(), 1u);
  EXPECT_EQ(wb.sheets[0].kind, SheetKind::macrosheet);
  EXPECT_EQ(wb.cell_count(), 1u);
}

TEST(XlsxContentTypes, WorkbookDeclaredAsPresentationRejected) {
  const std::string wrong =
      override_of("/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml");
  const std::string types = types_open + wrong + override_of("/xl/worksheets/sheet1.xml", worksheet_type) + "</Types>";
  const Error e = load_error(package_with(types));
  EXPECT_EQ(e.context().offset, types.find(wrong)) << e.what();
  EXPECT_NE(e.message().find("xl/workbook.xml is the workbook part"), std::string::npos) << e.what();
}

TEST(XlsxContentTypes, UndeclaredPartRejectedAtTypes) {
  const std::string types = types_open + rels_default + override_of("/xl/workbook.xml", main_type) + "</Types>";
  const Error e = load_error(package_with(types));
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_EQ(e.context().offset, types.find("<Types")) << e.what();
  EXPECT_NE(e.message().find("no content type for xl/worksheets/sheet1.xml"), std::string::npos) << e.what();
}

TEST(XlsxContentTypes, IncompleteDeclarationRejected) {
  const Error e = load_error(package_with(types_open + "<Override PartName=\"/xl/workbook.xml\"/></Types>"));
  EXPECT_EQ(e.context().part, "[Content_Types].xml");
  EXPECT_EQ(e.context().offset, types_open.size());
}

TEST(XlsxContentTypes, OverridesMatchLikePartNamesAndTypesIgnoreCase) {
  EXPECT_EQ(loaded_cells(types_open + override_of("/XL/Workbook.xml", "application/vnd.ms-excel.sheet.macroEnabled.main+xml") +
                         override_of("\\xl\\WORKSHEETS\\sheet1.XML",
                                     "Application/Vnd.OpenXmlFormats-OfficeDocument.SpreadsheetML.Worksheet+XML") +
                         "</Types>"),
            1u);
}

TEST(XlsxContentTypes, OverrideWinsOverDefaultAndGenericXmlAccepted) {
  // The Default for xml would be wrong for both; the workbook's Override wins, the sheet's
  // generic type is accepted.
  EXPECT_EQ(loaded_cells(types_open + "<Default Extension=\"XML\" ContentType=\"application/xml\"/>" +
                         override_of("/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml") +
                         "</Types>"),
            1u);
  EXPECT_THROW(loaded_cells(types_open + "<Default Extension=\"xml\" ContentType=\"text/plain\"/>" +
                            override_of("/xl/workbook.xml", main_type) + "</Types>"),
               Error);
}

}  // namespace
}  // namespace docconform::xlsx::test
