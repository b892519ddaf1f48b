// The console on an HTTP listener (docs/behaviour.md §25): /console/ serves the page and its
// assets, /console/api/ the JSON it reads; every other path goes to the service it is put in
// front of (the debug API under serve), or 404 when there is none.
#pragma once

#include <memory>

#include "api/http_server.hpp"
#include "console/console_context.hpp"

namespace koordq::console {

class ConsoleService : public api::HttpService {
 public:
  ConsoleService(ConsoleContext context, std::shared_ptr<api::HttpService> next)
      : context_(std::move(context)), next_(std::move(next)) {}

  api::HttpResponse handle(const api::HttpRequest& request, const api::PeerIdentity& peer) override;
  api::HttpResponse limit_exceeded(api::ServerLimit limit) override;
  api::HttpAnswer answer(const api::HttpRequest& request, const api::PeerIdentity& peer) override;

 private:
  std::optional<api::HttpResponse> console_response(const api::HttpRequest& request);

  ConsoleContext context_;
  std::shared_ptr<api::HttpService> next_;
};

}  // namespace koordq::console
