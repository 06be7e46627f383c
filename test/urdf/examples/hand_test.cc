// The example hand (urdf/examples/hand.urdf, hand.srdf) and its mesh twin
// (written into the build tree by sov-query --mesh-twin).
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "examples_test_util.h"

namespace {

using sov_test::examplePath;
using sov_test::ordered;
using sov_test::readText;

// Binary STL stores float32 coordinates: ~6e-8 relative, on mm-sized links
// F moves by about that relative amount times 2/eps.
constexpr double kOnSurfaceStl = 1e-5;
// Agreement of the scene's minimum with the brute-force loop (both call the
// same solver; only the order of the pairs differs, and warm starts).
constexpr double kSameDistance = 1e-9;

// The joint values of group_state name in hand.srdf.
sov::urdf::JointPositions groupState(const std::string& name) {
  tinyxml2::XMLDocument doc;
  EXPECT_EQ(doc.LoadFile(examplePath("hand.srdf").c_str()), tinyxml2::XML_SUCCESS);
  sov::urdf::JointPositions q;
  const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
  for (const tinyxml2::XMLElement* s = robot->FirstChildElement("group_state"); s;
       s = s->NextSiblingElement("group_state")) {
    if (name != s->Attribute("name")) continue;
    for (const tinyxml2::XMLElement* j = s->FirstChildElement("joint"); j;
         j = j->NextSiblingElement("joint"))
      q[j->Attribute("name")] = j->DoubleAttribute("value");
  }
  return q;
}

TEST(ExampleHand, GeneratorWritesTheCommittedFiles) {
  const std::string python = SOV_EXAMPLES_PYTHON3;
  if (python.empty()) GTEST_SKIP() << "python3 was not found when configuring";
  const std::string dir = sov_test::scratchDir("make_hand");
  const std::string cmd = "'" + python + "' '" + examplePath("make_hand.py") + "' '" + dir + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  EXPECT_EQ(readText(dir + "/hand.urdf"), readText(examplePath("hand.urdf")))
      << "hand.urdf differs from make_hand.py's output: run the script";
  EXPECT_EQ(readText(dir + "/hand.srdf"), readText(examplePath("hand.srdf")))
      << "hand.srdf differs from make_hand.py's output: run the script";
}

TEST(ExampleHand, FiveFingersOfSuperovoidLinksWithTaperedTips) {
  const sov::urdf::Model m = sov::urdf::parseFile(examplePath("hand.urdf"));
  std::map<std::string, int> links_per_finger;
  for (const sov::urdf::Superovoid& s : m.superovoids) {
    EXPECT_TRUE(s.had_fallback) << s.link;
    sov_shape shape;
    EXPECT_EQ(sov_shape_init(&shape, s.params.data()), SOV_OK) << s.link;
    sov_shape_info info{};
    EXPECT_EQ(sov_shape_get(&info, &shape), SOV_OK) << s.link;
    EXPECT_EQ(info.dent, 0.0) << s.link << " is not exactly convex";
    if (s.link == "palm") continue;
    const std::string finger = s.link.substr(0, s.link.find('_'));
    ++links_per_finger[finger];
    const bool tip = s.link == (finger == "thumb" ? "thumb_4" : finger + "_3");
    EXPECT_EQ(tip, s.params[5] != 0 && s.params[6] != 0) << s.link << ": only fingertips taper";
  }
  const std::map<std::string, int> expected = {
      {"index", 4}, {"little", 4}, {"middle", 4}, {"ring", 4}, {"thumb", 5}};
  EXPECT_EQ(links_per_finger, expected);
  ASSERT_TRUE(m.find("palm", 0));
}

// urdfdom alone (what MoveIt and RViz read) sees every collision as its
// fallback box, and each box encloses its superovoid.
TEST(ExampleHand, PlainUrdfdomReadsEnclosingFallbackBoxes) {
  const std::string xml = readText(examplePath("hand.urdf"));
  const urdf::ModelInterfaceSharedPtr plain = urdf::parseURDF(xml);
  ASSERT_TRUE(plain);
  const sov::urdf::Model m = sov::urdf::parse(xml);
  EXPECT_EQ(m.loaded_xml, xml) << "fallback-first documents go to urdfdom unchanged";
  for (const sov::urdf::Superovoid& s : m.superovoids) {
    const auto link = plain->getLink(s.link);
    ASSERT_TRUE(link);
    ASSERT_LT(s.index, link->collision_array.size());
    const auto& geometry = link->collision_array[s.index]->geometry;
    ASSERT_EQ(geometry->type, urdf::Geometry::BOX) << s.link;
    const auto& box = static_cast<const urdf::Box&>(*geometry);
    const double size[3] = {box.dim.x, box.dim.y, box.dim.z};
    sov_shape_info info{};
    ASSERT_EQ(sov_shape_get(&info, &s.shape), SOV_OK) << s.link;
    for (int k = 0; k < 3; ++k) {
      EXPECT_GE(size[k] / 2, info.aabb_hi[k]) << s.link << " axis " << k;
      EXPECT_LE(-size[k] / 2, info.aabb_lo[k]) << s.link << " axis " << k;
    }
  }
}

TEST(ExampleHand, SrdfStatesCoverEveryMovableJointWithinLimits) {
  const sov::urdf::Model m = sov::urdf::parseFile(examplePath("hand.urdf"));
  std::set<std::string> movable;
  for (const auto& entry : m.urdf->joints_)
    if (entry.second->type != urdf::Joint::FIXED) movable.insert(entry.first);
  for (const char* state : {"open", "grasp"}) {
    const sov::urdf::JointPositions q = groupState(state);
    std::set<std::string> names;
    for (const auto& kv : q) names.insert(kv.first);
    EXPECT_EQ(names, movable) << state;
    EXPECT_NO_THROW(sov::urdf::forwardKinematics(*m.urdf, q)) << state;
  }
}

// MoveIt's allowed-collision matrix from the SRDF holds the pairs the
// scene allows by default: parent and child of every joint.
TEST(ExampleHand, SrdfDisablesExactlyTheAdjacentLinks) {
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.LoadFile(examplePath("hand.srdf").c_str()), tinyxml2::XML_SUCCESS);
  std::set<std::pair<std::string, std::string>> disabled;
  for (const tinyxml2::XMLElement* d =
           doc.FirstChildElement("robot")->FirstChildElement("disable_collisions");
       d; d = d->NextSiblingElement("disable_collisions"))
    disabled.insert(ordered(d->Attribute("link1"), d->Attribute("link2")));
  const sov::urdf::Model m = sov::urdf::parseFile(examplePath("hand.urdf"));
  const sov::urdf::Scene scene(m);
  const std::vector<std::string> links = scene.linkNames();
  for (std::size_t i = 0; i < links.size(); ++i)
    for (std::size_t j = i + 1; j < links.size(); ++j)
      EXPECT_EQ(scene.isCollisionAllowed(links[i], links[j]),
                disabled.count(ordered(links[i], links[j])) == 1)
          << links[i] << " " << links[j];
  EXPECT_EQ(disabled.size(), m.urdf->joints_.size());
}

// Signed distance of two scene geometries, answered directly by the core
// (superovoids) or by sov::distance.
double pairDistance(const sov::urdf::Scene::GeometryRef& a,
                    const sov::urdf::Scene::GeometryRef& b) {
  fcl::DistanceRequest<double> request(true, true);
  fcl::DistanceResult<double> result;
  return sov::distance(a.object, b.object, request, result);
}

// The scene's broadphase minimum equals a loop over every pair of links that
// may collide, along the closing motion; the hand never hits itself.
TEST(ExampleHand, SelfDistanceMatchesBruteForceWhileClosing) {
  const sov::urdf::Model m = sov::urdf::parseFile(examplePath("hand.urdf"));
  sov::urdf::Scene scene(m);
  const sov::urdf::JointPositions grasp = groupState("grasp");
  const int steps = 8;
  for (int s = 0; s <= steps; ++s) {
    sov::urdf::JointPositions q;
    for (const auto& kv : grasp) q[kv.first] = kv.second * s / steps;
    scene.setJointPositions(q);
    const sov::urdf::PairDistance best = scene.minSelfDistance();
    // Brute force: the smallest distance of every link pair that may collide.
    std::map<std::pair<std::string, std::string>, double> pairs;
    const auto g = scene.geometries();
    for (std::size_t i = 0; i < g.size(); ++i) {
      for (std::size_t j = i + 1; j < g.size(); ++j) {
        if (g[i].link == g[j].link || scene.isCollisionAllowed(g[i].link, g[j].link)) continue;
        const auto key = ordered(g[i].link, g[j].link);
        const double d = pairDistance(g[i], g[j]);
        const auto it = pairs.emplace(key, d).first;
        it->second = std::min(it->second, d);
      }
    }
    double brute = std::numeric_limits<double>::infinity();
    for (const auto& kv : pairs) brute = std::min(brute, kv.second);
    EXPECT_NEAR(best.distance, brute, kSameDistance) << "step " << s;
    // The reported pair is one at the minimum (symmetric knuckles tie).
    ASSERT_TRUE(pairs.count(ordered(best.link1, best.link2))) << "step " << s;
    EXPECT_NEAR(pairs.at(ordered(best.link1, best.link2)), brute, kSameDistance) << "step " << s;
    EXPECT_GT(best.distance, 0) << "step " << s << ": the hand hits itself";
  }
}

// The mesh twin: every superovoid collision became a relative <mesh> whose
// vertices lie on that superovoid's surface; everything else is unchanged.
TEST(ExampleHand, MeshTwinTessellatesEverySuperovoid) {
  const std::string twin_path = std::string(SOV_EXAMPLES_BUILD_DIR) + "/hand_mesh/hand_mesh.urdf";
  const std::string twin_xml = readText(twin_path);
  ASSERT_FALSE(twin_xml.empty()) << twin_path << " is missing (target sov_hand_mesh)";
  const urdf::ModelInterfaceSharedPtr twin = urdf::parseURDF(twin_xml);
  ASSERT_TRUE(twin);
  const sov::urdf::Model hand = sov::urdf::parseFile(examplePath("hand.urdf"));
  std::size_t meshes = 0;
  for (const auto& entry : hand.urdf->links_) {
    const auto twin_link = twin->getLink(entry.first);
    ASSERT_TRUE(twin_link) << entry.first;
    ASSERT_EQ(twin_link->collision_array.size(), entry.second->collision_array.size());
    for (std::size_t i = 0; i < entry.second->collision_array.size(); ++i) {
      const auto& c = *twin_link->collision_array[i];
      const auto& original = *entry.second->collision_array[i];
      EXPECT_EQ(c.origin.position.x, original.origin.position.x);
      EXPECT_EQ(c.origin.position.z, original.origin.position.z);
      const sov::urdf::Superovoid* s = hand.find(entry.first, i);
      if (!s) {
        EXPECT_EQ(c.geometry->type, original.geometry->type) << entry.first;
        continue;
      }
      ASSERT_EQ(c.geometry->type, urdf::Geometry::MESH) << entry.first;
      const std::string file = static_cast<const urdf::Mesh&>(*c.geometry).filename;
      ASSERT_NE(file.front(), '/') << file << " is not relative";
      const sov::urdf::TriangleMesh mesh =
          sov::urdf::loadMesh(std::string(SOV_EXAMPLES_BUILD_DIR) + "/hand_mesh/" + file);
      ASSERT_FALSE(mesh.vertices.empty());
      for (const auto& v : mesh.vertices) {
        double F = 0;
        ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s->shape, v.data()), SOV_OK);
        EXPECT_NEAR(F, 0.0, kOnSurfaceStl) << file;
      }
      ++meshes;
    }
  }
  EXPECT_EQ(meshes, hand.superovoids.size());
}

}  // namespace
