// The collision entries of an SRDF (MoveIt's semantic robot description)
// applied to a scene's allowed-collision matrix. srdfdom is not in Debian:
// the entries are read here with tinyxml2.
#include <tinyxml2.h>

#include <string>
#include <utility>
#include <vector>

#include "../../src/io.h"
#include "superovoid/urdf/scene.h"

namespace sov {
namespace urdf {

namespace {

// One collision entry: its kind, its links (link2 empty for a default
// entry) and its line.
struct Entry {
  enum Kind { kDisableDefault, kDisable, kEnable } kind;
  std::string link1, link2;
  int line = 0;
};

// The value of link attribute name of e; throws SOV_SCENE_ERR_SRDF naming
// the SRDF and line when it is missing or empty (no link has an empty name).
std::string required(const tinyxml2::XMLElement* e, const char* name, const std::string& source) {
  const char* value = e->Attribute(name);
  if (!value || !*value) {
    throw Error(SOV_SCENE_ERR_SRDF, Location{source, e->GetLineNum(), "", name},
                std::string("<") + e->Name() + "> has " + (value ? "an empty " : "no ") + name +
                    " attribute");
  }
  return value;
}

// The collision entries of the SRDF text, in the order they apply: the
// default disables, the disables, the enables.
std::vector<Entry> readEntries(const std::string& xml, const std::string& source) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) {
    throw Error(SOV_URDF_ERR_XML, Location{source, doc.ErrorLineNum(), "", ""},
                std::string(doc.ErrorName()) + ": " + doc.ErrorStr());
  }
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) throw Error(SOV_SCENE_ERR_SRDF, Location{source, 0, "", ""}, "no <robot> element");
  std::vector<Entry> entries;
  for (const char* tag :
       {"disable_default_collisions", "disable_collisions", "enable_collisions"}) {
    for (const auto* e = robot->FirstChildElement(tag); e; e = e->NextSiblingElement(tag)) {
      Entry entry;
      entry.line = e->GetLineNum();
      if (std::string(tag) == "disable_default_collisions") {
        entry.kind = Entry::kDisableDefault;
        entry.link1 = required(e, "link", source);
      } else {
        entry.kind = std::string(tag) == "disable_collisions" ? Entry::kDisable : Entry::kEnable;
        entry.link1 = required(e, "link1", source);
        entry.link2 = required(e, "link2", source);
      }
      entries.push_back(entry);
    }
  }
  return entries;
}

}  // namespace

SrdfReport Scene::loadSrdf(const std::string& srdf_path) {
  return loadSrdfString(detail::readFile(srdf_path), srdf_path);
}

SrdfReport Scene::loadSrdfString(const std::string& xml, const std::string& source) {
  const std::vector<Entry> entries = readEntries(xml, source);
  SrdfReport report;
  std::vector<std::pair<std::size_t, std::size_t>> disable, enable;
  for (const Entry& e : entries) {
    bool known = true;
    const bool pair = e.kind != Entry::kDisableDefault;
    for (const std::string* link : {&e.link1, &e.link2}) {
      if ((link == &e.link2 && !pair) || link_index_.count(*link)) continue;
      report.skipped.push_back(source + ":" + std::to_string(e.line) + ": link '" + *link + "'");
      known = false;
    }
    if (!known) continue;
    const std::size_t a = link_index_.at(e.link1);
    if (e.kind == Entry::kDisableDefault) {
      for (std::size_t b = 0; b < links_.size(); ++b) {
        if (b != a) disable.emplace_back(std::minmax(a, b));
      }
    } else {
      (e.kind == Entry::kDisable ? disable : enable)
          .emplace_back(std::minmax(a, link_index_.at(e.link2)));
    }
  }
  for (const auto& pair : disable) setAllowed(pair.first, pair.second, true);
  for (const auto& pair : enable) setAllowed(pair.first, pair.second, false);
  report.disabled = disable.size();
  report.enabled = enable.size();
  return report;
}

}  // namespace urdf
}  // namespace sov
