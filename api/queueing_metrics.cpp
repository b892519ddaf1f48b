#include "api/queueing_metrics.hpp"

#include <algorithm>
#include <optional>

#include <prometheus/text_serializer.h>

#include "api/exposition_writer.hpp"
#include "api/metric_family_builder.hpp"

namespace koordq::api {
namespace {

using actors::pages::QueuePage;
using actors::pages::ReadPages;
using prometheus::MetricType;

// Internal amounts as the metric shows them: cpu in cores for the namespace family.
double cores_or_units(std::string_view resource, int64_t amount) {
  return resource == "cpu" ? static_cast<double>(amount) / 1000.0 : static_cast<double>(amount);
}

int64_t amount_of(const schema::ResourceVector* amounts, const std::string& resource) {
  if (amounts == nullptr) return 0;
  const auto it = amounts->find(resource);
  return it == amounts->end() ? 0 : it->second;
}

// A histogram's bounds and cumulative counts as the families show them, in `unit`s.
struct HistogramSeries {
  std::vector<double> bounds;
  std::vector<uint64_t> cumulative;
  uint64_t count = 0;
  double sum = 0;

  void assign(const actors::Histogram& h, double unit) {
    bounds.clear();
    cumulative.clear();
    uint64_t n = 0;
    for (size_t i = 0; i < h.bounds.size(); ++i) {
      bounds.push_back(static_cast<double>(h.bounds[i]) / unit);
      if (i < h.counts.size()) n += h.counts[i];
      cumulative.push_back(n);
    }
    count = h.count;
    sum = static_cast<double>(h.sum) / unit;
  }
};

// The projection's two outputs. A family is begun, gets its series, and is ended; one without
// series is left out (§15.4).
class FamilySink {
 public:
  void begin(std::string_view name, std::string_view help, MetricType type) {
    family_.emplace(std::string(name), std::string(help), type);
  }
  void sample(Labels labels, double value) { family_->sample(labels, value); }
  void histogram(Labels labels, const actors::Histogram& h, double unit) {
    series_.assign(h, unit);
    family_->histogram(labels, series_.bounds, series_.cumulative, series_.count, series_.sum);
  }
  void end() {
    if (!family_->empty()) families.push_back(family_->take());
  }

  std::vector<prometheus::MetricFamily> families;

 private:
  std::optional<FamilyBuilder> family_;
  HistogramSeries series_;
};

class TextSink {
 public:
  explicit TextSink(std::string& out) : writer_(out) {}

  void begin(std::string_view name, std::string_view help, MetricType type) {
    name_ = name;
    help_ = help;
    type_ = type;
    begin_ = writer_.position();
    started_ = false;
  }
  void sample(Labels labels, double value) {
    start();
    writer_.sample(name_, labels, value);
  }
  void histogram(Labels labels, const actors::Histogram& h, double unit) {
    start();
    series_.assign(h, unit);
    writer_.histogram(name_, labels, series_.bounds, series_.cumulative, series_.count, series_.sum);
  }
  void end() {
    if (started_) written.push_back({name_, begin_, writer_.position()});
  }

  std::vector<WrittenFamily> written;

 private:
  // The HELP and TYPE lines go out with the first series.
  void start() {
    if (started_) return;
    started_ = true;
    writer_.family(name_, help_, type_);
  }

  ExpositionWriter writer_;
  std::string_view name_, help_;
  MetricType type_ = MetricType::Untyped;
  size_t begin_ = 0;
  bool started_ = false;
  HistogramSeries series_;
};

template <typename Sink>
void queue_gauges(const ReadPages& p, Sink& out) {
  std::vector<const QueuePage*> queues;
  queues.reserve(p.queues->size());
  for (const auto& [name, q] : *p.queues) {
    if (q->queue) queues.push_back(q.get());
  }
  out.begin("queueunits_in_active_queue", "Active waiting QueueUnits of the queue.", MetricType::Gauge);
  for (const QueuePage* q : queues) out.sample({{"queue", q->label}}, static_cast<double>(q->active));
  out.end();
  out.begin("queueunits_in_backoff_queue", "Backoff waiting QueueUnits of the queue.", MetricType::Gauge);
  for (const QueuePage* q : queues) out.sample({{"queue", q->label}}, static_cast<double>(q->backoff));
  out.end();
}

template <typename Sink>
void quota_usage(const ReadPages& p, SeriesMemory& memory, Sink& out) {
  out.begin("dequeued_quota_usage_by_quota",
            "Quota Used by resource; cpu in millicores, other resources in integer units.", MetricType::Gauge);
  // The known quotas and the memory are both in bytewise name order: one walk along both keeps
  // the memory of known quotas and drops that of deleted ones.
  auto& shown_by_quota = memory.quota_resources;
  auto entry = shown_by_quota.begin();
  for (const auto& [name, account] : *p.quotas) {
    while (entry != shown_by_quota.end() && entry->first < name) entry = shown_by_quota.erase(entry);
    if (entry == shown_by_quota.end() || entry->first != name)
      entry = shown_by_quota.emplace_hint(entry, name, SeriesMemory::Shown::mapped_type{});
    SeriesMemory::Shown::mapped_type& shown = (entry++)->second;
    const schema::ResourceVector& used = account->usage.used;
    for (const auto& [resource, amount] : account->max) shown.insert(resource);
    for (const auto& [resource, amount] : used) shown.insert(resource);
    for (const std::string& resource : shown) {
      out.sample({{"quota", name}, {"resource", resource}}, static_cast<double>(amount_of(&used, resource)));
    }
  }
  shown_by_quota.erase(entry, shown_by_quota.end());
  out.end();
}

void remember(SeriesMemory::Shown::mapped_type& shown, std::string_view value) {
  const auto it = shown.lower_bound(value);
  if (it == shown.end() || *it != value) shown.emplace_hint(it, value);
}

template <typename Sink>
void namespace_gauges(const ReadPages& p, SeriesMemory& memory, Sink& out) {
  const auto& namespaces = *p.namespaces;
  // A namespace's series stay, at 0 when nothing counts, until it has had no QueueUnit for
  // 5 minutes (§15.4): until then it has units or an entry in namespace_empty_since.
  for (const auto& [ns, counts] : namespaces) {
    if (!counts->used.empty()) {
      auto it = memory.namespace_resources.lower_bound(ns);
      if (it == memory.namespace_resources.end() || it->first != ns) {
        it = memory.namespace_resources.emplace_hint(it, ns, SeriesMemory::Shown::mapped_type{});
      }
      for (const auto& [resource, amount] : counts->used) remember(it->second, resource);
    }
    if (!counts->types.empty()) {
      auto it = memory.namespace_types.lower_bound(ns);
      if (it == memory.namespace_types.end() || it->first != ns) {
        it = memory.namespace_types.emplace_hint(it, ns, SeriesMemory::Shown::mapped_type{});
      }
      for (const auto& [type, n] : counts->types) remember(it->second, type);
    }
  }
  const auto& empty_since = p.metrics->namespace_empty_since;
  auto gone = [&](const auto& entry) { return !namespaces.count(entry.first) && !empty_since.count(entry.first); };
  std::erase_if(memory.namespace_resources, gone);
  std::erase_if(memory.namespace_types, gone);

  out.begin("dequeued_quota_usage_by_namespace",
            "Charge of the namespace's QueueUnits holding quota; cpu in cores, others in integer units.",
            MetricType::Gauge);
  for (const auto& [ns, resources] : memory.namespace_resources) {
    const auto counts = namespaces.find(ns);
    const schema::ResourceVector* used = counts == namespaces.end() ? nullptr : &counts->second->used;
    for (const std::string& resource : resources) {
      out.sample({{"namespace", ns}, {"resource", resource}}, cores_or_units(resource, amount_of(used, resource)));
    }
  }
  out.end();
  out.begin("queueunits_by_job_type", "Existing QueueUnits by spec.consumerRef.kind.", MetricType::Gauge);
  for (const auto& [ns, types] : memory.namespace_types) {
    const auto counts = namespaces.find(ns);
    for (const std::string& type : types) {
      int64_t n = 0;
      if (counts != namespaces.end()) {
        if (const auto it = counts->second->types.find(type); it != counts->second->types.end()) n = it->second;
      }
      out.sample({{"namespace", ns}, {"type", type}}, static_cast<double>(n));
    }
  }
  out.end();
}

// Whether queues exist, asked in ascending name order: one walk along the queue pages.
class QueueWalk {
 public:
  explicit QueueWalk(const ReadPages& p) : queues_(*p.queues), at_(queues_.begin()) {}
  bool exists(const std::string& name) {
    while (at_ != queues_.end() && at_->first < name) ++at_;
    return at_ != queues_.end() && at_->first == name && at_->second->queue;
  }

 private:
  const actors::pages::PageMap<QueuePage>& queues_;
  actors::pages::PageMap<QueuePage>::const_iterator at_;
};

// The journaled counters and the admission-wait histogram; a queue's series go with the queue.
// Both maps are keyed by queue name first, as the queues are.
template <typename Sink>
void journaled(const ReadPages& p, Sink& out) {
  const actors::QueueingMetrics& m = *p.metrics;
  out.begin("queueunits_coming_rate_by_job_type",
            "QueueUnits entering an effective phase, by namespace, job type and phase.", MetricType::Counter);
  for (const auto& [labels, n] : m.coming) {
    out.sample({{"namespace", std::get<0>(labels)}, {"type", std::get<1>(labels)}, {"status", std::get<2>(labels)}},
               static_cast<double>(n));
  }
  out.end();
  out.begin("job_schedule_attempts", "Scheduling attempts by queue and result.", MetricType::Counter);
  QueueWalk attempts_queue(p);
  for (const auto& [labels, n] : m.attempts) {
    if (attempts_queue.exists(labels.first))
      out.sample({{"queue", labels.first}, {"result", labels.second}}, static_cast<double>(n));
  }
  out.end();
  out.begin("koordq_admission_wait_seconds", "Seconds from creation or the last re-enqueue to admission, by queue.",
            MetricType::Histogram);
  QueueWalk wait_queue(p);
  for (const auto& [queue, h] : m.admission_wait) {
    if (wait_queue.exists(queue)) out.histogram({{"queue", queue}}, h, 1e9);
  }
  out.end();
}

template <typename Sink>
void project(const ReadPages& p, SeriesMemory& memory, Sink& out) {
  queue_gauges(p, out);
  quota_usage(p, memory, out);
  namespace_gauges(p, memory, out);
  journaled(p, out);
}

}  // namespace

prometheus::MetricFamily e2e_latency_family(const actors::QueueingMetrics& m) {
  FamilySink sink;
  sink.begin("job_scheduling_e2e_latency", "Milliseconds from a QueueUnit's creation to its first Dequeued write.",
             MetricType::Histogram);
  sink.histogram({}, m.e2e_latency, 1e6);
  sink.end();
  return std::move(sink.families.front());
}

prometheus::MetricFamily e2e_latency_family(const actors::Scheduler& s) {
  return e2e_latency_family(s.metrics());
}

std::vector<prometheus::MetricFamily> queueing_families(const ReadPages& p, SeriesMemory& memory) {
  FamilySink sink;
  project(actors::pages::every_page(p), memory, sink);
  return std::move(sink.families);
}

std::vector<prometheus::MetricFamily> queueing_families(const actors::Scheduler& s, SeriesMemory& memory) {
  return queueing_families(actors::pages::build_read_pages(s, 0), memory);
}

std::vector<WrittenFamily> write_queueing_families(const ReadPages& p, SeriesMemory& memory, std::string& out) {
  TextSink sink(out);
  project(actors::pages::every_page(p), memory, sink);
  return std::move(sink.written);
}

std::vector<WrittenFamily> write_queueing_families(const actors::Scheduler& s, SeriesMemory& memory, std::string& out) {
  return write_queueing_families(actors::pages::build_read_pages(s, 0), memory, out);
}

std::string merged_exposition(std::vector<WrittenFamily> written, const std::string& text,
                              std::vector<prometheus::MetricFamily> families) {
  std::sort(families.begin(), families.end(),
            [](const prometheus::MetricFamily& a, const prometheus::MetricFamily& b) { return a.name < b.name; });
  std::sort(written.begin(), written.end(),
            [](const WrittenFamily& a, const WrittenFamily& b) { return a.name < b.name; });

  std::string out;
  out.reserve(text.size() + 16384);
  std::vector<prometheus::MetricFamily> run;  // families of prometheus-cpp before the next written one
  auto flush = [&] {
    if (run.empty()) return;
    out += prometheus::TextSerializer().Serialize(run);
    run.clear();
  };
  auto next = written.begin();
  for (prometheus::MetricFamily& family : families) {
    for (; next != written.end() && next->name < family.name; ++next) {
      flush();
      out.append(text, next->begin, next->end - next->begin);
    }
    run.push_back(std::move(family));
  }
  flush();
  for (; next != written.end(); ++next) {
    out.append(text, next->begin, next->end - next->begin);
  }
  return out;
}

}  // namespace koordq::api
