// conform run: every implementation (adapter) on every case, classified, reported, gated.
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "common/scratch_file.h"
#include "conform_expectations.h"
#include "conform_merge.h"
#include "conform_mine.h"
#include "conform_report.h"
#include "conform_runner.h"
#include "conform_sweep.h"
#include "conform_sweep_report.h"
#include "docconform/error.h"
#include "docconform/output_file.h"
#include "option_ranges.h"

namespace docconform::cli {
namespace {

// The reports a run, a sweep or a merge writes. A run's exit status is the gate's; a sweep's is 0
// unless --fail-on names a class that some file falls in.
struct ReportFiles {
  std::string json;
  std::string junit;
  std::string html;
  std::string markdown;
  std::vector<std::string> fail_on;

  void add_options(CLI::App* command, bool run, bool sweep) {
    command->add_option("--json", json, "Write the JSON report here");
    if (run) {
      command->add_option("--junit", junit, "Write a JUnit XML report here (runs only)");
      command->add_option("--html", html, "Write the results matrix as HTML here (runs only)");
    }
    command->add_option("--markdown", markdown, "Write the results matrix (of a sweep: its tables) as Markdown here");
    if (sweep) {
      command->add_option("--fail-on", fail_on, "Of a sweep: exit 1 when a file falls in this class, or a run is an "
                                                "adapter failure or a timeout (repeatable)")
          ->check(CLI::IsMember(sweep_fail_on_names()));
    }
  }

  // Each report's place is tried before the work that fills it.
  void check_writable() const {
    for (const std::string* path : {&json, &junit, &html, &markdown}) probe_output(*path);
  }

  void write_and_gate(const RunReport& report) const {
    if (report.kind == "sweep") {
      write_sweep(report);
      return;
    }
    if (!fail_on.empty()) throw Error(ErrorKind::usage, {"--fail-on", "", std::nullopt}, "applies to sweep reports, not to a run's");
    print_summary(report);
    write_files({{json, json.empty() ? "" : report_json(report)},
                 {junit, junit.empty() ? "" : report_junit(report)},
                 {html, html.empty() ? "" : report_html(report)},
                 {markdown, markdown.empty() ? "" : report_markdown(report)}});
    if (report.gate_failed()) throw CLI::RuntimeError(1);
  }

  void write_sweep(const RunReport& report) const {
    if (!junit.empty() || !html.empty()) {
      throw Error(ErrorKind::usage, {junit.empty() ? "--html" : "--junit", "", std::nullopt}, "a sweep writes --json and --markdown");
    }
    print_sweep_summary(report);
    write_files({{json, json.empty() ? "" : sweep_json(report)}, {markdown, markdown.empty() ? "" : sweep_markdown(report)}});
    const auto failures = sweep_failures(report, fail_on);
    for (const auto& line : failures) std::cout << "sweep: failed: " << line << "\n";
    if (!failures.empty()) throw CLI::RuntimeError(1);
  }
};

struct ConformOptions {
  RunOptions run;
  std::string shard;
  ReportFiles reports;
};

struct MergeOptions {
  std::vector<std::string> shards;
  ReportFiles reports;
};

// "K/N" with 1 <= K <= N <= max_shards.
constexpr unsigned max_shards = 10000;
std::optional<Shard> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  if (slash == std::string::npos) return std::nullopt;
  const auto number = [](const std::string& digits) -> std::optional<unsigned> {
    if (digits.empty() || digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return static_cast<unsigned>(std::stoul(digits));
  };
  const auto k = number(text.substr(0, slash));
  const auto n = number(text.substr(slash + 1));
  if (!k || !n || *k < 1 || *n > max_shards || *k > *n) return std::nullopt;
  return Shard{*k, *n};
}

void add_limit_options(CLI::App* command, const std::string& prefix, ProcessLimits& limits, const std::string& what) {
  command->add_option("--" + prefix + "timeout", limits.timeout_s, "Seconds per " + what + " before it and every process it started are killed")
      ->capture_default_str()
      ->transform(seconds_range());
  command->add_option("--" + prefix + "memory-mb", limits.memory_mb, "Address-space cap per " + what + " in MiB (0 = none)")
      ->capture_default_str()
      ->transform(integer_range(0, max_memory_mb));
  command->add_option("--" + prefix + "max-output", limits.max_output_bytes,
                      "Bytes of dump an adapter may write per " + what + "; more ends it as a crash (output limit)")
      ->capture_default_str()
      ->transform(byte_range(1, max_bytes_option));
}

// --no-progress and --no-batch, as every command that runs adapters takes them.
void add_progress_and_batch_flags(CLI::App* command, RunOptions& run) {
  command->add_flag("!--no-progress", run.progress, "Do not show progress on stderr");
  command->add_flag("!--no-batch", run.batch,
                    "One process per input even for adapters that declare a batch command (conformance/SPEC.md section 2)");
}

// The suite's root and this binary, resolved when a command runs.
void resolve_run_paths(RunOptions& run) {
  run.root = resolve_root(run.root);
  run.docconform_binary = self_executable();
}

void add_shard_option(CLI::App* command, std::string& shard, const std::string& what) {
  command->add_option("--shard", shard, "Only shard K of N (K/N): " + what + "; `conform merge` joins the shards' --json")
      ->check(CLI::Validator(
          [](std::string& text) {
            return parse_shard(text) ? std::string() : "--shard " + text + ": want K/N with 1 <= K <= N <= " + std::to_string(max_shards);
          },
          "K/N"));
}

struct SweepCommandOptions {
  SweepOptions sweep;
  std::string shard;
  ReportFiles reports;
};

struct MineCommandOptions {
  MineOptions mine;
  std::string json;
};

struct DraftOptions {
  std::string from;
  std::string impl;
  std::string output;
};

}  // namespace

void add_conform_commands(CommandGroups& groups) {
  auto options = std::make_shared<ConformOptions>();
  auto* conform = groups.app.add_subcommand("conform", "Run the conformance suite over implementations");
  conform->require_subcommand(1);
  auto* run = conform->add_subcommand("run", "Run cases through adapters, compare with golden/, report and gate");
  run->add_option("--root", options->run.root, root_option_help);
  run->add_option("--format", options->run.formats, "Only these formats (repeatable)");
  run->add_option("--impl", options->run.impls, "Only these implementations (repeatable; see conformance/adapters/ADAPTERS.tsv)");
  run->add_option("--adapters", options->run.adapter_files,
                  "More adapters, from a TSV with the columns of ADAPTERS.tsv; {dir} = its directory (repeatable)")
      ->check(CLI::ExistingFile);
  run->add_option("--expectations", options->run.expectation_dirs,
                  "More recorded differences: a directory of <implementation>.tsv files (repeatable)")
      ->check(CLI::ExistingDirectory);
  run->add_option("--cases", options->run.case_glob, "Only cases matching this glob on <format>/<case file>");
  run->add_option("--allow-skip", options->run.allow_skip,
                  "A gated implementation whose missing requirement does not fail the run (repeatable)");
  run->add_option("--jobs,-j", options->run.jobs, "Parallel runs (0 = hardware threads)")
      ->capture_default_str()
      ->transform(integer_range(0, max_threads_option));
  // A run's limits, and the wider ones of the large cases.
  add_limit_options(run, "", options->run.limits, "run");
  add_shard_option(run, options->shard, "a fixed 1/N of the (case, implementation) pairs");
  options->reports.add_options(run, true, false);
  add_progress_and_batch_flags(run, options->run);
  run->add_flag("--large", options->run.large,
                "Also the large cases of conformance/large/CASES.tsv (generated on first use), timed one at a time");
  run->add_option("--large-dir", options->run.large_dir, "Where the large cases are generated (default <root>/build/large-cases in a checkout, else ~/.cache/docconform/large-cases)");
  add_limit_options(run, "large-", options->run.large_limits, "large run");
  run->callback([options] {
    resolve_run_paths(options->run);
    if (!options->shard.empty()) options->run.shard = *parse_shard(options->shard);
    options->reports.check_writable();
    temporary_directory();  // where the adapters' phase files go, tried before the runs too
    options->reports.write_and_gate(run_conformance(options->run));
  });

  auto sweep = std::make_shared<SweepCommandOptions>();
  auto* sweep_command = conform->add_subcommand(
      "sweep", "Run the reference and peers over a directory of real files (no golden data) and report how far they agree");
  sweep_command->add_option("dir", sweep->sweep.dir, "The directory (searched recursively)")->required();
  sweep_command->add_option("--root", sweep->sweep.run.root, root_option_help);
  sweep_command->add_option("--format", sweep->sweep.run.formats,
                            "Only these formats (repeatable): xlsx (.xlsx, .xlsm), pdf or pdf3 (.pdf), sst (.xls); "
                            "default xlsx, pdf, sst");
  sweep_command->add_option("--impl", sweep->sweep.run.impls,
                            "Only these implementations, the in-process reference always (repeatable; see conformance/adapters/ADAPTERS.tsv)");
  sweep_command->add_option("--adapters", sweep->sweep.run.adapter_files,
                            "More adapters, from a TSV with the columns of ADAPTERS.tsv; {dir} = its directory (repeatable)")
      ->check(CLI::ExistingFile);
  sweep_command->add_option("--jobs,-j", sweep->sweep.run.jobs, "Parallel runs (0 = hardware threads)")
      ->capture_default_str()
      ->transform(integer_range(0, max_threads_option));
  add_limit_options(sweep_command, "", sweep->sweep.run.limits, "run");
  sweep_command->add_option("--max-file-bytes", sweep->sweep.max_file_bytes, "Larger files are not swept (listed with this limit)")
      ->capture_default_str()
      ->transform(byte_range(1, max_bytes_option));
  add_shard_option(sweep_command, sweep->shard, "a fixed 1/N of the files, each with all its runs");
  sweep->reports.add_options(sweep_command, false, true);
  add_progress_and_batch_flags(sweep_command, sweep->sweep.run);
  sweep_command->callback([sweep] {
    resolve_run_paths(sweep->sweep.run);
    if (!sweep->shard.empty()) sweep->sweep.run.shard = *parse_shard(sweep->shard);
    sweep->reports.check_writable();
    sweep->reports.write_and_gate(run_sweep(sweep->sweep));
  });

  auto mine = std::make_shared<MineCommandOptions>();
  auto* mine_command = conform->add_subcommand(
      "mine", "Mutate seeds of a format, run the reference and peers on each mutant, and keep each new kind of disagreement, "
              "minimised, as a candidate with its metadata");
  mine_command->add_option("--root", mine->mine.run.root, root_option_help);
  mine_command->add_option("--format", mine->mine.format, "The format: xlsx, pdf, pdf3, sst, sstw or utf8")
      ->required()
      ->check(CLI::IsMember({"xlsx", "pdf", "pdf3", "sst", "sstw", "utf8"}));
  mine_command->add_option("--impl", mine->mine.run.impls,
                           "Only these implementations, the in-process reference always (A,B,... or repeated; default: every "
                           "one that reads the format)")
      ->delimiter(',');
  mine_command->add_option("--adapters", mine->mine.run.adapter_files,
                           "More adapters, from a TSV with the columns of ADAPTERS.tsv; {dir} = its directory (repeatable)")
      ->check(CLI::ExistingFile);
  mine_command->add_option("--seconds", mine->mine.seconds, "Time to mine (each kept input's minimisation has its own budget)")
      ->capture_default_str()
      ->transform(seconds_range());
  mine_command->add_option("--jobs,-j", mine->mine.run.jobs, "Parallel runs (0 = hardware threads)")
      ->capture_default_str()
      ->transform(integer_range(0, max_threads_option));
  mine_command->add_option("--seed", mine->mine.seed, "The campaign's seed: input N of seed S is the same mutant everywhere")
      ->capture_default_str()
      ->transform(integer_range(0, UINT64_MAX));
  mine_command->add_option("--out", mine->mine.out, "Where candidates go, under <format>/ (default <root>/conformance/candidates)");
  mine_command->add_option("--max-candidates", mine->mine.max_candidates, "Stop after keeping this many (0 = no limit)")
      ->capture_default_str()
      ->transform(integer_range(0, 1000000));
  mine_command->add_option("--seeds", mine->mine.seed_dirs,
                           "Seed files from these directories (repeatable; default <root>/conformance/cases/<format>)")
      ->check(CLI::ExistingDirectory);
  mine_command->add_option("--max-seed-bytes", mine->mine.max_seed_bytes, "Larger seed files are left out")
      ->capture_default_str()
      ->transform(byte_range(1, max_bytes_option));
  mine_command->add_option("--max-input-bytes", mine->mine.max_input_bytes, "A mutation growing an input past this is not made")
      ->capture_default_str()
      ->transform(byte_range(1, max_bytes_option));
  mine_command->add_option("--max-mutations", mine->mine.max_mutations, "Mutations stacked on a seed: 1 to this many")
      ->capture_default_str()
      ->transform(integer_range(1, 64));
  mine_command->add_option("--minimize-seconds", mine->mine.minimize.seconds, "Time to minimise each kept input")
      ->capture_default_str()
      ->transform(seconds_range());
  mine_command->add_option("--minimize-runs", mine->mine.minimize.runs, "Inputs checked while minimising each kept input (0 = none)")
      ->capture_default_str()
      ->transform(integer_range(0, 100000000));
  add_limit_options(mine_command, "", mine->mine.run.limits, "run");
  mine_command->add_option("--json", mine->json, "Write the campaign's figures as JSON here");
  add_progress_and_batch_flags(mine_command, mine->mine.run);
  mine_command->callback([mine] {
    resolve_run_paths(mine->mine.run);
    probe_output(mine->json);
    const MineFigures figures = run_mine(mine->mine);
    std::cout << mine_summary(figures);
    if (!mine->json.empty()) write_file(mine->json, mine_json(figures));
  });

  auto merge_options = std::make_shared<MergeOptions>();
  auto* merge = conform->add_subcommand(
      "merge", "Join the JSON reports of every shard of a run or a sweep (--shard K/N --json) into the whole one's reports and exit status");
  merge->add_option("shards", merge_options->shards, "The shards' JSON reports, each shard once")
      ->required()
      ->check(CLI::ExistingFile);
  merge_options->reports.add_options(merge, true, true);
  merge->callback([merge_options] {
    merge_options->reports.check_writable();
    merge_options->reports.write_and_gate(merge_shard_reports(merge_options->shards));
  });

  auto draft = std::make_shared<DraftOptions>();
  auto* expectations = conform->add_subcommand(
      "expectations", "Draft an expectations file (<implementation>.tsv) from the departures in a run's JSON report");
  expectations->add_option("--from", draft->from, "The JSON report of `conform run --json`")->required()->check(CLI::ExistingFile);
  expectations->add_option("--impl", draft->impl, "The implementation (needed when several have departures)");
  expectations->add_option("--output,-o", draft->output, "Write the file here (default: stdout)");
  expectations->callback([draft] {
    const std::string text = draft_expectations(read_file(draft->from), draft->from, draft->impl);
    if (draft->output.empty()) {
      std::cout << text;
    } else {
      write_file(draft->output, text);
    }
  });
}

}  // namespace docconform::cli
