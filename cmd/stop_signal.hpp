// SIGINT and SIGTERM ask a running `serve` to stop: the handler only sets a flag its loop polls.
#pragma once

namespace koordq::cmd {

void install_stop_signal_handlers();
// What the signals do, for a stop decided by the program itself.
void request_stop();
bool stop_requested();

}  // namespace koordq::cmd
