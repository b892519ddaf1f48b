// `koordq journal keygen` (behaviour.md §24.4): the Ed25519 key pair that signs the journal.
#include <cstdio>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/journal_flags.hpp"
#include "journal/signing_key.hpp"

namespace koordq::cmd {

int run_journal_keygen(const JournalKeygenOptions& options) {
  constexpr std::string_view kCommand = "journal keygen";
  if (Status made = journal::generate_signing_key_pair(options.private_key_file, options.public_key_file); !made.ok()) {
    return fail_command(kCommand, made.message(), kExitUsage);
  }
  auto key = journal::VerifyingKey::load(options.public_key_file);
  if (!key.ok()) return fail_command(kCommand, key.message(), kExitUsage);
  std::printf("key %s: private key %s (mode 0600), public key %s\n", key->key_id().c_str(),
              options.private_key_file.c_str(), options.public_key_file.c_str());
  return kExitSuccess;
}

}  // namespace koordq::cmd
