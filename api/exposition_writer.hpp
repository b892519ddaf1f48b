// The Prometheus text format 0.0.4 written straight into one string, byte for byte as
// prometheus-cpp 1.0's TextSerializer writes the same MetricFamily values: HELP as given (it is not
// escaped), label values with `\`, `"` and newline escaped, doubles as printf "%.16g" in the C
// locale (NaN as `Nan`, infinities as `+Inf`/`-Inf`), counts as integers, no timestamps, and a
// histogram's `_count`, `_sum`, then one `_bucket` per bound with `le` last and `+Inf` at the end.
// The queueing families are projected through it at scrape time: no MetricFamily per series, no
// string or map per label (BENCHMARKS.md "Serving surfaces"); tests/unit/api_exposition_writer_test.cpp
// holds it to prometheus-cpp's output.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>

#include <prometheus/metric_type.h>

namespace koordq::api {

struct Label {
  std::string_view name;
  std::string_view value;
};
using Labels = std::initializer_list<Label>;

// Appends to `out`; the text is complete once the writer is destroyed (it writes into spare room
// at the end of `out` and trims it then).
class ExpositionWriter {
 public:
  explicit ExpositionWriter(std::string& out) : out_(out), end_(out.size()) {}
  ~ExpositionWriter() { out_.resize(end_); }
  ExpositionWriter(const ExpositionWriter&) = delete;
  ExpositionWriter& operator=(const ExpositionWriter&) = delete;

  // Where the next line starts in `out`.
  size_t position() const { return end_; }

  // The family's "# HELP" (left out when `help` is empty) and "# TYPE" lines.
  void family(std::string_view name, std::string_view help, prometheus::MetricType type);
  // One sample line `name{labels} value` (no braces without labels).
  void sample(std::string_view name, std::span<const Label> labels, double value);
  void sample(std::string_view name, Labels labels, double value) { sample(name, span(labels), value); }
  // A histogram series: `bounds[i]` ascending upper bounds, `cumulative[i]` the observations
  // ≤ bounds[i], `count` all of them; the `+Inf` bucket is written after the bounds.
  void histogram(std::string_view name, std::span<const Label> labels, std::span<const double> bounds,
                 std::span<const uint64_t> cumulative, uint64_t count, double sum);
  void histogram(std::string_view name, Labels labels, std::span<const double> bounds,
                 std::span<const uint64_t> cumulative, uint64_t count, double sum) {
    histogram(name, span(labels), bounds, cumulative, count, sum);
  }

  // A double as prometheus-cpp writes it (a sample value, a `_sum`, an `le` bound), at `at`, which
  // has room for kValueRoom characters; returns the end.
  static constexpr size_t kValueRoom = 32;
  static char* put_value(char* at, double value);

 private:
  // Room for `n` more characters at the end; returns where they go.
  char* room(size_t n);
  // `name<suffix>{labels[,le="<le>"]} `, in room reserved by the caller (see head_room).
  char* head(char* at, std::string_view name, std::string_view suffix, std::span<const Label> labels, const double* le);
  static size_t head_room(std::string_view name, std::span<const Label> labels);
  static std::span<const Label> span(Labels labels) { return {labels.begin(), labels.size()}; }

  std::string& out_;
  size_t end_;  // of the text written; out_ beyond it is spare room
};

}  // namespace koordq::api
