#include "controller/sync_appender.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace koordq::controller {
namespace {

class SharedRecordBody final : public journal::RecordBody {
 public:
  explicit SharedRecordBody(std::shared_ptr<const journal::RecordBody> body) : body_(std::move(body)) {}
  journal::RecordKind kind() const override { return body_->kind(); }
  std::string canonical_bytes(uint64_t seq, int64_t time, const journal::Hash& prev_hash) const override {
    return body_->canonical_bytes(seq, time, prev_hash);
  }
  std::optional<int64_t> explicit_time() const override { return body_->explicit_time(); }

 private:
  std::shared_ptr<const journal::RecordBody> body_;
};

}  // namespace

Result<std::vector<uint64_t>> SyncAppender::append(
    const std::vector<std::shared_ptr<const journal::RecordBody>>& bodies) {
  std::vector<std::unique_ptr<journal::RecordBody>> wrapped;
  wrapped.reserve(bodies.size());
  for (const auto& b : bodies) wrapped.push_back(std::make_unique<SharedRecordBody>(b));
  return append(std::move(wrapped));
}

Result<std::vector<uint64_t>> SyncAppender::append(std::vector<std::unique_ptr<journal::RecordBody>> bodies) {
  std::vector<uint64_t> seqs(bodies.size(), 0);
  std::optional<Error> failure;
  size_t outstanding = bodies.size();
  writer_.append_all(std::move(bodies), [&](size_t i, const Result<journal::AppendedRecord>& r) {
    std::lock_guard lock(mu_);
    if (r.ok()) {
      seqs[i] = r->seq;
    } else if (!failure) {
      failure = r.error();
    }
    --outstanding;
    cv_.notify_all();
  });
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return outstanding == 0; });
  if (failure) return *failure;
  return seqs;
}

}  // namespace koordq::controller
