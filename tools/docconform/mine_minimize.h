// Minimisation of a mined input while its signature holds (conform_mine.h): delta debugging over
// the format's structural units, coarse to fine (xlsx: zip parts, then each XML part's elements
// depth by depth; pdf: lines, then tokens, then bytes; a raw sst file: records, then bytes; other
// files: lines, then bytes), within a budget.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace docconform::cli {

// One way of cutting an input into units that can be left out: build(keep) is the input with
// only the units whose keep flag is set.
struct UnitCut {
  std::string what;  // "parts", "elements of xl/workbook.xml at depth 2", "lines", "tokens", "records", "bytes"
  std::size_t units = 0;
  std::function<std::string(const std::vector<bool>& keep)> build;
};

// The k-th cut of the input (k = 0, 1, ...), coarse first; false past the last.
bool unit_cut(const std::string& format, const std::string& input, std::size_t k, UnitCut& cut);

struct MinimizeBudget {
  double seconds = 60;     // wall-clock time of the whole minimisation
  std::size_t runs = 2000;  // inputs checked (each a run of every implementation)
};

struct MinimizeLog {
  // Each cut that made the input smaller: "pass <n>, <cut>: <units> -> <kept> units, <bytes> -> <bytes> bytes".
  std::vector<std::string> steps;
  std::size_t runs = 0;
  double seconds = 0;
  bool budget_spent = false;
};

// Checks inputs in order and returns the index of the first whose signature holds, or
// inputs.size() when none does (a batch lets the implementations' processes serve many inputs).
using SignatureCheck = std::function<std::size_t(const std::vector<std::string>& inputs)>;

// The smallest input found from `input` whose signature holds.
std::string minimize(const std::string& format, const std::string& input, const SignatureCheck& holds,
                     const MinimizeBudget& budget, MinimizeLog& log);

}  // namespace docconform::cli
