// The conversion on the real models in ../shared/data/robots (the iCub hands
// and the Panda), when that folder exists; skipped with a message otherwise.
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <fstream>
#include <string>
#include <vector>

#include "fit_test_util.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"

namespace {

const std::string kRobots = SOV_SHARED_DATA_DIR "/robots";

bool haveRobots() { return std::ifstream(kRobots + "/README.md").good(); }

// Converts links of the URDF at path and checks the output: urdfdom keeps
// every collision, our parser finds one superovoid per converted link, each
// contains every vertex of its mesh (read here from the input's <mesh>), and
// the links not listed keep their meshes.
void convertAndCheck(const std::string& dir, const std::string& file,
                     const std::vector<std::string>& links,
                     const std::vector<std::string>& meshes) {
  const std::string path = dir + "/" + file;
  const std::string xml = sov_fit_test::readText(path);
  sov::urdf::UrdfFitOptions o = sov_fit_test::quickOptions();
  o.links = links;
  std::vector<sov::urdf::CollisionFit> fits;
  const std::string out = sov::urdf::fitUrdf(xml, dir, o, &fits, path);
  ASSERT_EQ(fits.size(), links.size());
  const auto in_model = urdf::parseURDF(xml);
  const auto out_model = urdf::parseURDF(out);
  ASSERT_TRUE(in_model && out_model);
  EXPECT_EQ(sov_fit_test::collisionCount(*out_model), sov_fit_test::collisionCount(*in_model));
  const sov::urdf::Model parsed = sov::urdf::parse(out, "converted " + file);
  ASSERT_EQ(parsed.superovoids.size(), links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    SCOPED_TRACE(links[i]);
    const sov::urdf::Superovoid* s = parsed.find(links[i], 0);
    ASSERT_NE(s, nullptr);
    const sov::urdf::TriangleMesh mesh = sov::urdf::loadMesh(dir + "/" + meshes[i]);
    EXPECT_LE(
        sov_fit_test::maxImplicit(*s, sov_fit_test::collisionOrigin(*in_model, links[i], 0), mesh),
        0.0);
    EXPECT_GE(fits[i].fit.volume_ratio, 1.0);
    EXPECT_GE(fits[i].fit.gap, 0.0);
  }
  std::size_t meshes_left = 0;
  for (const auto& l : out_model->links_)
    for (const auto& c : l.second->collision_array)
      meshes_left += c->geometry->type == urdf::Geometry::MESH;
  std::size_t meshes_before = 0;
  for (const auto& l : in_model->links_)
    for (const auto& c : l.second->collision_array)
      meshes_before += c->geometry->type == urdf::Geometry::MESH;
  EXPECT_EQ(meshes_left + links.size(), meshes_before);
}

TEST(FitRobots, PandaLinkAndHand) {
  if (!haveRobots()) GTEST_SKIP() << kRobots << " is absent: real-robot fit tests skipped";
  convertAndCheck(kRobots + "/panda", "panda.urdf", {"fer_link3", "fer_hand"},
                  {"meshes/collision/link3.stl", "meshes/collision/hand.stl"});
}

TEST(FitRobots, ICubFingerAndPalm) {
  if (!haveRobots()) GTEST_SKIP() << kRobots << " is absent: real-robot fit tests skipped";
  convertAndCheck(kRobots + "/icub", "iCub_hands_collision.urdf", {"il3", "right_palm"},
                  {"meshes_stl/il3.stl", "meshes_stl/right_palm.stl"});
}

}  // namespace
