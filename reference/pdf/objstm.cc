// Object streams (§7.5.7): decoded on first use, kept in a small LRU cluster cache so the
// neighbouring objects of a cluster are served without inflating it again.
#include <algorithm>

#include "docconform/error.h"
#include "document_impl.h"
#include "parser.h"

namespace docconform::pdf {
namespace {

// referenced_from: the section of the entry that placed an object in this stream, the position
// named when the stream itself has no entry.
Cluster load_cluster(Document& doc, std::uint32_t stream_num, const XrefEntry& stream_entry,
                     std::optional<std::uint64_t> referenced_from) {
  const std::string& file = doc.source().name();
  const std::string part = "object stream " + std::to_string(stream_num);
  if (stream_entry.type != XrefEntry::Type::offset) {
    const auto listed_at = doc.entry_section_offset(stream_num);
    throw Error(ErrorKind::format, {file, part, listed_at ? listed_at : referenced_from},
                "object stream is not an uncompressed object in the xref");
  }
  const Object stream = doc.object(stream_num);
  if (stream.kind != Kind::stream) throw Error(ErrorKind::format, {file, part, stream_entry.offset}, "object stream is not a stream");
  const Object* n = stream.get("N");
  const Object* first = stream.get("First");
  if (n == nullptr || n->kind != Kind::integer || n->integer < 0 || first == nullptr || first->kind != Kind::integer ||
      first->integer < 0) {
    throw Error(ErrorKind::format, {file, part, stream_entry.offset}, "object stream without integers /N and /First >= 0");
  }
  if (static_cast<std::uint64_t>(n->integer) > doc.limits().max_objstm_objects) {
    throw Error(ErrorKind::limit, {file, part, stream_entry.offset},
                "/N " + std::to_string(n->integer) + " exceeds max_objstm_objects");
  }
  Cluster cluster;
  cluster.stream = stream_num;
  cluster.data = doc.stream_decoded(stream, {stream_num, stream_entry.gen}, part);
  cluster.first = static_cast<std::uint64_t>(first->integer);
  if (cluster.first > cluster.data.size()) {
    throw Error(ErrorKind::format, {file, part, cluster.first},
                "/First " + std::to_string(cluster.first) + " lies past the decoded data (" +
                    std::to_string(cluster.data.size()) + " bytes)");
  }
  const auto count = static_cast<std::size_t>(n->integer);
  // Each pair takes at least 4 bytes ("1 0 "), so a lying /N is caught before reserving memory.
  if (count > cluster.first / 3 + 1) {
    throw Error(ErrorKind::format, {file, part, 0}, "/N " + std::to_string(count) + " pairs cannot fit before /First");
  }
  cluster.slots.reserve(count);
  Parser header(reinterpret_cast<const std::uint8_t*>(cluster.data.data()), static_cast<std::size_t>(cluster.first), 0,
                true, doc.limits(), file, part);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint64_t num = header.parse_uint("object number in the object stream header");
    const std::uint64_t offset = header.parse_uint("object offset in the object stream header");
    if (num > UINT32_MAX || offset >= cluster.data.size() - cluster.first) {
      throw Error(ErrorKind::format, {file, part, header.offset()},
                  "header pair " + std::to_string(i) + " (" + std::to_string(num) + " " + std::to_string(offset) +
                      ") lies outside the stream");
    }
    cluster.slots.emplace_back(static_cast<std::uint32_t>(num), offset);
  }
  return cluster;
}

}  // namespace

std::vector<std::pair<std::uint32_t, std::uint64_t>> object_stream_slots(Document& doc, std::uint32_t stream_num) {
  const XrefEntry entry = stream_num < doc.xref().size() ? doc.xref()[stream_num] : XrefEntry{};
  return load_cluster(doc, stream_num, entry, std::nullopt).slots;
}

void Document::compressed(std::uint32_t num, const XrefEntry& entry, Object& object) {
  const std::string& file = source_.name();
  if (entry.offset >= xref().size()) {
    throw Error(ErrorKind::format, {file, object_part(num, 0), entry_section_offset(num)},
                "xref places the object in object stream " + std::to_string(entry.offset) + ", which does not exist");
  }
  const auto stream_num = static_cast<std::uint32_t>(entry.offset);
  auto& clusters = impl_->clusters;
  auto it = std::find_if(clusters.begin(), clusters.end(), [&](const Cluster& c) { return c.stream == stream_num; });
  if (it != clusters.end()) {
    ++stats_.objstm_cache_hits;
  } else {
    Cluster loaded = load_cluster(*this, stream_num, xref()[stream_num], entry_section_offset(num));
    ++stats_.objstm_inflated;
    // Least recently used out, until the cache holds fewer than objstm_cache streams and room
    // for this one's bytes (always kept, however large).
    while (!clusters.empty() && (clusters.size() >= std::max<std::uint32_t>(limits_.objstm_cache, 1) ||
                                 impl_->cluster_bytes + loaded.held_bytes() > limits_.objstm_cache_bytes)) {
      const auto oldest = std::min_element(clusters.begin(), clusters.end(),
                                           [](const Cluster& a, const Cluster& b) { return a.last_use < b.last_use; });
      impl_->cluster_bytes -= oldest->held_bytes();
      clusters.erase(oldest);
    }
    impl_->cluster_bytes += loaded.held_bytes();
    clusters.push_back(std::move(loaded));
    it = clusters.end() - 1;
  }
  it->last_use = ++impl_->clock;
  Cluster& cluster = *it;
  const PartName part = PartName::object(num, 0, stream_num);
  // The xref's index is a hint: when that slot holds another object, the header decides (the
  // stream's own header is authoritative for which object sits where; its first listing wins).
  std::size_t slot = entry.index;
  if (slot >= cluster.slots.size() || cluster.slots[slot].first != num) {
    if (cluster.by_number.empty()) {
      cluster.by_number.reserve(cluster.slots.size());
      for (std::size_t i = 0; i < cluster.slots.size(); ++i) {
        cluster.by_number.emplace_back(cluster.slots[i].first, static_cast<std::uint32_t>(i));
      }
      std::sort(cluster.by_number.begin(), cluster.by_number.end());
    }
    const auto found = std::lower_bound(cluster.by_number.begin(), cluster.by_number.end(), std::pair(num, std::uint32_t{0}));
    if (found == cluster.by_number.end() || found->first != num) {
      throw Error(ErrorKind::format, {file, part.str(), xref()[stream_num].offset},
                  "the object stream's header does not list this object");
    }
    slot = found->second;
  }
  const std::uint64_t at = cluster.first + cluster.slots[slot].second;
  Parser parser(reinterpret_cast<const std::uint8_t*>(cluster.data.data()) + at,
                static_cast<std::size_t>(cluster.data.size() - at), at, true, limits_, file, part);
  parser.account(*memory_, impl_->object_charge);
  parser.parse_object(object);
  if (object.kind == Kind::dict && parser.try_keyword("stream")) parser.fail("a stream cannot be stored in an object stream");
  ++stats_.objects_parsed;
}

}  // namespace docconform::pdf
