#include "superovoid/urdf/model.h"

#include <exception>

#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include "augment.h"
#include "io.h"
#include "scan.h"
#include "superovoid/urdf.h"

namespace sov {
namespace urdf {

namespace {

using detail::LinkCount;
using detail::Scan;
using detail::Site;

// A hint on why urdfdom refused the document, from its <robot> element.
std::string refusalHint(const tinyxml2::XMLDocument& doc) {
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot) return " (no <robot> element)";
  if (!robot->Attribute("name")) return " (<robot> has no name)";
  const char* version = robot->Attribute("version");
  if (version && std::string(version) != "1.0") {
    return std::string(" (<robot version=\"") + version +
           "\">: urdfdom 3.0 reads only version 1.0)";
  }
  return " (urdfdom logs the reason through console_bridge)";
}

// urdfdom's model of text; throws Error(SOV_URDF_ERR_MODEL) when it refuses.
::urdf::ModelInterfaceSharedPtr loadWithUrdfdom(const std::string& text,
                                                const tinyxml2::XMLDocument& doc,
                                                const std::string& source) {
  ::urdf::ModelInterfaceSharedPtr model;
  std::string reason;
  try {
    model = ::urdf::parseURDF(text);
  } catch (const std::exception& e) {
    reason = std::string(": ") + e.what();
  }
  if (model) return model;
  if (reason.empty()) reason = refusalHint(doc);
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  throw Error(SOV_URDF_ERR_MODEL, Location{source, robot ? robot->GetLineNum() : 0, "", ""},
              "urdfdom could not load the model" + reason);
}

// Throw unless urdfdom kept every <collision> of every link.
void checkCollisionsKept(const ::urdf::ModelInterface& model, const Scan& scan,
                         const std::string& source) {
  for (const LinkCount& l : scan.links) {
    const ::urdf::LinkConstSharedPtr link = model.getLink(l.name);
    const std::size_t kept = link ? link->collision_array.size() : 0;
    if (kept == l.collisions) continue;
    throw Error(SOV_URDF_ERR_MODEL, Location{source, l.line, l.name, ""},
                "link '" + l.name + "': urdfdom kept " + std::to_string(kept) + " of its " +
                    std::to_string(l.collisions) +
                    " <collision> elements (after a <collision> it cannot read it drops "
                    "the rest, after a <visual> it cannot read all of them)");
  }
}

// The table entry of site, with the collision origin urdfdom read.
Superovoid entryOf(const Site& site, const ::urdf::ModelInterface& model) {
  Superovoid s;
  s.link = site.link;
  s.collision = site.collision;
  s.index = site.index;
  s.line = site.line;
  s.had_fallback = site.had_fallback;
  s.params = site.params;
  s.shape = site.shape;
  const ::urdf::Pose& origin = model.getLink(site.link)->collision_array[site.index]->origin;
  s.xyz = {origin.position.x, origin.position.y, origin.position.z};
  s.quat = {origin.rotation.w, origin.rotation.x, origin.rotation.y, origin.rotation.z};
  return s;
}

}  // namespace

const Superovoid* Model::find(const std::string& link, std::size_t index) const {
  for (const Superovoid& s : superovoids) {
    if (s.link == link && s.index == index) return &s;
  }
  return nullptr;
}

const Superovoid* Model::find(const std::string& link,
                              const std::string& collision) const {
  for (const Superovoid& s : superovoids) {
    if (s.link == link && s.collision == collision) return &s;
  }
  return nullptr;
}

Model parse(const std::string& xml, const std::string& source_name) {
  detail::checkUtf8(xml, source_name);
  tinyxml2::XMLDocument doc;
  detail::parseXml(&doc, xml, source_name);
  const Scan scan = detail::scanDocument(&doc, source_name);
  Model m;
  m.loaded_xml = detail::withFallbacks(xml, &doc, scan, source_name);
  m.urdf = loadWithUrdfdom(m.loaded_xml, doc, source_name);
  checkCollisionsKept(*m.urdf, scan, source_name);
  for (const Site& site : scan.sites) m.superovoids.push_back(entryOf(site, *m.urdf));
  m.source = source_name;
  for (const LinkCount& l : scan.links) {
    m.link_lines.emplace(l.name, l.line);
    for (std::size_t i = 0; i < l.collision_lines.size(); ++i) {
      m.collision_lines.emplace(std::make_pair(l.name, i), l.collision_lines[i]);
    }
  }
  for (const detail::JointLine& j : scan.joints) m.joint_lines.emplace(j.name, j.line);
  return m;
}

Model parseFile(const std::string& path) {
  return parse(detail::readFile(path), path);
}

}  // namespace urdf
}  // namespace sov
