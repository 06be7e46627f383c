// The README's robot walk-through on a COLLADA robot: the iCub's right index
// and middle fingers (test/urdf/data/icub_fingers: four .dae meshes, from
// ../shared/data/robots/icub), from the mesh URDF to the fitted URDF
// (sov-urdf-fit) to the self distance at a configuration (sov-query).
#include <gtest/gtest.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <Eigen/Geometry>
#include <sstream>
#include <string>
#include <vector>

#include "examples_test_util.h"

namespace {

using sov_test::readText;
using sov_test::scratchDir;

const std::string kFingers = SOV_URDF_TEST_DATA_DIR "/icub_fingers/icub_fingers.urdf";
const char* const kJoints = "ij3=0.3,ij4=0.5,mj3=0.9,mj4=0.2";

// Runs a tool with args (quoted for the shell); stdout and stderr into run.
sov_test::ToolRun runTool(const std::string& tool, const std::string& args) {
  const std::string stem = scratchDir("walkthrough") + "/" + std::to_string(getpid());
  const int s = std::system(("'" + tool + "' " + args + " > '" + stem + ".out' 2> '" + stem +
                             ".err'")
                                .c_str());
  return {WIFEXITED(s) ? WEXITSTATUS(s) : -1, readText(stem + ".out"), readText(stem + ".err")};
}

// The self-min row of a robot query: link1, link2, distance.
struct SelfMin {
  std::string link1, link2;
  double d = 0;
};
SelfMin selfMin(const std::string& out) {
  std::istringstream in(out);
  std::string line;
  SelfMin m;
  while (std::getline(in, line)) {
    if (line.rfind("self-min", 0) != 0) continue;
    std::istringstream words(line.substr(8));
    std::size_t c1 = 0, c2 = 0;
    words >> m.link1 >> c1 >> m.link2 >> c2 >> m.d;
  }
  return m;
}

// The scene of a URDF file at the walk-through's joint positions.
sov::urdf::PairDistance sceneSelfMin(const std::string& urdf) {
  sov::urdf::Scene scene(urdf);
  scene.setJointPositions({{"ij3", 0.3}, {"ij4", 0.5}, {"mj3", 0.9}, {"mj4", 0.2}});
  return scene.minSelfDistance();
}

TEST(ReadmeWalkthrough, ColladaFingersFromMeshesToFittedSelfDistance) {
#ifndef SOV_URDF_FIT_TOOL
  GTEST_SKIP() << "sov-urdf-fit is not built (qhull not found)";
#else
  // 1. The mesh URDF: the COLLADA meshes load (assimp) and answer a query.
  const sov_test::ToolRun meshes =
      runTool(SOV_QUERY_TOOL, "--urdf '" + kFingers + "' --joints " + kJoints);
  ASSERT_EQ(meshes.status, 0) << meshes.err;
  const SelfMin mesh_min = selfMin(meshes.out);
  EXPECT_NEAR(mesh_min.d, sceneSelfMin(kFingers).distance, 1e-12);

  // 2. Fit: one superovoid per mesh collision, each containing its mesh.
  const std::string fitted = scratchDir("walkthrough") + "/icub_fingers_fit.urdf";
  const sov_test::ToolRun fit =
      runTool(SOV_URDF_FIT_TOOL, "'" + kFingers + "' '" + fitted + "' --starts 1");
  ASSERT_EQ(fit.status, 0) << fit.err;
  EXPECT_NE(fit.err.find("[4/4] "), std::string::npos) << fit.err;
  const sov::urdf::Model model = sov::urdf::parseFile(fitted);
  const sov::urdf::Model original = sov::urdf::parseFile(kFingers);
  ASSERT_EQ(model.superovoids.size(), 4u);
  for (const sov::urdf::Superovoid& s : model.superovoids) {
    const ::urdf::Collision& c = *original.urdf->getLink(s.link)->collision_array[s.index];
    const auto& mesh_geometry = static_cast<const ::urdf::Mesh&>(*c.geometry);
    const sov::urdf::TriangleMesh mesh = sov::urdf::loadMesh(
        SOV_URDF_TEST_DATA_DIR "/icub_fingers/" + mesh_geometry.filename);
    const Eigen::Isometry3d origin =
        Eigen::Translation3d(c.origin.position.x, c.origin.position.y, c.origin.position.z) *
        Eigen::Quaterniond(c.origin.rotation.w, c.origin.rotation.x, c.origin.rotation.y,
                           c.origin.rotation.z);
    const Eigen::Isometry3d frame = Eigen::Translation3d(s.xyz[0], s.xyz[1], s.xyz[2]) *
                                    Eigen::Quaterniond(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
    for (const auto& v : mesh.vertices) {
      const Eigen::Vector3d y = frame.inverse() * (origin * Eigen::Vector3d(v[0], v[1], v[2]));
      double F = 0;
      ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s.shape, y.data()), SOV_OK);
      EXPECT_LE(F, 0.0) << s.link;
    }
  }

  // 3. The self distance of the fitted fingers at the configuration: the
  //    scene's, and no more than the meshes' (the bodies contain them).
  const sov_test::ToolRun query =
      runTool(SOV_QUERY_TOOL, "--urdf '" + fitted + "' --joints " + kJoints + " --margin 0.002");
  ASSERT_EQ(query.status, 0) << query.err;
  const SelfMin fit_min = selfMin(query.out);
  const sov::urdf::PairDistance expected = sceneSelfMin(fitted);
  EXPECT_EQ(fit_min.link1, expected.link1);
  EXPECT_EQ(fit_min.link2, expected.link2);
  EXPECT_NEAR(fit_min.d, expected.distance, 1e-12);
  EXPECT_GT(fit_min.d, 0.0);  // the index and middle fingers are apart there
  EXPECT_LE(fit_min.d, mesh_min.d);
#endif
}

}  // namespace
