#include "conform_sweep.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <system_error>

#include "cli_util.h"
#include "docconform/error.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

std::string lower_ascii(std::string text) {
  for (char& ch : text) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return text;
}

std::vector<std::string> selected_formats(const std::vector<std::string>& wanted) {
  std::vector<std::string> formats;
  for (const SweepFormat& f : sweep_formats()) {
    if (wanted.empty() ? f.by_default : std::find(wanted.begin(), wanted.end(), f.format) != wanted.end()) {
      formats.push_back(f.format);
    }
  }
  for (const auto& name : wanted) {
    if (std::none_of(sweep_formats().begin(), sweep_formats().end(), [&](const SweepFormat& f) { return f.format == name; })) {
      throw Error(ErrorKind::usage, {"--format", "", std::nullopt}, "a sweep reads xlsx, pdf, pdf3 and sst files, not " + name);
    }
  }
  return formats;
}

// The swept files and the others, by path under the directory.
void discover_files(const SweepOptions& options, RunReport& report) {
  const std::vector<std::string> formats = selected_formats(options.run.formats);
  if (!fs::is_directory(options.dir)) throw Error(ErrorKind::usage, {options.dir, "", std::nullopt}, "not a directory");
  std::vector<fs::directory_entry> entries;
  std::error_code error;
  for (fs::recursive_directory_iterator it(options.dir, fs::directory_options::skip_permission_denied, error), end;
       !error && it != end; it.increment(error)) {
    entries.push_back(*it);
  }
  if (error) throw Error(ErrorKind::io, {options.dir, "", std::nullopt}, "cannot list the directory: " + error.message());
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
  for (const auto& entry : entries) {
    const std::string name = entry.path().lexically_relative(options.dir).generic_string();
    if (entry.is_symlink()) {
      report.unswept.push_back({name, "a symbolic link (not followed)"});
      continue;
    }
    if (entry.is_directory()) continue;
    if (!entry.is_regular_file()) {
      report.unswept.push_back({name, "not a regular file"});
      continue;
    }
    const std::string extension = lower_ascii(entry.path().extension().string());
    std::vector<std::string> file_formats;
    for (const SweepFormat& f : sweep_formats()) {
      const bool reads = std::find(f.extensions.begin(), f.extensions.end(), extension) != f.extensions.end();
      if (reads && std::find(formats.begin(), formats.end(), f.format) != formats.end()) file_formats.push_back(f.format);
    }
    if (file_formats.empty()) {
      report.unswept.push_back({name, extension.empty() ? "no extension of a selected format"
                                                        : "no selected format reads " + extension + " files"});
      continue;
    }
    const std::uint64_t size = entry.file_size();
    if (size > options.max_file_bytes) {
      report.unswept.push_back({name, "file limit: " + std::to_string(size) + " bytes, more than --max-file-bytes " +
                                          std::to_string(options.max_file_bytes)});
      continue;
    }
    for (const auto& format : file_formats) report.cases.push_back({format, name, entry.path().string(), 'i', ""});
  }
}

Agreement classify(const FileAgreement& f) {
  const Result& ref = *f.reference;
  if (ref.status == Status::unsupported) return Agreement::reference_unsupported;
  if (!opens(ref) && !rejects(ref)) return Agreement::reference_failure;
  std::size_t opening = 0;
  std::size_t rejecting = 0;
  bool all_same = true;
  for (const Result* p : f.peers) {
    if (opens(*p)) {
      ++opening;
      all_same = all_same && p->digest == ref.digest;
    }
    if (rejects(*p)) ++rejecting;
  }
  if (opening + rejecting == 0) return Agreement::no_peer_verdict;
  if (rejects(ref)) {
    if (opening == 0) return Agreement::all_reject;
    return f.consensus.empty() ? Agreement::mixed : Agreement::reference_rejects;
  }
  if (rejecting == 0 && all_same) return Agreement::all_agree;
  if (!f.consensus.empty()) return f.consensus == ref.digest ? Agreement::reference_agrees : Agreement::reference_disagrees;
  return opening == 0 ? Agreement::peers_reject : Agreement::mixed;
}

}  // namespace

const std::vector<SweepFormat>& sweep_formats() {
  static const std::vector<SweepFormat> formats{
      {"xlsx", {".xlsx", ".xlsm"}, true}, {"pdf", {".pdf"}, true}, {"pdf3", {".pdf"}, false}, {"sst", {".xls"}, true}};
  return formats;
}

const char* to_string(Agreement agreement) {
  switch (agreement) {
    case Agreement::all_agree: return "all-agree";
    case Agreement::reference_agrees: return "reference-agrees";
    case Agreement::reference_disagrees: return "reference-disagrees";
    case Agreement::reference_rejects: return "reference-rejects";
    case Agreement::peers_reject: return "peers-reject";
    case Agreement::all_reject: return "all-reject";
    case Agreement::mixed: return "mixed";
    case Agreement::no_peer_verdict: return "no-peer-verdict";
    case Agreement::reference_unsupported: return "reference-unsupported";
    case Agreement::reference_failure: return "reference-failure";
  }
  return "unknown";
}

bool opens(const Result& r) { return r.status == Status::accepted; }
bool rejects(const Result& r) { return r.status == Status::rejected; }

std::vector<std::string> differing_fields(const Result& a, const Result& b) {
  std::vector<std::string> differ;
  if (a.fields.empty() || b.fields.empty()) return differ;
  for (const auto& [name, digest] : a.fields) {
    const auto other = b.fields.find(name);
    if (other == b.fields.end() || !(other->second == digest)) differ.push_back(name);
  }
  return differ;
}

RunOptions select_sweep_implementations(const RunOptions& options, const std::vector<std::string>& formats, RunReport& report) {
  RunOptions run = options;
  run.sweep = true;
  // Fields need the whole dump: keep as much of it as an adapter may write.
  run.limits.kept_output_bytes = static_cast<std::size_t>(run.limits.max_output_bytes);
  if (!run.impls.empty() && std::find(run.impls.begin(), run.impls.end(), "reference") == run.impls.end()) {
    run.impls.insert(run.impls.begin(), "reference");
  }
  select_implementations(run, formats, report);
  // A sweep is a measurement: an implementation that cannot run here is listed, never a failure.
  for (Skipped& s : report.skipped) s.fails_gate = false;
  if (std::none_of(report.impls.begin(), report.impls.end(), [](const Adapter& a) { return a.name == "reference"; })) {
    throw Error(ErrorKind::usage, {run.root, "", std::nullopt}, "the adapter manifest declares no in-process `reference`");
  }
  return run;
}

RunReport run_sweep(const SweepOptions& options) {
  RunReport report;
  report.kind = "sweep";
  report.runs.push_back(current_run_metadata(options.run.root, options.run.shard));
  discover_files(options, report);
  std::vector<std::string> formats;
  for (const CaseFile& c : report.cases) formats.push_back(c.format);
  const RunOptions run = select_sweep_implementations(options.run, formats, report);
  if (report.cases.empty()) {
    throw Error(ErrorKind::usage, {options.dir, "", std::nullopt}, "no file to sweep (no file of a selected format)");
  }
  std::vector<Job> jobs;
  for (std::size_t c = 0; c < report.cases.size(); ++c) {
    for (std::size_t i = 0; i < report.impls.size(); ++i) {
      if (report.impls[i].reads(report.cases[c].format)) jobs.push_back({c, i});
    }
  }
  report.pairs = jobs.size();
  // Shards by file, so that each shard's report classifies its files whole.
  if (run.shard.count > 1) {
    std::vector<std::string> files;
    for (const CaseFile& c : report.cases) files.push_back(c.format + "/" + c.name);
    std::vector<bool> chosen(report.cases.size(), false);
    for (const std::size_t c : shard_pairs(files, run.shard)) chosen[c] = true;
    std::erase_if(jobs, [&](const Job& job) { return !chosen[job.case_index]; });
    if (jobs.empty()) {
      throw Error(ErrorKind::usage, {options.dir, "", std::nullopt},
                  "shard " + std::to_string(run.shard.index) + "/" + std::to_string(run.shard.count) +
                      " selects no file: the sweep has only " + std::to_string(report.cases.size()) + " files");
    }
    report.shard = run.shard;
  }
  // Messages name the files as they are named in the report: by their path under the directory.
  const std::string prefix = (fs::path(options.dir) / "").string();
  run_jobs(report, jobs, run, [&](Result& r, const Job&) {
    replace_all(r.detail, prefix, "");
    replace_all(r.stderr_text, prefix, "");
  });
  return report;
}

std::vector<FileAgreement> sweep_agreements(const RunReport& report) {
  std::map<const CaseFile*, FileAgreement> files;
  std::map<std::string, const Adapter*> impls;
  for (const Adapter& impl : report.impls) impls[impl.name] = &impl;
  for (const Result& r : report.results) {
    FileAgreement& f = files[r.case_file];
    f.file = r.case_file;
    const Adapter& impl = *impls.at(r.impl);
    if (impl.name == "reference") {
      f.reference = &r;
    } else if (impl.kind == "reference") {
      f.variants.push_back(&r);
    } else {
      f.peers.push_back(&r);
    }
  }
  std::vector<FileAgreement> out;
  for (const CaseFile& c : report.cases) {
    const auto it = files.find(&c);
    if (it == files.end() || it->second.reference == nullptr) continue;
    FileAgreement f = std::move(it->second);
    std::map<std::string, std::size_t> groups;
    for (const Result* p : f.peers) {
      if (opens(*p)) ++groups[p->digest];
    }
    for (const auto& [digest, count] : groups) {
      if (count > f.consensus_peers) {
        f.consensus = digest;
        f.consensus_peers = count;
      } else if (count == f.consensus_peers) {
        f.consensus.clear();  // a tie: no consensus
      }
    }
    if (f.consensus_peers < 2) f.consensus.clear();
    if (f.consensus.empty()) f.consensus_peers = 0;
    f.agreement = classify(f);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace docconform::cli
