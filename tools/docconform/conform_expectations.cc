#include "conform_expectations.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_util.h"
#include "conform_runner.h"
#include "docconform/error.h"

namespace docconform::cli {

std::map<std::string, Expectation> read_expectations(const std::vector<std::string>& dirs, const std::string& impl,
                                                     const std::function<bool(const std::string&)>& is_case) {
  std::map<std::string, Expectation> expectations;
  for (const auto& dir : dirs) {
    const std::string path = (std::filesystem::path(dir) / (impl + ".tsv")).string();
    for (const auto& [line, fields] : read_tsv(path)) {
      const ErrorContext where{path, "line " + std::to_string(line), std::nullopt};
      if (fields.size() < 2) throw Error(ErrorKind::format, where, "expected <format>/<case>, its status and why, tab-separated");
      if (!status_named(fields[1])) throw Error(ErrorKind::format, where, "`" + fields[1] + "` is not a status of the runner");
      if (!is_case(fields[0])) throw Error(ErrorKind::format, where, "the suite has no case " + fields[0]);
      expectations[fields[0]] = {fields[1], fields.size() >= 3 ? fields[2] : ""};
    }
  }
  return expectations;
}

std::string draft_expectations(const std::string& report_json, const std::string& report_path, const std::string& impl) {
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(report_json);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::format, {report_path, "", std::nullopt}, std::string("not a JSON report: ") + e.what());
  }
  if (!report.contains("results") || !report["results"].is_array()) {
    throw Error(ErrorKind::format, {report_path, "", std::nullopt}, "no \"results\" array: not a `conform run --json` report");
  }
  std::set<std::string> with_departures;
  std::string lines;
  std::size_t adapter_failures = 0;
  for (const auto& r : report["results"]) {
    const std::string outcome = r.value("outcome", "");
    if (outcome != "failed" && outcome != "recorded") continue;
    const std::string name = r.value("impl", "");
    if (!impl.empty() && name != impl) continue;
    const std::string status = r.value("status", "");
    // An adapter failure is no verdict: it is fixed in the adapter, never recorded.
    if (status == "adapter_failure") {
      ++adapter_failures;
      continue;
    }
    with_departures.insert(name);
    const std::string reason = r.value("reason", "");
    lines += r.value("case", "") + "\t" + status + "\t" +
             (outcome == "recorded" && !reason.empty() ? reason : "TODO: why " + name + " gives " + status) + "\n";
  }
  if (with_departures.size() > 1) {
    std::string names;
    for (const auto& name : with_departures) names += " " + name;
    throw Error(ErrorKind::usage, {report_path, "", std::nullopt}, "departures of several implementations (" + names.substr(1) +
                                                                     "): name one with --impl");
  }
  const std::string name = impl.empty() ? (with_departures.empty() ? "" : *with_departures.begin()) : impl;
  std::string text = "# Known differences of " + (name.empty() ? std::string("the implementation") : name) + " from the golden verdicts";
  text += " (drafted from " + std::filesystem::path(report_path).filename().string() + ": replace each TODO with the reason).\n";
  if (adapter_failures > 0) {
    text += "# " + std::to_string(adapter_failures) + " adapter failures are not listed: fix the adapter, they are no verdict.\n";
  }
  return text + "# case\texpected status\twhy\n" + lines;
}

}  // namespace docconform::cli
