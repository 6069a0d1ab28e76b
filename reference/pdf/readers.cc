#include "readers.h"

namespace docconform::pdf {
namespace {

void accumulate(ReaderStats& total, const ReaderStats& now, const ReaderStats& before) {
  total.objects_parsed += now.objects_parsed - before.objects_parsed;
  total.objstm_inflated += now.objstm_inflated - before.objstm_inflated;
  total.objstm_cache_hits += now.objstm_cache_hits - before.objstm_cache_hits;
  total.inflate_seconds += now.inflate_seconds - before.inflate_seconds;
}

}  // namespace

Readers::Readers(Document& document, unsigned threads)
    : document_(document), stats_before_(document.stats()), counts_before_(document.source().counts()) {
  for (unsigned w = 1; w < threads; ++w) {
    sources_.push_back(document.source().another());
    others_.push_back(std::make_unique<Document>(*sources_.back(), document));
  }
}

SweepResult Readers::result(std::uint64_t items) const {
  SweepResult r;
  r.items = items;
  r.threads = count();
  accumulate(r.stats, document_.stats(), stats_before_);
  r.counts = document_.source().counts() - counts_before_;
  for (const auto& reader : others_) accumulate(r.stats, reader->stats(), ReaderStats{});
  for (const auto& source : sources_) r.counts += source->counts();
  return r;
}

}  // namespace docconform::pdf
