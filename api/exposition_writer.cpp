#include "api/exposition_writer.hpp"

#include <charconv>
#include <cmath>
#include <limits>

namespace koordq::api {
namespace {

const char* type_name(prometheus::MetricType type) {
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

template <typename Integer>
void append_integer(std::string& out, Integer value) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value).ptr;
  out.append(buffer, end);
}

}  // namespace

void ExpositionWriter::append_value(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "Nan";
  } else if (std::isinf(value)) {
    out += value < 0 ? "-Inf" : "+Inf";
  } else if (value == std::trunc(value) && std::abs(value) < 1e15 && !(value == 0 && std::signbit(value))) {
    // "%.16g" of an integer below 10^15 is its decimal digits; most queueing values are counts.
    append_integer(out, static_cast<int64_t>(value));
  } else {
    // std::to_chars with a precision is specified as printf "%.*g" in the C locale.
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general, 16).ptr;
    out.append(buffer, end);
  }
}

void ExpositionWriter::append_escaped(std::string& out, std::string_view label_value) {
  size_t start = 0;
  for (size_t i = 0; i < label_value.size(); ++i) {
    const char c = label_value[i];
    if (c != '\\' && c != '"' && c != '\n') continue;
    out.append(label_value.data() + start, i - start);
    out += '\\';
    out += c == '\n' ? 'n' : c;
    start = i + 1;
  }
  out.append(label_value.data() + start, label_value.size() - start);
}

void ExpositionWriter::family(std::string_view name, std::string_view help, prometheus::MetricType type) {
  if (!help.empty()) {
    out_ += "# HELP ";
    out_ += name;
    out_ += ' ';
    out_ += help;
    out_ += '\n';
  }
  out_ += "# TYPE ";
  out_ += name;
  out_ += ' ';
  out_ += type_name(type);
  out_ += '\n';
}

void ExpositionWriter::head(std::string_view name, std::string_view suffix, Labels labels, const double* le) {
  out_ += name;
  out_ += suffix;
  if (labels.size() != 0 || le != nullptr) {
    char separator = '{';
    for (const Label& label : labels) {
      out_ += separator;
      out_ += label.name;
      out_ += "=\"";
      append_escaped(out_, label.value);
      out_ += '"';
      separator = ',';
    }
    if (le != nullptr) {
      out_ += separator;
      out_ += "le=\"";
      append_value(out_, *le);
      out_ += '"';
    }
    out_ += '}';
  }
  out_ += ' ';
}

void ExpositionWriter::count_line(uint64_t count) {
  append_integer(out_, count);
  out_ += '\n';
}

void ExpositionWriter::sample(std::string_view name, Labels labels, double value) {
  head(name, {}, labels);
  append_value(out_, value);
  out_ += '\n';
}

void ExpositionWriter::histogram(std::string_view name, Labels labels, const double* bounds, const uint64_t* cumulative,
                                 size_t n, uint64_t count, double sum) {
  head(name, "_count", labels);
  count_line(count);
  head(name, "_sum", labels);
  append_value(out_, sum);
  out_ += '\n';
  for (size_t i = 0; i < n; ++i) {
    head(name, "_bucket", labels, &bounds[i]);
    count_line(cumulative[i]);
  }
  const double inf = std::numeric_limits<double>::infinity();
  head(name, "_bucket", labels, &inf);
  count_line(count);
}

}  // namespace koordq::api
