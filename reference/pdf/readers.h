// One reader of a document per worker thread, each with an empty object-stream cache of its own,
// over the document's cross-reference data. Worker 0 reads through the caller's source; each
// other worker through a source of its own (ByteSource::another()), so no reader or source is
// shared between threads. The caller's document is left as it was: what it cached before does
// not decide which worker inflates a stream, so each stream is inflated once whatever the
// thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "docconform/pdf/document.h"
#include "docconform/pdf/sweep.h"
#include "held_bytes.h"

namespace docconform::pdf {

class Readers {
 public:
  Readers(Document& document, unsigned threads);
  // Readers that read what `held` holds from it, and the rest through their sources.
  Readers(Document& document, unsigned threads, const HeldBytes& held);

  unsigned count() const { return static_cast<unsigned>(readers_.size()); }
  Document& operator[](unsigned worker) { return *readers_[worker]; }
  // Each worker's own source of the file (not the held bytes).
  std::vector<ByteSource*> sources() const;
  // What every worker did since the readers were made.
  SweepResult result(std::uint64_t items) const;

 private:
  ByteSource& source_;
  SourceCounts counts_before_;
  std::vector<std::unique_ptr<ByteSource>> sources_;  // of workers 1..n-1
  std::vector<std::unique_ptr<HeldSource>> held_;     // of every worker, when reading held bytes
  std::vector<std::unique_ptr<Document>> readers_;
};

}  // namespace docconform::pdf
