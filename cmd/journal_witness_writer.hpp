// The leader's side of the journal's external witness (journal/witness.hpp, behaviour.md §24.5):
// on a thread of its own, so deciding never waits on it, the leader adds its journal's durable head
// (signed when serve has a signing key) to the witness ConfigMap as soon as it leads and then every
// --journal-witness-period while the head moves, keeping the newest --journal-witness-history
// entries. Each write is a merge PATCH of the journal's own data key under a resourceVersion
// precondition (a 409 reads again), fenced like every leader write (kube/client/write_fence.hpp).
// Before adding, the entries already there are checked against the journal: when they disagree the
// witness is left untouched as evidence and the error is logged (`journal verify --witness` names it).
// A missing ConfigMap is never created (witness_configmap.hpp): a warning says how to create it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "journal/head_file.hpp"
#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"
#include "kube/client/cancellation.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/write_fence.hpp"

namespace koordq::cmd {

struct WitnessWriterOptions {
  std::string namespace_name;
  std::string name;
  std::chrono::nanoseconds period{std::chrono::minutes(1)};
  size_t history = 60;
  std::string journal_uuid;
  std::string cluster;                       // the kube-system Namespace uid the journal records
  const journal::SigningKey* key = nullptr;  // signs each entry when given
  const kube::WriteFence* fence = nullptr;   // no fence: always leading
  std::function<journal::ChainHead()> head;  // the journal's durable head
  journal::JournalReader* reader = nullptr;  // to check the entries already witnessed
  std::function<int64_t()> now;              // unix nanoseconds, for the entries' time
};

// What the witness of `uuid` becomes when `head` is added at `time` (pure but for reading `reader`).
struct WitnessUpdate {
  enum class Kind { kWrite, kUnchanged, kDisagrees };
  Kind kind = Kind::kWrite;
  std::string value;   // kWrite: the journal's new data value
  std::string reason;  // kDisagrees: what the journal disagrees with
};
WitnessUpdate next_witness_value(const std::map<std::string, std::string>& data, journal::JournalReader& reader,
                                 const WitnessWriterOptions& options, const journal::ChainHead& head,
                                 const std::string& time, const std::string& where);

class JournalWitnessWriter {
 public:
  JournalWitnessWriter(kube::HttpClient& client, WitnessWriterOptions options);
  ~JournalWitnessWriter();
  JournalWitnessWriter(const JournalWitnessWriter&) = delete;
  JournalWitnessWriter& operator=(const JournalWitnessWriter&) = delete;

  void start();
  void stop();  // ends a request in flight; joins

  enum class Outcome { kWritten, kUnchanged, kNotLeading, kProblem, kDisagrees };
  // One attempt now, as the thread makes it.
  Outcome write_once();

 private:
  void run();
  Outcome problem(const std::string& message, bool error = false);
  std::string where() const;

  kube::HttpClient& client_;
  const WitnessWriterOptions options_;
  kube::Cancellation cancellation_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
  // The thread's own.
  std::string last_problem_;
  std::optional<uint64_t> witnessed_reign_;
};

}  // namespace koordq::cmd
