// What the kernel counts for this process: page faults and resident memory, read around a
// measured piece of work.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <fstream>
#include <string>

namespace docconform::bench {

// This process's page faults so far, every thread's. A mapped file is read by page faults:
// kernel transitions no explicit call counts (minor when the page is cached, major when it is read).
struct PageFaults {
  long minor = 0, major = 0;
};

inline PageFaults page_faults() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return {usage.ru_minflt, usage.ru_majflt};
}

// A field of /proc/self/status in KiB ("VmRSS", "VmHWM"), -1 when absent.
inline long status_kib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field + ":", 0) == 0) return std::stol(line.substr(field.size() + 1));
  }
  return -1;
}

// Resets the kernel's peak-RSS mark of this process (Linux: clear_refs 5), so that the next
// peak read is that of the work in between.
inline void reset_peak_rss() { std::ofstream("/proc/self/clear_refs") << "5"; }

inline std::uint64_t peak_rss_bytes() {
  const long kib = status_kib("VmHWM");
  return kib < 0 ? 0 : static_cast<std::uint64_t>(kib) * 1024;
}

}  // namespace docconform::bench
