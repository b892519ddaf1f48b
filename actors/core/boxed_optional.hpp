// An optional value kept on the heap: the size of a pointer while empty. For members of the
// per-unit state that are large and rarely set (a QueueUnitStatus is ≈ 370 bytes), so that every
// waiting unit does not carry their room inline. Value semantics: copies copy the value.
#pragma once

#include <memory>
#include <optional>
#include <utility>

namespace koordq::actors {

template <class T>
class BoxedOptional {
 public:
  BoxedOptional() = default;
  BoxedOptional(std::nullopt_t) {}  // NOLINT(google-explicit-constructor): like std::optional
  BoxedOptional(const T& value) : value_(std::make_unique<T>(value)) {}        // NOLINT(google-explicit-constructor)
  BoxedOptional(T&& value) : value_(std::make_unique<T>(std::move(value))) {}  // NOLINT(google-explicit-constructor)
  BoxedOptional(const BoxedOptional& other) : value_(other ? std::make_unique<T>(*other) : nullptr) {}
  BoxedOptional(BoxedOptional&&) noexcept = default;
  ~BoxedOptional() = default;

  BoxedOptional& operator=(const BoxedOptional& other) {
    if (this != &other) *this = other ? BoxedOptional(*other) : BoxedOptional();
    return *this;
  }
  BoxedOptional& operator=(BoxedOptional&&) noexcept = default;
  BoxedOptional& operator=(std::nullopt_t) {
    value_.reset();
    return *this;
  }
  BoxedOptional& operator=(const T& value) { return assign(T(value)); }
  BoxedOptional& operator=(T&& value) { return assign(std::move(value)); }

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const T& operator*() const { return *value_; }
  T& operator*() { return *value_; }
  const T* operator->() const { return value_.get(); }
  T* operator->() { return value_.get(); }
  void reset() { value_.reset(); }
  // A default value in place of the current one, to be filled where it stays.
  T& emplace() {
    value_ = std::make_unique<T>();
    return *value_;
  }

  friend bool operator==(const BoxedOptional& a, const BoxedOptional& b) {
    return a.has_value() == b.has_value() && (!a.has_value() || *a == *b);
  }

 private:
  BoxedOptional& assign(T&& value) {
    if (value_) {
      *value_ = std::move(value);
    } else {
      value_ = std::make_unique<T>(std::move(value));
    }
    return *this;
  }

  std::unique_ptr<T> value_;
};

}  // namespace koordq::actors
