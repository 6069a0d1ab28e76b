// [Content_Types].xml: the content type of each part (conformance/SPEC.md, format xlsx,
// "Content types"). The loader checks the workbook part and the sheet parts it reaches.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

#include "package.h"

namespace docconform::xlsx {

inline constexpr const char* content_types_part = "[Content_Types].xml";

// What a part is reached as, and so which content types it may have.
enum class PartRole { workbook, worksheet, chartsheet, dialogsheet, macrosheet, intlmacrosheet };

class ContentTypes {
 public:
  // Reads the part; throws Error(format) naming it when it is missing or is not a well-formed
  // <Types> document with complete Default and Override elements.
  explicit ContentTypes(const Package& package);

  // Throws Error(format) naming [Content_Types].xml and the offset of the declaration (or of
  // <Types> when there is none) unless part has a content type allowed for role.
  void require(const std::string& part, PartRole role) const;

 private:
  struct Declared {
    std::string type;  // lowercase
    std::uint64_t offset = 0;
  };
  const Package& package_;
  std::uint64_t types_offset_ = 0;
  std::unordered_map<std::string, Declared> overrides_;  // by part_key of PartName
  std::unordered_map<std::string, Declared> defaults_;   // by lowercase Extension
};

}  // namespace docconform::xlsx
