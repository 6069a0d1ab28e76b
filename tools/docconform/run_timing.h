// Repeated timings of one piece of work: what the benchmarks and the conformance runner's phase
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

// One timed run of body(): wall-clock and CPU seconds.
template <class Body>
std::pair<double, double> time_once(Body body) {
  const double c0 = process_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  body();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), process_cpu_seconds() - c0};
}

// How many timed runs follow the warm-up: at least `runs`, and more while all of them together
// took less than `seconds`, up to max_runs. A short piece of work is then timed over as long a
// stretch as a long one, so a burst of load on the shared host moves its median no more.
struct Repeats {
  int runs = 1;
  double seconds = 0;
  int max_runs = 1000;
};

// A warm-up (caches, the page allocator), then the timed runs of body(); prepare runs before
// each, off the clock. Returns wall-clock and CPU statistics.
template <class Prepare, class Body>
std::pair<Stats, Stats> time_runs(Repeats repeats, Prepare prepare, Body body) {
  prepare();
  body();
  std::vector<double> times;
  std::vector<double> cpu_times;
  double total = 0;
  const auto more = [&] {
    const auto n = static_cast<int>(times.size());
    return n < repeats.runs || (total < repeats.seconds && n < repeats.max_runs);
  };
  while (more()) {
    prepare();
    const auto [seconds, cpu] = time_once(body);
    cpu_times.push_back(cpu);
    times.push_back(seconds);
    total += seconds;
  }
  return {summarize(times), summarize(cpu_times)};
}

}  // namespace docconform::cli
