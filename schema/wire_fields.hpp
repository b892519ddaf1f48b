// Field-level helpers shared by the Cap'n Proto codecs (schema/wire_*.cpp, actors/wire).
// Conventions of model.capnp: optionals are `absent`/`value` unions, maps are sorted entry lists.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <capnp/list.h>

#include "schema/model.capnp.h"
#include "schema/object_meta.hpp"
#include "schema/resource_list.hpp"

namespace koordq::schema::wire_fields {

// The returned reader points into `s`, which is NUL-terminated as Text requires.
inline capnp::Text::Reader text(const std::string& s) {
  return capnp::Text::Reader(s.data(), s.size());
}

inline std::string to_string(capnp::Text::Reader t) {
  return std::string(t.begin(), t.size());
}

// Into a string already in place (reusing its buffer, no temporary to move).
inline void assign(std::string& s, capnp::Text::Reader t) {
  s.assign(t.begin(), t.size());
}

// For an optional whose value is a scalar or Text: `group` is the builder of its union.
template <class Group, class T>
void write_optional(Group group, const std::optional<T>& v) {
  if (v) {
    group.setValue(*v);
  } else {
    group.setAbsent();
  }
}

// For an optional string: `group` is the builder of its Text union.
template <class Group>
void write_optional_text(Group group, const std::optional<std::string>& v) {
  if (v) {
    group.setValue(text(*v));
  } else {
    group.setAbsent();
  }
}

template <class Group>
std::optional<std::string> read_optional_text(Group group) {
  if (group.isValue()) return to_string(group.getValue());
  return std::nullopt;
}

// Into an optional string in place.
template <class Group>
void read_optional_text(Group group, std::optional<std::string>& out) {
  if (group.isValue()) {
    assign(out.emplace(), group.getValue());
  } else {
    out.reset();
  }
}

template <class Group>
auto read_optional(Group group) -> std::optional<decltype(group.getValue())> {
  if (group.isValue()) return group.getValue();
  return std::nullopt;
}

// `Map`: a StringMap, or a std::map of strings.
template <class Map>
void write_string_map(capnp::List<wire::StringEntry>::Builder out, const Map& map) {
  unsigned i = 0;
  for (const auto& [key, value] : map) {
    auto entry = out[i++];
    entry.setKey(text(key));
    entry.setValue(text(value));
  }
}

// Keys out of order are accepted; of duplicate keys the first wins.
inline StringMap read_string_map(capnp::List<wire::StringEntry>::Reader in) {
  StringMap::sequence_type entries;
  entries.reserve(in.size());
  for (auto entry : in) entries.emplace_back(to_string(entry.getKey()), to_string(entry.getValue()));
  StringMap map;
  adopt_entries(map, std::move(entries), DuplicateKeys::kFirstWins);
  return map;
}

inline void write_resource_list(capnp::List<wire::ResourceEntry>::Builder out, const ResourceList& list) {
  unsigned i = 0;
  for (const auto& [name, quantity] : list) {
    auto entry = out[i++];
    entry.setName(text(name));
    entry.setQuantity(text(quantity));
  }
}

inline ResourceList read_resource_list(capnp::List<wire::ResourceEntry>::Reader in) {
  ResourceList::sequence_type entries;
  entries.reserve(in.size());
  for (auto entry : in) entries.emplace_back(to_string(entry.getName()), to_string(entry.getQuantity()));
  ResourceList list;
  adopt_entries(list, std::move(entries), DuplicateKeys::kFirstWins);
  return list;
}

// Writes `items` into a freshly initialised list with `write_one(builder, item)`.
template <class ListBuilder, class Item, class WriteOne>
void write_list(ListBuilder out, const std::vector<Item>& items, WriteOne write_one) {
  unsigned i = 0;
  for (const auto& item : items) write_one(out[i++], item);
}

template <class Item, class ListReader, class ReadOne>
std::vector<Item> read_list(ListReader in, ReadOne read_one) {
  std::vector<Item> items;
  items.reserve(in.size());
  for (auto element : in) items.push_back(read_one(element));
  return items;
}

}  // namespace koordq::schema::wire_fields
