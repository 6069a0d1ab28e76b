// The xlsx mutators: zip level (parts dropped, duplicated, renamed, reordered, their method and
// header fields changed) and XML level (elements, attributes, cell references, numbers, text,
// entities, encodings) on one part. Zips are read and written with libzip (build_zip); a
// duplicate entry and a header field that lies, which libzip will not write, are patched into
// its output.
#include <zip.h>

#include <cstring>

#include "docconform/error.h"
#include "docconform/xlsx/generator.h"
#include "mine_mutators.h"

namespace docconform::cli {
namespace {

std::uint32_t get32(const std::string& s, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}
std::uint16_t get16(const std::string& s, std::size_t at) {
  return static_cast<std::uint16_t>(static_cast<unsigned char>(s[at]) | (static_cast<unsigned char>(s[at + 1]) << 8));
}
void put32(std::string& s, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) s[at + static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xFF);
}
void put16(std::string& s, std::size_t at, std::uint16_t v) {
  s[at] = static_cast<char>(v & 0xFF);
  s[at + 1] = static_cast<char>(v >> 8);
}

// The end-of-central-directory record's offset, or npos.
std::size_t find_eocd(const std::string& zip) {
  if (zip.size() < 22) return std::string::npos;
  for (std::size_t at = zip.size() - 22;; --at) {
    if (zip.compare(at, 4, "PK\x05\x06") == 0) return at;
    if (at == 0 || zip.size() - at > 22 + 65535) return std::string::npos;
  }
}

// The central directory entries' offsets (while they are well formed).
std::vector<std::size_t> central_entries(const std::string& zip, std::size_t eocd) {
  std::vector<std::size_t> entries;
  std::size_t at = get32(zip, eocd + 16);
  const std::size_t count = get16(zip, eocd + 10);
  while (entries.size() < count && at + 46 <= eocd && zip.compare(at, 4, "PK\x01\x02") == 0) {
    entries.push_back(at);
    at += 46 + get16(zip, at + 28) + get16(zip, at + 30) + get16(zip, at + 32);
  }
  return entries;
}

std::size_t central_size(const std::string& zip, std::size_t entry) {
  return 46 + get16(zip, entry + 28) + get16(zip, entry + 30) + get16(zip, entry + 32);
}

// A header field of one entry changed: its method, CRC or sizes, in its local or central header.
std::string patch_header(const std::string& zip, Mutator& m, std::string& step) {
  const std::size_t eocd = find_eocd(zip);
  if (eocd == std::string::npos) return mutate_bytes(zip, m, step);
  const auto entries = central_entries(zip, eocd);
  if (entries.empty()) return mutate_bytes(zip, m, step);
  std::string out = zip;
  const std::size_t e = m.below(entries.size());
  const std::size_t central = entries[e];
  const std::size_t local = get32(zip, central + 42);
  const bool in_local = m.below(2) == 0 && local + 30 <= zip.size() && zip.compare(local, 4, "PK\x03\x04") == 0;
  const std::size_t base = in_local ? local : central;
  // Field offsets: local method 8, crc 14, sizes 18/22; central 10, 16, 20/24.
  const std::size_t shift = in_local ? 0 : 2;
  static const std::vector<std::string> fields{"method", "crc", "compressed_size", "uncompressed_size"};
  const std::size_t f = m.below(fields.size());
  if (f == 0) {
    static const std::vector<std::uint16_t> methods{0, 8, 9, 12, 99, 1};
    const std::uint16_t method = m.choose(methods);
    put16(out, base + 8 + shift, method);
    step = "zip.header entry " + std::to_string(e) + (in_local ? " local" : " central") + ": method " + std::to_string(method);
    return out;
  }
  const std::size_t at = base + (f == 1 ? 14 : f == 2 ? 18 : 22) + shift;
  const std::uint32_t old = get32(out, at);
  const std::vector<std::uint32_t> values{0, old + 1, old - 1, old * 2, 0xFFFFFFFFU};
  const std::uint32_t value = m.choose(values);
  put32(out, at, value);
  step = "zip.header entry " + std::to_string(e) + (in_local ? " local " : " central ") + fields[f] + ": " +
         std::to_string(old) + " -> " + std::to_string(value);
  return out;
}

// A central directory entry given twice: two parts of one name over the same data.
std::string duplicate_entry(const std::string& zip, Mutator& m, std::string& step) {
  const std::size_t eocd = find_eocd(zip);
  if (eocd == std::string::npos) return mutate_bytes(zip, m, step);
  const auto entries = central_entries(zip, eocd);
  if (entries.empty() || entries.size() >= 0xFFFF) return mutate_bytes(zip, m, step);
  const std::size_t e = m.below(entries.size());
  const std::string copy = zip.substr(entries[e], central_size(zip, entries[e]));
  std::string out = zip;
  out.insert(entries[e] + copy.size(), copy);
  const std::size_t moved = eocd + copy.size();
  put16(out, moved + 8, static_cast<std::uint16_t>(get16(out, moved + 8) + 1));
  put16(out, moved + 10, static_cast<std::uint16_t>(get16(out, moved + 10) + 1));
  put32(out, moved + 12, get32(out, moved + 12) + static_cast<std::uint32_t>(copy.size()));
  step = "zip.duplicate entry " + std::to_string(e);
  return out;
}

std::string renamed(const std::string& name, Mutator& m, std::string& how) {
  switch (m.below(5)) {
    case 0: {
      std::string upper = name;
      for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
      how = "upper case";
      return upper;
    }
    case 1: how = "leading slash"; return "/" + name;
    case 2: how = "backslashes"; {
        std::string back = name;
        for (char& c : back) c = c == '/' ? '\\' : c;
        return back;
      }
    case 3: how = "suffix"; return name + ".bak";
    default: how = "dot segment"; return "./" + name;
  }
}

// The elements' start positions: '<' not starting an end tag, a declaration or a comment.
std::vector<std::size_t> element_starts(const std::string& xml) {
  std::vector<std::size_t> starts;
  for (std::size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at + 1)) {
    if (at + 1 < xml.size() && xml[at + 1] != '/' && xml[at + 1] != '?' && xml[at + 1] != '!') starts.push_back(at);
  }
  return starts;
}

// The end (one past) of the element starting at `start`: its self-closing tag, or its end tag
// found by counting nested elements of its name; npos when unbalanced.
std::size_t element_end(const std::string& xml, std::size_t start) {
  const std::size_t tag_end = xml.find('>', start);
  if (tag_end == std::string::npos) return std::string::npos;
  if (xml[tag_end - 1] == '/') return tag_end + 1;
  std::size_t name_end = start + 1;
  while (name_end < tag_end && xml[name_end] != ' ' && xml[name_end] != '>' && xml[name_end] != '/' && xml[name_end] != '\t' &&
         xml[name_end] != '\n' && xml[name_end] != '\r') {
    ++name_end;
  }
  const std::string name = xml.substr(start + 1, name_end - start - 1);
  int depth = 1;
  for (std::size_t at = xml.find('<', tag_end); at != std::string::npos; at = xml.find('<', at + 1)) {
    const bool closing = xml.compare(at + 1, 1, "/") == 0;
    const std::size_t n = at + (closing ? 2 : 1);
    if (xml.compare(n, name.size(), name) != 0) continue;
    const char after = n + name.size() < xml.size() ? xml[n + name.size()] : '\0';
    if (after != '>' && after != ' ' && after != '/' && after != '\t' && after != '\n' && after != '\r') continue;
    if (closing) {
      if (--depth == 0) {
        const std::size_t close = xml.find('>', at);
        return close == std::string::npos ? close : close + 1;
      }
    } else {
      const std::size_t e = xml.find('>', at);
      if (e != std::string::npos && xml[e - 1] != '/') ++depth;
    }
  }
  return std::string::npos;
}

// The attribute values' spans (after the opening quote, to the closing one) and names' starts.
struct Attribute {
  std::size_t name;
  std::size_t value;
  std::size_t value_end;
};
std::vector<Attribute> attributes(const std::string& xml) {
  std::vector<Attribute> found;
  for (std::size_t eq = xml.find("=\""); eq != std::string::npos; eq = xml.find("=\"", eq + 1)) {
    std::size_t name = eq;
    while (name > 0 && xml[name - 1] != ' ' && xml[name - 1] != '<' && xml[name - 1] != '\n' && xml[name - 1] != '\t') --name;
    const std::size_t close = xml.find('"', eq + 2);
    if (close == std::string::npos || name == eq || xml[name - 1] == '<') continue;
    found.push_back({name, eq + 2, close});
  }
  return found;
}

// Spans of text between tags (non-empty).
std::vector<std::pair<std::size_t, std::size_t>> texts(const std::string& xml) {
  std::vector<std::pair<std::size_t, std::size_t>> found;
  for (std::size_t gt = xml.find('>'); gt != std::string::npos; gt = xml.find('>', gt + 1)) {
    const std::size_t lt = xml.find('<', gt);
    if (lt != std::string::npos && lt > gt + 1) found.emplace_back(gt + 1, lt);
  }
  return found;
}

// UTF-8 to UTF-16LE with a BOM (ill-formed bytes as U+FFFD).
std::string utf16le(const std::string& utf8) {
  std::string out = "\xFF\xFE";
  const auto unit = [&](std::uint32_t u) {
    out += static_cast<char>(u & 0xFF);
    out += static_cast<char>(u >> 8);
  };
  for (std::size_t i = 0; i < utf8.size();) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    const std::size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    std::uint32_t cp = n == 1 ? b : n == 2 ? b & 0x1F : n == 3 ? b & 0x0F : b & 0x07;
    bool ok = n != 0 && i + n <= utf8.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto c = static_cast<unsigned char>(utf8[i + k]);
      ok = (c & 0xC0) == 0x80;
      cp = (cp << 6) | (c & 0x3F);
    }
    if (!ok) {
      unit(0xFFFD);
      ++i;
      continue;
    }
    if (cp >= 0x10000) {
      unit(0xD800 + ((cp - 0x10000) >> 10));
      unit(0xDC00 + ((cp - 0x10000) & 0x3FF));
    } else {
      unit(cp);
    }
    i += n;
  }
  return out;
}

std::string at_text(std::size_t at) { return "@" + std::to_string(at); }

}  // namespace

std::optional<std::vector<ZipPart>> read_zip(const std::string& bytes) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  zip_t* zip = source == nullptr ? nullptr : zip_open_from_source(source, ZIP_RDONLY, &error);
  zip_error_fini(&error);
  if (zip == nullptr) {
    if (source != nullptr) zip_source_free(source);
    return std::nullopt;
  }
  std::vector<ZipPart> parts;
  bool ok = true;
  const zip_int64_t count = zip_get_num_entries(zip, 0);
  for (zip_int64_t i = 0; ok && i < count; ++i) {
    zip_stat_t st;
    ok = zip_stat_index(zip, static_cast<zip_uint64_t>(i), 0, &st) == 0 && (st.valid & ZIP_STAT_SIZE) != 0 &&
         st.size <= bytes.size() * 1032 + 1024;  // deflate's ratio is at most 1032:1
    if (!ok) break;
    zip_file_t* file = zip_fopen_index(zip, static_cast<zip_uint64_t>(i), 0);
    if (file == nullptr) {
      ok = false;
      break;
    }
    ZipPart part{st.name, std::string(static_cast<std::size_t>(st.size), '\0'), st.comp_method == ZIP_CM_STORE};
    ok = zip_fread(file, part.data.data(), part.data.size()) == static_cast<zip_int64_t>(part.data.size());
    zip_fclose(file);
    parts.push_back(std::move(part));
  }
  zip_discard(zip);
  if (!ok) return std::nullopt;
  return parts;
}

std::string write_zip(const std::vector<ZipPart>& parts) {
  std::vector<std::pair<std::string, std::string>> entries;
  std::vector<bool> stored;
  for (const ZipPart& p : parts) {
    entries.emplace_back(p.name, p.data);
    stored.push_back(p.stored);
  }
  return xlsx::build_zip(entries, stored);
}

std::string mutate_xml(const std::string& xml, Mutator& m, std::string& step) {
  std::string out = xml;
  switch (m.below(7)) {
    case 0: {
      const auto starts = element_starts(xml);
      if (starts.empty()) break;
      const std::size_t start = m.choose(starts);
      const std::size_t end = element_end(xml, start);
      if (end == std::string::npos) break;
      const std::size_t how = m.below(3);
      if (how == 0) {
        out.erase(start, end - start);
        step = "xml.element " + at_text(start) + ": delete";
      } else if (how == 1) {
        out.insert(end, xml.substr(start, end - start));
        step = "xml.element " + at_text(start) + ": duplicate";
      } else {
        out.insert(start + 1, "x");
        if (xml[end - 2] != '/') out.insert(xml.rfind("</", end) + 3, "x");
        step = "xml.element " + at_text(start) + ": rename";
      }
      return out;
    }
    case 1: {
      const auto found = attributes(xml);
      if (found.empty()) break;
      const Attribute a = m.choose(found);
      const std::size_t how = m.below(4);
      if (how == 0) {
        out.erase(a.name - 1, a.value_end + 1 - (a.name - 1));
        step = "xml.attribute " + at_text(a.name) + ": delete";
      } else if (how == 1) {
        out.insert(a.value_end + 1, " " + xml.substr(a.name, a.value_end + 1 - a.name));
        step = "xml.attribute " + at_text(a.name) + ": duplicate";
      } else if (how == 2) {
        out.replace(a.value, a.value_end - a.value, "");
        step = "xml.attribute " + at_text(a.name) + ": empty value";
      } else {
        out[a.value - 1] = '\'';
        out[a.value_end] = '\'';
        step = "xml.attribute " + at_text(a.name) + ": single quotes";
      }
      return out;
    }
    case 2: {
      std::vector<Attribute> refs;
      for (const Attribute& a : attributes(xml)) {
        if (xml.compare(a.name, 3, "r=\"") == 0 || xml.compare(a.name, 5, "ref=\"") == 0) refs.push_back(a);
      }
      if (refs.empty()) break;
      static const std::vector<std::string> values{"A0", "a1", "XFD1048576", "XFE1", "A1048577", "1A", "AAAA1", "A01", "$A$1", "A1:A1", ""};
      const Attribute a = m.choose(refs);
      const std::string& value = m.choose(values);
      out.replace(a.value, a.value_end - a.value, value);
      step = "xml.reference " + at_text(a.value) + ": \"" + value + "\"";
      return out;
    }
    case 3: {
      std::vector<std::pair<std::size_t, std::size_t>> numbers;
      for (std::size_t i = 0; i < xml.size();) {
        if (xml[i] < '0' || xml[i] > '9') {
          ++i;
          continue;
        }
        std::size_t j = i;
        while (j < xml.size() && ((xml[j] >= '0' && xml[j] <= '9') || xml[j] == '.')) ++j;
        numbers.emplace_back(i, j);
        i = j;
      }
      if (numbers.empty()) break;
      static const std::vector<std::string> values{"0", "-1", "1e308", "1E+400", "2147483648", "4294967296", "-0", "0.1",
                                                   "NaN", "INF", " 1", "00012", "18446744073709551616", "1.7976931348623157e308",
                                                   "4.9e-324", "1,5", "0x10"};
      const auto [from, to] = m.choose(numbers);
      const std::string& value = m.choose(values);
      out.replace(from, to - from, value);
      step = "xml.number " + at_text(from) + ": \"" + value + "\"";
      return out;
    }
    case 4: {
      const auto spans = texts(xml);
      if (spans.empty()) break;
      static const std::vector<std::string> inserts{"\t", "\r\n", " ", "_x0000_", "_xD800_", "_x000D_", "\xEF\xBF\xBF", "\xC3",
                                                    "\xED\xA0\x80", "\xF0\x9D\x84\x9E", "]]>", "<![CDATA[x]]>", "\x01"};
      const auto [from, to] = m.choose(spans);
      const std::size_t at = from + m.below(to - from + 1);
      const std::size_t which = m.below(inserts.size());
      out.insert(at, inserts[which]);
      step = "xml.text " + at_text(at) + ": insert " + std::to_string(which);
      return out;
    }
    case 5: {
      const auto spans = texts(xml);
      if (spans.empty()) break;
      static const std::vector<std::string> entities{"&amp;", "&#0;", "&#x1F600;", "&#xD800;", "&bogus;", "&lt", "&#65;",
                                                     "&#x110000;", "&#9;", "&#13;", "&#x0A;", "&quot;", "&#xFFFE;"};
      const auto [from, to] = m.choose(spans);
      const std::size_t at = from + m.below(to - from + 1);
      const std::string& entity = m.choose(entities);
      out.insert(at, entity);
      step = "xml.entity " + at_text(at) + ": " + entity;
      return out;
    }
    default: {
      const std::size_t how = m.below(4);
      const std::size_t decl = xml.find("encoding=\"");
      if (how == 0 && decl != std::string::npos) {
        static const std::vector<std::string> names{"UTF-16", "ISO-8859-1", "bogus", "", "utf-8", "US-ASCII", "windows-1252"};
        const std::size_t close = xml.find('"', decl + 10);
        const std::string& name = m.choose(names);
        if (close != std::string::npos) out.replace(decl + 10, close - decl - 10, name);
        step = "xml.encoding declaration: \"" + name + "\"";
      } else if (how == 1) {
        out.insert(0, "\xEF\xBB\xBF");
        step = "xml.encoding: UTF-8 BOM";
      } else if (how == 2) {
        out = utf16le(xml);
        step = "xml.encoding: UTF-16LE with BOM";
      } else {
        const std::size_t end = xml.rfind("?>", 200);
        if (end == std::string::npos) break;
        out.erase(0, end + 2);
        step = "xml.encoding: declaration removed";
      }
      return out;
    }
  }
  return mutate_bytes(xml, m, step);
}

namespace {

// One zip-level or XML-level mutation of the parts, written as a zip.
std::string mutate_parts(const std::string& input, std::vector<ZipPart>& parts, Mutator& m, std::string& step) {
  const std::size_t i = m.below(parts.size());
  const std::string name = parts[i].name;
  const std::size_t how = m.below(10);
  if (how >= 4) {
    // XML level, on an XML part (any part when none is).
    std::vector<std::size_t> xml;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::string& n = parts[k].name;
      if (n.ends_with(".xml") || n.ends_with(".rels")) xml.push_back(k);
    }
    const std::size_t k = xml.empty() ? i : m.choose(xml);
    std::string what;
    parts[k].data = mutate_xml(parts[k].data, m, what);
    step = what + " in " + parts[k].name;
    return write_zip(parts);
  }
  switch (how) {
    case 0:
      if (m.below(2) == 0) return patch_header(input, m, step);
      parts.erase(parts.begin() + static_cast<std::ptrdiff_t>(i));
      step = "zip.drop " + name;
      break;
    case 1:
      if (m.below(2) == 0) return duplicate_entry(input, m, step);
      parts[i].stored = !parts[i].stored;
      step = std::string("zip.method ") + name + ": " + (parts[i].stored ? "stored" : "deflated");
      break;
    case 2: {
      std::string how_text;
      parts[i].name = renamed(name, m, how_text);
      step = "zip.rename " + name + ": " + how_text;
      break;
    }
    default: {
      const std::size_t j = m.below(parts.size());
      std::swap(parts[i], parts[j]);
      step = "zip.reorder " + name + " <-> " + parts[i].name;
      break;
    }
  }
  return write_zip(parts);
}

}  // namespace

std::string mutate_xlsx(const std::string& input, Mutator& m, std::string& step) {
  auto parts = read_zip(input);
  if (!parts || parts->empty()) return mutate_bytes(input, m, step);
  // Two parts of one name (a duplicated entry, a rename that met another part): libzip writes
  // no such zip, so the mutation falls back to bytes.
  try {
    return mutate_parts(input, *parts, m, step);
  } catch (const Error&) {
    return mutate_bytes(input, m, step);
  }
}

}  // namespace docconform::cli
