// The visibility API's response cache (behaviour.md §18): an answer of the live state is rendered
// once per revision; while the live revision stays where it is, the same request is answered from
// the cache without asking for the state, and a new revision is rendered again.
#include <optional>

#include <gtest/gtest.h>

#include "api/tls_material.hpp"
#include "api/visibility_service.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

namespace http = boost::beast::http;

constexpr char kQueues[] = "/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues";

class VisibilityCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    journal_ = open_test_journal(dir_.path(), clock_);

    api::CertificateRequest ca_request;
    ca_request.common_name = "front-proxy-ca";
    ca_request.ca = true;
    auto ca = api::generate_certificate(ca_request);
    ASSERT_TRUE(ca.ok()) << ca.message();
    api::CertificateRequest serving_request;
    serving_request.common_name = "koordq";
    serving_request.hosts = {"127.0.0.1"};
    auto serving = api::generate_certificate(serving_request, &*ca);
    ASSERT_TRUE(serving.ok()) << serving.message();
    auto tls = api::TlsMaterial::load({}, *serving);
    ASSERT_TRUE(tls.ok()) << tls.message();
    api::ClientAuthConfig client_auth;
    client_auth.ca_pem = ca->certificate_pem;
    ASSERT_TRUE((*tls)->set_client_auth(client_auth).ok());

    time_travel_ = std::make_unique<api::TimeTravel>(api::TimeTravelOptions{}, journal_->reader(),
                                                     [this](const api::StateRead& read) {
                                                       ++state_reads_;
                                                       read(state_, revision_);
                                                     });
    api::VisibilityContext context;
    context.time_travel = time_travel_.get();
    context.tls = *tls;
    context.now = [] { return int64_t{1'776'000'000'000'000'000}; };
    context.live_revision = [this] { return live_revision_; };
    service_ = std::make_unique<api::VisibilityService>(std::move(context));
  }

  api::HttpResponse get(const std::string& target) {
    api::HttpRequest request(http::verb::get, target, 11);
    request.insert("X-Remote-User", "alice");
    api::PeerIdentity peer;
    peer.tls = peer.certificate_presented = peer.certificate_verified = true;
    peer.common_name = "front-proxy-client";
    return service_->handle(request, peer);
  }

  void advance_to(uint64_t revision) {
    revision_ = revision;
    live_revision_ = revision;
  }

  TempDir dir_;
  int64_t now_ = 1'776'000'000'000'000'000;
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
  std::unique_ptr<journal::Journal> journal_;
  std::unique_ptr<api::TimeTravel> time_travel_;
  std::unique_ptr<api::VisibilityService> service_;
  actors::Scheduler state_;
  uint64_t revision_ = 7;
  std::optional<uint64_t> live_revision_ = 7;
  int state_reads_ = 0;
};

TEST_F(VisibilityCacheTest, the_same_request_at_the_same_live_revision_is_answered_without_reading_the_state) {
  const api::HttpResponse first = get(kQueues);
  ASSERT_EQ(first.result_int(), 200) << first.body();
  EXPECT_NE(first.body().find("\"resourceVersion\":\"7\""), std::string::npos) << first.body();
  EXPECT_EQ(state_reads_, 1);

  const api::HttpResponse again = get(kQueues);
  EXPECT_EQ(again.result_int(), 200);
  EXPECT_EQ(again.body(), first.body());
  EXPECT_EQ(again[http::field::content_type], first[http::field::content_type]);
  EXPECT_EQ(state_reads_, 1);

  // Other parameters are another answer.
  EXPECT_EQ(get(std::string(kQueues) + "?limit=1").result_int(), 200);
  EXPECT_EQ(state_reads_, 2);
}

TEST_F(VisibilityCacheTest, a_new_live_revision_is_rendered_again) {
  ASSERT_EQ(get(kQueues).result_int(), 200);
  advance_to(8);
  const api::HttpResponse next = get(kQueues);
  EXPECT_EQ(state_reads_, 2);
  EXPECT_NE(next.body().find("\"resourceVersion\":\"8\""), std::string::npos) << next.body();
}

// A live revision behind the state (the router applied more than the engine has reported yet)
// still answers the state's own revision once the cache has nothing at the reported one.
TEST_F(VisibilityCacheTest, without_a_cached_answer_at_the_live_revision_the_state_is_read) {
  revision_ = 9;  // the state is ahead of the reported revision 7
  const api::HttpResponse answer = get(kQueues);
  EXPECT_EQ(state_reads_, 1);
  EXPECT_NE(answer.body().find("\"resourceVersion\":\"9\""), std::string::npos) << answer.body();
  live_revision_ = std::nullopt;  // no live state reported: every request reads it
  get(kQueues);
  get(kQueues);
  EXPECT_EQ(state_reads_, 3);
}

TEST_F(VisibilityCacheTest, requests_differing_only_in_what_the_answer_ignores_share_one_entry) {
  const std::string units = std::string(kQueues) + "/q/queueunits";
  ASSERT_EQ(get(kQueues).result_int(), 200);
  ASSERT_EQ(state_reads_, 1);
  // An unknown parameter, the default limit spelt out, a trailing slash, a point in time that is
  // the live state: the same answer, from the same entry.
  for (const std::string& same : {std::string(kQueues) + "?pretty=true", std::string(kQueues) + "?limit=1000",
                                  std::string(kQueues) + "/?offset=0&watch=1", std::string(kQueues) + "?limit=01000"}) {
    EXPECT_EQ(get(same).result_int(), 200) << same;
  }
  EXPECT_EQ(state_reads_, 1);
  // A single Queue takes no paging: limit and offset do not make another entry (the 404 of a
  // missing queue is never cached, so the state is read for each).
  get(std::string(kQueues) + "/q");
  get(std::string(kQueues) + "/q?limit=5&offset=3");
  EXPECT_EQ(state_reads_, 3);
  // What changes the answer is another entry: a page, a phase filter.
  get(std::string(kQueues) + "?limit=1");
  EXPECT_EQ(state_reads_, 4);
  get(units + "?phase=Enqueued");
  get(units + "?phase=Enqueued&fieldSelector=x");
  EXPECT_EQ(state_reads_, 6);  // 404s: no queue q in the empty state
}

TEST(ResponseCache, stays_within_its_byte_bound_and_drops_the_least_recently_used_first) {
  const size_t bound = 64 * 1024;
  api::ResponseCache cache(bound);
  const auto body = std::make_shared<const std::string>(10'000, 'x');
  for (int i = 0; i < 50; ++i) {
    cache.store(7, "/page/" + std::to_string(i), body);
    EXPECT_LE(cache.bytes(), bound);
    cache.find(7, "/page/0");  // kept in use
  }
  EXPECT_EQ(cache.entries(), 6u);  // 6 × (10,000 + keys + overhead) fit in 64 KiB, a 7th does not
  EXPECT_NE(cache.find(7, "/page/0"), nullptr);
  EXPECT_NE(cache.find(7, "/page/49"), nullptr);
  EXPECT_EQ(cache.find(7, "/page/1"), nullptr);
  // An answer larger than the whole bound is not kept, and evicts nothing.
  cache.store(7, "/huge", std::make_shared<const std::string>(bound + 1, 'y'));
  EXPECT_EQ(cache.find(7, "/huge"), nullptr);
  EXPECT_EQ(cache.entries(), 6u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
