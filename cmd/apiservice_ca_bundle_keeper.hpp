// Keeps the visibility APIService's spec.caBundle in step with koordq's serving certificate
// (behaviour.md §16.1), so that the aggregator verifies koordq instead of skipping verification:
// a GET of the APIService at every check (the start of the visibility API and every 10 s), a merge
// PATCH when its caBundle is not the serving certificate or it skips verification. A generated
// certificate is made again for the Service the APIService names when it does not cover it yet.
#pragma once

#include <string>
#include <vector>

#include "api/tls_material.hpp"
#include "kube/client/http_client.hpp"

namespace koordq::cmd {

class ApiServiceCaBundleKeeper {
 public:
  // `generated_hosts`: the hosts of the generated certificate in use; empty when the certificate
  // comes from --visibility-tls-cert-file (never replaced then).
  ApiServiceCaBundleKeeper(kube::HttpClient& client, std::string apiservice, std::vector<std::string> generated_hosts)
      : client_(client), apiservice_(std::move(apiservice)), generated_hosts_(std::move(generated_hosts)) {}

  // One check; problems are logged (a warning once per distinct problem) and retried next time.
  void keep(api::TlsMaterial& tls);

 private:
  void problem(const std::string& message);

  kube::HttpClient& client_;
  const std::string apiservice_;
  std::vector<std::string> generated_hosts_;
  std::string last_problem_;
};

}  // namespace koordq::cmd
