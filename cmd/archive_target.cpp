#include "cmd/archive_target.hpp"

#include <fmt/format.h>

#include "archive/s3_config.hpp"

namespace koordq::cmd {

Result<OpenedArchive> open_archive(const ArchiveTarget& target) {
  auto location = archive::parse_archive_url(target.url);
  if (!location.ok()) return location.error();
  auto addressing = archive::parse_s3_addressing(target.addressing);
  if (!addressing.ok()) return addressing.error();
  auto config = archive::s3_config_from_environment(archive::process_environment(), *addressing);
  if (!config.ok()) return config.error();
  return OpenedArchive{std::move(location).value(), std::make_unique<archive::S3Client>(std::move(config).value())};
}

Result<archive::ArchivedJournal> pick_journal(std::vector<archive::ArchivedJournal> journals,
                                              const ArchiveTarget& target, std::string_view cluster_flag,
                                              std::string_view journal_flag) {
  std::string all;
  for (const auto& j : journals) all += (all.empty() ? "" : ", ") + j.cluster + "/" + j.journal;
  std::vector<archive::ArchivedJournal> matching;
  for (auto& j : journals) {
    if ((target.cluster.empty() || j.cluster == target.cluster) &&
        (target.journal.empty() || j.journal == target.journal)) {
      matching.push_back(std::move(j));
    }
  }
  if (matching.size() == 1) return std::move(matching.front());
  if (matching.empty()) {
    return make_error(fmt::format("{} holds no journal{}{}{}; `koordq archive ls --archive-url {}` lists what it holds",
                                  target.url, target.cluster.empty() ? "" : " of cluster " + target.cluster,
                                  target.journal.empty() ? "" : " with UUID " + target.journal,
                                  all.empty() ? "" : " (it holds " + all + ")", target.url));
  }
  std::string names;
  for (const auto& j : matching) names += (names.empty() ? "" : ", ") + j.cluster + "/" + j.journal;
  return make_error(fmt::format("{} holds {} journals ({}); name one with {} and {}", target.url, matching.size(),
                                names, cluster_flag, journal_flag));
}

}  // namespace koordq::cmd
