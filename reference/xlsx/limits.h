// The XML scanner's share of the XLSX limits (the Limits themselves: docconform/xlsx/workbook.h).
#pragma once

#include "docconform/xlsx/workbook.h"
#include "xml_scanner.h"

namespace docconform::xlsx {

ScanLimits scan_limits(const Limits& limits);

}  // namespace docconform::xlsx
