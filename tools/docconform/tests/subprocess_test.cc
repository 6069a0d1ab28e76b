#include "subprocess.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "docconform/sha256.h"
#include "process_scan.h"

namespace docconform::cli {
namespace {

TEST(RunProcess, CapturesOutputAndExitCode) {
  const ProcessResult r = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, {});
  EXPECT_EQ(r.end, ProcessResult::End::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out_head, "out\n");
  EXPECT_EQ(r.out_bytes, 4u);
  EXPECT_EQ(r.out_sha256, sha256_hex("out\n"));
  EXPECT_EQ(r.err, "err\n");
}

TEST(RunProcess, HashesAllOfStdoutAndKeepsOnlyItsFirstBytes) {
  ProcessLimits limits;
  limits.kept_output_bytes = 1000;
  const ProcessResult r = run_process({"/bin/sh", "-c", "head -c 3000000 /dev/zero"}, limits);
  EXPECT_EQ(r.end, ProcessResult::End::exited);
  EXPECT_EQ(r.out_bytes, 3000000u);
  EXPECT_EQ(r.out_head, std::string(1000, '\0'));
  EXPECT_EQ(r.out_sha256, sha256_hex(std::string(3000000, '\0')));
}

TEST(RunProcess, AddsAndReplacesEnvironmentVariables) {
  ::setenv("DOCCONFORM_TEST_KEPT", "kept", 1);
  ::setenv("DOCCONFORM_TEST_REPLACED", "old", 1);
  const ProcessResult r = run_process(
      {"/bin/sh", "-c", "echo $DOCCONFORM_TEST_KEPT $DOCCONFORM_TEST_REPLACED $DOCCONFORM_TEST_ADDED; env | grep -c ^DOCCONFORM_TEST_REPLACED="},
      {}, {"DOCCONFORM_TEST_REPLACED=new", "DOCCONFORM_TEST_ADDED=added"});
  EXPECT_EQ(r.out_head, "kept new added\n1\n");
  ::unsetenv("DOCCONFORM_TEST_KEPT");
  ::unsetenv("DOCCONFORM_TEST_REPLACED");
}

TEST(RunProcess, KillsAtTheTimeout) {
  ProcessLimits limits;
  limits.timeout_s = 0.3;
  const ProcessResult r = run_process({"/bin/sh", "-c", "sleep 30"}, limits);
  EXPECT_EQ(r.end, ProcessResult::End::timed_out);
  EXPECT_LT(r.seconds, 5);
}

TEST(RunProcess, ReportsTheSignalOfACrash) {
  const ProcessResult r = run_process({"/bin/sh", "-c", "kill -SEGV $$"}, {});
  EXPECT_EQ(r.end, ProcessResult::End::signaled);
  EXPECT_EQ(r.signal, 11);
}

TEST(RunProcess, AddressSpaceCapStopsARunawayAllocation) {
  ProcessLimits limits;
  limits.memory_mb = 64;
  // python allocating 1 GiB under a 64 MiB cap fails with MemoryError (exit 1), never succeeds.
  const ProcessResult r = run_process({"/usr/bin/python3", "-c", "b = bytearray(1 << 30)"}, limits);
  EXPECT_FALSE(r.end == ProcessResult::End::exited && r.exit_code == 0);
}

TEST(RunProcess, MissingProgramIsExit127) {
  const ProcessResult r = run_process({"/nonexistent/program"}, {});
  EXPECT_EQ(r.end, ProcessResult::End::exited);
  EXPECT_EQ(r.exit_code, 127);
}

TEST(RunProcess, OutputBeyondTheLimitIsCut) {
  ProcessLimits limits;
  limits.max_output_bytes = 1000;
  const ProcessResult r = run_process({"/bin/sh", "-c", "yes"}, limits);
  EXPECT_EQ(r.end, ProcessResult::End::output_overflow);
  EXPECT_LE(r.out_head.size(), 1000u);
}

// A unique NAME=value per test, inherited by every process the adapter starts.
std::string marker(const char* test) {
  return std::string("DOCCONFORM_RUN_MARKER=") + test + "-" + std::to_string(::getpid());
}

TEST(RunProcess, DeadlineCoversAnAdapterThatClosedItsOutputs) {
  ProcessLimits limits;
  limits.timeout_s = 1;
  const std::string mark = marker("closed-outputs");
  const ProcessResult r = run_process({"/bin/sh", "-c", "exec >&- 2>&-; sleep 30"}, limits, {mark});
  EXPECT_EQ(r.end, ProcessResult::End::timed_out);
  EXPECT_GT(r.seconds, 0.5);  // the adapter's own time: it started a little after the run
  EXPECT_LT(r.seconds, 5.0);
  EXPECT_TRUE(processes_carrying(mark).empty());
}

TEST(RunProcess, NoProcessOfTheRunOutlivesIt) {
  // A grandchild in its own session escapes a process-group kill; it would write `late`.
  const auto dir = std::filesystem::temp_directory_path() / ("docconform-escape-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string late = (dir / "late").string();
  const std::string mark = marker("escaped");
  const ProcessResult r = run_process(
      {"/bin/sh", "-c", "setsid /bin/sh -c 'sleep 1; touch " + late + "' </dev/null >/dev/null 2>&1 & echo started"}, {}, {mark});
  EXPECT_EQ(r.end, ProcessResult::End::exited);
  EXPECT_EQ(r.out_head, "started\n");
  EXPECT_LT(r.seconds, 1.0);
  EXPECT_TRUE(processes_carrying(mark).empty());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_FALSE(std::filesystem::exists(late));
  std::filesystem::remove_all(dir);
}

TEST(RunProcess, TimeoutKillsEscapedDescendantsHoldingTheOutput) {
  ProcessLimits limits;
  limits.timeout_s = 1;
  const std::string mark = marker("escaped-holding");
  // The escaped grandchild keeps stdout open: the run must not wait for its end of file.
  const ProcessResult r = run_process({"/bin/sh", "-c", "setsid sleep 30 & setsid sh -c 'sleep 30 & sleep 30' & sleep 30"}, limits, {mark});
  EXPECT_EQ(r.end, ProcessResult::End::timed_out);
  EXPECT_LT(r.seconds, 5.0);
  EXPECT_TRUE(processes_carrying(mark).empty());
}

TEST(RunProcess, ParallelRunsKillOnlyTheirOwnProcesses) {
  // Quick runs that leave escaped processes behind end while slow runs are still working: the
  // quick runs' clean-up must not touch the slow runs' adapters.
  constexpr int pairs = 4;
  std::vector<ProcessResult> slow(pairs), quick(pairs);
  std::vector<std::thread> threads;
  const std::string mark = marker("parallel");
  for (int i = 0; i < pairs; ++i) {
    threads.emplace_back([&, i] { slow[i] = run_process({"/bin/sh", "-c", "sleep 1; echo done"}, {}, {mark}); });
    threads.emplace_back([&, i] {
      for (int k = 0; k < 3; ++k) quick[i] = run_process({"/bin/sh", "-c", "setsid sleep 30 & echo quick"}, {}, {mark});
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < pairs; ++i) {
    EXPECT_EQ(slow[i].end, ProcessResult::End::exited);
    EXPECT_EQ(slow[i].exit_code, 0);
    EXPECT_EQ(slow[i].out_head, "done\n");
    EXPECT_EQ(quick[i].out_head, "quick\n");
  }
  EXPECT_TRUE(processes_carrying(mark).empty());
}

TEST(RunProcess, AdapterDiesWithTheRunner) {
  const std::string mark = marker("runner-death");
  const pid_t runner = ::fork();
  if (runner == 0) {
    run_process({"/bin/sh", "-c", "setsid sleep 30 & sleep 30"}, {}, {mark});
    ::_exit(0);
  }
  ASSERT_GT(runner, 0);
  // True as soon as one scan sees it: a second scan could catch a process mid-exec, its
  // environment unreadable for that moment.
  const auto wait_until = [&](auto done) {
    for (int i = 0; i < 500; ++i) {
      if (done()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  };
  // The adapter, the shell's sleep and the escaped sleep.
  EXPECT_TRUE(wait_until([&] { return processes_carrying(mark).size() >= 3; }));
  ::kill(runner, SIGKILL);
  ::waitpid(runner, nullptr, 0);
  EXPECT_TRUE(wait_until([&] { return processes_carrying(mark).empty(); }));
}


// A batch-mode adapter in sh: each input line is a command word; `ok X` answers X, the others
// break the protocol in one way. Each frame carries the process id, so a restart shows.
const std::vector<std::string> batch_script = {"/bin/sh", "-c", R"(
while read -r word arg; do
  case $word in
    ok) out="$$ $arg"; printf 'frame 0 %d 4\n%serr\nend\n' ${#out} "$out" ;;
    reject) printf 'frame 1 0 14\nerror: format\nend\n' ;;
    crash) echo dying >&2; kill -9 $$ ;;
    hang) sleep 30 ;;
    short) printf 'frame 0 2 0\nabcdend\n' ;;
    long) printf 'frame 0 9 0\nabcend\n' ;;
    cut) printf 'frame 0 100 0\nabc'; exit 0 ;;
    garbage) printf 'Warning: something\n' ;;
    status) printf 'frame 256 0 0\nend\n' ;;
    huge) printf 'frame 0 99999999999 0\n' ;;
    stray) echo "from the process" >&2; printf 'frame 0 7 0\nexited\nend\n'; exit 5 ;;
  esac
done)"};

ProcessResult batch_run(BatchProcess& batch, const std::string& input, double timeout_s = 20) {
  ProcessLimits limits;
  limits.timeout_s = timeout_s;
  limits.max_output_bytes = 1 << 20;
  return batch.run(input, limits);
}

TEST(BatchProcess, AnswersEachInputFromOneProcess) {
  BatchProcess batch(batch_script, 0);
  const ProcessResult a = batch_run(batch, "ok a");
  const ProcessResult b = batch_run(batch, "ok b");
  ASSERT_EQ(a.end, ProcessResult::End::exited) << a.failure;
  EXPECT_EQ(a.exit_code, 0);
  EXPECT_EQ(a.err, "err\n");
  const std::string pid = a.out_head.substr(0, a.out_head.find(' '));
  EXPECT_EQ(a.out_head, pid + " a");
  EXPECT_EQ(a.out_bytes, a.out_head.size());
  EXPECT_EQ(a.out_sha256, sha256_hex(pid + " a"));
  EXPECT_EQ(b.out_head, pid + " b");  // the same process
  const ProcessResult rejected = batch_run(batch, "reject");
  EXPECT_EQ(rejected.exit_code, 1);
  EXPECT_EQ(rejected.err, "error: format\n");
}

// An input that breaks the protocol gets the failure; the next input runs in a new process.
void expect_failure_then_restart(const std::string& input, ProcessResult::End end, const std::string& failure_part,
                                 double timeout_s = 20) {
  BatchProcess batch(batch_script, 0);
  const std::string first_pid = batch_run(batch, "ok a").out_head.substr(0, 5);
  const ProcessResult broken = batch_run(batch, input, timeout_s);
  EXPECT_EQ(broken.end, end) << input << ": " << broken.failure;
  EXPECT_NE(broken.failure.find(failure_part), std::string::npos) << input << ": " << broken.failure;
  const ProcessResult after = batch_run(batch, "ok z");
  ASSERT_EQ(after.end, ProcessResult::End::exited) << input << ": " << after.failure;
  EXPECT_NE(after.out_head.substr(0, 5), first_pid) << input;
  EXPECT_EQ(after.out_head.substr(after.out_head.size() - 2), " z");
}

TEST(BatchProcess, CrashIsTheFailureOfTheInputBeingRead) {
  expect_failure_then_restart("crash", ProcessResult::End::protocol_failure, "ended before its frame (the process ended by signal 9)");
  BatchProcess batch(batch_script, 0);
  EXPECT_EQ(batch_run(batch, "crash").err, "dying\n");  // the process's own stderr shows with its failure
}

TEST(BatchProcess, TimeoutKillsAndRestarts) {
  expect_failure_then_restart("hang", ProcessResult::End::timed_out, "", 0.5);
}

TEST(BatchProcess, FrameLengthsThatLieAreFailures) {
  expect_failure_then_restart("short", ProcessResult::End::protocol_failure, "lengths are wrong");
  // Claiming more than it wrote, it waits for its next input as the runner waits for the bytes.
  expect_failure_then_restart("long", ProcessResult::End::timed_out, "", 0.5);
  expect_failure_then_restart("cut", ProcessResult::End::protocol_failure, "ended inside its frame (the process exited 0)");
}

TEST(BatchProcess, BytesOutsideFramesAreFailures) {
  expect_failure_then_restart("garbage", ProcessResult::End::protocol_failure, "not a frame header: \"Warning: something\"");
  expect_failure_then_restart("status", ProcessResult::End::protocol_failure, "not a frame header: \"frame 256 0 0\"");
}

TEST(BatchProcess, FrameOverTheOutputLimitIsAnOverflow) {
  expect_failure_then_restart("huge", ProcessResult::End::output_overflow, "");
}

TEST(BatchProcess, ExitAfterAFrameFailsTheNextInput) {
  BatchProcess batch(batch_script, 0);
  const ProcessResult framed = batch_run(batch, "stray");
  EXPECT_EQ(framed.end, ProcessResult::End::exited);
  EXPECT_EQ(framed.out_head, "exited\n");
  const ProcessResult next = batch_run(batch, "ok b");
  EXPECT_EQ(next.end, ProcessResult::End::protocol_failure);
  EXPECT_NE(next.failure.find("the process exited 5"), std::string::npos) << next.failure;
  EXPECT_EQ(batch_run(batch, "ok c").end, ProcessResult::End::exited);
}

// At the end of its stdin an adapter exits by itself, and may clean up first; one that does not
// exit is ended when the grace runs out, with everything it started.
TEST(BatchProcess, StopLetsTheAdapterCleanUpAfterItsLastInput) {
  char dir_template[] = "/tmp/docconform-batch-stop-XXXXXX";
  ASSERT_NE(::mkdtemp(dir_template), nullptr);
  const std::string cleaned = std::string(dir_template) + "/cleaned";
  BatchProcess batch({"/bin/sh", "-c", "while read -r input; do printf 'frame 0 0 0\nend\n'; done; sleep 0.2; : > " + cleaned}, 0);
  EXPECT_EQ(batch_run(batch, "a").end, ProcessResult::End::exited);
  batch.stop();
  EXPECT_EQ(::unlink(cleaned.c_str()), 0) << "the adapter's last step did not run";
  ::rmdir(dir_template);
}

TEST(BatchProcess, StopEndsAnAdapterThatDoesNotExitWhenTheGraceRunsOut) {
  const std::string mark = marker("batch-stop");
  const std::size_t eq = mark.find('=');
  ::setenv(mark.substr(0, eq).c_str(), mark.substr(eq + 1).c_str(), 1);  // the batch process inherits it
  BatchProcess batch({"/bin/sh", "-c", "while read -r input; do printf 'frame 0 0 0\nend\n'; done; sleep 30 & sleep 30"}, 0,
                     std::chrono::milliseconds(200));
  EXPECT_EQ(batch_run(batch, "a").end, ProcessResult::End::exited);
  ::unsetenv(mark.substr(0, eq).c_str());
  EXPECT_FALSE(processes_carrying(mark).empty());
  const auto start = std::chrono::steady_clock::now();
  batch.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(processes_carrying(mark).empty());
}

TEST(BatchProcess, ProgramThatCannotStartFailsEachInput) {
  BatchProcess batch({"/no/such/program"}, 0);
  const ProcessResult r = batch_run(batch, "ok a");
  EXPECT_EQ(r.end, ProcessResult::End::protocol_failure);
  EXPECT_NE(r.failure.find("exited 127"), std::string::npos) << r.failure;
}

}  // namespace
}  // namespace docconform::cli
