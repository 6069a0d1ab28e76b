#include "conform_runner.h"

#include <fnmatch.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <numeric>
#include <thread>
#include <map>
#include <memory>
#include <mutex>

#include "docconform/canonical.h"
#include "common/scratch_file.h"
#include "docconform/error.h"
#include "docconform/parallel.h"
#include "docconform/sha256.h"
#include "docconform/version.h"
#include "cli_util.h"
#include "conform_expectations.h"
#include "conform_large.h"
#include "golden_ledger.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

Status classify(const CaseFile& c, bool rejected, const std::string& digest, bool& golden_match) {
  golden_match = !c.golden.empty() && digest == c.golden;
  if (c.golden.empty() && c.verdict != 'i') return Status::no_golden;
  switch (c.verdict) {
    case 'y':
      if (rejected) return Status::rejected_must_accept;
      return golden_match ? Status::pass : Status::wrong_result;
    case 'n':
      return rejected ? Status::rejected_as_expected : Status::accepted_must_reject;
    default:
      return rejected ? Status::rejected : Status::accepted;
  }
}

// Whether a result departs from the golden verdicts (an i_ case departs only by failing, or, for
// the reference, by a dump other than the golden one).
bool departs(const Result& r, const Adapter& impl) {
  if (r.case_file->verdict == 'i') return impl.kind == "reference" ? !r.golden_match : is_failure(r.status);
  return r.status != Status::pass && r.status != Status::rejected_as_expected;
}

void judge(Result& r, const Adapter& impl, const std::map<std::string, Expectation>& expectations) {
  if (r.status == Status::adapter_failure) {
    r.outcome = Outcome::failed;
    return;
  }
  if (!impl.gated) {
    r.outcome = is_failure(r.status) ? Outcome::departure : Outcome::ok;
    return;
  }
  const auto recorded = expectations.find(r.case_file->format + "/" + r.case_file->name);
  if (recorded != expectations.end()) {
    // A recorded departure that no longer happens fails too: the file must be brought up to date.
    r.outcome = recorded->second.status == to_string(r.status) ? Outcome::recorded : Outcome::failed;
    if (r.outcome == Outcome::recorded) {
      r.reason = recorded->second.reason;
    } else {
      r.detail = "the expectations record " + recorded->second.status + ": bring the entry up to date" +
                 (r.detail.empty() ? "" : "; " + r.detail);
    }
    return;
  }
  r.outcome = departs(r, impl) ? Outcome::failed : Outcome::ok;
}

// Why the stdout of an adapter that accepted a file is not a dump (conformance/SPEC.md section 2),
// or empty when it starts with the format's header line. head: its first bytes, of `bytes`.
std::string not_a_dump(const std::string& head, std::uint64_t bytes, const std::string& header) {
  if (bytes == 0) return "exit 0 with nothing on stdout (a dump starts `" + header + "`)";
  if (head.compare(0, header.size() + 1, header + "\n") == 0) return "";
  constexpr std::size_t shown = 80;
  return "exit 0 without a dump: stdout starts " + json_quoted(head.substr(0, std::min(head.find('\n'), shown))) +
         ", not `" + header + "`";
}

// The last line of an adapter's stderr: where the protocol puts `error: <class>`.
std::string last_line(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text.substr(text.rfind('\n') + 1);
}

// The phases of an accepted case, from a second run (conformance/SPEC.md section 2, "Phase
// timings"): the first run's time stays free of the repeated phase runs. A second run that
// fails, gives another dump or writes a malformed phase file makes the result a crash.
void time_phases(Result& r, const CaseFile& c, const Adapter& impl, const RunOptions& options, const ProcessLimits& limits) {
  std::string digest;
  std::string failure;
  if (impl.in_process()) {
    try {
      digest = dump_in_process(*find_dump_format(c.format), c.path, false, &r.phases).digest;
    } catch (const std::exception& e) {
      failure = e.what();
    }
  } else {
    const ScratchDirectory scratch("docconform-phases-");
    const std::string file = (fs::path(scratch.path()) / "phases").string();
    const ProcessResult p = run_process(adapter_argv(impl, c.format, c.path, options.root, options.docconform_binary), limits,
                                        {std::string(phase_file_variable) + "=" + file});
    if (p.end != ProcessResult::End::exited || p.exit_code != 0) {
      failure = p.end == ProcessResult::End::exited ? "exit " + std::to_string(p.exit_code) + ": " + last_line(p.err)
                                                     : "did not exit normally: " + last_line(p.err);
    } else {
      digest = "sha256:" + p.out_sha256;
      try {
        if (fs::exists(file)) r.phases = read_phase_file(file);
      } catch (const Error& e) {
        failure = e.what();
      }
    }
  }
  if (failure.empty() && digest != r.digest) failure = "a different dump (" + digest + ")";
  if (!failure.empty()) {
    r.status = Status::crash;
    r.detail = "phase run: " + failure;
    r.phases.clear();
  }
}

// batch: the implementation's batch-mode process for this format, or nullptr (one process per input).
Result run_one(const CaseFile& c, const Adapter& impl, const RunOptions& options, const ProcessLimits& limits,
               BatchProcess* batch) {
  Result r;
  r.case_file = &c;
  r.impl = impl.name;
  bool rejected = false;
  std::string dump;        // for the diff of a wrong result: the dump's first kept_output_bytes
  bool dump_cut = false;   // the dump is longer than that
  if (impl.in_process()) {
    const DumpFormat* format = find_dump_format(c.format);
    const auto start = std::chrono::steady_clock::now();
    try {
      // The digest is computed as the dump is written; the text is made again only when the
      // report needs it (a wrong result), so a large case is never held whole; a sweep keeps it
      // for its fields.
      InProcessOutcome outcome = dump_in_process(*format, c.path, options.sweep, nullptr, limits.max_output_bytes);
      r.digest = outcome.digest;
      rejected = outcome.digest == "rejected";
      r.detail = outcome.error;
      if (rejected) r.error_class = to_string(outcome.error_kind);
      if (rejected && options.sweep && outcome.error_kind == ErrorKind::unsupported) {
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        r.status = Status::unsupported;
        return r;
      }
      dump = std::move(outcome.dump);
      dump_cut = outcome.dump_cut;
    } catch (const std::exception& e) {
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      r.status = Status::crash;
      r.detail = e.what();
      return r;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  } else {
    // A path with a line feed cannot be a request line: that input runs alone.
    if (c.path.find('\n') != std::string::npos) batch = nullptr;
    const ProcessResult p = batch != nullptr ? batch->run(c.path, limits)
                                             : run_process(adapter_argv(impl, c.format, c.path, options.root, options.docconform_binary), limits);
    r.seconds = p.seconds;
    const std::string last_err = last_line(p.err);
    r.stderr_text = stderr_excerpt(p.err);
    switch (p.end) {
      case ProcessResult::End::timed_out:
        r.status = Status::timeout;
        r.detail = "killed after " + number_text(limits.timeout_s) + " s (the timeout)";
        return r;
      case ProcessResult::End::signaled:
        r.status = Status::adapter_failure;
        r.detail = "signal " + std::to_string(p.signal) + ": " + last_err;
        return r;
      case ProcessResult::End::output_overflow:
        r.status = Status::adapter_failure;
        r.detail = "output limit: more than " + std::to_string(limits.max_output_bytes) +
                   " bytes on stdout (--max-output), killed";
        return r;
      case ProcessResult::End::spawn_failed:
        r.status = Status::adapter_failure;
        r.detail = "could not start: " + p.err;
        return r;
      case ProcessResult::End::protocol_failure:
        r.status = Status::adapter_failure;
        r.detail = "batch mode: " + p.failure;
        return r;
      case ProcessResult::End::exited:
        break;
    }
    if (p.exit_code == 2) {
      r.status = Status::unsupported;
      r.detail = last_err;
      r.error_class = "unsupported";
      return r;
    }
    // Exit 1 is a rejection only with the protocol's last line: an uncaught exception also exits
    // 1 (Python, Node), with a traceback instead.
    if ((p.exit_code != 0 && p.exit_code != 1) || (p.exit_code == 1 && last_err.rfind("error: ", 0) != 0)) {
      if (batch != nullptr) batch->stop();  // a broken adapter's state reaches no other input
      r.status = Status::adapter_failure;
      r.detail = "exit " + std::to_string(p.exit_code) + (p.exit_code == 1 ? " without `error: <class>`" : "") + ": " + last_err;
      return r;
    }
    rejected = p.exit_code == 1;
    if (!rejected) {
      if (std::string why = not_a_dump(p.out_head, p.out_bytes, find_dump_format(c.format)->header); !why.empty()) {
        r.status = Status::adapter_failure;
        r.detail = std::move(why);
        return r;
      }
    }
    r.digest = rejected ? "rejected" : "sha256:" + p.out_sha256;
    if (rejected) {
      r.detail = last_err;
      r.error_class = last_err.substr(std::string_view("error: ").size());
      r.error_class = r.error_class.substr(0, r.error_class.find_first_of(" :"));
    }
    dump = p.out_head;
    dump_cut = p.out_bytes > p.out_head.size();
  }
  r.status = classify(c, rejected, r.digest, r.golden_match);
  if (r.status == Status::wrong_result) {
    if (impl.in_process()) {
      InProcessOutcome again = dump_in_process(*find_dump_format(c.format), c.path, true, nullptr, limits.kept_output_bytes);
      dump = std::move(again.dump);
      dump_cut = again.dump_cut;
    }
    const std::string golden = golden_dump_path(options.root, c.format, c.name);
    const std::string golden_name = "golden/" + c.format + "/" + c.name + ".dump";
    r.diff = fs::exists(golden) ? dump_diff(read_file(golden), dump, golden_name, impl.name, dump_cut)
                                : "no " + golden_name + " to compare with (the ledger has only its digest)\n";
  }
  if (r.status != Status::rejected && r.status != Status::rejected_must_accept && r.status != Status::rejected_as_expected) {
    r.stderr_text.clear();  // an accepted case's stderr is no evidence of anything
  }
  if (options.sweep && !rejected) {
    if (dump_cut) {
      r.detail = "fields not compared: the dump is longer than " + std::to_string(limits.max_output_bytes) + " bytes (--max-output)";
    } else {
      r.fields = dump_field_digests(c.format, dump);
      if (options.mining) r.dump = std::move(dump);
    }
  }
  if (!rejected && !options.mining && find_dump_format(c.format)->timed_phases) time_phases(r, c, impl, options, limits);
  return r;
}

}  // namespace

const char* to_string(Status status) {
  switch (status) {
    case Status::pass: return "pass";
    case Status::wrong_result: return "wrong_result";
    case Status::rejected_must_accept: return "rejected_must_accept";
    case Status::rejected_as_expected: return "rejected_as_expected";
    case Status::accepted_must_reject: return "accepted_must_reject";
    case Status::accepted: return "accepted";
    case Status::rejected: return "rejected";
    case Status::unsupported: return "unsupported";
    case Status::crash: return "crash";
    case Status::adapter_failure: return "adapter_failure";
    case Status::timeout: return "timeout";
    case Status::no_golden: return "no_golden";
  }
  return "unknown";
}

std::optional<Status> status_named(std::string_view name) {
  for (int s = 0; s <= static_cast<int>(Status::no_golden); ++s) {
    if (name == to_string(static_cast<Status>(s))) return static_cast<Status>(s);
  }
  return std::nullopt;
}

bool is_failure(Status status) {
  switch (status) {
    case Status::pass:
    case Status::rejected_as_expected:
    case Status::accepted:
    case Status::rejected:
    case Status::unsupported: return false;
    case Status::wrong_result:
    case Status::rejected_must_accept:
    case Status::accepted_must_reject:
    case Status::crash:
    case Status::adapter_failure:
    case Status::timeout:
    case Status::no_golden: return true;
  }
  return true;
}

std::string stderr_excerpt(const std::string& err) {
  constexpr std::size_t part = 4096;
  if (err.size() <= 2 * part) return err;
  return err.substr(0, part) + "\n[... " + std::to_string(err.size() - 2 * part) + " bytes left out ...]\n" +
         err.substr(err.size() - part);
}

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::ok: return "ok";
    case Outcome::recorded: return "recorded";
    case Outcome::departure: return "departure";
    case Outcome::failed: return "failed";
  }
  return "unknown";
}

std::vector<std::string> RunReport::gate_failures() const {
  std::vector<std::string> causes;
  for (const auto& s : skipped) {
    if (s.fails_gate) causes.push_back("gated implementation " + s.impl + " skipped: requires " + s.requirement + " (--allow-skip " + s.impl + " to accept)");
  }
  std::size_t adapter_failures = 0;
  std::size_t new_departures = 0;
  for (const auto& r : results) {
    if (r.outcome != Outcome::failed) continue;
    ++(r.status == Status::adapter_failure ? adapter_failures : new_departures);
  }
  if (adapter_failures > 0) causes.push_back(std::to_string(adapter_failures) + " adapter failures");
  if (new_departures > 0) causes.push_back(std::to_string(new_departures) + " departures of gated implementations not in their expectations");
  return causes;
}

RunMetadata current_run_metadata(const std::string& root, Shard shard) {
  RunMetadata m;
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  m.date = date;
  m.suite_version = version_string;
  if (fs::exists(fs::path(root) / ".git")) m.commit = first_output_line({"git", "-C", root, "rev-parse", "HEAD"});
  m.cores = std::thread::hardware_concurrency();
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) != 0) continue;
    m.cpu = line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1);
    m.cpu.erase(0, m.cpu.find_first_not_of(' '));
    break;
  }
  utsname name{};
  if (uname(&name) == 0) m.os = std::string(name.sysname) + " " + name.release + " " + name.machine;
  m.shard = shard;
  return m;
}

std::vector<std::size_t> shard_pairs(const std::vector<std::string>& pairs, Shard shard) {
  std::vector<std::size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return pairs[a] < pairs[b]; });
  std::vector<std::size_t> selected;
  for (std::size_t rank = shard.index - 1; rank < order.size(); rank += shard.count) selected.push_back(order[rank]);
  std::sort(selected.begin(), selected.end());
  return selected;
}

InProcessOutcome dump_in_process(const DumpFormat& format, const std::string& path, bool keep_dump, PhaseLog* phases,
                                 std::size_t keep_bytes) {
  InProcessOutcome outcome;
  try {
    Sha256 hash;
    format.write(
        path,
        [&](std::string_view piece) {
          hash.update(piece);
          if (!keep_dump) return;
          const std::size_t room = keep_bytes - outcome.dump.size();
          outcome.dump_cut = outcome.dump_cut || piece.size() > room;
          outcome.dump += piece.substr(0, room);
        },
        phases);
    outcome.digest = "sha256:" + hash.final_hex();
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::io || e.kind() == ErrorKind::usage) throw;
    outcome.digest = "rejected";
    outcome.dump.clear();
    outcome.dump_cut = false;
    outcome.error = e.what();
    outcome.error_kind = e.kind();
  }
  return outcome;
}

bool case_selected(const std::vector<std::string>& formats, const std::string& case_glob, const std::string& format,
                   const std::string& name) {
  if (!formats.empty() && std::find(formats.begin(), formats.end(), format) == formats.end()) return false;
  const std::string key = format + "/" + name;
  return case_glob.empty() || fnmatch(case_glob.c_str(), key.c_str(), 0) == 0;
}

std::vector<CaseFile> discover_cases(const std::string& root, const std::vector<std::string>& formats,
                                     const std::string& case_glob) {
  std::vector<CaseFile> cases;
  const fs::path tree = fs::path(root) / "conformance" / "cases";
  const fs::path real_tree = fs::weakly_canonical(tree);
  for (const auto& format : dump_formats()) {
    const fs::path dir = tree / format.name;
    if (!fs::is_directory(dir)) continue;
    const GoldenLedger ledger = read_ledger((fs::path(root) / "golden" / (format.name + ".sha256")).string());
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      const std::string ext = entry.path().extension().string();
      if (!entry.is_regular_file() || case_verdict(name) == '?') continue;
      if (std::find(format.extensions.begin(), format.extensions.end(), ext) == format.extensions.end()) continue;
      if (!case_selected(formats, case_glob, format.name, name)) continue;
      // A symbolic link could hand the adapters any file of the machine as a case.
      const fs::path real = fs::canonical(entry.path());
      const auto [tree_end, real_at] = std::mismatch(real_tree.begin(), real_tree.end(), real.begin(), real.end());
      if (tree_end != real_tree.end()) {
        throw Error(ErrorKind::usage, {entry.path().string(), "", std::nullopt},
                    "refused: a symbolic link to " + real.string() + ", outside the cases tree " + real_tree.string());
      }
      const auto golden = ledger.entries.find(name);
      cases.push_back({format.name, name, entry.path().string(), case_verdict(name),
                       golden == ledger.entries.end() ? "" : golden->second});
    }
  }
  std::sort(cases.begin(), cases.end(), [](const CaseFile& a, const CaseFile& b) {
    return std::tie(a.format, a.name) < std::tie(b.format, b.name);
  });
  return cases;
}

void select_implementations(const RunOptions& options, const std::vector<std::string>& formats, RunReport& report) {
  const auto manifest = (fs::path(options.root) / "conformance" / "adapters" / "ADAPTERS.tsv").string();
  std::vector<Adapter> adapters = read_adapters(manifest);
  for (const auto& extra : options.adapter_files) {
    for (Adapter& adapter : read_adapters(extra)) {
      if (std::any_of(adapters.begin(), adapters.end(), [&](const Adapter& a) { return a.name == adapter.name; })) {
        throw Error(ErrorKind::usage, {extra, "", std::nullopt}, "an adapter named " + adapter.name + " is already declared");
      }
      adapters.push_back(std::move(adapter));
    }
  }
  for (const Adapter& adapter : adapters) {
    if (!options.impls.empty() &&
        std::find(options.impls.begin(), options.impls.end(), adapter.name) == options.impls.end()) {
      continue;
    }
    // An adapter with nothing to read here is neither run nor missed.
    if (std::none_of(formats.begin(), formats.end(), [&](const std::string& f) { return adapter.reads(f); })) continue;
    if (const std::string missing = missing_requirement(adapter, options.root); !missing.empty()) {
      const bool allowed = std::find(options.allow_skip.begin(), options.allow_skip.end(), adapter.name) != options.allow_skip.end();
      report.skipped.push_back({adapter.name, missing, adapter.gated && !allowed});
      continue;
    }
    report.impls.push_back(adapter);
    report.impls.back().version = adapter_version(adapter, options.root, options.docconform_binary);
  }
  for (const auto& wanted : options.impls) {
    const bool known = std::any_of(adapters.begin(), adapters.end(), [&](const Adapter& a) { return a.name == wanted; });
    if (!known) throw Error(ErrorKind::usage, {manifest, "", std::nullopt}, "no adapter named " + wanted);
  }
}

void run_jobs(RunReport& report, const std::vector<Job>& jobs, const RunOptions& options,
              const std::function<void(Result&, const Job&)>& finish, BatchPool* pool) {
  report.results.resize(jobs.size());
  std::atomic<std::size_t> done{0};
  std::atomic<std::size_t> failures{0};
  std::mutex progress_mutex;
  const bool interactive = isatty(2) != 0;
  // Each worker keeps the batch-mode process of the implementation and format it serves.
  const std::size_t small_jobs = static_cast<std::size_t>(
      std::find_if(jobs.begin(), jobs.end(), [&](const Job& j) { return report.cases[j.case_index].large; }) - jobs.begin());
  BatchPool own;
  BatchPool& batches = pool != nullptr ? *pool : own;
  batches.resize(std::max<std::size_t>(batches.size(), std::max(1U, planned_threads(small_jobs, options.jobs))));
  const auto batch_for = [&](const Job& job, unsigned worker) -> BatchProcess* {
    const Adapter& impl = report.impls[job.impl_index];
    const CaseFile& c = report.cases[job.case_index];
    if (!options.batch || impl.batch_command.empty() || c.large) return nullptr;
    WorkerBatch& b = batches[worker];
    if (b.impl_index != job.impl_index || b.format != c.format || !b.process) {
      b.process.reset();  // one process per worker at a time
      b.impl_index = job.impl_index;
      b.format = c.format;
      b.process = std::make_unique<BatchProcess>(adapter_batch_argv(impl, c.format, options.root, options.docconform_binary),
                                                 options.limits.memory_mb);
    }
    return b.process.get();
  };
  const auto run_job = [&](std::size_t j, unsigned worker) {
    const Job job = jobs[j];
    const Adapter& impl = report.impls[job.impl_index];
    const CaseFile& c = report.cases[job.case_index];
    Result r = run_one(c, impl, options, c.large ? options.large_limits : options.limits, batch_for(job, worker));
    finish(r, job);
    if (is_failure(r.status)) failures.fetch_add(1);
    const std::size_t finished = done.fetch_add(1) + 1;
    // On a terminal the line is rewritten in place; in a log, a line per quarter of the runs
    // and one per large run (each takes seconds to minutes).
    const std::size_t step = interactive ? 1 : std::max<std::size_t>(1, jobs.size() / 4);
    if (options.progress && (finished % step == 0 || finished == jobs.size() || c.large)) {
      std::lock_guard lock(progress_mutex);
      std::cerr << (interactive ? "\r" : "") << "conform: " << finished << "/" << jobs.size() << " runs, "
                << failures.load() << " failures so far";
      if (c.large) std::cerr << " (" << c.format << "/" << c.name << " " << impl.name << ": " << to_string(r.status) << " in " << r.seconds << " s)";
      std::cerr << (interactive && finished != jobs.size() && !c.large ? "" : "\n") << std::flush;
    }
    report.results[j] = std::move(r);
  };
  // Large cases come last in `jobs` (cases are discovered before them) and run one at a time. The
  // others run grouped by implementation and format, so that a batch-mode process serves a run of
  // inputs; results stay in job order.
  std::vector<std::size_t> order(small_jobs);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return std::tie(jobs[a].impl_index, report.cases[jobs[a].case_index].format) <
           std::tie(jobs[b].impl_index, report.cases[jobs[b].case_index].format);
  });
  parallel_for(small_jobs, options.jobs, [&](std::size_t k, unsigned worker) { run_job(order[k], worker); });
  own.clear();
  for (std::size_t j = small_jobs; j < jobs.size(); ++j) run_job(j, 0);
}

RunReport run_conformance(const RunOptions& options) {
  RunReport report;
  report.runs.push_back(current_run_metadata(options.root, options.shard));
  report.cases = discover_cases(options.root, options.formats, options.case_glob);
  if (options.large) {
    for (CaseFile& c : prepare_large_cases(options)) report.cases.push_back(std::move(c));
  }
  std::vector<std::string> formats;  // of the selected cases
  for (const CaseFile& c : report.cases) {
    if (std::find(formats.begin(), formats.end(), c.format) == formats.end()) formats.push_back(c.format);
  }
  select_implementations(options, formats, report);

  std::vector<Job> jobs;
  for (std::size_t c = 0; c < report.cases.size(); ++c) {
    for (std::size_t i = 0; i < report.impls.size(); ++i) {
      if (report.impls[i].reads(report.cases[c].format)) jobs.push_back({c, i});
    }
  }
  // A filter that selects nothing would pass a gate that checked nothing.
  if (report.cases.empty()) {
    throw Error(ErrorKind::usage, {options.root, "", std::nullopt},
                "no case selected (--format/--cases match none): the formats are " + dump_format_names() +
                    ", and --cases globs match <format>/<case file>, e.g. 'xlsx/y_*'");
  }
  if (jobs.empty()) {
    std::string why = "no selected implementation reads the selected cases' formats";
    for (std::size_t k = 0; k < report.skipped.size(); ++k) {
      why += (k == 0 ? "; skipped: " : ", ") + report.skipped[k].impl + " (requires " + report.skipped[k].requirement + ")";
    }
    throw Error(ErrorKind::usage, {options.root, "", std::nullopt}, why);
  }
  report.pairs = jobs.size();
  if (options.shard.count > 1) {
    std::vector<std::string> pairs;
    for (const Job& job : jobs) {
      const CaseFile& c = report.cases[job.case_index];
      pairs.push_back(c.format + "/" + c.name + "\t" + report.impls[job.impl_index].name);
    }
    std::vector<Job> selected;
    for (const std::size_t j : shard_pairs(pairs, options.shard)) selected.push_back(jobs[j]);
    if (selected.empty()) {
      throw Error(ErrorKind::usage, {options.root, "", std::nullopt},
                  "shard " + std::to_string(options.shard.index) + "/" + std::to_string(options.shard.count) +
                      " selects no run: the run has only " + std::to_string(jobs.size()) + " (case, implementation) pairs");
    }
    jobs = std::move(selected);
    report.shard = options.shard;
  }
  std::vector<std::map<std::string, Expectation>> expectations;
  std::vector<std::string> expectation_dirs{(fs::path(options.root) / "conformance" / "expectations").string()};
  for (const auto& dir : options.expectation_dirs) {
    if (!fs::is_directory(dir)) throw Error(ErrorKind::io, {dir, "", std::nullopt}, "no such expectations directory");
    expectation_dirs.push_back(dir);
  }
  const std::set<std::string> large = large_case_keys(options.root);  // read once, not per line
  const auto is_case = [&](const std::string& key) {
    return large.contains(key) || fs::is_regular_file(fs::path(options.root) / "conformance" / "cases" / key);
  };
  for (const auto& impl : report.impls) expectations.push_back(read_expectations(expectation_dirs, impl.name, is_case));

  run_jobs(report, jobs, options,
           [&](Result& r, const Job& job) { judge(r, report.impls[job.impl_index], expectations[job.impl_index]); });
  return report;
}

}  // namespace docconform::cli
