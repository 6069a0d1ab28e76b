#include "docconform/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace docconform {

unsigned hardware_threads() noexcept {
  return std::max(1U, std::thread::hardware_concurrency());
}

unsigned planned_threads(std::size_t jobs, unsigned cap) noexcept {
  if (jobs == 0) return 1;
  unsigned threads = hardware_threads();
  if (cap != 0) threads = std::min(threads, cap);
  return static_cast<unsigned>(std::min<std::size_t>(threads, jobs));
}

bool runs_parallel(unsigned cap) noexcept { return planned_threads(2, cap) >= 2; }

void parallel_for(std::size_t jobs, unsigned cap,
                  const std::function<void(std::size_t job, unsigned worker)>& job) {
  const unsigned threads = planned_threads(jobs, cap);
  if (threads <= 1) {
    for (std::size_t i = 0; i < jobs; ++i) job(i, 0);
    return;
  }

  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr first_error;
  std::mutex error_mutex;  // taken only on the failure path

  auto work = [&](unsigned worker) {
    for (;;) {
      if (failed.load(std::memory_order_relaxed)) return;
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= jobs) return;
      try {
        job(i, worker);
      } catch (...) {
        std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };

  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  try {
    for (unsigned w = 1; w < threads; ++w) pool.emplace_back(work, w);
  } catch (...) {
    // Could not start a thread: the ones running (and the caller) still finish every job.
  }
  work(0);
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

void parallel_for_serial_error(std::size_t jobs, unsigned cap,
                               const std::function<void(std::size_t job, unsigned worker)>& job) {
  // Jobs are taken in increasing order, so every job below a failed one has already started.
  std::atomic<std::size_t> lowest_failed{jobs};
  std::exception_ptr error;
  std::mutex error_mutex;
  parallel_for(jobs, cap, [&](std::size_t i, unsigned worker) {
    if (i > lowest_failed.load(std::memory_order_relaxed)) return;
    try {
      job(i, worker);
    } catch (...) {
      std::lock_guard lock(error_mutex);
      if (i < lowest_failed.load(std::memory_order_relaxed)) {
        lowest_failed.store(i, std::memory_order_relaxed);
        error = std::current_exception();
      }
    }
  });
  if (error) std::rethrow_exception(error);
}

}  // namespace docconform
