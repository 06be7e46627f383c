// The tinyxml2 side of the parser: superovoid elements and <collision>
// counts of a URDF document, with namespace prefixes resolved.
#ifndef SUPEROVOID_URDF_SRC_SCAN_H
#define SUPEROVOID_URDF_SRC_SCAN_H

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include <superovoid/superovoid.h>
#include <tinyxml2.h>

namespace sov {
namespace urdf {
namespace detail {

// One validated superovoid element.
struct Site {
  tinyxml2::XMLElement* element = nullptr;   // <prefix:superovoid>
  tinyxml2::XMLElement* geometry = nullptr;  // its <geometry>
  std::string link;
  std::string collision;   // name attribute of the <collision>, "" if none
  std::size_t index = 0;   // index of the <collision> among the link's
  int line = 0;            // line of the element's '<'
  int rank = 0;            // elements of the same qualified name before it
                           // on its line (to find it in the text)
  bool had_fallback = false;
  std::array<double, 7> params{};
  sov_shape shape{};
};

// A <link> under <robot> and how many <collision> children it has.
struct LinkCount {
  std::string name;
  int line = 0;
  std::size_t collisions = 0;
  std::vector<int> collision_lines;  // line of each <collision>, in order
};

// A <joint> under <robot> and its line.
struct JointLine {
  std::string name;
  int line = 0;
};

// What scanDocument finds, in document order.
struct Scan {
  std::vector<Site> sites;
  std::vector<LinkCount> links;
  std::vector<JointLine> joints;
};

// Throw Error(SOV_URDF_ERR_XML) naming source, line and column unless xml
// is UTF-8 without NUL bytes. urdfdom's reader (TinyXML 2.6) takes a lead
// byte's sequence length on trust: in a document that ends inside a cut-short
// sequence it steps over the terminator and reads past the end. (tinyxml2
// writes every character reference as a whole sequence, so its output needs
// no check.)
void checkUtf8(const std::string& xml, const std::string& source);

// Parse xml into doc; throws Error(SOV_URDF_ERR_XML) naming source and line.
void parseXml(tinyxml2::XMLDocument* doc, const std::string& xml,
              const std::string& source);

// Find and validate every element of the superovoid namespace in doc;
// throws Error naming source, line, link and attribute.
Scan scanDocument(tinyxml2::XMLDocument* doc, const std::string& source);

// "link 'L', collision 'C' (#i)" or "link 'L', collision #i".
std::string describe(const std::string& link, const std::string& collision,
                     std::size_t index);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SRC_SCAN_H
