// Hand-made workbooks for the xlsx tests: one sheet from literal XML, optional shared strings.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/generator.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx::test {

inline const char* const ns_main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
inline const char* const ns_rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

inline std::string rels(const std::vector<std::pair<std::string, std::string>>& id_type_target) {
  std::string x = "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">";
  for (std::size_t i = 0; i < id_type_target.size(); ++i) {
    x += "<Relationship Id=\"rId" + std::to_string(i + 1) + "\" Type=\"" + std::string(ns_rel) + "/" +
         id_type_target[i].first + "\" Target=\"" + id_type_target[i].second + "\"/>";
  }
  return x + "</Relationships>";
}

// The entries with a [Content_Types].xml in front when they have none: the generic Defaults,
// which every part the loader checks may have (conformance/SPEC.md, "Content types").
inline std::vector<std::pair<std::string, std::string>> with_content_types(
    std::vector<std::pair<std::string, std::string>> entries) {
  for (const auto& e : entries) {
    if (e.first == "[Content_Types].xml") return entries;
  }
  entries.insert(entries.begin(),
                 {"[Content_Types].xml",
                  "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                  "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                  "<Default Extension=\"xml\" ContentType=\"application/xml\"/></Types>"});
  return entries;
}

// A workbook with one sheet "S" whose part is sheet_xml (a full document), and shared strings
// when sst is not empty (the content of <sst>); every entry stored, not deflated, when stored.
inline std::string workbook_with_sheet(const std::string& sheet_xml, const std::string& sst = "",
                                       std::vector<std::pair<std::string, std::string>> extra = {}, bool stored = false) {
  std::vector<std::pair<std::string, std::string>> wb_rels{{"worksheet", "worksheets/sheet1.xml"}};
  if (!sst.empty()) wb_rels.push_back({"sharedStrings", "sharedStrings.xml"});
  std::vector<std::pair<std::string, std::string>> entries{
      {"_rels/.rels", rels({{"officeDocument", "xl/workbook.xml"}})},
      {"xl/workbook.xml", std::string("<workbook xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel +
                              "\"><sheets><sheet name=\"S\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"},
      {"xl/_rels/workbook.xml.rels", rels(wb_rels)},
      {"xl/worksheets/sheet1.xml", sheet_xml},
  };
  if (!sst.empty()) entries.push_back({"xl/sharedStrings.xml", std::string("<sst xmlns=\"") + ns_main + "\">" + sst + "</sst>"});
  for (auto& e : extra) entries.push_back(std::move(e));
  auto all = with_content_types(std::move(entries));
  return build_zip(all, std::vector<bool>(all.size(), stored));
}

// A sheet document around the given <sheetData> content.
inline std::string sheet(const std::string& sheet_data, const std::string& after = "") {
  return std::string("<worksheet xmlns=\"") + ns_main + "\" xmlns:r=\"" + ns_rel + "\"><sheetData>" + sheet_data +
         "</sheetData>" + after + "</worksheet>";
}

// The dump lines after the header lines "docconform-dump", "workbook" and "sheet", without "end".
inline std::string cells_of(const std::string& bytes, const LoadOptions& options = {}) {
  const std::string d = dump(load_workbook(bytes, options, "test"));
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) at = d.find('\n', at) + 1;
  return d.substr(at, d.size() - at - 4);
}

}  // namespace docconform::xlsx::test
