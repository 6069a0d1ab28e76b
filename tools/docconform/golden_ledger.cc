#include "golden_ledger.h"

#include <fstream>
#include <sstream>

#include "cli_util.h"
#include "docconform/error.h"

namespace docconform::cli {

GoldenLedger read_ledger(const std::string& path) {
  GoldenLedger ledger;
  std::ifstream in(path);
  if (!in) return ledger;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    if (line[0] == '#') {
      ledger.header += line + "\n";
      continue;
    }
    std::istringstream fields(line);
    std::string name;
    std::string expectation;
    if (!(fields >> name >> expectation) || (expectation != "rejected" && expectation.rfind("sha256:", 0) != 0)) {
      throw Error(ErrorKind::format, {path, "line " + std::to_string(number), std::nullopt},
                  "expected '<case>  sha256:<hex>' or '<case>  rejected'");
    }
    ledger.entries[name] = expectation;
  }
  return ledger;
}

void write_ledger(const std::string& path, const GoldenLedger& ledger) {
  std::string text = ledger.header;
  for (const auto& [name, expectation] : ledger.entries) text += name + "  " + expectation + "\n";
  write_file(path, text);
}

std::string golden_dump_path(const std::string& root, const std::string& format, const std::string& case_name) {
  return root + "/golden/" + format + "/" + case_name + ".dump";
}

std::string dump_diff(const std::string& expected, const std::string& actual, bool actual_cut) {
  // Of a cut dump only the complete lines are compared, and nothing past them.
  const std::string kept = actual_cut ? actual.substr(0, actual.rfind('\n') + 1) : actual;
  std::istringstream a(expected);
  std::istringstream b(kept);
  std::string la;
  std::string lb;
  std::string diff;
  int shown = 0;
  for (std::size_t line = 1; shown < 20; ++line) {
    const bool more_a = static_cast<bool>(std::getline(a, la));
    const bool more_b = static_cast<bool>(std::getline(b, lb));
    if (!more_b && actual_cut) break;
    if (!more_a && !more_b) break;
    if (more_a && more_b && la == lb) continue;
    diff += "    line " + std::to_string(line) + ":\n";
    if (more_a) diff += "    - " + la + "\n";
    if (more_b) diff += "    + " + lb + "\n";
    ++shown;
  }
  if (actual_cut && shown == 0) {
    diff = "    the first " + std::to_string(kept.size()) + " bytes of the dump agree; the difference lies past them\n";
  }
  return diff;
}

char case_verdict(const std::string& case_name) {
  if (case_name.size() >= 2 && case_name[1] == '_' &&
      (case_name[0] == 'y' || case_name[0] == 'n' || case_name[0] == 'i')) {
    return case_name[0];
  }
  return '?';
}

}  // namespace docconform::cli
