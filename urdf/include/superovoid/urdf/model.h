// Parsing URDF documents with superovoid collision geometry: urdfdom for the
// standard model, tinyxml2 over the same document for the superovoid
// elements. See superovoid/urdf.h for the syntax.
#ifndef SUPEROVOID_URDF_MODEL_H
#define SUPEROVOID_URDF_MODEL_H

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <superovoid/superovoid.h>
#include <urdf_model/model.h>
#include <urdf_world/types.h>  // ModelInterfaceSharedPtr

#include "superovoid/urdf/error.h"
#include "superovoid/urdf/export.h"

namespace sov {
namespace urdf {

// One superovoid collision element, keyed by link and collision.
struct Superovoid {
  std::string link;              // name of the link
  std::string collision;         // name attribute of the <collision> ("" if none)
  std::size_t index = 0;         // index of the <collision> in the link (from 0)
  int line = 0;                  // line of the superovoid element
  bool had_fallback = false;     // the document gave a primitive before it
  std::array<double, 3> xyz{};   // collision origin in the link frame
  std::array<double, 4> quat{};  // its rotation, unit quaternion w x y z
  std::array<double, 7> params{};  // a1 a2 a3 eps1 eps2 taper_x taper_y
  sov_shape shape{};             // sov_shape_init(params)
};

// A parsed document: the urdfdom model (every superovoid collision appears
// in it as its fallback primitive), the superovoids in document order, and
// the text urdfdom read (the input, with fallback boxes written in for bare
// superovoids): the text to hand to other URDF readers.
struct SOV_URDF_API Model {
  ::urdf::ModelInterfaceSharedPtr urdf;
  std::vector<Superovoid> superovoids;
  std::string loaded_xml;
  // Where the document's elements are, for messages about them: its source
  // name (the file's path, or the name given to parse) and the line of each
  // <link>, <joint> and <collision> (by link and index) in it.
  std::string source;
  std::map<std::string, int> link_lines;
  std::map<std::string, int> joint_lines;
  std::map<std::pair<std::string, std::size_t>, int> collision_lines;

  // The superovoid of link's collision number index, or nullptr.
  const Superovoid* find(const std::string& link, std::size_t index) const;
  // The superovoid of link's collision named collision, or nullptr.
  const Superovoid* find(const std::string& link,
                         const std::string& collision) const;
};

// Parse a URDF document. Throws sov::urdf::Error naming source_name, line,
// link and attribute when the XML is malformed, a superovoid element is
// misplaced or has a missing, unknown or non-numeric attribute, its shape is
// invalid or non-convex (sov_shape_explain's text), urdfdom rejects the
// model, or urdfdom drops any <collision> (it does so silently).
SOV_URDF_API Model parse(const std::string& xml,
                         const std::string& source_name = "<string>");

// Parse the URDF file at path (errors name the path).
SOV_URDF_API Model parseFile(const std::string& path);

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_MODEL_H
