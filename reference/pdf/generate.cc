#include "docconform/pdf/generate.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "docconform/error.h"
#include "docconform/random.h"
#include "xref_write.h"

namespace docconform::pdf {
namespace {

void shuffle(std::vector<std::uint32_t>& items, std::uint64_t seed) {
  SplitMix64 rng(seed);
  for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(i)]);
}

std::string literal(const std::string& bytes) {
  std::string out = "(";
  for (const char c : bytes) {
    if (c == '(' || c == ')' || c == '\\') out += '\\';
    if (c == '\r') {
      out += "\\r";
      continue;
    }
    out += c;
  }
  return out + ")";
}

// Object numbering: 1 catalog, 2 page-tree root, then page-tree nodes and leaves, payload
// objects, the info dictionary; object streams and xref streams come after.
class Layout {
 public:
  explicit Layout(const GenerateOptions& o) : options_(o) {
    // Page tree: leaves grouped by 32 under intermediate nodes until the root holds <= 32 kids.
    std::vector<std::vector<std::uint32_t>> levels;  // node indices per level, leaves first
    const std::uint32_t pages = std::max<std::uint32_t>(o.pages, 1);
    std::vector<std::uint32_t> level(pages);
    std::iota(level.begin(), level.end(), 0);
    nodes_.resize(pages);
    while (level.size() > 32) {
      std::vector<std::uint32_t> parents;
      for (std::size_t i = 0; i < level.size(); i += 32) {
        const auto parent = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back({});
        for (std::size_t k = i; k < std::min(level.size(), i + 32); ++k) {
          nodes_[parent].kids.push_back(level[k]);
          nodes_[level[k]].parent = parent;
          nodes_[parent].count += nodes_[level[k]].is_leaf ? 1 : nodes_[level[k]].count;
        }
        nodes_[parent].is_leaf = false;
        parents.push_back(parent);
      }
      level = parents;
    }
    root_ = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    nodes_[root_].is_leaf = false;
    for (std::uint32_t kid : level) {
      nodes_[root_].kids.push_back(kid);
      nodes_[kid].parent = root_;
      nodes_[root_].count += nodes_[kid].is_leaf ? 1 : nodes_[kid].count;
    }
    // Numbers: root = 2, other nodes from 3 in index order.
    std::uint32_t next = 3;
    for (std::uint32_t i = 0; i < nodes_.size(); ++i) nodes_[i].num = i == root_ ? 2 : next++;
    first_payload_ = next;
    info_ = first_payload_ + o.objects;
  }

  std::uint32_t info() const { return info_; }
  std::uint32_t last_body() const { return info_; }  // highest number of the body objects
  bool is_payload(std::uint32_t num) const { return num >= first_payload_ && num < info_; }
  std::uint32_t first_payload() const { return first_payload_; }

  std::string text(std::uint32_t num, std::uint32_t revision) const {
    if (num == 1) return "<< /Type /Catalog /Pages 2 0 R >>";
    if (num == info_) {
      std::string t = "<< /Producer (docconform gen pdf) /Title (Synthetic document with " + std::to_string(options_.objects) +
                      " payload objects)";
      if (revision > 0) t += " /ModDate (revision " + std::to_string(revision) + ")";
      return t + " >>";
    }
    if (is_payload(num)) {
      SplitMix64 rng(options_.seed * 0x100000001B3ull ^ (static_cast<std::uint64_t>(num) << 20) ^ revision);
      std::string data(options_.payload, '\0');
      for (std::size_t i = 0; i < data.size(); i += 8) {
        const std::uint64_t r = rng.next();
        for (std::size_t k = 0; k < 8 && i + k < data.size(); ++k) data[i + k] = static_cast<char>(r >> (8 * k));
      }
      return "<< /Type /Item /Index " + std::to_string(num - first_payload_) + " /Rev " + std::to_string(revision) +
             " /Data " + literal(data) + " >>";
    }
    const Node& node = nodes_[node_index(num)];
    if (node.is_leaf) {
      std::string t = "<< /Type /Page /Parent " + std::to_string(nodes_[node.parent].num) + " 0 R";
      if (node_index(num) % 7 == 3) t += " /Rotate 90";
      return t + " >>";
    }
    std::string t = "<< /Type /Pages /Count " + std::to_string(node.count) + " /Kids [";
    for (std::size_t i = 0; i < node.kids.size(); ++i) t += (i ? " " : "") + std::to_string(nodes_[node.kids[i]].num) + " 0 R";
    t += "]";
    if (num == 2) {
      t += " /MediaBox [0 0 612 792]";
    } else {
      t += " /Parent " + std::to_string(nodes_[node.parent].num) + " 0 R";
    }
    return t + " >>";
  }

 private:
  struct Node {
    std::uint32_t num = 0;
    std::uint32_t parent = 0;
    std::uint32_t count = 0;
    bool is_leaf = true;
    std::vector<std::uint32_t> kids;
  };
  std::uint32_t node_index(std::uint32_t num) const { return num == 2 ? root_ : num - 3; }  // root is the last node

  const GenerateOptions& options_;
  std::vector<Node> nodes_;
  std::uint32_t root_ = 0;
  std::uint32_t first_payload_ = 0;
  std::uint32_t info_ = 0;
};

class Writer {
 public:
  Writer(const GenerateOptions& options, std::ostream& out, const std::function<void(std::uint64_t, std::uint64_t)>& progress)
      : o_(options), layout_(options), out_(out), progress_(progress) {}

  void run() {
    emit("%PDF-1.7\n%\xE2\xE3\xCF\xD3\n");
    std::vector<std::uint32_t> body(layout_.last_body());
    std::iota(body.begin(), body.end(), 1);
    next_number_ = layout_.last_body() + 1;
    total_ = body.size();
    std::uint64_t prev = section(body, 0, o_.seed);
    for (std::uint32_t k = 1; k <= o_.updates; ++k) prev = update(k, prev);
  }

 private:
  void emit(const std::string& text) {
    out_.write(text.data(), static_cast<std::streamsize>(text.size()));
    position_ += text.size();
  }

  void tick() {
    ++done_;
    if (progress_ && (done_ % 20000 == 0 || done_ == total_)) progress_(done_, total_);
  }

  // Writes the given objects at their current revision and a cross-reference section.
  std::uint64_t section(std::vector<std::uint32_t> numbers, std::uint64_t prev, std::uint64_t shuffle_seed,
                        const std::vector<std::uint32_t>& deleted = {}) {
    std::vector<XrefWriteEntry> entries;
    if (!o_.object_streams) {
      if (o_.shuffle) shuffle(numbers, shuffle_seed);
      for (std::uint32_t num : numbers) {
        entries.push_back({num, 0, position_, 0, 1});
        emit(std::to_string(num) + " 0 obj\n" + layout_.text(num, revision(num)) + "\nendobj\n");
        tick();
      }
    } else {
      std::sort(numbers.begin(), numbers.end());  // objects written together share a cluster
      std::vector<std::uint32_t> clusters;
      for (std::uint32_t c = 0; c * std::max<std::uint32_t>(o_.cluster, 1) < numbers.size(); ++c) clusters.push_back(c);
      if (o_.shuffle) shuffle(clusters, shuffle_seed);
      const std::uint32_t per = std::max<std::uint32_t>(o_.cluster, 1);
      const std::uint32_t first_stream = next_number_;
      next_number_ += static_cast<std::uint32_t>(clusters.size());
      for (std::uint32_t c : clusters) {
        const std::uint32_t stream = first_stream + c;
        std::string header, body;
        for (std::size_t i = c * per; i < std::min<std::size_t>(numbers.size(), (c + 1) * per); ++i) {
          const std::uint32_t num = numbers[i];
          header += std::to_string(num) + " " + std::to_string(body.size()) + " ";
          entries.push_back({num, 0, stream, static_cast<std::uint32_t>(i - c * per), 2});
          body += layout_.text(num, revision(num)) + "\n";
          tick();
        }
        const std::string data = deflate_bytes(header + body);
        entries.push_back({stream, 0, position_, 0, 1});
        emit(std::to_string(stream) + " 0 obj\n<< /Type /ObjStm /N " + std::to_string(std::min<std::size_t>(numbers.size() - c * per, per)) +
             " /First " + std::to_string(header.size()) + " /Filter /FlateDecode /Length " + std::to_string(data.size()) +
             " >>\nstream\n" + data + "\nendstream\nendobj\n");
      }
    }
    for (std::uint32_t num : deleted) entries.push_back({num, 1, 0, 0, 0});
    Object trailer = Object::make_dict();
    trailer.set("Root", Object::make_ref(1, 0));
    trailer.set("Info", Object::make_ref(layout_.info(), 0));
    Object id;
    id.kind = Kind::array;
    SplitMix64 rng(o_.seed);
    std::string first(16, '\0');
    for (char& c : first) c = static_cast<char>(rng.next());
    id.items.push_back(Object::make_string(first));
    id.items.push_back(Object::make_string(first));
    trailer.set("ID", id);
    const std::uint64_t at = position_;
    if (o_.object_streams) {
      const std::uint32_t self = next_number_++;
      emit(xref_stream_section(entries, trailer, self, prev, at, true));
    } else {
      if (prev == 0) entries.push_back({0, 65535, 0, 0, 0});
      emit(xref_table_section(entries, trailer, next_number_, prev));
    }
    emit("startxref\n" + std::to_string(at) + "\n%%EOF\n");
    return at;
  }

  std::uint32_t revision(std::uint32_t num) const {
    const auto it = revisions_.find(num);
    return it == revisions_.end() ? 0 : it->second;
  }

  // Update k rewrites about 2 % of the payload objects and the info dictionary; with classic
  // tables it also deletes one payload object (free entry, generation 1). Xref-stream files
  // delete nothing: qpdf 11.3 warns about any type-0 entry that hides an older object, and the
  // generated files must pass qpdf --check cleanly.
  std::uint64_t update(std::uint32_t k, std::uint64_t prev) {
    std::vector<std::uint32_t> changed;
    for (std::uint32_t num = layout_.first_payload(); num < layout_.info(); ++num) {
      if (deleted_.count(num) == 0 && ((num * 2654435761u) + k * 40503u) % 50 == 0) changed.push_back(num);
    }
    changed.push_back(layout_.info());
    std::vector<std::uint32_t> deleted;
    if (o_.objects > 0 && !o_.object_streams) {
      const std::uint32_t victim = layout_.first_payload() + static_cast<std::uint32_t>((k * 7919ull) % o_.objects);
      if (deleted_.insert(victim).second) {
        deleted.push_back(victim);
        changed.erase(std::remove(changed.begin(), changed.end(), victim), changed.end());
      }
    }
    for (std::uint32_t num : changed) revisions_[num] = k;
    total_ += changed.size();
    return section(changed, prev, o_.seed + k, deleted);
  }

  const GenerateOptions& o_;
  Layout layout_;
  std::ostream& out_;
  const std::function<void(std::uint64_t, std::uint64_t)>& progress_;
  std::uint64_t position_ = 0;
  std::uint32_t next_number_ = 0;
  std::uint64_t done_ = 0, total_ = 0;
  std::unordered_map<std::uint32_t, std::uint32_t> revisions_;
  std::set<std::uint32_t> deleted_;
};

}  // namespace

void generate_pdf(const GenerateOptions& options, std::ostream& out,
                  const std::function<void(std::uint64_t, std::uint64_t)>& progress) {
  if (options.objects > max_generated_objects || options.pages > max_generated_pages) {
    throw Error(ErrorKind::usage, {},
                "gen pdf: at most " + std::to_string(max_generated_objects) + " objects and " +
                    std::to_string(max_generated_pages) + " pages");
  }
  Writer(options, out, progress).run();
  if (!out) throw Error(ErrorKind::io, {}, "gen pdf: writing failed");
}

}  // namespace docconform::pdf
