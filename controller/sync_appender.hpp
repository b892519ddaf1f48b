// Appends record bodies to the journal and waits until each is durable (design.md §3: a record is
// acted on only once fsync'd); the serve loops' one way of writing the journal.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <vector>

#include "base/result.hpp"
#include "journal/group_commit.hpp"

namespace koordq::controller {

class SyncAppender {
 public:
  explicit SyncAppender(journal::GroupCommitWriter& writer) : writer_(writer) {}

  // The seqs of `bodies`, in order, once all are durable; the first failure otherwise.
  Result<std::vector<uint64_t>> append(std::vector<std::unique_ptr<journal::RecordBody>> bodies);
  // The same, keeping the bodies: a batch whose append failed is appended again as it was.
  Result<std::vector<uint64_t>> append(const std::vector<std::shared_ptr<const journal::RecordBody>>& bodies);

 private:
  journal::GroupCommitWriter& writer_;
  std::mutex mu_;
  std::condition_variable cv_;
};

}  // namespace koordq::controller
