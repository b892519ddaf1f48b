#include "actors/pages/quota_account.hpp"

namespace koordq::actors::pages {

QuotaAccount build_quota_account(const Scheduler& s, const std::string& name) {
  const QuotaInfo& info = *s.quotas().find(name);
  QuotaAccount account;
  account.name = info.object.metadata.name;
  account.namespace_ = info.object.metadata.namespace_;
  account.creation_timestamp = info.object.metadata.creation_timestamp;
  account.parent = info.parent;
  account.min_raw = info.min_raw;
  account.max_raw = info.max_raw;
  account.min = info.min;
  account.max = info.max;
  account.usage = s.quotas().usage(name);
  return account;
}

}  // namespace koordq::actors::pages
