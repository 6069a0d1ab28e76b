#include "readers.h"

namespace docconform::pdf {

Readers::Readers(Document& document, unsigned threads) : source_(document.source()), counts_before_(source_.counts()) {
  readers_.push_back(std::make_unique<Document>(source_, document));
  for (unsigned w = 1; w < threads; ++w) {
    sources_.push_back(source_.another());
    readers_.push_back(std::make_unique<Document>(*sources_.back(), document));
  }
}

SweepResult Readers::result(std::uint64_t items) const {
  SweepResult r;
  r.items = items;
  r.threads = count();
  for (const auto& reader : readers_) {
    const ReaderStats& s = reader->stats();
    r.stats.objects_parsed += s.objects_parsed;
    r.stats.objstm_inflated += s.objstm_inflated;
    r.stats.objstm_cache_hits += s.objstm_cache_hits;
    r.stats.inflate_seconds += s.inflate_seconds;
  }
  r.counts = source_.counts() - counts_before_;
  for (const auto& source : sources_) r.counts += source->counts();
  return r;
}

}  // namespace docconform::pdf
