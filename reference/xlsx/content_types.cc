#include "content_types.h"

#include <algorithm>
#include <array>

#include "docconform/error.h"
#include "rich_text.h"
#include "walk.h"
#include "xml_text.h"

namespace docconform::xlsx {
namespace {

std::string ascii_lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c); });
  return text;
}

// The text after the last '.' of the last segment, lowercase; "" when there is none.
std::string extension_of(std::string_view part) {
  const std::string_view name = part.substr(part.find_last_of('/') + 1);
  const auto dot = name.rfind('.');
  return dot == std::string_view::npos ? "" : ascii_lower(std::string(name.substr(dot + 1)));
}

// Accepted for every role: packages whose only declaration for .xml is the generic Default.
constexpr std::string_view generic_xml = "application/xml";

bool allowed(std::string_view type, PartRole role) {
  static constexpr std::string_view spreadsheetml = "application/vnd.openxmlformats-officedocument.spreadsheetml.";
  static constexpr std::array<std::string_view, 5> workbook{
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml",
      "application/vnd.ms-excel.sheet.macroenabled.main+xml",
      "application/vnd.ms-excel.template.macroenabled.main+xml",
      "application/vnd.ms-excel.addin.macroenabled.main+xml"};
  if (type == generic_xml) return true;
  switch (role) {
    case PartRole::workbook: return std::find(workbook.begin(), workbook.end(), type) != workbook.end();
    case PartRole::worksheet:
      return type.starts_with(spreadsheetml) && type.substr(spreadsheetml.size()) == "worksheet+xml";
    case PartRole::chartsheet:
      return type.starts_with(spreadsheetml) && type.substr(spreadsheetml.size()) == "chartsheet+xml";
    case PartRole::dialogsheet:
      return type.starts_with(spreadsheetml) && type.substr(spreadsheetml.size()) == "dialogsheet+xml";
    case PartRole::macrosheet: return type == "application/vnd.ms-excel.macrosheet+xml";
    case PartRole::intlmacrosheet: return type == "application/vnd.ms-excel.intlmacrosheet+xml";
  }
  return false;
}

const char* role_name(PartRole role) {
  switch (role) {
    case PartRole::workbook: return "the workbook part";
    case PartRole::worksheet: return "a worksheet";
    case PartRole::chartsheet: return "a chartsheet";
    case PartRole::dialogsheet: return "a dialog sheet";
    case PartRole::macrosheet: return "a macro sheet";
    case PartRole::intlmacrosheet: return "an international macro sheet";
  }
  return "a part";
}

}  // namespace

ContentTypes::ContentTypes(const Package& package) : package_(package) {
  const std::string xml = package.read(content_types_part);
  try {
    XmlScanner sc(reinterpret_cast<const std::uint8_t*>(xml.data()), xml.size(), 0, true,
                  scan_limits(package.limits()));
    for (Token t = next_token(sc); t != Token::end_of_input; t = next_token(sc)) {
      if (t != Token::start) continue;
      const std::uint64_t at = sc.token_offset();
      if (sc.depth() == 1) {
        if (!span_is(sc.local(), "Types")) sc.fail("the root element is not <Types>");
        types_offset_ = at;
        continue;
      }
      if (sc.depth() != 2) continue;
      const bool is_override = span_is(sc.local(), "Override");
      if (!is_override && !span_is(sc.local(), "Default")) continue;
      const auto* key = sc.attribute(is_override ? "PartName" : "Extension");
      const auto* type = sc.attribute("ContentType");
      if (key == nullptr) sc.fail(is_override ? "<Override> without a PartName" : "<Default> without an Extension");
      if (type == nullptr) sc.fail("a content type declaration without a ContentType");
      Declared declared{ascii_lower(attribute_bytes(*type, at)), at};
      const std::string name = attribute_bytes(*key, at);
      // The first declaration of a name counts.
      if (is_override) overrides_.emplace(part_key(name), std::move(declared));
      else defaults_.emplace(ascii_lower(name), std::move(declared));
    }
  } catch (const Error& e) {
    throw e.with_file(package.label()).with_part(content_types_part);
  }
}

void ContentTypes::require(const std::string& part, PartRole role) const {
  const Declared* declared = nullptr;
  if (const auto it = overrides_.find(part_key(part)); it != overrides_.end()) {
    declared = &it->second;
  } else if (const auto d = defaults_.find(extension_of(part)); d != defaults_.end()) {
    declared = &d->second;
  }
  if (declared == nullptr) {
    package_.fail(ErrorKind::format, content_types_part, types_offset_,
                  "no content type for " + part + " (" + role_name(role) +
                      "): no Override names it and no Default has extension '" + extension_of(part) + "'");
  }
  if (!allowed(declared->type, role)) {
    package_.fail(ErrorKind::format, content_types_part, declared->offset,
                  part + " is " + role_name(role) + " but its content type is " + declared->type);
  }
}

}  // namespace docconform::xlsx
