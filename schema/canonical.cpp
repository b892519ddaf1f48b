#include "schema/canonical.hpp"

#include <capnp/any.h>
#include <capnp/message.h>

#include "schema/wire_message.hpp"
#include "schema/wire_schema_version.hpp"

namespace koordq::schema {

static_assert(kWireSchemaMajor == wire::SCHEMA_MAJOR && kWireSchemaMinor == wire::SCHEMA_MINOR,
              "wire_schema_version.hpp must match record.capnp");

namespace detail {

std::string canonical_struct_bytes(const capnp::_::StructReader& root) {
  const size_t words = root.totalSize().wordCount + 1;  // and the root pointer
  // Zeroed, as a FlatMessageBuilder needs, with room behind for a 32-byte trailer (the journal
  // appends the record's hash) that then needs no reallocation and copy.
  std::string out(words * sizeof(capnp::word) + 32, '\0');
  capnp::FlatMessageBuilder builder(kj::arrayPtr(reinterpret_cast<capnp::word*>(out.data()), words));
  capnp::_::PointerHelpers<capnp::AnyPointer>::getInternalBuilder(builder.initRoot<capnp::AnyPointer>())
      .setStruct(root, true);
  out.resize(builder.getSegmentsForOutput()[0].size() * sizeof(capnp::word));
  return out;
}

}  // namespace detail

std::string canonical_record_bytes(wire::Record::Reader record) {
  capnp::MallocMessageBuilder copy;
  copy.setRoot(record);
  auto root = copy.getRoot<wire::Record>();
  if (root.hasHash()) root.disownHash();
  return canonical_bytes(root.asReader());
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
