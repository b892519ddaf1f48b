// A journal for a test: in `dir`, with a fixed UUID and the test's record clock. Throws (the test
// fails, naming why) when it cannot be opened.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "journal/journal.hpp"
#include "journal/record_clock.hpp"

namespace koordq::testing {

inline std::unique_ptr<journal::Journal> open_test_journal(
    const std::filesystem::path& dir, journal::RecordClock& clock,
    const std::string& uuid = "00000000-0000-4000-8000-000000000001") {
  journal::JournalOptions options;
  options.dir = dir;
  options.new_uuid = uuid;
  options.clock = &clock;
  auto opened = journal::Journal::open(options);
  if (!opened.ok()) throw std::runtime_error("cannot open the test journal: " + opened.message());
  return std::move(opened).value();
}

}  // namespace koordq::testing
