// golden check / golden update: the reference implementation against the golden ledger.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <iostream>
#include <memory>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "conform_adapters.h"
#include "conform_report.h"
#include "conform_runner.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "golden_ledger.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

struct GoldenOptions {
  std::string root;  // --root; resolved when the command runs
  std::vector<std::string> formats;
  bool require_consensus = false;
  bool consensus = true;
};

constexpr std::size_t consensus_quorum = 2;  // third-party engines that must agree on a y_ case

std::string consensus_path(const std::string& root, const std::string& format) {
  return (fs::path(root) / "golden" / (format + ".consensus")).string();
}

// case -> reason why fewer than consensus_quorum independent implementations can confirm it.
std::map<std::string, std::string> consensus_exceptions(const std::string& root, const std::string& format) {
  std::map<std::string, std::string> exceptions;
  for (const auto& row : read_tsv((fs::path(root) / "conformance" / "cases" / format / "CONSENSUS-EXCEPTIONS.tsv").string())) {
    if (row.fields.size() >= 2) exceptions[row.fields[0]] = row.fields[1];
  }
  return exceptions;
}

// Reads golden/<format>.consensus: case -> implementations that reproduced the golden dump.
std::map<std::string, std::vector<std::string>> read_consensus(const std::string& path) {
  std::map<std::string, std::vector<std::string>> agreeing;
  std::istringstream in(read_file_if_present(path).value_or(""));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    std::string name;
    std::string impls;
    row >> name >> impls;
    std::vector<std::string>& list = agreeing[name];
    std::istringstream items(impls == "-" ? "" : impls);
    for (std::string impl; std::getline(items, impl, ',');) list.push_back(impl);
  }
  return agreeing;
}

// Runs every independent and third-party adapter of the format and records who agrees.
void update_consensus(const GoldenOptions& options, const std::string& format) {
  RunOptions run;
  run.root = options.root;
  run.formats = {format};
  run.progress = true;
  run.docconform_binary = self_executable();
  for (const auto& adapter : read_adapters((fs::path(options.root) / "conformance" / "adapters" / "ADAPTERS.tsv").string())) {
    if (adapter.kind != "reference" && adapter.reads(format)) run.impls.push_back(adapter.name);
  }
  std::map<std::string, std::vector<std::string>> agreeing;
  std::string skipped;
  if (!run.impls.empty()) {
    const RunReport report = run_conformance(run);
    for (const auto& s : report.skipped) skipped += " " + s.impl + " (needs " + s.requirement + ")";
    for (const auto& c : report.cases) agreeing[c.name];
    for (const auto& r : report.results) {
      if (r.golden_match) agreeing[r.case_file->name].push_back(r.impl);
    }
  }
  std::string text = "# docconform golden consensus for format " + format +
                     ": implementations other than the reference that reproduced each golden digest\n# case  agreeing\n";
  if (!skipped.empty()) text += "# not available when recorded:" + skipped + "\n";
  for (auto& [name, impls] : agreeing) {
    std::sort(impls.begin(), impls.end());
    std::string list;
    for (const auto& impl : impls) list += (list.empty() ? "" : ",") + impl;
    text += name + "  " + (list.empty() ? "-" : list) + "\n";
  }
  write_file(consensus_path(options.root, format), text);
}

// Reports y_ cases whose golden digest fewer than consensus_quorum third-party engines confirm:
// two bindings of one parser (qpdf and pikepdf) are one witness.
int check_consensus(const GoldenOptions& options, const std::string& format) {
  const auto agreeing = read_consensus(consensus_path(options.root, format));
  const auto exceptions = consensus_exceptions(options.root, format);
  std::map<std::string, std::string> third_party_engine;
  for (const auto& adapter : read_adapters((fs::path(options.root) / "conformance" / "adapters" / "ADAPTERS.tsv").string())) {
    if (adapter.kind == "third-party") third_party_engine[adapter.name] = adapter.engine;
  }
  std::size_t confirmed = 0;
  std::size_t excepted = 0;
  std::size_t unconfirmed = 0;
  for (const auto& c : discover_cases(options.root, {format}, "")) {
    if (c.verdict != 'y') continue;
    std::set<std::string> engines;
    if (const auto it = agreeing.find(c.name); it != agreeing.end()) {
      for (const auto& impl : it->second) {
        if (const auto e = third_party_engine.find(impl); e != third_party_engine.end()) engines.insert(e->second);
      }
    }
    if (engines.size() >= consensus_quorum) {
      ++confirmed;
    } else if (exceptions.count(c.name)) {
      ++excepted;
    } else {
      ++unconfirmed;
      if (options.require_consensus) std::cout << "UNCONFIRMED " << format << "/" << c.name << "\n";
    }
  }
  std::cout << "consensus " << format << ": " << confirmed << " y_ cases confirmed by >= " << consensus_quorum
            << " third-party engines, " << excepted << " written exceptions, " << unconfirmed
            << " unconfirmed\n";
  return options.require_consensus && unconfirmed > 0 ? 1 : 0;
}

// The readable dumps beside a ledger: each digest entry's dump must hash to that digest (an empty
// or truncated dump must not pass for the real one), and nothing else may be there.
std::vector<std::string> readable_dump_problems(const std::string& root, const std::string& format, const GoldenLedger& ledger) {
  std::vector<std::string> problems;
  for (const auto& [name, expectation] : ledger.entries) {
    const std::string path = golden_dump_path(root, format, name);
    const bool exists = fs::exists(path);
    if (expectation == "rejected") {
      if (exists) problems.push_back(name + ": a rejected case has a readable dump, " + path);
    } else if (!exists) {
      problems.push_back(name + ": no readable dump " + path);
    } else if ("sha256:" + sha256_hex(read_file(path)) != expectation) {
      problems.push_back(name + ": the readable dump " + path + " does not hash to the ledger's " + expectation);
    }
  }
  const fs::path dir = fs::path(root) / "golden" / format;
  if (fs::is_directory(dir)) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string file = entry.path().filename().string();
      const std::string name = file.size() > 5 && file.ends_with(".dump") ? file.substr(0, file.size() - 5) : "";
      if (!ledger.entries.count(name)) problems.push_back(file + ": a file in golden/" + format + "/ without a ledger entry");
    }
  }
  return problems;
}

int check(const GoldenOptions& options) {
  RunOptions run;
  run.root = options.root;
  run.formats = options.formats;
  run.impls = {"reference"};
  run.progress = false;
  const RunReport report = run_conformance(run);
  print_summary(report);
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
    for (const std::string& problem : readable_dump_problems(options.root, format.name, ledger)) {
      std::cout << "FAIL " << format.name << "/" << problem << "\n";
      failed = 1;
    }
    if (!ledger.entries.empty() && check_consensus(options, format.name) != 0) failed = 1;
  }
  return failed;
}

// A filesystem call's failure as the io error it is, naming the path.
void check_fs(const std::error_code& ec, const fs::path& path, const char* what) {
  if (ec) throw Error(ErrorKind::io, {path.string(), "", std::nullopt}, std::string(what) + ": " + ec.message());
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
    // The changed files are written together, the ledger last (write_files): a full disk or an
    // error on the way leaves golden/ as it was. Unchanged dumps are not rewritten.
    std::vector<std::pair<std::string, std::string>> changed_files;
    std::vector<fs::path> stale;  // readable dumps to remove once the ledger is in place
    const auto stage = [&](const fs::path& path, std::string bytes) {
      std::error_code ec;
      fs::create_directories(path.parent_path(), ec);
      check_fs(ec, path.parent_path(), "cannot create the directory");
      changed_files.emplace_back(path.string(), std::move(bytes));
    };
    int changed = 0;
    for (const auto& c : discover_cases(options.root, {format.name}, "")) {
      InProcessOutcome outcome = dump_in_process(format, c.path, true);
      fresh.entries[c.name] = outcome.digest;
      const auto old = ledger.entries.find(c.name);
      if (old == ledger.entries.end() || old->second != outcome.digest) {
        std::cout << (old == ledger.entries.end() ? "new     " : "changed ") << format.name << "/" << c.name << ": "
                  << outcome.digest << "\n";
        ++changed;
      }
      const fs::path readable = golden_dump_path(options.root, format.name, c.name);
      const std::optional<std::string> present = read_file_if_present(readable.string());
      if (outcome.dump.empty()) {
        if (present) stale.push_back(readable);
      } else if (present != outcome.dump) {
        stage(readable, std::move(outcome.dump));
      }
    }
    // The readable dumps of cases that are gone.
    if (const fs::path dir = root / "golden" / format.name; fs::is_directory(dir)) {
      std::error_code ec;
      for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string file = it->path().filename().string();
        if (file.ends_with(".dump") && !fresh.entries.count(file.substr(0, file.size() - 5))) stale.push_back(it->path());
      }
      check_fs(ec, dir, "cannot list the directory");
    }
    if (fresh.entries.empty() && ledger.entries.empty()) continue;
    if (std::string text = ledger_text(fresh); read_file_if_present(ledger_path.string()) != text) stage(ledger_path, std::move(text));
    write_files(changed_files);
    for (const fs::path& path : stale) {
      std::error_code ec;
      fs::remove(path, ec);
      check_fs(ec, path, "cannot remove the stale dump");
    }
    std::cout << format.name << ": " << fresh.entries.size() << " entries, " << changed
              << " new or changed; review with git diff golden/\n";
    if (options.consensus) update_consensus(options, format.name);
  }
}

}  // namespace

void add_golden_commands(CommandGroups& groups) {
  auto options = std::make_shared<GoldenOptions>();
  auto* golden = groups.app.add_subcommand("golden", "Check or update the golden digests of the conformance cases");
  golden->require_subcommand(1);
  for (auto* command : {golden->add_subcommand("check", "Compare the reference's dumps with golden/ (non-zero exit on mismatch)"),
                        golden->add_subcommand("update", "Recompute golden/ from the reference (review the diff)")}) {
    command->add_option("--root", options->root, root_option_help);
    command->add_option("--format", options->formats, "Only these formats (repeatable)");
  }
  golden->get_subcommand("check")->add_flag("--require-consensus", options->require_consensus,
                                            "Fail when a y_ case lacks confirmation by two third-party implementations");
  golden->get_subcommand("update")->add_flag("!--no-consensus", options->consensus,
                                             "Do not run the other implementations to record agreement");
  golden->get_subcommand("check")->callback([options] {
    options->root = resolve_root(options->root);
    if (const int status = check(*options); status != 0) throw CLI::RuntimeError(status);
  });
  golden->get_subcommand("update")->callback([options] {
    options->root = resolve_root(options->root);
    update(*options);
  });
}

}  // namespace docconform::cli
