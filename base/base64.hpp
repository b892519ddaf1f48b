// Standard base64 (RFC 4648 §4, with padding): the canonical record bytes of exports, signatures,
// the caBundle koordq writes, the `*-data` entries of a kubeconfig. Encoding and the canonical
// decoding go through OpenSSL's EVP_EncodeBlock/EVP_DecodeBlock (3x faster than kj's decoder on
// export lines, BENCHMARKS.md "Export and verify"); the wrapped decoding, which tolerates what
// kubeconfig writers produce, through kj's.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::base {

std::string base64_encode(std::string_view bytes);
// The same text appended to `out`.
void append_base64(std::string& out, std::string_view bytes);
// The bytes of `text` when it is exactly what base64_encode writes for them (padded, no
// whitespace, no bits set in the padding), else std::nullopt: one text per byte string.
std::optional<std::string> base64_decode(std::string_view text);
// The bytes of padded base64 that may be wrapped (whitespace between characters, as kubeconfig
// writers break long lines); std::nullopt when empty or not base64.
std::optional<std::string> base64_decode_wrapped(std::string_view text);

}  // namespace koordq::base
