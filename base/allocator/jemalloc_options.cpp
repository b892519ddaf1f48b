// jemalloc's built-in options for the executables linked with it (cmake: koordq_allocator).
// MALLOC_CONF in the environment still overrides them.
//
// background_thread: a jemalloc thread returns unused dirty pages to the kernel. Without it the
// thread that frees memory does so inline, and a time-travel restore frees a whole state and its
// reader thread's cache at the end of every request: on the 10M-record journal the restore's p99
// was 8-10 % higher (BENCHMARKS.md, "The allocator").
//
// thp:always: jemalloc asks for transparent huge pages on its memory (madvise; the kernel's
// "madvise" and "always" modes honour it, "never" ignores it). A state built in fresh memory
// faults a 2 MiB page in at a time instead of a 4 KiB one: the console's restores while its state
// cache fills took ten times fewer page faults, the large simulator scenario's simulated hour
// 0.42-0.55x the time (10 simulated minutes 0.69-0.76x), 100,000 waiting units were built in
// 0.46-0.64x, at the same RSS per unit (BENCHMARKS.md, "Transparent huge pages").
// MALLOC_CONF=thp:default turns it off for a process (a long-running serve on a host whose kernel
// compacts memory on a huge-page fault may prefer that).
extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "background_thread:true,thp:always";
}
