// conform merge: the JSON reports of the shards of one run (`conform run --shard K/N --json`)
// combined into the report the whole run gives, for every report format and the gate.
#pragma once

#include <string>
#include <vector>

#include "conform_runner.h"

namespace docconform::cli {

// A `conform run --json` or `conform sweep --json` report read back: its kind, cases,
// implementations, skipped ones, results, shard and runs (and a sweep's unswept files and
// fields). A malformed one is a format error naming the file.
RunReport read_run_report(const std::string& json_text, const std::string& path);

// Every shard of a run or a sweep, once each: shards of different runs (kind, suite version,
// cases, implementations, unswept files, shard count), a shard given twice or missing are usage
// errors naming the files.
RunReport merge_shard_reports(const std::vector<std::string>& paths);

}  // namespace docconform::cli
