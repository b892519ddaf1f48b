// The visibility server's TLS material (behaviour.md §16.1): the serving certificate in use is
// what the APIService's caBundle gets; a new generated pair replaces it (a broken one is refused
// and the previous stays); changes from the file watcher, the ConfigMap watch and the caBundle
// keeper may come from different threads at once.
#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "api/tls_material.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

CertificatePair pair_for(const std::string& host) {
  auto pair = generate_certificate({"localhost", {"localhost", host}, 1, false, false});
  EXPECT_TRUE(pair.ok()) << pair.message();
  return *pair;
}

TEST(TlsMaterial, the_serving_certificate_in_use_is_replaced_by_a_new_generated_pair) {
  const CertificatePair first = pair_for("127.0.0.1");
  auto tls = TlsMaterial::load({}, first);
  ASSERT_TRUE(tls.ok()) << tls.message();
  EXPECT_EQ((*tls)->serving_certificate(), first.certificate_pem);
  const auto first_context = (*tls)->context();

  const CertificatePair second = pair_for("koordq-visibility.koord-queue.svc");
  ASSERT_TRUE((*tls)->set_generated_serving(second).ok());
  EXPECT_EQ((*tls)->serving_certificate(), second.certificate_pem);
  EXPECT_NE((*tls)->context(), first_context);

  const Status broken = (*tls)->set_generated_serving({"not a certificate", second.key_pem});
  EXPECT_FALSE(broken.ok());
  EXPECT_EQ((*tls)->serving_certificate(), second.certificate_pem);
}

TEST(TlsMaterial, changes_from_several_threads_at_once_leave_one_consistent_material) {
  auto ca = generate_certificate({"front-proxy-ca", {}, 1, true, false});
  ASSERT_TRUE(ca.ok());
  auto tls = TlsMaterial::load({}, pair_for("127.0.0.1"));
  ASSERT_TRUE(tls.ok()) << tls.message();
  std::vector<CertificatePair> pairs = {pair_for("a.svc"), pair_for("b.svc")};
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    for (int i = 0; i < 20; ++i) ASSERT_TRUE((*tls)->set_generated_serving(pairs[i % 2]).ok());
  });
  threads.emplace_back([&] {
    for (int i = 0; i < 20; ++i) {
      ClientAuthConfig auth;
      auth.ca_pem = ca->certificate_pem;
      auth.allowed_names = {"front-proxy-client"};
      ASSERT_TRUE((*tls)->set_client_auth(auth).ok());
    }
  });
  threads.emplace_back([&] {
    while (!stop.load()) (*tls)->reload_if_changed();
  });
  threads.emplace_back([&] {
    while (!stop.load()) {
      const std::string pem = (*tls)->serving_certificate();
      EXPECT_TRUE(pem == pairs[0].certificate_pem || pem == pairs[1].certificate_pem ||
                  pem.starts_with("-----BEGIN CERTIFICATE-----"));
      EXPECT_NE((*tls)->context(), nullptr);
    }
  });
  threads[0].join();
  threads[1].join();
  stop.store(true);
  threads[2].join();
  threads[3].join();
  EXPECT_EQ((*tls)->serving_certificate(), pairs[1].certificate_pem);
  EXPECT_EQ((*tls)->client_auth()->allowed_names, std::vector<std::string>{"front-proxy-client"});
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
