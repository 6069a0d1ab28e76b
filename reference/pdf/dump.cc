#include "docconform/pdf/dump.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <new>
#include <optional>
#include <unordered_map>

#include "docconform/budget.h"
#include "docconform/canonical.h"
#include "docconform/error.h"
#include "docconform/parallel.h"
#include "docconform/pdf/writer.h"
#include "docconform/sha256.h"
#include "held_bytes.h"
#include "parser.h"
#include "readers.h"

namespace docconform::pdf {
namespace {

void append_dict(std::string& out, const Object& dict) {
  const std::vector<std::size_t> order = dict.live_entries();
  out += "<<";
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k > 0) out += ' ';
    append_pdf_name(out, dict.keys[order[k]]);
    out += ' ';
    append_canonical(out, dict.items[order[k]]);
  }
  out += ">>";
}

// A number's decimal digits, without the temporary string std::to_string makes: a level-3 dump
// writes about five numbers an object.
template <typename Integer>
void append_decimal(std::string& out, Integer value) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out.append(digits, static_cast<std::size_t>(end - digits));
}

void append_id(std::string& out, std::uint64_t num, std::uint64_t gen) {
  append_decimal(out, num);
  out += ' ';
  append_decimal(out, gen);
}

}  // namespace

void append_canonical(std::string& out, const Object& object) {
  switch (object.kind) {
    case Kind::null: out += "null"; return;
    case Kind::boolean: out += object.boolean ? "true" : "false"; return;
    case Kind::integer: append_decimal(out, object.integer); return;
    case Kind::real: append_number(out, object.real); return;
    case Kind::string: append_quoted_bytes(out, object.bytes); return;
    case Kind::name: append_pdf_name(out, object.bytes); return;
    case Kind::array:
      out += '[';
      for (std::size_t i = 0; i < object.items.size(); ++i) {
        if (i > 0) out += ' ';
        append_canonical(out, object.items[i]);
      }
      out += ']';
      return;
    case Kind::dict: append_dict(out, object); return;
    case Kind::ref:
      append_id(out, static_cast<std::uint64_t>(object.integer), object.gen);
      out += " R";
      return;
    case Kind::stream:
      out += "stream ";
      append_dict(out, object);
      return;
  }
}

std::string canonical_text(const Object& object) {
  std::string out;
  append_canonical(out, object);
  return out;
}

namespace {

// The dump goes to the sink in pieces of at most about 1 MiB.
constexpr std::size_t piece_bytes = 1 << 20;
// The level-3 object lines are made a wave at a time, in jobs of about objects_per_job objects
// taken in file order: an object stream is then inflated about once a wave however its objects'
// numbers interleave with other streams'. A job ends at an object stream's end (each worker
// inflates the streams of its own jobs), or after max_objects_per_job. A wave holds about
// wave_line_bytes of lines: its object count follows the lines made so far (the first wave is one
// job, and a wave at most doubles the one before, as the first objects' lines may be short and
// the later ones long; at most max_objects_per_wave). Neither depends on the thread count, so the
// first error a dump meets is the same at every count.
constexpr std::size_t wave_line_bytes = 8 << 20;
constexpr std::size_t max_objects_per_wave = 65536;
constexpr std::size_t objects_per_job = 512;
constexpr std::size_t max_objects_per_job = 8 * objects_per_job;

void append_object_line(Document& document, std::uint32_t num, std::string& out) {
  const XrefEntry& e = document.xref()[num];
  const Object object = document.object(num);
  out += "obj ";
  append_id(out, num, e.type == XrefEntry::Type::offset ? e.gen : 0);
  out += ' ';
  append_canonical(out, object);
  if (object.kind == Kind::stream) {
    out += " length ";
    append_decimal(out, object.stream_length);
    out += " sha256 ";
    out += sha256_hex(document.stream_raw(object, {num, e.type == XrefEntry::Type::offset ? e.gen : 0}));
  }
  out += '\n';
}

// A wave's objects in file order, cut into jobs.
struct WaveOrder {
  // The positions 0..count-1 of numbers[first, first + count) sorted by where each object lies:
  // the offset of an object, or of the object stream holding it and then its index there.
  std::vector<std::uint32_t> order;
  std::vector<std::size_t> job_begin;  // where each job starts in order, then count (none when count is 0)
};

WaveOrder wave_order(const Document& document, const std::vector<std::uint32_t>& numbers, std::size_t first, std::size_t count) {
  const auto& xref = document.xref();
  struct Place {
    std::uint64_t offset;
    std::uint64_t index;  // 0 for an object at an offset; 1 + index for one in a stream
    std::uint32_t position;
  };
  std::vector<Place> places(count);
  for (std::size_t i = 0; i < count; ++i) {
    const XrefEntry& e = xref[numbers[first + i]];
    Place& place = places[i];
    place.position = static_cast<std::uint32_t>(i);
    if (e.type == XrefEntry::Type::compressed) {
      const bool held = e.offset < xref.size() && xref[e.offset].type == XrefEntry::Type::offset;
      place.offset = held ? xref[e.offset].offset : UINT64_MAX;  // a bad container: its error comes in order
      place.index = 1 + static_cast<std::uint64_t>(e.index);
    } else {
      place.offset = e.offset;
      place.index = 0;
    }
  }
  std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.index != b.index ? a.index < b.index : a.position < b.position;
  });
  WaveOrder wave;
  wave.order.resize(count);
  wave.job_begin.push_back(0);
  for (std::size_t i = 0; i < count; ++i) {
    wave.order[i] = places[i].position;
    const std::size_t taken = i - wave.job_begin.back();
    const bool same_stream = i > 0 && places[i].index > 0 && places[i - 1].index > 0 && places[i].offset == places[i - 1].offset;
    if ((taken >= objects_per_job && !same_stream) || taken >= max_objects_per_job) wave.job_begin.push_back(i);
  }
  if (count > 0) wave.job_begin.push_back(count);
  return wave;
}

}  // namespace

SweepResult write_pdf_dump(Document& document, int level, const std::function<void(std::string_view)>& sink,
                           unsigned threads) {
  if (level < 1 || level > max_dump_level) {
    throw Error(ErrorKind::usage, {document.source().name(), "", std::nullopt}, "dump level must be 1, 2 or 3");
  }
  const auto& xref = document.xref();
  // Lines gather in out, which goes to the sink a full piece at a time.
  std::string out = dump_header("pdf", dump_version) + "\n";
  if (!document.repairs().empty()) {
    out += "recovered";
    for (std::size_t i = 0; i < document.repairs().size(); ++i) out += (i == 0 ? " " : "; ") + document.repairs()[i];
    out += '\n';
  }
  out += "level " + std::to_string(level) + "\n";
  const auto flush_full_pieces = [&] {
    std::size_t at = 0;
    for (; out.size() - at >= piece_bytes; at += piece_bytes) sink(std::string_view(out).substr(at, piece_bytes));
    out.erase(0, at);
  };
  out += "version ";
  append_quoted_bytes(out, document.header_version());
  out += '\n';
  if (const std::string encryption = document.encryption(); !encryption.empty()) out += encryption + '\n';
  std::string page_lines;  // written after the trailer; the page count comes first
  Charges page_lines_held(document.memory());
  const std::uint64_t pages = document.walk_pages([&](const PageInfo& page) {
    if (level < 3) return;
    page_lines += "page " + std::to_string(page.index + 1) + " ";
    append_id(page_lines, page.id.num, page.id.gen);
    page_lines += " mediabox ";
    append_canonical(page_lines, page.media_box);
    page_lines += " rotate ";
    append_canonical(page_lines, page.rotate);
    page_lines += '\n';
    page_lines_held.grow_to(page_lines.capacity(), [&] {
      return ErrorContext{document.source().name(), object_part(page.id.num, page.id.gen), document.where(page.id.num)};
    });
  });
  out += "pages " + std::to_string(pages) + "\n";
  const auto in_use = std::count_if(xref.begin(), xref.end(), [](const XrefEntry& e) {
    return e.type == XrefEntry::Type::offset || e.type == XrefEntry::Type::compressed;
  });
  out += "objects " + std::to_string(in_use) + "\n";
  if (level < 2) {
    sink(out);
    return {};
  }

  for (std::size_t num = 1; num < xref.size(); ++num) {
    const XrefEntry& e = xref[num];
    if (e.type == XrefEntry::Type::offset) {
      out += "xref ";
      append_id(out, num, e.gen);
      out += " n ";
      append_decimal(out, e.offset - document.header_offset());
      out += '\n';
    } else if (e.type == XrefEntry::Type::compressed) {
      out += "xref ";
      append_id(out, num, 0);
      out += " c ";
      append_decimal(out, e.offset);
      out += ' ';
      append_decimal(out, e.index);
      out += '\n';
    }
    flush_full_pieces();
  }
  if (level < 3) {
    sink(out);
    return {};
  }

  for (const XrefSection& section : document.sections()) {
    out += "section " + std::to_string(section.offset) + " " + to_string(section.form) + " " +
           std::to_string(section.entries) + "\n";
  }
  out += "trailer ";
  append_canonical(out, document.trailer());
  out += '\n';
  flush_full_pieces();
  for (std::size_t at = 0; at < page_lines.size(); at += piece_bytes) {
    out.append(page_lines, at, piece_bytes);
    flush_full_pieces();
  }
  sink(out);

  // Every object in number order, a wave at a time: the workers make one wave's lines in file
  // order while one of them writes the wave before in number order; memory holds two waves'
  // lines, never the dump.
  std::vector<std::uint32_t> numbers;
  numbers.reserve(static_cast<std::size_t>(in_use));
  for (std::size_t num = 1; num < xref.size(); ++num) {
    if (xref[num].type == XrefEntry::Type::offset || xref[num].type == XrefEntry::Type::compressed) {
      numbers.push_back(static_cast<std::uint32_t>(num));
    }
  }
  document.drop_caches();  // the page walk's: the readers read for themselves
  const std::uint64_t batch_bytes = document.limits().dump_batch_bytes;
  HeldBytes held(std::min(batch_bytes, document.source().size()));
  Readers readers(document, planned_threads(numbers.size() / objects_per_job + 1, threads), held);
  // Batches: numbers[first, batch_end) are parsed from bytes copied out of the file in file order
  // (each worker sweeping a share), so a batch costs one sweep of the file whatever the order of
  // its numbers there. A batch's extents (an object's own bytes, or its object stream's, counted
  // once) add up to at most dump_batch_bytes; an extent larger than that alone is read where it lies.
  const bool hold = batch_bytes > 0 && document.source().kind() != SourceKind::whole;
  std::optional<ObjectExtents> extents;
  if (hold) extents.emplace(document);
  std::vector<std::uint32_t> held_in(hold ? xref.size() : 0, 0);  // 1 + the batch holding an extent
  // Lines made ahead: a batch holds an object stream's bytes for the members in its numbers, and
  // the stream's own line (its dictionary and the digest of its data, much shorter than they)
  // is made then, while the bytes are held, instead of costing a later batch another sweep of
  // the file. A line is kept when it is shorter than the bytes it stands for and the lines kept
  // add up to at most a quarter of dump_batch_bytes (a round of lines is made at once, each
  // shorter than its bytes: at most a batch's worth). A line made ahead is the one its turn would
  // make; one that fails ahead is made again in its turn, which gives the error in order.
  std::unordered_map<std::uint32_t, std::string> ahead;
  std::uint64_t ahead_bytes = 0;
  const std::uint64_t ahead_budget = batch_bytes / 4;
  struct Later {
    std::uint32_t num;
    std::uint64_t extent;
  };
  const auto make_ahead = [&](const std::vector<Later>& later) {
    constexpr std::size_t round = 1024;  // lines made at once, before the budget is checked
    std::vector<std::string> lines;
    for (std::size_t at = 0; at < later.size() && ahead_bytes < ahead_budget; at += round) {
      const std::size_t count = std::min(round, later.size() - at);
      lines.assign(count, std::string());
      parallel_for(count, readers.count(), [&](std::size_t i, unsigned worker) {
        try {
          append_object_line(readers[worker], later[at + i].num, lines[i]);
        } catch (const Error&) {
          lines[i].clear();
        } catch (const std::bad_alloc&) {
          lines[i].clear();
        }
        if (lines[i].size() >= later[at + i].extent) std::string().swap(lines[i]);
      });
      for (std::size_t i = 0; i < count; ++i) {
        if (lines[i].empty() || ahead_bytes + lines[i].size() > ahead_budget) continue;
        ahead_bytes += lines[i].size();
        ahead.emplace(later[at + i].num, std::move(lines[i]));
      }
    }
  };
  std::uint32_t batches = 0;
  const auto next_batch = [&](std::size_t from) {
    ++batches;
    std::vector<ByteRange> ranges;
    std::vector<Later> later;  // object streams held for members, whose own number comes later
    std::uint64_t bytes = 0;
    std::size_t end = from;
    for (; end < numbers.size(); ++end) {
      if (ahead.contains(numbers[end])) continue;
      std::uint32_t holder = numbers[end];
      if (xref[holder].type == XrefEntry::Type::compressed) {
        holder = static_cast<std::uint32_t>(std::min<std::uint64_t>(xref[holder].offset, UINT32_MAX));
        if (holder >= xref.size() || xref[holder].type != XrefEntry::Type::offset) continue;
      }
      if (held_in[holder] == batches) continue;
      const std::uint64_t begin = xref[holder].offset;
      const std::uint64_t end_of = extents->end_of(begin);
      if (begin >= end_of || end_of - begin > batch_bytes) continue;
      if (bytes + (end_of - begin) > batch_bytes && end > from) break;
      held_in[holder] = batches;
      bytes += end_of - begin;
      ranges.push_back({begin, end_of});
      if (holder > numbers[end]) later.push_back({holder, end_of - begin});
    }
    held.fill(std::move(ranges), readers.sources());
    if (end < numbers.size()) {
      std::erase_if(later, [&](const Later& l) { return l.num <= numbers[end - 1] || ahead.contains(l.num); });
      std::sort(later.begin(), later.end(), [](const Later& a, const Later& b) { return a.num < b.num; });
      make_ahead(later);
    }
    return end;
  };
  std::size_t batch_end = hold ? 0 : numbers.size();
  // A wave's lines: each job's in one text, in file order; each object's place in its job's text.
  struct Wave {
    struct Line {
      std::size_t job = 0, begin = 0, size = 0;
    };
    std::vector<std::string> texts;
    std::vector<Line> lines;
  };
  Wave waves[2];
  std::size_t made_bytes = 0;
  std::size_t written_next = 0;  // lines made in the wave before, still to be written
  std::size_t wanted = 0;        // objects a wave takes: at most twice the wave before's
  for (std::size_t w = 0, first = 0; first < numbers.size() || written_next > 0; ++w) {
    if (first == batch_end && first < numbers.size()) batch_end = next_batch(first);
    wanted = first == 0 ? objects_per_job
                        : std::clamp(static_cast<std::size_t>(static_cast<double>(wave_line_bytes) * static_cast<double>(first) /
                                                              static_cast<double>(std::max<std::size_t>(made_bytes, 1))),
                                     objects_per_job, std::min(max_objects_per_wave, 2 * wanted));
    const std::size_t count = std::min(wanted, batch_end - first);
    const WaveOrder wave = wave_order(document, numbers, first, count);
    const std::vector<std::uint32_t>& order = wave.order;
    const std::size_t jobs = wave.job_begin.size() - 1;
    Wave& making = waves[w % 2];
    const Wave& writing = waves[(w + 1) % 2];
    if (making.texts.size() < jobs) making.texts.resize(jobs);
    making.lines.resize(count);
    const std::size_t writes = written_next > 0 ? 1 : 0;  // job 0, when there is a wave to write
    const auto make = [&](std::size_t k, Document& reader) {
      std::string& text = making.texts[k];
      text.clear();
      try {
        for (std::size_t i = wave.job_begin[k]; i < wave.job_begin[k + 1]; ++i) {
          const std::size_t begin = text.size();
          const std::uint32_t num = numbers[first + order[i]];
          if (const auto made = ahead.find(num); made != ahead.end()) {
            text += made->second;
          } else {
            append_object_line(reader, num, text);
          }
          making.lines[order[i]] = {k, begin, text.size() - begin};
        }
      } catch (const std::bad_alloc&) {
        throw allocation_failure({document.source().name(), "", std::nullopt});
      }
    };
    // Lines next to each other in a job's text and in number order (an object stream's members,
    // mostly) go to the sink as one run, straight from the text: a copy into a piece would cost
    // as much as hashing them (a shuffled file's lines each stand alone). A sink that writes to a
    // file gathers short runs itself.
    const auto write = [&] {
      for (std::size_t i = 0; i < written_next;) {
        const auto& line = writing.lines[i];
        std::size_t end = line.begin + line.size;
        for (++i; i < written_next && writing.lines[i].job == line.job && writing.lines[i].begin == end; ++i) {
          end += writing.lines[i].size;
        }
        const std::string_view run = std::string_view(writing.texts[line.job]).substr(line.begin, end - line.begin);
        for (std::size_t at = 0; at < run.size(); at += piece_bytes) sink(run.substr(at, piece_bytes));
      }
    };
    std::atomic<std::size_t> lowest_limit{SIZE_MAX};  // the lowest job that hit a limit
    try {
      parallel_for_serial_error(writes + jobs, readers.count(), [&](std::size_t j, unsigned worker) {
        if (j < writes) {
          write();
          return;
        }
        try {
          make(j - writes, readers[worker]);
        } catch (const Error& e) {
          if (e.kind() == ErrorKind::limit) {
            for (std::size_t low = lowest_limit.load(); j < low && !lowest_limit.compare_exchange_weak(low, j);) {
            }
          }
          throw;
        }
      });
    } catch (const Error& e) {
      // A limit hit beside other workers may be the memory they held at that moment: the jobs
      // from that one on are made again one at a time, with nothing else held, so the dump and
      // its error are those of a serial run.
      const std::size_t low = lowest_limit.load();
      if (e.kind() != ErrorKind::limit || readers.count() < 2 || low == SIZE_MAX || low < writes) throw;
      for (unsigned r = 0; r < readers.count(); ++r) readers[r].drop_caches();
      for (std::size_t k = low - writes; k < jobs; ++k) make(k, readers[0]);
    }
    for (std::size_t k = 0; k < jobs; ++k) made_bytes += making.texts[k].size();
    for (std::size_t i = first; i < first + count && !ahead.empty(); ++i) {
      if (const auto made = ahead.find(numbers[i]); made != ahead.end()) {
        ahead_bytes -= made->second.size();
        ahead.erase(made);
      }
    }
    written_next = count;
    first += count;
  }
  return readers.result(numbers.size());
}

std::string pdf_dump(Document& document, int level, unsigned threads) {
  std::string dump;
  write_pdf_dump(document, level, [&](std::string_view piece) { dump += piece; }, threads);
  return dump;
}

void write_pdf_dump_file(const std::string& path, const SourceOptions& source_options, int level, const Limits& limits,
                         const std::function<void(std::string_view)>& sink, unsigned threads, std::string_view password,
                         Recovery recovery) {
  auto source = open_source(path, source_options, limits.max_memory);
  Document document(*source, limits, password, recovery);
  // The file must not have shrunk while it was read (every worker reads the same file): then
  // what was read is not reported, and an error met on the way is reported as the truncation.
  try {
    write_pdf_dump(document, level, sink, threads);
  } catch (const Error&) {
    source->verify_unchanged();
    throw;
  }
  source->verify_unchanged();
}

std::string pdf_dump_file(const std::string& path, const SourceOptions& source_options, int level, const Limits& limits,
                          unsigned threads, std::string_view password, Recovery recovery) {
  std::string dump;
  write_pdf_dump_file(path, source_options, level, limits, [&](std::string_view piece) { dump += piece; }, threads, password,
                      recovery);
  return dump;
}

}  // namespace docconform::pdf
