// The scheduling niceness of the calling thread (Linux keeps one per thread): the serving threads
// run nicer than the deciding ones, so that when the cores are busy, readers wait for CPU rather
// than rounds (behaviour.md §15.1).
#pragma once

namespace koordq::base {

// Sets the calling thread's niceness (0 to 19; higher yields more). Once per thread is enough; a
// failure is logged once per process and the thread runs as it was.
void set_thread_niceness(int niceness);

}  // namespace koordq::base
