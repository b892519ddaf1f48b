#include "api/json_out.hpp"

#include "schema/quantity.hpp"

namespace koordq::api {

JsonOut& JsonOut::rendered_vector(const schema::ResourceVector& vector) {
  begin_object();
  for (const auto& [name, amount] : vector) field(name, schema::render_internal_amount(name, amount));
  return end_object();
}

}  // namespace koordq::api
