// Every bound the PDF reader enforces on untrusted input, named and configurable.
#pragma once

#include <cstdint>

namespace docconform::pdf {

struct Limits {
  std::uint32_t max_objects = 8'000'000;        // highest object number + 1 (/Size, xref entries)
  std::uint32_t max_depth = 200;                 // array/dict nesting, page-tree depth, ref chains
  std::uint64_t max_object_bytes = 64ull << 20;  // syntax of one object (stream data excluded)
  std::uint64_t max_stream_decoded = 64ull << 20;  // decoded size of one xref or object stream
  std::uint64_t inflate_ratio = 1000;  // decoded/encoded, enforced once decoded exceeds 1 MiB
  std::uint32_t max_xref_sections = 100'000;  // sections followed through /Prev and /XRefStm
  std::uint32_t max_objstm_objects = 1'000'000;  // /N of one object stream
  std::uint64_t startxref_tail = 1024;           // bytes before EOF searched for startxref
  std::uint32_t objstm_cache = 8;                 // decoded object streams kept (cluster cache)

  // A tighter profile for fuzzing: small inputs must not buy large allocations or long loops.
  static Limits fuzz() {
    Limits l;
    l.max_objects = 100'000;
    l.max_depth = 64;
    l.max_object_bytes = 1ull << 20;
    l.max_stream_decoded = 4ull << 20;
    l.inflate_ratio = 200;
    l.max_xref_sections = 200;
    l.max_objstm_objects = 10'000;
    return l;
  }
};

}  // namespace docconform::pdf
