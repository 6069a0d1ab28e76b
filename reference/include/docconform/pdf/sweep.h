// The indexing pass's sweep over every object, on one thread or several. Objects are taken in
// file order, in jobs that never split an object stream, so each object stream is inflated once,
// by the worker that parses its objects, whatever `document` cached before. Every worker has its
// own reader over the document's cross-reference data; the caller's thread is the first worker
// and reads through the document's source, each extra worker through a source of its own
// (ByteSource::another(): with `mapped`, one live view per worker).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "docconform/pdf/document.h"

namespace docconform::pdf {

struct SweepResult {
  std::uint64_t items = 0;  // objects resolved and parsed, or object streams decoded
  unsigned threads = 1;     // threads that took part
  ReaderStats stats;        // summed over the workers: inflate_seconds is thread time, not wall time
  SourceCounts counts;      // kernel calls and copies during the sweep, every worker's source together
  std::vector<SourceCounts> worker_counts;  // the same, each worker's source apart
};

// Resolves and parses every in-use object. threads: a cap, 0 = auto (min(jobs, cores)). visit,
// when given, sees each object once, on the worker that parsed it: concurrently, in no fixed
// order. On bad input it throws what the serial sweep throws: the error of the first failing
// object in file order, whatever the thread count.
SweepResult sweep_objects(Document& document, unsigned threads,
                          const std::function<void(std::uint32_t num, const Object& object)>& visit = {});

// zlib alone, the floor of the sweep: decodes every object stream once, parsing none of its
// objects. A number that does not name a stream is skipped (the sweep reports it).
SweepResult inflate_object_streams(Document& document, unsigned threads);

}  // namespace docconform::pdf
