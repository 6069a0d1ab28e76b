// The budgets of one workbook load (Limits::max_memory, max_cells, max_shared_strings), which the
// parses that build the model charge as they grow, and what one parse has charged to one of them.
#pragma once

#include <cstdint>

#include "docconform/budget.h"
#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

struct LoadBudgets {
  explicit LoadBudgets(const Limits& limits)
      : memory(limits.max_memory, "max_memory", "memory of the workbook model (bytes)"),
        cells(limits.max_cells, "max_cells", "cells of the workbook"),
        shared_strings(limits.max_shared_strings, "max_shared_strings", "items of the shared string table") {}

  // A charge failed: several threads charging at once may have passed a limit that one thread
  // reading in document order would not, or not at the same element.
  bool tripped() const { return memory.tripped() || cells.tripped() || shared_strings.tripped(); }

  Budget memory, cells, shared_strings;
};

// What one parse holds of a budget, as a total that grows: charged to the shared budget in steps,
// and at once whenever the budget would be passed, so that a load on one thread stops at exactly
// the element that passes it, at every chunk size.
class Growth {
 public:
  // total: what the parse holds now. where() gives the ErrorContext of an error.
  template <class Where>
  void update(Budget* budget, std::uint64_t total, std::uint64_t step, Where&& where) {
    if (budget == nullptr || total <= charged_) return;
    const std::uint64_t pending = total - charged_;
    if (pending < step && budget->used() + pending <= budget->limit()) return;
    budget->charge(pending, where);
    charged_ = total;
  }
  std::uint64_t charged() const { return charged_; }
  // Gives the charge back (the parse's result was dropped).
  void release(Budget* budget) {
    if (budget != nullptr) budget->release(charged_);
    charged_ = 0;
  }

 private:
  std::uint64_t charged_ = 0;
};

}  // namespace docconform::xlsx
