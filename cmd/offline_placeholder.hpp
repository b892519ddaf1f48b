// Until the journal and replay are built, the offline commands validate their arguments and stop
// here: a missing journal is reported as such (exit code 3), anything else as not implemented
// (exit code 1).
#pragma once

#include <string_view>

#include "cmd/journal_source.hpp"

namespace koordq::cmd {

int report_not_implemented(std::string_view command, const JournalSource& source);

}  // namespace koordq::cmd
