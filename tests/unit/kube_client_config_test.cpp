// Client configuration (behaviour.md §21 `--kubeconfig`): kubeconfig variants, KUBECONFIG,
// in-cluster service account, and errors that name the file, the field and the fix.
#include <chrono>
#include <fstream>
#include <map>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/client/client_config.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using ::testing::HasSubstr;
using ::testing::Not;

void write(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// base64 of "CA PEM", "CERT PEM", "KEY PEM"
constexpr const char* kCaData = "Q0EgUEVN";
constexpr const char* kCertData = "Q0VSVCBQRU0=";
constexpr const char* kKeyData = "S0VZIFBFTQ==";

std::string kubeconfig(const std::string& cluster, const std::string& user,
                       const std::string& current = "current-context: main\n") {
  return "apiVersion: v1\nkind: Config\n" + current +
         "contexts:\n- name: main\n  context:\n    cluster: c1\n    user: u1\n    namespace: team-a\n"
         "clusters:\n- name: c1\n  cluster:\n" +
         cluster + "users:\n- name: u1\n  user:\n" + user;
}

InClusterEnvironment fake_env(std::map<std::string, std::string> values, std::filesystem::path dir = {}) {
  InClusterEnvironment env;
  if (!dir.empty()) env.service_account_dir = dir;
  env.getenv = [values](const char* name) -> std::optional<std::string> {
    auto found = values.find(name);
    return found == values.end() ? std::nullopt : std::optional<std::string>(found->second);
  };
  return env;
}

TEST(Kubeconfig, token_and_ca_data_of_the_current_context) {
  testing::TempDir dir;
  write(dir / "config",
        kubeconfig("    server: https://10.0.0.1:6443\n    certificate-authority-data: " + std::string(kCaData) + "\n",
                   "    token: secret-token\n"));
  Result<ClientConfig> config = load_kubeconfig({dir / "config"});
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_TRUE(config->tls);
  EXPECT_EQ(config->host, "10.0.0.1");
  EXPECT_EQ(config->port, "6443");
  EXPECT_EQ(config->host_port(), "10.0.0.1:6443");
  EXPECT_EQ(config->ca_pem, "CA PEM");
  EXPECT_FALSE(config->insecure_skip_tls_verify);
  ASSERT_TRUE(config->token);
  EXPECT_EQ(*config->token->value(), "secret-token");
  EXPECT_EQ(config->default_namespace, "team-a");
  EXPECT_THAT(config->source, HasSubstr("(context main)"));
  EXPECT_THAT(config->source, Not(HasSubstr("secret-token")));
}

TEST(Kubeconfig, client_certificate_and_key_as_data_or_files_relative_to_the_kubeconfig) {
  testing::TempDir dir;
  write(dir / "config", kubeconfig("    server: https://api.example.com\n    insecure-skip-tls-verify: true\n",
                                   "    client-certificate-data: " + std::string(kCertData) +
                                       "\n    client-key-data: " + kKeyData + "\n"));
  Result<ClientConfig> config = load_kubeconfig({dir / "config"});
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->port, "443");
  EXPECT_TRUE(config->insecure_skip_tls_verify);
  EXPECT_EQ(config->client_cert_pem, "CERT PEM");
  EXPECT_EQ(config->client_key_pem, "KEY PEM");
  EXPECT_FALSE(config->token);

  std::filesystem::create_directory(dir / "pki");
  write(dir / "pki" / "ca.crt", "CA FILE");
  write(dir / "pki" / "client.crt", "CERT FILE");
  write(dir / "pki" / "client.key", "KEY FILE");
  write(dir / "config", kubeconfig("    server: https://[::1]:8443/prefix/\n    certificate-authority: pki/ca.crt\n"
                                   "    tls-server-name: kubernetes\n",
                                   "    client-certificate: pki/client.crt\n    client-key: " +
                                       (dir / "pki" / "client.key").string() + "\n"));
  config = load_kubeconfig({dir / "config"});
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->host, "::1");
  EXPECT_EQ(config->host_port(), "[::1]:8443");
  EXPECT_EQ(config->base_path, "/prefix");
  EXPECT_EQ(config->tls_server_name, "kubernetes");
  EXPECT_EQ(config->ca_pem, "CA FILE");
  EXPECT_EQ(config->client_cert_pem, "CERT FILE");
  EXPECT_EQ(config->client_key_pem, "KEY FILE");
}

TEST(Kubeconfig, token_file_is_read_again_when_it_changes) {
  testing::TempDir dir;
  write(dir / "token", "first\n");
  write(dir / "config", kubeconfig("    server: http://127.0.0.1:8080\n", "    tokenFile: token\n"));
  Result<ClientConfig> config = load_kubeconfig({dir / "config"});
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_FALSE(config->tls);
  EXPECT_EQ(*config->token->value(), "first");
  write(dir / "token", "second-token");
  EXPECT_EQ(*config->token->value(), "second-token");
  std::filesystem::remove(dir / "token");
  EXPECT_EQ(*config->token->value(), "second-token") << "a failed re-read keeps the last good token";
}

TEST(Kubeconfig, an_explicit_context_replaces_current_context) {
  testing::TempDir dir;
  write(dir / "config",
        "current-context: main\ncontexts:\n- name: main\n  context: {cluster: c1, user: u1}\n"
        "- name: other\n  context: {cluster: c1, user: u2}\nclusters:\n- name: c1\n  cluster: {server: 'https://a:1'}\n"
        "users:\n- name: u1\n  user: {token: t1}\n- name: u2\n  user: {token: t2}\n");
  Result<ClientConfig> config = load_kubeconfig({dir / "config"}, "other");
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(*config->token->value(), "t2");
}

TEST(Kubeconfig, files_of_KUBECONFIG_merge_first_value_wins) {
  testing::TempDir dir;
  write(dir / "a", "current-context: main\nusers:\n- name: u1\n  user: {token: from-a}\n");
  write(dir / "b",
        "current-context: ignored\ncontexts:\n- name: main\n  context: {cluster: c1, user: u1}\n"
        "clusters:\n- name: c1\n  cluster: {server: 'https://b:6443'}\nusers:\n- name: u1\n  user: {token: from-b}\n");
  Result<ClientConfig> config = resolve_client_config(
      "",
      fake_env({{"KUBECONFIG", (dir / "missing").string() + ":" + (dir / "a").string() + ":" + (dir / "b").string()}}));
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->host, "b");
  EXPECT_EQ(*config->token->value(), "from-a");
}

TEST(Kubeconfig, the_flag_comes_before_KUBECONFIG) {
  testing::TempDir dir;
  write(dir / "flag", kubeconfig("    server: https://flag:1\n", "    token: t\n"));
  write(dir / "env", kubeconfig("    server: https://env:1\n", "    token: t\n"));
  Result<ClientConfig> config =
      resolve_client_config((dir / "flag").string(), fake_env({{"KUBECONFIG", (dir / "env")}}));
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->host, "flag");
}

// Each error names the file and the field and says what to do, and never quotes a secret.
struct BadKubeconfig {
  const char* what;
  std::string text;
  std::vector<std::string> expected;
};

TEST(Kubeconfig, invalid_files_give_errors_that_name_the_field_and_the_fix) {
  const std::vector<BadKubeconfig> cases = {
      {"invalid YAML", "current-context: [unclosed\n  token: hunter2", {"line ", "not valid YAML", "fix the file"}},
      {"not a mapping", "- just\n- a list\n", {"expected a YAML mapping"}},
      {"no current context",
       kubeconfig("    server: https://a:1\n", "    token: hunter2\n", ""),
       {"current-context: not set", "use-context", "main"}},
      {"unknown context",
       kubeconfig("    server: https://a:1\n", "    token: hunter2\n", "current-context: nope\n"),
       {"context \"nope\" is not defined", "contexts: main"}},
      {"no server",
       kubeconfig("    insecure-skip-tls-verify: false\n", "    token: hunter2\n"),
       {"clusters[0] \"c1\": server: required", "https://"}},
      {"bad server",
       kubeconfig("    server: ftp://a\n", "    token: hunter2\n"),
       {"clusters[0] \"c1\": server:", "https:// (or http://) URL"}},
      {"bad port", kubeconfig("    server: https://a:99999\n", "    token: hunter2\n"), {"port \"99999\""}},
      {"bad base64",
       kubeconfig("    server: https://a:1\n    certificate-authority-data: '%%%'\n", "    token: hunter2\n"),
       {"certificate-authority-data: not valid base64"}},
      {"missing CA file",
       kubeconfig("    server: https://a:1\n    certificate-authority: nowhere.crt\n", "    token: x\n"),
       {"certificate-authority: cannot read", "nowhere.crt", "exists and is readable"}},
      {"bad boolean",
       kubeconfig("    server: https://a:1\n    insecure-skip-tls-verify: yes-please\n", "    token: x\n"),
       {"insecure-skip-tls-verify: expected true or false"}},
      {"cert without key",
       kubeconfig("    server: https://a:1\n", "    client-certificate-data: Q0VSVCBQRU0=\n"),
       {"client-certificate is set without client-key", "set both"}},
      {"exec plugin",
       kubeconfig("    server: https://a:1\n", "    exec:\n      command: aws\n"),
       {"users[0] \"u1\": exec: credential plugins are not supported"}},
      {"unnamed entry", "clusters:\n- cluster: {server: 'https://a:1'}\n", {"clusters[0]", "name: required"}},
  };
  testing::TempDir dir;
  for (const BadKubeconfig& c : cases) {
    write(dir / "config", c.text);
    Result<ClientConfig> config = load_kubeconfig({dir / "config"});
    ASSERT_FALSE(config.ok()) << c.what;
    EXPECT_THAT(config.message(), HasSubstr("kubeconfig " + (dir / "config").string() + ": ")) << c.what;
    for (const std::string& part : c.expected) EXPECT_THAT(config.message(), HasSubstr(part)) << c.what;
    EXPECT_THAT(config.message(), Not(HasSubstr("hunter2"))) << c.what;
  }
}

TEST(Kubeconfig, missing_files_are_named) {
  testing::TempDir dir;
  Result<ClientConfig> config = load_kubeconfig({dir / "absent"});
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.message(), HasSubstr((dir / "absent").string() + ": no such file"));
  EXPECT_THAT(config.message(), HasSubstr("--kubeconfig"));
  config = resolve_client_config("", fake_env({{"KUBECONFIG", (dir / "x").string() + ":" + (dir / "y").string()}}));
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.message(), HasSubstr("none of its files exists"));
}

TEST(InCluster, service_account_token_ca_and_namespace) {
  testing::TempDir dir;
  write(dir / "token", "sa-token-1");
  write(dir / "ca.crt", "CLUSTER CA");
  write(dir / "namespace", "koord-queue");
  Result<ClientConfig> config = resolve_client_config(
      "", fake_env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}, dir.path()));
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->host_port(), "10.96.0.1:443");
  EXPECT_EQ(config->ca_pem, "CLUSTER CA");
  EXPECT_EQ(config->default_namespace, "koord-queue");
  EXPECT_EQ(*config->token->value(), "sa-token-1");
  EXPECT_EQ(config->source, "in-cluster service account");
  // The kubelet rotates the projected token: the next request sends the new one.
  write(dir / "token", "sa-token-2-rotated");
  EXPECT_EQ(*config->token->value(), "sa-token-2-rotated");
}

TEST(InCluster, an_IPv6_service_host) {
  testing::TempDir dir;
  write(dir / "token", "t");
  write(dir / "ca.crt", "CA");
  Result<ClientConfig> config = load_in_cluster_config(
      fake_env({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "443"}}, dir.path()));
  ASSERT_TRUE(config.ok()) << config.message();
  EXPECT_EQ(config->host_port(), "[fd00::1]:443");
}

TEST(InCluster, errors_say_what_is_missing) {
  testing::TempDir dir;
  Result<ClientConfig> config = resolve_client_config("", fake_env({}, dir.path()));
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.message(), HasSubstr("KUBERNETES_SERVICE_HOST"));
  EXPECT_THAT(config.message(), HasSubstr("--kubeconfig"));

  auto env = fake_env({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}, {"KUBERNETES_SERVICE_PORT", "443"}}, dir.path());
  config = load_in_cluster_config(env);
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.message(), HasSubstr((dir / "token").string()));
  write(dir / "token", "t");
  config = load_in_cluster_config(env);
  ASSERT_FALSE(config.ok());
  EXPECT_THAT(config.message(), HasSubstr("ca.crt: missing or empty"));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
