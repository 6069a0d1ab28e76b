// The PDF byte source's size options, shared by the dumps and docconform-bench.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

#include "docconform/pdf/source.h"

namespace docconform::cli {

// --window, --granularity (a multiple of the page size) and --buffer, each range-checked, into
// options (whose values are the defaults shown).
void add_source_size_options(CLI::App* app, pdf::SourceOptions& options);

}  // namespace docconform::cli
