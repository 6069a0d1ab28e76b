#include "docconform/xlsx/generator.h"

#include <zip.h>

#include <memory>
#include <vector>

#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/random.h"
#include "sheet_parser.h"

namespace docconform::xlsx {
namespace {

using Random = SplitMix64;

void escape_xml(std::string& out, std::string_view text) {
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
}

// A string value as <t> or rich-text runs, already escaped for XML.
struct StringValue {
  std::string xml;  // content of <si>/<is>
};

StringValue make_string(Random& rng, std::uint32_t row, std::uint32_t column, const GenOptions& options) {
  std::string text = "text " + std::to_string(row) + "-" + std::to_string(column);
  const std::uint64_t pick = rng.below(100);
  StringValue v;
  if (pick < 10) {
    text += " Gr\xC3\xBC\xC3\x9F" "e \xE2\x9C\x93 \xE6\x97\xA5\xE6\x9C\xAC \xF0\x9F\x98\x80";  // non-ASCII, astral
  } else if (pick < 13) {
    text += " a&b <c> \"q\"";
  } else if (pick < 15 && options.malformed_utf8) {
    text += " bad\xC3(\xFF\xED\xA0\x80";
  }
  if (pick >= 15 && pick < 17) {
    // Rich text: two runs, one bold; a phonetic run that is not part of the value.
    v.xml = "<r><rPr><b/><sz val=\"11\"/></rPr><t>";
    escape_xml(v.xml, text);
    v.xml += "</t></r><r><t xml:space=\"preserve\"> tail</t></r><rPh sb=\"0\" eb=\"1\"><t>PH</t></rPh>";
    return v;
  }
  v.xml = "<t xml:space=\"preserve\">";
  escape_xml(v.xml, text);
  if (pick >= 17 && pick < 19) v.xml += "_x000D_ end";
  v.xml += "</t>";
  return v;
}

std::string cell_ref(std::uint32_t column, std::uint32_t row) { return column_letters(column) + std::to_string(row); }

class ZipWriter {
 public:
  ZipWriter() {
    zip_error_t error;
    zip_error_init(&error);
    source_ = zip_source_buffer_create(nullptr, 0, 0, &error);
    if (source_ == nullptr || (zip_ = zip_open_from_source(source_, ZIP_TRUNCATE, &error)) == nullptr) {
      const std::string message = zip_error_strerror(&error);
      zip_error_fini(&error);
      throw Error(ErrorKind::io, {}, "cannot create a zip in memory: " + message);
    }
    zip_error_fini(&error);
    zip_source_keep(source_);
  }
  ~ZipWriter() {
    if (zip_ != nullptr) zip_discard(zip_);
    if (source_ != nullptr) zip_source_free(source_);
  }
  ZipWriter(const ZipWriter&) = delete;
  ZipWriter& operator=(const ZipWriter&) = delete;

  void add(const std::string& name, std::string content, bool stored = false) {
    contents_.push_back(std::make_unique<std::string>(std::move(content)));
    const std::string& data = *contents_.back();
    zip_source_t* s = zip_source_buffer(zip_, data.data(), data.size(), 0);
    if (s == nullptr) fail("zip_source_buffer");
    const zip_int64_t index = zip_file_add(zip_, name.c_str(), s, ZIP_FL_ENC_UTF_8);
    if (index < 0) {
      zip_source_free(s);
      fail("zip_file_add");
    }
    const auto i = static_cast<zip_uint64_t>(index);
    if (zip_set_file_compression(zip_, i, stored ? ZIP_CM_STORE : ZIP_CM_DEFLATE, stored ? 0 : 6) != 0) {
      fail("zip_set_file_compression");
    }
    if (zip_file_set_mtime(zip_, i, 315532800 + 86400, 0) != 0) fail("zip_file_set_mtime");  // fixed: 1980-01-02
  }

  std::string finish() {
    if (zip_close(zip_) != 0) fail("zip_close");
    zip_ = nullptr;
    contents_.clear();
    zip_stat_t st;
    if (zip_source_stat(source_, &st) != 0 || zip_source_open(source_) != 0) throw Error(ErrorKind::io, {}, "zip source");
    std::string out(static_cast<std::size_t>(st.size), '\0');
    const zip_int64_t n = zip_source_read(source_, out.data(), out.size());
    zip_source_close(source_);
    if (n < 0 || static_cast<std::uint64_t>(n) != st.size) throw Error(ErrorKind::io, {}, "zip source read");
    return out;
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw Error(ErrorKind::io, {}, std::string(what) + ": " + zip_strerror(zip_));
  }
  zip_source_t* source_ = nullptr;
  zip_t* zip_ = nullptr;
  std::vector<std::unique_ptr<std::string>> contents_;
};

constexpr const char* xml_decl = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
constexpr const char* ns_main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
constexpr const char* ns_rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
constexpr const char* ns_pkg_rel = "http://schemas.openxmlformats.org/package/2006/relationships";
constexpr const char* ct_prefix = "application/vnd.openxmlformats-officedocument.";

std::string sheet_xml(std::uint32_t sheet, const GenOptions& options, Random& rng,
                      std::vector<StringValue>& shared) {
  std::string x;
  const std::size_t estimate = static_cast<std::size_t>(options.rows) * options.columns * 40 + 1024;
  x.reserve(estimate);
  x += xml_decl;
  x += "<worksheet xmlns=\"";
  x += ns_main;
  x += "\" xmlns:r=\"";
  x += ns_rel;
  x += "\"><dimension ref=\"A1:" + cell_ref(options.columns, options.rows) + "\"/><sheetData>";
  for (std::uint32_t r = 1; r <= options.rows; ++r) {
    const bool implicit = options.implicit_refs && r % 2 == 0;
    x += implicit ? "<row>" : "<row r=\"" + std::to_string(r) + "\">";
    for (std::uint32_t c = 1; c <= options.columns; ++c) {
      x += "<c";
      if (!implicit) x += " r=\"" + cell_ref(c, r) + "\"";
      const bool text = r == 1 || c % 2 == 0;
      if (text) {
        StringValue v = r == 1 ? StringValue{"<t>Column " + std::to_string(c) + "</t>"} : make_string(rng, r, c, options);
        if (options.inline_strings) {
          x += " t=\"inlineStr\"><is>" + v.xml + "</is></c>";
        } else {
          x += " t=\"s\"><v>" + std::to_string(shared.size()) + "</v></c>";
          shared.push_back(std::move(v));
        }
        continue;
      }
      const std::uint64_t pick = rng.below(100);
      std::string value;
      if (pick < 50) {
        value = std::to_string(rng.below(1000000));
      } else {
        append_number(value, static_cast<double>(rng.below(100000000)) / 1000.0 - 5000.0);
      }
      if (pick == 99) {
        x += " t=\"b\"><v>" + std::to_string(rng.below(2)) + "</v></c>";
      } else if (pick == 98 && r > 2) {
        x += "><f>" + cell_ref(c, r - 1) + "*2</f><v>" + value + "</v></c>";
      } else {
        x += pick % 7 == 0 ? " s=\"1\">" : ">";
        x += "<v>" + value + "</v></c>";
      }
    }
    x += "</row>";
  }
  x += "</sheetData>";
  if (options.extras && options.rows >= 2 && options.columns >= 2) {
    x += "<mergeCells count=\"1\"><mergeCell ref=\"" + cell_ref(options.columns + 2, 1) + ":" +
         cell_ref(options.columns + 3, 2) + "\"/></mergeCells>";
    x += "<tableParts count=\"1\"><tablePart r:id=\"rId2\"/></tableParts>";
  }
  x += "</worksheet>";
  (void)sheet;
  return x;
}

}  // namespace

std::string build_zip(const std::vector<std::pair<std::string, std::string>>& entries, const std::vector<bool>& stored) {
  ZipWriter zip;
  for (std::size_t i = 0; i < entries.size(); ++i) zip.add(entries[i].first, entries[i].second, i < stored.size() && stored[i]);
  return zip.finish();
}

std::string generate_workbook(const GenOptions& options) {
  if (options.sheets == 0 || options.rows == 0 || options.columns == 0 || options.columns > max_columns ||
      options.rows > max_rows) {
    throw Error(ErrorKind::usage, {}, "gen xlsx: sheets, rows and columns must be positive and within sheet limits");
  }
  Random rng(options.seed);
  ZipWriter zip;
  std::vector<StringValue> shared;
  const bool extras = options.extras && options.rows >= 2 && options.columns >= 2;

  std::string types = std::string(xml_decl) +
                      "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
                      "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
                      "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
                      "<Override PartName=\"/xl/workbook.xml\" ContentType=\"" + ct_prefix + "spreadsheetml.sheet.main+xml\"/>"
                      "<Override PartName=\"/xl/styles.xml\" ContentType=\"" + ct_prefix + "spreadsheetml.styles+xml\"/>";
  if (!options.inline_strings) {
    types += std::string("<Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"") + ct_prefix +
             "spreadsheetml.sharedStrings+xml\"/>";
  }
  std::string workbook = std::string(xml_decl) + "<workbook xmlns=\"" + ns_main + "\" xmlns:r=\"" + ns_rel +
                         "\"><workbookPr/><sheets>";
  std::string workbook_rels = std::string(xml_decl) + "<Relationships xmlns=\"" + ns_pkg_rel + "\">";
  for (std::uint32_t s = 1; s <= options.sheets; ++s) {
    const std::string n = std::to_string(s);
    types += "<Override PartName=\"/xl/worksheets/sheet" + n + ".xml\" ContentType=\"" + ct_prefix +
             "spreadsheetml.worksheet+xml\"/>";
    workbook += "<sheet name=\"Sheet " + n + (s == 2 ? " &amp; \xC3\xA9t\xC3\xA9" : "") + "\" sheetId=\"" + n +
                "\" r:id=\"rId" + n + "\"" + (s == 3 ? " state=\"hidden\"" : "") + "/>";
    workbook_rels += "<Relationship Id=\"rId" + n + "\" Type=\"" + ns_rel + "/worksheet\" Target=\"worksheets/sheet" +
                     n + ".xml\"/>";
    zip.add("xl/worksheets/sheet" + n + ".xml", sheet_xml(s, options, rng, shared));
    if (extras) {
      types += "<Override PartName=\"/xl/comments" + n + ".xml\" ContentType=\"" + ct_prefix +
               "spreadsheetml.comments+xml\"/>";
      types += "<Override PartName=\"/xl/tables/table" + n + ".xml\" ContentType=\"" + ct_prefix +
               "spreadsheetml.table+xml\"/>";
      zip.add("xl/worksheets/_rels/sheet" + n + ".xml.rels",
              std::string(xml_decl) + "<Relationships xmlns=\"" + ns_pkg_rel + "\"><Relationship Id=\"rId1\" Type=\"" +
                  ns_rel + "/comments\" Target=\"../comments" + n + ".xml\"/><Relationship Id=\"rId2\" Type=\"" +
                  ns_rel + "/table\" Target=\"/xl/tables/table" + n + ".xml\"/></Relationships>");
      zip.add("xl/comments" + n + ".xml",
              std::string(xml_decl) + "<comments xmlns=\"" + ns_main +
                  "\"><authors><author>Author \xC3\xA9</author></authors><commentList><comment ref=\"B2\" "
                  "authorId=\"0\"><text><r><rPr><b/></rPr><t>Note</t></r><r><t xml:space=\"preserve\"> on sheet " +
                  n + "</t></r></text></comment></commentList></comments>");
      std::string table = std::string(xml_decl) + "<table xmlns=\"" + ns_main + "\" id=\"" + n + "\" name=\"Table" + n +
                          "\" displayName=\"Table" + n + "\" ref=\"A1:" + cell_ref(options.columns, options.rows) +
                          "\"><autoFilter ref=\"A1:" + cell_ref(options.columns, options.rows) +
                          "\"/><tableColumns count=\"" + std::to_string(options.columns) + "\">";
      for (std::uint32_t c = 1; c <= options.columns; ++c) {
        table += "<tableColumn id=\"" + std::to_string(c) + "\" name=\"Column " + std::to_string(c) + "\"/>";
      }
      table += "</tableColumns><tableStyleInfo name=\"TableStyleMedium9\" showFirstColumn=\"0\" "
               "showLastColumn=\"0\" showRowStripes=\"1\" showColumnStripes=\"0\"/></table>";
      zip.add("xl/tables/table" + n + ".xml", std::move(table));
    }
  }
  workbook += "</sheets></workbook>";
  const std::string next = std::to_string(options.sheets + 1);
  workbook_rels += "<Relationship Id=\"rId" + next + "\" Type=\"" + ns_rel + "/styles\" Target=\"styles.xml\"/>";
  if (!options.inline_strings) {
    workbook_rels += "<Relationship Id=\"rId" + std::to_string(options.sheets + 2) + "\" Type=\"" + ns_rel +
                     "/sharedStrings\" Target=\"sharedStrings.xml\"/>";
    std::string sst = std::string(xml_decl) + "<sst xmlns=\"" + ns_main + "\" count=\"" +
                      std::to_string(shared.size()) + "\" uniqueCount=\"" + std::to_string(shared.size()) + "\">";
    for (const auto& v : shared) sst += "<si>" + v.xml + "</si>";
    sst += "</sst>";
    zip.add("xl/sharedStrings.xml", std::move(sst));
  }
  workbook_rels += "</Relationships>";
  types += "</Types>";
  zip.add("[Content_Types].xml", std::move(types));
  zip.add("_rels/.rels", std::string(xml_decl) + "<Relationships xmlns=\"" + ns_pkg_rel +
                             "\"><Relationship Id=\"rId1\" Type=\"" + ns_rel +
                             "/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>");
  zip.add("xl/workbook.xml", std::move(workbook));
  zip.add("xl/_rels/workbook.xml.rels", std::move(workbook_rels));
  zip.add("xl/styles.xml",
          std::string(xml_decl) + "<styleSheet xmlns=\"" + ns_main +
              "\"><numFmts count=\"1\"><numFmt numFmtId=\"164\" formatCode=\"0.000\"/></numFmts>"
              "<fonts count=\"1\"><font><sz val=\"11\"/><name val=\"Calibri\"/></font></fonts>"
              "<fills count=\"2\"><fill><patternFill patternType=\"none\"/></fill><fill><patternFill "
              "patternType=\"gray125\"/></fill></fills><borders count=\"1\"><border><left/><right/><top/><bottom/>"
              "<diagonal/></border></borders><cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" "
              "borderId=\"0\"/></cellStyleXfs><cellXfs count=\"2\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" "
              "borderId=\"0\" xfId=\"0\"/><xf numFmtId=\"164\" fontId=\"0\" fillId=\"0\" borderId=\"0\" xfId=\"0\" "
              "applyNumberFormat=\"1\"/></cellXfs><cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" "
              "builtinId=\"0\"/></cellStyles></styleSheet>");
  return zip.finish();
}

}  // namespace docconform::xlsx
