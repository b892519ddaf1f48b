// The journal's redaction key (behaviour.md §21, `--journal-raw-objects=redacted`): 32 random
// bytes, as 64 hex digits, in the file `redaction.key` of the journal directory (mode 0600), made
// at the journal's first start. It keys the redaction markers (schema/raw_object.hpp). It is not a
// record: exports, checkpoints and the journal stream never carry it.
#pragma once

#include <filesystem>
#include <string>

#include "base/result.hpp"

namespace koordq::journal {

inline constexpr char kRedactionKeyFile[] = "redaction.key";

// The key of the journal in `dir`, made when the directory has none. Errors name the file and
// what is wrong with it (unreadable, not 64 hex digits, cannot be written).
Result<std::string> load_or_create_redaction_key(const std::filesystem::path& dir);

}  // namespace koordq::journal
