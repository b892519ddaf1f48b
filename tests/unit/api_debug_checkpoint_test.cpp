#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "api/debug_service.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

namespace http = boost::beast::http;

struct Checkpoints {
  std::vector<std::string> asked;
  std::unique_ptr<DebugService> service() {
    DebugContext context;
    context.checkpoint = [this](const std::string& dir) -> Result<uint64_t> {
      asked.push_back(dir);
      return uint64_t{7};
    };
    return std::make_unique<DebugService>(std::move(context));
  }
};

HttpRequest post(const std::string& target, bool with_header) {
  HttpRequest request(http::verb::post, target, 11);
  if (with_header) request.set(kCheckpointHeader, "1");
  return request;
}

PeerIdentity loopback() {
  PeerIdentity peer;
  peer.loopback = true;
  return peer;
}

TEST(DebugCheckpoint, needs_the_checkpoint_header) {
  Checkpoints checkpoints;
  std::unique_ptr<DebugService> service = checkpoints.service();
  HttpResponse refused = service->handle(post("/apis/journal/v1/checkpoint?dir=/j/checkpoints/a", false), loopback());
  EXPECT_EQ(refused.result_int(), 403);
  EXPECT_NE(refused.body().find("needs the header X-Koordq-Checkpoint: 1"), std::string::npos) << refused.body();
  HttpRequest wrong = post("/apis/journal/v1/checkpoint?dir=/j/checkpoints/a", false);
  wrong.set(kCheckpointHeader, "true");
  EXPECT_EQ(service->handle(wrong, loopback()).result_int(), 403);
  EXPECT_TRUE(checkpoints.asked.empty());
  HttpResponse made = service->handle(post("/apis/journal/v1/checkpoint?dir=/j/checkpoints/a", true), loopback());
  EXPECT_EQ(made.result_int(), 200) << made.body();
  EXPECT_EQ(checkpoints.asked, std::vector<std::string>{"/j/checkpoints/a"});
}

TEST(DebugCheckpoint, is_served_to_loopback_clients_only_and_to_post_only) {
  Checkpoints checkpoints;
  std::unique_ptr<DebugService> service = checkpoints.service();
  EXPECT_EQ(service->handle(post("/apis/journal/v1/checkpoint?dir=/j/a", true), PeerIdentity{}).result_int(), 403);
  HttpRequest get(http::verb::get, "/apis/journal/v1/checkpoint?dir=/j/a", 11);
  get.set(kCheckpointHeader, "1");
  EXPECT_EQ(service->handle(get, loopback()).result_int(), 405);
  EXPECT_TRUE(checkpoints.asked.empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
