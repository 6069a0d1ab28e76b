// The outputs of jobs that run in parallel, written in job order in bounded memory: the lowest
// unfinished job writes straight through; the pieces of later jobs wait in memory, at most
// `budget` bytes in all, and a job whose piece would go past the budget waits until it is the
// lowest. Jobs must be started in increasing order (as parallel_for takes them), so the lowest
// unfinished job is always running and a waiting job is always released.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace docconform::cli {

class OrderedOutput {
 public:
  using Write = std::function<void(std::string_view)>;
  OrderedOutput(Write out, std::size_t budget);

  // Thread-safe. Rethrows what `out` throws; once it has thrown, every call rethrows that.
  void write(std::size_t job, std::string_view piece);
  // The job's output is complete; `written` runs (under the lock) once it has all been written,
  // in job order, e.g. to report the job's error on stderr beside its output.
  void finish(std::size_t job, std::function<void()> written = {});

  // Whether `out` has thrown: the output is lost, not any job's input.
  bool failed() const;
  // The most bytes that waited at once (for tests of the bound).
  std::size_t peak_pending_bytes() const;

 private:
  struct Pending {
    std::string bytes;
    bool finished = false;
    std::function<void()> written;
  };
  void put(std::string_view piece);  // `out`, marking the output failed when it throws
  void drain();                      // writes what waits from next_ on, while jobs are finished

  Write out_;
  const std::size_t budget_;
  mutable std::mutex mutex_;
  std::condition_variable moved_;  // next_ advanced, or the output failed
  std::size_t next_ = 0;           // the lowest unfinished job
  std::map<std::size_t, Pending> pending_;
  std::size_t pending_bytes_ = 0;
  std::size_t peak_pending_bytes_ = 0;
  std::exception_ptr failure_;  // what `out` threw
};

}  // namespace docconform::cli
