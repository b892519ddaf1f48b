// Raw JSON of watched objects in the journal (`--journal-raw-objects`, behaviour.md §21).
//
// kFull keeps an object's bytes exactly as received. kRedacted keeps them too, except that every
// `env[].value` and every entry value of a `data`, `stringData` or `binaryData` object, at any
// depth, becomes the JSON string `<redacted hmac-sha256:<64 lowercase hex>>`, and every value of an
// `annotations` object that is a string holding a JSON object or array (kubectl's
// last-applied-configuration) becomes the string of that document redacted by the same rules.
// The digest is HMAC-SHA256, keyed with the journal's redaction key (journal/redaction_key.hpp),
// of the original value's UTF-8 bytes: for a string, its unescaped content; for any other value,
// its compact JSON text (`{"a":1}`, `42`, `true`, `1.5` for `1.50`). Without the key a marker
// tells nothing of a short secret; with it, equal values in one journal still have equal markers.
// Rules of this implementation:
//  - `null` means absent in Kubernetes, so a null value stays null: there is nothing to hide.
//  - A string that already is a redaction marker is kept, so redacting is idempotent:
//    redact(redact(x)) == redact(x), and journal imports of redacted exports stay unchanged.
//    Markers of journals written before the key, `<redacted sha256:<64 lowercase hex>>`, are
//    markers too.
//  - `data`/`stringData`/`binaryData` that is not an object, and `env` that is not an array of
//    objects, is not a map of secrets and is kept.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::schema {

enum class RawObjectMode { kOff, kRedacted, kFull };

// The flag values `off`, `redacted`, `full`.
Result<RawObjectMode> parse_raw_object_mode(std::string_view text);
const char* raw_object_mode_name(RawObjectMode mode);

// The key of every marker this process makes from now on (kRedactionKeyBytes random bytes, the
// journal's): installed once at start, before any object is redacted. Until then the markers are
// keyed with a random key of this process's own.
inline constexpr size_t kRedactionKeyBytes = 32;
void install_redaction_key(std::string_view key);

// `<redacted hmac-sha256:<hex>>` for the given original bytes.
std::string redaction_marker(std::string_view original);
bool is_redaction_marker(std::string_view text);

// Redacts one JSON document (any JSON value) as kRedacted does. Fails on malformed JSON,
// invalid UTF-8 or nesting deeper than the decoder's cap.
Result<std::string> redact_json(std::string_view json);

}  // namespace koordq::schema
