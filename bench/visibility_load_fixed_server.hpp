// The visibility load client's baseline: a minimal Boost.Beast + OpenSSL server that verifies
// client certificates and answers every request with the same --serve-fixed BYTES-byte body, so
// the visibility API can be compared with the raw libraries doing the same transport work.
#pragma once

#include "bench/visibility_load_run.hpp"

namespace koordq::bench::visibility_load {

// Serves on 127.0.0.1:--port until SIGINT or SIGTERM; the exit code (2 on bad TLS material).
int serve_fixed(const Options& o);

}  // namespace koordq::bench::visibility_load
