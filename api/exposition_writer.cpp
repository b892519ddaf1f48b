#include "api/exposition_writer.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace koordq::api {
namespace {

std::string_view type_name(prometheus::MetricType type) {
  switch (type) {
    case prometheus::MetricType::Counter:
      return "counter";
    case prometheus::MetricType::Gauge:
      return "gauge";
    case prometheus::MetricType::Summary:
      return "summary";
    case prometheus::MetricType::Histogram:
      return "histogram";
    default:
      return "untyped";
  }
}

char* put(char* at, std::string_view text) {
  if (!text.empty()) std::memcpy(at, text.data(), text.size());  // an empty view may have no data
  return at + text.size();
}

// Label values with `\`, `"` and newline escaped: at most twice their length.
char* put_escaped(char* at, std::string_view value) {
  for (const char c : value) {
    if (c == '\\' || c == '"' || c == '\n') {
      *at++ = '\\';
      *at++ = c == '\n' ? 'n' : c;
    } else {
      *at++ = c;
    }
  }
  return at;
}

constexpr size_t kIntegerRoom = 21;  // uint64_t in decimal, and a newline

char* put_count_line(char* at, uint64_t count) {
  at = std::to_chars(at, at + 20, count).ptr;
  *at++ = '\n';
  return at;
}

}  // namespace

char* ExpositionWriter::put_value(char* at, double value) {
  if (std::isnan(value)) return put(at, "Nan");
  if (std::isinf(value)) return put(at, value < 0 ? "-Inf" : "+Inf");
  if (value == std::trunc(value) && std::abs(value) < 1e15 && !(value == 0 && std::signbit(value))) {
    // "%.16g" of an integer below 10^15 is its decimal digits; most queueing values are counts.
    return std::to_chars(at, at + kValueRoom, static_cast<int64_t>(value)).ptr;
  }
  // std::to_chars with a precision is specified as printf "%.*g" in the C locale.
  return std::to_chars(at, at + kValueRoom, value, std::chars_format::general, 16).ptr;
}

char* ExpositionWriter::room(size_t n) {
  if (end_ + n > out_.size()) out_.resize(std::max({end_ + n, 2 * out_.size(), out_.capacity()}));
  return out_.data() + end_;
}

size_t ExpositionWriter::head_room(std::string_view name, std::span<const Label> labels) {
  size_t n = name.size() + 16;  // suffix, braces, the space
  for (const Label& label : labels) n += label.name.size() + 2 * label.value.size() + 4;
  return n + 6 + kValueRoom;  // le="<bound>"
}

void ExpositionWriter::family(std::string_view name, std::string_view help, prometheus::MetricType type) {
  char* at = room(2 * name.size() + help.size() + 32);
  if (!help.empty()) {
    at = put(at, "# HELP ");
    at = put(at, name);
    *at++ = ' ';
    at = put(at, help);
    *at++ = '\n';
  }
  at = put(at, "# TYPE ");
  at = put(at, name);
  *at++ = ' ';
  at = put(at, type_name(type));
  *at++ = '\n';
  end_ = static_cast<size_t>(at - out_.data());
}

char* ExpositionWriter::head(char* at, std::string_view name, std::string_view suffix, std::span<const Label> labels,
                             const double* le) {
  at = put(at, name);
  at = put(at, suffix);
  if (!labels.empty() || le != nullptr) {
    char separator = '{';
    for (const Label& label : labels) {
      *at++ = separator;
      at = put(at, label.name);
      at = put(at, "=\"");
      at = put_escaped(at, label.value);
      *at++ = '"';
      separator = ',';
    }
    if (le != nullptr) {
      *at++ = separator;
      at = put(at, "le=\"");
      at = put_value(at, *le);
      *at++ = '"';
    }
    *at++ = '}';
  }
  *at++ = ' ';
  return at;
}

void ExpositionWriter::sample(std::string_view name, std::span<const Label> labels, double value) {
  char* at = room(head_room(name, labels) + kValueRoom + 1);
  at = head(at, name, {}, labels, nullptr);
  at = put_value(at, value);
  *at++ = '\n';
  end_ = static_cast<size_t>(at - out_.data());
}

void ExpositionWriter::histogram(std::string_view name, std::span<const Label> labels, std::span<const double> bounds,
                                 std::span<const uint64_t> cumulative, uint64_t count, double sum) {
  const size_t n = std::min(bounds.size(), cumulative.size());
  const size_t line = head_room(name, labels) + kValueRoom + kIntegerRoom;
  char* at = room((n + 3) * line);
  at = head(at, name, "_count", labels, nullptr);
  at = put_count_line(at, count);
  at = head(at, name, "_sum", labels, nullptr);
  at = put_value(at, sum);
  *at++ = '\n';
  for (size_t i = 0; i < n; ++i) {
    at = head(at, name, "_bucket", labels, &bounds[i]);
    at = put_count_line(at, cumulative[i]);
  }
  const double inf = std::numeric_limits<double>::infinity();
  at = head(at, name, "_bucket", labels, &inf);
  at = put_count_line(at, count);
  end_ = static_cast<size_t>(at - out_.data());
}

}  // namespace koordq::api
