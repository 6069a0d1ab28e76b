// conform run: every implementation (adapter) on every case, classified, reported, gated.
#include <iostream>
#include <memory>

#include "cli_util.h"
#include "commands.h"
#include "conform_expectations.h"
#include "conform_merge.h"
#include "conform_report.h"
#include "conform_runner.h"
#include "option_ranges.h"

namespace docconform::cli {
namespace {

// The reports a run or a merge writes; its exit status is the gate's.
struct ReportFiles {
  std::string json;
  std::string junit;
  std::string html;
  std::string markdown;

  void add_options(CLI::App* command) {
    command->add_option("--json", json, "Write the JSON report here");
    command->add_option("--junit", junit, "Write a JUnit XML report here");
    command->add_option("--html", html, "Write the results matrix as HTML here");
    command->add_option("--markdown", markdown, "Write the results matrix as Markdown here");
  }

  void write_and_gate(const RunReport& report) const {
    print_summary(report);
    if (!json.empty()) write_file(json, report_json(report));
    if (!junit.empty()) write_file(junit, report_junit(report));
    if (!html.empty()) write_file(html, report_html(report));
    if (!markdown.empty()) write_file(markdown, report_markdown(report));
    if (report.gate_failed()) throw CLI::RuntimeError(1);
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
  const auto add_limits = [run](const std::string& prefix, ProcessLimits& limits, const std::string& what) {
    run->add_option("--" + prefix + "timeout", limits.timeout_s,
                    "Seconds per " + what + " before it and every process it started are killed")
        ->capture_default_str()
        ->transform(seconds_range());
    run->add_option("--" + prefix + "memory-mb", limits.memory_mb, "Address-space cap per " + what + " in MiB (0 = none)")
        ->capture_default_str()
        ->transform(integer_range(0, max_memory_mb));
    run->add_option("--" + prefix + "max-output", limits.max_output_bytes,
                    "Bytes of dump an adapter may write per " + what + "; more ends it as a crash (output limit)")
        ->capture_default_str()
        ->transform(byte_range(1, max_bytes_option));
  };
  add_limits("", options->run.limits, "run");
  run->add_option("--shard", options->shard,
                  "Only shard K of N (K/N): a fixed 1/N of the (case, implementation) pairs; `conform merge` joins the shards' --json")
      ->check(CLI::Validator(
          [](std::string& text) {
            return parse_shard(text) ? std::string() : "--shard " + text + ": want K/N with 1 <= K <= N <= " + std::to_string(max_shards);
          },
          "K/N"));
  options->reports.add_options(run);
  run->add_flag("!--no-progress", options->run.progress, "Do not show progress on stderr");
  run->add_flag("--large", options->run.large,
                "Also the large cases of conformance/large/CASES.tsv (generated on first use), timed one at a time");
  run->add_option("--large-dir", options->run.large_dir, "Where the large cases are generated (default <root>/build/large-cases)");
  add_limits("large-", options->run.large_limits, "large run");
  run->callback([options] {
    options->run.root = resolve_root(options->run.root);
    options->run.docconform_binary = self_executable();
    if (!options->shard.empty()) options->run.shard = *parse_shard(options->shard);
    options->reports.write_and_gate(run_conformance(options->run));
  });

  auto merge_options = std::make_shared<MergeOptions>();
  auto* merge = conform->add_subcommand(
      "merge", "Join the JSON reports of every shard of a run (conform run --shard K/N --json) into the whole run's reports and gate");
  merge->add_option("shards", merge_options->shards, "The shards' JSON reports, each shard once")
      ->required()
      ->check(CLI::ExistingFile);
  merge_options->reports.add_options(merge);
  merge->callback([merge_options] { merge_options->reports.write_and_gate(merge_shard_reports(merge_options->shards)); });

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
