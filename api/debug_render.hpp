// The debug API's answers (behaviour.md §17.2–§17.4) as projections of the read pages
// (actors/pages/read_pages.hpp): JSON indented with one tab per level, internal integer units (cpu
// in millicores). The overloads on a whole state build its pages first.
#pragma once

#include <string>

#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"

namespace koordq::api {

std::string render_debug_quotas(const actors::pages::ReadPages& p);       // GET /apis/v1/elasticquota
std::string render_debug_queues(const actors::pages::ReadPages& p);       // GET /apis/v1/queue
std::string render_debug_user_quotas(const actors::pages::ReadPages& p);  // GET /apis/v1/userquota

std::string render_debug_quotas(const actors::Scheduler& s);       // GET /apis/v1/elasticquota
std::string render_debug_queues(const actors::Scheduler& s);       // GET /apis/v1/queue
std::string render_debug_user_quotas(const actors::Scheduler& s);  // GET /apis/v1/userquota

}  // namespace koordq::api
