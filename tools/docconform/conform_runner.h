// The conformance runner: every selected implementation on every selected case, each result
// classified against the golden ledger and the implementation's recorded expectations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conform_adapters.h"
#include "conform_fields.h"
#include "docconform/error.h"
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
  crash,                 // the in-process reference threw, or a phase run disagreed with the first run
  adapter_failure,       // the adapter broke the protocol: exit other than 0, 1 and 2, exit 1 without
                         // `error: <class>` as the last stderr line, a signal, runaway output; never a verdict
  timeout,
  no_golden,             // the case has no golden entry: the ledger is incomplete
};

// What a result means for the run. Departures of ungated implementations are reported and do
// not fail it; a gated implementation's departure fails it unless its expectations record it;
// an adapter failure fails it whatever the gate.
enum class Outcome {
  ok,         // no departure from the golden verdicts (or the expected outcome of an i_ case)
  recorded,   // gated: the departure recorded in its expectations file, with the reason
  departure,  // ungated: a departure, reported only
  failed,     // fails the run
};

const char* to_string(Status status);
// The status whose to_string() is name, if any.
std::optional<Status> status_named(std::string_view name);
const char* to_string(Outcome outcome);

// An adapter's stderr for a report: whole up to 8 KiB, else its first and last 4 KiB.
std::string stderr_excerpt(const std::string& err);
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
  std::string error_class;  // of a rejection or an unsupported file: format, limit, range, unsupported (SPEC section 2)
  std::string diff;    // of a wrong result: its dump against golden/<format>/<case>.dump (dump_diff)
  std::string stderr_text;  // of a rejection, an unsupported case or a failed run: see stderr_excerpt
  Outcome outcome = Outcome::ok;
  std::string reason;  // of a recorded departure, from the expectations file
  PhaseLog phases;       // from a second run, when the format defines phases and the case was accepted
  std::map<std::string, FieldDigest> fields;  // of a sweep's accepted file: its dump's fields (conform_fields.h)
  std::string dump;  // of a mining run's accepted file: its dump (RunOptions::mining)
};

// One of N disjoint parts of a run (conform run --shard K/N, 1 <= K <= N): the (case,
// implementation) pairs whose rank in the list of all pairs sorted by case then implementation name
// is K - 1 modulo N, so the parts do not depend on the order of the manifests or of the cases tree.
struct Shard {
  unsigned index = 1;
  unsigned count = 1;
};

// Where and what a run ran: shown on the results page, carried by the JSON report.
struct RunMetadata {
  std::string date;           // UTC, ISO 8601, when the run started
  std::string suite_version;  // docconform's version
  std::string commit;         // of the suite's git checkout; "" when it is none (an installed suite)
  unsigned cores = 0;
  std::string cpu;            // the model name of /proc/cpuinfo
  std::string os;             // uname: system, release, machine
  Shard shard;
};
RunMetadata current_run_metadata(const std::string& root, Shard shard);

struct RunOptions {
  std::string root;
  std::vector<std::string> formats;  // empty = all
  std::vector<std::string> impls;    // empty = all available
  std::string case_glob;             // fnmatch on "<format>/<case file>"; empty = all
  std::vector<std::string> allow_skip;  // gated implementations whose missing requirement does not fail the run
  std::vector<std::string> adapter_files;     // more adapter manifests, after conformance/adapters/ADAPTERS.tsv
  std::vector<std::string> expectation_dirs;  // more <impl>.tsv files, after conformance/expectations/
  Shard shard;
  unsigned jobs = 0;                 // 0 = hardware threads
  ProcessLimits limits;
  std::string docconform_binary;
  bool progress = true;
  // Adapters that declare a batch command run in batch mode (conformance/SPEC.md section 2): one
  // process per implementation, format and worker; false = one process per input (--no-batch).
  bool batch = true;
  // The large cases, after the others, one run at a time so that their timings are not shared
  // with another run; their outputs (dumps of 100+ MB) and peers' memory need wider limits.
  bool large = false;
  std::string large_dir;  // where they are generated; empty = <root>/build/large-cases
  ProcessLimits large_limits{1800, 16384, std::uint64_t{1} << 30};
  // conform sweep: each accepted dump is kept whole (up to limits.max_output_bytes) and its fields
  // digested into Result::fields; the in-process reference's unsupported error is `unsupported`,
  // as the CLI's exit 2 is, not a rejection.
  bool sweep = false;
  // conform mine (conform_mine.h): with sweep, each accepted dump is kept in Result::dump too (a
  // candidate's diffs), and no phase run is made (mining wants verdicts, not timings).
  bool mining = false;
};

struct Skipped {
  std::string impl;
  std::string requirement;  // the first missing one
  bool fails_gate = false;  // gated and not named by --allow-skip
};

// A file of a swept directory that no implementation was run on, and why.
struct UnsweptFile {
  std::string name;  // its path under the directory
  std::string why;
};

struct RunReport {
  std::string kind = "run";      // "run" (conform run) or "sweep" (conform sweep, conform_sweep.h)
  std::vector<CaseFile> cases;   // of a sweep, the swept files (verdict 'i', no golden)
  std::vector<UnsweptFile> unswept;  // of a sweep
  std::vector<Adapter> impls;    // the ones that ran
  std::vector<Skipped> skipped;
  std::vector<Result> results;   // case-major order; of a shard, only its pairs
  std::size_t pairs = 0;         // (case, implementation) pairs of the whole run, every shard's
  Shard shard;                   // {1, 1} for a whole run, and for shards merged into one
  std::vector<RunMetadata> runs;  // the run, or each merged shard's, by shard
  // Why the run fails, one line per cause (empty when it passes).
  std::vector<std::string> gate_failures() const;
  bool gate_failed() const { return !gate_failures().empty(); }
};

// The reference implementation in-process: digest ("sha256:<hex>" or "rejected"), dump (when
// kept: its first keep_bytes), error.
struct InProcessOutcome {
  std::string digest;
  std::string dump;
  bool dump_cut = false;  // the dump was longer than keep_bytes
  std::string error;
  ErrorKind error_kind = ErrorKind::format;  // of a rejection
};
InProcessOutcome dump_in_process(const DumpFormat& format, const std::string& path, bool keep_dump,
                                 PhaseLog* phases = nullptr, std::size_t keep_bytes = SIZE_MAX);

// The implementations the options select (--impl, every one when empty; --adapters) that read
// one of `formats`, each with its version, into report.impls; those missing a requirement into
// report.skipped. Throws Error(usage) for an --impl that no manifest declares.
void select_implementations(const RunOptions& options, const std::vector<std::string>& formats, RunReport& report);

// One run of an implementation (report.impls) on a case (report.cases).
struct Job {
  std::size_t case_index;
  std::size_t impl_index;
};
// The batch-mode processes of run_jobs' workers, each serving one implementation and format.
// Kept by a caller that runs jobs again and again on the same report.impls (conform mine), so
// that an adapter's process serves every call.
struct WorkerBatch {
  std::size_t impl_index = SIZE_MAX;
  std::string format;
  std::unique_ptr<BatchProcess> process;
};
using BatchPool = std::vector<WorkerBatch>;

// Runs the jobs in parallel (options.jobs) with progress on stderr; report.results gets one
// result per job, in job order. `finish` completes a result on the worker's thread (a run judges
// it against the expectations). Large cases come last and run one at a time. pool: the batch-mode
// processes to use and keep (nullptr: those of this call, ended at its end).
void run_jobs(RunReport& report, const std::vector<Job>& jobs, const RunOptions& options,
              const std::function<void(Result&, const Job&)>& finish, BatchPool* pool = nullptr);

// Whether a case is among the formats (empty = all) and matches the glob on "<format>/<case>".
bool case_selected(const std::vector<std::string>& formats, const std::string& case_glob, const std::string& format,
                   const std::string& name);

std::vector<CaseFile> discover_cases(const std::string& root, const std::vector<std::string>& formats,
                                     const std::string& case_glob);

// The indices of the pairs (given as "<case>\t<implementation>") that a shard runs.
std::vector<std::size_t> shard_pairs(const std::vector<std::string>& pairs, Shard shard);

RunReport run_conformance(const RunOptions& options);

}  // namespace docconform::cli
