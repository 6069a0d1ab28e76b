// The direct, lazy PDF reader: opening reads only the cross-reference chain; objects are parsed
// when asked for; object streams are inflated on first use and kept in a small cluster cache.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docconform/budget.h"
#include "docconform/pdf/limits.h"
#include "docconform/pdf/object.h"
#include "docconform/pdf/source.h"

namespace docconform::pdf {

struct XrefEntry {
  enum class Type : std::uint8_t { absent, free, offset, compressed };
  Type type = Type::absent;
  std::uint32_t gen = 0;        // generation (offset and free entries)
  std::uint64_t offset = 0;     // offset: byte offset of `N G obj`; compressed: object stream number
  std::uint32_t index = 0;      // compressed: index inside the object stream
  std::uint32_t section = 0;    // the entry's section, an index into Document::sections()
};

// One cross-reference section of the /Prev chain, newest first.
struct XrefSection {
  enum class Form : std::uint8_t { table, stream, hybrid };
  std::uint64_t offset = 0;  // of `xref` or of the xref stream's `N G obj`
  Form form = Form::table;
  std::uint32_t entries = 0;  // entries this section lists (both parts of a hybrid)
};

const char* to_string(XrefSection::Form form);

struct PageInfo {
  std::uint32_t index = 0;  // 0-based position in the page tree
  ObjectId id;
  Object media_box, crop_box, rotate;  // after inheritance, resolved; null when absent
  // After inheritance, as written (a reference is not resolved); nullptr when absent. Points
  // into the walk's own copy of the tree: valid only during the visit call.
  const Object* resources = nullptr;
};

class SecurityHandler;

struct ReaderStats {
  std::uint64_t objects_parsed = 0;
  std::uint64_t parsed_bytes = 0;  // object syntax the parser went through (failed attempts included)
  std::uint64_t objstm_inflated = 0;  // object streams decoded (cache misses)
  std::uint64_t objstm_cache_hits = 0;
  double inflate_seconds = 0;  // time spent in zlib (xref and object streams)
};

// What a Document does with a file whose cross-reference chain cannot be read as written.
enum class Recovery : std::uint8_t {
  strict,   // the error is thrown
  rebuild,  // the xref is rebuilt from a scan of the file, and repairs() says so
};

class Document {
 public:
  // Reads the header, startxref and the whole cross-reference chain, and, when the trailer has
  // /Encrypt, opens the standard security handler with `password` (tried as the user password,
  // then as the owner password; empty = the empty user password). Throws Error; a password that
  // opens nothing is Error(unsupported) saying a password is needed. With Recovery::rebuild, a
  // chain that fails, an in-use entry that does not point at its object, or a trailer without a
  // catalogue makes the reader rebuild the xref from a scan.
  Document(ByteSource& source, Limits limits = {}, std::string_view password = {}, Recovery recovery = Recovery::strict);
  // A second reader of an opened document over another source of the same bytes
  // (ByteSource::another()): it takes the cross-reference data already read instead of reading
  // the chain again, and shares no mutable state with `indexed`, so each can serve a thread.
  Document(ByteSource& source, const Document& indexed);
  ~Document();
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  const std::string& header_version() const { return header_version_; }
  const Object& trailer() const { return trailer_; }
  // The repairs recovery made, each naming its offset; empty when the strict read succeeded.
  const std::vector<std::string>& repairs() const { return repairs_; }
  const std::vector<XrefEntry>& xref() const { return *xref_; }
  const std::vector<XrefSection>& sections() const { return sections_; }
  // Where the section that lists object num's entry starts in the file (errors about an entry
  // point there); nothing for an object no section lists.
  std::optional<std::uint64_t> entry_section_offset(std::uint32_t num) const;
  // The offset startxref gives (of the newest section), as written.
  std::uint64_t startxref() const { return startxref_; }
  // Bytes before %PDF-: every offset in the file counts from the header (PDF 2.0 §7.5.2).
  std::uint64_t header_offset() const { return header_offset_; }

  // The object with this number as the merged xref says; a free or absent number is null
  // (§7.3.10). Throws Error naming the object and offset when it cannot be read.
  Object object(std::uint32_t num);
  // The same, written over `into` and reusing the strings and lists it owns: a sweep that reads
  // object after object into one Object allocates only when one outgrows the last. `into` is
  // unspecified after a throw.
  void object(std::uint32_t num, Object& into);
  // Where an object's bytes start (its object stream's, when compressed), for error messages;
  // none for free, absent or unplaceable numbers.
  std::optional<std::uint64_t> where(std::uint32_t num) const;
  // The same for the object a reference value points at; nullopt for anything else.
  std::optional<std::uint64_t> where(const Object* ref) const;
  // Follows a chain of references to a direct object (null for a dangling ref).
  Object resolve(const Object& value);
  // The raw (still encoded, but decrypted) data of stream object id, and the decoded data
  // (FlateDecode only).
  std::string stream_raw(const Object& stream, ObjectId id);
  std::string stream_decoded(const Object& stream, ObjectId id, const std::string& part);
  // The dump's `encrypt` line (conformance/SPEC.md) without its line end; empty for a file
  // without /Encrypt.
  std::string encryption() const;

  Object catalog();
  Object info();  // null when the trailer has no /Info
  // Walks the page tree (inherited attributes, loop and depth checks); returns the page count.
  std::uint64_t walk_pages(const std::function<void(const PageInfo&)>& visit);
  std::uint64_t page_count();

  ByteSource& source() { return source_; }
  const Limits& limits() const { return limits_; }
  // The load's memory budget (Limits::max_memory), shared by every reader of the document.
  Budget& memory() { return *memory_; }
  // Frees the decoded object streams this reader keeps and the objects it last parsed (their
  // charge to memory() with them); what it reads next is read again.
  void drop_caches();
  const ReaderStats& stats() const { return stats_; }
  // The in-use object numbers ordered by where their bytes are: an object's own offset, or its
  // object stream's offset then its index. Visiting objects in this order sweeps the file
  // forward once and inflates each object stream once (the indexing pass).
  std::vector<std::uint32_t> objects_in_file_order() const;

  struct Impl;

 private:
  void read_at(std::uint64_t offset, std::uint32_t num, std::uint32_t gen, bool check_header, Object& object);
  // Where object num's bytes are read from: the entry's offset, or the chain's copy of an xref
  // stream whose entry does not point at it.
  std::uint64_t object_offset(std::uint32_t num, const XrefEntry& entry);
  bool holds_header(std::uint64_t offset, std::uint32_t num, std::uint32_t gen);
  void compressed(std::uint32_t num, const XrefEntry& entry, Object& object);
  void load_xref();
  void read_header();
  // Why a strictly read file would not serve a dump (an in-use entry that misses its object, a
  // trailer without a catalogue), as the error strict reading would meet; nullopt when it serves.
  std::optional<Error> strict_read_fault();
  void rebuild_xref(const Error& cause);
  // The direct object at offset (a trailer dictionary), parsed_bytes counted.
  Object parse_at(std::uint64_t offset, const char* part);
  void open_security(std::string_view password);
  // The stream's dictionary with /Filter and /DecodeParms resolved.
  Object filters_resolved(const Object& stream);

  ByteSource& source_;
  Limits limits_;
  std::shared_ptr<Budget> memory_;
  std::string header_version_;
  std::uint64_t header_offset_ = 0;
  std::uint64_t startxref_ = 0;
  Object trailer_;
  // Never changes once read, so the readers of one document share it instead of copying it.
  std::shared_ptr<const std::vector<XrefEntry>> xref_ = std::make_shared<const std::vector<XrefEntry>>();
  std::vector<XrefSection> sections_;
  // The xref streams read in the chain, newest first, and where (absolute): an in-use entry for one of them
  // that does not point at it is read from there (conformance/SPEC.md format pdf, rule 6).
  struct ChainStream {
    ObjectId id;
    std::uint64_t offset = 0;
  };
  std::vector<ChainStream> chain_streams_;
  std::vector<std::string> repairs_;
  ReaderStats stats_;
  // Shared, never changed once opened; null for a file without /Encrypt.
  std::shared_ptr<const SecurityHandler> security_;
  std::uint32_t encrypt_num_ = 0;  // the /Encrypt dictionary's object number (its strings are plain); 0 = direct
  std::unique_ptr<Impl> impl_;
};

}  // namespace docconform::pdf
