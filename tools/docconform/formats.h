// The formats the suite knows: how the reference implementation dumps a case file of each.
// The golden checker and the conformance runner look formats up here.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace docconform::cli {

struct DumpFormat {
  std::string name;                                      // utf8, xlsx, pdf, sst
  std::vector<std::string> extensions;                   // case file extensions, e.g. ".bin"
  std::function<std::string(const std::string& path)> dump;  // default options; throws Error
  std::string cli_dump = name;  // the same dump from the CLI: `docconform dump <cli_dump> FILE`
};

const std::vector<DumpFormat>& dump_formats();
const DumpFormat* find_dump_format(const std::string& name);

}  // namespace docconform::cli
