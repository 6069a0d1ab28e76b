// The large cases of the speed table (a 1,000,000-row workbook, 300,000-object PDFs, a 2^20-string
// .xls): too big to commit, so each is a recipe of docconform commands in
// conformance/large/CASES.tsv, run on demand, with the case's golden digest beside it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "conform_runner.h"

namespace docconform::cli {

// The selected large cases, generating every file that is missing or was made by another recipe
// (a stamp file beside it holds the recipe that made it).
std::vector<CaseFile> prepare_large_cases(const RunOptions& options);
// "<format>/<case>" of every large case the manifest under root names (none without a manifest).
std::set<std::string> large_case_keys(const std::string& root);

}  // namespace docconform::cli
