// §2.3 / §14.3: the six usage annotations koordq keeps on a Queue, each the compact JSON of one
// usage vector when present. Six slots rather than a map from name to value: a round carries them
// for every Queue whose usage changed and the fold keeps the last ones, so building, comparing and
// replacing them allocates nothing per annotation (the names are the slots).
#pragma once

#include <array>
#include <cstddef>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace koordq::actors {

// The six annotation names of §2.3 / §14.3, in the order Used, SelfUsed, ChildrenUsed,
// GuaranteedUsed, SelfGuaranteedUsed, ChildrenGuaranteedUsed: the slots of UsageAnnotations.
extern const char* const kUsageAnnotationNames[6];

class UsageAnnotations {
 public:
  static constexpr size_t kSlots = 6;
  // The slots, in the order of kUsageAnnotationNames.
  enum Slot : size_t { kUsed, kSelfUsed, kChildrenUsed, kGuaranteedUsed, kSelfGuaranteedUsed, kChildrenGuaranteedUsed };

  UsageAnnotations() = default;
  // Entries by name; a name that is none of the six throws std::invalid_argument.
  UsageAnnotations(std::initializer_list<std::pair<std::string_view, std::string>> entries);

  // The slot of one of the six names; std::nullopt for any other name.
  static std::optional<size_t> slot_of(std::string_view name);

  void set(size_t slot, std::string value) { values_[slot] = std::move(value); }
  const std::optional<std::string>& get(size_t slot) const { return values_[slot]; }
  // The value of an annotation; nullptr when it is absent or not one of the six.
  const std::string* find(std::string_view name) const;
  // The same; std::out_of_range when absent.
  const std::string& at(std::string_view name) const;
  size_t size() const;
  bool empty() const { return size() == 0; }

  // The present annotations as (name, value), in bytewise name order (the order of the map this
  // replaced, and of the records written with it).
  class const_iterator {
   public:
    using value_type = std::pair<std::string_view, const std::string&>;
    value_type operator*() const;
    const_iterator& operator++();
    bool operator==(const const_iterator& other) const { return at_ == other.at_; }

   private:
    friend class UsageAnnotations;
    const_iterator(const UsageAnnotations* of, size_t at) : of_(of), at_(at) { skip_absent(); }
    void skip_absent();
    const UsageAnnotations* of_;
    size_t at_;  // position in the bytewise order of the names
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, kSlots); }

  bool operator==(const UsageAnnotations&) const = default;

 private:
  std::array<std::optional<std::string>, kSlots> values_;
};

}  // namespace koordq::actors
