// `bench xlsx`: wall time, CPU utilisation, allocations and peak RSS of the loader per thread
// count, against the inflate-only floor and this machine's parallel ceiling.
#pragma once

#include "commands.h"

namespace docconform::cli {

void add_xlsx_bench_command(CommandGroups& groups);

}  // namespace docconform::cli
