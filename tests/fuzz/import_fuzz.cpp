// `koordq journal import` input (behaviour.md §24.4: watch events as NDJSON or concatenated JSON)
// on arbitrary bytes, read as the import reads it in each raw-object mode. Beyond not crashing:
// a stop names its byte offset within the input, every body read encodes to a record, and every
// raw-object mode imports the same events and stops at the same place.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "journal/import_records.hpp"

namespace {

using namespace koordq;

void check(bool condition) {
  if (!condition) std::abort();
}

struct Read {
  std::optional<std::string> stop;
  std::vector<std::string> records;
  uint64_t skipped = 0;
};

Read read(std::string_view input, schema::RawObjectMode mode) {
  Read out;
  out.stop = journal::read_import_events(
      input, mode, nullptr,
      [&](std::unique_ptr<journal::CapnpRecordBody> body) {
        out.records.push_back(body->canonical_bytes(out.records.size() + 1, 0, journal::Hash{}));
      },
      out.skipped);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const Read off = read(input, schema::RawObjectMode::kOff);
  if (off.stop) {
    check(off.stop->rfind("byte offset ", 0) == 0);
    check(std::stoull(off.stop->substr(12)) <= size);
  }
  for (const auto& bytes : off.records) check(!bytes.empty() && bytes.size() % 8 == 0);
  // What is imported does not depend on how much of the raw object the records keep.
  for (const auto mode : {schema::RawObjectMode::kRedacted, schema::RawObjectMode::kFull}) {
    const Read other = read(input, mode);
    check(other.stop == off.stop && other.records.size() == off.records.size() && other.skipped == off.skipped);
  }
  return 0;
}
