// conform sweep: the reference and chosen implementations over a directory of real files with no
// golden data, and how far they agree on each file (conformance/README.md, "Sweeping real files").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "conform_runner.h"

namespace docconform::cli {

struct SweepOptions {
  RunOptions run;  // root, formats, impls, adapters, jobs, limits, shard, progress; run.sweep is set
  std::string dir;
  std::uint64_t max_file_bytes = std::uint64_t{64} << 20;  // larger files are not swept (listed with the limit)
};

// The formats a sweep gives files by their extension (ASCII case ignored): xlsx .xlsx .xlsm,
// pdf .pdf, pdf3 .pdf, sst .xls. The default selection is xlsx, pdf and sst.
struct SweepFormat {
  std::string format;
  std::vector<std::string> extensions;
  bool by_default;
};
const std::vector<SweepFormat>& sweep_formats();

// Every regular file under dir (recursively, sorted by path; symbolic links are not followed),
// one case per selected format that reads its extension; the others in report.unswept. Then
// every selected implementation that reads the case's format on each case (the in-process
// reference always), sharded by file. Throws Error(usage) when nothing is selected.
RunReport run_sweep(const SweepOptions& options);

// The implementations of a sweep (and of `conform mine`) into report.impls: the in-process
// reference always, every other selected one that reads one of the formats; one that cannot run
// here is listed in report.skipped and never fails a gate. Returns the run options of the sweep
// (dumps kept whole for their fields). Throws Error(usage) when the manifests declare no reference.
RunOptions select_sweep_implementations(const RunOptions& options, const std::vector<std::string>& formats, RunReport& report);

// How the implementations' verdicts on one file relate (conformance/README.md defines each).
enum class Agreement {
  all_agree,            // the reference opens, every peer with a verdict opens with its dump
  reference_agrees,     // the reference opens with the peers' consensus dump; other peers differ or reject
  reference_disagrees,  // the reference opens with a dump other than the peers' consensus
  reference_rejects,    // the reference rejects what the peers' consensus opens
  peers_reject,         // the reference opens; no peer opens, at least one rejects
  all_reject,           // the reference rejects; no peer opens, at least one rejects
  mixed,                // peers open with no consensus (one peer alone, or all different)
  no_peer_verdict,      // no peer opened or rejected (unsupported, adapter failures, timeouts, none reads it)
  reference_unsupported,  // the reference declares the file out of its scope
  reference_failure,    // the reference crashed or timed out
};
const char* to_string(Agreement agreement);
inline constexpr Agreement last_agreement = Agreement::reference_failure;

// The verdicts of one swept file. Peers are the implementations of kind third-party or
// independent; reference variants the other implementations of kind reference (the CLI, the
// serial loader): they are compared with the reference and do not count as peers.
struct FileAgreement {
  const CaseFile* file = nullptr;
  Agreement agreement = Agreement::no_peer_verdict;
  const Result* reference = nullptr;
  std::vector<const Result*> peers;     // in report.impls order
  std::vector<const Result*> variants;  // in report.impls order
  std::string consensus;                // the dump digest that the most opening peers share, when >= 2 do and no other as many
  std::size_t consensus_peers = 0;
};

// One per file of the report (case order); a file missing results (a shard's report) has only
// those it holds.
std::vector<FileAgreement> sweep_agreements(const RunReport& report);

// Whether a result opened the file (accepted), rejected it, or gave no verdict.
bool opens(const Result& r);
bool rejects(const Result& r);

// The fields of a's dump that differ from b's (both opened; none when either has no fields).
std::vector<std::string> differing_fields(const Result& a, const Result& b);

}  // namespace docconform::cli
