// Deterministic synthetic PDFs: any number of payload objects, classic xref tables or object
// streams with xref streams, incremental updates (changed and deleted objects) and shuffled
// object order, for tests, fuzz seeds and the benchmark (the source's 300,000-object shape).
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>

namespace docconform::pdf {

// generate_pdf refuses larger files (Error(usage)).
inline constexpr std::uint32_t max_generated_objects = 50'000'000;
inline constexpr std::uint32_t max_generated_pages = 10'000'000;

struct GenerateOptions {
  std::uint32_t objects = 100;      // payload objects (pages, catalog and info come on top)
  std::uint32_t payload = 600;      // bytes of string data per payload object
  bool object_streams = false;      // object streams + xref streams instead of a classic table
  std::uint32_t updates = 0;        // incremental updates appended
  bool shuffle = false;             // objects (or clusters) written in a shuffled order
  std::uint32_t pages = 1;
  std::uint32_t cluster = 100;      // objects per object stream
  std::uint64_t seed = 1;
};

// progress(done, total) is called now and then with counts of objects written.
void generate_pdf(const GenerateOptions& options, std::ostream& out,
                  const std::function<void(std::uint64_t, std::uint64_t)>& progress = {});

}  // namespace docconform::pdf
