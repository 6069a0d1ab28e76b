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

char case_verdict(const std::string& case_name) {
  if (case_name.size() >= 2 && case_name[1] == '_' &&
      (case_name[0] == 'y' || case_name[0] == 'n' || case_name[0] == 'i')) {
    return case_name[0];
  }
  return '?';
}

}  // namespace docconform::cli
