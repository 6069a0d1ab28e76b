# Project-wide warning flags: clean with -Wall -Wextra; CI turns them into errors.
add_library(docconform_warnings INTERFACE)
target_compile_options(docconform_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wimplicit-fallthrough -Wformat=2
  $<$<BOOL:${DOCCONFORM_WERROR}>:-Werror>)
