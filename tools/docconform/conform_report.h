// Reports of a conformance run: console summary, JSON, JUnit XML, and the results matrix
// (Markdown and a self-contained HTML page with a speed table and an SVG chart).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "conform_runner.h"

namespace docconform::cli {

void print_summary(const RunReport& report);
std::string report_json(const RunReport& report);
// The JSON report as a value, for the sweep's report to extend (conform_sweep_report.h).
nlohmann::ordered_json report_json_value(const RunReport& report);
// A JSON report's text as every report writes it (bytes that are not UTF-8 become U+FFFD).
std::string json_text(const nlohmann::ordered_json& j);
std::string report_junit(const RunReport& report);
std::string report_markdown(const RunReport& report);
std::string report_html(const RunReport& report);

}  // namespace docconform::cli
