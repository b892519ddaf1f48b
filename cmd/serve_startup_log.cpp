#include "cmd/serve_startup_log.hpp"

#include "base/log.hpp"

namespace koordq::cmd {
namespace {

constexpr std::string_view kVisibilityQueuesPath = "/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues";

std::string join_path(const std::string& dir, std::string_view name) {
  return dir.ends_with('/') ? dir + std::string(name) : dir + "/" + std::string(name);
}

// A host to reach a listener bound to `[host]:port` from the same machine.
std::string local_url_authority(const std::string& bind_address) {
  const size_t colon = bind_address.rfind(':');
  std::string host = bind_address.substr(0, colon);
  if (host.empty() || host == "0.0.0.0") host = "127.0.0.1";
  if (host == "[::]") host = "[::1]";
  return host + bind_address.substr(colon);
}

}  // namespace

void log_serve_configuration(const ServeOptions& options) {
  for (const std::string& flag : options.ignored_flags) {
    KQ_LOG_WARNING("flag {} is accepted for compatibility with Koord-Queue and ignored", flag);
  }
  KQ_V(1)
  ("effective configuration: {}", [&] {
    std::string text;
    for (const auto& [flag, value] : effective_serve_flags(options)) {
      text += (text.empty() ? "" : " ") + flag + "=" + value;
    }
    return text;
  }());
}

std::vector<std::string> simulate_curl_lines(const ServeOptions& options) {
  std::vector<std::string> lines;
  if (options.enable_visibility_server) {
    const std::string certs = join_path(options.journal_dir, "simulate-certs");
    std::string line = "curl";
    // Only a self-signed serving certificate is written to simulate-certs/.
    if (options.visibility_tls_cert_file.empty()) line += " --cacert " + join_path(certs, "serving.crt");
    line += " --cert " + join_path(certs, "client.crt") + " --key " + join_path(certs, "client.key") +
            " https://localhost:" + std::to_string(options.visibility_port) + std::string(kVisibilityQueuesPath);
    lines.push_back(std::move(line));
  }
  lines.push_back("curl http://" + options.api_handler_bind_address + ":" + std::to_string(options.api_handler_port) +
                  "/apis/v1/queue");
  lines.push_back("curl http://" + local_url_authority(options.metrics_bind_address) + "/metrics");
  return lines;
}

void log_serve_endpoints(const ServeOptions& options) {
  KQ_LOG_INFO("metrics, /healthz and /readyz will listen on {} (--metrics-bind-address)", options.metrics_bind_address);
  if (options.enable_visibility_server) {
    KQ_LOG_INFO("visibility API will listen on https port {} (--visibility-port), on the leader",
                options.visibility_port);
  } else {
    KQ_LOG_INFO("visibility API is off (--enable-visibility-server=false)");
  }
  if (options.enable_api_handler) {
    KQ_LOG_INFO("debug API will listen on http://{}:{}", options.api_handler_bind_address, options.api_handler_port);
  } else {
    KQ_LOG_INFO("debug API is off (--enable-api-handler=false)");
  }
  if (options.simulate) {
    for (const std::string& line : simulate_curl_lines(options)) KQ_LOG_INFO("{}", line);
  }
}

}  // namespace koordq::cmd
