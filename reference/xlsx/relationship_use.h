// A part's reference to one of its relationships (<sheet r:id>, <drawing r:id>, <tablePart
// r:id>), kept with where it is so an id the .rels part lacks is reported at its use.
#pragma once

#include <cstdint>
#include <string>

namespace docconform::xlsx {

struct RelationshipUse {
  std::string id;
  std::uint64_t offset = 0;  // of the referring element in its part
};

}  // namespace docconform::xlsx
