#include "actors/runtime/decision_engine.hpp"

#include <mutex>
#include <thread>

#include "actors/runtime/calling_thread_rounds.hpp"
#include "actors/runtime/messages.hpp"
#include "actors/runtime/router.hpp"

namespace koordq::actors::runtime {
namespace {

size_t thread_count(size_t requested) {
  if (requested > 0) return requested;
  return std::max<size_t>(1, std::thread::hardware_concurrency());
}

struct EngineConfig : caf::actor_system_config {
  explicit EngineConfig(size_t threads) {
    set("scheduler.max-threads", threads);
    // Idle workers sleep instead of spinning: the round is short and the machine is shared.
    set("work-stealing.aggressive-poll-attempts", 10);
    set("work-stealing.moderate-poll-attempts", 50);
  }
};

}  // namespace

struct DecisionEngine::Impl {
  explicit Impl(size_t threads) : config(threads), system(config), self(system) {}
  EngineConfig config;
  caf::actor_system system;
  caf::scoped_actor self;
  caf::actor router;
  std::unique_ptr<CallingThreadRounds> inline_rounds;  // EngineOptions::on_calling_thread
};

DecisionEngine::DecisionEngine(EngineOptions options, Scheduler initial, uint64_t applied_seq)
    : threads_(options.on_calling_thread ? 1 : thread_count(options.threads)), applied_seq_(applied_seq) {
  next_deadline_ = initial.next_deadline();
  if (options.publish_reads) read_side_ = std::make_unique<ReadSide>(initial, applied_seq);
  impl_ = std::make_unique<Impl>(threads_);
  if (options.on_calling_thread) {
    impl_->inline_rounds =
        std::make_unique<CallingThreadRounds>(std::move(initial), applied_seq, std::move(options.observe_latency));
    return;
  }
  impl_->router = impl_->system.spawn(router, std::move(initial), applied_seq, std::move(options.observe_latency));
}

DecisionEngine::~DecisionEngine() {
  if (impl_->router) impl_->self->send_exit(impl_->router, caf::exit_reason::user_shutdown);
}

PublishedPages DecisionEngine::published() const {
  return read_side_ ? read_side_->latest() : nullptr;
}

bool DecisionEngine::read_published_state(const std::function<void(const Scheduler&, uint64_t)>& read) const {
  if (!read_side_) return false;
  read_side_->read_state(read);
  return true;
}

bool DecisionEngine::wait_published(uint64_t seq) {
  return read_side_ && read_side_->wait_published(seq);
}

bool DecisionEngine::read_published_later(ReadSide::StateTask task) {
  if (!read_side_) return false;
  read_side_->later(std::move(task));
  return true;
}

Status DecisionEngine::apply(std::vector<journal::StoredRecord> records) {
  std::optional<Error> failure;
  auto batch = std::make_shared<const std::vector<journal::StoredRecord>>(std::move(records));
  if (impl_->inline_rounds) {
    ApplyReport report = impl_->inline_rounds->apply(*batch);
    applied_seq_.store(report.applied_seq, std::memory_order_release);
    next_deadline_.reset();
    if (read_side_) read_side_->applied(batch, report.applied_seq);
    if (report.error) return make_error(*report.error);
    return ok_status();
  }
  impl_->self->request(impl_->router, caf::infinite, apply_atom::value, RecordBatch{batch})
      .receive(
          [&](ApplyReport& report) {
            applied_seq_.store(report.applied_seq, std::memory_order_release);
            next_deadline_.reset();
            if (report.error) failure = make_error(*report.error);
            if (read_side_) read_side_->applied(batch, report.applied_seq);
          },
          [&](caf::error& err) { failure = make_error("decision router: " + impl_->system.render(err)); });
  if (failure) return *failure;
  return ok_status();
}

Result<std::vector<Decision>> DecisionEngine::decide() {
  std::optional<Error> failure;
  std::vector<Decision> out;
  if (impl_->inline_rounds) return impl_->inline_rounds->decide();
  impl_->self->request(impl_->router, caf::infinite, decide_atom::value)
      .receive([&](DecisionList& list) { out = std::move(list.decisions); },
               [&](caf::error& err) { failure = make_error("decide round: " + impl_->system.render(err)); });
  if (failure) return *failure;
  return out;
}

std::optional<int64_t> DecisionEngine::next_deadline() {
  if (next_deadline_) return *next_deadline_;
  std::optional<int64_t> out;
  if (impl_->inline_rounds) {
    out = impl_->inline_rounds->next_deadline();
    next_deadline_ = out;
    return out;
  }
  impl_->self->request(impl_->router, caf::infinite, deadline_atom::value)
      .receive([&](ApplyReport& report) { out = report.next_deadline; }, [](caf::error&) {});
  next_deadline_ = out;
  return out;
}

caf::actor_system& DecisionEngine::actor_system() {
  return impl_->system;
}

// Readers on other threads (the API servers) each ask through their own scoped actor: one
// blocking actor must not be shared between threads.
void DecisionEngine::read_state(const std::function<void(const Scheduler&, uint64_t)>& read) {
  if (impl_->inline_rounds) return impl_->inline_rounds->read(read);
  caf::scoped_actor self{impl_->system};
  self->request(impl_->router, caf::infinite, inspect_atom::value, StateProbe{read}).receive([] {}, [](caf::error&) {});
}

std::optional<QuotaView> DecisionEngine::quota(const std::string& name) {
  if (impl_->inline_rounds) return impl_->inline_rounds->quota(name);
  caf::scoped_actor self{impl_->system};
  std::optional<QuotaView> out;
  self->request(impl_->router, caf::infinite, get_atom::value, name)
      .receive([&](QuotaView& view) { out = std::move(view); }, [](caf::error&) {});
  return out;
}

}  // namespace koordq::actors::runtime
