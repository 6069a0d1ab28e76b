// Repeated timings of one piece of work: what `bench sst` and the conformance runner's phase
// timings share.
#pragma once

#include <time.h>

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

namespace docconform::cli {

struct Stats {
  double median = 0, min = 0, max = 0;
};

inline Stats summarize(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  const double median = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  return {median, times.front(), times.back()};
}

// The process's, not the thread's: the sinks' second threads are part of the work.
inline double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// A warm-up, then `repeat` timed runs of body(last); prepare runs before each, off the clock.
// Returns wall-clock and CPU statistics.
template <class Prepare, class Body>
std::pair<Stats, Stats> time_runs(int repeat, Prepare prepare, Body body) {
  std::vector<double> times;
  std::vector<double> cpu_times;
  for (int i = 0; i <= repeat; ++i) {
    prepare();
    const double c0 = process_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    body(i == repeat);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = process_cpu_seconds() - c0;
    if (i > 0) {  // run 0 warms caches and the page allocator
      times.push_back(seconds);
      cpu_times.push_back(cpu);
    }
  }
  return {summarize(times), summarize(cpu_times)};
}

}  // namespace docconform::cli
