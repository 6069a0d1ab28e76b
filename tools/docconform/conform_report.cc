#include "conform_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli_util.h"
#include "golden_ledger.h"

namespace docconform::cli {
namespace {

std::string case_key(const CaseFile& c) { return c.format + "/" + c.name; }

std::string fixed(double value, int digits) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (ch) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        if (c < 0x20 && ch != '\n' && ch != '\t') {
          out += '?';  // XML 1.0 has no form for most controls
        } else {
          out += ch;
        }
    }
  }
  return out;
}

// Runs that end with a dump or a rejection; the others' times are no measure of the implementation.
bool finished(const Result& r) {
  return r.status != Status::crash && r.status != Status::adapter_failure && r.status != Status::timeout &&
         r.status != Status::unsupported;
}

// The implementation every time is compared with.
const std::string reference_impl = "reference";

struct Speed {
  double median_s = 0;
  double total_s = 0;
  std::size_t cases = 0;       // runs that finished: the median and total are over them
  std::size_t excluded = 0;    // runs that did not (timeouts, crashes, adapter failures, unsupported)
  double times_reference = 0;  // its total over the reference's, on the cases both finished; 0 = none
};

// impl -> format -> timing over the cases it accepted or rejected.
std::map<std::string, std::map<std::string, Speed>> speed_table(const RunReport& report) {
  std::map<std::string, std::map<std::string, std::vector<double>>> times;
  std::map<const CaseFile*, double> reference;
  std::map<std::string, std::map<std::string, Speed>> table;
  for (const auto& r : report.results) {
    if (r.case_file->large) continue;  // in the large-case table instead
    Speed& s = table[r.impl][r.case_file->format];
    if (!finished(r)) {
      ++s.excluded;
      continue;
    }
    times[r.impl][r.case_file->format].push_back(r.seconds);
    if (r.impl == reference_impl) reference[r.case_file] = r.seconds;
  }
  std::map<std::string, std::map<std::string, std::pair<double, double>>> versus;  // (its seconds, the reference's)
  for (const auto& r : report.results) {
    const auto ref = reference.find(r.case_file);
    if (r.case_file->large || !finished(r) || ref == reference.end()) continue;
    auto& [mine, theirs] = versus[r.impl][r.case_file->format];
    mine += r.seconds;
    theirs += ref->second;
  }
  for (auto& [impl, formats] : times) {
    for (auto& [format, list] : formats) {
      std::sort(list.begin(), list.end());
      Speed& s = table[impl][format];
      s.cases = list.size();
      s.median_s = list.size() % 2 ? list[list.size() / 2] : (list[list.size() / 2 - 1] + list[list.size() / 2]) / 2;
      for (double t : list) s.total_s += t;
      const auto [mine, theirs] = versus[impl][format];
      s.times_reference = theirs > 0 ? mine / theirs : 0;
    }
  }
  return table;
}

std::size_t speed_excluded(const std::map<std::string, std::map<std::string, Speed>>& table) {
  std::size_t n = 0;
  for (const auto& [impl, formats] : table) {
    for (const auto& [format, s] : formats) n += s.excluded;
  }
  return n;
}

const std::string speed_note =
    "median and total seconds per case set over the runs that finished (a dump or a rejection); runs that did not "
    "(timeouts, crashes, adapter failures, unsupported cases) are excluded from them and counted; x reference = its total "
    "over the in-process reference's on the cases both finished.";

// One implementation on one large case, with its time as a multiple of the reference's (0 when
// either run did not finish with an accepted or rejected outcome).
struct LargeRun {
  const Result* result = nullptr;
  double times_reference = 0;
};

std::vector<LargeRun> large_runs(const RunReport& report) {
  std::map<const CaseFile*, const Result*> reference;
  for (const auto& r : report.results) {
    if (r.case_file->large && r.impl == "reference" && finished(r)) reference[r.case_file] = &r;
  }
  std::vector<LargeRun> runs;
  for (const auto& r : report.results) {
    if (!r.case_file->large) continue;
    const auto ref = reference.find(r.case_file);
    const bool comparable = finished(r) && ref != reference.end() && ref->second->seconds > 0;
    runs.push_back({&r, comparable ? r.seconds / ref->second->seconds : 0});
  }
  return runs;
}

// A phase one implementation timed on a large case (conformance/SPEC.md section 2), with its
// time as a multiple of the in-process reference's same phase (0 when the reference has none).
struct PhaseRun {
  const Result* result = nullptr;
  const PhaseTime* phase = nullptr;
  double times_reference = 0;
};

std::vector<PhaseRun> large_phase_runs(const RunReport& report) {
  std::map<std::pair<const CaseFile*, std::string>, double> reference;
  for (const auto& r : report.results) {
    if (!r.case_file->large || r.impl != "reference") continue;
    for (const auto& phase : r.phases) reference[{r.case_file, phase.name}] = phase.seconds;
  }
  std::vector<PhaseRun> runs;
  for (const auto& r : report.results) {
    if (!r.case_file->large) continue;
    for (const auto& phase : r.phases) {
      const auto ref = reference.find({r.case_file, phase.name});
      const bool comparable = ref != reference.end() && ref->second > 0;
      runs.push_back({&r, &phase, comparable ? phase.seconds / ref->second : 0});
    }
  }
  return runs;
}

std::string times_text(double times_reference) { return times_reference > 0 ? fixed(times_reference, 1) : "-"; }

std::size_t large_excluded(const std::vector<LargeRun>& runs) {
  return static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), [](const LargeRun& run) { return !finished(*run.result); }));
}

std::map<std::string, std::map<std::string, std::size_t>> status_counts(const RunReport& report) {
  std::map<std::string, std::map<std::string, std::size_t>> counts;
  for (const auto& r : report.results) ++counts[r.impl][to_string(r.status)];
  return counts;
}

// Results counted by outcome (conform_runner.h), with the statuses behind them.
struct Tally {
  std::size_t ok = 0;
  std::size_t recorded = 0;
  std::size_t departures = 0;
  std::size_t failed = 0;
  std::string statuses;  // "pass 16, rejected 19"

  void add(const Result& r) {
    switch (r.outcome) {
      case Outcome::ok: ++ok; break;
      case Outcome::recorded: ++recorded; break;
      case Outcome::departure: ++departures; break;
      case Outcome::failed: ++failed; break;
    }
  }
};

Tally tally(const RunReport& report, const std::string& impl) {
  Tally t;
  std::map<std::string, std::size_t> counts;
  for (const auto& r : report.results) {
    if (r.impl != impl) continue;
    t.add(r);
    ++counts[to_string(r.status)];
  }
  for (const auto& [status, n] : counts) t.statuses += (t.statuses.empty() ? "" : ", ") + status + " " + std::to_string(n);
  return t;
}

std::string tally_text(const Tally& t) {
  return std::to_string(t.ok) + " ok, " + std::to_string(t.recorded) + " recorded, " + std::to_string(t.departures) +
         " departures (ungated, reported only), " + std::to_string(t.failed) + " failed";
}

const std::string outcome_legend =
    "ok = no departure from the golden verdicts; recorded = a gated implementation's departure listed with its reason in its "
    "expectations file; departures = an ungated implementation's departures, reported without failing the run; failed = "
    "fails the run (a gated implementation's new departure, or an adapter failure of any implementation).";

const char* status_color(const Result& r) {
  switch (r.status) {
    case Status::pass: return "#2e9d4f";
    case Status::rejected_as_expected: return "#62b37a";
    case Status::accepted: return r.golden_match ? "#a6d8a8" : "#f2d45c";
    case Status::rejected: return "#9cc3e6";
    case Status::unsupported: return "#d9d9d9";
    case Status::wrong_result: return "#d9453a";
    case Status::rejected_must_accept: return "#f08a24";
    case Status::accepted_must_reject: return "#9b59b6";
    case Status::crash: return "#222222";
    case Status::adapter_failure: return "#000000";
    case Status::timeout: return "#6d6d6d";
    case Status::no_golden: return "#f4a6c0";
  }
  return "#ffffff";
}

const char* status_mark(const Result& r) {
  switch (r.status) {
    case Status::pass: return "ok";
    case Status::rejected_as_expected: return "rej-ok";
    case Status::accepted: return r.golden_match ? "acc=ref" : "acc";
    case Status::rejected: return "rej";
    case Status::unsupported: return "unsup";
    case Status::wrong_result: return "WRONG";
    case Status::rejected_must_accept: return "REJECTED";
    case Status::accepted_must_reject: return "ACCEPTED";
    case Status::crash: return "CRASH";
    case Status::adapter_failure: return "ADAPTER";
    case Status::timeout: return "TIMEOUT";
    case Status::no_golden: return "NO-GOLDEN";
  }
  return "?";
}

const char* status_meaning(const Result& r) {
  switch (r.status) {
    case Status::pass: return "the golden dump";
    case Status::rejected_as_expected: return "rejected a must-reject (n_) case";
    case Status::accepted: return r.golden_match ? "accepted an implementation-defined (i_) case with the reference's dump"
                                                 : "accepted an i_ case with another dump";
    case Status::rejected: return "rejected an i_ case";
    case Status::unsupported: return "out of the implementation's scope (exit 2)";
    case Status::wrong_result: return "accepted a must-accept (y_) case with another dump";
    case Status::rejected_must_accept: return "rejected a must-accept (y_) case";
    case Status::accepted_must_reject: return "accepted a must-reject (n_) case";
    case Status::crash: return "the in-process reference threw, or its phase run disagreed";
    case Status::adapter_failure: return "the adapter broke the protocol (never a verdict)";
    case Status::timeout: return "killed at the timeout";
    case Status::no_golden: return "the golden ledger has no digest for the case";
  }
  return "";
}

// Every mark a matrix cell can show, in the order of Status (accepted twice: with and without the reference's dump).
std::vector<Result> legend_results() {
  std::vector<Result> marks;
  for (int i = 0; i <= static_cast<int>(Status::no_golden); ++i) {
    Result r;
    r.status = static_cast<Status>(i);
    r.golden_match = r.status == Status::accepted;
    marks.push_back(r);
    if (r.status == Status::accepted) {
      r.golden_match = false;
      marks.push_back(r);
    }
  }
  return marks;
}

// The mark of a departure's outcome after its status mark: recorded, or new and failing the run.
const char* outcome_suffix(const Result& r) {
  switch (r.outcome) {
    case Outcome::recorded: return "\u2020";  // dagger
    case Outcome::failed: return "!";
    case Outcome::ok:
    case Outcome::departure: return "";
  }
  return "";
}

const std::string outcome_marks =
    "\u2020 after a mark = a recorded departure (in the implementation's expectations file; the reason on hover and under "
    "Evidence); ! = a new departure or an adapter failure, which fails the run; no sign on a departure = an ungated "
    "implementation's, reported only.";

// What a report shows of a result beyond its status: the diff of a wrong result, the stderr of a
// rejection or a failed run.
std::string evidence(const Result& r) {
  std::string text = r.diff;
  if (!r.stderr_text.empty()) text += (text.empty() ? "" : "\n") + std::string("stderr:\n") + r.stderr_text;
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

// The results a reader looks into: those that depart from the golden verdicts.
bool shows_evidence(const Result& r) { return r.outcome != Outcome::ok && !evidence(r).empty(); }

// Results indexed by case then impl, for the matrices.
std::map<std::string, std::map<std::string, const Result*>> matrix(const RunReport& report) {
  std::map<std::string, std::map<std::string, const Result*>> rows;
  for (const auto& r : report.results) rows[case_key(*r.case_file)][r.impl] = &r;
  return rows;
}

struct Bar {
  std::string group;  // a format, or a large case
  std::string impl;
  double seconds = 0;
};

// Bars of the speed chart: total time per format and implementation, grouped by format.
std::vector<Bar> speed_bars(const RunReport& report) {
  const auto table = speed_table(report);
  std::vector<Bar> bars;
  std::set<std::string> formats;
  for (const auto& [impl, per_format] : table) {
    for (const auto& [format, s] : per_format) formats.insert(format);
  }
  for (const auto& format : formats) {
    for (const auto& [impl, per_format] : table) {
      const auto it = per_format.find(format);
      if (it != per_format.end() && it->second.cases > 0) bars.push_back({format, impl, std::max(it->second.total_s, 1e-6)});
    }
  }
  return bars;
}

std::vector<Bar> large_bars(const RunReport& report) {
  std::vector<Bar> bars;
  for (const auto& run : large_runs(report)) {
    const Result& r = *run.result;
    if (run.times_reference > 0) bars.push_back({r.case_file->name, r.impl, std::max(r.seconds, 1e-6)});
  }
  return bars;
}

// Horizontal bar chart of seconds, log scale, drawn as SVG.
std::string bar_svg(const std::vector<Bar>& bars, const std::string& id) {
  double lo = 1e-6;
  double hi = 1e-3;
  for (const auto& b : bars) hi = std::max(hi, b.seconds);
  lo = std::pow(10.0, std::floor(std::log10(std::max(lo, std::min(hi / 1e6, 1e-4)))));
  const double log_lo = std::log10(lo);
  const double log_hi = std::ceil(std::log10(hi));
  const int label_w = 260;
  const int plot_w = 520;
  const int bar_h = 16;
  const int height = static_cast<int>(bars.size()) * (bar_h + 4) + 50;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + id + "\" width=\"" +
                    std::to_string(label_w + plot_w + 90) + "\" height=\"" + std::to_string(height) +
                    "\" font-family=\"sans-serif\" font-size=\"11\">\n";
  for (double decade = log_lo; decade <= log_hi; decade += 1) {
    const double x = label_w + (decade - log_lo) / (log_hi - log_lo) * plot_w;
    svg += "<line x1=\"" + fixed(x, 1) + "\" y1=\"10\" x2=\"" + fixed(x, 1) + "\" y2=\"" + std::to_string(height - 30) +
           "\" stroke=\"#ddd\"/>\n<text x=\"" + fixed(x, 1) + "\" y=\"" + std::to_string(height - 16) +
           "\" text-anchor=\"middle\">1e" + std::to_string(static_cast<int>(decade)) + " s</text>\n";
  }
  int y = 10;
  for (const auto& [group, impl, total] : bars) {
    const double w = std::max(1.0, (std::log10(total) - log_lo) / (log_hi - log_lo) * plot_w);
    svg += "<text x=\"" + std::to_string(label_w - 6) + "\" y=\"" + std::to_string(y + 12) + "\" text-anchor=\"end\">" +
           xml_escape(group + " · " + impl) + "</text>\n";
    svg += "<rect class=\"bar\" data-impl=\"" + xml_escape(impl) + "\" data-group=\"" + xml_escape(group) +
           "\" data-seconds=\"" + fixed(total, 6) + "\" x=\"" + std::to_string(label_w) + "\" y=\"" + std::to_string(y) +
           "\" width=\"" + fixed(w, 1) + "\" height=\"" + std::to_string(bar_h) + "\" fill=\"" +
           (impl.rfind("reference", 0) == 0 ? "#2e6da4" : "#c77c2e") + "\"/>\n";
    svg += "<text x=\"" + fixed(label_w + w + 4, 1) + "\" y=\"" + std::to_string(y + 12) + "\">" + fixed(total, 4) +
           " s</text>\n";
    y += bar_h + 4;
  }
  svg += "</svg>\n";
  return svg;
}

nlohmann::ordered_json phases_json(const PhaseLog& phases) {
  auto j = nlohmann::ordered_json::array();
  for (const auto& phase : phases) j.push_back({{"phase", phase.name}, {"seconds", phase.seconds}, {"bytes", phase.bytes}});
  return j;
}

}  // namespace


void print_summary(const RunReport& report) {
  for (const auto& s : report.skipped) {
    std::cout << "skipped " << s.impl << ": requires " << s.requirement << (s.fails_gate ? " (gated: fails the run)" : "") << "\n";
  }
  std::size_t shown = 0;
  for (const auto& r : report.results) {
    if (r.outcome != Outcome::failed || shown >= 30) continue;
    ++shown;
    std::cout << "FAILED " << r.impl << " " << case_key(*r.case_file) << ": " << to_string(r.status)
              << (r.detail.empty() ? "" : " (" + r.detail + ")") << "\n";
    std::cout << evidence(r);
  }
  Tally all;
  for (const auto& impl : report.impls) {
    const Tally t = tally(report, impl.name);
    std::cout << "  " << impl.name << (impl.gated ? " [gated]" : "") << ": " << tally_text(t) << "  (" << t.statuses << ")\n";
  }
  for (const auto& r : report.results) all.add(r);
  std::cout << "conform: " << report.cases.size() << " cases x " << report.impls.size() << " implementations, "
            << report.results.size() << " runs: " << tally_text(all) << "\n";
  const auto causes = report.gate_failures();
  for (const auto& cause : causes) std::cout << "conform: gate failed: " << cause << "\n";
  if (causes.empty()) std::cout << "conform: gate passed\n";
}

nlohmann::ordered_json report_json_value(const RunReport& report) {
  nlohmann::ordered_json j;
  j["version"] = 1;
  j["kind"] = report.kind;
  // What `conform merge` needs besides the results: the shard, the whole run's pairs and cases.
  j["shard"] = {{"index", report.shard.index}, {"count", report.shard.count}, {"pairs", report.pairs}};
  j["runs"] = nlohmann::json::array();
  for (const auto& run : report.runs) {
    j["runs"].push_back({{"date", run.date},
                         {"suite_version", run.suite_version},
                         {"commit", run.commit},
                         {"cores", run.cores},
                         {"cpu", run.cpu},
                         {"os", run.os},
                         {"shard", {{"index", run.shard.index}, {"count", run.shard.count}}}});
  }
  j["cases"] = nlohmann::json::array();
  for (const auto& c : report.cases) {
    j["cases"].push_back({{"format", c.format}, {"name", c.name}, {"verdict", std::string(1, c.verdict)},
                          {"golden", c.golden}, {"large", c.large}});
  }
  j["implementations"] = nlohmann::json::array();
  for (const auto& impl : report.impls) {
    j["implementations"].push_back({{"name", impl.name}, {"kind", impl.kind}, {"gated", impl.gated}, {"formats", impl.formats},
                                    {"version", impl.version}, {"engine", impl.engine}});
  }
  j["skipped"] = nlohmann::json::array();
  for (const auto& s : report.skipped) {
    j["skipped"].push_back({{"impl", s.impl}, {"requires", s.requirement}, {"fails_gate", s.fails_gate}});
  }
  j["results"] = nlohmann::json::array();
  for (const auto& r : report.results) {
    j["results"].push_back({{"case", case_key(*r.case_file)},
                            {"format", r.case_file->format},
                            {"impl", r.impl},
                            {"verdict", std::string(1, r.case_file->verdict)},
                            {"status", to_string(r.status)},
                            {"golden_match", r.golden_match},
                            {"outcome", to_string(r.outcome)},
                            {"reason", r.reason},
                            {"seconds", r.seconds},
                            {"digest", r.digest},
                            {"detail", r.detail},
                            {"diff", r.diff},
                            {"stderr", r.stderr_text},
                            {"phases", phases_json(r.phases)},
                            {"error_class", r.error_class}});
    if (report.kind == "sweep") {
      nlohmann::ordered_json fields = nlohmann::ordered_json::object();
      for (const auto& [name, digest] : r.fields) fields[name] = {{"lines", digest.lines}, {"sha256", digest.sha256}};
      j["results"].back()["fields"] = fields;
    }
  }
  if (report.kind == "sweep") {
    j["unswept"] = nlohmann::json::array();
    for (const auto& u : report.unswept) j["unswept"].push_back({{"file", u.name}, {"why", u.why}});
  }
  for (const auto& [impl, counts] : status_counts(report)) j["summary"][impl] = counts;
  if (report.kind == "run") j["gate_failures"] = report.gate_failures();
  for (const auto& [impl, per_format] : speed_table(report)) {
    for (const auto& [format, s] : per_format) {
      j["speed"][impl][format] = {{"median_s", s.median_s}, {"total_s", s.total_s}, {"cases", s.cases},
                                  {"excluded", s.excluded}, {"times_reference", s.times_reference}};
    }
  }
  j["large"] = nlohmann::json::array();
  for (const auto& run : large_runs(report)) {
    const Result& r = *run.result;
    j["large"].push_back({{"case", case_key(*r.case_file)},
                          {"impl", r.impl},
                          {"status", to_string(r.status)},
                          {"seconds", r.seconds},
                          {"times_reference", run.times_reference}});
  }
  j["large_phases"] = nlohmann::json::array();
  for (const auto& run : large_phase_runs(report)) {
    j["large_phases"].push_back({{"case", case_key(*run.result->case_file)},
                                 {"phase", run.phase->name},
                                 {"impl", run.result->impl},
                                 {"seconds", run.phase->seconds},
                                 {"bytes", run.phase->bytes},
                                 {"times_reference", run.times_reference}});
  }
  return j;
}

std::string json_text(const nlohmann::ordered_json& j) {
  return j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string report_json(const RunReport& report) { return json_text(report_json_value(report)); }

// A failure for each result that fails the run; a recorded departure, an ungated departure and an
// unsupported case are skipped with their reason, so CI systems count what the exit status counts.
std::string report_junit(const RunReport& report) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"docconform\">\n";
  for (const auto& impl : report.impls) {
    std::size_t tests = 0;
    std::size_t failures = 0;
    std::size_t skipped = 0;
    std::string body;
    for (const auto& r : report.results) {
      if (r.impl != impl.name) continue;
      ++tests;
      body += "  <testcase classname=\"" + xml_escape(impl.name + "." + r.case_file->format) + "\" name=\"" +
              xml_escape(r.case_file->name) + "\" time=\"" + fixed(r.seconds, 6) + "\">";
      const std::string status = to_string(r.status);
      switch (r.outcome) {
        case Outcome::failed:
          ++failures;
          body += "<failure type=\"" + status + "\" message=\"" + xml_escape(status + (r.detail.empty() ? "" : ": " + r.detail)) +
                  "\">" + xml_escape(evidence(r)) + "</failure>";
          break;
        case Outcome::recorded:
          ++skipped;
          body += "<skipped message=\"" + xml_escape("recorded " + status + ": " + r.reason) + "\">" + xml_escape(evidence(r)) + "</skipped>";
          break;
        case Outcome::departure:
          ++skipped;
          body += "<skipped message=\"" + xml_escape("departure of an ungated implementation: " + status) + "\">" +
                  xml_escape(evidence(r)) + "</skipped>";
          break;
        case Outcome::ok:
          if (r.status == Status::unsupported) {
            ++skipped;
            body += "<skipped message=\"unsupported\"/>";
          }
          break;
      }
      body += "</testcase>\n";
    }
    xml += " <testsuite name=\"" + xml_escape(impl.name) + "\" tests=\"" + std::to_string(tests) + "\" failures=\"" +
           std::to_string(failures) + "\" skipped=\"" + std::to_string(skipped) + "\">\n" + body + " </testsuite>\n";
  }
  // An implementation that could not run is a suite of one test, failed when that fails the run,
  // so that a dashboard shows what the exit status says.
  for (const auto& s : report.skipped) {
    const std::string why = "requires " + s.requirement;
    xml += " <testsuite name=\"" + xml_escape(s.impl) + "\" tests=\"1\" failures=\"" + (s.fails_gate ? "1" : "0") +
           "\" skipped=\"" + (s.fails_gate ? "0" : "1") + "\">\n  <testcase classname=\"" + xml_escape(s.impl) +
           "\" name=\"requirements\" time=\"0\">" +
           (s.fails_gate ? "<failure type=\"skipped\" message=\"" +
                               xml_escape("gated implementation skipped: " + why + " (--allow-skip " + s.impl + " to accept)") + "\"/>"
                         : "<skipped message=\"" + xml_escape(why) + "\"/>") +
           "</testcase>\n </testsuite>\n";
  }
  xml += "</testsuites>\n";
  return xml;
}

std::string report_markdown(const RunReport& report) {
  std::string md = "# docconform conformance results\n\n";
  md += std::to_string(report.cases.size()) + " cases, " + std::to_string(report.impls.size()) +
        " implementations. Marks: ok = golden dump, rej-ok = rejected a must-reject case, acc=ref / acc = "
        "accepted an implementation-defined case with / without the reference's dump, rej = rejected it, WRONG = "
        "different dump, REJECTED = rejected a must-accept case, ACCEPTED = accepted a must-reject case, ADAPTER = the adapter "
        "broke the protocol.\n\n";
  md += outcome_marks + "\n\n## Run\n\n| shard | date (UTC) | suite version | commit | cores | CPU | OS |\n|---|---|---|---|---:|---|---|\n";
  for (const auto& run : report.runs) {
    md += "| " + std::to_string(run.shard.index) + "/" + std::to_string(run.shard.count) + " | " + run.date + " | " +
          run.suite_version + " | " + (run.commit.empty() ? "-" : run.commit) + " | " + std::to_string(run.cores) + " | " +
          run.cpu + " | " + run.os + " |\n";
  }
  md += "\n## Summary\n\n" + outcome_legend +
        "\n\n| implementation | kind | gated | ok | recorded | departures | failed | statuses | version | engine |\n"
        "|---|---|---|---:|---:|---:|---:|---|---|---|\n";
  for (const auto& impl : report.impls) {
    const Tally t = tally(report, impl.name);
    md += "| " + impl.name + " | " + impl.kind + " | " + (impl.gated ? "yes" : "no") + " | " + std::to_string(t.ok) + " | " +
          std::to_string(t.recorded) + " | " + std::to_string(t.departures) + " | " + std::to_string(t.failed) + " | " +
          t.statuses + " | " + (impl.version.empty() ? "-" : impl.version) + " | " + impl.engine + " |\n";
  }
  const auto speed = speed_table(report);
  md += "\n## Speed\n\nOne run; " + speed_note + " " + std::to_string(speed_excluded(speed)) +
        " runs excluded.\n\n| implementation | format | cases | excluded | median s | total s | x reference |\n"
        "|---|---|---:|---:|---:|---:|---:|\n";
  for (const auto& [impl, per_format] : speed) {
    for (const auto& [format, s] : per_format) {
      md += "| " + impl + " | " + format + " | " + std::to_string(s.cases) + " | " + std::to_string(s.excluded) + " | " +
            (s.cases > 0 ? fixed(s.median_s, 4) : "-") + " | " + fixed(s.total_s, 3) + " | " + times_text(s.times_reference) + " |\n";
    }
  }
  const auto large = large_runs(report);
  if (!large.empty()) {
    md += "\n## Speed on large cases\n\nOne run at a time; x reference = seconds / the in-process reference's; " +
          std::to_string(large_excluded(large)) + " runs did not finish (timeouts, crashes, adapter failures, unsupported) and have none.\n\n"
          "| case | implementation | status | seconds | x reference |\n|---|---|---|---:|---:|\n";
    for (const auto& run : large) {
      const Result& r = *run.result;
      md += "| " + case_key(*r.case_file) + " | " + r.impl + " | " + to_string(r.status) + " | " + fixed(r.seconds, 3) +
            " | " + times_text(run.times_reference) + " |\n";
    }
  }
  const auto phases = large_phase_runs(report);
  if (!phases.empty()) {
    md += "\n## Phases on large cases (timed inside each implementation: " + phase_timing_text() +
          "; x reference = seconds / the in-process reference's)\n\n"
          "| case | phase | implementation | seconds | bytes | x reference |\n|---|---|---|---:|---:|---:|\n";
    for (const auto& run : phases) {
      md += "| " + case_key(*run.result->case_file) + " | " + run.phase->name + " | " + run.result->impl + " | " +
            fixed(run.phase->seconds, 4) + " | " + std::to_string(run.phase->bytes) + " | " + times_text(run.times_reference) + " |\n";
    }
  }
  md += "\n## Matrix\n\n| case |";
  for (const auto& impl : report.impls) md += " " + impl.name + " |";
  md += "\n|---|";
  for (std::size_t i = 0; i < report.impls.size(); ++i) md += "---|";
  md += "\n";
  for (const auto& [key, row] : matrix(report)) {
    md += "| " + key + " |";
    for (const auto& impl : report.impls) {
      const auto it = row.find(impl.name);
      md += it == row.end() ? std::string("  |") : " " + std::string(status_mark(*it->second)) + outcome_suffix(*it->second) + " |";
    }
    md += "\n";
  }
  std::string shown;
  for (const auto& r : report.results) {
    if (!shows_evidence(r)) continue;
    shown += "\n<details><summary>" + r.impl + " " + case_key(*r.case_file) + ": " + to_string(r.status) + " (" +
             to_string(r.outcome) + (r.reason.empty() ? "" : ": " + r.reason) + ")</summary>\n\n```diff\n" + evidence(r) +
             "```\n\n</details>\n";
  }
  if (!shown.empty()) md += "\n## Evidence (diffs against golden/<format>/<case>.dump, adapters' stderr)\n" + shown;
  return md;
}

std::string report_html(const RunReport& report) {
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>docconform conformance results</title>\n"
      "<style>body{font-family:sans-serif;margin:1.5em}table{border-collapse:separate;border-spacing:0;font-size:12px}"
      "td,th{border:1px solid #ccc;padding:2px 6px}th{background:#f3f3f3}"
      "td.s{color:#fff;text-align:center;min-width:4.5em}td.num{text-align:right}"
      "#legend span.s{display:inline-block;padding:2px 6px;margin:2px;color:#fff;font-size:12px}"
      "td.s.recorded{background-image:repeating-linear-gradient(45deg,rgba(255,255,255,.35) 0 4px,transparent 4px 8px)}"
      "td.s.failed{outline:3px solid #c00;outline-offset:-3px;font-weight:bold}"
      "#matrix-scroll{overflow:auto;max-height:85vh;max-width:100%;border:1px solid #ccc}"
      "#matrix th{position:sticky;top:0;z-index:2}"
      "#matrix .case{position:sticky;left:0;z-index:1;background:#fff;text-align:left;white-space:nowrap}"
      "#matrix th.case{z-index:3;background:#f3f3f3}</style></head><body>\n<h1>docconform conformance results</h1>\n";
  html += "<p id=\"totals\" data-cases=\"" + std::to_string(report.cases.size()) + "\" data-impls=\"" +
          std::to_string(report.impls.size()) + "\" data-results=\"" + std::to_string(report.results.size()) + "\">" +
          std::to_string(report.cases.size()) + " cases, " + std::to_string(report.impls.size()) + " implementations, " +
          std::to_string(report.results.size()) + " results.</p>\n";
  html += "<section id=\"legend\"><h2>Legend</h2>\n<p>";
  for (const Result& r : legend_results()) {
    const bool light = r.status == Status::accepted || r.status == Status::rejected || r.status == Status::unsupported ||
                       r.status == Status::no_golden;
    html += "<span class=\"s\" style=\"background:" + std::string(status_color(r)) + (light ? ";color:#000" : "") + "\">" +
            status_mark(r) + "</span> " + xml_escape(status_meaning(r)) + "<br>\n";
  }
  html += "</p><p>" + xml_escape(outcome_marks) + "</p></section>\n";
  html += "<section id=\"run\"><h2>Run</h2>\n<table id=\"run-metadata\"><tr><th>shard</th><th>date (UTC)</th><th>suite version</th>"
          "<th>commit</th><th>cores</th><th>CPU</th><th>OS</th></tr>\n";
  for (const auto& run : report.runs) {
    html += "<tr><td>" + std::to_string(run.shard.index) + "/" + std::to_string(run.shard.count) + "</td><td>" +
            xml_escape(run.date) + "</td><td>" + xml_escape(run.suite_version) + "</td><td>" +
            xml_escape(run.commit.empty() ? "-" : run.commit) + "</td><td class=\"num\">" + std::to_string(run.cores) +
            "</td><td>" + xml_escape(run.cpu) + "</td><td>" + xml_escape(run.os) + "</td></tr>\n";
  }
  html += "</table></section>\n";
  html += "<h2>Summary</h2>\n<p>" + xml_escape(outcome_legend) +
          "</p>\n<table id=\"summary\"><tr><th>implementation</th><th>kind</th><th>gated</th><th>ok</th><th>recorded</th>"
          "<th>departures</th><th>failed</th><th>statuses</th><th>version</th><th>engine</th></tr>\n";
  for (const auto& impl : report.impls) {
    const Tally t = tally(report, impl.name);
    html += "<tr data-impl=\"" + xml_escape(impl.name) + "\"><td>" + xml_escape(impl.name) + "</td><td>" + impl.kind +
            "</td><td>" + (impl.gated ? "yes" : "no") + "</td><td class=\"num ok\">" + std::to_string(t.ok) +
            "</td><td class=\"num recorded\">" + std::to_string(t.recorded) + "</td><td class=\"num departures\">" +
            std::to_string(t.departures) + "</td><td class=\"num failed\">" + std::to_string(t.failed) + "</td><td>" +
            xml_escape(t.statuses) + "</td><td>" + xml_escape(impl.version.empty() ? "-" : impl.version) + "</td><td>" +
            xml_escape(impl.engine) + "</td></tr>\n";
  }
  const auto speed = speed_table(report);
  html += "</table>\n<h2>Speed</h2>\n<p id=\"speed-note\" data-excluded=\"" + std::to_string(speed_excluded(speed)) + "\">One run; " +
          xml_escape(speed_note) + " " + std::to_string(speed_excluded(speed)) + " runs excluded.</p>\n"
          "<table id=\"speed\"><tr><th>implementation</th><th>format</th><th>cases</th><th>excluded</th><th>median s</th>"
          "<th>total s</th><th>x reference</th></tr>\n";
  for (const auto& [impl, per_format] : speed) {
    for (const auto& [format, s] : per_format) {
      html += "<tr><td>" + xml_escape(impl) + "</td><td>" + format + "</td><td class=\"num\">" + std::to_string(s.cases) +
              "</td><td class=\"num\">" + std::to_string(s.excluded) + "</td><td class=\"num\">" +
              (s.cases > 0 ? fixed(s.median_s, 4) : "-") + "</td><td class=\"num total\">" + fixed(s.total_s, 3) +
              "</td><td class=\"num\">" + times_text(s.times_reference) + "</td></tr>\n";
    }
  }
  html += "</table>\n" + bar_svg(speed_bars(report), "speed-chart");
  const auto large = large_runs(report);
  if (!large.empty()) {
    html += "<h2>Speed on large cases</h2>\n<p>One run at a time; x reference = seconds / the in-process reference's; " +
            std::to_string(large_excluded(large)) +
            " runs did not finish (timeouts, crashes, adapter failures, unsupported) and have none.</p>\n"
            "<table id=\"large\"><tr><th>case</th><th>implementation</th><th>status</th><th>seconds</th><th>x reference</th></tr>\n";
    for (const auto& run : large) {
      const Result& r = *run.result;
      html += "<tr><td>" + xml_escape(case_key(*r.case_file)) + "</td><td>" + xml_escape(r.impl) + "</td><td>" +
              to_string(r.status) + "</td><td class=\"num\">" + fixed(r.seconds, 3) + "</td><td class=\"num\">" +
              times_text(run.times_reference) + "</td></tr>\n";
    }
    html += "</table>\n" + bar_svg(large_bars(report), "large-chart");
  }
  const auto phases = large_phase_runs(report);
  if (!phases.empty()) {
    html += "<h2>Phases on large cases</h2>\n<p>Timed inside each implementation: " + phase_timing_text() +
            "; x reference = seconds / the in-process reference's.</p>\n"
            "<table id=\"phases\"><tr><th>case</th><th>phase</th><th>implementation</th><th>seconds</th><th>bytes</th>"
            "<th>x reference</th></tr>\n";
    for (const auto& run : phases) {
      html += "<tr><td>" + xml_escape(case_key(*run.result->case_file)) + "</td><td>" + run.phase->name + "</td><td>" +
              xml_escape(run.result->impl) + "</td><td class=\"num\">" + fixed(run.phase->seconds, 4) +
              "</td><td class=\"num\">" + std::to_string(run.phase->bytes) + "</td><td class=\"num\">" +
              times_text(run.times_reference) + "</td></tr>\n";
    }
    html += "</table>\n";
  }
  html += "<h2>Matrix</h2>\n<div id=\"matrix-scroll\"><table id=\"matrix\"><tr><th class=\"case\">case</th>";
  for (const auto& impl : report.impls) html += "<th>" + xml_escape(impl.name) + "</th>";
  html += "</tr>\n";
  for (const auto& [key, row] : matrix(report)) {
    html += "<tr><td class=\"case\">" + xml_escape(key) + "</td>";
    for (const auto& impl : report.impls) {
      const auto it = row.find(impl.name);
      if (it == row.end()) {
        html += "<td></td>";
        continue;
      }
      const Result& r = *it->second;
      const bool light = r.status == Status::accepted || r.status == Status::rejected ||
                         r.status == Status::unsupported || r.status == Status::no_golden;
      const std::string title = std::string(to_string(r.status)) + ", " + to_string(r.outcome) +
                                (r.reason.empty() ? "" : ": " + r.reason) + "; " + fixed(r.seconds, 4) + " s" +
                                (r.detail.empty() ? "" : "; " + r.detail);
      html += "<td class=\"s " + std::string(to_string(r.outcome)) + "\" data-status=\"" + to_string(r.status) +
              "\" data-outcome=\"" + to_string(r.outcome) + "\" style=\"background-color:" + status_color(r) +
              (light ? ";color:#000" : "") + "\" title=\"" + xml_escape(title) + "\">" + status_mark(r) + outcome_suffix(r) + "</td>";
    }
    html += "</tr>\n";
  }
  html += "</table></div>\n";
  std::string shown;
  for (const auto& r : report.results) {
    if (!shows_evidence(r)) continue;
    shown += "<details class=\"evidence\" data-impl=\"" + xml_escape(r.impl) + "\" data-case=\"" + xml_escape(case_key(*r.case_file)) +
             "\"><summary>" + xml_escape(r.impl + " " + case_key(*r.case_file) + ": " + to_string(r.status) + " (" +
                                         to_string(r.outcome) + (r.reason.empty() ? "" : ": " + r.reason) + ")") +
             "</summary><pre>" + xml_escape(evidence(r)) + "</pre></details>\n";
  }
  if (!shown.empty()) html += "<h2>Evidence</h2>\n<p>Diffs against golden/&lt;format&gt;/&lt;case&gt;.dump and adapters' stderr.</p>\n" + shown;
  html += "</body></html>\n";
  return html;
}

}  // namespace docconform::cli
