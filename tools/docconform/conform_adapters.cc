#include "conform_adapters.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_util.h"
#include "docconform/error.h"
#include "docconform/version.h"
#include "formats.h"
#include "subprocess.h"

namespace docconform::cli {
namespace {

bool on_path(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  for (const auto& dir : split(path != nullptr ? path : "", ':')) {
    if (access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// A typo in a column must not quietly change what a run checks (an adapter that reads nothing,
// or a gated one that gates nothing).
void check_columns(const Adapter& adapter, const std::string& gate, const ErrorContext& where) {
  for (const std::string& format : adapter.formats) {
    if (format != "*" && find_dump_format(format) == nullptr) {
      throw Error(ErrorKind::format, where, "format `" + format + "` is none of " + dump_format_names() + " (or * for every one)");
    }
  }
  if (adapter.kind != "reference" && adapter.kind != "independent" && adapter.kind != "third-party") {
    throw Error(ErrorKind::format, where, "kind `" + adapter.kind + "` is none of reference, independent, third-party");
  }
  if (gate != "gate" && gate != "nogate") throw Error(ErrorKind::format, where, "gate `" + gate + "` is neither gate nor nogate");
}

}  // namespace

bool Adapter::reads(const std::string& format) const {
  return std::find(formats.begin(), formats.end(), "*") != formats.end() ||
         std::find(formats.begin(), formats.end(), format) != formats.end();
}

std::vector<Adapter> read_adapters(const std::string& manifest_path) {
  if (!std::filesystem::exists(manifest_path)) {
    throw Error(ErrorKind::io, {manifest_path, "", std::nullopt}, "cannot open the adapter manifest");
  }
  // {dir}: the manifest's own directory, so that an adapter beside it is found from anywhere.
  const std::string dir = std::filesystem::absolute(manifest_path).parent_path().string();
  std::vector<Adapter> adapters;
  for (auto [number, fields] : read_tsv(manifest_path)) {
    for (std::size_t i = 4; i < fields.size(); ++i) replace_all(fields[i], "{dir}", dir);
    const ErrorContext where{manifest_path, "line " + std::to_string(number), std::nullopt};
    if (fields.size() < 6 || fields.size() > 9) {
      throw Error(ErrorKind::format, where,
                  "expected 6 to 9 tab-separated fields: name formats kind gate requires command [version [engine [batch]]]");
    }
    Adapter adapter;
    adapter.name = fields[0];
    adapter.formats = split(fields[1], ',');
    adapter.kind = fields[2];
    adapter.gated = fields[3] == "gate";
    check_columns(adapter, fields[3], where);
    if (fields[4] != "-") adapter.requires_ = split(fields[4], ',');
    adapter.command = fields[5];
    if (fields.size() >= 7 && fields[6] != "-") adapter.version_command = fields[6];
    adapter.engine = fields.size() >= 8 && fields[7] != "-" ? fields[7] : adapter.name;
    if (fields.size() == 9 && fields[8] != "-") {
      if (fields[8].find("{input}") != std::string::npos) {
        throw Error(ErrorKind::format, where, "the batch command takes no {input}: the inputs come on its stdin");
      }
      adapter.batch_command = fields[8];
    }
    adapters.push_back(std::move(adapter));
  }
  return adapters;
}

std::string missing_requirement(const Adapter& adapter, const std::string& root) {
  for (std::string need : adapter.requires_) {
    replace_all(need, "{root}", root);
    const bool is_file = need.find('/') != std::string::npos && need.back() != '/';
    if (is_file ? !std::filesystem::exists(need) : !on_path(need)) return need;
  }
  return "";
}

namespace {

std::vector<std::string> command_argv(const std::string& command, const std::string& format, const std::string& input,
                                      const std::string& root, const std::string& docconform_binary) {
  std::vector<std::string> argv;
  for (std::string word : split(command, ' ')) {
    replace_all(word, "{input}", input);
    if (word == "{cli-dump}") {
      const DumpFormat* known = find_dump_format(format);
      const auto words = known != nullptr ? cli_dump_words(*known, input) : split(format, ' ');
      argv.insert(argv.end(), words.begin(), words.end());
      continue;
    }
    replace_all(word, "{format}", format);
    replace_all(word, "{root}", root);
    replace_all(word, "{docconform}", docconform_binary);
    argv.push_back(word);
  }
  return argv;
}

}  // namespace

std::vector<std::string> adapter_argv(const Adapter& adapter, const std::string& format, const std::string& input,
                                      const std::string& root, const std::string& docconform_binary) {
  return command_argv(adapter.command, format, input, root, docconform_binary);
}

std::vector<std::string> adapter_batch_argv(const Adapter& adapter, const std::string& format, const std::string& root,
                                            const std::string& docconform_binary) {
  return command_argv(adapter.batch_command, format, "", root, docconform_binary);
}

std::string adapter_version(const Adapter& adapter, const std::string& root, const std::string& docconform_binary) {
  if (adapter.in_process()) return std::string("docconform ") + version_string;
  if (adapter.version_command.empty()) return "";
  return first_output_line(command_argv(adapter.version_command, "", "", root, docconform_binary));
}

}  // namespace docconform::cli
