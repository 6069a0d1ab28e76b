// A named limit on something a load builds up as it reads (bytes held, cells, strings), which
// several threads may charge at once: each component's Limits names it, and a charge past it is
// Error(limit) naming the limit, the file, part and offset where it was reached.
#pragma once

#include <atomic>
#include <cstdint>
#include <new>
#include <string>

#include "docconform/error.h"

namespace docconform {

class Budget {
 public:
  // name: the Limits field ("max_memory"); what: the quantity, for the message ("bytes held").
  Budget(std::uint64_t limit, std::string name, std::string what);
  Budget(const Budget&) = delete;
  Budget& operator=(const Budget&) = delete;

  // Adds amount. When the total would pass the limit nothing is added, tripped() turns true and
  // Error(limit) is thrown at where() (a callable returning the ErrorContext, built only then).
  template <class Where>
  void charge(std::uint64_t amount, Where&& where) {
    std::uint64_t now = used_.load(std::memory_order_relaxed);
    do {
      if (amount > limit_ || now > limit_ - amount) fail(now, amount, where());
    } while (!used_.compare_exchange_weak(now, now + amount, std::memory_order_relaxed));
  }
  void release(std::uint64_t amount) noexcept { used_.fetch_sub(amount, std::memory_order_relaxed); }

  std::uint64_t used() const noexcept { return used_.load(std::memory_order_relaxed); }
  std::uint64_t limit() const noexcept { return limit_; }
  const std::string& name() const noexcept { return name_; }
  // A charge failed: the load that used this budget must not be reported.
  bool tripped() const noexcept { return tripped_.load(std::memory_order_relaxed); }

 private:
  [[noreturn]] void fail(std::uint64_t used, std::uint64_t amount, ErrorContext where);

  const std::uint64_t limit_;
  const std::string name_, what_;
  std::atomic<std::uint64_t> used_{0};
  std::atomic<bool> tripped_{false};
};

// Charges held for a scope, given back when it ends.
class Charges {
 public:
  explicit Charges(Budget& budget) : budget_(budget) {}
  ~Charges() { budget_.release(held_); }
  Charges(const Charges&) = delete;
  Charges& operator=(const Charges&) = delete;
  template <class Where>
  void add(std::uint64_t amount, Where&& where) {
    budget_.charge(amount, where);
    held_ += amount;
  }
  // Charges up to total (a size that only grows, such as a buffer's capacity).
  template <class Where>
  void grow_to(std::uint64_t total, Where&& where) {
    if (total > held_) add(total - held_, where);
  }

 private:
  Budget& budget_;
  std::uint64_t held_ = 0;
};

// The error for an allocation that failed at `where` (std::bad_alloc): a limit error like a
// budget's, so running out of memory is reported where it happened, as an input rejected.
Error allocation_failure(ErrorContext where);

}  // namespace docconform
