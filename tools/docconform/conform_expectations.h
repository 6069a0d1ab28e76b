// Recorded departures of gated implementations: conformance/expectations/<impl>.tsv and the
// user's directories given by `conform run --expectations`, and drafts of such files from a run.
#pragma once

#include <functional>
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
// A line without a status, with a status that is none of the runner's, or naming no case of the
// suite (is_case) is Error(format) naming its file and line: it would match nothing, silently.
std::map<std::string, Expectation> read_expectations(const std::vector<std::string>& dirs, const std::string& impl,
                                                     const std::function<bool(const std::string&)>& is_case);

// An expectations file for `impl` drafted from a run's JSON report: every departure that failed
// the run or was recorded, with the status and a reason to fill in (or the recorded one).
// `impl` may be empty when only one implementation has departures.
std::string draft_expectations(const std::string& report_json, const std::string& report_path, const std::string& impl);

}  // namespace docconform::cli
