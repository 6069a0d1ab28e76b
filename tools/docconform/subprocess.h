// Runs one adapter process on one case under a wall-clock deadline, an address-space cap and an
// output limit. Its output is hashed as it arrives and only a bounded prefix is kept, so a hung
// or runaway implementation can neither stall the suite nor fill its memory; and no process it
// started, even one that left its process group and session, outlives the run.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace docconform::cli {

struct ProcessLimits {
  double timeout_s = 30;                                   // the whole run, until every process it started is gone
  std::size_t memory_mb = 4096;                            // RLIMIT_AS of the adapter; 0 = unlimited
  std::uint64_t max_output_bytes = std::uint64_t{64} << 20;  // stdout past this ends the run as output_overflow
  std::size_t kept_output_bytes = std::size_t{1} << 20;    // the first bytes of stdout kept for reports' diffs
};

struct ProcessResult {
  // protocol_failure: a batch-mode adapter broke its framing (BatchProcess; `failure` says how).
  enum class End { exited, signaled, timed_out, output_overflow, spawn_failed, protocol_failure };
  End end = End::spawn_failed;
  int exit_code = -1;  // when exited
  int signal = 0;      // when signaled
  double seconds = 0;  // the adapter process, from its fork to its exit (the whole run if it failed to start)
  std::string out_sha256;       // hex SHA-256 of all of stdout (empty after output_overflow)
  std::uint64_t out_bytes = 0;  // bytes of stdout read (up to the limit and one read past it)
  std::string out_head;         // the first kept_output_bytes of stdout
  std::string err;              // last 64 KiB of stderr; why, when spawn_failed
  std::string failure;          // when protocol_failure: what was wrong
};

// environment: "NAME=value" entries given to the child on top of this process's environment
// (replacing a variable of the same name).
//
// The adapter runs under a supervising child process of ours, a child subreaper: processes the
// adapter starts and orphans come to it instead of init. When the adapter ends, or at the
// deadline, the supervisor kills the adapter's process group and then every process left under
// it until none remains; only then does the run end. Runs on other threads have their own
// supervisors, so they never touch each other's processes. Needs Linux 5.9 (pidfd_open, close_range).
ProcessResult run_process(const std::vector<std::string>& argv, const ProcessLimits& limits,
                          const std::vector<std::string>& environment = {});

// How long a batch-mode adapter has to exit by itself when its stdin ends (LibreOffice's clean
// exit takes about a second).
inline constexpr std::chrono::seconds batch_exit_grace{10};

// A batch-mode adapter (conformance/SPEC.md section 2, "Batch mode"): one process, supervised as
// run_process's are, that reads input paths on stdin, one per line, and answers each with a frame
// on stdout. It starts at the first input; an input that ends it (a timeout, an output overflow, a
// broken frame, the process's exit) gets that end as its result, and the next input starts a new one.
// Used by one thread at a time.
class BatchProcess {
 public:
  BatchProcess(std::vector<std::string> argv, std::size_t memory_mb,
               std::chrono::milliseconds exit_grace = batch_exit_grace);
  ~BatchProcess();
  BatchProcess(const BatchProcess&) = delete;
  BatchProcess& operator=(const BatchProcess&) = delete;

  // One input (a path without a line feed), as run_process gives a run of the per-input command:
  // the frame's status as exit_code, its stdout hashed and kept as limits say, its stderr in err;
  // seconds from the request to the frame's end. limits.memory_mb is not used (the constructor's
  // cap is the process's).
  ProcessResult run(const std::string& input, const ProcessLimits& limits);
  // Closes the process's stdin (the protocol's end: the adapter exits and can clean up) and
  // waits at most exit_grace for it to exit, then ends it and everything it started; the
  // next input starts a new one.
  void stop();

 private:
  struct Running;
  std::string end_running(std::chrono::milliseconds grace);
  std::vector<std::string> argv_;
  std::string last_stray_err_;  // of the process end_running last ended
  std::size_t memory_mb_;
  std::chrono::milliseconds exit_grace_;
  std::unique_ptr<Running> running_;
};

// The first line of stdout of a short command (a version, a commit), without its line end; "" when
// it cannot start, fails or takes more than 10 s.
std::string first_output_line(const std::vector<std::string>& argv);

}  // namespace docconform::cli
