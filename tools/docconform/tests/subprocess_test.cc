#include "subprocess.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace docconform::cli {
namespace {

TEST(RunProcess, CapturesOutputAndExitCode) {
  const ProcessResult r = run_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, {});
  EXPECT_EQ(r.end, ProcessResult::End::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(RunProcess, AddsAndReplacesEnvironmentVariables) {
  ::setenv("DOCCONFORM_TEST_KEPT", "kept", 1);
  ::setenv("DOCCONFORM_TEST_REPLACED", "old", 1);
  const ProcessResult r = run_process(
      {"/bin/sh", "-c", "echo $DOCCONFORM_TEST_KEPT $DOCCONFORM_TEST_REPLACED $DOCCONFORM_TEST_ADDED; env | grep -c ^DOCCONFORM_TEST_REPLACED="},
      {}, {"DOCCONFORM_TEST_REPLACED=new", "DOCCONFORM_TEST_ADDED=added"});
  EXPECT_EQ(r.out, "kept new added\n1\n");
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
  limits.max_output = 1000;
  const ProcessResult r = run_process({"/bin/sh", "-c", "yes"}, limits);
  EXPECT_EQ(r.end, ProcessResult::End::output_overflow);
}

}  // namespace
}  // namespace docconform::cli
