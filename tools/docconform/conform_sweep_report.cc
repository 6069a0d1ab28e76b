#include "conform_sweep_report.h"

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "conform_report.h"
#include "conform_sweep.h"

namespace docconform::cli {
namespace {

std::string file_key(const CaseFile& c) { return c.format + "/" + c.name; }

// The implementations that ran on some file.
std::size_t impls_run(const RunReport& report) {
  std::set<std::string> names;
  for (const Result& r : report.results) names.insert(r.impl);
  return names.size();
}

// A result's verdict in a sweep's words.
std::string verdict_text(const Result& r) {
  if (opens(r)) return "opens";
  if (rejects(r)) return "rejects";
  return to_string(r.status);
}

// format -> class -> files (every class, 0 included), with "all" for every format.
std::map<std::string, std::map<std::string, std::size_t>> agreement_table(const std::vector<FileAgreement>& files) {
  std::map<std::string, std::map<std::string, std::size_t>> table;
  for (const FileAgreement& f : files) {
    for (const std::string& format : {f.file->format, std::string("all")}) {
      for (int a = 0; a <= static_cast<int>(last_agreement); ++a) table[format][to_string(static_cast<Agreement>(a))];
    }
  }
  for (const FileAgreement& f : files) {
    ++table[f.file->format][to_string(f.agreement)];
    ++table["all"][to_string(f.agreement)];
  }
  return table;
}

std::vector<std::string> table_formats(const RunReport& report) {
  std::vector<std::string> formats;
  for (const CaseFile& c : report.cases) {
    if (std::find(formats.begin(), formats.end(), c.format) == formats.end()) formats.push_back(c.format);
  }
  formats.push_back("all");
  return formats;
}

// One implementation's run on a file against the reference's and the peers' consensus (its
// message, stderr and time are in the results).
nlohmann::ordered_json verdict_json(const Result& r, const FileAgreement& f) {
  nlohmann::ordered_json v{{"verdict", verdict_text(r)}, {"error_class", r.error_class}};
  if (opens(r)) {
    v["same_dump_as_reference"] = opens(*f.reference) && r.digest == f.reference->digest;
    v["in_consensus"] = !f.consensus.empty() && r.digest == f.consensus;
    v["fields_differing_from_reference"] = opens(*f.reference) ? differing_fields(r, *f.reference) : std::vector<std::string>{};
  }
  return v;
}

const char* const agreement_meaning[] = {
    "the reference opens; every peer that gave a verdict opens with the same dump",
    "the reference opens with the peers' consensus dump; other peers differ or reject",
    "the reference opens with a dump other than the peers' consensus",
    "the reference rejects what the peers' consensus opens",
    "the reference opens; no peer opens, at least one rejects",
    "the reference rejects; no peer opens, at least one rejects",
    "peers open without a consensus (one alone, or all with different dumps)",
    "no peer opened or rejected (unsupported, adapter failures, timeouts, or no peer reads the format)",
    "the reference declares the file out of its scope (unsupported)",
    "the reference crashed or timed out",
};

std::string consensus_note() {
  return "Peers are the third-party and independent implementations; the peers' consensus is the dump that the most peers "
         "opening the file give, when at least two give it and no other dump is given by as many. Reference variants "
         "(the reference's other builds: the CLI, the serial loader) are compared with the reference, not counted as peers.";
}

}  // namespace

void print_sweep_summary(const RunReport& report) {
  for (const auto& s : report.skipped) std::cout << "skipped " << s.impl << ": requires " << s.requirement << "\n";
  const auto files = sweep_agreements(report);
  const auto table = agreement_table(files);
  for (const auto& format : table_formats(report)) {
    const auto row = table.find(format);
    if (row == table.end()) continue;
    std::cout << "  " << format << ":";
    for (const auto& [name, count] : row->second) {
      if (count > 0) std::cout << " " << name << " " << count;
    }
    std::cout << "\n";
  }
  std::size_t failures = 0;
  for (const Result& r : report.results) failures += r.status == Status::adapter_failure || r.status == Status::timeout;
  std::cout << "sweep: " << files.size() << " files x " << impls_run(report) << " implementations, " << report.results.size()
            << " runs (" << failures << " adapter failures and timeouts), " << report.unswept.size() << " files not swept\n";
}

std::string sweep_json(const RunReport& report) {
  nlohmann::ordered_json j = report_json_value(report);
  const auto files = sweep_agreements(report);
  for (const auto& [format, counts] : agreement_table(files)) j["table"][format] = counts;
  j["files"] = nlohmann::json::array();
  for (const FileAgreement& f : files) {
    nlohmann::ordered_json entry{{"file", f.file->name},
                                 {"format", f.file->format},
                                 {"class", to_string(f.agreement)},
                                 {"consensus", f.consensus},
                                 {"consensus_peers", f.consensus_peers},
                                 {"reference", verdict_json(*f.reference, f)}};
    entry["reference"].erase("same_dump_as_reference");
    entry["reference"].erase("fields_differing_from_reference");
    for (const auto* group : {&f.peers, &f.variants}) {
      const char* key = group == &f.peers ? "peers" : "variants";
      entry[key] = nlohmann::ordered_json::object();
      for (const Result* r : *group) entry[key][r->impl] = verdict_json(*r, f);
    }
    j["files"].push_back(std::move(entry));
  }
  return json_text(j);
}

std::string sweep_markdown(const RunReport& report) {
  const auto files = sweep_agreements(report);
  std::string md = "# docconform sweep\n\n" + std::to_string(files.size()) + " files swept, " +
                   std::to_string(report.unswept.size()) + " not swept, " + std::to_string(impls_run(report)) +
                   " implementations. " + consensus_note() + "\n\n## Run\n\n| shard | date (UTC) | suite version | commit | cores | CPU | OS |\n"
                   "|---|---|---|---|---:|---|---|\n";
  for (const auto& run : report.runs) {
    md += "| " + std::to_string(run.shard.index) + "/" + std::to_string(run.shard.count) + " | " + run.date + " | " +
          run.suite_version + " | " + (run.commit.empty() ? "-" : run.commit) + " | " + std::to_string(run.cores) + " | " +
          run.cpu + " | " + run.os + " |\n";
  }
  const auto formats = table_formats(report);
  const auto table = agreement_table(files);
  md += "\n## Agreement\n\nFiles per class and format.\n\n| class | meaning |";
  for (const auto& format : formats) md += " " + format + " |";
  md += "\n|---|---|";
  for (std::size_t i = 0; i < formats.size(); ++i) md += "---:|";
  md += "\n";
  for (int a = 0; a <= static_cast<int>(last_agreement); ++a) {
    const char* name = to_string(static_cast<Agreement>(a));
    md += std::string("| ") + name + " | " + agreement_meaning[a] + " |";
    for (const auto& format : formats) md += " " + std::to_string(table.at(format).at(name)) + " |";
    md += "\n";
  }
  // Per implementation and format: verdicts, and how often its dump (and each field) equals the reference's.
  struct Counts {
    std::size_t files = 0, opens = 0, rejects = 0, unsupported = 0, failures = 0, both_open = 0, same = 0;
    std::map<std::string, std::size_t> same_field;
  };
  std::map<std::pair<std::string, std::string>, Counts> counts;
  for (const FileAgreement& f : files) {
    for (const auto* group : {&f.peers, &f.variants}) {
      for (const Result* r : *group) {
        Counts& c = counts[{r->impl, f.file->format}];
        ++c.files;
        c.opens += opens(*r);
        c.rejects += rejects(*r);
        c.unsupported += r->status == Status::unsupported;
        c.failures += !opens(*r) && !rejects(*r) && r->status != Status::unsupported;
        if (!opens(*r) || !opens(*f.reference)) continue;
        ++c.both_open;
        c.same += r->digest == f.reference->digest;
        if (r->fields.empty() || f.reference->fields.empty()) continue;
        const auto differ = differing_fields(*r, *f.reference);
        for (const auto& [field, digest] : r->fields) {
          if (std::find(differ.begin(), differ.end(), field) == differ.end()) ++c.same_field[field];
        }
      }
    }
  }
  md += "\n## Implementations\n\nVerdicts per format; of the files that both it and the reference open, how many give the "
        "reference's whole dump, and each field of it (xlsx: sheets, cells; pdf: pages, objects; sst: strings; other: "
        "every other line).\n\n| implementation | kind | format | files | opens | rejects | unsupported | failures and timeouts "
        "| both open | same dump | same fields | version |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n";
  for (const Adapter& impl : report.impls) {
    for (const auto& format : formats) {
      const auto it = counts.find({impl.name, format});
      if (it == counts.end()) continue;
      const Counts& c = it->second;
      std::string fields;
      for (const auto& [field, n] : c.same_field) fields += (fields.empty() ? "" : ", ") + field + " " + std::to_string(n);
      md += "| " + impl.name + " | " + impl.kind + " | " + format + " | " + std::to_string(c.files) + " | " + std::to_string(c.opens) +
            " | " + std::to_string(c.rejects) + " | " + std::to_string(c.unsupported) + " | " + std::to_string(c.failures) + " | " +
            std::to_string(c.both_open) + " | " + std::to_string(c.same) + " | " + (fields.empty() ? "-" : fields) + " | " +
            (impl.version.empty() ? "-" : impl.version) + " |\n";
    }
  }
  md += "\n## Files where not all agree\n\nEach implementation's verdict: `=` the reference's dump, `≠ fields` a dump that "
        "differs in those fields, `rejects (class)`, or why it gave none. The JSON report lists every file.\n\n"
        "| file | class | reference | peers | reference variants |\n|---|---|---|---|---|\n";
  const auto cell = [](const Result& r, const FileAgreement& f) {
    std::string text = r.impl + ": ";
    if (opens(r)) {
      if (opens(*f.reference) && r.digest == f.reference->digest) return text + "=";
      std::string differ;
      for (const auto& field : differing_fields(r, *f.reference)) differ += (differ.empty() ? " " : ",") + field;
      return text + (opens(*f.reference) ? "≠" + differ : "opens");
    }
    return text + verdict_text(r) + (r.error_class.empty() ? "" : " (" + r.error_class + ")");
  };
  for (const FileAgreement& f : files) {
    if (f.agreement == Agreement::all_agree) continue;
    std::string peers;
    for (const Result* r : f.peers) peers += (peers.empty() ? "" : "; ") + cell(*r, f);
    std::string variants;
    for (const Result* r : f.variants) variants += (variants.empty() ? "" : "; ") + cell(*r, f);
    const Result& ref = *f.reference;
    md += "| " + file_key(*f.file) + " | " + to_string(f.agreement) + " | " + verdict_text(ref) +
          (ref.error_class.empty() ? "" : " (" + ref.error_class + ")") + " | " + (peers.empty() ? "-" : peers) + " | " +
          (variants.empty() ? "-" : variants) + " |\n";
  }
  if (!report.unswept.empty()) {
    md += "\n## Not swept\n\n| file | why |\n|---|---|\n";
    for (const auto& u : report.unswept) md += "| " + u.name + " | " + u.why + " |\n";
  }
  if (!report.skipped.empty()) {
    md += "\n## Implementations not run\n\n| implementation | requires |\n|---|---|\n";
    for (const auto& s : report.skipped) md += "| " + s.impl + " | " + s.requirement + " |\n";
  }
  return md;
}

std::vector<std::string> sweep_fail_on_names() {
  std::vector<std::string> names;
  for (int a = 0; a <= static_cast<int>(last_agreement); ++a) names.emplace_back(to_string(static_cast<Agreement>(a)));
  names.emplace_back("adapter-failure");
  names.emplace_back("timeout");
  return names;
}

std::vector<std::string> sweep_failures(const RunReport& report, const std::vector<std::string>& fail_on) {
  std::map<std::string, std::size_t> found;
  for (const FileAgreement& f : sweep_agreements(report)) ++found[to_string(f.agreement)];
  for (const Result& r : report.results) {
    if (r.status == Status::adapter_failure) ++found["adapter-failure"];
    if (r.status == Status::timeout) ++found["timeout"];
  }
  std::vector<std::string> lines;
  for (const auto& name : fail_on) {
    const auto it = found.find(name);
    if (it == found.end()) continue;
    const bool per_run = name == "adapter-failure" || name == "timeout";
    lines.push_back(std::to_string(it->second) + (per_run ? " runs " : " files ") + name + " (--fail-on " + name + ")");
  }
  return lines;
}

}  // namespace docconform::cli
