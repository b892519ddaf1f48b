// One record as an `audit.k8s.io/v1` Event line (`koordq journal export --format audit`), so
// audit pipelines that ingest Kubernetes audit logs take koordq's journal as it is. The auditID
// derives from the journal UUID and seq; the annotations carry the journal, seq, kind, prevHash
// and hash, so every line can be checked against the chain.
#pragma once

#include <string>
#include <string_view>

#include "journal/export_trailer.hpp"
#include "journal/stored_record.hpp"

namespace koordq::journal {

std::string render_audit_line(const StoredRecord& record, std::string_view journal_uuid);

// The audit export's last line: an Event with verb "export-trailer" whose annotations carry the
// NDJSON export's trailer object (koordq.io/trailer) and its signature (koordq.io/signature), so an
// audit pipeline can tell an export cut at its end and check the signature with the public key
// (the statement of signed_statements.hpp). `time`: the last record's (unix nanoseconds).
std::string render_audit_trailer(const ExportTrailer& trailer, int64_t time);
inline constexpr std::string_view kAuditLineStart = "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\"";

// A UUID (version 8 layout) from SHA-256(journal UUID ‖ ":" ‖ seq).
std::string audit_id(std::string_view journal_uuid, uint64_t seq);

}  // namespace koordq::journal
