// golden check / golden update: the reference implementation against the golden ledger.
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "cli_util.h"
#include "commands.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "formats.h"
#include "golden_ledger.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

struct GoldenOptions {
  std::string root = default_root();
  std::vector<std::string> formats;
};

struct Outcome {
  std::string expectation;  // "sha256:<hex>" or "rejected"
  std::string dump;         // empty when rejected
  std::string error;
};

Outcome run_reference(const DumpFormat& format, const fs::path& file) {
  Outcome outcome;
  try {
    outcome.dump = format.dump(file.string());
    outcome.expectation = "sha256:" + sha256_hex(outcome.dump);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::io || e.kind() == ErrorKind::usage) throw;
    outcome.expectation = "rejected";
    outcome.error = e.what();
  }
  return outcome;
}

std::vector<fs::path> case_files(const fs::path& dir, const DumpFormat& format) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    const auto ext = entry.path().extension().string();
    for (const auto& wanted : format.extensions) {
      if (ext == wanted) files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Prints the lines where the golden dump and the actual dump differ (at most a screenful).
void print_dump_diff(const std::string& expected, const std::string& actual) {
  std::istringstream a(expected);
  std::istringstream b(actual);
  std::string la;
  std::string lb;
  int shown = 0;
  for (std::size_t line = 1; shown < 20; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_a && !more_b) break;
    if (more_a && more_b && la == lb) continue;
    std::cout << "    line " << line << ":\n";
    if (more_a) std::cout << "    - " << la << "\n";
    if (more_b) std::cout << "    + " << lb << "\n";
    ++shown;
  }
}

std::vector<const DumpFormat*> selected_formats(const GoldenOptions& options) {
  std::vector<const DumpFormat*> formats;
  if (options.formats.empty()) {
    for (const auto& format : dump_formats()) formats.push_back(&format);
    return formats;
  }
  for (const auto& name : options.formats) {
    const DumpFormat* format = find_dump_format(name);
    if (format == nullptr) throw Error(ErrorKind::usage, {}, "unknown format: " + name);
    formats.push_back(format);
  }
  return formats;
}

int check(const GoldenOptions& options) {
  int passed = 0;
  int failed = 0;
  for (const DumpFormat* format : selected_formats(options)) {
    const fs::path root(options.root);
    const fs::path ledger_path = root / "golden" / (format->name + ".sha256");
    const GoldenLedger ledger = read_ledger(ledger_path.string());
    const auto files = case_files(root / "conformance" / "cases" / format->name, *format);
    for (const auto& file : files) {
      const std::string name = file.filename().string();
      const auto entry = ledger.entries.find(name);
      if (entry == ledger.entries.end()) {
        std::cout << "FAIL " << format->name << "/" << name << ": no golden entry in " << ledger_path.string() << "\n";
        ++failed;
        continue;
      }
      const Outcome outcome = run_reference(*format, file);
      if (outcome.expectation == entry->second) {
        ++passed;
        continue;
      }
      ++failed;
      std::cout << "FAIL " << format->name << "/" << name << ": expected " << entry->second << ", got "
                << outcome.expectation << (outcome.error.empty() ? "" : " (" + outcome.error + ")") << "\n";
      const fs::path readable = root / "golden" / format->name / (name + ".dump");
      if (!outcome.dump.empty() && fs::exists(readable)) print_dump_diff(read_file(readable.string()), outcome.dump);
    }
    for (const auto& [name, expectation] : ledger.entries) {
      if (!fs::exists(root / "conformance" / "cases" / format->name / name)) {
        std::cout << "FAIL " << format->name << "/" << name << ": golden entry without a case file\n";
        ++failed;
      }
    }
  }
  std::cout << "golden: " << passed << " passed, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

void update(const GoldenOptions& options) {
  for (const DumpFormat* format : selected_formats(options)) {
    const fs::path root(options.root);
    const fs::path ledger_path = root / "golden" / (format->name + ".sha256");
    GoldenLedger ledger = read_ledger(ledger_path.string());
    GoldenLedger fresh;
    fresh.header = ledger.header.empty()
                       ? "# docconform golden digests for format " + format->name + "\n# case  expectation\n"
                       : ledger.header;
    const fs::path dumps = root / "golden" / format->name;
    fs::create_directories(dumps);
    int changed = 0;
    for (const auto& file : case_files(root / "conformance" / "cases" / format->name, *format)) {
      const std::string name = file.filename().string();
      const Outcome outcome = run_reference(*format, file);
      fresh.entries[name] = outcome.expectation;
      const auto old = ledger.entries.find(name);
      if (old == ledger.entries.end() || old->second != outcome.expectation) {
        std::cout << (old == ledger.entries.end() ? "new     " : "changed ") << format->name << "/" << name << ": "
                  << outcome.expectation << "\n";
        ++changed;
      }
      if (!outcome.dump.empty()) write_file((dumps / (name + ".dump")).string(), outcome.dump);
    }
    write_ledger(ledger_path.string(), fresh);
    std::cout << format->name << ": " << fresh.entries.size() << " entries, " << changed
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
