// rapidcheck generators for the model types of schema/: realistic, varied objects.
//
// Every optional is sometimes absent and sometimes present (including present-but-zero or
// present-but-empty), maps and lists are sometimes empty, strings mix plain ASCII, characters
// JSON must escape and non-ASCII UTF-8. All strings are valid UTF-8 without NUL, as the API
// server would send them. Timestamps have whole seconds like Kubernetes object times.
//
// Use the Arbitrary specializations (`*rc::gen::arbitrary<schema::QueueUnit>()`) or the named
// generators in koordq::testgen.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <rapidcheck.h>

#include "schema/elastic_quota.hpp"
#include "schema/object_meta.hpp"
#include "schema/queue.hpp"
#include "schema/queue_unit.hpp"
#include "schema/resource_list.hpp"
#include "schema/watched_object.hpp"

namespace koordq::testgen {

// --- Scalars -------------------------------------------------------------------------------

template <class T>
rc::Gen<std::optional<T>> optional_of(rc::Gen<T> gen) {
  return rc::gen::oneOf(rc::gen::just(std::optional<T>{}),
                        rc::gen::map(std::move(gen), [](T v) { return std::optional<T>(std::move(v)); }));
}

// Object names: lowercase DNS labels, as Kubernetes requires.
inline rc::Gen<std::string> dns_name() {
  return rc::gen::oneOf(
      rc::gen::element<std::string>("default", "team-a", "team-b", "koord-queue", "root", "job-1", "pytorch-job-7",
                                    "worker", "master", "ps"),
      rc::gen::map(rc::gen::inRange<int>(0, 100000), [](int n) { return "unit-" + std::to_string(n); }));
}

// Free text: empty, ASCII, JSON-escaped characters, non-ASCII UTF-8, or a concatenation.
inline rc::Gen<std::string> text() {
  auto piece = rc::gen::element<std::string>(
      "", "Enqueued", "Dequeued because schedule successfully", "queue team-a does not exist",
      "Insufficient quota(cpu) in quota team-a: request 4, max 2, used 1, oversellreate 1", "quote \" and backslash \\",
      "line\nbreak\tand tab", "\x01 control", "héllo wörld", "日本語のメッセージ", "emoji 🚀✓", "ключ=значение",
      "/slash/and</script>");
  auto joined =
      rc::gen::map(rc::gen::container<std::vector<std::string>>(piece), [](const std::vector<std::string>& parts) {
        std::string out;
        for (const auto& p : parts) out += p;
        return out;
      });
  return rc::gen::oneOf(piece,
                        rc::gen::withSize([joined](int size) { return rc::gen::resize(size / 10 + 1, joined); }));
}

inline rc::Gen<std::string> uid() {
  return rc::gen::oneOf(rc::gen::just(std::string{}),
                        rc::gen::map(rc::gen::inRange<uint32_t>(0, 0xffffffffu), [](uint32_t n) {
                          char buf[48];
                          std::snprintf(buf, sizeof buf, "%08x-1c2d-4e5f-8a9b-%012x", n, n ^ 0x5a5a5a5au);
                          return std::string(buf);
                        }));
}

inline rc::Gen<std::string> resource_version() {
  return rc::gen::oneOf(rc::gen::just(std::string{}), rc::gen::map(rc::gen::inRange<int64_t>(1, 1'000'000'000'000),
                                                                   [](int64_t n) { return std::to_string(n); }));
}

// Whole seconds between 1970 and 2100, in nanoseconds.
inline rc::Gen<schema::UnixNanos> timestamp() {
  return rc::gen::map(rc::gen::inRange<int64_t>(0, 4'102'444'800),
                      [](int64_t s) { return static_cast<schema::UnixNanos>(s * 1'000'000'000); });
}

// --- Maps ----------------------------------------------------------------------------------

// A map with up to a handful of entries. Drawn as a list of pairs so that a small key domain
// cannot make generation give up (duplicate keys simply collapse).
template <class Map>
rc::Gen<Map> small_map(rc::Gen<typename Map::key_type> keys, rc::Gen<typename Map::mapped_type> values) {
  using Entry = std::pair<typename Map::key_type, typename Map::mapped_type>;
  auto entries = rc::gen::container<std::vector<Entry>>(rc::gen::pair(std::move(keys), std::move(values)));
  return rc::gen::withSize([entries](int size) {
    return rc::gen::map(rc::gen::resize(size / 8 + 1, entries), [](const std::vector<Entry>& list) {
      Map out;
      for (const auto& [k, v] : list) out.insert_or_assign(k, v);
      return out;
    });
  });
}

inline rc::Gen<std::string> resource_name() {
  return rc::gen::element<std::string>("cpu", "memory", "nvidia.com/gpu", "ephemeral-storage", "pods",
                                       "koordinator.sh/gpu-core", "kubernetes.io/batch-cpu", "hugepages-2Mi");
}

// Quantity text as the API server sends it (kept verbatim by the model).
inline rc::Gen<std::string> quantity() {
  return rc::gen::oneOf(rc::gen::element<std::string>("0", "1", "500m", "1.5", "2Gi", "128974848", "129e6", "123Mi",
                                                      "1k", "100M", "0.1", "1e3", "8", "64Gi", "250m", "1Ti", "12E"),
                        rc::gen::map(rc::gen::inRange<int>(1, 100000), [](int n) { return std::to_string(n) + "m"; }),
                        rc::gen::map(rc::gen::inRange<int>(1, 1024), [](int n) { return std::to_string(n) + "Gi"; }));
}

inline rc::Gen<schema::ResourceList> resource_list() {
  return small_map<schema::ResourceList>(resource_name(), quantity());
}

inline rc::Gen<std::string> label_key() {
  return rc::gen::oneOf(rc::gen::element<std::string>(
                            "app", "quota.scheduling.koordinator.sh/name", "quota.scheduling.koordinator.sh/parent",
                            "koord-queue/queue-policy", "koord-queue/max-depth", "koord-queue/wait-for-pods-running",
                            "quota-koord-queue-enable", "alibabacloud.com/queue-used", "team"),
                        dns_name());
}

inline rc::Gen<schema::StringMap> string_map() {
  return small_map<schema::StringMap>(label_key(), rc::gen::oneOf(dns_name(), text()));
}

// --- ObjectMeta ----------------------------------------------------------------------------

inline rc::Gen<schema::ObjectMeta> object_meta() {
  return rc::gen::build<schema::ObjectMeta>(
      rc::gen::set(&schema::ObjectMeta::name, dns_name()), rc::gen::set(&schema::ObjectMeta::namespace_, dns_name()),
      rc::gen::set(&schema::ObjectMeta::uid, uid()),
      rc::gen::set(&schema::ObjectMeta::resource_version, resource_version()),
      rc::gen::set(&schema::ObjectMeta::creation_timestamp, optional_of(timestamp())),
      rc::gen::set(&schema::ObjectMeta::deletion_timestamp, optional_of(timestamp())),
      rc::gen::set(&schema::ObjectMeta::labels, string_map()),
      rc::gen::set(&schema::ObjectMeta::annotations, string_map()));
}

// --- QueueUnit -----------------------------------------------------------------------------

template <class T>
rc::Gen<std::vector<T>> small_list(rc::Gen<T> gen) {
  return rc::gen::withSize([gen = std::move(gen)](int size) {
    return rc::gen::resize(size / 10 + 1, rc::gen::container<std::vector<T>>(gen));
  });
}

inline rc::Gen<int64_t> count() {
  return rc::gen::oneOf(rc::gen::inRange<int64_t>(0, 1000), rc::gen::arbitrary<int64_t>());
}

inline rc::Gen<int32_t> priority() {
  return rc::gen::oneOf(rc::gen::element<int32_t>(0, 1, 100, 1000, -1), rc::gen::arbitrary<int32_t>());
}

inline rc::Gen<schema::ConsumerRef> consumer_ref() {
  return rc::gen::build<schema::ConsumerRef>(
      rc::gen::set(&schema::ConsumerRef::api_version,
                   rc::gen::element<std::string>("batch/v1", "kubeflow.org/v1", "ray.io/v1", "")),
      rc::gen::set(&schema::ConsumerRef::kind,
                   rc::gen::element<std::string>("Job", "PyTorchJob", "TFJob", "RayJob", "")),
      rc::gen::set(&schema::ConsumerRef::name, dns_name()), rc::gen::set(&schema::ConsumerRef::namespace_, dns_name()),
      rc::gen::set(&schema::ConsumerRef::uid, uid()));
}

inline rc::Gen<schema::ContainerResources> container_resources() {
  return rc::gen::build<schema::ContainerResources>(
      rc::gen::set(&schema::ContainerResources::name, dns_name()),
      rc::gen::set(&schema::ContainerResources::requests, resource_list()),
      rc::gen::set(&schema::ContainerResources::limits, resource_list()));
}

inline rc::Gen<schema::PodSet> pod_set() {
  return rc::gen::build<schema::PodSet>(rc::gen::set(&schema::PodSet::name, dns_name()),
                                        rc::gen::set(&schema::PodSet::count, count()),
                                        rc::gen::set(&schema::PodSet::min_count, optional_of(count())),
                                        rc::gen::set(&schema::PodSet::containers, small_list(container_resources())));
}

inline rc::Gen<schema::QueueUnitSpec> queue_unit_spec() {
  return rc::gen::build<schema::QueueUnitSpec>(
      rc::gen::set(&schema::QueueUnitSpec::consumer_ref, optional_of(consumer_ref())),
      rc::gen::set(&schema::QueueUnitSpec::priority, optional_of(priority())),
      rc::gen::set(&schema::QueueUnitSpec::pod_set, small_list(pod_set())),
      rc::gen::set(&schema::QueueUnitSpec::request, resource_list()),
      rc::gen::set(&schema::QueueUnitSpec::resource, resource_list()),
      rc::gen::set(&schema::QueueUnitSpec::queue, rc::gen::oneOf(rc::gen::just(std::string{}), dns_name())),
      rc::gen::set(&schema::QueueUnitSpec::priority_class_name,
                   rc::gen::element<std::string>("", "high-priority", "system-cluster-critical")),
      rc::gen::set(&schema::QueueUnitSpec::active, optional_of(rc::gen::arbitrary<bool>())),
      rc::gen::set(&schema::QueueUnitSpec::maximum_execution_time_seconds,
                   optional_of(rc::gen::oneOf(rc::gen::element<int32_t>(0, 60, 3600), rc::gen::arbitrary<int32_t>()))));
}

inline rc::Gen<schema::Admission> admission() {
  return rc::gen::build<schema::Admission>(
      rc::gen::set(&schema::Admission::name, dns_name()), rc::gen::set(&schema::Admission::replicas, count()),
      rc::gen::set(&schema::Admission::resources, optional_of(resource_list())),
      rc::gen::set(&schema::Admission::running, count()),
      rc::gen::set(&schema::Admission::reclaim_state, optional_of(rc::gen::build<schema::ReclaimState>(
                                                          rc::gen::set(&schema::ReclaimState::replicas, count())))));
}

// A compact JSON array, as the model keeps podSetUpdates ("" when absent).
inline rc::Gen<std::string> pod_set_updates_json() {
  return rc::gen::element<std::string>(
      "", "[]", R"([{"name":"worker"}])", R"([{"name":"worker","nodeSelector":{"pool":"gpu-a100"}}])",
      R"([{"name":"ps","labels":{"a":"b"},"tolerations":[{"key":"k","operator":"Exists"}]},{"name":"worker"}])");
}

inline rc::Gen<schema::AdmissionCheckState> admission_check_state() {
  return rc::gen::build<schema::AdmissionCheckState>(
      rc::gen::set(
          &schema::AdmissionCheckState::name,
          rc::gen::oneOf(rc::gen::element<std::string>("provisioning", "multikueue", "dws-check"), dns_name())),
      rc::gen::set(&schema::AdmissionCheckState::state,
                   rc::gen::element<std::string>("Pending", "Ready", "Retry", "Rejected", "")),
      rc::gen::set(&schema::AdmissionCheckState::last_transition_time, optional_of(timestamp())),
      rc::gen::set(&schema::AdmissionCheckState::message, text()),
      rc::gen::set(&schema::AdmissionCheckState::pod_set_updates_json, pod_set_updates_json()));
}

inline rc::Gen<std::string> phase() {
  return rc::gen::element<std::string>("", "Enqueued", "Reserved", "Dequeued", "Running", "Succeed", "Failed",
                                       "TimeoutBackoff", "SchedReady", "SchedSucceed", "SchedFailed", "Unknown");
}

inline rc::Gen<schema::QueueUnitStatus> queue_unit_status() {
  return rc::gen::build<schema::QueueUnitStatus>(
      rc::gen::set(&schema::QueueUnitStatus::phase, phase()), rc::gen::set(&schema::QueueUnitStatus::message, text()),
      rc::gen::set(&schema::QueueUnitStatus::attempts, count()),
      rc::gen::set(&schema::QueueUnitStatus::last_update_time, optional_of(timestamp())),
      rc::gen::set(&schema::QueueUnitStatus::last_allocate_time, optional_of(timestamp())),
      rc::gen::set(&schema::QueueUnitStatus::admissions, small_list(admission())),
      rc::gen::set(&schema::QueueUnitStatus::admission_checks, small_list(admission_check_state())),
      rc::gen::set(&schema::QueueUnitStatus::pod_state,
                   optional_of(rc::gen::build<schema::PodState>(rc::gen::set(&schema::PodState::running, count()),
                                                                rc::gen::set(&schema::PodState::pending, count())))));
}

inline rc::Gen<schema::QueueUnit> queue_unit() {
  return rc::gen::build<schema::QueueUnit>(rc::gen::set(&schema::QueueUnit::metadata, object_meta()),
                                           rc::gen::set(&schema::QueueUnit::spec, queue_unit_spec()),
                                           rc::gen::set(&schema::QueueUnit::status, queue_unit_status()));
}

// --- Queue ---------------------------------------------------------------------------------

inline rc::Gen<schema::LabelSelectorRequirement> label_selector_requirement() {
  return rc::gen::build<schema::LabelSelectorRequirement>(
      rc::gen::set(&schema::LabelSelectorRequirement::key, label_key()),
      rc::gen::set(&schema::LabelSelectorRequirement::operator_,
                   rc::gen::element<std::string>("In", "NotIn", "Exists", "DoesNotExist")),
      rc::gen::set(&schema::LabelSelectorRequirement::values, small_list(dns_name())));
}

inline rc::Gen<schema::LabelSelector> label_selector() {
  return rc::gen::build<schema::LabelSelector>(
      rc::gen::set(&schema::LabelSelector::match_labels, string_map()),
      rc::gen::set(&schema::LabelSelector::match_expressions, small_list(label_selector_requirement())));
}

inline rc::Gen<schema::QueueAdmissionCheck> queue_admission_check() {
  return rc::gen::build<schema::QueueAdmissionCheck>(
      rc::gen::set(&schema::QueueAdmissionCheck::name, dns_name()),
      rc::gen::set(&schema::QueueAdmissionCheck::label_selector, optional_of(label_selector())));
}

inline rc::Gen<schema::QueueSpec> queue_spec() {
  return rc::gen::build<schema::QueueSpec>(
      rc::gen::set(&schema::QueueSpec::queue_policy,
                   rc::gen::element<std::string>("", "Priority", "Block", "Intelligent", "Round", "Fifo")),
      rc::gen::set(&schema::QueueSpec::priority, optional_of(priority())),
      rc::gen::set(&schema::QueueSpec::priority_class_name, rc::gen::element<std::string>("", "high-priority")),
      rc::gen::set(&schema::QueueSpec::admission_checks, small_list(queue_admission_check())));
}

// QueueItem.priority is rendered only when non-zero (behaviour.md §14.2), so a present 0 cannot
// survive a JSON round trip; generate absent or non-zero.
inline rc::Gen<schema::QueueItem> queue_item() {
  return rc::gen::build<schema::QueueItem>(
      rc::gen::set(&schema::QueueItem::name, dns_name()), rc::gen::set(&schema::QueueItem::namespace_, dns_name()),
      rc::gen::set(&schema::QueueItem::priority,
                   optional_of(rc::gen::suchThat(priority(), [](int32_t p) { return p != 0; }))),
      rc::gen::set(&schema::QueueItem::position, rc::gen::inRange<int64_t>(0, 10000)));
}

inline rc::Gen<schema::QueueItemDetails> queue_item_details() {
  return rc::gen::build<schema::QueueItemDetails>(
      rc::gen::set(&schema::QueueItemDetails::active, small_list(queue_item())),
      rc::gen::set(&schema::QueueItemDetails::backoff, small_list(queue_item())));
}

inline rc::Gen<schema::Queue> queue() {
  return rc::gen::build<schema::Queue>(
      rc::gen::set(&schema::Queue::metadata, object_meta()), rc::gen::set(&schema::Queue::spec, queue_spec()),
      rc::gen::set(&schema::Queue::status,
                   rc::gen::build<schema::QueueStatus>(
                       rc::gen::set(&schema::QueueStatus::queue_item_details, optional_of(queue_item_details())))));
}

// --- ElasticQuota --------------------------------------------------------------------------

inline rc::Gen<schema::ElasticQuota> elastic_quota() {
  return rc::gen::build<schema::ElasticQuota>(
      rc::gen::set(&schema::ElasticQuota::metadata, object_meta()),
      rc::gen::set(&schema::ElasticQuota::spec, rc::gen::build<schema::ElasticQuotaSpec>(
                                                    rc::gen::set(&schema::ElasticQuotaSpec::max, resource_list()),
                                                    rc::gen::set(&schema::ElasticQuotaSpec::min, resource_list()))));
}

// --- WatchedObject -------------------------------------------------------------------------

inline rc::Gen<schema::WatchedObject> watched_object() {
  return rc::gen::oneOf(rc::gen::cast<schema::WatchedObject>(queue_unit()),
                        rc::gen::cast<schema::WatchedObject>(queue()),
                        rc::gen::cast<schema::WatchedObject>(elastic_quota()));
}

}  // namespace koordq::testgen

namespace rc {

#define KOORDQ_TESTGEN_ARBITRARY(Type, generator)                         \
  template <>                                                             \
  struct Arbitrary<Type> {                                                \
    static Gen<Type> arbitrary() { return koordq::testgen::generator(); } \
  };

KOORDQ_TESTGEN_ARBITRARY(koordq::schema::ObjectMeta, object_meta)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::ConsumerRef, consumer_ref)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::ContainerResources, container_resources)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::PodSet, pod_set)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::QueueUnitSpec, queue_unit_spec)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::Admission, admission)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::AdmissionCheckState, admission_check_state)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::QueueUnitStatus, queue_unit_status)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::QueueUnit, queue_unit)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::LabelSelector, label_selector)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::QueueSpec, queue_spec)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::QueueItemDetails, queue_item_details)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::Queue, queue)
KOORDQ_TESTGEN_ARBITRARY(koordq::schema::ElasticQuota, elastic_quota)

#undef KOORDQ_TESTGEN_ARBITRARY

// WatchedObject is a std::variant; rapidcheck has no variant support, so this is the only way
// to draw one.
template <>
struct Arbitrary<koordq::schema::WatchedObject> {
  static Gen<koordq::schema::WatchedObject> arbitrary() { return koordq::testgen::watched_object(); }
};

}  // namespace rc
