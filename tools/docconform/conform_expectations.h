// Recorded departures of gated implementations: conformance/expectations/<impl>.tsv and the
// user's directories given by `conform run --expectations`, and drafts of such files from a run.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace docconform::cli {

struct Expectation {
  std::string status;
  std::string reason;
};

// "<format>/<case>" -> status and reason, from <dir>/<impl>.tsv of each directory in turn (a
// later directory's line for a case replaces an earlier one's); a missing file records nothing.
std::map<std::string, Expectation> read_expectations(const std::vector<std::string>& dirs, const std::string& impl);

// An expectations file for `impl` drafted from a run's JSON report: every departure that failed
// the run or was recorded, with the status and a reason to fill in (or the recorded one).
// `impl` may be empty when only one implementation has departures.
std::string draft_expectations(const std::string& report_json, const std::string& report_path, const std::string& impl);

}  // namespace docconform::cli
