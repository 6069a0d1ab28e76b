#include "formats.h"

#include <filesystem>

#include "cli_util.h"
#include "docconform/canonical.h"
#include "docconform/input_file.h"
#include "docconform/output_limit.h"
#include "docconform/pdf/dump.h"
#include "docconform/sst/xls.h"
#include "docconform/utf8_dump.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::cli {

namespace {

// A password is short (PDF 2.0 truncates one at 127 bytes): a larger sidecar is a mistake.
constexpr std::size_t max_case_password_bytes = 1024;

std::vector<DumpFormat> unbounded_formats() {
  return {
      {"utf8", dump_header("utf8", utf8_dump_version), {".bin"},
       [](const std::string& path, const DumpSink& sink, PhaseLog*) { sink(utf8_dump(read_file(path, Utf8DumpLimits{}.max_input_bytes, "max_input_bytes"))); },
       "utf8"},
      {"pdf", dump_header("pdf", pdf::dump_version), {".pdf"},
       [](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
         if (phases != nullptr) phases->push_back(time_pdf_objects(path));
         pdf::write_pdf_dump_file(path, {}, 2, {}, sink, 0, case_password(path));
       },
       "pdf"},
      {"pdf3", dump_header("pdf", pdf::dump_version), {".pdf"}, [](const std::string& path, const DumpSink& sink, PhaseLog*) {
         pdf::write_pdf_dump_file(path, {}, 3, {}, sink, 0, case_password(path));
       },
       "pdf --level 3"},
      {"sst", dump_header("sst", sst::sst_dump_version), {".xls", ".sst"},
       [](const std::string& path, const DumpSink& sink, PhaseLog*) {
         sink(sst::sst_dump(read_whole_file(path, sst::Limits{}.max_memory, "max_memory"), sst::sst_file_kind(path), {}, path));
       },
       "sst"},
      {"sstw", dump_header("sst", sst::sst_dump_version), {".jsonl"},
       [](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
         sink(written_sst_dump_timed(path, sst::WriterKind::fast, phases));
       },
       "sstw", true},
      {"xlsx", dump_header("xlsx", xlsx::dump_version), {".xlsx", ".xlsm"},
       [](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
         if (phases != nullptr) phases->push_back(time_xlsx_load(path));
         xlsx::write_dump(xlsx::load_workbook_file(path), sink);
       },
       "xlsx"},
  };
}

}  // namespace

std::string case_password(const std::string& path) {
  const std::string sidecar = path + ".password";
  std::error_code error;
  if (!std::filesystem::is_regular_file(sidecar, error)) return {};
  return read_file(sidecar, max_case_password_bytes);
}

std::vector<std::string> cli_dump_words(const DumpFormat& format, const std::string& path) {
  std::vector<std::string> words;
  std::string_view rest = format.cli_dump;
  for (std::size_t space; (space = rest.find(' ')) != std::string_view::npos; rest.remove_prefix(space + 1)) {
    words.emplace_back(rest.substr(0, space));
  }
  words.emplace_back(rest);
  if (format.name == "pdf" || format.name == "pdf3") {
    if (std::string password = case_password(path); !password.empty()) {
      words.emplace_back("--password");
      words.push_back(std::move(password));
    }
  }
  return words;
}

const std::vector<DumpFormat>& dump_formats() {
  // Every dump of the suite, printed, hashed or kept, stops at the default max_output_bytes.
  static const std::vector<DumpFormat> formats = [] {
    std::vector<DumpFormat> bounded = unbounded_formats();
    for (DumpFormat& format : bounded) {
      format.write = [write = std::move(format.write)](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
        write(path, bounded_sink(OutputLimits{}, path, sink), phases);
      };
    }
    return bounded;
  }();
  return formats;
}

std::string dump_format_names() {
  std::string names;
  for (const auto& format : dump_formats()) names += (names.empty() ? "" : ", ") + format.name;
  return names;
}

const DumpFormat* find_dump_format(const std::string& name) {
  for (const auto& format : dump_formats()) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

std::string dump_text(const DumpFormat& format, const std::string& path) {
  std::string dump;
  format.write(path, [&](std::string_view piece) { dump += piece; }, nullptr);
  return dump;
}

}  // namespace docconform::cli
