// The HTTP request reader on arbitrary bytes: Beast's request parser configured with the limits
// every koordq server reads requests with (behaviour.md §16.1), fed in pieces as a socket delivers
// them, then the request target as the services parse it. Beyond not crashing: a request is
// either complete with its header within the header limit and its body within the body limit,
// or not accepted; pieces of any size accept the same request as the whole, or none.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/beast/http.hpp>

#include "api/http_server.hpp"
#include "api/query_params.hpp"

namespace {

namespace http = boost::beast::http;
using koordq::api::HttpServerOptions;

void check(bool condition) {
  if (!condition) std::abort();
}

struct Outcome {
  bool done = false;
  bool failed = false;
  std::string target;
  std::string body;
  size_t consumed = 0;
};

// Feeds `bytes` to a parser `piece` bytes at a time, as the server's buffered reads do.
Outcome read_request(std::string_view bytes, size_t piece) {
  const HttpServerOptions limits;
  http::request_parser<http::string_body> parser;
  parser.header_limit(static_cast<uint32_t>(limits.header_limit));
  parser.body_limit(limits.body_limit);
  parser.eager(true);
  Outcome out;
  std::string buffered;
  size_t next = 0;
  while (!parser.is_done()) {
    if (next < bytes.size()) {
      const size_t take = std::min(piece, bytes.size() - next);
      buffered.append(bytes.substr(next, take));
      next += take;
    }
    boost::system::error_code ec;
    const size_t used = parser.put(boost::asio::buffer(buffered), ec);
    out.consumed += used;  // also with need_more: the parser may have taken part of it
    buffered.erase(0, used);
    if (ec == http::error::need_more) {
      if (next == bytes.size()) break;  // the peer sent nothing more
      continue;
    }
    if (ec) {
      out.failed = true;
      return out;
    }
    if (used == 0 && next == bytes.size()) break;
  }
  out.done = parser.is_done();
  if (out.done) {
    auto request = parser.release();
    out.target = std::string(request.target());
    out.body = request.body();
    check(out.body.size() <= limits.body_limit);
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const size_t piece = 1 + data[0] % 64;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  const Outcome whole = read_request(bytes, bytes.size() + 1);
  const Outcome pieces = read_request(bytes, piece);
  // Accepted or not, and which request, must not depend on the pieces. A request that is not
  // accepted may be refused at once or wait for bytes that never come (Beast parses a header
  // line only once the header's end is buffered, so which of the two depends on where the
  // pieces fall); either way no request is served.
  check(whole.done == pieces.done);
  if (whole.done) {
    check(whole.target == pieces.target && whole.body == pieces.body);
    const koordq::api::RequestTarget target = koordq::api::parse_target(whole.target);
    check(target.path.size() <= whole.target.size());
  }
  return 0;
}
