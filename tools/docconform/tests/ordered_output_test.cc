#include "ordered_output.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "docconform/parallel.h"

namespace docconform::cli {
namespace {

// Job j writes j + 1 pieces of 100 bytes of the letter 'a' + j % 26, then its trailer.
std::string expected_output(std::size_t jobs) {
  std::string text;
  for (std::size_t j = 0; j < jobs; ++j) text += std::string((j + 1) * 100, static_cast<char>('a' + j % 26)) + "|";
  return text;
}

void write_jobs(OrderedOutput& output, std::size_t jobs, unsigned threads) {
  parallel_for(jobs, threads, [&](std::size_t job, unsigned) {
    for (std::size_t piece = 0; piece <= job; ++piece) output.write(job, std::string(100, static_cast<char>('a' + job % 26)));
    output.write(job, "|");
    output.finish(job);
  });
}

TEST(OrderedOutput, WritesInJobOrderAtEveryThreadCountWithinTheBudget) {
  for (const std::size_t budget : {std::size_t{0}, std::size_t{250}, std::size_t{1} << 20}) {
    for (const unsigned threads : {1u, 2u, 4u}) {
      std::string written;
      OrderedOutput output([&](std::string_view piece) { written += piece; }, budget);
      write_jobs(output, 60, threads);
      EXPECT_EQ(written, expected_output(60)) << budget << " " << threads;
      EXPECT_LE(output.peak_pending_bytes(), budget) << threads;
    }
  }
}

TEST(OrderedOutput, ReportsEachJobWhenItsOutputIsWrittenInOrder) {
  std::string log;
  OrderedOutput output([&](std::string_view piece) { log += piece; }, 1 << 20);
  parallel_for(30, 4, [&](std::size_t job, unsigned) {
    output.write(job, "w" + std::to_string(job) + " ");
    output.finish(job, [&log, job] { log += "r" + std::to_string(job) + " "; });
  });
  std::string expected;
  for (int job = 0; job < 30; ++job) expected += "w" + std::to_string(job) + " r" + std::to_string(job) + " ";
  EXPECT_EQ(log, expected);
}

TEST(OrderedOutput, AFailedOutputReleasesEveryWaitingJob) {
  std::size_t writes = 0;
  OrderedOutput output(
      [&](std::string_view) {
        if (++writes == 3) throw std::runtime_error("disk full");
      },
      0);
  try {
    write_jobs(output, 40, 4);
    FAIL() << "the failure was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "disk full");
  }
  EXPECT_TRUE(output.failed());
  EXPECT_THROW(output.write(39, "x"), std::runtime_error);  // the same failure, to every later call
}

}  // namespace
}  // namespace docconform::cli
