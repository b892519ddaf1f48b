#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/rfc3339.hpp"
#include "replay/explain.hpp"

namespace koordq::replay {

std::string render_story_text(const Story& story) {
  std::string out = story.namespace_ + "/" + story.name + " uid " + story.uid;
  if (!story.other_uids.empty()) {
    out += " (other uids: ";
    for (size_t i = 0; i < story.other_uids.size(); ++i) out += (i ? "," : "") + story.other_uids[i];
    out += ")";
  }
  out += "\n";
  for (const StoryEntry& e : story.entries) {
    out +=
        base::format_rfc3339_millis(e.time) + "  #" + std::to_string(e.seq) + "  " + e.kind + "  " + e.summary + "\n";
    if (!e.quota_path) continue;
    for (const auto& step : *e.quota_path) {
      out += "    " + step.quota + " " + step.resource + ": used " + std::to_string(step.used) + " + request " +
             std::to_string(step.request) + (step.pass ? " <= " : " > ") + std::to_string(step.limit) + "\n";
    }
  }
  return out;
}

std::string render_story_json(const Story& story) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  auto string = [&](const std::string& s) { w.String(s.data(), static_cast<rapidjson::SizeType>(s.size())); };
  w.StartObject();
  w.Key("namespace");
  string(story.namespace_);
  w.Key("name");
  string(story.name);
  w.Key("uid");
  string(story.uid);
  w.Key("otherUIDs");
  w.StartArray();
  for (const auto& uid : story.other_uids) string(uid);
  w.EndArray();
  w.Key("entries");
  w.StartArray();
  for (const StoryEntry& e : story.entries) {
    w.StartObject();
    w.Key("seq");
    w.Uint64(e.seq);
    w.Key("time");
    string(base::format_rfc3339_millis(e.time));
    w.Key("kind");
    string(e.kind);
    w.Key("summary");
    string(e.summary);
    if (e.phase) {
      w.Key("phase");
      string(*e.phase);
    }
    if (e.position) {
      w.Key("position");
      w.Int64(*e.position);
    }
    if (e.quota_path) {
      w.Key("quotaPath");
      w.StartArray();
      for (const auto& step : *e.quota_path) {
        w.StartObject();
        w.Key("quota");
        string(step.quota);
        w.Key("resource");
        string(step.resource);
        w.Key("used");
        w.Int64(step.used);
        w.Key("request");
        w.Int64(step.request);
        w.Key("limit");
        w.Int64(step.limit);
        w.Key("pass");
        w.Bool(step.pass);
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace koordq::replay
