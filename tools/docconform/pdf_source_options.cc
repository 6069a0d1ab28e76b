#include "pdf_source_options.h"

#include <unistd.h>

#include "option_ranges.h"

namespace docconform::cli {

void add_source_size_options(CLI::App* app, std::uint64_t& window, std::uint64_t& granularity, std::uint64_t& buffer) {
  app->add_option("--window", window, "mapped: view size in bytes")->capture_default_str()->transform(byte_range(1, max_bytes_option));
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  app->add_option("--granularity", granularity, "mapped: view alignment, a multiple of the page size")
      ->capture_default_str()
      ->transform(byte_range(page, max_bytes_option, page));
  app->add_option("--buffer", buffer, "buffered: read-ahead size in bytes")->capture_default_str()->transform(byte_range(1, max_bytes_option));
}

}  // namespace docconform::cli
