// jemalloc's built-in options for the executables linked with it (cmake: koordq_allocator).
// MALLOC_CONF in the environment still overrides them.
//
// background_thread: a jemalloc thread returns unused dirty pages to the kernel. Without it the
// thread that frees memory does so inline, and a time-travel restore frees a whole state and its
// reader thread's cache at the end of every request: on the 10M-record journal the restore's p99
// was 8-10 % higher (BENCHMARKS.md, "The allocator").
//
// thp:always: jemalloc asks for transparent huge pages on its memory (madvise; the kernel's
// default "madvise" mode honours it, "never" ignores it). A state built in fresh memory faults a
// 2 MiB page in at a time instead of a 4 KiB one: the console's restores while its state cache
// fills took ten times fewer page faults and 0.7-0.8x the time, the large simulator scenario
// 0.69-0.76x, 100,000 waiting units are built in 0.5-0.6x, at the same RSS per unit
// (BENCHMARKS.md, "Transparent huge pages").
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true,thp:always";
}
