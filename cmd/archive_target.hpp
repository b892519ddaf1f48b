// Which archive, and which journal in it, a command reads (behaviour.md §26): the flags the
// archive commands and the offline readers share, the S3 client they open, and the one journal
// they pick among those the prefix holds (an error listing them when more than one fits).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "archive/archive_location.hpp"
#include "archive/archive_reader.hpp"
#include "archive/s3_client.hpp"
#include "base/result.hpp"

namespace koordq::cmd {

struct ArchiveTarget {
  std::string url;  // s3://BUCKET[/PREFIX]
  std::string addressing = "auto";
  std::string cluster;  // empty: the only one there
  std::string journal;  // empty: the only one of that cluster

  friend bool operator==(const ArchiveTarget&, const ArchiveTarget&) = default;
};

struct OpenedArchive {
  archive::ArchiveLocation location;
  std::unique_ptr<archive::S3Client> client;
};

// The location and a client configured from the environment; an error names what is wrong.
Result<OpenedArchive> open_archive(const ArchiveTarget& target);

// The one journal the target names (or the only one there is); when none or several fit, an error
// listing what the prefix holds and the flags that choose (`cluster_flag`, `journal_flag`).
Result<archive::ArchivedJournal> pick_journal(std::vector<archive::ArchivedJournal> journals,
                                              const ArchiveTarget& target, std::string_view cluster_flag = "--cluster",
                                              std::string_view journal_flag = "--journal");

}  // namespace koordq::cmd
