// The order of the indexing sweep: every in-use object by where its bytes are. An uncompressed
// object's key is (offset, 0, number); an object stream's member's is (the stream's offset,
// index + 1, number), and members of a stream the xref does not place sort last.
//
// Only the uncompressed objects (the object streams among them) go through a comparison sort:
// members are bucketed by stream number in one counting pass and follow their stream. At 300,000
// objects this takes a few milliseconds instead of the 15 to 20 of sorting every key, and the
// sort is serial time before the sweep's threads start.
#include <algorithm>

#include "docconform/pdf/document.h"

namespace docconform::pdf {

std::vector<std::uint32_t> Document::objects_in_file_order() const {
  const std::vector<XrefEntry>& table = xref();
  const auto n = static_cast<std::uint32_t>(table.size());
  const auto placed_stream = [&](std::uint64_t stream) { return stream < n && table[stream].type == XrefEntry::Type::offset; };

  struct Placed {
    std::uint64_t offset;
    std::uint32_t num;
  };
  std::vector<Placed> placed;
  std::vector<std::uint32_t> bucket(n + 1, 0);  // members of stream s: members[bucket[s], bucket[s + 1])
  std::vector<std::uint32_t> unplaced;          // members of a stream the xref does not place
  for (std::uint32_t num = 1; num < n; ++num) {
    const XrefEntry& e = table[num];
    if (e.type == XrefEntry::Type::offset) {
      placed.push_back({e.offset, num});
    } else if (e.type == XrefEntry::Type::compressed) {
      if (placed_stream(e.offset)) {
        ++bucket[e.offset + 1];
      } else {
        unplaced.push_back(num);
      }
    }
  }
  for (std::uint32_t s = 0; s < n; ++s) bucket[s + 1] += bucket[s];
  std::vector<std::uint32_t> members(bucket[n]);
  {
    std::vector<std::uint32_t> fill(bucket.begin(), bucket.end() - 1);
    for (std::uint32_t num = 1; num < n; ++num) {  // ascending numbers: each bucket is ordered by number
      const XrefEntry& e = table[num];
      if (e.type == XrefEntry::Type::compressed && placed_stream(e.offset)) members[fill[e.offset]++] = num;
    }
  }
  // Members ordered by (index, number); the input is by number, so a stable sort by index does it.
  const auto by_index = [&](std::uint32_t a, std::uint32_t b) { return table[a].index < table[b].index; };
  const auto order_by_index = [&](auto first, auto last) {
    if (!std::is_sorted(first, last, by_index)) std::stable_sort(first, last, by_index);
  };
  std::sort(placed.begin(), placed.end(),
            [](const Placed& a, const Placed& b) { return a.offset != b.offset ? a.offset < b.offset : a.num < b.num; });

  std::vector<std::uint32_t> order;
  order.reserve(placed.size() + members.size() + unplaced.size());
  std::vector<std::uint32_t> shared;  // members of several streams placed at one offset (a broken xref)
  for (std::size_t i = 0; i < placed.size();) {
    std::size_t end = i;
    while (end < placed.size() && placed[end].offset == placed[i].offset) order.push_back(placed[end++].num);
    if (end - i == 1) {
      const std::uint32_t s = placed[i].num;
      order_by_index(members.begin() + bucket[s], members.begin() + bucket[s + 1]);
      order.insert(order.end(), members.begin() + bucket[s], members.begin() + bucket[s + 1]);
    } else {
      shared.clear();
      for (std::size_t k = i; k < end; ++k) {
        const std::uint32_t s = placed[k].num;
        shared.insert(shared.end(), members.begin() + bucket[s], members.begin() + bucket[s + 1]);
      }
      std::sort(shared.begin(), shared.end());
      order_by_index(shared.begin(), shared.end());
      order.insert(order.end(), shared.begin(), shared.end());
    }
    i = end;
  }
  order_by_index(unplaced.begin(), unplaced.end());  // collected by ascending number
  order.insert(order.end(), unplaced.begin(), unplaced.end());
  return order;
}

}  // namespace docconform::pdf
