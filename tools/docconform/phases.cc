#include "phases.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>

#include "cli_util.h"
#include "docconform/error.h"
#include "docconform/pdf/document.h"
#include "docconform/pdf/source.h"
#include "docconform/pdf/sweep.h"
#include "docconform/sst/sink.h"
#include "docconform/sst/xls.h"
#include "docconform/xlsx/workbook.h"
#include "run_timing.h"

namespace docconform::cli {
namespace {

bool valid_phase_name(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool valid_digest(const std::string& word) {
  if (word.size() != 7 + 64 || word.rfind("sha256:", 0) != 0) return false;
  return std::all_of(word.begin() + 7, word.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

const PhaseTime* find_phase(const PhaseLog& phases, const std::string& name) {
  const auto found = std::find_if(phases.begin(), phases.end(), [&](const PhaseTime& p) { return p.name == name; });
  return found == phases.end() ? nullptr : &*found;
}

PhaseLog read_phase_file(const std::string& path) {
  PhaseLog phases;
  std::istringstream lines(read_file(path, 1 << 20));
  std::size_t line_number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++line_number;
    if (line.empty()) continue;
    const std::vector<std::string> words = split(line, ' ');
    PhaseTime phase;
    bool ok = (words.size() == 3 || (words.size() == 4 && valid_digest(words[3]))) && valid_phase_name(words[0]);
    if (ok && words.size() == 4) phase.sha256 = words[3].substr(7);
    if (ok) {
      phase.name = words[0];
      try {
        std::size_t seconds_end = 0;
        std::size_t bytes_end = 0;
        phase.seconds = std::stod(words[1], &seconds_end);
        phase.bytes = std::stoull(words[2], &bytes_end);
        ok = seconds_end == words[1].size() && bytes_end == words[2].size() && std::isfinite(phase.seconds) &&
             phase.seconds >= 0 && words[2][0] != '-';
      } catch (const std::exception&) {
        ok = false;
      }
    }
    if (!ok) {
      throw Error(ErrorKind::format, {path, "line " + std::to_string(line_number), std::nullopt},
                  "a phase line is `<phase> <seconds> <bytes> [sha256:<hex>]`, not `" + line.substr(0, 80) + "`");
    }
    phases.push_back(phase);
  }
  return phases;
}

void append_phase_file(const std::string& path, const PhaseLog& phases) {
  std::ostringstream lines;
  if (std::filesystem::exists(path)) lines << read_file(path);
  for (const PhaseTime& phase : phases) {
    lines << phase.name << ' ' << phase.seconds << ' ' << phase.bytes;
    if (!phase.sha256.empty()) lines << " sha256:" << phase.sha256;
    lines << '\n';
  }
  write_file(path, lines.str());
}

std::string phase_timing_text() {
  std::ostringstream text;
  text << "the median of at least " << phase_min_runs << " runs and " << phase_min_seconds << " s of runs, after one untimed";
  return text.str();
}

PhaseTime time_phase(const std::string& name, const std::function<void()>& prepare,
                     const std::function<std::uint64_t()>& body) {
  std::uint64_t bytes = 0;
  const Repeats repeats{phase_min_runs, phase_min_seconds, phase_max_runs};
  const auto [wall, cpu] = time_runs(repeats, prepare, [&] { bytes = body(); });
  return {name, wall.median, bytes, {}};
}

PhaseTime time_sst_serialization(const sst::SstTable& table, sst::WriterKind writer) {
  // Each run writes into a new sink, as `docconform-bench sst` does; the previous one is
  // released off the clock.
  std::unique_ptr<sst::MemorySink> previous;
  return time_phase("sst_serialize", [&] { previous.reset(); }, [&] {
    auto sink = sst::make_memory_sink();
    const std::uint64_t bytes = sst::write_sst(writer, table, *sink).bytes;
    sink->finish();
    previous = std::move(sink);
    return bytes;
  });
}

PhaseTime time_xlsx_load(const std::string& path) {
  const std::string bytes = read_file(path);
  std::optional<xlsx::Workbook> previous;
  return time_phase("xlsx_load", [&] { previous.reset(); }, [&] {
    previous.emplace(xlsx::load_workbook(bytes, xlsx::LoadOptions{}, path));
    return bytes.size();
  });
}

PhaseTime time_pdf_objects(const std::string& path) {
  return time_phase("pdf_objects", [] {}, [&] {
    const auto source = pdf::open_source(path, pdf::SourceOptions{});
    pdf::Document document(*source);
    pdf::sweep_objects(document, 0);
    return source->size();
  });
}

std::string written_sst_dump_timed(const std::string& path, sst::WriterKind writer, PhaseLog* phases) {
  sst::XlsOptions options;
  options.writer = writer;
  return sst::written_sst_dump(read_file(path, sst::Limits{}.max_memory, "max_memory"), options, path, [&](const sst::SstTable& table) {
    if (phases != nullptr) phases->push_back(time_sst_serialization(table, writer));
  });
}

}  // namespace docconform::cli
