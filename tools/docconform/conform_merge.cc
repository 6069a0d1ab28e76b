#include "conform_merge.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "cli_util.h"
#include "docconform/error.h"

namespace docconform::cli {
namespace {

template <typename Enum>
Enum from_name(const std::string& name, Enum last, const std::string& path, const std::string& what) {
  for (int i = 0; i <= static_cast<int>(last); ++i) {
    if (name == to_string(static_cast<Enum>(i))) return static_cast<Enum>(i);
  }
  throw Error(ErrorKind::format, {path, "", std::nullopt}, "unknown " + what + " \"" + name + "\"");
}

Shard read_shard(const nlohmann::json& j) { return {j.at("index").get<unsigned>(), j.at("count").get<unsigned>()}; }

std::string shard_text(Shard s) { return std::to_string(s.index) + "/" + std::to_string(s.count); }

// The parts of a report that every shard of one run has alike.
nlohmann::json run_identity(const nlohmann::json& j) {
  nlohmann::json versions = nlohmann::json::array();
  for (const auto& run : j.at("runs")) versions.push_back({run.at("suite_version"), run.at("commit")});
  return {{"kind", j.value("kind", "run")},
          {"unswept", j.value("unswept", nlohmann::json::array())},
          {"suite", versions.empty() ? nlohmann::json() : versions.front()},
          {"shards", j.at("shard").at("count")},
          {"pairs", j.at("shard").at("pairs")},
          {"cases", j.at("cases")},
          {"implementations", j.at("implementations")},
          {"skipped", j.at("skipped")}};
}

RunReport parse_report(const nlohmann::json& j, const std::string& path) {
  if (j.at("version").get<int>() != 1) throw Error(ErrorKind::format, {path, "", std::nullopt}, "report version is not 1");
  RunReport report;
  report.kind = j.value("kind", "run");
  if (report.kind != "run" && report.kind != "sweep") {
    throw Error(ErrorKind::format, {path, "", std::nullopt}, "unknown report kind \"" + report.kind + "\"");
  }
  for (const auto& u : j.value("unswept", nlohmann::json::array())) report.unswept.push_back({u.at("file"), u.at("why")});
  report.shard = read_shard(j.at("shard"));
  report.pairs = j.at("shard").at("pairs").get<std::size_t>();
  for (const auto& run : j.at("runs")) {
    report.runs.push_back({run.at("date"), run.at("suite_version"), run.at("commit"), run.at("cores").get<unsigned>(),
                           run.at("cpu"), run.at("os"), read_shard(run.at("shard"))});
  }
  for (const auto& c : j.at("cases")) {
    const std::string verdict = c.at("verdict");
    CaseFile file{c.at("format"), c.at("name"), "", verdict.empty() ? '?' : verdict[0], c.at("golden"), c.at("large").get<bool>()};
    report.cases.push_back(std::move(file));
  }
  std::map<std::string, const CaseFile*> cases;
  for (const auto& c : report.cases) cases[c.format + "/" + c.name] = &c;
  for (const auto& i : j.at("implementations")) {
    Adapter impl;
    impl.name = i.at("name");
    impl.kind = i.at("kind");
    impl.gated = i.at("gated");
    impl.formats = i.at("formats").get<std::vector<std::string>>();
    impl.version = i.at("version");
    impl.engine = i.value("engine", impl.name);
    report.impls.push_back(std::move(impl));
  }
  for (const auto& s : j.at("skipped")) report.skipped.push_back({s.at("impl"), s.at("requires"), s.at("fails_gate")});
  for (const auto& r : j.at("results")) {
    Result result;
    const auto c = cases.find(r.at("case").get<std::string>());
    if (c == cases.end()) {
      throw Error(ErrorKind::format, {path, "", std::nullopt}, "a result of " + r.at("case").get<std::string>() + ", not among its cases");
    }
    result.case_file = c->second;
    result.impl = r.at("impl");
    result.status = from_name(r.at("status").get<std::string>(), Status::no_golden, path, "status");
    result.golden_match = r.at("golden_match");
    result.outcome = from_name(r.at("outcome").get<std::string>(), Outcome::failed, path, "outcome");
    result.reason = r.at("reason");
    result.seconds = r.at("seconds");
    result.digest = r.at("digest");
    result.detail = r.at("detail");
    result.diff = r.at("diff");
    result.stderr_text = r.at("stderr");
    result.error_class = r.value("error_class", "");
    const nlohmann::json fields = r.value("fields", nlohmann::json::object());
    for (const auto& [name, field] : fields.items()) {
      result.fields[name] = {field.at("lines").get<std::uint64_t>(), field.at("sha256").get<std::string>()};
    }
    for (const auto& phase : r.at("phases")) {
      result.phases.push_back({phase.at("phase"), phase.at("seconds"), phase.at("bytes"), ""});  // the JSON has no digest
    }
    report.results.push_back(std::move(result));
  }
  return report;
}

nlohmann::json parse_json(const std::string& text, const std::string& path) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::format, {path, "", std::nullopt}, std::string("not a JSON report: ") + e.what());
  }
}

RunReport report_from_json(const nlohmann::json& j, const std::string& path) {
  try {
    return parse_report(j, path);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::format, {path, "", std::nullopt}, std::string("not a `conform run --json` or `conform sweep --json` report: ") + e.what());
  }
}

}  // namespace

RunReport read_run_report(const std::string& json_text, const std::string& path) {
  return report_from_json(parse_json(json_text, path), path);
}

RunReport merge_shard_reports(const std::vector<std::string>& paths) {
  std::vector<RunReport> shards;
  std::optional<nlohmann::json> identity;
  std::map<unsigned, std::string> shard_files;  // shard index -> file
  for (const auto& path : paths) {
    const nlohmann::json j = parse_json(read_file(path), path);
    try {
      const nlohmann::json mine = run_identity(j);
      if (!identity) identity = mine;
      for (const char* part : {"kind", "suite", "cases", "implementations", "skipped", "unswept", "shards", "pairs"}) {
        if (mine.at(part) != identity->at(part)) {
          throw Error(ErrorKind::usage, {path, "", std::nullopt},
                      std::string("not a shard of the same run as ") + paths.front() + ": its " + part + " differ");
        }
      }
    } catch (const nlohmann::json::exception& e) {
      throw Error(ErrorKind::format, {path, "", std::nullopt}, std::string("not a `conform run --json` or `conform sweep --json` report: ") + e.what());
    }
    shards.push_back(report_from_json(j, path));
    const Shard shard = shards.back().shard;
    if (const auto [it, added] = shard_files.emplace(shard.index, path); !added) {
      throw Error(ErrorKind::usage, {path, "", std::nullopt}, "shard " + shard_text(shard) + " again: " + it->second + " is that shard");
    }
  }
  const Shard first = shards.front().shard;
  for (unsigned k = 1; k <= first.count; ++k) {
    if (shard_files.count(k) == 0) {
      std::string given;
      for (const auto& path : paths) given += (given.empty() ? "" : ", ") + path;
      throw Error(ErrorKind::usage, {given, "", std::nullopt}, "shard " + shard_text({k, first.count}) + " is missing");
    }
  }

  RunReport merged;
  merged.kind = shards.front().kind;
  merged.unswept = shards.front().unswept;
  merged.cases = shards.front().cases;
  merged.impls = shards.front().impls;
  merged.skipped = shards.front().skipped;
  merged.pairs = shards.front().pairs;
  std::map<std::string, std::size_t> case_index;
  for (std::size_t c = 0; c < merged.cases.size(); ++c) case_index[merged.cases[c].format + "/" + merged.cases[c].name] = c;
  std::map<std::string, std::size_t> impl_index;
  for (std::size_t i = 0; i < merged.impls.size(); ++i) impl_index[merged.impls[i].name] = i;
  std::map<std::pair<std::size_t, std::size_t>, std::string> seen;  // (case, impl) -> file
  for (std::size_t s = 0; s < shards.size(); ++s) {
    for (Result& r : shards[s].results) {
      const std::size_t c = case_index.at(r.case_file->format + "/" + r.case_file->name);
      const auto impl = impl_index.find(r.impl);
      if (impl == impl_index.end()) {
        throw Error(ErrorKind::format, {paths[s], "", std::nullopt}, "a result of " + r.impl + ", not among its implementations");
      }
      if (const auto [it, added] = seen.emplace(std::pair{c, impl->second}, paths[s]); !added) {
        throw Error(ErrorKind::usage, {paths[s], "", std::nullopt},
                    "overlapping shards: " + r.impl + " on " + merged.cases[c].format + "/" + merged.cases[c].name + " is also in " +
                        it->second);
      }
      r.case_file = &merged.cases[c];
      merged.results.push_back(std::move(r));
    }
    for (RunMetadata& run : shards[s].runs) merged.runs.push_back(std::move(run));
  }
  if (merged.results.size() != merged.pairs) {
    throw Error(ErrorKind::format, {paths.front(), "", std::nullopt},
                "the shards hold " + std::to_string(merged.results.size()) + " results of a run of " + std::to_string(merged.pairs) +
                    " (case, implementation) pairs");
  }
  // Case-major order, as a whole run gives them.
  std::stable_sort(merged.results.begin(), merged.results.end(), [&](const Result& a, const Result& b) {
    return std::pair{a.case_file - merged.cases.data(), impl_index.at(a.impl)} <
           std::pair{b.case_file - merged.cases.data(), impl_index.at(b.impl)};
  });
  std::stable_sort(merged.runs.begin(), merged.runs.end(),
                   [](const RunMetadata& a, const RunMetadata& b) { return a.shard.index < b.shard.index; });
  return merged;
}

}  // namespace docconform::cli
