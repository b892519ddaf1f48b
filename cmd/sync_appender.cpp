#include "cmd/sync_appender.hpp"

#include <optional>

namespace koordq::cmd {

Result<std::vector<uint64_t>> SyncAppender::append(std::vector<std::unique_ptr<journal::RecordBody>> bodies) {
  std::vector<uint64_t> seqs(bodies.size(), 0);
  std::optional<Error> failure;
  size_t outstanding = bodies.size();
  for (size_t i = 0; i < bodies.size(); ++i) {
    writer_.append(std::move(bodies[i]), [&, i](const Result<journal::AppendedRecord>& r) {
      std::lock_guard lock(mu_);
      if (r.ok()) {
        seqs[i] = r->seq;
      } else if (!failure) {
        failure = r.error();
      }
      --outstanding;
      cv_.notify_all();
    });
  }
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return outstanding == 0; });
  if (failure) return *failure;
  return seqs;
}

}  // namespace koordq::cmd
