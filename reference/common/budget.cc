#include "docconform/budget.h"

namespace docconform {

Budget::Budget(std::uint64_t limit, std::string name, std::string what)
    : limit_(limit), name_(std::move(name)), what_(std::move(what)) {}

void Budget::fail(std::uint64_t used, std::uint64_t amount, ErrorContext where) {
  tripped_.store(true, std::memory_order_relaxed);
  const std::uint64_t would = amount > UINT64_MAX - used ? UINT64_MAX : used + amount;
  throw Error(ErrorKind::limit, std::move(where),
              what_ + " would reach " + std::to_string(would) + ", over " + name_ + " (" + std::to_string(limit_) + ")");
}

Error allocation_failure(ErrorContext where) {
  return Error(ErrorKind::limit, std::move(where), "memory allocation failed (out of memory; see the max_memory limit)");
}

}  // namespace docconform
