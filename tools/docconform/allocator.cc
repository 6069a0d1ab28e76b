// The allocator settings of the docconform CLI, read by jemalloc when it starts; $MALLOC_CONF
// set by the caller is applied after them. The library leaves the allocator to the program that
// embeds it (docconform-bench measures it on the system allocator).
//
// One arena for every thread: the loaders' workers allocate a few times per thousand cells, so
// sharing one costs nothing, and what one load frees is what the next thread's allocations
// reuse. Transparent huge pages for its memory: a large model is faulted in 2 MiB at a time
// instead of 4 KiB (the kernel gives them on request only, THP "madvise" mode). Freed address
// space is unmapped, not retained: the CLI runs under address-space caps (the conformance
// runner's, the hostile cases'), which retained ranges exhaust before the named limits trip.
extern "C" {
const char* malloc_conf = "narenas:1,thp:always,metadata_thp:auto,retain:false";
}
