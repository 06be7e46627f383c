// Helpers shared by the URDF layer's tests.
#ifndef SUPEROVOID_TEST_URDF_URDF_TEST_UTIL_H
#define SUPEROVOID_TEST_URDF_URDF_TEST_UTIL_H

#include <cstddef>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

namespace sov_test {

// Path of a fixture under test/urdf/data.
inline std::string dataPath(const std::string& name) {
  return std::string(SOV_URDF_TEST_DATA_DIR) + "/" + name;
}

// The bytes of a file.
inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Number of <collision> elements of each <link> of the document's <robot>.
inline std::map<std::string, std::size_t> xmlCollisionCounts(const std::string& xml) {
  std::map<std::string, std::size_t> counts;
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.c_str(), xml.size()) != tinyxml2::XML_SUCCESS) return counts;
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  for (const tinyxml2::XMLElement* l = robot ? robot->FirstChildElement("link") : nullptr; l;
       l = l->NextSiblingElement("link")) {
    std::size_t n = 0;
    for (const tinyxml2::XMLElement* c = l->FirstChildElement("collision"); c;
         c = c->NextSiblingElement("collision")) {
      ++n;
    }
    counts[l->Attribute("name") ? l->Attribute("name") : ""] = n;
  }
  return counts;
}

// Number of collisions plain urdfdom keeps for each link (empty map when it
// refuses the document).
inline std::map<std::string, std::size_t> urdfdomCollisionCounts(const std::string& xml) {
  std::map<std::string, std::size_t> counts;
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDF(xml);
  if (!model) return counts;
  for (const auto& entry : model->links_) counts[entry.first] = entry.second->collision_array.size();
  return counts;
}

}  // namespace sov_test

#endif  // SUPEROVOID_TEST_URDF_URDF_TEST_UTIL_H
