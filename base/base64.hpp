// Standard base64 (RFC 4648 §4, with padding), through kj's encoding: the canonical record bytes
// of exports, signatures, the caBundle koordq writes, the `*-data` entries of a kubeconfig.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::base {

std::string base64_encode(std::string_view bytes);
// The bytes of `text` when it is exactly what base64_encode writes for them (padded, no
// whitespace, no bits set in the padding), else std::nullopt: one text per byte string.
std::optional<std::string> base64_decode(std::string_view text);
// The bytes of padded base64 that may be wrapped (whitespace between characters, as kubeconfig
// writers break long lines); std::nullopt when empty or not base64.
std::optional<std::string> base64_decode_wrapped(std::string_view text);

}  // namespace koordq::base
