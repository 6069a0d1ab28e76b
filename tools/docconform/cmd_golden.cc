// golden check / golden update: the reference implementation against the golden ledger.
#include <filesystem>
#include <iostream>
#include <memory>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "conform_report.h"
#include "conform_runner.h"
#include "docconform/error.h"
#include "golden_ledger.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

struct GoldenOptions {
  std::string root = default_root();
  std::vector<std::string> formats;
};

int check(const GoldenOptions& options) {
  RunOptions run;
  run.root = options.root;
  run.formats = options.formats;
  run.impls = {"reference"};
  run.progress = false;
  const RunReport report = run_conformance(run);
  print_summary(report, options.root);
  int failed = report.gate_failed() ? 1 : 0;
  // Every ledger entry must still have its case file.
  for (const auto& format : dump_formats()) {
    if (!options.formats.empty() &&
        std::find(options.formats.begin(), options.formats.end(), format.name) == options.formats.end()) {
      continue;
    }
    const GoldenLedger ledger = read_ledger((fs::path(options.root) / "golden" / (format.name + ".sha256")).string());
    for (const auto& [name, expectation] : ledger.entries) {
      if (!fs::exists(fs::path(options.root) / "conformance" / "cases" / format.name / name)) {
        std::cout << "FAIL " << format.name << "/" << name << ": golden entry without a case file\n";
        failed = 1;
      }
    }
  }
  return failed;
}

void update(const GoldenOptions& options) {
  for (const auto& format : dump_formats()) {
    if (!options.formats.empty() &&
        std::find(options.formats.begin(), options.formats.end(), format.name) == options.formats.end()) {
      continue;
    }
    const fs::path root(options.root);
    const fs::path ledger_path = root / "golden" / (format.name + ".sha256");
    const GoldenLedger ledger = read_ledger(ledger_path.string());
    GoldenLedger fresh;
    fresh.header = ledger.header.empty()
                       ? "# docconform golden digests for format " + format.name + "\n# case  expectation\n"
                       : ledger.header;
    int changed = 0;
    for (const auto& c : discover_cases(options.root, {format.name}, "")) {
      const InProcessOutcome outcome = dump_in_process(format, c.path);
      fresh.entries[c.name] = outcome.digest;
      const auto old = ledger.entries.find(c.name);
      if (old == ledger.entries.end() || old->second != outcome.digest) {
        std::cout << (old == ledger.entries.end() ? "new     " : "changed ") << format.name << "/" << c.name << ": "
                  << outcome.digest << "\n";
        ++changed;
      }
      const std::string readable = golden_dump_path(options.root, format.name, c.name);
      if (!outcome.dump.empty()) {
        fs::create_directories(fs::path(readable).parent_path());
        write_file(readable, outcome.dump);
      } else {
        fs::remove(readable);
      }
    }
    if (fresh.entries.empty() && ledger.entries.empty()) continue;
    write_ledger(ledger_path.string(), fresh);
    std::cout << format.name << ": " << fresh.entries.size() << " entries, " << changed
              << " new or changed; review with git diff golden/\n";
  }
}

}  // namespace

void add_golden_commands(CommandGroups& groups) {
  auto options = std::make_shared<GoldenOptions>();
  auto* golden = groups.app.add_subcommand("golden", "Check or update the golden digests of the conformance cases");
  golden->require_subcommand(1);
  for (auto* command : {golden->add_subcommand("check", "Compare the reference's dumps with golden/ (non-zero exit on mismatch)"),
                        golden->add_subcommand("update", "Recompute golden/ from the reference (review the diff)")}) {
    command->add_option("--root", options->root, "Repository root holding conformance/ and golden/")
        ->capture_default_str();
    command->add_option("--format", options->formats, "Only these formats (repeatable)");
  }
  golden->get_subcommand("check")->callback([options] {
    if (const int status = check(*options); status != 0) throw CLI::RuntimeError(status);
  });
  golden->get_subcommand("update")->callback([options] { update(*options); });
}

}  // namespace docconform::cli
