// Where the debug API's checkpoint endpoint may write (behaviour.md §17.1, `--journal-checkpoint-
// root`): only in a new directory under one root, reached without `..` and without following a
// symbolic link, every directory it creates (the root too) made 0700. A loopback client can then
// neither write a journal copy (secrets included) anywhere the process may write, nor read one it
// could not read before.
#pragma once

#include <filesystem>
#include <string_view>

#include "base/result.hpp"

namespace koordq::journal {

// The directory a checkpoint requested as `requested` is written to: an absolute path under
// `root`, or a path relative to it. Creates the root and the missing directories between it and
// the checkpoint (not the checkpoint's own, which must not exist) with mode 0700. Errors name the
// problem and the root.
Result<std::filesystem::path> checkpoint_dir_under(const std::filesystem::path& root, std::string_view requested);

}  // namespace koordq::journal
