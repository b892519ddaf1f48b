#include "kube/client/client_config.hpp"

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "base/base64.hpp"

namespace koordq::kube {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// One named entry of a kubeconfig list (clusters, users, contexts) with where it came from.
struct Entry {
  YAML::Node body;
  fs::path file;
  std::string where;  // `users[0] "admin"`
};

struct Merged {
  std::string current_context;
  fs::path current_context_file;
  std::map<std::string, Entry> clusters, users, contexts;
};

std::string at_line(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return mark.line >= 0 ? " (line " + std::to_string(mark.line + 1) + ")" : "";
}

class FileReader {
 public:
  explicit FileReader(fs::path file) : file_(std::move(file)) {}

  Error error(const std::string& what) const { return make_error("kubeconfig " + file_.string() + ": " + what); }

  // A scalar field of `node`; std::nullopt when absent or null.
  Result<std::optional<std::string>> scalar(const YAML::Node& node, const std::string& where, const char* key) const {
    YAML::Node value = node[key];
    if (!value || value.IsNull()) return std::optional<std::string>();
    if (!value.IsScalar()) return error(where + ": " + key + at_line(value) + ": expected a string");
    return std::optional<std::string>(value.Scalar());
  }

  Status merge(const YAML::Node& root, Merged& merged) const {
    if (!root || root.IsNull()) return ok_status();  // an empty file contributes nothing
    if (!root.IsMap()) return error("expected a YAML mapping with clusters, users and contexts; is this a kubeconfig?");
    Result<std::optional<std::string>> current = scalar(root, "top level", "current-context");
    if (!current.ok()) return current.error();
    if (merged.current_context.empty() && *current && !(*current)->empty()) {
      merged.current_context = **current;
      merged.current_context_file = file_;
    }
    for (auto [list, key, target] :
         {std::tuple{"clusters", "cluster", &merged.clusters}, std::tuple{"users", "user", &merged.users},
          std::tuple{"contexts", "context", &merged.contexts}}) {
      YAML::Node items = root[list];
      if (!items || items.IsNull()) continue;
      if (!items.IsSequence()) return error(std::string(list) + at_line(items) + ": expected a list");
      for (size_t i = 0; i < items.size(); ++i) {
        const YAML::Node item = items[i];
        std::string where = std::string(list) + "[" + std::to_string(i) + "]";
        if (!item.IsMap()) return error(where + at_line(item) + ": expected a mapping with name and " + key);
        Result<std::optional<std::string>> name = scalar(item, where, "name");
        if (!name.ok()) return name.error();
        if (!*name || (*name)->empty()) return error(where + at_line(item) + ": name: required, missing or empty");
        where += " \"" + **name + "\"";
        YAML::Node body = item[key];
        if (body && !body.IsNull() && !body.IsMap()) {
          return error(where + ": " + key + at_line(body) + ": expected a mapping");
        }
        target->emplace(**name, Entry{body ? body : YAML::Node(YAML::NodeType::Map), file_, where});
      }
    }
    return ok_status();
  }

 private:
  fs::path file_;
};

// A file path in a kubeconfig is relative to the file that names it.
fs::path resolve_path(const fs::path& kubeconfig, const std::string& path) {
  fs::path p(path);
  return p.is_absolute() ? p : kubeconfig.parent_path() / p;
}

// `<key>-data` (base64) or `<key>` (a file path) of an entry; empty when neither is set.
Result<std::string> data_or_file(const Entry& entry, const std::string& key, const char* fix) {
  FileReader reader(entry.file);
  Result<std::optional<std::string>> data = reader.scalar(entry.body, entry.where, (key + "-data").c_str());
  if (!data.ok()) return data.error();
  if (*data && !(*data)->empty()) {
    std::optional<std::string> decoded = base::base64_decode_wrapped(**data);
    if (!decoded) {
      return reader.error(entry.where + ": " + key + "-data: not valid base64; " + fix);
    }
    return *decoded;
  }
  Result<std::optional<std::string>> path = reader.scalar(entry.body, entry.where, key.c_str());
  if (!path.ok()) return path.error();
  if (!*path || (*path)->empty()) return std::string();
  fs::path file = resolve_path(entry.file, **path);
  std::optional<std::string> content = read_file(file);
  if (!content) {
    return reader.error(entry.where + ": " + key + ": cannot read " + file.string() +
                        "; check that the file exists and is readable");
  }
  return *content;
}

Result<bool> boolean(const Entry& entry, const char* key) {
  FileReader reader(entry.file);
  Result<std::optional<std::string>> text = reader.scalar(entry.body, entry.where, key);
  if (!text.ok()) return text.error();
  if (!*text) return false;
  if (**text == "true") return true;
  if (**text == "false") return false;
  return reader.error(entry.where + ": " + key + ": expected true or false, got \"" + **text + "\"");
}

Status apply_cluster(const Entry& cluster, ClientConfig& config) {
  FileReader reader(cluster.file);
  Result<std::optional<std::string>> server = reader.scalar(cluster.body, cluster.where, "server");
  if (!server.ok()) return server.error();
  if (!*server || (*server)->empty()) {
    return reader.error(cluster.where +
                        ": server: required, missing or empty; set it to the API server's URL, "
                        "e.g. https://127.0.0.1:6443");
  }
  Status parsed = parse_server_url(**server, config);
  if (!parsed.ok()) return reader.error(cluster.where + ": server: " + parsed.message());
  Result<std::string> ca =
      data_or_file(cluster, "certificate-authority", "it must hold the PEM CA certificate(s), base64-encoded");
  if (!ca.ok()) return ca.error();
  config.ca_pem = std::move(*ca);
  Result<bool> insecure = boolean(cluster, "insecure-skip-tls-verify");
  if (!insecure.ok()) return insecure.error();
  config.insecure_skip_tls_verify = *insecure;
  Result<std::optional<std::string>> server_name = reader.scalar(cluster.body, cluster.where, "tls-server-name");
  if (!server_name.ok()) return server_name.error();
  if (*server_name) config.tls_server_name = **server_name;
  return ok_status();
}

Status apply_user(const Entry& user, ClientConfig& config) {
  FileReader reader(user.file);
  for (const char* unsupported : {"exec", "auth-provider"}) {
    if (user.body[unsupported] && !user.body[unsupported].IsNull()) {
      return reader.error(user.where + ": " + unsupported +
                          ": credential plugins are not supported; use a user with token, tokenFile or "
                          "client-certificate/client-key");
    }
  }
  Result<std::string> cert = data_or_file(user, "client-certificate", "it must hold the PEM client certificate");
  if (!cert.ok()) return cert.error();
  Result<std::string> key = data_or_file(user, "client-key", "it must hold the PEM private key");
  if (!key.ok()) return key.error();
  if (cert->empty() != key->empty()) {
    return reader.error(user.where + ": " +
                        (cert->empty() ? "client-key is set without client-certificate"
                                       : "client-certificate is set without client-key") +
                        "; set both (or their -data forms) or neither");
  }
  config.client_cert_pem = std::move(*cert);
  config.client_key_pem = std::move(*key);
  Result<std::optional<std::string>> token = reader.scalar(user.body, user.where, "token");
  if (!token.ok()) return token.error();
  Result<std::optional<std::string>> token_file = reader.scalar(user.body, user.where, "tokenFile");
  if (!token_file.ok()) return token_file.error();
  if (*token && !(*token)->empty()) {
    config.token = BearerToken::fixed(**token);
  } else if (*token_file && !(*token_file)->empty()) {
    config.token = BearerToken::from_file(resolve_path(user.file, **token_file));
  }
  return ok_status();
}

std::string names_of(const std::map<std::string, Entry>& entries) {
  std::string names;
  for (const auto& [name, entry] : entries) names += (names.empty() ? "" : ", ") + name;
  return names.empty() ? "none" : names;
}

}  // namespace

std::string ClientConfig::host_port() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

Status parse_server_url(const std::string& url, ClientConfig& config) {
  std::string rest;
  if (url.rfind("https://", 0) == 0) {
    config.tls = true;
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    config.tls = false;
    rest = url.substr(7);
  } else {
    return make_error("\"" + url + "\": expected an https:// (or http://) URL, e.g. https://127.0.0.1:6443");
  }
  size_t slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : rest.substr(slash);
  while (!path.empty() && path.back() == '/') path.pop_back();
  std::string host;
  std::string port;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string::npos) return make_error("\"" + url + "\": unterminated IPv6 address");
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return make_error("\"" + url + "\": expected :port after the IPv6 address");
      port = authority.substr(close + 2);
    }
  } else {
    size_t colon = authority.rfind(':');
    host = authority.substr(0, colon);
    if (colon != std::string::npos) port = authority.substr(colon + 1);
  }
  if (host.empty()) return make_error("\"" + url + "\": no host");
  if (port.empty()) port = config.tls ? "443" : "80";
  if (port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 || std::stoi(port) > 65535 ||
      std::stoi(port) == 0) {
    return make_error("\"" + url + "\": port \"" + port + "\" is not a number from 1 to 65535");
  }
  config.host = host;
  config.port = port;
  config.base_path = path;
  return ok_status();
}

Result<ClientConfig> load_kubeconfig(const std::vector<fs::path>& files, const std::string& context) {
  if (files.empty()) return make_error("kubeconfig: no file given; pass --kubeconfig=PATH or set KUBECONFIG");
  Merged merged;
  for (const fs::path& file : files) {
    FileReader reader(file);
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) {
      return reader.error(std::string(fs::exists(file, ec) ? "not a regular file" : "no such file") +
                          "; pass --kubeconfig=PATH or set KUBECONFIG to an existing kubeconfig");
    }
    std::optional<std::string> text = read_file(file);
    if (!text) return reader.error("cannot be read; check its permissions");
    YAML::Node root;
    try {
      root = YAML::Load(*text);
    } catch (const YAML::Exception& e) {
      // e.msg describes the syntax problem; e.what() would also be fine, but quote no content.
      return reader.error("line " + std::to_string(e.mark.line + 1) + ": not valid YAML (" + e.msg +
                          "); fix the file's syntax");
    }
    Status ok = reader.merge(root, merged);
    if (!ok.ok()) return ok.error();
  }
  const fs::path& first = files.front();
  std::string context_name = context.empty() ? merged.current_context : context;
  fs::path named_in = context.empty() ? merged.current_context_file : first;
  if (context_name.empty()) {
    return FileReader(first).error("current-context: not set; set it (kubectl config use-context NAME) to one of: " +
                                   names_of(merged.contexts));
  }
  auto found_context = merged.contexts.find(context_name);
  if (found_context == merged.contexts.end()) {
    return FileReader(named_in).error("context \"" + context_name +
                                      "\" is not defined; contexts: " + names_of(merged.contexts));
  }
  const Entry& ctx = found_context->second;
  FileReader ctx_reader(ctx.file);
  Result<std::optional<std::string>> cluster_name = ctx_reader.scalar(ctx.body, ctx.where, "cluster");
  if (!cluster_name.ok()) return cluster_name.error();
  Result<std::optional<std::string>> user_name = ctx_reader.scalar(ctx.body, ctx.where, "user");
  if (!user_name.ok()) return user_name.error();
  Result<std::optional<std::string>> ns = ctx_reader.scalar(ctx.body, ctx.where, "namespace");
  if (!ns.ok()) return ns.error();
  if (!*cluster_name || (*cluster_name)->empty()) {
    return ctx_reader.error(ctx.where +
                            ": cluster: required, missing or empty; name one of: " + names_of(merged.clusters));
  }
  auto cluster = merged.clusters.find(**cluster_name);
  if (cluster == merged.clusters.end()) {
    return ctx_reader.error(ctx.where + ": cluster \"" + **cluster_name +
                            "\" is not defined; clusters: " + names_of(merged.clusters));
  }
  ClientConfig config;
  Status applied = apply_cluster(cluster->second, config);
  if (!applied.ok()) return applied.error();
  if (*user_name && !(*user_name)->empty()) {
    auto user = merged.users.find(**user_name);
    if (user == merged.users.end()) {
      return ctx_reader.error(ctx.where + ": user \"" + **user_name +
                              "\" is not defined; users: " + names_of(merged.users));
    }
    applied = apply_user(user->second, config);
    if (!applied.ok()) return applied.error();
  }
  config.default_namespace = ns->value_or("");
  config.source = "kubeconfig " + first.string() + " (context " + context_name + ")";
  return config;
}

InClusterEnvironment process_environment() {
  InClusterEnvironment env;
  env.getenv = [](const char* name) -> std::optional<std::string> {
    const char* value = std::getenv(name);
    return value ? std::optional<std::string>(value) : std::nullopt;
  };
  return env;
}

Result<ClientConfig> load_in_cluster_config(const InClusterEnvironment& env) {
  std::optional<std::string> host = env.getenv("KUBERNETES_SERVICE_HOST");
  std::optional<std::string> port = env.getenv("KUBERNETES_SERVICE_PORT");
  if (!host || host->empty() || !port || port->empty()) {
    return make_error(
        "in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set (they are inside a "
        "pod); outside a cluster pass --kubeconfig=PATH or set KUBECONFIG");
  }
  ClientConfig config;
  std::string bracketed = host->find(':') != std::string::npos ? "[" + *host + "]" : *host;
  Status parsed = parse_server_url("https://" + bracketed + ":" + *port, config);
  if (!parsed.ok()) return make_error("in-cluster configuration: KUBERNETES_SERVICE_HOST/PORT: " + parsed.message());
  fs::path token = env.service_account_dir / "token";
  config.token = BearerToken::from_file(token);
  Result<std::string> first = config.token->value();
  if (!first.ok()) return make_error("in-cluster configuration: " + first.message());
  fs::path ca = env.service_account_dir / "ca.crt";
  std::optional<std::string> ca_pem = read_file(ca);
  if (!ca_pem || ca_pem->empty()) {
    return make_error("in-cluster configuration: " + ca.string() +
                      ": missing or empty; the pod must mount its service account (automountServiceAccountToken)");
  }
  config.ca_pem = std::move(*ca_pem);
  if (std::optional<std::string> ns = read_file(env.service_account_dir / "namespace")) config.default_namespace = *ns;
  config.source = "in-cluster service account";
  return config;
}

Result<ClientConfig> resolve_client_config(const std::string& kubeconfig_flag, const InClusterEnvironment& env) {
  if (!kubeconfig_flag.empty()) return load_kubeconfig({fs::path(kubeconfig_flag)});
  std::optional<std::string> variable = env.getenv("KUBECONFIG");
  if (variable && !variable->empty()) {
    std::vector<fs::path> files;
    std::stringstream list(*variable);
    std::string item;
    while (std::getline(list, item, ':')) {
      std::error_code ec;
      // As client-go: files of KUBECONFIG that do not exist are skipped.
      if (!item.empty() && fs::exists(item, ec)) files.emplace_back(item);
    }
    if (files.empty()) {
      return make_error("KUBECONFIG=" + *variable +
                        ": none of its files exists; point it at a kubeconfig or pass --kubeconfig=PATH");
    }
    return load_kubeconfig(files);
  }
  return load_in_cluster_config(env);
}

}  // namespace koordq::kube
