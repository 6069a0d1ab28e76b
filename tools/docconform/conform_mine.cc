#include "conform_mine.h"

#include <algorithm>
#include <cstdio>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>

#include "cli_util.h"
#include "common/scratch_file.h"
#include "docconform/error.h"
#include "docconform/sha256.h"
#include "formats.h"
#include "golden_ledger.h"
#include "mine_mutators.h"

namespace docconform::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Mutants per round: a round runs every implementation on each, so that one process of a
// batch-mode adapter serves them all and the workers stay busy.
constexpr std::size_t round_inputs = 16;
// What a candidate's metadata keeps of an adapter's error line and of a dump diff.
constexpr std::size_t max_detail_bytes = 300;
constexpr std::size_t max_diff_bytes = 2000;

double per_second(std::size_t runs, double seconds) { return seconds > 0 ? static_cast<double>(runs) / seconds : 0; }

// A rate or a duration for a progress or summary line: one decimal.
std::string one_decimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string verdict_class(const Result& r) {
  if (opens(r)) return "accepts";
  if (rejects(r)) return "rejects";
  if (r.status == Status::unsupported) return "unsupported";
  if (r.status == Status::timeout) return "timeout";
  return "crash";  // a crash of the reference, an adapter failure
}

std::string group_name(std::size_t g) { return g < 26 ? std::string(1, static_cast<char>('A' + g)) : "G" + std::to_string(g); }

// The file's results: the reference, its variants, then the peers (each in report.impls order).
std::vector<const Result*> in_order(const FileAgreement& f) {
  std::vector<const Result*> all{f.reference};
  all.insert(all.end(), f.variants.begin(), f.variants.end());
  all.insert(all.end(), f.peers.begin(), f.peers.end());
  return all;
}

// The accepters' dump groups: each result's group index (SIZE_MAX when it does not accept), and
// a representative of each group.
struct Groups {
  std::vector<std::size_t> of;
  std::vector<const Result*> representative;
};
Groups dump_groups(const std::vector<const Result*>& results) {
  Groups groups;
  for (const Result* r : results) {
    std::size_t g = SIZE_MAX;
    if (opens(*r)) {
      const auto same = std::find_if(groups.representative.begin(), groups.representative.end(),
                                     [&](const Result* rep) { return rep->digest == r->digest; });
      g = static_cast<std::size_t>(same - groups.representative.begin());
      if (same == groups.representative.end()) groups.representative.push_back(r);
    }
    groups.of.push_back(g);
  }
  return groups;
}

std::string cut(const std::string& text, std::size_t max) {
  return text.size() <= max ? text : text.substr(0, max) + "\n[... " + std::to_string(text.size() - max) + " bytes left out]";
}

std::string relative_to(const std::string& path, const std::string& root) {
  const fs::path relative = fs::path(path).lexically_relative(root);
  return relative.empty() || relative.native().starts_with("..") ? path : relative.generic_string();
}

struct Seed {
  std::string path;
  std::string bytes;
};

std::vector<Seed> read_seeds(const MineOptions& options, const DumpFormat& format) {
  std::vector<std::string> dirs = options.seed_dirs;
  if (dirs.empty()) dirs.push_back((fs::path(options.run.root) / "conformance" / "cases" / options.format).string());
  std::vector<std::string> paths;
  for (const auto& dir : dirs) {
    if (!fs::is_directory(dir)) throw Error(ErrorKind::usage, {dir, "", std::nullopt}, "--seeds: not a directory");
    std::error_code error;
    for (fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, error), end; !error && it != end;
         it.increment(error)) {
      const fs::path& p = it->path();
      if (!it->is_regular_file() || it->is_symlink()) continue;
      if (std::find(format.extensions.begin(), format.extensions.end(), p.extension().string()) == format.extensions.end()) continue;
      // An encrypted case needs its password file, which a mutant would not have beside it.
      if (fs::exists(p.string() + ".password") || it->file_size() > options.max_seed_bytes) continue;
      paths.push_back(p.string());
    }
    if (error) throw Error(ErrorKind::io, {dir, "", std::nullopt}, "cannot list the directory: " + error.message());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<Seed> seeds;
  for (auto& path : paths) seeds.push_back({path, read_file(path)});
  if (seeds.empty()) {
    throw Error(ErrorKind::usage, {dirs.front(), "", std::nullopt},
                "no seed file of format " + options.format + " (extensions of its cases, at most --max-seed-bytes)");
  }
  return seeds;
}

// The candidates directory's index: signature -> candidate file, and where each seed stopped.
class MineState {
 public:
  explicit MineState(std::string dir) : dir_(std::move(dir)) {
    for (const TsvRow& row : read_tsv(index_path())) {
      if (row.fields.size() != 2) throw Error(ErrorKind::format, {index_path(), "", row.line}, "want <candidate>\\t<signature>");
      signatures_[row.fields[1]] = row.fields[0];
    }
    for (const TsvRow& row : read_tsv(state_path())) {
      const bool number = row.fields.size() == 2 && !row.fields[1].empty() && row.fields[1].size() < 20 &&
                          row.fields[1].find_first_not_of("0123456789") == std::string::npos;
      if (!number) throw Error(ErrorKind::format, {state_path(), "", row.line}, "want <seed>\\t<next input>");
      next_input_[row.fields[0]] = std::stoull(row.fields[1]);
    }
  }
  bool known(const std::string& signature) const { return signatures_.contains(signature); }
  std::size_t size() const { return signatures_.size(); }
  std::uint64_t next_input(std::uint64_t seed) const {
    const auto it = next_input_.find(std::to_string(seed));
    return it == next_input_.end() ? 0 : it->second;
  }
  void add(const std::string& signature, const std::string& candidate) {
    signatures_[signature] = candidate;
    std::string text = "# conform mine: the signatures found, each with its candidate (conformance/SPEC.md section 8)\n";
    for (const auto& [s, c] : signatures_) text += c + "\t" + s + "\n";
    write_file(index_path(), text);
  }
  void save_next_input(std::uint64_t seed, std::uint64_t next) {
    next_input_[std::to_string(seed)] = next;
    std::string text = "# conform mine: per --seed, the number of the next input to mutate (a rerun resumes there)\n";
    for (const auto& [s, n] : next_input_) text += s + "\t" + std::to_string(n) + "\n";
    write_file(state_path(), text);
  }

 private:
  std::string index_path() const { return (fs::path(dir_) / "SIGNATURES.tsv").string(); }
  std::string state_path() const { return (fs::path(dir_) / "STATE.tsv").string(); }
  std::string dir_;
  std::map<std::string, std::string> signatures_;
  std::map<std::string, std::uint64_t> next_input_;
};

struct Mutant {
  std::size_t seed;
  std::string bytes;
  std::vector<std::string> steps;
};

// One campaign: the implementations, their processes, the figures.
class Campaign {
 public:
  explicit Campaign(const MineOptions& options)
      : options_(options), format_(find_dump_format(options.format)), state_((fs::path(out_root(options)) / options.format).string()) {
    if (format_ == nullptr) throw Error(ErrorKind::usage, {"--format", "", std::nullopt}, "no format named " + options.format);
    seeds_ = read_seeds(options, *format_);
    for (const auto& name : format_dictionaries(options.format)) {
      for (auto& token : read_dictionary((fs::path(options.run.root) / "fuzz" / name).string())) tokens_.push_back(std::move(token));
    }
    run_ = select_sweep_implementations(options.run, {options.format}, report_);
    run_.mining = true;
    run_.progress = false;
    report_.kind = "sweep";
    figures_.format = options.format;
    figures_.seed = options.seed;
    figures_.skipped = report_.skipped;
    for (const Adapter& impl : report_.impls) figures_.impls.push_back({impl.name, 0, 0});
    fs::create_directories(candidates_dir());
  }

  MineFigures run() {
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.seconds));
    auto last_progress = start;
    std::uint64_t next = state_.next_input(options_.seed);
    figures_.first_input = next;
    while (Clock::now() < end && !enough()) {
      std::vector<Mutant> mutants;
      for (std::size_t k = 0; k < round_inputs; ++k) mutants.push_back(make_mutant(next + k));
      std::vector<std::string> inputs;
      std::vector<std::string> extensions;
      for (const Mutant& m : mutants) {
        inputs.push_back(m.bytes);
        extensions.push_back(extension_of(m.seed));
      }
      const std::vector<Signature> signatures = signatures_of(inputs, extensions);
      next += mutants.size();
      figures_.inputs += mutants.size();
      for (std::size_t k = 0; k < mutants.size() && !enough(); ++k) {
        if (!signatures[k].disagreement) continue;
        ++figures_.disagreements;
        if (!state_.known(signatures[k].text) && !unstable_.contains(signatures[k].text)) {
          keep(mutants[k], next - mutants.size() + k, signatures[k]);
        }
      }
      state_.save_next_input(options_.seed, next);
      if (options_.run.progress && (Clock::now() - last_progress > std::chrono::seconds(2) || Clock::now() >= end || enough())) {
        last_progress = Clock::now();
        std::cerr << progress_line(start) << std::flush;
      }
    }
    figures_.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    figures_.signatures_known = state_.size();
    return figures_;
  }

 private:
  static std::string out_root(const MineOptions& o) {
    return o.out.empty() ? (fs::path(o.run.root) / "conformance" / "candidates").string() : o.out;
  }
  std::string candidates_dir() const { return (fs::path(out_root(options_)) / options_.format).string(); }
  bool enough() const { return options_.max_candidates != 0 && figures_.kept.size() >= options_.max_candidates; }

  // Input `number` of the campaign's seed: the same seed file and mutations on every machine.
  Mutant make_mutant(std::uint64_t number) {
    SplitMix64 mix(options_.seed ^ (number * 0xD1B54A32D192ED03ULL));
    Mutator m{SplitMix64(mix.next()), tokens_, static_cast<std::size_t>(options_.max_input_bytes)};
    Mutant mutant{m.below(seeds_.size()), {}, {}};
    mutant.bytes = seeds_[mutant.seed].bytes;
    const std::size_t count = 1 + m.below(std::max<std::size_t>(1, options_.max_mutations));
    for (std::size_t i = 0; i < count; ++i) mutant.bytes = mutate_once(options_.format, mutant.bytes, m, mutant.steps);
    return mutant;
  }

  std::string extension_of(std::size_t seed) const { return fs::path(seeds_[seed].path).extension().string(); }

  // Every implementation on each input (with its extension, or all with extensions[0]); the
  // report keeps the results until the next call.
  std::vector<FileAgreement> run_inputs(const std::vector<std::string>& inputs, const std::vector<std::string>& extensions) {
    report_.cases.clear();
    report_.results.clear();
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const std::string name = std::to_string(k) + extensions[k < extensions.size() ? k : 0];
      const std::string path = (fs::path(scratch_.path()) / name).string();
      write_file(path, inputs[k]);
      report_.cases.push_back({options_.format, name, path, 'i', ""});
    }
    std::vector<Job> jobs;
    for (std::size_t c = 0; c < report_.cases.size(); ++c) {
      for (std::size_t i = 0; i < report_.impls.size(); ++i) jobs.push_back({c, i});
    }
    const std::string prefix = (fs::path(scratch_.path()) / "").string();
    run_jobs(report_, jobs, run_, [&](Result& r, const Job&) {
      replace_all(r.detail, prefix, "");
      replace_all(r.stderr_text, prefix, "");
    }, &pool_);
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      figures_.impls[jobs[j].impl_index].runs += 1;
      figures_.impls[jobs[j].impl_index].seconds += report_.results[j].seconds;
    }
    return sweep_agreements(report_);
  }

  std::vector<Signature> signatures_of(const std::vector<std::string>& inputs, const std::vector<std::string>& extensions) {
    std::vector<Signature> out;
    for (const FileAgreement& f : run_inputs(inputs, extensions)) out.push_back(mine_signature(f));
    return out;
  }

  void keep(const Mutant& mutant, std::uint64_t number, const Signature& signature) {
    const std::string extension = extension_of(mutant.seed);
    ++figures_.minimized;
    MinimizeLog log;
    const std::string minimal = minimize(
        options_.format, mutant.bytes,
        [&](const std::vector<std::string>& inputs) {
          const auto signatures = signatures_of(inputs, {extension});
          for (std::size_t k = 0; k < signatures.size(); ++k) {
            if (signatures[k].text == signature.text) return k;
          }
          return inputs.size();
        },
        options_.minimize, log);
    const auto files = run_inputs({minimal}, {extension});
    if (mine_signature(files.front()).text != signature.text) {
      unstable_.insert(signature.text);  // not reproducible: not a candidate
      return;
    }
    const std::string name = "m_" + sha256_hex(signature.text).substr(0, 12);
    const fs::path candidate = fs::path(candidates_dir()) / (name + extension);
    const fs::path metadata = fs::path(candidates_dir()) / (name + ".json");
    if (!fs::exists(candidate) && !fs::exists(metadata)) {
      write_file(candidate.string(), minimal);
      write_file(metadata.string(), metadata_json(files.front(), mutant, number, signature, log, minimal.size()));
      figures_.kept.push_back(candidate.filename().string());
    }
    state_.add(signature.text, candidate.filename().string());
  }

  std::string metadata_json(const FileAgreement& f, const Mutant& mutant, std::uint64_t number, const Signature& signature,
                            const MinimizeLog& log, std::size_t bytes) const {
    nlohmann::ordered_json j;
    j["format"] = options_.format;
    j["signature"] = signature.text;
    j["agreement"] = to_string(f.agreement);
    j["seed_file"] = relative_to(seeds_[mutant.seed].path, options_.run.root);
    j["seed"] = options_.seed;
    j["input"] = number;
    j["mutations"] = mutant.steps;
    j["bytes"] = {{"seed", seeds_[mutant.seed].bytes.size()}, {"mutant", mutant.bytes.size()}, {"candidate", bytes}};
    j["minimization"] = {{"runs", log.runs}, {"seconds", log.seconds}, {"budget_spent", log.budget_spent}, {"steps", log.steps}};
    const auto results = in_order(f);
    const Groups groups = dump_groups(results);
    j["implementations"] = nlohmann::json::array();
    for (std::size_t k = 0; k < results.size(); ++k) {
      const Result& r = *results[k];
      const Adapter& impl = *std::find_if(report_.impls.begin(), report_.impls.end(), [&](const Adapter& a) { return a.name == r.impl; });
      nlohmann::ordered_json v{{"name", r.impl}, {"version", impl.version}, {"engine", impl.engine}, {"verdict", verdict_class(r)}};
      if (groups.of[k] != SIZE_MAX) {
        v["group"] = group_name(groups.of[k]);
        const Result& base = *groups.representative.front();
        if (groups.of[k] != 0) v["diff"] = cut(dump_diff(base.dump, r.dump, base.impl, r.impl, false), max_diff_bytes);
      } else if (!r.detail.empty()) {
        v["detail"] = cut(r.detail, max_detail_bytes);
      }
      j["implementations"].push_back(v);
    }
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }

  std::string progress_line(Clock::time_point start) const {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    std::string line = "mine: " + options_.format + ": " + std::to_string(figures_.inputs) + " inputs (" +
                       one_decimal(per_second(figures_.inputs, elapsed)) + "/s), " +
                       std::to_string(figures_.kept.size()) + " candidates kept; inputs/s:";
    for (const ImplFigures& i : figures_.impls) line += " " + i.name + " " + one_decimal(per_second(i.runs, i.seconds));
    return line + "\n";
  }

  const MineOptions& options_;
  const DumpFormat* format_;
  MineState state_;
  std::vector<Seed> seeds_;
  std::vector<std::string> tokens_;
  RunOptions run_;
  RunReport report_;
  BatchPool pool_;
  ScratchDirectory scratch_{"docconform-mine-"};  // the mutants being run
  MineFigures figures_;
  std::set<std::string> unstable_;  // signatures that a rerun did not give again
};


}  // namespace

Signature mine_signature(const FileAgreement& f) {
  const auto results = in_order(f);
  const Groups groups = dump_groups(results);
  Signature s;
  s.text = std::string(to_string(f.agreement)) + " |";
  std::set<std::string> outcomes;
  for (std::size_t k = 0; k < results.size(); ++k) {
    const std::string cls = verdict_class(*results[k]);
    s.text += " " + results[k]->impl + "=" + cls;
    if (groups.of[k] != SIZE_MAX) {
      s.text += ":" + group_name(groups.of[k]);
      outcomes.insert(cls + ":" + group_name(groups.of[k]));
    } else if (cls != "unsupported") {
      outcomes.insert(cls);
    }
  }
  for (std::size_t g = 1; g < groups.representative.size(); ++g) {
    const auto fields = differing_fields(*groups.representative.front(), *groups.representative[g]);
    std::string shape;
    for (const auto& field : fields) shape += (shape.empty() ? "" : ",") + field;
    s.text += " | A~" + group_name(g) + ":" + (shape.empty() ? "?" : shape);
  }
  s.disagreement = outcomes.size() >= 2;
  return s;
}

MineFigures run_mine(const MineOptions& options) {
  Campaign campaign(options);
  return campaign.run();
}

std::string mine_summary(const MineFigures& f) {
  std::string text = "mine: " + f.format + " --seed " + std::to_string(f.seed) + ": " + std::to_string(f.inputs) + " inputs (from input " +
                     std::to_string(f.first_input) + ") in " + one_decimal(f.seconds) + " s, " +
                     one_decimal(per_second(f.inputs, f.seconds)) + " inputs/s; " + std::to_string(f.disagreements) +
                     " disagreements; " + std::to_string(f.minimized) + " minimised; " + std::to_string(f.kept.size()) + " candidates kept (" + std::to_string(f.signatures_known) +
                     " signatures known)\n";
  for (const ImplFigures& i : f.impls) {
    text += "mine:   " + i.name + ": " + std::to_string(i.runs) + " runs, " + one_decimal(per_second(i.runs, i.seconds)) +
            " inputs/s of its own time\n";
  }
  for (const Skipped& s : f.skipped) text += "mine:   skipped " + s.impl + ": requires " + s.requirement + "\n";
  for (const auto& name : f.kept) text += "mine:   kept " + f.format + "/" + name + "\n";
  return text;
}

std::string mine_json(const MineFigures& f) {
  nlohmann::ordered_json j{{"format", f.format},
                           {"seed", f.seed},
                           {"first_input", f.first_input},
                           {"inputs", f.inputs},
                           {"seconds", f.seconds},
                           {"inputs_per_second", per_second(f.inputs, f.seconds)},
                           {"disagreements", f.disagreements},
                           {"minimized", f.minimized},
                           {"candidates_kept", f.kept.size()},
                           {"kept", f.kept},
                           {"signatures_known", f.signatures_known}};
  j["implementations"] = nlohmann::json::array();
  for (const ImplFigures& i : f.impls) {
    j["implementations"].push_back({{"name", i.name}, {"runs", i.runs}, {"seconds", i.seconds}, {"inputs_per_second", per_second(i.runs, i.seconds)}});
  }
  j["skipped"] = nlohmann::json::array();
  for (const Skipped& s : f.skipped) j["skipped"].push_back({{"name", s.impl}, {"requires", s.requirement}});
  return j.dump(2) + "\n";
}

}  // namespace docconform::cli
