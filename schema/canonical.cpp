#include "schema/canonical.hpp"

#include <capnp/message.h>

#include "schema/wire_message.hpp"
#include "schema/wire_schema_version.hpp"

namespace koordq::schema {

static_assert(kWireSchemaMajor == wire::SCHEMA_MAJOR && kWireSchemaMinor == wire::SCHEMA_MINOR,
              "wire_schema_version.hpp must match record.capnp");

std::string canonical_record_bytes(wire::Record::Reader record) {
  capnp::MallocMessageBuilder copy;
  copy.setRoot(record);
  auto root = copy.getRoot<wire::Record>();
  if (root.hasHash()) root.disownHash();
  const auto words = capnp::canonicalize(root.asReader());
  const auto bytes = words.asBytes();
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

Result<std::string> canonical_record_bytes(std::string_view record_bytes) {
  auto message = wire::FlatMessage::open(record_bytes);
  if (!message) return message.error();
  try {
    return canonical_record_bytes(message->root<wire::Record>());
  } catch (const kj::Exception& e) {
    return make_error("malformed record: " + wire::describe(e));
  }
}

}  // namespace koordq::schema
