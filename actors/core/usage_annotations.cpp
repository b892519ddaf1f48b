#include "actors/core/usage_annotations.hpp"

#include <algorithm>

namespace koordq::actors {

const char* const kUsageAnnotationNames[6] = {
    "alibabacloud.com/queue-used",
    "alibabacloud.com/queue-self-used",
    "alibabacloud.com/queue-children-used",
    "alibabacloud.com/queue-guaranteed-used",
    "alibabacloud.com/queue-self-guaranteed-used",
    "alibabacloud.com/queue-children-guaranteed-used",
};

namespace {

// The slots in the bytewise order of their names.
const std::array<size_t, UsageAnnotations::kSlots>& bytewise_slots() {
  static const auto order = [] {
    std::array<size_t, UsageAnnotations::kSlots> slots{};
    for (size_t i = 0; i < slots.size(); ++i) slots[i] = i;
    std::sort(slots.begin(), slots.end(), [](size_t a, size_t b) {
      return std::string_view(kUsageAnnotationNames[a]) < std::string_view(kUsageAnnotationNames[b]);
    });
    return slots;
  }();
  return order;
}

}  // namespace

UsageAnnotations::UsageAnnotations(std::initializer_list<std::pair<std::string_view, std::string>> entries) {
  for (const auto& [name, value] : entries) {
    const auto slot = slot_of(name);
    if (!slot) throw std::invalid_argument("not a usage annotation: " + std::string(name));
    values_[*slot] = value;
  }
}

std::optional<size_t> UsageAnnotations::slot_of(std::string_view name) {
  // The names as views, measured once: the six lengths differ, so a name is compared with at most
  // one of them.
  static const auto names = [] {
    std::array<std::string_view, kSlots> views;
    for (size_t i = 0; i < kSlots; ++i) views[i] = kUsageAnnotationNames[i];
    return views;
  }();
  for (size_t i = 0; i < kSlots; ++i) {
    if (name == names[i]) return i;
  }
  return std::nullopt;
}

const std::string* UsageAnnotations::find(std::string_view name) const {
  const auto slot = slot_of(name);
  return slot && values_[*slot] ? &*values_[*slot] : nullptr;
}

const std::string& UsageAnnotations::at(std::string_view name) const {
  if (const std::string* value = find(name)) return *value;
  throw std::out_of_range("no usage annotation " + std::string(name));
}

size_t UsageAnnotations::size() const {
  return static_cast<size_t>(
      std::count_if(values_.begin(), values_.end(), [](const auto& v) { return v.has_value(); }));
}

UsageAnnotations::const_iterator::value_type UsageAnnotations::const_iterator::operator*() const {
  const size_t slot = bytewise_slots()[at_];
  return {kUsageAnnotationNames[slot], *of_->values_[slot]};
}

UsageAnnotations::const_iterator& UsageAnnotations::const_iterator::operator++() {
  ++at_;
  skip_absent();
  return *this;
}

void UsageAnnotations::const_iterator::skip_absent() {
  while (at_ < kSlots && !of_->values_[bytewise_slots()[at_]]) ++at_;
}

}  // namespace koordq::actors
