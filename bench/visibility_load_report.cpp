#include "bench/visibility_load_report.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sys/resource.h>

namespace koordq::bench::visibility_load {
namespace {

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

}  // namespace

Summary summarize(Stats& stats, double seconds) {
  Summary s;
  auto& v = stats.latency_ns;
  std::sort(v.begin(), v.end());
  s.requests = v.size();
  s.rps = static_cast<double>(v.size()) / seconds;
  s.bytes_per_s = static_cast<double>(stats.bytes) / seconds;
  const auto at = [&](double q) {
    if (v.empty()) return 0.0;
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1);
    return static_cast<double>(v[i]) / 1e6;
  };
  s.p50 = at(0.50);
  s.p90 = at(0.90);
  s.p99 = at(0.99);
  s.p999 = at(0.999);
  s.max = v.empty() ? 0 : static_cast<double>(v.back()) / 1e6;
  return s;
}

void print_text(const Options& o, const LoadRun& run, const Stats& stats, const Summary& s) {
  uint64_t transport = 0;
  for (const auto& [m, n] : stats.transport_errors) transport += n;
  fmt::print("url        {}\n", o.url);
  if (o.rate > 0) {
    fmt::print("mode       open loop at {:g} req/s, {} connections, {} (after {} warm-up)\n", o.rate,
               run.open_connections(), o.duration, o.warmup);
  } else {
    fmt::print("mode       closed loop, {} connections, {} (after {} warm-up)\n", run.open_connections(), o.duration,
               o.warmup);
  }
  fmt::print("requests   {} ({:.1f} req/s), errors {} (non-2xx {}, transport {})\n", s.requests, s.rps,
             stats.non_2xx + transport, stats.non_2xx, transport);
  fmt::print("latency    p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  p99.9 {:.3f} ms  max {:.3f} ms\n", s.p50, s.p90,
             s.p99, s.p999, s.max);
  fmt::print("transfer   {:.2f} MB/s\n", s.bytes_per_s / 1e6);
  if (o.rate > 0 && run.backlog() > 0) {
    fmt::print("backlog    {} of {} scheduled requests were never sent: the rate was not sustained\n", run.backlog(),
               run.scheduled_in_window());
  }
  std::string statuses;
  for (const auto& [code, n] : stats.statuses) statuses += fmt::format(" {}: {}", code, n);
  fmt::print("status    {}\n", statuses);
  for (const auto& [message, n] : stats.transport_errors) fmt::print("error      {} x {}\n", n, message);
}

void print_json(const Options& o, const LoadRun& run, const Stats& stats, const Summary& s) {
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> w(text);
  uint64_t transport = 0;
  for (const auto& [m, n] : stats.transport_errors) transport += n;
  w.StartObject();
  w.Key("url");
  w.String(o.url);
  w.Key("mode");
  w.String(o.rate > 0 ? "open" : "closed");
  w.Key("rate");
  w.Double(o.rate);
  w.Key("connections");
  w.Uint64(run.open_connections());
  w.Key("duration_s");
  w.Double(run.window_seconds());
  w.Key("requests");
  w.Uint64(s.requests);
  w.Key("errors");
  w.Uint64(stats.non_2xx + transport);
  w.Key("non_2xx");
  w.Uint64(stats.non_2xx);
  w.Key("status");
  w.StartObject();
  for (const auto& [code, n] : stats.statuses) {
    const std::string name = std::to_string(code);
    w.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    w.Uint64(n);
  }
  w.EndObject();
  w.Key("transport_errors");
  w.StartObject();
  for (const auto& [message, n] : stats.transport_errors) {
    w.Key(message.c_str(), static_cast<rapidjson::SizeType>(message.size()));
    w.Uint64(n);
  }
  w.EndObject();
  w.Key("not_sent");
  w.Uint64(run.backlog());
  w.Key("completed_total");
  w.Uint64(stats.completed_total);
  w.Key("client_cpu_s");
  w.Double(cpu_seconds());
  w.Key("req_per_s");
  w.Double(s.rps);
  w.Key("bytes_per_s");
  w.Double(s.bytes_per_s);
  w.Key("latency_ms");
  w.StartObject();
  w.Key("p50");
  w.Double(s.p50);
  w.Key("p90");
  w.Double(s.p90);
  w.Key("p99");
  w.Double(s.p99);
  w.Key("p99.9");
  w.Double(s.p999);
  w.Key("max");
  w.Double(s.max);
  w.EndObject();
  w.EndObject();
  std::cout << text.GetString() << "\n";
}

}  // namespace koordq::bench::visibility_load
