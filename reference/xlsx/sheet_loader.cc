#include "sheet_loader.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <set>

#include "docconform/error.h"
#include "docconform/parallel.h"

namespace docconform::xlsx {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct ChunkSlot {
  ChunkResult result;
  std::exception_ptr error;
  bool final = false;   // the part's last chunk
  bool parsed = false;  // set under the pipeline's lock (streaming: the consumer waits for it)
};

struct ChunkJob {
  std::size_t sheet = 0;
  ChunkSlot* slot = nullptr;
  std::string owned;                  // the chunk's bytes when it owns them
  const std::uint8_t* data = nullptr; // else a view into the sheet's whole part
  std::size_t size = 0;
  std::uint64_t base = 0;
  bool first = false;
  bool final = false;
};

struct SheetWork {
  std::string part;
  std::vector<std::unique_ptr<ChunkSlot>> chunks;  // document order
  std::exception_ptr stream_error;                 // inflating failed after the chunks above
  std::string whole;                               // serial phase A: the inflated part
  // Inflating on the workers: one stream per sheet, advanced by one worker at a time.
  std::unique_ptr<PartStream> stream;
  std::string pending;
  std::uint64_t pending_base = 0;
  std::size_t searched = 0;  // pending bytes already searched for a split point
  bool started = false, finished = false, busy = false;
};

// Frees a string's buffer: assigning std::string() keeps the capacity (libstdc++ copies the
// short empty string into the existing buffer), so a bomb's abandoned buffers would pile up.
void release(std::string& s) { std::string().swap(s); }

// Length of the next chunk at the start of data: the last row start before target, else the
// first one after it; 0 when there is none in data[from, size) (more data is needed).
std::size_t next_split(const std::uint8_t* data, std::size_t size, std::size_t target, std::size_t from = 0) {
  const std::size_t window = std::min(target, size);
  if (from < window) {
    if (const std::size_t at = find_row_split(data, window, std::max<std::size_t>(from, 1))) return at;
  }
  const std::size_t after = std::max(window, from);
  return after < size ? find_next_row_start(data, size, after) : 0;
}

void parse_job(const ChunkJob& job, const SheetParseContext& context, TextCollector& collector) {
  const std::uint8_t* data = job.data ? job.data : reinterpret_cast<const std::uint8_t*>(job.owned.data());
  try {
    parse_sheet_chunk(data, job.size, job.base, job.first ? ChunkStart::document : ChunkStart::rows,
                      job.first ? std::optional<std::uint32_t>(0) : std::nullopt, job.final, context, collector,
                      job.slot->result);
  } catch (...) {
    job.slot->error = std::current_exception();
  }
}

std::size_t effective_chunk(const LoadOptions& options) {
  return options.chunk_bytes == 0 ? static_cast<std::size_t>(-1) : options.chunk_bytes;
}

// Phase A on the caller, then phase B on the pool over every chunk of every sheet.
void run_serial_inflate(const Package& package, std::vector<SheetWork>& sheets, const SheetParseContext& context,
                        const LoadOptions& options, LoadStats& stats) {
  const auto a = Clock::now();
  for (auto& sheet : sheets) {
    try {
      sheet.whole = package.read(sheet.part);
    } catch (...) {
      sheet.stream_error = std::current_exception();
    }
  }
  stats.phase_a_s += seconds_since(a);

  const auto b = Clock::now();
  std::vector<ChunkJob> jobs;
  const std::size_t target = effective_chunk(options);
  for (std::size_t s = 0; s < sheets.size(); ++s) {
    auto& sheet = sheets[s];
    if (sheet.stream_error) continue;
    const auto* data = reinterpret_cast<const std::uint8_t*>(sheet.whole.data());
    std::size_t at = 0;
    for (;;) {
      const std::size_t left = sheet.whole.size() - at;
      const std::size_t length = left > target ? next_split(data + at, left, target) : 0;
      ChunkJob job;
      job.sheet = s;
      job.data = data + at;
      job.size = length == 0 ? left : length;
      job.base = at;
      job.first = at == 0;
      job.final = length == 0;
      sheet.chunks.push_back(std::make_unique<ChunkSlot>());
      job.slot = sheet.chunks.back().get();
      jobs.push_back(std::move(job));
      if (length == 0) break;
      at += length;
    }
  }
  std::vector<TextCollector> collectors(planned_threads(jobs.size(), options.threads));
  parallel_for(jobs.size(), options.threads,
               [&](std::size_t i, unsigned worker) { parse_job(jobs[i], context, collectors[worker]); });
  stats.phase_b_s += seconds_since(b);
}

// Inflate and parse on the pool: a worker either parses a ready chunk or inflates the next
// chunk of a sheet no other worker is inflating, so inflating overlaps parsing. The shared
// strings job, if any, goes to the first worker.
class Pipeline {
 public:
  // consumer: chunks go to it in document order and are freed (else each sheet keeps its own).
  Pipeline(const Package& package, std::vector<SheetWork>& sheets, const SheetParseContext& context,
           const LoadOptions& options, const SharedStringsJob& shared_strings, const ChunkConsumer* consumer = nullptr)
      : package_(package), sheets_(sheets), context_(context), shared_strings_job_(shared_strings), consumer_(consumer),
        target_(effective_chunk(options)), piece_(std::min<std::size_t>(target_, 256 << 10)),
        recycle_capacity_(options.chunk_bytes == 0 ? 0 : 2 * (target_ + piece_)),
        max_row_bytes_(options.limits.max_row_bytes) {
    std::uint64_t estimate = 0;
    for (const auto& s : sheets) {
      const auto index = package.find(s.part);
      const std::uint64_t size = index ? package.declared_size(*index) : 0;
      estimate += options.chunk_bytes == 0 ? 1 : std::max<std::uint64_t>(1, size / options.chunk_bytes + 1);
    }
    if (shared_strings_job_) ++estimate;
    threads_ = planned_threads(static_cast<std::size_t>(estimate), options.threads);
    max_ready_ = std::max<std::size_t>(2, threads_);
  }

  void run() {
    std::vector<TextCollector> collectors(threads_);
    parallel_for(threads_, threads_, [&](std::size_t, unsigned worker) {
      try {
        work(collectors[worker]);
      } catch (...) {
        abort();  // the others would otherwise wait for this worker's chunk forever
        throw;
      }
    });
  }

  std::size_t shared_strings() const { return shared_strings_; }
  const std::exception_ptr& shared_strings_error() const { return shared_strings_error_; }

 private:
  // The sheet to inflate next: the first in document order that was started and waits for a
  // worker, else the next one not started. Kept as a set and a cursor, so that picking one does
  // not scan every sheet (10,000 sheets made that quadratic).
  SheetWork* inflatable() {
    if (!resumable_.empty()) return &sheets_[*resumable_.begin()];
    return next_unstarted_ < sheets_.size() ? &sheets_[next_unstarted_] : nullptr;
  }
  void take(SheetWork& sheet) {
    const auto index = static_cast<std::size_t>(&sheet - sheets_.data());
    if (!sheet.started) ++next_unstarted_;
    resumable_.erase(index);
    sheet.started = true;
    sheet.busy = true;
  }
  void put_back(SheetWork& sheet) {
    sheet.busy = false;
    if (sheet.finished) {
      ++finished_;
    } else {
      resumable_.insert(static_cast<std::size_t>(&sheet - sheets_.data()));
    }
  }

  bool all_finished() const { return finished_ == sheets_.size(); }

  // A worker failed outside the per-chunk error slots (an allocation, say): every worker stops.
  void abort() {
    std::lock_guard lock(mutex_);
    aborted_ = true;
    changed_.notify_all();
  }

  void work(TextCollector& collector) {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (aborted_) return;
      if (const Consumable next = consumable(); next != Consumable::nothing) {
        consume(lock, next);
        continue;
      }
      if (shared_strings_job_ && !shared_strings_started_) {
        shared_strings_started_ = true;
        ++busy_;
        lock.unlock();
        std::size_t count = 0;
        std::exception_ptr error;
        try {
          // Inflating a sheet is the load's longest chain when one sheet dominates: its worker
          // should not stop to parse the chunks this worker would have parsed, so this worker
          // parses them between its pieces of the table.
          count = shared_strings_job_([&] { parse_ready(collector); });
        } catch (...) {
          error = std::current_exception();
        }
        lock.lock();
        shared_strings_ = count;
        shared_strings_error_ = error;
        --busy_;
        changed_.notify_all();
        continue;
      }
      // Once the shared strings have failed, the sheets' results will not be used: stop inflating.
      SheetWork* sheet = !shared_strings_error_ && ready_.size() < max_ready_ ? inflatable() : nullptr;
      if (sheet != nullptr && !window_open(*sheet)) sheet = nullptr;
      if (!ready_.empty() && (sheet == nullptr || ready_.size() >= threads_)) {
        parse_next(lock, collector);
        continue;
      }
      if (sheet != nullptr) {
        take(*sheet);
        ++busy_;
        std::string spare = take_spare();
        lock.unlock();
        std::vector<ChunkJob> produced;
        const bool finished = inflate_step(*sheet, produced, spare);
        lock.lock();
        recycle(std::move(spare));
        sheet->finished = finished;  // read by other workers under the lock
        in_flight_ += produced.size();
        for (auto& job : produced) {
          sheet->chunks.push_back(std::make_unique<ChunkSlot>());
          sheet->chunks.back()->final = job.final;
          job.slot = sheet->chunks.back().get();
          job.sheet = static_cast<std::size_t>(sheet - sheets_.data());
          ready_.push_back(std::move(job));
        }
        put_back(*sheet);
        --busy_;
        changed_.notify_all();
        continue;
      }
      if (ready_.empty() && busy_ == 0 && ((all_finished() && all_consumed()) || shared_strings_error_)) {
        changed_.notify_all();
        return;
      }
      changed_.wait(lock);
    }
  }

  // Parses the first ready chunk; lock is held on entry and on return.
  void parse_next(std::unique_lock<std::mutex>& lock, TextCollector& collector) {
    ChunkJob job = std::move(ready_.front());
    ready_.pop_front();
    ++busy_;
    lock.unlock();
    parse_job(job, context_, collector);
    lock.lock();
    job.slot->parsed = true;
    recycle(std::move(job.owned));
    --busy_;
    changed_.notify_all();
  }

  void parse_ready(TextCollector& collector) {
    std::unique_lock lock(mutex_);
    while (!ready_.empty() && !aborted_) parse_next(lock, collector);
  }

  // Inflates until a chunk's worth of bytes ends at a row boundary (or the part ends); returns
  // whether the sheet's stream is done. Runs without the lock: only the busy worker touches
  // the sheet's stream state.
  // spare: an empty buffer, recycled when one was free, to take the bytes after the split.
  bool inflate_step(SheetWork& sheet, std::vector<ChunkJob>& out, std::string& spare) {
    try {
      if (!sheet.stream) {
        sheet.stream = std::make_unique<PartStream>(package_, sheet.part, consumer_ == nullptr || consumer_->charge_inflate);
      }
      if (sheet.pending.empty() && sheet.pending.capacity() < spare.capacity()) sheet.pending.swap(spare);
      if (target_ != static_cast<std::size_t>(-1)) sheet.pending.reserve(target_ + piece_);
      for (;;) {
        const std::size_t n = sheet.stream->read(sheet.pending, piece_);
        if (n == 0) {
          ChunkJob job;
          job.size = sheet.pending.size();
          job.owned = std::move(sheet.pending);
          job.base = sheet.pending_base;
          job.first = sheet.pending_base == 0;
          job.final = true;
          out.push_back(std::move(job));
          release(sheet.pending);
          sheet.stream.reset();
          return true;
        }
        if (sheet.pending.size() < target_) continue;
        const auto* data = reinterpret_cast<const std::uint8_t*>(sheet.pending.data());
        // Bytes searched before hold no row start (but a tag may straddle the old end).
        const std::size_t from = sheet.searched > 64 ? sheet.searched - 64 : 0;
        const std::size_t length = next_split(data, sheet.pending.size(), target_, from);
        sheet.searched = sheet.pending.size();
        if (length == 0) {
          // No row start since pending's start (a row start or the part's start), but a tag may
          // straddle the end: the parser rejects this gap too, so stop before holding more.
          if (sheet.pending.size() > max_row_bytes_ + 64) {
            package_.fail(ErrorKind::limit, sheet.part, sheet.pending_base + sheet.pending.size(),
                          "more than max_row_bytes (" + std::to_string(max_row_bytes_) +
                              ") of sheet XML without a row start");
          }
          continue;
        }
        sheet.searched = 0;
        ChunkJob job;
        job.size = length;
        job.base = sheet.pending_base;
        job.first = sheet.pending_base == 0;
        spare.assign(sheet.pending, length);  // the rest starts the next chunk
        sheet.pending.resize(length);
        job.owned = std::move(sheet.pending);
        sheet.pending = std::move(spare);
        spare = std::string();
        sheet.pending_base += length;
        out.push_back(std::move(job));
        return false;
      }
    } catch (...) {
      sheet.stream_error = std::current_exception();
      sheet.stream.reset();
      release(sheet.pending);
      return true;
    }
  }

  // Parsed chunks' buffers, kept (under the lock) for the chunks still to come, so that a long
  // sheet cycles through a few buffers instead of allocating one per chunk.
  std::string take_spare() {
    if (spare_.empty()) return {};
    std::string s = std::move(spare_.back());
    spare_.pop_back();
    return s;
  }

  void recycle(std::string&& buffer) {
    // Only chunk-sized buffers, and no more than can be in flight: a part without row starts
    // grows its buffer up to max_row_bytes, and that must not stay allocated.
    if (buffer.capacity() < target_ || buffer.capacity() > recycle_capacity_ || spare_.size() > max_ready_ + threads_) {
      return release(buffer);
    }
    buffer.clear();
    spare_.push_back(std::move(buffer));
  }

  enum class Consumable : std::uint8_t { nothing, chunk, sheet_end };

  // What the consumer can take next in document order; lock held.
  Consumable consumable() const {
    if (consumer_ == nullptr || consuming_ || consume_sheet_ >= sheets_.size()) return Consumable::nothing;
    const SheetWork& sheet = sheets_[consume_sheet_];
    if (consume_chunk_ < sheet.chunks.size()) {
      return sheet.chunks[consume_chunk_]->parsed ? Consumable::chunk : Consumable::nothing;
    }
    return sheet.finished && !sheet.busy ? Consumable::sheet_end : Consumable::nothing;
  }

  bool all_consumed() const { return consumer_ == nullptr || consume_sheet_ == sheets_.size(); }

  // Whether a worker may inflate the next chunk of sheet: always without a consumer; with one,
  // while fewer than the window wait to be consumed, or when the consumer waits for this very
  // sheet and holds nothing of it (else a window full of later sheets' chunks would stall it).
  bool window_open(const SheetWork& sheet) const {
    if (consumer_ == nullptr || in_flight_ < consumer_->window) return true;
    return &sheet == &sheets_[consume_sheet_] && consume_chunk_ == sheet.chunks.size();
  }

  // Hands the next chunk, or the sheet's end, to the consumer; lock held on entry and return.
  // One worker at a time: the token is consuming_.
  void consume(std::unique_lock<std::mutex>& lock, Consumable what) {
    consuming_ = true;
    ++busy_;
    const std::size_t index = consume_sheet_;
    SheetWork& sheet = sheets_[index];
    std::unique_ptr<ChunkSlot> slot;
    if (what == Consumable::chunk) slot = std::move(sheet.chunks[consume_chunk_++]);
    lock.unlock();
    if (slot) {
      consumer_->chunk(index, slot->result, slot->error, slot->final);
      if (context_.budgets != nullptr) slot->result.memory.release(&context_.budgets->memory);
      slot.reset();
    } else {
      consumer_->sheet_end(index, sheet.stream_error);
    }
    lock.lock();
    if (what == Consumable::chunk) {
      --in_flight_;
    } else {
      sheet.chunks.clear();
      ++consume_sheet_;
      consume_chunk_ = 0;
    }
    consuming_ = false;
    --busy_;
    changed_.notify_all();
  }

  const Package& package_;
  std::vector<SheetWork>& sheets_;
  const SheetParseContext& context_;
  const SharedStringsJob& shared_strings_job_;
  const ChunkConsumer* consumer_;
  bool consuming_ = false;
  std::size_t consume_sheet_ = 0, consume_chunk_ = 0;  // the consumer's next chunk
  std::size_t in_flight_ = 0;  // chunks inflated and not yet consumed
  bool shared_strings_started_ = false;
  std::size_t shared_strings_ = 0;
  std::exception_ptr shared_strings_error_;
  std::size_t target_;
  std::size_t piece_;  // bytes inflated per read
  std::size_t recycle_capacity_;
  std::uint64_t max_row_bytes_;
  unsigned threads_ = 1;
  std::size_t max_ready_ = 2;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ChunkJob> ready_;
  std::vector<std::string> spare_;
  std::size_t busy_ = 0;
  bool aborted_ = false;
  std::set<std::size_t> resumable_;  // started, waiting for a worker: indexes into sheets_
  std::size_t next_unstarted_ = 0;
  std::size_t finished_ = 0;
};

[[noreturn]] void rethrow_in_part(const std::exception_ptr& error, const Package& package, const std::string& part) {
  try {
    std::rethrow_exception(error);
  } catch (const Error& e) {
    throw e.with_file(package.label()).with_part(part);
  }
}

// Drops a sheet's chunk results, and what they charged to the load's budgets.
void drop_chunks(SheetWork& sheet, const SheetParseContext& context) {
  for (auto& slot : sheet.chunks) release(slot->result, context.budgets);
  sheet.chunks.clear();
}

// Parses the whole part in one chunk: the reference result and the fallback.
SheetOutput parse_whole(const Package& package, SheetWork& sheet, const SheetParseContext& context) {
  // The part was inflated (and counted) in full once already: read it again uncounted.
  if (sheet.whole.empty()) sheet.whole = package.read(sheet.part, false);
  ChunkSlot slot;
  ChunkJob job;
  job.slot = &slot;
  job.data = reinterpret_cast<const std::uint8_t*>(sheet.whole.data());
  job.size = sheet.whole.size();
  job.first = true;
  job.final = true;
  TextCollector collector;
  parse_job(job, context, collector);
  if (slot.error) rethrow_in_part(slot.error, package, sheet.part);
  SheetOutput out;
  out.merged_cells = std::move(slot.result.merged_cells);
  out.table_ids = std::move(slot.result.table_ids);
  out.drawing_ids = std::move(slot.result.drawing_ids);
  out.segments.push_back(std::move(slot.result.segment));
  out.memory = slot.result.memory;
  return out;
}

// Stitches a sheet's chunks in document order; falls back to a whole parse when a split point
// was not a row boundary. context knows the shared string table's size; indexes_unchecked says
// the chunks were parsed without it.
SheetOutput stitch(const Package& package, SheetWork& sheet, const SheetParseContext& context, bool indexes_unchecked,
                   LoadStats& stats) {
  ChunkStitcher stitcher(package, sheet.part);
  for (auto& slot : sheet.chunks) stitcher.add(slot->result, slot->error, slot->final);
  const auto outcome =
      stitcher.finish(sheet.stream_error, indexes_unchecked ? context.shared_strings : std::nullopt);
  if (outcome != ChunkStitcher::Outcome::chunks) {
    if (outcome == ChunkStitcher::Outcome::whole_unsafe) ++stats.serial_fallbacks;
    drop_chunks(sheet, context);
    return parse_whole(package, sheet, context);
  }
  SheetOutput out;
  out.split = sheet.chunks.size() > 1;
  for (auto& slot : sheet.chunks) {
    ChunkResult& r = slot->result;
    for (auto& m : r.merged_cells) out.merged_cells.push_back(std::move(m));
    for (auto& t : r.table_ids) out.table_ids.push_back(std::move(t));
    for (auto& d : r.drawing_ids) out.drawing_ids.push_back(std::move(d));
    out.segments.push_back(std::move(r.segment));
  }
  stats.chunks += sheet.chunks.size();
  return out;
}

}  // namespace

std::vector<SheetOutput> load_sheets(const Package& package, const std::vector<std::string>& parts,
                                     const SheetParseContext& context, const LoadOptions& options, LoadStats& stats,
                                     const SharedStringsJob& shared_strings) {
  std::vector<SheetWork> sheets(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) sheets[i].part = parts[i];

  SheetParseContext known = context;  // with the shared string table's size
  bool indexes_unchecked = false;
  if (options.inflate == InflateMode::serial) {
    if (shared_strings) known.shared_strings = shared_strings({});  // phase A reads it first
    run_serial_inflate(package, sheets, known, options, stats);
  } else {
    const auto b = Clock::now();
    Pipeline pipeline(package, sheets, context, options, shared_strings);
    pipeline.run();
    stats.phase_b_s += seconds_since(b);
    if (shared_strings) {
      if (pipeline.shared_strings_error()) std::rethrow_exception(pipeline.shared_strings_error());
      known.shared_strings = pipeline.shared_strings();
      indexes_unchecked = !context.shared_strings.has_value();
    }
  }

  std::vector<SheetOutput> out;
  out.reserve(sheets.size());
  for (auto& sheet : sheets) {
    out.push_back(stitch(package, sheet, known, indexes_unchecked, stats));
    release(sheet.whole);
  }
  return out;
}

void ChunkStitcher::add(ChunkResult& result, const std::exception_ptr& error, bool final) {
  if (chunks_++ == 0) open_names_ = result.open_names;
  shared_string_bound_ = std::max(shared_string_bound_, result.shared_string_bound);
  // Safety is judged on the chunks before the first that failed to parse: a split point after
  // it cannot change the error.
  if (!parse_failed_) {
    if (error) {
      parse_failed_ = true;
    } else if (!final && result.end != ChunkEnd::boundary) {
      unsafe_ = true;
    }
  }
  last_failed_ = static_cast<bool>(error);
  if (!error) last_closed_names_ = result.closed_names;
  if (failure_) return;
  for (std::size_t i = 0; i < result.relative_rows && i < result.segment.rows.size(); ++i) {
    Row& row = result.segment.rows[i];
    row.number += previous_row_;
    if (row.number > max_rows) {
      failure_ = std::make_exception_ptr(Error(ErrorKind::range, {package_.label(), part_, row.offset},
                                               "implied row " + std::to_string(static_cast<std::uint64_t>(row.number)) +
                                                   " is beyond row 1048576"));
      return;
    }
  }
  if (error) {
    failure_ = error;
    return;
  }
  if (!result.segment.rows.empty()) previous_row_ = result.segment.rows.back().number;
}

ChunkStitcher::Outcome ChunkStitcher::finish(const std::exception_ptr& stream_error,
                                             std::optional<std::size_t> shared_strings) const {
  // Inflating comes before parsing in document order: a bad stream outranks parse errors.
  if (stream_error) rethrow_in_part(stream_error, package_, part_);
  // An index past the table: the whole parse with the table's size reports the first error in
  // document order. (A chunk that failed holds the cells before its error, so an index that
  // precedes the error is in its bound.)
  if (shared_strings && shared_string_bound_ > *shared_strings) return Outcome::whole_indexes;
  if (unsafe_ || (chunks_ > 1 && !last_failed_ && last_closed_names_ != open_names_)) return Outcome::whole_unsafe;
  if (failure_) rethrow_in_part(failure_, package_, part_);
  return Outcome::chunks;
}

SheetOutput parse_whole_part(const Package& package, const std::string& part, const SheetParseContext& context) {
  SheetWork sheet;
  sheet.part = part;
  return parse_whole(package, sheet, context);
}

std::size_t stream_sheets(const Package& package, const std::vector<std::string>& parts,
                          const SheetParseContext& context, const LoadOptions& options, const ChunkConsumer& consumer,
                          const SharedStringsJob& shared_strings) {
  std::vector<SheetWork> sheets(parts.size());
  for (std::size_t i = 0; i < parts.size(); ++i) sheets[i].part = parts[i];
  Pipeline pipeline(package, sheets, context, options, shared_strings, &consumer);
  pipeline.run();
  if (shared_strings && pipeline.shared_strings_error()) std::rethrow_exception(pipeline.shared_strings_error());
  return pipeline.shared_strings();
}

}  // namespace docconform::xlsx
