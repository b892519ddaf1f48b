// kube/client's HttpClient pointed at a ScriptedHttpServer: plain HTTP to 127.0.0.1, a fixed
// bearer token, and the caller's options (rate limit, retries, timeouts).
#pragma once

#include <memory>

#include <gtest/gtest.h>

#include "kube/client/http_client.hpp"
#include "tests/support/scripted_http_server.hpp"

namespace koordq::testing {

inline kube::ClientConfig scripted_client_config(const ScriptedHttpServer& server) {
  kube::ClientConfig config;
  EXPECT_TRUE(kube::parse_server_url(server.url(), config).ok());
  config.token = kube::BearerToken::fixed("test-token");
  config.source = "test";
  return config;
}

inline std::unique_ptr<kube::HttpClient> scripted_client(const ScriptedHttpServer& server, kube::HttpOptions options) {
  auto client = kube::HttpClient::create(scripted_client_config(server), std::move(options));
  EXPECT_TRUE(client.ok()) << client.message();
  return client.ok() ? std::move(*client) : nullptr;
}

}  // namespace koordq::testing
