#include "docconform/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace docconform {
namespace {

TEST(PlannedThreads, IsMinOfJobsCapAndHardware) {
  const unsigned hw = hardware_threads();
  EXPECT_EQ(planned_threads(0, 0), 1U);
  EXPECT_EQ(planned_threads(1, 0), 1U);
  EXPECT_EQ(planned_threads(1000, 0), hw);
  EXPECT_EQ(planned_threads(1000, 1), 1U);
  EXPECT_EQ(planned_threads(2, 64), std::min(2U, hw));
}

TEST(ParallelFor, RunsEveryJobExactlyOnce) {
  std::vector<std::atomic<int>> seen(1000);
  parallel_for(seen.size(), 0, [&](std::size_t i, unsigned) { seen[i].fetch_add(1); });
  for (auto& s : seen) EXPECT_EQ(s.load(), 1);
}

TEST(ParallelFor, WorkerIndexBelowPlannedThreads) {
  const unsigned planned = planned_threads(64, 0);
  std::atomic<unsigned> max_worker{0};
  parallel_for(64, 0, [&](std::size_t, unsigned w) {
    unsigned m = max_worker.load();
    while (w > m && !max_worker.compare_exchange_weak(m, w)) {}
  });
  EXPECT_LT(max_worker.load(), planned);
}

TEST(ParallelFor, SingleJobRunsOnCaller) {
  const auto caller = std::this_thread::get_id();
  std::thread::id ran_on;
  parallel_for(1, 0, [&](std::size_t, unsigned) { ran_on = std::this_thread::get_id(); });
  EXPECT_EQ(ran_on, caller);
}

TEST(ParallelFor, CapOfOneIsSerialInOrder) {
  std::vector<std::size_t> order;
  parallel_for(10, 1, [&](std::size_t i, unsigned) { order.push_back(i); });
  std::vector<std::size_t> expected{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(order, expected);
}

TEST(ParallelFor, ZeroJobsDoesNothing) {
  bool called = false;
  parallel_for(0, 0, [&](std::size_t, unsigned) { called = true; });
  EXPECT_FALSE(called);
}

TEST(ParallelFor, FirstExceptionIsRethrownAfterJoin) {
  std::atomic<int> finished{0};
  EXPECT_THROW(parallel_for(100, 0,
                            [&](std::size_t i, unsigned) {
                              if (i == 3) throw std::runtime_error("job 3 failed");
                              finished.fetch_add(1);
                            }),
               std::runtime_error);
  EXPECT_LT(finished.load(), 100);
}

TEST(ParallelFor, SerialPathAlsoRethrows) {
  EXPECT_THROW(parallel_for(1, 0, [](std::size_t, unsigned) { throw std::logic_error("x"); }), std::logic_error);
}

TEST(ParallelForSerialError, RethrowsTheLowestFailingJobEvenWhenAHigherOneFailedFirst) {
  // Job 7 fails first; job 2, already running on another thread, fails after it. A serial loop
  // would have stopped at job 2, so that is the error reported.
  std::atomic<bool> seven_failed{false};
  const bool threaded = planned_threads(10, 0) > 1;
  try {
    parallel_for_serial_error(10, 0, [&](std::size_t i, unsigned) {
      if (i == 2) {
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
        while (threaded && !seven_failed.load() && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        throw std::runtime_error("job 2");
      }
      if (i == 7) {
        seven_failed.store(true);
        throw std::runtime_error("job 7");
      }
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "job 2");
  }
}

TEST(ParallelForSerialError, SerialRunStopsAtTheFailingJob) {
  std::vector<std::size_t> ran;
  EXPECT_THROW(parallel_for_serial_error(10, 1,
                                         [&](std::size_t i, unsigned) {
                                           ran.push_back(i);
                                           if (i == 3) throw std::logic_error("job 3");
                                         }),
               std::logic_error);
  EXPECT_EQ(ran, (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(ParallelForSerialError, RunsEveryJobWhenNoneFails) {
  std::vector<std::atomic<int>> seen(500);
  parallel_for_serial_error(seen.size(), 0, [&](std::size_t i, unsigned) { seen[i].fetch_add(1); });
  for (auto& s : seen) EXPECT_EQ(s.load(), 1);
}

}  // namespace
}  // namespace docconform
