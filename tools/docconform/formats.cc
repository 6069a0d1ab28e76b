#include "formats.h"

#include "cli_util.h"
#include "docconform/output_limit.h"
#include "docconform/pdf/dump.h"
#include "docconform/sst/xls.h"
#include "docconform/utf8_dump.h"
#include "docconform/xlsx/dump.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::cli {

namespace {

std::vector<DumpFormat> unbounded_formats() {
  return {
      {"utf8", {".bin"},
       [](const std::string& path, const DumpSink& sink, PhaseLog*) { sink(utf8_dump(read_file(path, Utf8DumpLimits{}.max_input_bytes))); },
       "utf8"},
      {"pdf", {".pdf"},
       [](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
         if (phases != nullptr) phases->push_back(time_pdf_objects(path));
         pdf::write_pdf_dump_file(path, {}, 2, {}, sink);
       },
       "pdf"},
      {"pdf3", {".pdf"}, [](const std::string& path, const DumpSink& sink, PhaseLog*) { pdf::write_pdf_dump_file(path, {}, 3, {}, sink); },
       "pdf --level 3"},
      {"sst", {".xls", ".sst"}, [](const std::string& path, const DumpSink& sink, PhaseLog*) { sink(sst::sst_dump(read_file(path), {}, path)); },
       "sst"},
      {"sstw", {".jsonl"},
       [](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
         sink(written_sst_dump_timed(path, sst::WriterKind::fast, phases));
       },
       "sstw", true},
      {"xlsx", {".xlsx", ".xlsm"},
       [](const std::string& path, const DumpSink& sink, PhaseLog* phases) {
         if (phases != nullptr) phases->push_back(time_xlsx_load(path));
         xlsx::write_dump(xlsx::load_workbook_file(path), sink);
       },
       "xlsx"},
  };
}

}  // namespace

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
