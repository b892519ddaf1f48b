// The small maps of an object (labels, annotations, resource lists and vectors) are flat: sorted
// vectors of (key, value), one allocation each, so that a unit's object is a few blocks of memory
// instead of a tree node per entry (BENCHMARKS.md, "Flat maps in the objects").
#pragma once

#include <algorithm>
#include <utility>

#include <boost/container/flat_map.hpp>

namespace koordq::schema {

template <class Key, class Value>
using FlatMap = boost::container::flat_map<Key, Value>;

enum class DuplicateKeys { kFirstWins, kLastWins };

// `entries` in any order become the map's contents in O(n log n) (an entry inserted before others
// moves all of them: a map filled out of order one entry at a time is quadratic in its size).
template <class Map>
void adopt_entries(Map& out, typename Map::sequence_type&& entries, DuplicateKeys duplicates) {
  const auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  const auto same_key = [](const auto& a, const auto& b) { return a.first == b.first; };
  const bool strictly_sorted = std::adjacent_find(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
                                 return !(a.first < b.first);
                               }) == entries.end();
  if (!strictly_sorted) {
    std::stable_sort(entries.begin(), entries.end(), by_key);
    if (duplicates == DuplicateKeys::kLastWins) {
      // Of each run of one key keep the last: reversed, `unique` keeps the first of a run.
      std::reverse(entries.begin(), entries.end());
      entries.erase(std::unique(entries.begin(), entries.end(), same_key), entries.end());
      std::reverse(entries.begin(), entries.end());
    } else {
      entries.erase(std::unique(entries.begin(), entries.end(), same_key), entries.end());
    }
  }
  out.adopt_sequence(boost::container::ordered_unique_range, std::move(entries));
}

}  // namespace koordq::schema
