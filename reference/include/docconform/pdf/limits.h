// Every bound the PDF reader enforces on untrusted input, named and configurable.
#pragma once

#include <cstdint>

#include "docconform/inflater.h"

namespace docconform::pdf {

struct Limits {
  std::uint32_t max_objects = 8'000'000;        // highest object number + 1 (/Size, xref entries)
  std::uint32_t max_depth = 200;                 // array/dict nesting, page-tree depth, ref chains
  // The largest max_depth a Document accepts: nesting and the page tree are walked recursively,
  // and this many levels fit the stack of any thread (8 MiB; 2 MiB under `ulimit -s unlimited`)
  // with room to spare, sanitizer builds included.
  static constexpr std::uint32_t deepest_supported = 1000;
  std::uint64_t max_object_bytes = 64ull << 20;  // syntax of one object (stream data excluded)
  std::uint32_t max_container_elements = 1'000'000;  // elements of one array, entries of one dictionary
  std::uint64_t max_stream_decoded = 64ull << 20;  // decoded size of one xref or object stream
  std::uint64_t inflate_ratio = 1000;  // decoded/encoded, enforced once decoded exceeds 1 MiB
  std::uint32_t max_xref_sections = 100'000;  // sections followed through /Prev and /XRefStm
  std::uint32_t max_objstm_objects = 1'000'000;  // /N of one object stream
  std::uint64_t startxref_tail = 1024;           // bytes before EOF searched for startxref
  // Decoded object streams kept by each reader, and their bytes with their headers' index (one
  // is always kept). A level-3 dump reads objects in number order a wave at a time, and a wave
  // whose objects are spread over more streams than the cache holds decodes them all again in
  // the next wave: the count is generous, and the bytes bound the memory.
  std::uint32_t objstm_cache = 64;
  std::uint64_t objstm_cache_bytes = 128ull << 20;
  // Memory one load holds for what grows with the input: the cross-reference table, the objects
  // each reader is parsing, the page tree walked, the page lines of a level-3 dump. (Decoded
  // streams are bounded by max_stream_decoded each and the cache limits above, a level-3 dump's
  // batch by dump_batch_bytes below.)
  std::uint64_t max_memory = 2ull << 30;
  // A level-3 dump reads its objects in batches: the bytes of a batch are copied out of the file
  // in file order, then parsed in number order, so the file is swept once a batch. The bytes a
  // batch holds (0: none are held; the objects are read where they lie, in number order). The
  // lines of object streams held for their members are made with them and held until their
  // turn, at most a quarter as many bytes.
  std::uint64_t dump_batch_bytes = 64ull << 20;
  // Recovery (`--recover`): the object syntax parsed while rebuilding the xref from a scan, at
  // most this many times the file's size (plus 1 MiB), however the headers found overlap.
  std::uint64_t recovery_parse_ratio = 4;
  // Not a bound: which decoder inflates the streams, carried with the bounds to every reader.
  InflaterKind inflater = default_inflater();

  // A tighter profile for fuzzing: small inputs must not buy large allocations or long loops.
  static Limits fuzz() {
    Limits l;
    l.max_objects = 100'000;
    l.max_depth = 64;
    l.max_object_bytes = 1ull << 20;
    l.max_container_elements = 65'536;
    l.max_stream_decoded = 4ull << 20;
    l.inflate_ratio = 200;
    l.max_xref_sections = 200;
    l.max_objstm_objects = 10'000;
    l.objstm_cache_bytes = 8ull << 20;
    l.max_memory = 256ull << 20;
    l.dump_batch_bytes = 64ull << 10;
    return l;
  }

  // Calls visit(name, member pointer) for every field, in declaration order: how tools set a
  // limit by name.
  template <class Visit>
  static void for_each_field(Visit&& visit) {
    visit("max_objects", &Limits::max_objects);
    visit("max_depth", &Limits::max_depth);
    visit("max_object_bytes", &Limits::max_object_bytes);
    visit("max_container_elements", &Limits::max_container_elements);
    visit("max_stream_decoded", &Limits::max_stream_decoded);
    visit("inflate_ratio", &Limits::inflate_ratio);
    visit("max_xref_sections", &Limits::max_xref_sections);
    visit("max_objstm_objects", &Limits::max_objstm_objects);
    visit("startxref_tail", &Limits::startxref_tail);
    visit("objstm_cache", &Limits::objstm_cache);
    visit("objstm_cache_bytes", &Limits::objstm_cache_bytes);
    visit("max_memory", &Limits::max_memory);
    visit("dump_batch_bytes", &Limits::dump_batch_bytes);
    visit("recovery_parse_ratio", &Limits::recovery_parse_ratio);
  }
};

}  // namespace docconform::pdf
