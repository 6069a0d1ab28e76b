// Runs one adapter process on one case under a wall-clock timeout and an address-space cap,
// capturing its output. A hung or runaway implementation cannot stall or swamp the suite.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace docconform::cli {

struct ProcessLimits {
  double timeout_s = 30;
  std::size_t memory_mb = 4096;      // RLIMIT_AS of the child; 0 = unlimited
  std::size_t max_output = 64 << 20;  // stdout bytes kept; more is a failure of the adapter
};

struct ProcessResult {
  enum class End { exited, signaled, timed_out, output_overflow, spawn_failed };
  End end = End::spawn_failed;
  int exit_code = -1;  // when exited
  int signal = 0;      // when signaled
  double seconds = 0;
  std::string out;
  std::string err;  // last 64 KiB of stderr
};

// environment: "NAME=value" entries given to the child on top of this process's environment
// (replacing a variable of the same name).
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessLimits& limits,
                          const std::vector<std::string>& environment = {});

}  // namespace docconform::cli
