// The PDF byte source's size options, shared by the dumps and docconform-bench.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>

namespace docconform::cli {

// --window, --granularity (a multiple of the page size) and --buffer, each range-checked.
void add_source_size_options(CLI::App* app, std::uint64_t& window, std::uint64_t& granularity, std::uint64_t& buffer);

}  // namespace docconform::cli
