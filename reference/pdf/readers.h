// One reader of a document per worker thread: worker 0 is the caller's document, each other
// worker reads through a source of its own (ByteSource::another()) with its own reader over the
// document's cross-reference data, so no reader or source is shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "docconform/pdf/document.h"
#include "docconform/pdf/sweep.h"

namespace docconform::pdf {

class Readers {
 public:
  Readers(Document& document, unsigned threads);

  unsigned count() const { return static_cast<unsigned>(others_.size()) + 1; }
  Document& operator[](unsigned worker) { return worker == 0 ? document_ : *others_[worker - 1]; }
  // What every worker did since the readers were made.
  SweepResult result(std::uint64_t items) const;

 private:
  Document& document_;
  ReaderStats stats_before_;
  SourceCounts counts_before_;
  std::vector<std::unique_ptr<ByteSource>> sources_;
  std::vector<std::unique_ptr<Document>> others_;
};

}  // namespace docconform::pdf
