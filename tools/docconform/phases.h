// Phase timings (conformance/SPEC.md section 2, "Phase timings"): a named part of an
// implementation's work, timed inside its own process, apart from starting up and reading the
// case. An adapter reports them in the file the runner names in $DOCCONFORM_PHASES, a line
// `<phase> <seconds> <bytes>` each; the in-process reference fills a PhaseLog.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "docconform/sst/writer.h"

namespace docconform::cli {

inline constexpr const char* phase_file_variable = "DOCCONFORM_PHASES";
// Every phase is the median of its timed runs after one untimed: at least this many runs,
// and more until they took this long in all (conformance/SPEC.md section 2).
inline constexpr int phase_min_runs = 5;
inline constexpr double phase_min_seconds = 1.0;
inline constexpr int phase_max_runs = 1000;

// The rule above in words, for the reports.
std::string phase_timing_text();

struct PhaseTime {
  std::string name;         // [a-z0-9_]+, e.g. sst_serialize
  double seconds = 0;       // median wall-clock time
  std::uint64_t bytes = 0;  // what one run produced
  std::string sha256;       // of what one run produced, lowercase hex; "" when not given
};
using PhaseLog = std::vector<PhaseTime>;

// The phase of that name in the log, or nullptr.
const PhaseTime* find_phase(const PhaseLog& phases, const std::string& name);

// Throws Error(format) naming the file and line for a line that is not
// `<phase> <seconds> <bytes>` or `<phase> <seconds> <bytes> sha256:<hex>`.
PhaseLog read_phase_file(const std::string& path);
void append_phase_file(const std::string& path, const PhaseLog& phases);

// A phase timed by the rule above: prepare() and body() once untimed, then each timed run of
// body() after an untimed prepare(); body returns the bytes one run produced.
PhaseTime time_phase(const std::string& name, const std::function<void()>& prepare,
                     const std::function<std::uint64_t()>& body);

// Phase sst_serialize: the table serialized into a new memory sink by the given writer.
PhaseTime time_sst_serialization(const sst::SstTable& table, sst::WriterKind writer);
// Phase xlsx_load: the workbook loaded from the file's bytes (in memory) with default options.
PhaseTime time_xlsx_load(const std::string& path);
// Phase pdf_objects: the file opened with the default byte source, its cross-reference chain
// read and every object it lists resolved and parsed, on every core.
PhaseTime time_pdf_objects(const std::string& path);

// The sstw dump (conformance/SPEC.md section 7) of a strings file with the given SST writer;
// with a log, the phase sst_serialize of the table the workbook holds.
std::string written_sst_dump_timed(const std::string& path, sst::WriterKind writer, PhaseLog* phases);

}  // namespace docconform::cli
