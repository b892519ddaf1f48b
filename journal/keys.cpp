#include "journal/keys.hpp"

namespace koordq::journal {
namespace {

void put_be64(std::string& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>((v >> shift) & 0xff));
}

uint64_t get_be64(std::string_view in) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) v = (v << 8) | static_cast<uint8_t>(in[i]);
  return v;
}

constexpr uint64_t kSignBit = uint64_t{1} << 63;

}  // namespace

std::string seq_key(uint64_t seq) {
  std::string key;
  key.reserve(8);
  put_be64(key, seq);
  return key;
}

std::optional<uint64_t> decode_seq_key(std::string_view key) {
  if (key.size() != 8) return std::nullopt;
  return get_be64(key);
}

std::string snapshot_index_key(uint64_t seq) {
  std::string key;
  key.reserve(kSnapshotIndexPrefix.size() + 8);
  key.append(kSnapshotIndexPrefix);
  put_be64(key, seq);
  return key;
}

std::optional<uint64_t> decode_snapshot_index_key(std::string_view key) {
  if (!key.starts_with(kSnapshotIndexPrefix)) return std::nullopt;
  return decode_seq_key(key.substr(kSnapshotIndexPrefix.size()));
}

std::string time_key(int64_t unix_nanos, uint64_t seq) {
  std::string key;
  key.reserve(16);
  put_be64(key, static_cast<uint64_t>(unix_nanos) ^ kSignBit);
  put_be64(key, seq);
  return key;
}

std::optional<TimeKey> decode_time_key(std::string_view key) {
  if (key.size() != 16) return std::nullopt;
  return TimeKey{static_cast<int64_t>(get_be64(key.substr(0, 8)) ^ kSignBit), get_be64(key.substr(8))};
}

}  // namespace koordq::journal
