// The streamed dump's two passes straight into a sink, a survey then the lines: what
// write_streamed_dump falls back on when no temporary file can be had, for the tests and fuzz
// targets that compare it with the one pass.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "docconform/xlsx/dump.h"

namespace docconform::xlsx {

// Every error is found before the first piece goes to sink; no output limit is applied.
void write_two_pass_dump(std::string_view bytes, const LoadOptions& options, const std::string& label,
                         const std::function<void(std::string_view)>& sink, std::size_t window = default_dump_window);

}  // namespace docconform::xlsx
