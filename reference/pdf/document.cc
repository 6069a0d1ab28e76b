#include "docconform/pdf/document.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <utility>

#include "docconform/error.h"
#include "document_impl.h"
#include "filters.h"
#include "parser.h"
#include "security.h"

namespace docconform::pdf {

const char* to_string(XrefSection::Form form) {
  switch (form) {
    case XrefSection::Form::table: return "table";
    case XrefSection::Form::stream: return "stream";
    case XrefSection::Form::hybrid: return "hybrid";
  }
  return "?";
}

Document::Document(ByteSource& source, Limits limits, std::string_view password, Recovery recovery)
    : source_(source),
      limits_(limits),
      memory_(std::make_shared<Budget>(limits.max_memory, "max_memory", "memory held by the load (bytes)")),
      impl_(std::make_unique<Impl>()) {
  if (limits_.max_depth > Limits::deepest_supported) {
    throw Error(ErrorKind::usage, {source_.name(), "", std::nullopt},
                "max_depth " + std::to_string(limits_.max_depth) + " is over the deepest nesting the reader supports (" +
                    std::to_string(Limits::deepest_supported) + ")");
  }
  const std::uint64_t held = source_.held_bytes();
  memory_->charge(held, [&] { return ErrorContext{source_.name(), "", std::nullopt}; });
  impl_->source_charge = held;
  try {
    try {
      load_xref();
    } catch (const Error& e) {
      if (recovery == Recovery::strict || (e.kind() != ErrorKind::format && e.kind() != ErrorKind::limit)) throw;
      rebuild_xref(e);
    }
    if (recovery == Recovery::rebuild && repairs_.empty()) {
      if (const std::optional<Error> fault = strict_read_fault()) rebuild_xref(*fault);
    }
  } catch (const std::bad_alloc&) {
    throw allocation_failure({source_.name(), "xref", std::nullopt});
  }
  drop_caches();  // the xref streams parsed; the trailer stays as trailer()
  open_security(password);
}

void Document::open_security(std::string_view password) {
  const Object* encrypt = trailer_.get("Encrypt");
  if (encrypt == nullptr) return;
  // Read before the handler exists, so its strings (/O, /U...) are taken as written.
  std::optional<std::uint64_t> at = where(encrypt);
  if (!at && !sections_.empty()) at = sections_.front().offset + header_offset_;
  const Object dict = resolve(*encrypt);
  drop_caches();
  // A null value, written or reached through a reference to no object, is an absent entry
  // (ISO 32000-2 7.3.9, 7.3.10): the file is not encrypted.
  if (dict.kind == Kind::null) return;
  std::string part = "encrypt dictionary";
  if (encrypt->kind == Kind::ref && encrypt->integer > 0 && encrypt->integer <= static_cast<std::int64_t>(UINT32_MAX)) {
    encrypt_num_ = static_cast<std::uint32_t>(encrypt->integer);
    part += " (object " + std::to_string(encrypt->integer) + " " + std::to_string(encrypt->gen) + ")";
  }
  std::string id;
  if (const Object* ids = trailer_.get("ID"); ids != nullptr && ids->kind == Kind::array && !ids->items.empty() &&
                                              ids->items[0].kind == Kind::string) {
    id = ids->items[0].bytes;
  }
  security_ = std::make_shared<const SecurityHandler>(dict, id, password, ErrorContext{source_.name(), part, at});
}

std::string Document::encryption() const { return security_ ? security_->summary() : std::string(); }

Document::Document(ByteSource& source, const Document& indexed)
    : source_(source),
      limits_(indexed.limits_),
      memory_(indexed.memory_),
      header_version_(indexed.header_version_),
      header_offset_(indexed.header_offset_),
      startxref_(indexed.startxref_),
      trailer_(indexed.trailer_),
      xref_(indexed.xref_),
      sections_(indexed.sections_),
      chain_streams_(indexed.chain_streams_),
      repairs_(indexed.repairs_),
      security_(indexed.security_),
      encrypt_num_(indexed.encrypt_num_),
      impl_(std::make_unique<Impl>()) {
  if (source.size() != indexed.source_.size()) {
    throw Error(ErrorKind::usage, {source.name(), "", std::nullopt}, "second reader over a source of another size");
  }
}

Document::~Document() {
  drop_caches();
  memory_->release(impl_->source_charge);
}

void Document::drop_caches() {
  impl_->clusters.clear();
  impl_->cluster_bytes = 0;
  memory_->release(std::exchange(impl_->object_charge, 0));
}

namespace {

bool is_xref_stream(const Object& stream) {
  const Object* type = stream.get("Type");
  return type != nullptr && type->kind == Kind::name && type->bytes == "XRef";
}

// Marks num as being fetched for the lifetime of the guard; a nested fetch of the same number
// means the object depends on itself (e.g. a stream whose /Length is a reference to itself).
class FetchGuard {
 public:
  FetchGuard(std::vector<std::uint32_t>& stack, std::uint32_t num, Document& doc) : stack_(stack) {
    const std::string& file = doc.source().name();
    if (std::find(stack.begin(), stack.end(), num) != stack.end()) {
      throw Error(ErrorKind::format, {file, object_part(num, 0), doc.where(num)},
                  "object depends on itself (reference cycle while reading it)");
    }
    if (stack.size() >= doc.limits().max_depth) {
      throw Error(ErrorKind::limit, {file, object_part(num, 0), doc.where(num)},
                  "objects nested too deeply (max_depth " + std::to_string(doc.limits().max_depth) + ")");
    }
    stack.push_back(num);
  }
  ~FetchGuard() { stack_.pop_back(); }
  FetchGuard(const FetchGuard&) = delete;
  FetchGuard& operator=(const FetchGuard&) = delete;

 private:
  std::vector<std::uint32_t>& stack_;
};

}  // namespace

void Document::read_at(std::uint64_t offset, std::uint32_t num, std::uint32_t gen, bool check_header, Object& object) {
  const std::string& file = source_.name();
  const PartName part = check_header ? PartName::object(num, gen) : PartName("xref stream");
  const std::uint64_t size = source_.size();
  if (offset >= size) {
    // Reported where the offset is written, as written: at the section that lists the object
    // (the chain's own offsets are checked before they are read, in xref.cc).
    const std::optional<std::uint64_t> listed_at = entry_section_offset(num);
    throw Error(ErrorKind::format, {file, part.str(), listed_at ? listed_at : offset},
                "xref places the object at offset " + std::to_string(offset - header_offset_) +
                    ", beyond the end of the file (" + std::to_string(size) + " bytes)");
  }
  const std::uint64_t grow_limit = check_header ? limits_.max_object_bytes : std::max(limits_.max_object_bytes, size);
  const auto parse = [&](Parser& parser) {
    parser.account(*memory_, impl_->object_charge);
    const std::uint64_t found_num = parser.parse_uint("object number");
    const std::uint64_t found_gen = parser.parse_uint("generation number");
    parser.expect_keyword("obj");
    if (check_header && (found_num != num || found_gen != gen)) {
      throw Error(ErrorKind::format, {file, part.str(), offset},
                  "xref points at object " + std::to_string(found_num) + " " + std::to_string(found_gen));
    }
    // `N G obj endobj` (nothing in between) reads as null, as common readers do.
    if (parser.try_keyword("endobj")) {
      object = Object{};
    } else {
      parser.parse_object(object);
      if (object.kind == Kind::dict && parser.try_keyword("stream")) {
        parser.skip_stream_eol();
        object.kind = Kind::stream;
        object.stream_offset = offset + parser.pos();
      } else if (!parser.try_keyword("endobj")) {
        // ISO 32000-2 7.3.10: the value is bracketed between obj and endobj (a stream's endobj
        // follows its endstream, checked with it).
        parser.fail("expected 'endobj' after the object's value");
      }
    }
    ++stats_.objects_parsed;
    stats_.parsed_bytes += parser.pos();
  };
  // A try that needs more bytes (or, from held bytes, fails) gives back what its partial object
  // held and was charged for: the next try parses the object again from its start.
  const auto give_back = [&](std::uint64_t charged) {
    object = Object{};
    memory_->release(impl_->object_charge - charged);
    impl_->object_charge = charged;
  };
  // A source that holds bytes from offset (a level-3 batch): an object that ends inside them
  // (at most grow_limit of them) parses from them alone, to the very result the requests would
  // give (the parser decides from no byte past where it stops), without a kernel call, and
  // without a retry when it is longer than the first request. Else the requests are made after
  // all: their errors stay those of a read of bytes that are not held.
  const bool parsed_from_held = [&] {
    const std::uint64_t held = std::min(source_.held_from(offset), grow_limit);
    if (held == 0) return false;
    const std::uint64_t charged = impl_->object_charge;
    Parser parser(source_.map(offset, static_cast<std::size_t>(held)), static_cast<std::size_t>(held), offset, false,
                  limits_, file, part);
    try {
      parse(parser);
      return true;
    } catch (const NeedMore&) {
    } catch (const Error&) {
    }
    give_back(charged);
    return false;
  }();
  // Requests of 4 KiB, then 8x larger up to grow_limit, until the object ends inside one.
  for (std::uint64_t want = 4096; !parsed_from_held; want = std::min(want * 8, grow_limit)) {
    const std::uint64_t available = size - offset;
    const auto span = static_cast<std::size_t>(std::min(want, available));
    const std::uint64_t charged = impl_->object_charge;
    Parser parser(source_.map(offset, span), span, offset, span == available, limits_, file, part);
    try {
      parse(parser);
      break;
    } catch (const NeedMore&) {
      stats_.parsed_bytes += span;
      if (want >= grow_limit) {
        throw Error(ErrorKind::limit, {file, part.str(), offset},
                    "object is larger than " + std::to_string(grow_limit) + " bytes (max_object_bytes)");
      }
      give_back(charged);
    } catch (const Error&) {
      stats_.parsed_bytes += parser.pos();
      throw;
    }
  }
  if (object.kind != Kind::stream) return;

  const Object* length = object.get("Length");
  if (length != nullptr && length->kind == Kind::ref) {
    if (!check_header) throw Error(ErrorKind::format, {file, part.str(), offset}, "xref stream /Length must be a direct integer");
    const Object resolved = resolve(*length);
    if (resolved.kind != Kind::integer || resolved.integer < 0) {
      throw Error(ErrorKind::format, {file, part.str(), offset}, "stream /Length reference does not resolve to an integer >= 0");
    }
    object.stream_length = static_cast<std::uint64_t>(resolved.integer);
  } else if (length == nullptr || length->kind != Kind::integer || length->integer < 0) {
    throw Error(ErrorKind::format, {file, part.str(), offset}, "stream without an integer /Length >= 0");
  } else {
    object.stream_length = static_cast<std::uint64_t>(length->integer);
  }
  const std::uint64_t end = object.stream_offset + object.stream_length;
  if (object.stream_length > size || end > size) {
    throw Error(ErrorKind::format, {file, part.str(), object.stream_offset},
                "stream /Length " + std::to_string(object.stream_length) + " runs past the end of the file");
  }
  // endstream, then endobj, each after any white space and comments: 64 bytes hold them in
  // almost every file; more are read while the bytes run out inside that space.
  for (std::uint64_t want = 64;; want = std::min(want * 8, grow_limit)) {
    const auto span = static_cast<std::size_t>(std::min(want, size - end));
    Parser tail(source_.map(end, span), span, end, span == size - end, limits_, file, part);
    try {
      if (!tail.try_keyword("endstream")) {
        throw Error(ErrorKind::format, {file, part.str(), end},
                    "stream /Length " + std::to_string(object.stream_length) + " does not end at 'endstream'");
      }
      if (!tail.try_keyword("endobj")) tail.fail("expected 'endobj' after 'endstream'");
      return;
    } catch (const NeedMore&) {
      if (want >= grow_limit) {
        throw Error(ErrorKind::limit, {file, part.str(), end},
                    "white space after the stream is longer than " + std::to_string(grow_limit) + " bytes (max_object_bytes)");
      }
    }
  }
}

Object Document::object(std::uint32_t num) {
  Object object;
  this->object(num, object);
  return object;
}

void Document::object(std::uint32_t num, Object& into) {
  // A new request: the objects parsed for the last one are the caller's now, or gone.
  if (impl_->fetching.empty()) memory_->release(std::exchange(impl_->object_charge, 0));
  const XrefEntry entry = num < xref().size() ? xref()[num] : XrefEntry{};
  if (entry.type == XrefEntry::Type::offset) {
    FetchGuard guard(impl_->fetching, num, *this);
    read_at(object_offset(num, entry), num, entry.gen, true, into);
    // Strings of objects in an object stream were decrypted with the stream; the /Encrypt
    // dictionary's and an xref stream's are never encrypted.
    if (security_ && num != encrypt_num_ && !(into.kind == Kind::stream && is_xref_stream(into))) {
      security_->decrypt_strings(into, {num, entry.gen}, {source_.name(), object_part(num, entry.gen), entry.offset});
    }
  } else if (entry.type == XrefEntry::Type::compressed) {
    FetchGuard guard(impl_->fetching, num, *this);
    compressed(num, entry, into);
  } else {
    into = Object{};
  }
}

std::uint64_t Document::object_offset(std::uint32_t num, const XrefEntry& entry) {
  for (const ChainStream& stream : chain_streams_) {
    if (stream.id.num == num && stream.id.gen == entry.gen) {
      return stream.offset == entry.offset || holds_header(entry.offset, num, entry.gen) ? entry.offset : stream.offset;
    }
  }
  return entry.offset;
}

std::optional<Error> Document::strict_read_fault() {
  for (std::uint32_t num = 1; num < xref().size(); ++num) {
    const XrefEntry& entry = xref()[num];
    if (entry.type != XrefEntry::Type::offset) continue;
    const std::uint64_t offset = object_offset(num, entry);
    if (!holds_header(offset, num, entry.gen)) {
      return Error(ErrorKind::format, {source_.name(), object_part(num, entry.gen), offset},
                   "the xref entry points at no 'N G obj' with its number and generation");
    }
  }
  try {
    catalog();
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::format && e.kind() != ErrorKind::limit) throw;
    return e;
  }
  drop_caches();
  return std::nullopt;
}

bool Document::holds_header(std::uint64_t offset, std::uint32_t num, std::uint32_t gen) {
  if (offset >= source_.size()) return false;
  const auto span = static_cast<std::size_t>(std::min<std::uint64_t>(source_.size() - offset, 4096));
  Parser probe(source_.map(offset, span), span, offset, true, limits_, source_.name(), "object header");
  try {
    if (probe.parse_uint("object number") != num || probe.parse_uint("generation number") != gen) return false;
    probe.expect_keyword("obj");
    return true;
  } catch (const Error&) {
    return false;
  }
}

std::optional<std::uint64_t> Document::where(std::uint32_t num) const {
  if (num >= xref().size()) return std::nullopt;
  const XrefEntry& entry = xref()[num];
  if (entry.type == XrefEntry::Type::offset) return entry.offset;
  if (entry.type == XrefEntry::Type::compressed && entry.offset < xref().size() &&
      xref()[entry.offset].type == XrefEntry::Type::offset) {
    return xref()[entry.offset].offset;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> Document::entry_section_offset(std::uint32_t num) const {
  if (num >= xref().size() || xref()[num].type == XrefEntry::Type::absent) return std::nullopt;
  const std::uint32_t section = xref()[num].section;
  if (section >= sections_.size()) return std::nullopt;
  return sections_[section].offset + header_offset_;
}

std::optional<std::uint64_t> Document::where(const Object* ref) const {
  if (ref == nullptr || ref->kind != Kind::ref || ref->integer < 0 || ref->integer > static_cast<std::int64_t>(UINT32_MAX)) {
    return std::nullopt;
  }
  return where(static_cast<std::uint32_t>(ref->integer));
}

Object Document::resolve(const Object& value) {
  if (value.kind != Kind::ref) return value;
  Object current = value;
  for (std::uint32_t hops = 0; current.kind == Kind::ref; ++hops) {
    if (hops >= limits_.max_depth) {
      throw Error(ErrorKind::format, {source_.name(), object_part(static_cast<std::uint32_t>(value.integer), value.gen), where(&value)},
                  "reference chain does not end (loop or more than max_depth hops)");
    }
    if (current.integer < 0 || current.integer > static_cast<std::int64_t>(UINT32_MAX)) return {};
    const auto num = static_cast<std::uint32_t>(current.integer);
    if (num >= xref().size()) return {};
    const XrefEntry& entry = xref()[num];
    const std::uint32_t expected_gen = entry.type == XrefEntry::Type::compressed ? 0 : entry.gen;
    if (current.gen != expected_gen) return {};  // a reference to another generation is a dangling one
    current = object(num);
  }
  return current;
}

std::string Document::stream_raw(const Object& stream, ObjectId id) {
  if (stream.kind != Kind::stream) {
    throw Error(ErrorKind::usage, {source_.name(), "", std::nullopt}, "not a stream object");
  }
  std::string raw(static_cast<std::size_t>(stream.stream_length), '\0');
  source_.read(stream.stream_offset, raw.size(), raw.data());
  if (!security_) return raw;
  const ErrorContext where{source_.name(), object_part(id.num, id.gen), stream.stream_offset};
  return security_->decrypt(raw, id, security_->stream_method(filters_resolved(stream), where), where);
}

Object Document::filters_resolved(const Object& stream) {
  Object dict = stream;
  // Filter chains may use references; resolve the two keys the decoder reads.
  for (const char* key : {"Filter", "DecodeParms"}) {
    if (const Object* value = stream.get(key); value != nullptr && value->kind == Kind::ref) dict.set(key, resolve(*value));
  }
  return dict;
}

std::string Document::stream_decoded(const Object& stream, ObjectId id, const std::string& part) {
  Object dict = filters_resolved(stream);
  // Decode straight from the source's bytes: the view stays valid because decoding makes no
  // further request to the source.
  std::string_view raw(reinterpret_cast<const char*>(source_.map(stream.stream_offset, stream.stream_length)),
                       static_cast<std::size_t>(stream.stream_length));
  std::string decrypted;
  if (security_) {
    const ErrorContext where{source_.name(), part, stream.stream_offset};
    const CryptMethod method = security_->stream_method(dict, where);
    dict = without_crypt_filter(dict);
    if (method != CryptMethod::identity) {
      decrypted = security_->decrypt(raw, id, method, where);
      raw = decrypted;
    }
  }
  const auto start = std::chrono::steady_clock::now();
  std::string decoded;
  try {
    // Offsets inside decrypted bytes are not file offsets: errors there name the stream's start.
    decoded = decode_stream(dict, raw, FilterContext{source_.name(), part, limits_, stream.stream_offset, decrypted.empty()});
  } catch (const std::bad_alloc&) {
    throw allocation_failure({source_.name(), part, stream.stream_offset});
  }
  stats_.inflate_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return decoded;
}

Object Document::catalog() {
  const Object* root = trailer_.get("Root");
  Object catalog = root != nullptr ? resolve(*root) : Object{};
  if (catalog.kind != Kind::dict) {
    // Where the trailer's /Root points, when it points into the file; else the newest section.
    std::optional<std::uint64_t> at = where(root);
    if (!at && !sections_.empty()) at = sections_.front().offset;
    throw Error(ErrorKind::format, {source_.name(), "trailer", at}, "/Root is not a dictionary");
  }
  return catalog;
}

Object Document::info() {
  const Object* info = trailer_.get("Info");
  return info != nullptr ? resolve(*info) : Object{};
}

}  // namespace docconform::pdf
