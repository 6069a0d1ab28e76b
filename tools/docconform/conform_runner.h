// The conformance runner: every selected implementation on every selected case, each result
// classified against the golden ledger and the implementation's recorded expectations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "conform_adapters.h"
#include "formats.h"
#include "subprocess.h"

namespace docconform::cli {

enum class Status {
  pass,                  // y_: the dump equals the golden dump
  wrong_result,          // y_: accepted with a different dump
  rejected_must_accept,  // y_: rejected
  rejected_as_expected,  // n_: rejected
  accepted_must_reject,  // n_: accepted
  accepted,              // i_: accepted (golden_match tells whether it agrees with the reference)
  rejected,              // i_: rejected
  unsupported,           // the implementation declared the case out of its scope (exit 2)
  crash,                 // any other exit, a signal, or output past the limit
  timeout,
  no_golden,             // the case has no golden entry: the ledger is incomplete
};

const char* to_string(Status status);
// True for outcomes that are wrong whatever the implementation (crash, timeout, y/n failures).
bool is_failure(Status status);

struct CaseFile {
  std::string format;
  std::string name;  // file name, e.g. y_ascii.bin
  std::string path;
  char verdict;      // y, n or i
  std::string golden;  // "sha256:<hex>", "rejected" or "" when missing
  bool large = false;  // generated from conformance/large/CASES.tsv, timed alone (see conform_large.h)
};

struct Result {
  const CaseFile* case_file = nullptr;
  std::string impl;
  Status status = Status::crash;
  bool golden_match = false;
  double seconds = 0;
  std::string digest;  // sha256:<hex> of the dump, or "rejected"
  std::string detail;  // error line, exit status
  std::string dump;    // only for wrong_result: the dump's first bytes, for the diff against the golden dump
  bool dump_cut = false;  // the dump is longer than what `dump` kept
  bool expected = true;  // for gated implementations: the status is the one recorded for it
  PhaseLog phases;       // from a second run, when the format defines phases and the case was accepted
};

struct RunOptions {
  std::string root;
  std::vector<std::string> formats;  // empty = all
  std::vector<std::string> impls;    // empty = all available
  std::string case_glob;             // fnmatch on "<format>/<case file>"; empty = all
  unsigned jobs = 0;                 // 0 = hardware threads
  ProcessLimits limits;
  std::string docconform_binary;
  bool progress = true;
  // The large cases, after the others, one run at a time so that their timings are not shared
  // with another run; their outputs (dumps of 100+ MB) and peers' memory need wider limits.
  bool large = false;
  std::string large_dir;  // where they are generated; empty = <root>/build/large-cases
  ProcessLimits large_limits{1800, 16384, std::uint64_t{1} << 30};
};

struct RunReport {
  std::vector<CaseFile> cases;
  std::vector<Adapter> impls;                                  // the ones that ran
  std::vector<std::pair<std::string, std::string>> skipped;    // impl, missing requirement
  std::vector<Result> results;                                 // case-major order
  bool gate_failed() const;
};

// The reference implementation in-process: digest ("sha256:<hex>" or "rejected"), dump (when
// kept: its first keep_bytes), error.
struct InProcessOutcome {
  std::string digest;
  std::string dump;
  bool dump_cut = false;  // the dump was longer than keep_bytes
  std::string error;
};
InProcessOutcome dump_in_process(const DumpFormat& format, const std::string& path, bool keep_dump,
                                 PhaseLog* phases = nullptr, std::size_t keep_bytes = SIZE_MAX);

// Whether a case is among the formats (empty = all) and matches the glob on "<format>/<case>".
bool case_selected(const std::vector<std::string>& formats, const std::string& case_glob, const std::string& format,
                   const std::string& name);

std::vector<CaseFile> discover_cases(const std::string& root, const std::vector<std::string>& formats,
                                     const std::string& case_glob);

RunReport run_conformance(const RunOptions& options);

}  // namespace docconform::cli
