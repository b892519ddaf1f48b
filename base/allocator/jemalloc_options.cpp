// jemalloc's built-in options for the executables linked with it (cmake: koordq_allocator).
// MALLOC_CONF in the environment still overrides them.
//
// background_thread: a jemalloc thread returns unused dirty pages to the kernel. Without it the
// thread that frees memory does so inline, and a time-travel restore frees a whole state and its
// reader thread's cache at the end of every request: on the 10M-record journal the restore's p99
// was 8-10 % higher (BENCHMARKS.md, "The allocator").
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true";
}
