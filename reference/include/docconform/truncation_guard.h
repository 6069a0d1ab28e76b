// Reading a memory-mapped file that another process truncates raises SIGBUS on the lost pages.
// The guard turns that into an error the reader reports: views register here, and a SIGBUS
// handler (opt-in: a library does not take over a signal on its own; the CLI installs it)
// answers a fault inside a registered view with zero-filled pages for the rest of the view and
// marks it truncated, so the reader can throw instead of crashing and never reports what it
// read from the zeros. Faults anywhere else go on to the handler installed before.
#pragma once

#include <atomic>
#include <cstddef>

namespace docconform {

// Installs the SIGBUS handler. Idempotent and thread-safe; call it before mapping files that
// other processes may shrink in place.
void install_truncation_guard();

// Registers the view [begin, begin + length) whose truncation sets *truncated; returns a slot
// for unwatch(), or -1 when every slot is taken (the view is then read unguarded). Unwatch
// before unmapping.
int watch_mapping(const void* begin, std::size_t length, std::atomic<bool>* truncated);
void unwatch_mapping(int slot);

}  // namespace docconform
