// Scene::motionCollides and sov_scene_motion_collides: random joint-space
// segments against dense sampling (never later, within a sample), a thin
// obstacle that sampling at OMPL's default resolution misses, the SRDF's
// disabled pairs, prismatic, continuous and mimic joints, meshes, the C
// entry point and the errors.
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/scene.h>
#include <superovoid/urdf/scene.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "scene_test_util.h"

// c_header_check.c: the motion check driven from C.
extern "C" int sov_test_scene_motion_from_c(sov_scene_motion* out, const char* path,
                                            const char* const* names, const double* q0,
                                            const double* q1, size_t count, char* err,
                                            size_t err_size);

namespace {

using sov::urdf::JointPositions;
using sov::urdf::MotionCheck;
using sov::urdf::Scene;
using Env = std::vector<fcl::CollisionObject<double>*>;

// Dense sampling of the segments: steps of 1e-3 in t.
constexpr int kSamples = 1000;
// The default distance tolerance of motionCollides.
constexpr double kTolerance = 1e-6;
// The scene's own distances of GJK and mesh pairs (FCL's tolerance 1e-6)
// against the motion check's (1e-10): measured up to 2.2e-7 apart.
constexpr double kGjkSlack = 1e-5;

// q0 + t (q1 - q0) for the joints of q0.
JointPositions lerp(const JointPositions& q0, const JointPositions& q1, double t) {
  JointPositions q;
  for (const auto& [name, v] : q0) q[name] = v + t * (q1.at(name) - v);
  return q;
}

// The scene's smallest distance at q, self and against env.
double distanceAt(Scene& scene, const JointPositions& q, const Env& env) {
  scene.setJointPositions(q);
  double d = scene.minSelfDistance().distance;
  if (!env.empty()) d = std::min(d, scene.distance(env).distance);
  return d;
}

// First t = k / samples at which the scene's distance is <= 0 (2 if none);
// *min_d gets the smallest sampled distance.
double firstSampledContact(Scene& scene, const JointPositions& q0, const JointPositions& q1,
                           const Env& env, int samples, double* min_d = nullptr) {
  double lowest = std::numeric_limits<double>::infinity();
  double found = 2;
  for (int k = 0; k <= samples && found > 1; ++k) {
    const double t = static_cast<double>(k) / samples;
    const double d = distanceAt(scene, lerp(q0, q1, t), env);
    lowest = std::min(lowest, d);
    if (d <= 0) found = t;
  }
  if (min_d) *min_d = lowest;
  return found;
}

// Random positions within the limits of the named joints.
JointPositions randomQ(const std::vector<std::pair<std::string, std::pair<double, double>>>& joints,
                       std::mt19937& rng) {
  JointPositions q;
  for (const auto& [name, range] : joints) {
    q[name] = std::uniform_real_distribution<double>(range.first, range.second)(rng);
  }
  return q;
}

// The toy finger's four joints and their limits.
const std::vector<std::pair<std::string, std::pair<double, double>>> kToyJoints = {
    {"finger_base", {-0.6, 1.8}},
    {"finger_middle", {-0.3, 1.8}},
    {"finger_distal", {-0.3, 1.8}},
    {"thumb_base", {-0.3, 1.2}}};

// Checks a motion check against dense sampling of the same segment: a
// contact never after the first sampled one, within a sample of it (or a
// graze the samples step over), at a distance within the tolerance; no
// contact only when no sample touches. Counts contacts and free segments.
// slack: how far the scene's own distance may be off (GJK pairs: the
// scene's queries run GJK at FCL's 1e-6, the motion check's at 1e-10).
void expectAgreesWithSampling(Scene& scene, const JointPositions& q0, const JointPositions& q1,
                              const Env& env, int* contacts, int* free, double slack = 1e-9) {
  const MotionCheck m = scene.motionCollides(q0, q1, env);
  double min_d = 0;
  const double ts = firstSampledContact(scene, q0, q1, env, kSamples, &min_d);
  if (!m.collides) {
    EXPECT_GT(ts, 1) << "a sampled contact at " << ts << " was missed";
    EXPECT_EQ(m.t, 1);
    ++*free;
    return;
  }
  ++*contacts;
  EXPECT_LE(m.t, ts);
  EXPECT_LE(m.pair.distance, kTolerance);
  if (m.t > 0) {
    // Apart before t, within the tolerance at t.
    const double dt = distanceAt(scene, lerp(q0, q1, m.t), env);
    EXPECT_GT(dt, -slack);
    EXPECT_LE(dt, kTolerance + slack);
  }
  if (ts <= 1) {
    EXPECT_LE(ts - m.t, 1.0 / kSamples + 1e-4);
  } else {
    EXPECT_LT(min_d, 1e-3);  // a graze between samples
  }
}

// A random toy finger configuration that self-collides (drawn until one
// does); the scene is left there.
JointPositions selfCollidingQ(Scene& scene, std::mt19937& rng) {
  JointPositions q;
  do {
    q = randomQ(kToyJoints, rng);
    scene.setJointPositions(q);
  } while (!scene.selfCollision());
  return q;
}

TEST(SceneMotion, ToyFingerSegmentsAgreeWithDenseSampling) {
  Scene scene(sov_test::dataPath("toy_finger.urdf"));
  std::mt19937 rng(311);
  int contacts = 0, free = 0;
  for (int i = 0; i < 30; ++i) {
    expectAgreesWithSampling(scene, randomQ(kToyJoints, rng), randomQ(kToyJoints, rng), {},
                             &contacts, &free);
  }
  // Segments into self-colliding configurations (drawn until one collides).
  for (int i = 0; i < 10; ++i) {
    const JointPositions target = selfCollidingQ(scene, rng);
    expectAgreesWithSampling(scene, randomQ(kToyJoints, rng), target, {}, &contacts, &free);
  }
  EXPECT_GT(contacts, 10);
  EXPECT_GT(free, 5);
}

// A distance tolerance of 0 asks for contact itself. Conservative
// advancement never steps past a contact, so without a floor its steps
// shrank geometrically towards it and every colliding segment ran out of
// steps; the check meets contact within the rounding floor instead
// (MotionOptions::distance_tolerance), at the time the default finds.
TEST(SceneMotion, ZeroDistanceToleranceFindsTheContact) {
  Scene scene(sov_test::dataPath("toy_finger.urdf"));
  std::mt19937 rng(312);
  sov::urdf::MotionOptions exact;
  exact.distance_tolerance = 0;
  exact.max_steps = 100000;
  for (int i = 0; i < 10; ++i) {
    const JointPositions target = selfCollidingQ(scene, rng);
    const JointPositions start = randomQ(kToyJoints, rng);
    const sov::urdf::MotionCheck tolerant = scene.motionCollides(start, target);
    const sov::urdf::MotionCheck c = scene.motionCollides(start, target, exact);
    EXPECT_TRUE(c.collides);
    EXPECT_LE(c.pair.distance, 1e-12);
    EXPECT_GE(c.t, tolerant.t);
    EXPECT_NEAR(c.t, tolerant.t, 1e-3);
  }
}

TEST(SceneMotion, EnvironmentSegmentsAgreeWithDenseSampling) {
  Scene scene(sov_test::dataPath("toy_finger.urdf"));
  auto body = std::make_shared<sov::Superovoid>(0.012, 0.02, 0.01, 0.5, 0.8, 0.1, 0.1);
  auto box = std::make_shared<fcl::Box<double>>(0.02, 0.03, 0.01);
  fcl::CollisionObject<double> o1(body), o2(box);
  o1.setTransform(Eigen::Matrix3d(Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitX())),
                  Eigen::Vector3d(0.05, 0.0, 0.06));
  o2.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(-0.04, 0.0, 0.07));
  o1.computeAABB();
  o2.computeAABB();
  const Env env{&o1, &o2};
  std::mt19937 rng(312);
  int contacts = 0, free = 0;
  for (int i = 0; i < 20; ++i) {
    expectAgreesWithSampling(scene, randomQ(kToyJoints, rng), randomQ(kToyJoints, rng), env,
                             &contacts, &free);
  }
  EXPECT_GT(contacts, 3);
  EXPECT_GT(free, 1);
}

// A blade on one revolute joint (limits +-1.5) turning about z: a flat
// superovoid 0.6 m long, 4 mm thick in the direction it moves.
const char* const kBladeUrdf = R"(<robot name="blade" xmlns:sov="urn:superovoid:urdf:1">
  <link name="base"/>
  <link name="blade"><collision><origin xyz="0.3 0 0"/><geometry>
    <sov:superovoid a1="0.3" a2="0.002" a3="0.02" eps1="0.2" eps2="0.2"/></geometry></collision></link>
  <joint name="swing" type="revolute"><parent link="base"/><child link="blade"/>
    <axis xyz="0 0 1"/><limit lower="-1.5" upper="1.5" effort="1" velocity="1"/></joint>
</robot>)";

TEST(SceneMotion, ThinPlateMissedAtOmplsResolutionIsFound) {
  // OMPL's default motion validator checks states every 1 % of the state
  // space's extent (longest valid segment fraction 0.01): here 0.03 rad, so
  // the swing from -1 to 1 is checked at 67 states, 0.0299 rad apart. A
  // plate 1 mm thick at radius 0.5, across the blade's path at angle 0
  // (midway between two of those states), touches the blade over 0.011
  // rad only.
  Scene scene(sov::urdf::parse(kBladeUrdf));
  const JointPositions q0 = {{"swing", -1.0}}, q1 = {{"swing", 1.0}};
  const int states = static_cast<int>(std::ceil(2.0 / (0.01 * 3.0)));
  EXPECT_EQ(states, 67);
  auto plate = std::make_shared<sov::Superovoid>(0.05, 0.0005, 0.05, 0.2, 0.2);
  fcl::CollisionObject<double> object(plate);
  object.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.5, 0, 0));
  object.computeAABB();
  const Env env{&object};
  EXPECT_GT(firstSampledContact(scene, q0, q1, env, states), 1) << "OMPL's states miss it";
  const double dense = firstSampledContact(scene, q0, q1, env, 20000);
  ASSERT_LE(dense, 1);
  const MotionCheck m = scene.motionCollides(q0, q1, env);
  EXPECT_TRUE(m.collides);
  EXPECT_LE(m.t, dense);
  EXPECT_GT(m.t, dense - 1e-4);
  // The blade's face reaches the plate's face at angle -(2 + 0.5) mm over
  // radius 0.45 (the plate's near edge), about -0.00556 rad: t = 0.4972.
  EXPECT_NEAR(m.t, 0.5 * (1 - 0.0025 / 0.45), 2e-4);
  EXPECT_EQ(m.pair.link1, "blade");
  EXPECT_EQ(m.pair.link2, "");
  EXPECT_EQ(m.pair.collision2, 0u);
  EXPECT_TRUE(m.certified);
}

TEST(SceneMotion, SrdfDisabledPairsAreNotChecked) {
  Scene scene(sov_test::dataPath("toy_finger.urdf"));
  const std::size_t before = scene.motionCollides({}, {}).pairs;
  scene.loadSrdf(sov_test::dataPath("toy_finger.srdf"));
  // The thumb is allowed with every link but the distal; palm-middle too.
  const MotionCheck none = scene.motionCollides({}, {});
  EXPECT_LT(none.pairs, before);
  EXPECT_FALSE(none.collides);
  EXPECT_EQ(none.steps, none.pairs);  // nothing moves: one query a pair
  // A configuration where only the proximal link and the thumb touch (a
  // pair the SRDF disables): the segment to it from the zero pose is free
  // with the SRDF, and collides once that pair is checked again.
  Scene plain(sov_test::dataPath("toy_finger.urdf"));
  std::mt19937 rng(315);
  JointPositions target;
  std::set<std::pair<std::string, std::string>> pairs;
  do {
    target = randomQ(kToyJoints, rng);
    plain.setJointPositions(target);
    pairs.clear();
    plain.selfCollision(&pairs);
  } while (pairs != std::set<std::pair<std::string, std::string>>{{"proximal", "thumb"}});
  JointPositions zero;
  for (const auto& [name, v] : target) zero[name] = 0.0;
  int contacts = 0, free = 0;
  expectAgreesWithSampling(scene, zero, target, {}, &contacts, &free);
  EXPECT_EQ(free, 1);
  scene.disallowCollision("proximal", "thumb");
  expectAgreesWithSampling(scene, zero, target, {}, &contacts, &free);
  EXPECT_EQ(contacts, 1);
  const MotionCheck m = scene.motionCollides(zero, target);
  EXPECT_EQ(std::minmax(m.pair.link1, m.pair.link2),
            std::minmax(std::string("proximal"), std::string("thumb")));
}

TEST(SceneMotion, PrismaticContinuousAndMimicJointsAgreeWithSampling) {
  // fk_chain: revolute, prismatic, fixed, continuous; boxes, a sphere and a
  // cylinder (GJK pairs), against a box obstacle near the chain's reach.
  Scene chain(sov_test::dataPath("fk_chain.urdf"));
  auto box = std::make_shared<fcl::Box<double>>(0.05, 0.05, 0.3);
  fcl::CollisionObject<double> object(box);
  object.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.2, 0.15, 0.1));
  object.computeAABB();
  const std::vector<std::pair<std::string, std::pair<double, double>>> joints = {
      {"j1", {-1.5, 1.5}}, {"j2", {0.0, 0.1}}, {"j4", {-4.0, 4.0}}};
  std::mt19937 rng(313);
  int contacts = 0, free = 0;
  for (int i = 0; i < 15; ++i) {
    expectAgreesWithSampling(chain, randomQ(joints, rng), randomQ(joints, rng), {&object},
                             &contacts, &free, kGjkSlack);
  }
  EXPECT_GT(contacts, 2);
  EXPECT_GT(free, 2);
  // A mimic joint doubling its master's turn: the bound must count it.
  const std::string xml = R"(<robot name="mimic" xmlns:sov="urn:superovoid:urdf:1">
    <link name="base"/>
    <link name="arm"><collision><origin xyz="0.1 0 0"/><geometry>
      <sov:superovoid a1="0.1" a2="0.01" a3="0.01" eps1="1" eps2="0.5"/></geometry></collision></link>
    <link name="twin"><collision><origin xyz="0.1 0 0"/><geometry>
      <sov:superovoid a1="0.1" a2="0.01" a3="0.01" eps1="1" eps2="0.5"/></geometry></collision></link>
    <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
      <origin xyz="0 0 0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
    <joint name="m" type="revolute"><parent link="base"/><child link="twin"/>
      <origin xyz="0 0 0.03"/><axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/>
      <mimic joint="j" multiplier="-2" offset="0.9"/></joint>
  </robot>)";
  Scene twins(sov::urdf::parse(xml));
  auto ball = std::make_shared<sov::Superovoid>(0.015, 0.015, 0.015, 1, 1);
  fcl::CollisionObject<double> target(ball);
  target.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0.12, -0.12, 0.03));
  target.computeAABB();
  for (int i = 0; i < 10; ++i) {
    expectAgreesWithSampling(twins, randomQ({{"j", {-0.5, 1.0}}}, rng),
                             randomQ({{"j", {-0.5, 1.0}}}, rng), {&target}, &contacts, &free);
  }
}

TEST(SceneMotion, MeshArmAgreesWithSampling) {
  Scene scene(sov_test::dataPath("mesh_arm.urdf"));
  std::vector<std::pair<std::string, std::pair<double, double>>> joints;
  const auto model = sov::urdf::parseFile(sov_test::dataPath("mesh_arm.urdf"));
  for (const auto& [name, joint] : model.urdf->joints_) {
    if (joint->type == urdf::Joint::REVOLUTE && !joint->mimic) {
      joints.push_back({name, {joint->limits->lower, joint->limits->upper}});
    }
  }
  ASSERT_FALSE(joints.empty());
  std::mt19937 rng(314);
  int contacts = 0, free = 0;
  for (int i = 0; i < 8; ++i) {
    expectAgreesWithSampling(scene, randomQ(joints, rng), randomQ(joints, rng), {}, &contacts,
                             &free, kGjkSlack);
  }
  EXPECT_GT(contacts + free, 7);
}

TEST(SceneMotion, SceneIsLeftAsItWasAndErrorsNameTheJoint) {
  Scene scene(sov_test::dataPath("toy_finger.urdf"));
  scene.setJointPositions({{"finger_base", 0.4}});
  const JointPositions before = scene.jointPositions();
  const Eigen::Isometry3d pose = scene.linkPose("distal");
  scene.motionCollides({{"finger_middle", 0.0}}, {{"finger_middle", 1.5}});
  EXPECT_EQ(scene.jointPositions(), before);
  EXPECT_TRUE(scene.linkPose("distal").isApprox(pose, 0));
  try {
    scene.motionCollides({{"finger_base", 0.0}}, {{"finger_base", 2.5}});
    ADD_FAILURE() << "no error";
  } catch (const sov::urdf::SceneError& e) {
    EXPECT_EQ(e.status(), SOV_SCENE_ERR_JOINT);
    EXPECT_EQ(e.name(), "finger_base");
  }
  EXPECT_THROW(scene.motionCollides({{"nope", 0.0}}, {}), sov::urdf::SceneError);
  sov::urdf::MotionOptions few;
  few.max_steps = 3;
  try {
    scene.motionCollides({{"finger_base", -0.6}}, {{"finger_base", 1.8}}, few);
    ADD_FAILURE() << "no error";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_NO_CONVERGENCE);
  }
  // Options out of range are refused before any step (a NaN tolerance never
  // met a distance: a million queries, then SOV_ERR_NO_CONVERGENCE).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const auto& set : std::vector<std::function<void(sov::urdf::MotionOptions&)>>{
           [&](sov::urdf::MotionOptions& o) { o.distance_tolerance = nan; },
           [](sov::urdf::MotionOptions& o) { o.distance_tolerance = -1; },
           [](sov::urdf::MotionOptions& o) {
             o.distance_tolerance = std::numeric_limits<double>::infinity();
           },
           [&](sov::urdf::MotionOptions& o) { o.gjk_tolerance = nan; },
           [](sov::urdf::MotionOptions& o) { o.gjk_tolerance = 0; },
           [](sov::urdf::MotionOptions& o) { o.max_steps = 0; }}) {
    sov::urdf::MotionOptions bad;
    set(bad);
    try {
      scene.motionCollides({{"finger_middle", 0.0}}, {{"finger_middle", 1.5}}, bad);
      ADD_FAILURE() << "no error";
    } catch (const sov::Error& e) {
      EXPECT_EQ(e.status(), SOV_ERR_OPTION) << e.what();
    }
  }
  EXPECT_EQ(scene.jointPositions(), before);
}

TEST(SceneMotion, CApiMatchesTheCppScene) {
  sov_scene* scene = nullptr;
  char err[256];
  ASSERT_EQ(sov_scene_create_file(&scene, sov_test::dataPath("toy_finger.urdf").c_str(), err,
                                  sizeof err),
            SOV_OK)
      << err;
  Scene cpp(sov_test::dataPath("toy_finger.urdf"));
  const char* names[] = {"finger_base", "finger_middle"};
  const double q0[] = {1.8, 0.0}, q1[] = {1.8, 1.8};
  // An obstacle above the palm.
  const double params[7] = {0.01, 0.01, 0.01, 1, 1, 0, 0};
  const double p[3] = {0.0, 0.0, 0.08}, qi[4] = {1, 0, 0, 0};
  sov_shape shape;
  sov_pose pose;
  ASSERT_EQ(sov_shape_init(&shape, params), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&pose, qi, p), SOV_OK);
  sov_scene_motion m;
  ASSERT_EQ(sov_scene_motion_collides(&m, scene, names, q0, q1, 2, &shape, &pose, 1, err,
                                      sizeof err),
            SOV_OK)
      << err;
  auto ball = std::make_shared<sov::Superovoid>(0.01, 0.01, 0.01, 1, 1);
  fcl::CollisionObject<double> object(ball);
  object.setTransform(Eigen::Matrix3d::Identity(), Eigen::Vector3d(0, 0, 0.08));
  object.computeAABB();
  const MotionCheck c = cpp.motionCollides({{"finger_base", 1.8}, {"finger_middle", 0.0}},
                                           {{"finger_base", 1.8}, {"finger_middle", 1.8}},
                                           {&object});
  EXPECT_EQ(m.colliding, c.collides ? 1 : 0);
  EXPECT_EQ(m.t, c.t);
  EXPECT_EQ(std::string(m.pair.link1), c.pair.link1);
  EXPECT_EQ(std::string(m.pair.link2), c.pair.link2);
  EXPECT_EQ(m.pair.distance, c.pair.distance);
  EXPECT_EQ(m.steps, c.steps);
  EXPECT_EQ(m.pairs, c.pairs);
  // Without obstacles (also from C), and the errors.
  ASSERT_EQ(sov_scene_motion_collides(&m, scene, names, q0, q1, 2, nullptr, nullptr, 0, err,
                                      sizeof err),
            SOV_OK);
  sov_scene_motion from_c;
  ASSERT_EQ(sov_test_scene_motion_from_c(&from_c, sov_test::dataPath("toy_finger.urdf").c_str(),
                                         names, q0, q1, 2, err, sizeof err),
            SOV_OK);
  EXPECT_EQ(from_c.colliding, m.colliding);
  EXPECT_EQ(from_c.t, m.t);
  EXPECT_EQ(from_c.steps, m.steps);
  EXPECT_EQ(sov_scene_motion_collides(nullptr, scene, names, q0, q1, 2, nullptr, nullptr, 0, err,
                                      sizeof err),
            SOV_ERR_NULL);
  const char* twice[] = {"finger_base", "finger_base"};
  EXPECT_EQ(sov_scene_motion_collides(&m, scene, twice, q0, q1, 2, nullptr, nullptr, 0, err,
                                      sizeof err),
            SOV_SCENE_ERR_JOINT);
  const double beyond[] = {9.0, 0.0};
  EXPECT_EQ(sov_scene_motion_collides(&m, scene, names, q0, beyond, 2, nullptr, nullptr, 0, err,
                                      sizeof err),
            SOV_SCENE_ERR_JOINT);
  EXPECT_NE(std::string(err).find("finger_base"), std::string::npos) << err;
  sov_shape bad{};
  EXPECT_EQ(sov_scene_motion_collides(&m, scene, names, q0, q1, 2, &bad, &pose, 1, err,
                                      sizeof err),
            SOV_ERR_UNINITIALIZED);
  sov_scene_destroy(scene);
}

}  // namespace
