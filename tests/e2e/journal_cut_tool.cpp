// What an attacker with the journal directory and the signing key does (cluster_witness_test.sh):
// deletes every record and snapshot after KEEP and writes HEAD at KEEP, signed with the key, so that
// `journal verify --public-key` finds a consistent, signed journal. Only the external witness can
// tell. Usage: journal_cut_tool JOURNAL_DIR KEEP PRIVATE_KEY_PEM
#include <cstdio>
#include <cstdlib>
#include <string>

#include <rocksdb/write_batch.h>

#include "journal/head_file.hpp"
#include "journal/journal_reader.hpp"
#include "journal/keys.hpp"
#include "journal/rocks_store.hpp"
#include "journal/signed_statements.hpp"
#include "journal/signing_key.hpp"

int main(int argc, char** argv) {
  using namespace koordq::journal;
  if (argc != 4) {
    std::fprintf(stderr, "usage: journal_cut_tool JOURNAL_DIR KEEP PRIVATE_KEY_PEM\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const uint64_t keep = std::strtoull(argv[2], nullptr, 10);
  auto key = SigningKey::load(argv[3]);
  auto store = RocksStore::open(dir / "db", StoreMode::kPrimary);
  if (!key.ok() || !store.ok()) {
    std::fprintf(stderr, "journal_cut_tool: %s\n", (key.ok() ? store.message() : key.message()).c_str());
    return 1;
  }
  JournalReader reader(**store);
  auto uuid = reader.uuid();
  auto kept = reader.get(keep);
  if (!uuid.ok() || !kept.ok() || !kept->has_value()) {
    std::fprintf(stderr, "journal_cut_tool: no record at seq %llu\n", static_cast<unsigned long long>(keep));
    return 1;
  }
  rocksdb::WriteBatch batch;
  batch.DeleteRange((*store)->log(), seq_key(keep + 1), seq_key(UINT64_MAX));
  batch.DeleteRange((*store)->snapshot(), seq_key(keep + 1), seq_key(UINT64_MAX));
  batch.DeleteRange((*store)->meta(), snapshot_index_key(keep + 1), snapshot_index_key(UINT64_MAX));
  if (!(*store)->write(batch, true).ok()) return 1;
  const ChainHead head{keep, (*kept)->hash()};
  if (!write_head_file(dir / "HEAD", head, key->sign(head_statement(*uuid, head.seq, head.hash))).ok()) return 1;
  std::printf("cut after seq %llu, HEAD re-signed by key %s\n", static_cast<unsigned long long>(keep),
              key->key_id().c_str());
  return 0;
}
