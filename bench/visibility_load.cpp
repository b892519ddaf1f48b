// visibility_load: an HTTPS load client that presents a client certificate, for the visibility
// API (wrk and hey cannot). Keep-alive connections with one request in flight each, on one thread
// with asynchronous I/O. Closed loop by default (each connection sends its next request when the
// answer arrives); with --rate, open loop at a fixed arrival rate, the latency of each request
// measured from the time it was scheduled, so a server that falls behind shows its queueing delay
// (no coordinated omission).
//
// --serve-fixed BYTES turns it into the baseline: a minimal Boost.Beast + OpenSSL server that
// verifies client certificates and answers every request with the same BYTES-byte body, so the
// visibility API can be compared with the raw libraries doing the same transport work.
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <boost/beast/core.hpp>

#include "base/go_duration.hpp"
#include "bench/visibility_load_fixed_server.hpp"
#include "bench/visibility_load_report.hpp"
#include "bench/visibility_load_run.hpp"

using namespace koordq::bench::visibility_load;

namespace {

namespace beast = boost::beast;

int run_client(const Options& o) {
  std::string problem;
  const auto target = parse_url(o.url, problem);
  if (!target) {
    std::cerr << "visibility_load: " << problem << "\n";
    return 2;
  }
  for (const std::string* d : {&o.duration, &o.warmup, &o.timeout}) {
    const auto parsed = koordq::base::parse_go_duration(*d);
    if (!parsed.ok() || *parsed < 0) {
      std::cerr << "visibility_load: \"" << *d << "\" is not a Go duration ≥ 0 (for example 10s or 500ms)\n";
      return 2;
    }
  }
  if (o.cert.empty() != o.key.empty()) {
    std::cerr << "visibility_load: --cert and --key go together\n";
    return 2;
  }
  if (o.ca.empty() && !o.insecure) {
    std::cerr << "visibility_load: give --ca FILE to verify the server, or --insecure not to\n";
    return 2;
  }
  ssl::context tls(ssl::context::tls_client);
  try {
    if (o.insecure) {
      tls.set_verify_mode(ssl::verify_none);
    } else {
      tls.load_verify_file(o.ca);
      tls.set_verify_mode(ssl::verify_peer);
    }
    if (!o.cert.empty()) {
      tls.use_certificate_chain_file(o.cert);
      tls.use_private_key_file(o.key, ssl::context::pem);
    }
  } catch (const boost::system::system_error& e) {
    std::cerr << "visibility_load: loading the TLS material failed: " << e.what()
              << " (check --ca, --cert and --key name readable PEM files)\n";
    return 2;
  }
  net::io_context resolver_ioc;
  tcp::resolver resolver(resolver_ioc);
  beast::error_code ec;
  auto endpoints = resolver.resolve(target->host, target->port, ec);
  if (ec) {
    std::cerr << "visibility_load: cannot resolve " << target->host << ":" << target->port << ": " << ec.message()
              << "\n";
    return 2;
  }
  LoadRun run(o, *target, endpoints, tls);
  if (!run.run()) {
    std::cerr << "visibility_load: no connection to " << o.url << " could be opened";
    for (const auto& [message, n] : run.stats().transport_errors) std::cerr << "; " << message;
    std::cerr << "\n";
    return 1;
  }
  Stats stats = run.stats();
  const Summary s = summarize(stats, run.window_seconds());
  if (o.json) {
    print_json(o, run, stats, s);
  } else {
    print_text(o, run, stats, s);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "HTTPS load client with client certificates for the visibility API: closed loop, or open loop at a fixed "
      "rate (--rate) with latency from the scheduled send time. {seq} in --url is replaced by the request number "
      "(a different URL per request, e.g. to miss a response cache). With --serve-fixed BYTES it is instead a "
      "minimal TLS server answering every request with a BYTES-byte body (the baseline)."};
  app.add_option("--url", o.url, "https://host:port/path?query");
  app.add_option("--cert", o.cert, "client certificate (PEM); with --serve-fixed the serving certificate");
  app.add_option("--key", o.key, "key of --cert (PEM)");
  app.add_option("--ca", o.ca, "CA verifying the server; with --serve-fixed the CA of client certificates");
  app.add_flag("--insecure", o.insecure, "do not verify the server's certificate");
  app.add_option("--connections,-c", o.connections, "keep-alive connections, one request in flight each")
      ->check(CLI::Range(size_t{1}, size_t{10000}))
      ->capture_default_str();
  app.add_option("--duration,-d", o.duration, "measured time (Go duration)")->capture_default_str();
  app.add_option("--warmup", o.warmup, "time before measuring starts (Go duration)")->capture_default_str();
  app.add_option("--timeout", o.timeout, "connect and per-request timeout (Go duration)")->capture_default_str();
  app.add_option("--rate,-R", o.rate, "open loop: requests per second in total (0: closed loop)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--header,-H", o.headers, "extra request header \"Name: value\" (repeatable)");
  app.add_flag("--json", o.json, "print one JSON object instead of text");
  app.add_option("--serve-fixed", o.serve_fixed, "serve a fixed body of this many bytes instead of loading a server");
  app.add_option("--port", o.port, "with --serve-fixed: port on 127.0.0.1 (0: any free port, printed)");
  CLI11_PARSE(app, argc, argv);
  if (o.serve_fixed > 0) return serve_fixed(o);
  if (o.url.empty()) {
    std::cerr << "visibility_load: --url is required (or --serve-fixed BYTES to serve the baseline)\n";
    return 2;
  }
  return run_client(o);
}
