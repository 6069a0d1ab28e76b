#include "readers.h"

namespace docconform::pdf {

Readers::Readers(Document& document, unsigned threads) : source_(document.source()), counts_before_(source_.counts()) {
  readers_.push_back(std::make_unique<Document>(source_, document));
  for (unsigned w = 1; w < threads; ++w) {
    sources_.push_back(source_.another());
    readers_.push_back(std::make_unique<Document>(*sources_.back(), document));
  }
}

Readers::Readers(Document& document, unsigned threads, const HeldBytes& held)
    : source_(document.source()), counts_before_(source_.counts()) {
  for (unsigned w = 0; w < threads; ++w) {
    if (w > 0) sources_.push_back(source_.another());
    held_.push_back(std::make_unique<HeldSource>(held, w == 0 ? source_ : *sources_.back()));
    readers_.push_back(std::make_unique<Document>(*held_.back(), document));
  }
}

std::vector<ByteSource*> Readers::sources() const {
  std::vector<ByteSource*> all{&source_};
  for (const auto& source : sources_) all.push_back(source.get());
  return all;
}

SweepResult Readers::result(std::uint64_t items) const {
  SweepResult r;
  r.items = items;
  r.threads = count();
  for (const auto& reader : readers_) {
    const ReaderStats& s = reader->stats();
    r.stats.objects_parsed += s.objects_parsed;
    r.stats.parsed_bytes += s.parsed_bytes;
    r.stats.objstm_inflated += s.objstm_inflated;
    r.stats.objstm_cache_hits += s.objstm_cache_hits;
    r.stats.inflate_seconds += s.inflate_seconds;
  }
  r.worker_counts.push_back(source_.counts() - counts_before_);
  for (const auto& source : sources_) r.worker_counts.push_back(source->counts());
  for (const SourceCounts& counts : r.worker_counts) r.counts += counts;
  return r;
}

}  // namespace docconform::pdf
