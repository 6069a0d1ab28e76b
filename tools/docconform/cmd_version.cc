#include <iostream>

#include "commands.h"
#include "docconform/version.h"

namespace docconform::cli {

void add_version_commands(CommandGroups& groups) {
  auto* version = groups.app.add_subcommand("version", "Print the docconform version");
  version->callback([] { std::cout << "docconform " << version_string << "\n"; });
}

}  // namespace docconform::cli
