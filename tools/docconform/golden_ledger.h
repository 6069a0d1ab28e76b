// The golden ledger: golden/<format>.sha256 holds one line per conformance case,
// "<case file>  sha256:<hex>" for a case that must load, or "<case file>  rejected" for one
// that must be refused. golden/<format>/<case>.dump holds the readable dump for diffs.
#pragma once

#include <map>
#include <string>

namespace docconform::cli {

struct GoldenLedger {
  std::string header;                         // the comment lines, kept verbatim
  std::map<std::string, std::string> entries;  // case file name -> "sha256:<hex>" or "rejected"
};

GoldenLedger read_ledger(const std::string& path);  // missing file = empty ledger; unreadable = Error(io)
std::string ledger_text(const GoldenLedger& ledger);  // what read_ledger reads back

// golden/<format>/<case>.dump: the readable dump whose digest is in the ledger.
std::string golden_dump_path(const std::string& root, const std::string& format, const std::string& case_name);

// A unified diff of two dumps ("" when equal): one hunk from the first to the last differing line,
// with 3 lines of context, at most 40 lines a side and 240 bytes a line. actual_cut: actual is
// only the first bytes of the dump, so its lines past the last complete one are unknown and the
// hunk runs to the end of what was kept.
std::string dump_diff(const std::string& expected, const std::string& actual, const std::string& expected_name,
                      const std::string& actual_name, bool actual_cut = false);

// A case's verdict from its name: 'y' must accept, 'n' must reject, 'i' implementation-defined.
char case_verdict(const std::string& case_name);

}  // namespace docconform::cli
