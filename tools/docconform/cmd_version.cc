#include <iostream>
#include <memory>

#include "commands.h"
#include "docconform/inflater.h"
#include "docconform/version.h"

namespace docconform::cli {

void add_version_commands(CommandGroups& groups) {
  auto* version = groups.app.add_subcommand("version", "Print the docconform version");
  auto verbose = std::make_shared<bool>(false);
  version->add_flag("--verbose", *verbose, "Also the versions of the libraries that inflate, unzip and decrypt, and the default inflater");
  version->callback([verbose] {
    std::cout << "docconform " << version_string << "\n";
    if (!*verbose) return;
    for (const std::string& line : library_versions()) std::cout << line << "\n";
    std::cout << "default inflater: " << inflater_name(default_inflater()) << "\n";
  });
}

}  // namespace docconform::cli
