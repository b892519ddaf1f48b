// Records built in memory (tests/support/stored_records.hpp, scenario_journal.hpp) written into a
// real journal through its writer: the same bodies at the same times, so that in a journal with the
// records' UUID every seq and hash is the record's own.
#pragma once

#include <future>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "journal/capnp_record_body.hpp"
#include "journal/journal.hpp"
#include "journal/stored_record.hpp"

namespace koordq::testing {

// A body that the writer turns back into `record` (given the same seq and previous hash).
inline std::unique_ptr<journal::CapnpRecordBody> body_of(const journal::StoredRecord& record) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  const auto from = record.reader().getBody();
  auto to = body->record().getBody();
  switch (from.which()) {
    case wire::Record::Body::CONFIG:
      to.setConfig(from.getConfig());
      break;
    case wire::Record::Body::ROLE:
      to.setRole(from.getRole());
      break;
    case wire::Record::Body::RELIST:
      to.setRelist(from.getRelist());
      break;
    case wire::Record::Body::WATCH:
      to.setWatch(from.getWatch());
      break;
    case wire::Record::Body::TICK:
      to.setTick();
      break;
    case wire::Record::Body::ROUND:
      to.setRound(from.getRound());
      break;
    case wire::Record::Body::OUTCOME:
      to.setOutcome(from.getOutcome());
      break;
  }
  body->set_explicit_time(record.time());
  return body;
}

// Appends copies of `records` in one go and waits until all are durable; their acknowledgements in
// order, or the first error.
inline Result<std::vector<journal::AppendedRecord>> append_copies(journal::Journal& journal,
                                                                  std::span<const journal::StoredRecord> records) {
  std::vector<std::future<Result<journal::AppendedRecord>>> acks;
  acks.reserve(records.size());
  for (const auto& record : records) {
    auto done = std::make_shared<std::promise<Result<journal::AppendedRecord>>>();
    acks.push_back(done->get_future());
    journal.writer().append(body_of(record), [done](const Result<journal::AppendedRecord>& r) { done->set_value(r); });
  }
  std::vector<journal::AppendedRecord> appended;
  appended.reserve(records.size());
  for (auto& ack : acks) {
    auto r = ack.get();
    if (!r.ok()) return make_error("append: " + r.message());
    appended.push_back(*r);
  }
  return appended;
}

}  // namespace koordq::testing
