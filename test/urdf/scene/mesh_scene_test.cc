// <mesh> collisions in the scene: file names, URIs and scale, one tree per
// (file, scale), every error naming the link and file, and self distance and
// collision on the mesh arm fixture and on the iCub and Panda models
// (../shared/data beside the repository) against brute force over geometry pairs.
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/sphere.h>
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/mesh.h>
#include <superovoid/urdf/scene.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "scene_test_util.h"

namespace {

using sov_test::Brute;
using sov_test::bruteForce;
using sov_test::dataPath;
using sov_test::kDistTol;
using sov_test::kPointTol;
using MeshTree = fcl::BVHModel<fcl::OBBRSS<double>>;

// The shared robot models; tests using them skip when they are absent.
const char* const kRobots = SOV_SHARED_DATA_DIR "/robots";

// The scene geometry of link's collision number index.
const sov::urdf::Scene::GeometryRef& geometryOf(const std::vector<sov::urdf::Scene::GeometryRef>& g,
                                                const std::string& link, std::size_t index) {
  for (const auto& r : g) {
    if (r.link == link && r.collision == index) return r;
  }
  throw std::runtime_error("no geometry " + link);
}

// The mesh tree of a geometry, or nullptr.
const MeshTree* treeOf(const sov::urdf::Scene::GeometryRef& g) {
  return dynamic_cast<const MeshTree*>(g.object->collisionGeometry().get());
}

// A one-link robot whose collision is the mesh filename (scale attribute
// optional).
std::string oneMesh(const std::string& filename, const std::string& scale = "") {
  return R"(<robot name="r"><link name="l"><collision><geometry><mesh filename=")" + filename +
         "\"" + (scale.empty() ? "" : " scale=\"" + scale + "\"") +
         "/></geometry></collision></link></robot>";
}

// The SceneError of building a scene of xml with options.
sov::urdf::SceneError sceneError(const std::string& xml, const sov::urdf::SceneOptions& options) {
  try {
    sov::urdf::Scene scene(sov::urdf::parse(xml), options);
  } catch (const sov::urdf::SceneError& e) {
    return e;
  }
  return sov::urdf::SceneError(0, "", "no error");
}

// Expect a geometry error of link 'l' with each text in its message.
void expectMeshError(const sov::urdf::SceneError& e, std::initializer_list<std::string> texts) {
  EXPECT_EQ(e.status(), SOV_SCENE_ERR_GEOMETRY) << e.what();
  EXPECT_EQ(e.name(), "l") << e.what();
  EXPECT_NE(std::string(e.what()).find("link 'l', collision #0: mesh '"), std::string::npos)
      << e.what();
  for (const std::string& t : texts) {
    EXPECT_NE(std::string(e.what()).find(t), std::string::npos) << e.what();
  }
}

// Primitives whose size urdfdom reads but no body has: each refused, naming
// the link, the collision and the value (they were once queried as given:
// a sphere of radius -0.2 answered 0.4 further away than its mirror 0.2).
TEST(SceneMesh, NegativePrimitiveSizesAreRefused) {
  const std::string tail = "</geometry></collision></link></robot>";
  const std::string head = R"(<robot name="r"><link name="l"><collision><geometry>)";
  const std::pair<std::string, std::string> cases[] = {
      {R"(<sphere radius="-0.2"/>)", "sphere radius -0.2 is not a size"},
      {R"(<box size="0.4 0.4 -0.4"/>)", "box size -0.4 is not a size"},
      {R"(<cylinder radius="0.1" length="-1"/>)", "cylinder length -1 is not a size"},
      {R"(<cylinder radius="-0.1" length="1"/>)", "cylinder radius -0.1 is not a size"}};
  for (const auto& [geometry, text] : cases) {
    const auto e = sceneError(head + geometry + tail, {});
    EXPECT_EQ(e.status(), SOV_SCENE_ERR_GEOMETRY) << e.what();
    EXPECT_EQ(e.name(), "l") << e.what();
    EXPECT_NE(std::string(e.what()).find("link 'l', collision #0: " + text), std::string::npos)
        << e.what();
  }
  // Zero is a size (a point, a flat box): accepted.
  sov::urdf::Scene scene(sov::urdf::parse(head + R"(<sphere radius="0"/>)" + tail), {});
  EXPECT_EQ(scene.geometries().size(), 1u);
}

TEST(SceneMesh, FixtureMeshesLoadRelativeToTheUrdfWithTheirScale) {
  sov::urdf::Scene scene(dataPath("mesh_arm.urdf"));
  const auto g = scene.geometries();
  ASSERT_EQ(g.size(), 6u);
  const MeshTree* upper = treeOf(geometryOf(g, "upper", 0));
  const MeshTree* hand = treeOf(geometryOf(g, "hand", 0));
  const MeshTree* small = treeOf(geometryOf(g, "hand", 1));
  const MeshTree* fore = treeOf(geometryOf(g, "fore", 0));
  ASSERT_TRUE(upper && hand && small && fore);
  EXPECT_EQ(upper, hand) << "same file and scale: one tree";
  EXPECT_NE(upper, small);
  // The ASCII STL cube is welded to 8 vertices; the OBJ prism has 6, and
  // its three quads give 2 triangles each.
  EXPECT_EQ(upper->num_vertices, 8);
  EXPECT_EQ(upper->num_tris, 12);
  EXPECT_EQ(fore->num_vertices, 6);
  EXPECT_EQ(fore->num_tris, 8);
  // The unit cube scaled by (0.03, 0.03, 0.08), and by 0.015.
  EXPECT_TRUE(upper->aabb_local.min_.isApprox(Eigen::Vector3d(-0.015, -0.015, -0.04), 1e-15));
  EXPECT_TRUE(upper->aabb_local.max_.isApprox(Eigen::Vector3d(0.015, 0.015, 0.04), 1e-15));
  EXPECT_TRUE(small->aabb_local.max_.isApprox(Eigen::Vector3d(0.0075, 0.0075, 0.0075), 1e-15));
  // The prism's x spans [-0.5, 1] scaled by 0.02.
  EXPECT_NEAR(fore->aabb_local.min_.x(), -0.01, 1e-15);
  EXPECT_NEAR(fore->aabb_local.max_.x(), 0.02, 1e-15);
}

TEST(SceneMesh, StringModelsResolveAgainstTheMeshDirectory) {
  const std::string xml = oneMesh("meshes/cube.stl", "1 2 3");
  sov::urdf::SceneOptions options;
  options.mesh_directory = dataPath("");
  sov::urdf::Scene scene(sov::urdf::parse(xml), options);
  EXPECT_TRUE(
      treeOf(scene.geometries()[0])->aabb_local.max_.isApprox(Eigen::Vector3d(0.5, 1, 1.5)));
  // Without it, the name is relative to the current directory.
  const std::string missing = (std::filesystem::current_path() / "meshes/cube.stl").string();
  if (!std::filesystem::exists(missing)) {
    expectMeshError(sceneError(xml, {}), {"meshes/cube.stl", "cannot read the file"});
  }
}

// A mesh is its surface, as in FCL (urdf/README.md, "Meshes"): a sphere
// wholly inside a closed cube mesh crosses no triangle, so the scene reports
// the gap to the nearest face and no collision, not an overlap.
TEST(SceneMesh, BodyWhollyInsideAClosedMeshIsApartFromItsSurface) {
  sov::urdf::SceneOptions options;
  options.mesh_directory = dataPath("");
  const double scale = 0.1, radius = 0.01, offset = 0.02;
  sov::urdf::Scene scene(sov::urdf::parse(oneMesh("meshes/cube.stl", "0.1 0.1 0.1")), options);
  double half = 0;  // the cube's half size, from its file
  for (const auto& v : sov::urdf::loadMesh(dataPath("meshes/cube.stl")).vertices)
    half = std::max(half, scale * std::abs(v[0]));
  fcl::CollisionObject<double> ball(std::make_shared<fcl::Sphere<double>>(radius));
  ball.setTranslation(fcl::Vector3d(offset, 0, 0));
  ball.computeAABB();
  const std::vector<fcl::CollisionObject<double>*> env = {&ball};
  EXPECT_NEAR(scene.distance(env).distance, half - offset - radius, 1e-9);
  EXPECT_FALSE(scene.collides(env));
}

TEST(SceneMesh, PackageAndFileUris) {
  sov::urdf::SceneOptions options;
  options.package_paths["arm"] = dataPath("");
  sov::urdf::Scene package(sov::urdf::parse(oneMesh("package://arm/meshes/prism.obj")), options);
  EXPECT_EQ(treeOf(package.geometries()[0])->num_tris, 8);
  const std::string absolute = std::filesystem::absolute(dataPath("meshes/prism.obj")).string();
  sov::urdf::Scene file(sov::urdf::parse(oneMesh("file://" + absolute)));
  EXPECT_EQ(treeOf(file.geometries()[0])->num_tris, 8);

  expectMeshError(
      sceneError(oneMesh("package://other/meshes/prism.obj"), options),
      {"package://other/meshes/prism.obj", "package 'other' is not in the package paths"});
  expectMeshError(sceneError(oneMesh("package://arm"), options),
                  {"a package URI reads package://name/path"});
  expectMeshError(sceneError(oneMesh("http://example.com/a.stl"), options),
                  {"unsupported URI scheme"});
}

TEST(SceneMesh, MeshFileErrorsNameTheLinkAndFile) {
  sov::urdf::SceneOptions options;
  options.mesh_directory = dataPath("");
  expectMeshError(sceneError(oneMesh("meshes/none.stl"), options),
                  {"meshes/none.stl", "cannot read the file"});
  const std::string bad = ::testing::TempDir() + "sov_scene_bad.stl";
  std::ofstream(bad) << "abc";
  expectMeshError(sceneError(oneMesh(bad), options), {bad + ": assimp cannot read the mesh: "});
}

// Two links whose meshes both fail: the error names the first in the
// document (as the fitter does), not the first by name.
TEST(SceneMesh, TheFirstFailingMeshInTheDocumentIsReported) {
  const std::string xml =
      "<robot name='r'>\n"      // 1
      "  <link name='zeta'>\n"  // 2
      "    <collision><geometry><mesh filename='meshes/none1.stl'/></geometry></collision>\n"
      "  </link>\n"              // 4
      "  <link name='alpha'>\n"  // 5
      "    <collision><geometry><mesh filename='meshes/none2.stl'/></geometry></collision>\n"
      "  </link>\n"
      "  <joint name='j' type='fixed'><parent link='zeta'/><child link='alpha'/></joint>\n"
      "</robot>\n";
  sov::urdf::SceneOptions options;
  options.mesh_directory = dataPath("");
  const sov::urdf::SceneError e = sceneError(xml, options);
  EXPECT_EQ(e.status(), SOV_SCENE_ERR_GEOMETRY) << e.what();
  EXPECT_EQ(e.where().line, 3);
  EXPECT_EQ(e.where().link, "zeta");
  EXPECT_NE(std::string(e.what()).find("none1.stl"), std::string::npos) << e.what();
}

// Scene errors name the document and the line of the element at fault: the
// <collision> of a mesh that cannot be read, the <joint> of a position out of
// its limits (also a later update's), and the document for an unknown link.
TEST(SceneMesh, ErrorsNameTheFileAndLine) {
  const std::string xml =
      "<robot name='r'>\n"                                                // 1
      "  <link name='base'/>\n"                                           // 2
      "  <link name='l'>\n"                                               // 3
      "    <collision><geometry><box size='1 1 1'/></geometry></collision>\n"  // 4
      "    <collision>\n"                                                 // 5
      "      <geometry><mesh filename='meshes/none.stl'/></geometry>\n"
      "    </collision>\n"
      "  </link>\n"
      "  <joint name='j' type='revolute'>\n"                             // 9
      "    <parent link='base'/><child link='l'/><axis xyz='0 0 1'/>\n"
      "    <limit lower='0.5' upper='1' effort='1' velocity='1'/>\n"
      "  </joint>\n"
      "</robot>\n";
  sov::urdf::SceneOptions options;
  options.mesh_directory = dataPath("");
  try {
    sov::urdf::Scene scene(sov::urdf::parse(xml, "arm.urdf"), options);
    ADD_FAILURE() << "no error";
  } catch (const sov::urdf::SceneError& e) {
    EXPECT_EQ(e.status(), SOV_SCENE_ERR_GEOMETRY);
    EXPECT_EQ(e.where().source, "arm.urdf");
    EXPECT_EQ(e.where().line, 5);
    EXPECT_EQ(e.where().link, "l");
    EXPECT_EQ(std::string(e.what()).rfind("arm.urdf:5: link 'l', collision #1: mesh '", 0), 0u)
        << e.what();
  }
  std::string fixed = xml;
  fixed.replace(fixed.find("meshes/none.stl"), 15, "meshes/cube.stl");
  sov::urdf::Scene scene(sov::urdf::parse(fixed, "arm.urdf"), options);
  try {
    scene.setJointPositions({{"j", 2.0}});
    ADD_FAILURE() << "no error";
  } catch (const sov::urdf::SceneError& e) {
    EXPECT_EQ(e.status(), SOV_SCENE_ERR_JOINT);
    EXPECT_EQ(e.name(), "j");
    EXPECT_EQ(e.where().line, 9);
    EXPECT_EQ(std::string(e.what()).rfind("arm.urdf:9: joint 'j': position 2 is outside", 0), 0u)
        << e.what();
  }
  try {
    scene.allowCollision("l", "nope");
    ADD_FAILURE() << "no error";
  } catch (const sov::urdf::SceneError& e) {
    EXPECT_EQ(e.status(), SOV_SCENE_ERR_LINK);
    EXPECT_EQ(std::string(e.what()), "arm.urdf: link 'nope' is not a link of the model");
  }
}

// Random positions of the mesh arm's independent joints within their limits.
sov::urdf::JointPositions randomArm(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-2.8, 2.8);
  return {{"shoulder", u(rng)}, {"elbow", u(rng)}, {"wrist", u(rng)}};
}

// Whether a geometry is a mesh.
bool isMesh(const fcl::CollisionObject<double>* o) { return o->getObjectType() == fcl::OT_BVH; }

TEST(SceneMesh, MinimumDistanceMatchesBruteForce) {
  sov::urdf::Scene scene(dataPath("mesh_arm.urdf"));
  std::mt19937 rng(11);
  int apart = 0, mesh_mesh = 0, mesh_superovoid = 0;
  for (int trial = 0; trial < 300; ++trial) {
    scene.setJointPositions(randomArm(rng));
    const Brute b = bruteForce(scene);
    const sov::urdf::PairDistance d = scene.minSelfDistance();
    ASSERT_NEAR(d.distance, b.d, kDistTol) << "trial " << trial;
    std::set<std::pair<std::string, std::string>> pairs;
    EXPECT_EQ(scene.selfCollision(&pairs), !b.colliding.empty());
    EXPECT_EQ(pairs, b.colliding) << "trial " << trial;
    if (b.d <= 0) continue;  // overlapping mesh pairs tie at 0
    ++apart;
    EXPECT_EQ(std::minmax(d.link1, d.link2), std::minmax(b.link1, b.link2)) << "trial " << trial;
    EXPECT_NEAR((d.p2 - d.p1).norm(), d.distance, kPointTol) << "trial " << trial;
    const int meshes = isMesh(b.object1) + isMesh(b.object2);
    mesh_mesh += meshes == 2;
    mesh_superovoid += meshes == 1;
  }
  // The sample covers both kinds of mesh pair as the nearest one.
  EXPECT_GT(apart, 30);
  EXPECT_GT(mesh_mesh, 5);
  EXPECT_GT(mesh_superovoid, 5);
}

// Random positions within the limits of the movable, non-mimic joints.
sov::urdf::JointPositions randomWithinLimits(const sov::urdf::Scene& scene,
                                             const ::urdf::ModelInterface& model,
                                             std::mt19937& rng) {
  sov::urdf::JointPositions q;
  std::uniform_real_distribution<double> u(0, 1);
  for (const auto& [name, value] : scene.jointPositions()) {
    const auto& joint = model.joints_.at(name);
    double lo = -M_PI, hi = M_PI;
    if (joint->limits && joint->type != ::urdf::Joint::CONTINUOUS) {
      lo = joint->limits->lower;
      hi = joint->limits->upper;
    }
    q[name] = lo + (hi - lo) * u(rng);
  }
  return q;
}

// Loads a robot of the shared data and compares its self queries with brute
// force in trials random configurations.
void checkRobot(const std::string& path, int trials, unsigned seed) {
  if (!std::filesystem::exists(path)) {
    GTEST_SKIP() << path << " is absent (shared robot data, not in a fresh clone)";
  }
  const auto model = sov::urdf::parseFile(path);
  sov::urdf::SceneOptions options;
  options.mesh_directory = std::filesystem::path(path).parent_path().string();
  sov::urdf::Scene scene(model, options);
  std::mt19937 rng(seed);
  for (int trial = 0; trial < trials; ++trial) {
    scene.setJointPositions(randomWithinLimits(scene, *model.urdf, rng));
    const Brute b = bruteForce(scene);
    const sov::urdf::PairDistance d = scene.minSelfDistance();
    ASSERT_NEAR(d.distance, b.d, kDistTol) << path << " trial " << trial;
    if (b.d > 0) {
      EXPECT_EQ(std::minmax(d.link1, d.link2), std::minmax(b.link1, b.link2)) << "trial " << trial;
    }
    std::set<std::pair<std::string, std::string>> pairs;
    EXPECT_EQ(scene.selfCollision(&pairs), !b.colliding.empty());
    EXPECT_EQ(pairs, b.colliding) << path << " trial " << trial;
  }
}

TEST(SceneMeshRobots, PandaMatchesBruteForce) {
  checkRobot(std::string(kRobots) + "/panda/panda.urdf", 20, 5);
}

TEST(SceneMeshRobots, ICubHandsMatchBruteForce) {
  checkRobot(std::string(kRobots) + "/icub/iCub_hands_collision.urdf", 3, 6);
}

}  // namespace
