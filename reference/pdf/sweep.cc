#include "docconform/pdf/sweep.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include "docconform/parallel.h"
#include "readers.h"

namespace docconform::pdf {
namespace {

// A sweep job holds at least this many objects, and ends only where the next object lies
// elsewhere: an object stream's objects sort together, right after the stream itself.
constexpr std::size_t objects_per_job = 256;

}  // namespace

SweepResult sweep_objects(Document& document, unsigned threads,
                          const std::function<void(std::uint32_t num, const Object& object)>& visit) {
  const std::vector<std::uint32_t> order = document.objects_in_file_order();
  std::vector<std::size_t> starts;  // job k sweeps order[starts[k], starts[k + 1])
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (starts.empty() ||
        (i - starts.back() >= objects_per_job && document.where(order[i]) != document.where(order[i - 1]))) {
      starts.push_back(i);
    }
  }
  const std::size_t jobs = starts.size();
  starts.push_back(order.size());
  Readers readers(document, planned_threads(jobs, threads));
  parallel_for_serial_error(jobs, threads, [&](std::size_t job, unsigned worker) {
    Document& reader = readers[worker];
    Object object;  // written over by each object of the job, so its storage is reused
    for (std::size_t i = starts[job]; i < starts[job + 1]; ++i) {
      reader.object(order[i], object);
      if (visit) visit(order[i], object);
    }
  });
  return readers.result(order.size());
}

SweepResult inflate_object_streams(Document& document, unsigned threads) {
  // The object streams in file order, each once: only they are sorted, so the floor times
  // inflating and not the ordering of every object.
  const auto& xref = document.xref();
  std::vector<std::uint32_t> streams;
  {
    std::vector<bool> seen(xref.size(), false);
    for (const XrefEntry& entry : xref) {
      if (entry.type != XrefEntry::Type::compressed || entry.offset >= xref.size() || seen[entry.offset]) continue;
      seen[entry.offset] = true;
      streams.push_back(static_cast<std::uint32_t>(entry.offset));
    }
  }
  const auto place = [&](std::uint32_t num) {  // streams the xref does not place go last
    return std::pair(xref[num].type == XrefEntry::Type::offset ? xref[num].offset : UINT64_MAX, num);
  };
  std::sort(streams.begin(), streams.end(), [&](std::uint32_t a, std::uint32_t b) { return place(a) < place(b); });
  Readers readers(document, planned_threads(streams.size(), threads));
  parallel_for_serial_error(streams.size(), threads, [&](std::size_t job, unsigned worker) {
    Document& reader = readers[worker];
    const Object stream = reader.object(streams[job]);
    if (stream.kind == Kind::stream) reader.stream_decoded(stream, {streams[job], reader.xref()[streams[job]].gen}, "object stream " + std::to_string(streams[job]));
  });
  return readers.result(streams.size());
}

}  // namespace docconform::pdf
