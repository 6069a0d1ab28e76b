#include "conform_large.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli_util.h"
#include "common/scratch_file.h"
#include "docconform/error.h"
#include "golden_ledger.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;

// A recipe's steps: docconform command lines joined by " && ".
std::vector<std::string> recipe_steps(const std::string& recipe) {
  std::vector<std::string> steps;
  const std::string separator = " && ";
  std::size_t from = 0;
  for (std::size_t at = recipe.find(separator); at != std::string::npos; at = recipe.find(separator, from)) {
    steps.push_back(recipe.substr(from, at - from));
    from = at + separator.size();
  }
  steps.push_back(recipe.substr(from));
  return steps;
}

// Runs the recipe (each step's output appears complete or not at all), then writes the stamp:
// an interrupted run is generated again.
void generate(const std::string& path, const std::string& recipe, const RunOptions& options) {
  const std::string stamp = path + ".recipe";
  if (fs::exists(path) && fs::exists(stamp) && read_file(stamp) == recipe + "\n") return;
  fs::remove(stamp);
  if (options.progress) std::cerr << "conform: generating " << path << "\n";
  const ProcessLimits limits{3600, 0, 1 << 20};
  for (const std::string& step : recipe_steps(recipe)) {
    std::vector<std::string> argv{options.docconform_binary};
    for (std::string word : split(step, ' ')) {
      replace_all(word, "{out}", path);
      replace_all(word, "{dir}", fs::path(path).parent_path().string());
      argv.push_back(word);
    }
    const ProcessResult p = run_process(argv, limits);
    if (p.end != ProcessResult::End::exited || p.exit_code != 0) {
      throw Error(ErrorKind::io, {path, "", std::nullopt}, "generating it with `docconform " + step + "` failed: " + p.err);
    }
  }
  write_file(stamp, recipe + "\n");
}

// build/large-cases of a checkout; an installed suite may be read-only, so else the user's cache
// directory (as conformance/adapters/java_classes.py keeps compiled adapters).
fs::path default_large_dir(const std::string& root) {
  if (fs::exists(fs::path(root) / ".git")) return fs::path(root) / "build" / "large-cases";
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path cache = xdg != nullptr && *xdg != '\0'   ? fs::path(xdg)
                         : home != nullptr && *home != '\0' ? fs::path(home) / ".cache"
                                                           : fs::path(temporary_directory());
  return cache / "docconform" / "large-cases";
}

}  // namespace

std::set<std::string> large_case_keys(const std::string& root) {
  std::set<std::string> keys;
  for (const auto& [line, fields] : read_tsv((fs::path(root) / "conformance" / "large" / "CASES.tsv").string())) {
    if (fields.size() >= 2) keys.insert(fields[0] + "/" + fields[1]);
  }
  return keys;
}

std::vector<CaseFile> prepare_large_cases(const RunOptions& options) {
  const std::string manifest = (fs::path(options.root) / "conformance" / "large" / "CASES.tsv").string();
  if (!fs::exists(manifest)) throw Error(ErrorKind::io, {manifest, "", std::nullopt}, "cannot open the large-case manifest");
  const fs::path dir = options.large_dir.empty() ? default_large_dir(options.root) : fs::path(options.large_dir);
  std::vector<CaseFile> cases;
  for (const auto& [line, fields] : read_tsv(manifest)) {
    const ErrorContext where{manifest, "line " + std::to_string(line), std::nullopt};
    if (fields.size() != 6) {
      throw Error(ErrorKind::format, where, "expected 6 tab-separated fields: format case golden recipe what-it-tests rule-source");
    }
    const std::string& format = fields[0];
    const std::string& name = fields[1];
    if (find_dump_format(format) == nullptr) throw Error(ErrorKind::format, where, "unknown format " + format);
    if (case_verdict(name) == '?') throw Error(ErrorKind::format, where, "a case name starts with y_, n_ or i_");
    if (!case_selected(options.formats, options.case_glob, format, name)) continue;
    // One file per case name: a PDF listed under pdf and pdf3 is generated once.
    fs::create_directories(dir);
    const std::string path = (dir / name).string();
    generate(path, fields[3], options);
    cases.push_back({format, name, path, case_verdict(name), fields[2] == "-" ? "" : fields[2], true});
  }
  return cases;
}

}  // namespace docconform::cli
