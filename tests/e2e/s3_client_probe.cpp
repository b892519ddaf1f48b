// Drives archive/'s S3Client alone, one request per run, for tests/e2e/s3_client_test.sh:
//   s3_client_probe [--addressing auto|path|virtual] COMMAND ARGS...
//     put BUCKET KEY FILE [MODE UNTIL]    prints etag=… version=…
//     get BUCKET KEY [FIRST-LAST|FIRST-] [VERSION]   writes the bytes to stdout
//     head BUCKET KEY [VERSION]           prints size=… etag=… version=… lock=… until=…
//     delete BUCKET KEY [VERSION]         prints version=… delete_marker=…
//     list BUCKET PREFIX PAGE_SIZE        prints one key and size a line, then pages=N
//     lock-config BUCKET                  prints enabled=… mode=… days=…
// Configuration from the AWS_* environment. A failed request prints
// "error kind=KIND status=STATUS code=CODE: TEXT" on stderr and exits 1; bad usage exits 2.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "archive/s3_client.hpp"
#include "archive/s3_xml.hpp"
#include "base/rfc3339.hpp"

namespace {

using namespace koordq::archive;

int usage() {
  std::cerr << "usage: s3_client_probe [--addressing auto|path|virtual] put|get|head|delete|list|lock-config ARGS...\n";
  return 2;
}

int report(const S3Error& error) {
  std::cerr << "error kind=" << s3_error_kind_name(error.kind) << " status=" << error.http_status
            << " code=" << error.code << ": " << error.text << "\n";
  return 1;
}

std::string arg(const std::vector<std::string>& args, std::size_t i) {
  return i < args.size() ? args[i] : std::string();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  S3Addressing addressing = S3Addressing::kAuto;
  if (args.size() >= 2 && args[0] == "--addressing") {
    const koordq::Result<S3Addressing> parsed = parse_s3_addressing(args[1]);
    if (!parsed.ok()) {
      std::cerr << parsed.message() << "\n";
      return 2;
    }
    addressing = *parsed;
    args.erase(args.begin(), args.begin() + 2);
  }
  if (args.size() < 2) return usage();
  koordq::Result<S3Config> config = s3_config_from_environment(process_environment(), addressing);
  if (!config.ok()) {
    std::cerr << config.message() << "\n";
    return 2;
  }
  S3Client client(std::move(config.value()));
  const std::string& command = args[0];
  const std::string& bucket = args[1];

  if (command == "put" && (args.size() == 4 || args.size() == 6)) {
    std::ifstream file(args[3], std::ios::binary);
    if (!file) return usage();
    std::ostringstream body;
    body << file.rdbuf();
    PutObjectOptions options;
    if (args.size() == 6) {
      const auto mode = parse_object_lock_mode(args[4]);
      if (!mode) return usage();
      const koordq::Result<std::int64_t> until = koordq::base::parse_rfc3339(args[5]);
      if (!until.ok()) {
        std::cerr << until.message() << "\n";
        return 2;
      }
      options.retention = ObjectRetention{*mode, *until};
    }
    const S3Result<PutObjectResult> put = client.put_object(bucket, args[2], body.str(), options);
    if (!put.ok()) return report(put.error());
    std::cout << "etag=" << put->etag << " version=" << put->version_id << "\n";
    return 0;
  }
  if (command == "get" && args.size() >= 3 && args.size() <= 5) {
    std::optional<ByteRange> range;
    if (const std::string text = arg(args, 3); !text.empty()) {
      const auto dash = text.find('-');
      if (dash == std::string::npos) return usage();
      range = ByteRange{std::stoull(text.substr(0, dash)), std::nullopt};
      if (dash + 1 < text.size()) range->last = std::stoull(text.substr(dash + 1));
    }
    const S3Result<std::string> got = client.get_object(bucket, args[2], range, arg(args, 4));
    if (!got.ok()) return report(got.error());
    std::cout << got.value();
    return 0;
  }
  if (command == "head" && args.size() >= 3 && args.size() <= 4) {
    const S3Result<ObjectHead> head = client.head_object(bucket, args[2], arg(args, 3));
    if (!head.ok()) return report(head.error());
    std::cout << "size=" << head->size << " etag=" << head->etag << " version=" << head->version_id
              << " lock=" << (head->retention ? object_lock_mode_name(head->retention->mode) : "none") << " until="
              << (head->retention ? koordq::base::format_rfc3339_seconds(head->retention->retain_until_unix_nanos) : "")
              << "\n";
    return 0;
  }
  if (command == "delete" && args.size() >= 3 && args.size() <= 4) {
    const S3Result<DeleteObjectResult> deleted = client.delete_object(bucket, args[2], arg(args, 3));
    if (!deleted.ok()) return report(deleted.error());
    std::cout << "version=" << deleted->version_id << " delete_marker=" << (deleted->delete_marker ? "true" : "false")
              << "\n";
    return 0;
  }
  if (command == "list" && args.size() == 4) {
    std::string token;
    int pages = 0;
    do {
      const S3Result<ListObjectsPage> page = client.list_objects_v2(bucket, args[2], token, std::stoi(args[3]));
      if (!page.ok()) return report(page.error());
      ++pages;
      for (const ListedObject& object : page->objects) std::cout << object.key << " " << object.size << "\n";
      token = page->truncated ? page->next_continuation_token : std::string();
    } while (!token.empty());
    std::cout << "pages=" << pages << "\n";
    return 0;
  }
  if (command == "lock-config" && args.size() == 2) {
    const S3Result<ObjectLockConfiguration> lock = client.get_object_lock_configuration(bucket);
    if (!lock.ok()) return report(lock.error());
    std::cout << "enabled=" << (lock->enabled ? "true" : "false")
              << " mode=" << (lock->default_mode ? object_lock_mode_name(*lock->default_mode) : "none")
              << " days=" << lock->default_days.value_or(0) << "\n";
    return 0;
  }
  return usage();
}
