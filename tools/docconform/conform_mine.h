// conform mine: differential mining. Seeds of a format are mutated (mine_mutators.h), the
// reference and the chosen implementations run on each mutant (as `conform sweep` runs them),
// and a mutant whose verdicts or dumps disagree with a signature not seen before is minimised
// while the signature holds (mine_minimize.h) and written as a candidate with its metadata
// under <out>/<format>/ (conformance/SPEC.md section 8, "Mined candidates").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "conform_runner.h"
#include "conform_sweep.h"
#include "mine_minimize.h"

namespace docconform::cli {

struct MineOptions {
  RunOptions run;  // root, impls (the reference is always one), adapters, jobs, limits, batch, progress
  std::string format;
  double seconds = 60;            // of mining; each kept input's minimisation has its own budget
  std::uint64_t seed = 1;
  std::string out;                // default <root>/conformance/candidates
  std::size_t max_candidates = 0;  // the campaign ends after keeping this many; 0 = no limit
  std::vector<std::string> seed_dirs;  // default <root>/conformance/cases/<format>
  std::uint64_t max_seed_bytes = std::uint64_t{1} << 20;   // larger seed files are left out
  std::uint64_t max_input_bytes = std::uint64_t{4} << 20;  // a mutation growing an input past this is not made
  std::size_t max_mutations = 4;  // mutations stacked on one seed: 1 to this many
  MinimizeBudget minimize;
};

// What a campaign did, for its summary and --json.
struct ImplFigures {
  std::string name;
  std::size_t runs = 0;
  double seconds = 0;  // the implementation's own run time (all workers together)
};
struct MineFigures {
  std::string format;
  std::uint64_t seed = 1;
  std::uint64_t first_input = 0;  // where this campaign resumed
  std::uint64_t inputs = 0;       // mutants tried by this campaign
  std::uint64_t disagreements = 0;  // of those, inputs whose implementations disagreed
  std::uint64_t minimized = 0;      // of those, inputs with a signature not in the index, minimised
  double seconds = 0;             // wall clock of the campaign, minimisation included
  std::vector<ImplFigures> impls;
  std::vector<std::string> kept;  // candidates written by this campaign (file names)
  std::size_t signatures_known = 0;  // in the index after the campaign
  std::vector<Skipped> skipped;
};

// The signature of one input's results (conformance/SPEC.md section 8): each implementation's
// verdict class and accepters' dump group, and the fields in which the groups' dumps differ.
struct Signature {
  std::string text;
  bool disagreement = false;  // at least two implementations with a verdict disagree
};
Signature mine_signature(const FileAgreement& file);

// Runs a campaign; resumes from the state saved in <out>/<format>/ for this seed.
MineFigures run_mine(const MineOptions& options);

// The summary lines and the JSON of a campaign.
std::string mine_summary(const MineFigures& figures);
std::string mine_json(const MineFigures& figures);

}  // namespace docconform::cli
