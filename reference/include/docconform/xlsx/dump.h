// The canonical dump of a workbook (conformance/SPEC.md, format xlsx, version 1) and its SHA-256.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "docconform/xlsx/workbook.h"

namespace docconform::xlsx {

inline constexpr int dump_version = 1;

// Writes the dump in pieces to sink (so a huge workbook need not be held as one string).
void write_dump(const Workbook& workbook, const std::function<void(std::string_view)>& sink);
std::string dump(const Workbook& workbook);
std::string dump_sha256(const Workbook& workbook);

}  // namespace docconform::xlsx
