#include "base/uuid.hpp"

#include <algorithm>

#include <boost/uuid/name_generator_sha1.hpp>
#include <boost/uuid/random_generator.hpp>
#include <boost/uuid/uuid_io.hpp>

namespace koordq::base {

std::string random_uuid() {
  return boost::uuids::to_string(boost::uuids::random_generator()());
}

std::string name_uuid(std::string_view name) {
  static const boost::uuids::uuid kKoordqNamespace =
      boost::uuids::name_generator_sha1(boost::uuids::ns::dns())("koordq.io");
  return boost::uuids::to_string(boost::uuids::name_generator_sha1(kKoordqNamespace)(name.data(), name.size()));
}

std::string uuid_text(const std::array<uint8_t, 16>& bytes) {
  boost::uuids::uuid id{};
  std::copy(bytes.begin(), bytes.end(), id.begin());
  return boost::uuids::to_string(id);
}

}  // namespace koordq::base
