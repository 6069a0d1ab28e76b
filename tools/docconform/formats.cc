#include "formats.h"

#include "cli_util.h"
#include "docconform/pdf/dump.h"
#include "docconform/sst/xls.h"
#include "docconform/utf8_dump.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::cli {

const std::vector<DumpFormat>& dump_formats() {
  static const std::vector<DumpFormat> formats = {
      {"utf8", {".bin"}, [](const std::string& path) { return utf8_dump(read_file(path, Utf8DumpLimits{}.max_input_bytes)); }, "utf8"},
      {"pdf", {".pdf"}, [](const std::string& path) { return pdf::pdf_dump_file(path, {}, 2); }, "pdf"},
      {"pdf3", {".pdf"}, [](const std::string& path) { return pdf::pdf_dump_file(path, {}, 3); }, "pdf --level 3"},
      {"sst", {".xls", ".sst"}, [](const std::string& path) { return sst::sst_dump(read_file(path), {}, path); }, "sst"},
      {"xlsx", {".xlsx", ".xlsm"}, [](const std::string& path) { return xlsx::dump(xlsx::load_workbook_file(path)); }, "xlsx"},
  };
  return formats;
}

const DumpFormat* find_dump_format(const std::string& name) {
  for (const auto& format : dump_formats()) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

}  // namespace docconform::cli
