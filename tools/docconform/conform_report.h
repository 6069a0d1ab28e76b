// Reports of a conformance run: console summary, JSON, JUnit XML, and the results matrix
// (Markdown and a self-contained HTML page with a speed table and an SVG chart).
#pragma once

#include <string>

#include "conform_runner.h"

namespace docconform::cli {

void print_summary(const RunReport& report);
std::string report_json(const RunReport& report);
std::string report_junit(const RunReport& report);
std::string report_markdown(const RunReport& report);
std::string report_html(const RunReport& report);

}  // namespace docconform::cli
