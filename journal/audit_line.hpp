// One record as an `audit.k8s.io/v1` Event line (`koordq journal export --format audit`), so
// audit pipelines that ingest Kubernetes audit logs take koordq's journal as it is. The auditID
// derives from the journal UUID and seq; the annotations carry the journal, seq, kind, prevHash
// and hash, so every line can be checked against the chain.
#pragma once

#include <string>
#include <string_view>

#include "journal/stored_record.hpp"

namespace koordq::journal {

std::string render_audit_line(const StoredRecord& record, std::string_view journal_uuid);

// A UUID (version 8 layout) from SHA-256(journal UUID ‖ ":" ‖ seq).
std::string audit_id(std::string_view journal_uuid, uint64_t seq);

}  // namespace koordq::journal
