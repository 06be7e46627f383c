// The MoveIt collision plugin against MoveIt's own FCL detector: the Franka
// Panda (../shared/data/robots/panda) fitted with superovoids (sov::urdf::fitUrdf)
// and as its meshes, each in a PlanningScene with the same world objects (boxes,
// a cylinder, a sphere, a mesh, an octomap) and the same SRDF. Skipped when the
// robot data is absent.
#include <gtest/gtest.h>

#include <geometric_shapes/shape_operations.h>
#include <moveit/collision_detection/collision_plugin.h>
#include <moveit/collision_detection_fcl/collision_detector_allocator_fcl.h>
#include <moveit/planning_scene/planning_scene.h>
#include <moveit/robot_model/robot_model.h>
#include <octomap/OcTree.h>
#include <random_numbers/random_numbers.h>
#include <srdfdom/model.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "superovoid/moveit/collision_env_superovoid.h"
#include "superovoid/urdf/fit.h"

#ifdef SOV_MOVEIT_PACKAGE_PATH
#include <pluginlib/class_loader.hpp>
#endif

namespace {

namespace cd = collision_detection;

const std::string kPanda = SOV_SHARED_DATA_DIR "/robots/panda";
constexpr int kStates = 10000;
// GJK's tolerance (superovoid vs mesh triangles): the plugin's distance may
// exceed the mesh one by this much although the superovoid encloses the mesh.
constexpr double kGjkTolerance = 1e-6;

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Relative mesh file names as file:// URIs (MoveIt reads meshes through
// resource_retriever, which takes URIs only).
std::string withFileUris(std::string xml, const std::string& dir) {
  const std::string from = "filename=\"meshes/", to = "filename=\"file://" + dir + "/meshes/";
  for (std::size_t at = xml.find(from); at != std::string::npos; at = xml.find(from, at + to.size()))
    xml.replace(at, from.size(), to);
  return xml;
}

// The SRDF both scenes use: the arm group and the pairs that touch by
// construction (each link and the next link with geometry; the hand and its
// fingers; the two fingers, which meet when closed).
const char kSrdf[] = R"(<?xml version="1.0"?>
<robot name="fer">
  <group name="arm"><chain base_link="fer_link0" tip_link="fer_hand"/></group>
  <disable_collisions link1="fer_link0" link2="fer_link1" reason="Adjacent"/>
  <disable_collisions link1="fer_link1" link2="fer_link2" reason="Adjacent"/>
  <disable_collisions link1="fer_link2" link2="fer_link3" reason="Adjacent"/>
  <disable_collisions link1="fer_link3" link2="fer_link4" reason="Adjacent"/>
  <disable_collisions link1="fer_link4" link2="fer_link5" reason="Adjacent"/>
  <disable_collisions link1="fer_link5" link2="fer_link6" reason="Adjacent"/>
  <disable_collisions link1="fer_link6" link2="fer_link7" reason="Adjacent"/>
  <disable_collisions link1="fer_link7" link2="fer_hand" reason="Adjacent"/>
  <disable_collisions link1="fer_hand" link2="fer_leftfinger" reason="Adjacent"/>
  <disable_collisions link1="fer_hand" link2="fer_rightfinger" reason="Adjacent"/>
  <disable_collisions link1="fer_leftfinger" link2="fer_rightfinger" reason="Default"/>
</robot>
)";

moveit::core::RobotModelPtr makeModel(const std::string& urdf_xml) {
  const auto urdf = urdf::parseURDF(urdf_xml);
  if (!urdf) return nullptr;
  auto srdf = std::make_shared<srdf::Model>();
  if (!srdf->initString(*urdf, kSrdf)) return nullptr;
  return std::make_shared<moveit::core::RobotModel>(urdf, srdf);
}

// The world of both scenes: a floor (allowed to touch the base link), a
// shelf, a pole, a ball, one of the Panda's link meshes as an obstacle and an
// octomap block.
void addWorld(planning_scene::PlanningScene& scene, const std::string& mesh_uri) {
  const auto world = scene.getWorldNonConst();
  auto at = [](double x, double y, double z) {
    return Eigen::Isometry3d(Eigen::Translation3d(x, y, z));
  };
  world->addToObject("floor", std::make_shared<shapes::Box>(2.0, 2.0, 0.02), at(0, 0, -0.011));
  world->addToObject("shelf", std::make_shared<shapes::Box>(0.3, 0.6, 0.04), at(0.55, 0.0, 0.35));
  world->addToObject("pole", std::make_shared<shapes::Cylinder>(0.04, 1.2), at(-0.35, 0.4, 0.6));
  world->addToObject("ball", std::make_shared<shapes::Sphere>(0.1), at(0.3, -0.45, 0.6));
  shapes::ShapePtr mesh(shapes::createMeshFromResource(mesh_uri));
  ASSERT_TRUE(mesh) << mesh_uri;
  world->addToObject("part", mesh, at(0.35, 0.45, 0.45));
  auto tree = std::make_shared<octomap::OcTree>(0.04);
  for (double x = -0.5; x <= -0.3; x += 0.04)
    for (double y = -0.4; y <= -0.2; y += 0.04)
      for (double z = 0.3; z <= 0.5; z += 0.04) tree->updateNode(x, y, z, true);
  world->addToObject("octomap", std::make_shared<shapes::OcTree>(tree), at(0, 0, 0));
  scene.getAllowedCollisionMatrixNonConst().setEntry("floor", "fer_link0", true);
}

class PandaScenes : public ::testing::Test {
 protected:
  // Fits every Panda mesh collision once for the suite (seconds).
  static void SetUpTestSuite() {
    if (!std::ifstream(kPanda + "/panda.urdf").good()) return;
    const std::string xml = readText(kPanda + "/panda.urdf");
    std::vector<sov::urdf::CollisionFit> fits;
    fitted_xml_ = new std::string(withFileUris(
        sov::urdf::fitUrdf(xml, kPanda, sov::urdf::UrdfFitOptions(), &fits, "panda.urdf"), kPanda));
    mesh_xml_ = new std::string(withFileUris(xml, kPanda));
    fitted_count_ = fits.size();
  }
  static void TearDownTestSuite() {
    delete fitted_xml_;
    delete mesh_xml_;
  }

  void SetUp() override {
    if (!fitted_xml_) GTEST_SKIP() << kPanda << " is absent: MoveIt plugin tests skipped";
    mesh_model_ = makeModel(*mesh_xml_);
    fitted_model_ = makeModel(*fitted_xml_);
    ASSERT_TRUE(mesh_model_ && fitted_model_);
    mesh_scene_ = std::make_shared<planning_scene::PlanningScene>(mesh_model_);
    mesh_scene_->setActiveCollisionDetector(cd::CollisionDetectorAllocatorFCL::create(), true);
    fitted_scene_ = std::make_shared<planning_scene::PlanningScene>(fitted_model_);
    fitted_scene_->setActiveCollisionDetector(sov::moveit::SuperovoidAllocator::create(*fitted_xml_),
                                              true);
    const std::string obstacle = "file://" + kPanda + "/meshes/collision/link3.stl";
    addWorld(*mesh_scene_, obstacle);
    addWorld(*fitted_scene_, obstacle);
  }

  // The fitted model's state at the mesh model's joint values.
  moveit::core::RobotState fittedState(const moveit::core::RobotState& mesh_state) const {
    moveit::core::RobotState s(fitted_model_);
    for (const std::string& v : mesh_model_->getVariableNames())
      s.setVariablePosition(v, mesh_state.getVariablePosition(v));
    s.update();
    return s;
  }

  const sov::moveit::CollisionEnvSuperovoid& env() const {
    return dynamic_cast<const sov::moveit::CollisionEnvSuperovoid&>(*fitted_scene_->getCollisionEnv());
  }

  static std::string* fitted_xml_;
  static std::string* mesh_xml_;
  static std::size_t fitted_count_;
  moveit::core::RobotModelPtr mesh_model_, fitted_model_;
  planning_scene::PlanningScenePtr mesh_scene_, fitted_scene_;
};

std::string* PandaScenes::fitted_xml_ = nullptr;
std::string* PandaScenes::mesh_xml_ = nullptr;
std::size_t PandaScenes::fitted_count_ = 0;

TEST_F(PandaScenes, PluginIsActiveAndHoldsEverySuperovoid) {
  EXPECT_EQ(fitted_scene_->getActiveCollisionDetectorName(), "Superovoid");
  EXPECT_EQ(env().superovoidCount(), fitted_count_);
  EXPECT_GT(fitted_count_, 0u);
}

// The plugin as move_group's collision_detector parameter selects it:
// pluginlib finds "Superovoid" among moveit_core's collision plugins, and
// its initialize() makes the scene's detector "Superovoid" (the URDF text
// from SOV_ROBOT_DESCRIPTION_FILE, roscpp not being up); without a text it
// refuses and the scene keeps MoveIt's detector.
TEST_F(PandaScenes, PluginlibSelectsTheDetectorByName) {
#ifndef SOV_MOVEIT_PACKAGE_PATH
  GTEST_SKIP() << "pluginlib not found at configure time: the plugin module was not built";
#else
  const char* prefix_path = std::getenv("CMAKE_PREFIX_PATH");
  const std::string prefixes =
      std::string(SOV_MOVEIT_PLUGIN_PREFIX) + (prefix_path ? std::string(":") + prefix_path : "");
  ASSERT_EQ(setenv("ROS_PACKAGE_PATH", SOV_MOVEIT_PACKAGE_PATH, 1), 0);
  ASSERT_EQ(setenv("CMAKE_PREFIX_PATH", prefixes.c_str(), 1), 0);
  pluginlib::ClassLoader<cd::CollisionPlugin> loader("moveit_core",
                                                     "collision_detection::CollisionPlugin");
  const std::vector<std::string> names = loader.getDeclaredClasses();
  EXPECT_NE(std::find(names.begin(), names.end(), "FCL"), names.end());
  ASSERT_NE(std::find(names.begin(), names.end(), "Superovoid"), names.end());
  auto plugin = loader.createUniqueInstance("Superovoid");

  auto refused = std::make_shared<planning_scene::PlanningScene>(fitted_model_);
  unsetenv("SOV_ROBOT_DESCRIPTION_FILE");
  EXPECT_FALSE(plugin->initialize(refused, true));
  EXPECT_EQ(refused->getActiveCollisionDetectorName(), "FCL");

  const std::string path = ::testing::TempDir() + "/sov_fitted_panda.urdf";
  std::ofstream(path) << *fitted_xml_;
  ASSERT_EQ(setenv("SOV_ROBOT_DESCRIPTION_FILE", path.c_str(), 1), 0);
  auto scene = std::make_shared<planning_scene::PlanningScene>(fitted_model_);
  ASSERT_EQ(scene->getActiveCollisionDetectorName(), "FCL");
  EXPECT_TRUE(plugin->initialize(scene, true));
  EXPECT_EQ(scene->getActiveCollisionDetectorName(), "Superovoid");
  unsetenv("SOV_ROBOT_DESCRIPTION_FILE");
#endif
}

// A model whose link has no box where the text has a superovoid is refused.
TEST_F(PandaScenes, MeshModelWithFittedTextIsRefused) {
  EXPECT_THROW(sov::moveit::CollisionEnvSuperovoid(
                   mesh_model_, std::make_shared<const sov::urdf::Model>(sov::urdf::parse(*fitted_xml_))),
               sov::urdf::Error);
}

// 10,000 random states: no state where the meshes collide and the
// superovoids do not; distances to the world and between links never larger
// than the meshes' (the superovoids enclose the meshes); the timing of both
// detectors on the same states, interleaved.
TEST_F(PandaScenes, NeverMissesAMeshCollision) {
  random_numbers::RandomNumberGenerator rng(20261);
  moveit::core::RobotState mesh_state(mesh_model_);
  cd::CollisionRequest req;
  long both = 0, fitted_only = 0, missed = 0, free = 0;
  double mesh_s = 0, fitted_s = 0, mesh_free_s = 0, fitted_free_s = 0;
  double split[2][2] = {{0, 0}, {0, 0}};  // [mesh, fitted][world, self], free states
  using Clock = std::chrono::steady_clock;
  for (int i = 0; i < kStates; ++i) {
    mesh_state.setToRandomPositions(rng);
    mesh_state.update();
    const moveit::core::RobotState fitted_state = fittedState(mesh_state);
    cd::CollisionResult mesh_res, fitted_res;
    // Alternate which detector goes first, so neither gets the warmer cache.
    double t[2] = {0, 0};  // mesh, fitted
    for (int k = 0; k < 2; ++k) {
      const bool mesh_turn = (k == 0) == (i % 2 == 0);
      const auto t0 = Clock::now();
      if (mesh_turn)
        mesh_scene_->checkCollision(req, mesh_res, mesh_state);
      else
        fitted_scene_->checkCollision(req, fitted_res, fitted_state);
      t[mesh_turn ? 0 : 1] = std::chrono::duration<double>(Clock::now() - t0).count();
    }
    mesh_s += t[0];
    fitted_s += t[1];
    // Free states: both detectors check every pair (no early exit).
    if (!mesh_res.collision && !fitted_res.collision) {
      ++free;
      mesh_free_s += t[0];
      fitted_free_s += t[1];
      // Where the time goes: world and self checks apart, same order rule.
      for (int k = 0; k < 4; ++k) {
        const bool mesh_turn = (k % 2 == 0) == (i % 2 == 0), world = k < 2;
        const auto& scene = mesh_turn ? mesh_scene_ : fitted_scene_;
        const auto& state = mesh_turn ? mesh_state : fitted_state;
        cd::CollisionResult r;
        const auto t0 = Clock::now();
        if (world)
          scene->getCollisionEnv()->checkRobotCollision(req, r, state, scene->getAllowedCollisionMatrix());
        else
          scene->getCollisionEnvUnpadded()->checkSelfCollision(req, r, state,
                                                              scene->getAllowedCollisionMatrix());
        split[mesh_turn ? 0 : 1][world ? 0 : 1] +=
            std::chrono::duration<double>(Clock::now() - t0).count();
      }
    }
    both += mesh_res.collision && fitted_res.collision;
    fitted_only += !mesh_res.collision && fitted_res.collision;
    if (mesh_res.collision && !fitted_res.collision) {
      ++missed;
      ADD_FAILURE() << "state " << i << ": the meshes collide, the superovoids do not";
    }
  }
  EXPECT_EQ(missed, 0);
  std::printf(
      "[ moveit   ] %d states: both collide %ld, superovoids only %ld, meshes only %ld, "
      "neither %ld\n[ moveit   ] per state, all: MoveIt FCL (meshes) %.1f us, Superovoid "
      "plugin %.1f us, ratio %.2f; collision-free states: %.1f us, %.1f us, ratio %.2f\n",
      kStates, both, fitted_only, missed, free, 1e6 * mesh_s / kStates, 1e6 * fitted_s / kStates,
      fitted_s / mesh_s, free ? 1e6 * mesh_free_s / free : 0.0,
      free ? 1e6 * fitted_free_s / free : 0.0, fitted_free_s / mesh_free_s);
  if (free)
    std::printf(
        "[ moveit   ] collision-free states apart: world %.1f us, %.1f us; self %.1f us, %.1f us\n",
        1e6 * split[0][0] / free, 1e6 * split[1][0] / free, 1e6 * split[0][1] / free,
        1e6 * split[1][1] / free);
}

// The colliding pairs of every state (self and world, all of them: one
// contact per pair): each pair the meshes report, the superovoids report too.
// Each world object is hit by the meshes in some state, so every kind of
// world geometry (box, cylinder, sphere, mesh, octomap) is exercised.
TEST_F(PandaScenes, EveryMeshContactPairIsASuperovoidPair) {
  random_numbers::RandomNumberGenerator rng(3);
  moveit::core::RobotState mesh_state(mesh_model_);
  cd::CollisionRequest req;
  req.contacts = true;
  req.max_contacts = 1000;
  req.max_contacts_per_pair = 1;
  std::map<std::string, int> mesh_hits;
  long mesh_pairs = 0;
  for (int i = 0; i < 2000; ++i) {
    mesh_state.setToRandomPositions(rng);
    mesh_state.update();
    const moveit::core::RobotState fitted_state = fittedState(mesh_state);
    cd::CollisionResult mesh_res, fitted_res;
    mesh_scene_->getCollisionEnv()->checkRobotCollision(req, mesh_res, mesh_state,
                                                       mesh_scene_->getAllowedCollisionMatrix());
    mesh_scene_->getCollisionEnv()->checkSelfCollision(req, mesh_res, mesh_state,
                                                      mesh_scene_->getAllowedCollisionMatrix());
    fitted_scene_->getCollisionEnv()->checkRobotCollision(req, fitted_res, fitted_state,
                                                         fitted_scene_->getAllowedCollisionMatrix());
    fitted_scene_->getCollisionEnv()->checkSelfCollision(req, fitted_res, fitted_state,
                                                        fitted_scene_->getAllowedCollisionMatrix());
    for (const auto& pair : mesh_res.contacts) {
      ++mesh_pairs;
      for (const std::string& name : {pair.first.first, pair.first.second})
        if (mesh_scene_->getWorld()->hasObject(name)) ++mesh_hits[name];
      EXPECT_TRUE(fitted_res.contacts.count(pair.first))
          << "state " << i << ": " << pair.first.first << " - " << pair.first.second;
    }
  }
  EXPECT_GT(mesh_pairs, 0);
  for (const std::string& name : mesh_scene_->getWorld()->getObjectIds())
    EXPECT_GT(mesh_hits[name], 0) << name << " is never hit by the meshes";
}

// Distances on the first 500 random states: the superovoid distance between
// two links, and from a link to the world, is at most the mesh one.
TEST_F(PandaScenes, DistancesNeverExceedTheMeshes) {
  random_numbers::RandomNumberGenerator rng(7);
  moveit::core::RobotState mesh_state(mesh_model_);
  int compared = 0;
  for (int i = 0; i < 500; ++i) {
    mesh_state.setToRandomPositions(rng);
    mesh_state.update();
    const moveit::core::RobotState fitted_state = fittedState(mesh_state);
    for (const bool self : {true, false}) {
      cd::DistanceRequest req;
      req.acm = &mesh_scene_->getAllowedCollisionMatrix();
      req.enable_nearest_points = true;
      cd::DistanceResult mesh_res, fitted_res;
      if (self) {
        mesh_scene_->getCollisionEnv()->distanceSelf(req, mesh_res, mesh_state);
        req.acm = &fitted_scene_->getAllowedCollisionMatrix();
        fitted_scene_->getCollisionEnv()->distanceSelf(req, fitted_res, fitted_state);
      } else {
        mesh_scene_->getCollisionEnv()->distanceRobot(req, mesh_res, mesh_state);
        req.acm = &fitted_scene_->getAllowedCollisionMatrix();
        fitted_scene_->getCollisionEnv()->distanceRobot(req, fitted_res, fitted_state);
      }
      const double dm = mesh_res.minimum_distance.distance;
      const double df = fitted_res.minimum_distance.distance;
      if (dm <= 0) continue;  // mesh pairs have no depth to compare with
      ++compared;
      EXPECT_LE(df, dm + kGjkTolerance) << "state " << i << (self ? " self" : " world") << ": "
                                        << fitted_res.minimum_distance.link_names[0] << " - "
                                        << fitted_res.minimum_distance.link_names[1];
    }
  }
  EXPECT_GT(compared, 0);
}

// The SRDF's disabled pairs, as the planning scene's matrix holds them: at
// the zero pose none is reported; with an empty matrix some are (the fitted
// links overlap where they meet, which is why the SRDF disables them).
TEST_F(PandaScenes, SrdfDisabledPairsAreNotChecked) {
  moveit::core::RobotState state(fitted_model_);
  state.setToDefaultValues();
  state.update();
  cd::CollisionRequest req;
  req.contacts = true;
  req.max_contacts = 1000;
  req.max_contacts_per_pair = 1;
  cd::CollisionResult with_srdf, without;
  const auto& env = *fitted_scene_->getCollisionEnvUnpadded();
  env.checkSelfCollision(req, with_srdf, state, fitted_scene_->getAllowedCollisionMatrix());
  env.checkSelfCollision(req, without, state, cd::AllowedCollisionMatrix());
  const auto& disabled = fitted_model_->getSRDF()->getDisabledCollisionPairs();
  ASSERT_FALSE(disabled.empty());
  std::size_t reported_without = 0;
  for (const srdf::Model::CollisionPair& p : disabled) {
    const auto key = std::minmax(p.link1_, p.link2_);
    const std::pair<std::string, std::string> pair(key.first, key.second);
    EXPECT_EQ(with_srdf.contacts.count(pair), 0u) << pair.first << " - " << pair.second;
    reported_without += without.contacts.count(pair);
  }
  EXPECT_GT(reported_without, 0u);
}

// Contacts and the allowed-collision matrix on a state where the superovoids
// collide: contacts name the colliding bodies and lie within their depth;
// allowing every reported pair removes the collision.
TEST_F(PandaScenes, ContactsNameThePairsTheMatrixAllows) {
  random_numbers::RandomNumberGenerator rng(11);
  moveit::core::RobotState state(fitted_model_);
  cd::CollisionRequest req;
  req.contacts = true;
  req.max_contacts = 100;
  req.max_contacts_per_pair = 1;
  cd::CollisionResult res;
  for (int i = 0; i < 1000 && !res.collision; ++i) {
    state.setToRandomPositions(rng);
    state.update();
    res.clear();
    fitted_scene_->checkCollision(req, res, state);
  }
  ASSERT_TRUE(res.collision) << "no colliding state in 1000";
  ASSERT_FALSE(res.contacts.empty());
  cd::AllowedCollisionMatrix acm = fitted_scene_->getAllowedCollisionMatrix();
  for (const auto& entry : res.contacts) {
    ASSERT_EQ(entry.second.size(), 1u);
    const cd::Contact& c = entry.second[0];
    EXPECT_EQ(std::minmax(c.body_name_1, c.body_name_2),
              std::minmax(entry.first.first, entry.first.second));
    EXPECT_GE(c.depth, 0.0);
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-9);
    acm.setEntry(entry.first.first, entry.first.second, true);
  }
  cd::CollisionResult allowed;
  fitted_scene_->checkCollision(req, allowed, state, acm);
  EXPECT_FALSE(allowed.collision);
}

}  // namespace
