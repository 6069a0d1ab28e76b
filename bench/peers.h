// Third-party implementations timed through their conformance adapters (conformance/adapters/):
// an adapter run once on a file with $DOCCONFORM_PHASES set reports the phases it can time
// (conformance/SPEC.md section 2, "Phase timings"), beside the reference's own.
#pragma once

#include <string>
#include <vector>

#include "conform_adapters.h"
#include "phases.h"
#include "subprocess.h"

namespace docconform::bench {

struct PeerOptions {
  std::string root;        // the suite's data, for ADAPTERS.tsv and the adapters' programs
  std::string docconform;  // the CLI, for the adapters that call it ({docconform})
  cli::ProcessLimits limits{3600, 16384, std::size_t{1} << 30};
};

struct PeerRun {
  std::string impl;
  std::string status;  // ok, rejected, unsupported or failed (conformance/SPEC.md section 2)
  std::string detail;  // the adapter's last stderr line, or why the run failed
  double process_s = 0;  // the whole run, start-up, the dump and the phases' repeats included
  std::string dump_sha256;
  cli::PhaseLog phases;
};

// The adapters of the suite, as ADAPTERS.tsv lists them.
std::vector<cli::Adapter> suite_adapters(const std::string& root);

PeerRun run_peer(const cli::Adapter& adapter, const std::string& format, const std::string& file,
                 const PeerOptions& options);

// The docconform CLI beside this program.
std::string sibling_docconform();

}  // namespace docconform::bench
