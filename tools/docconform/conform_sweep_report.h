// Reports of a sweep (conform_sweep.h): console summary, JSON (the run's JSON report with each
// dump's fields, the unswept files, each file's agreement and the table) and Markdown.
#pragma once

#include <string>
#include <vector>

#include "conform_runner.h"

namespace docconform::cli {

void print_sweep_summary(const RunReport& report);
std::string sweep_json(const RunReport& report);
std::string sweep_markdown(const RunReport& report);

// What `--fail-on` may name: an agreement class (to_string(Agreement)), adapter-failure or timeout.
std::vector<std::string> sweep_fail_on_names();
// One line per named class that some file (or run) falls in; empty when none does.
std::vector<std::string> sweep_failures(const RunReport& report, const std::vector<std::string>& fail_on);

}  // namespace docconform::cli
