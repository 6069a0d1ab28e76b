#include "formats.h"

#include "cli_util.h"
#include "docconform/utf8_dump.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::cli {

const std::vector<DumpFormat>& dump_formats() {
  static const std::vector<DumpFormat> formats = {
      {"utf8", {".bin"}, [](const std::string& path) { return utf8_dump(read_file(path)); }},
      {"xlsx", {".xlsx", ".xlsm"}, [](const std::string& path) { return xlsx::dump(xlsx::load_workbook_file(path)); }},
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
