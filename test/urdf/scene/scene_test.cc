// Tests of the robot collision scene (superovoid::scene): forward kinematics
// against hand-computed poses, joint errors, self-distance and collision
// against brute force over link pairs, warm starts against cold queries,
// environment queries and the allowed-collision matrix.
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/sphere.h>
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/scene.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "scene_test_util.h"

namespace {

constexpr double kPoseTol = 1e-12;

using sov_test::Brute;
using sov_test::bruteForce;
using sov_test::dataPath;
using sov_test::kDistTol;
using sov_test::kPointTol;

// Random positions of the toy hand's joints within their limits.
sov::urdf::JointPositions randomHand(std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  auto in = [&](double lo, double hi) { return lo + (hi - lo) * u(rng); };
  return {{"finger_base", in(-0.6, 1.8)},
          {"finger_middle", in(-0.3, 1.8)},
          {"finger_distal", in(-0.3, 1.8)},
          {"thumb_base", in(-0.3, 1.2)}};
}

TEST(SceneKinematics, ChainMatchesHandComputedPoses) {
  const auto model = sov::urdf::parseFile(dataPath("fk_chain.urdf"));
  const double theta = 0.5, s = 0.05, phi = 0.7;
  const auto poses =
      sov::urdf::forwardKinematics(*model.urdf, {{"j1", theta}, {"j2", s}, {"j4", phi}});
  ASSERT_EQ(poses.size(), 5u);
  EXPECT_TRUE(poses.at("base").isApprox(Eigen::Isometry3d::Identity()));
  // l1: Trans(0, 0, 0.1) Rz(theta).
  const Eigen::Isometry3d& l1 = poses.at("l1");
  EXPECT_NEAR((l1.translation() - Eigen::Vector3d(0, 0, 0.1)).norm(), 0, kPoseTol);
  EXPECT_NEAR((l1.linear().col(0) - Eigen::Vector3d(std::cos(theta), std::sin(theta), 0)).norm(), 0,
              kPoseTol);
  // l2: at (0.2 cos - s sin, 0.2 sin + s cos, 0.1), rotated by Rz(theta + pi/2).
  const double a = theta + M_PI / 2;
  const Eigen::Vector3d p2(0.2 * std::cos(theta) - s * std::sin(theta),
                           0.2 * std::sin(theta) + s * std::cos(theta), 0.1);
  EXPECT_NEAR((poses.at("l2").translation() - p2).norm(), 0, kPoseTol);
  EXPECT_NEAR(
      (poses.at("l2").linear().col(0) - Eigen::Vector3d(std::cos(a), std::sin(a), 0)).norm(), 0,
      kPoseTol);
  // l3 = l2 Trans(0, 0, 0.05) Rx(pi/2): x along (cos a, sin a, 0), y up, z
  // along (sin a, -cos a, 0).
  const Eigen::Isometry3d& l3 = poses.at("l3");
  EXPECT_NEAR((l3.translation() - (p2 + Eigen::Vector3d(0, 0, 0.05))).norm(), 0, kPoseTol);
  const Eigen::Vector3d x3(std::cos(a), std::sin(a), 0), y3(0, 0, 1),
      z3(std::sin(a), -std::cos(a), 0);
  EXPECT_NEAR((l3.linear().col(0) - x3).norm(), 0, kPoseTol);
  EXPECT_NEAR((l3.linear().col(1) - y3).norm(), 0, kPoseTol);
  EXPECT_NEAR((l3.linear().col(2) - z3).norm(), 0, kPoseTol);
  // l4 = l3 Trans(0, 0.1, 0) Ry(phi): 0.1 above l3; x = cos phi x3 - sin phi z3.
  const Eigen::Isometry3d& l4 = poses.at("l4");
  EXPECT_NEAR((l4.translation() - (p2 + Eigen::Vector3d(0, 0, 0.15))).norm(), 0, kPoseTol);
  EXPECT_NEAR((l4.linear().col(0) - (std::cos(phi) * x3 - std::sin(phi) * z3)).norm(), 0, kPoseTol);
  EXPECT_NEAR((l4.linear().col(1) - y3).norm(), 0, kPoseTol);
}

TEST(SceneKinematics, SceneObjectsFollowTheLinks) {
  sov::urdf::Scene scene(sov::urdf::parseFile(dataPath("fk_chain.urdf")));
  scene.setJointPositions({{"j1", -0.4}, {"j2", 0.08}});
  scene.setJointPositions({{"j4", 2.0}});
  EXPECT_DOUBLE_EQ(scene.jointPositions().at("j1"), -0.4);
  const auto poses =
      sov::urdf::forwardKinematics(*sov::urdf::parseFile(dataPath("fk_chain.urdf")).urdf,
                                   {{"j1", -0.4}, {"j2", 0.08}, {"j4", 2.0}});
  for (const auto& g : scene.geometries()) {
    // Collision origins are identity in this model.
    EXPECT_TRUE(g.object->getTransform().isApprox(poses.at(g.link), 1e-14)) << g.link;
    EXPECT_TRUE(scene.linkPose(g.link).isApprox(poses.at(g.link), 1e-14)) << g.link;
  }
}

TEST(SceneKinematics, PositionsOutsideTheLimitsNameTheJoint) {
  const auto model = sov::urdf::parseFile(dataPath("fk_chain.urdf"));
  auto expectError = [&](const sov::urdf::JointPositions& q, const std::string& joint,
                         const std::string& text) {
    try {
      sov::urdf::forwardKinematics(*model.urdf, q);
      ADD_FAILURE() << "no error for " << joint;
    } catch (const sov::urdf::SceneError& e) {
      EXPECT_EQ(e.name(), joint);
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'" + joint + "'"), std::string::npos) << e.what();
    }
  };
  // Numbers in their shortest exact decimals (17 digits made 1.6 read 1.6000000000000001),
  // and a position one ulp past its limit tells apart from it.
  expectError({{"j1", 1.6}}, "j1", "position 1.6 is outside its limits [-1.5, 1.5]");
  expectError({{"j1", std::nextafter(1.5, 2.0)}}, "j1",
              "position 1.5000000000000002 is outside its limits [-1.5, 1.5]");
  expectError({{"j2", -0.01}}, "j2", "outside its limits");
  expectError({{"j2", 0.2}}, "j2", "outside its limits");
  expectError({{"j1", std::nan("")}}, "j1", "not finite");
  expectError({{"j3", 0.0}}, "j3", "is fixed");
  expectError({{"nope", 0.0}}, "nope", "not a joint of the model");
  // A continuous joint has no limits; the limits themselves are allowed.
  EXPECT_NO_THROW(sov::urdf::forwardKinematics(*model.urdf, {{"j4", 40.0}, {"j1", 1.5}}));

  sov::urdf::Scene scene(model);
  scene.setJointPositions({{"j1", 0.3}});
  const Eigen::Isometry3d before = scene.linkPose("l4");
  EXPECT_THROW(scene.setJointPositions({{"j1", 0.2}, {"j2", 1.0}}), sov::urdf::SceneError);
  EXPECT_DOUBLE_EQ(scene.jointPositions().at("j1"), 0.3);  // unchanged
  EXPECT_TRUE(scene.linkPose("l4").isApprox(before, 0));
  EXPECT_THROW(scene.linkPose("nope"), sov::urdf::SceneError);
}

TEST(SceneKinematics, AbsentJointsAreClampedIntoTheirLimits) {
  // Limits that exclude 0: the revolute joint goes to 0.5, the prismatic one
  // to -0.1; the continuous one stays at 0.
  const std::string xml = R"(<robot name="m">
    <link name="a"/><link name="b"/><link name="c"/><link name="d"/>
    <joint name="jr" type="revolute"><parent link="a"/><child link="b"/>
      <axis xyz="0 0 1"/><limit lower="0.5" upper="1" effort="1" velocity="1"/></joint>
    <joint name="jp" type="prismatic"><parent link="b"/><child link="c"/>
      <origin xyz="1 0 0"/><axis xyz="1 0 0"/>
      <limit lower="-0.3" upper="-0.1" effort="1" velocity="1"/></joint>
    <joint name="jc" type="continuous"><parent link="c"/><child link="d"/>
      <axis xyz="0 0 1"/></joint>
  </robot>)";
  const auto model = sov::urdf::parse(xml);
  sov::urdf::LinkPoses poses;
  ASSERT_NO_THROW(poses = sov::urdf::forwardKinematics(*model.urdf, {}));
  const auto clamped =
      sov::urdf::forwardKinematics(*model.urdf, {{"jr", 0.5}, {"jp", -0.1}, {"jc", 0.0}});
  for (const auto& [link, pose] : clamped) {
    EXPECT_TRUE(poses.at(link).isApprox(pose, kPoseTol)) << link;
  }
  // c: rotated by 0.5 about z, then 1 - 0.1 along the rotated x.
  const Eigen::Vector3d c(0.9 * std::cos(0.5), 0.9 * std::sin(0.5), 0.0);
  EXPECT_NEAR((poses.at("c").translation() - c).norm(), 0, kPoseTol);
  // Only the absent joints are clamped: a given one is still checked.
  EXPECT_THROW(sov::urdf::forwardKinematics(*model.urdf, {{"jr", 0.0}}), sov::urdf::SceneError);
  // The scene starts at the same positions.
  sov::urdf::Scene scene(model);
  EXPECT_DOUBLE_EQ(scene.jointPositions().at("jr"), 0.5);
  EXPECT_DOUBLE_EQ(scene.jointPositions().at("jp"), -0.1);
  for (const auto& [link, pose] : poses) {
    EXPECT_TRUE(scene.linkPose(link).isApprox(pose, kPoseTol)) << link;
  }
}

// Limits with lower > upper hold no position: named as such, with or
// without a position given (the default once clamped 0 into them, undefined
// behaviour that reported a position nobody asked for).
TEST(SceneKinematics, InvertedLimitsAreNamed) {
  const auto model = sov::urdf::parse(R"(<robot name="m"><link name="a"/><link name="b"/>
    <joint name="ji" type="revolute"><parent link="a"/><child link="b"/>
      <axis xyz="0 1 0"/><limit lower="1" upper="-1" effort="1" velocity="1"/></joint>
  </robot>)");
  for (const sov::urdf::JointPositions& q : {sov::urdf::JointPositions{{"ji", 0.0}},
                                               sov::urdf::JointPositions{}}) {
    try {
      sov::urdf::forwardKinematics(*model.urdf, q);
      ADD_FAILURE() << "no error";
    } catch (const sov::urdf::SceneError& e) {
      EXPECT_EQ(e.status(), SOV_SCENE_ERR_JOINT);
      EXPECT_EQ(e.name(), "ji");
      EXPECT_EQ(std::string(e.what()), "joint 'ji': its limits are inverted (lower 1 > upper -1)");
    }
  }
  EXPECT_THROW(sov::urdf::Scene scene(model), sov::urdf::SceneError);
}

// An axis is a direction at any scale: 1e-200 0 0 is x (its squared norm
// underflowed, and it was called a zero axis); 0 0 0 is none.
TEST(SceneKinematics, TinyAxesAreDirectionsAndZeroOnesAreRefused) {
  const auto model = [](const std::string& axis) {
    return sov::urdf::parse(R"(<robot name="m"><link name="a"/><link name="b"/>
      <joint name="j" type="revolute"><parent link="a"/><child link="b"/>
        <origin xyz="0 0.1 0"/><axis xyz=")" + axis + R"("/>
        <limit lower="-2" upper="2" effort="1" velocity="1"/></joint></robot>)");
  };
  const auto tiny = sov::urdf::forwardKinematics(*model("1e-200 0 0").urdf, {{"j", 0.7}});
  const auto unit = sov::urdf::forwardKinematics(*model("1 0 0").urdf, {{"j", 0.7}});
  EXPECT_TRUE(tiny.at("b").isApprox(unit.at("b"), 1e-15));
  try {
    sov::urdf::forwardKinematics(*model("0 0 0").urdf, {{"j", 0.7}});
    ADD_FAILURE() << "a zero axis was accepted";
  } catch (const sov::urdf::SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("zero axis"), std::string::npos) << e.what();
  }
}

TEST(SceneSelf, AdjacentLinksAreAllowedByDefault) {
  sov::urdf::Scene scene(sov::urdf::parseFile(dataPath("toy_finger.urdf")));
  EXPECT_TRUE(scene.isCollisionAllowed("palm", "proximal"));
  EXPECT_TRUE(scene.isCollisionAllowed("distal", "middle"));
  EXPECT_TRUE(scene.isCollisionAllowed("thumb", "palm"));
  EXPECT_FALSE(scene.isCollisionAllowed("palm", "distal"));
  EXPECT_FALSE(scene.isCollisionAllowed("thumb", "proximal"));
  EXPECT_THROW(scene.allowCollision("palm", "nope"), sov::urdf::SceneError);
  EXPECT_EQ(scene.geometries().size(), 6u);
}

TEST(SceneSelf, MinimumDistanceMatchesBruteForce) {
  sov::urdf::Scene scene(sov::urdf::parseFile(dataPath("toy_finger.urdf")));
  std::mt19937 rng(4);
  int overlapping = 0;
  for (int trial = 0; trial < 200; ++trial) {
    scene.setJointPositions(randomHand(rng));
    const Brute b = bruteForce(scene);
    const sov::urdf::PairDistance d = scene.minSelfDistance();
    ASSERT_NEAR(d.distance, b.d, kDistTol) << "trial " << trial;
    EXPECT_EQ(std::minmax(d.link1, d.link2), std::minmax(b.link1, b.link2)) << "trial " << trial;
    EXPECT_NEAR((d.p2 - d.p1).norm(), std::abs(d.distance), kPointTol);
    std::set<std::pair<std::string, std::string>> pairs;
    EXPECT_EQ(scene.selfCollision(&pairs), !b.colliding.empty());
    EXPECT_EQ(pairs, b.colliding) << "trial " << trial;
    EXPECT_EQ(scene.selfCollision(), !b.colliding.empty());
    overlapping += b.d <= 0;
  }
  // The sample has both free and self-colliding configurations.
  EXPECT_GT(overlapping, 5);
  EXPECT_LT(overlapping, 195);
}

// A link made of several bodies (a union, as sov-urdf-fit --max-bodies
// writes it): base holds two spheres of radius r at x = 0 and x = L, and the
// tip, two joints away, a sphere of radius r that slides along x at height
// 0. The link collides when either of its bodies does, and the distance is
// the minimum over its bodies with that body named (spheres: exact depth).
TEST(SceneSelf, ALinkOfSeveralBodiesAnswersForTheNearestBody) {
  const double r = 0.02, L = 0.1;
  const std::string sphere = "<sov:superovoid a1=\"0.02\" a2=\"0.02\" a3=\"0.02\" eps1=\"1\" "
                             "eps2=\"1\"/>";
  const std::string xml =
      "<robot name=\"union\" xmlns:sov=\"urn:superovoid:urdf:1\">"
      "<link name=\"base\">"
      "<collision name=\"b\"><geometry>" + sphere + "</geometry></collision>"
      "<collision name=\"b_1\"><origin xyz=\"0.1 0 0\"/><geometry>" + sphere +
      "</geometry></collision></link>"
      "<link name=\"slider\"/>"
      "<link name=\"tip\"><collision><geometry>" + sphere + "</geometry></collision></link>"
      "<joint name=\"slide\" type=\"prismatic\"><parent link=\"base\"/><child link=\"slider\"/>"
      "<axis xyz=\"1 0 0\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint>"
      "<joint name=\"fix\" type=\"fixed\"><parent link=\"slider\"/><child link=\"tip\"/></joint>"
      "</robot>";
  sov::urdf::Scene scene(sov::urdf::parse(xml, "union"));
  ASSERT_FALSE(scene.isCollisionAllowed("base", "tip"));
  for (const double s : {-0.1, 0.01, 0.03, 0.07, 0.09, 0.2}) {
    scene.setJointPositions({{"slide", s}});
    const double d0 = std::abs(s) - 2 * r, d1 = std::abs(s - L) - 2 * r;
    const sov::urdf::PairDistance d = scene.minSelfDistance();
    const bool tip_first = d.link1 == "tip";
    EXPECT_NEAR(d.distance, std::min(d0, d1), kDistTol) << s;
    EXPECT_EQ(tip_first ? d.collision2 : d.collision1, d1 < d0 ? 1u : 0u) << s;
    EXPECT_EQ(scene.selfCollision(), std::min(d0, d1) <= 0) << s;
    std::size_t touching = 0;
    for (const sov::urdf::Contact& c : scene.contacts(0.0)) touching += c.distance <= 0;
    EXPECT_EQ(touching, static_cast<std::size_t>(d0 <= 0) + (d1 <= 0)) << s;
  }
}

// A coiled chain of links of one to three bodies each (superovoids of
// random exponents and tapers, and FCL boxes), with links without geometry
// between some of them: the colliding link pairs, and the minimum distance
// with its pair, are those of brute force over every checked pair of bodies.
TEST(SceneSelf, UnionsAndLinksWithoutGeometryMatchBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  const auto number = [](double x) {
    std::ostringstream out;
    out << std::setprecision(17) << x;
    return out.str();
  };
  std::string xml = "<robot name=\"coil\" xmlns:sov=\"urn:superovoid:urdf:1\"><link name=\"l0\"/>";
  int links = 1;
  for (int i = 1; i <= 9; ++i) {
    const std::string name = "l" + std::to_string(i);
    std::string link = "<link name=\"" + name + "\">";
    const int bodies = i % 4 == 2 ? 0 : 1 + i % 3;  // l2 and l6: no geometry
    for (int k = 0; k < bodies; ++k) {
      const std::string at = "<origin xyz=\"" + std::to_string(0.04 * k) + " " +
                             std::to_string(0.02 * u(rng)) + " 0\" rpy=\"" +
                             std::to_string(3 * u(rng)) + " 0 " + std::to_string(u(rng)) + "\"/>";
      double p[7] = {0.015 + 0.02 * u(rng),
                     0.01 + 0.01 * u(rng),
                     0.02 + 0.02 * u(rng),
                     0.1 + 1.8 * u(rng),
                     0.1 + 1.8 * u(rng),
                     0.6 * u(rng) - 0.3,
                     0};
      double scale = 1;  // the taper kept convex
      ASSERT_EQ(sov_shape_max_taper_scale(&scale, p), SOV_OK);
      p[5] *= std::min(1.0, 0.9 * scale);
      std::string geometry = "<box size=\"0.03 0.02 0.05\"/>";
      if (k < 2) {
        geometry = "<sov:superovoid";
        const char* names[] = {"a1", "a2", "a3", "eps1", "eps2", "taper_x", "taper_y"};
        for (int m = 0; m < 7; ++m)
          geometry += std::string(" ") + names[m] + "=\"" + number(p[m]) + "\"";
        geometry += "/>";
      }
      link += "<collision>" + at + "<geometry>" + geometry + "</geometry></collision>";
    }
    xml += link + "</link><joint name=\"j" + std::to_string(i) +
           "\" type=\"revolute\"><parent link=\"l" + std::to_string(i - 1) + "\"/><child link=\"" +
           name + "\"/><origin xyz=\"0.09 0 0\"/><axis xyz=\"0 0 1\"/>" +
           "<limit lower=\"-2.5\" upper=\"2.5\" effort=\"1\" velocity=\"1\"/></joint>";
    ++links;
  }
  xml += "</robot>";
  const auto model = sov::urdf::parse(xml, "coil");
  sov::urdf::Scene scene(model);
  ASSERT_EQ(scene.linkNames().size(), static_cast<std::size_t>(links));
  int colliding = 0;
  for (int trial = 0; trial < 300; ++trial) {
    scene.setJointPositions(sov_test::randomConfiguration(scene, *model.urdf, rng));
    const Brute b = bruteForce(scene);
    std::set<std::pair<std::string, std::string>> pairs;
    ASSERT_EQ(scene.selfCollision(&pairs), !b.colliding.empty()) << "trial " << trial;
    EXPECT_EQ(pairs, b.colliding) << "trial " << trial;
    EXPECT_EQ(scene.selfCollision(), !b.colliding.empty()) << "trial " << trial;
    const sov::urdf::PairDistance d = scene.minSelfDistance();
    EXPECT_NEAR(d.distance, b.d, kDistTol) << "trial " << trial;
    EXPECT_EQ(std::minmax(d.link1, d.link2), std::minmax(b.link1, b.link2)) << "trial " << trial;
    colliding += !b.colliding.empty();
  }
  // Both verdicts occur, and so do several colliding link pairs at once.
  EXPECT_GT(colliding, 30);
  EXPECT_LT(colliding, 270);
}

TEST(SceneSelf, AllowingThePairMovesTheMinimum) {
  sov::urdf::Scene scene(sov::urdf::parseFile(dataPath("toy_finger.urdf")));
  scene.setJointPositions({{"finger_base", -0.5}, {"thumb_base", 0.6}});
  const auto first = scene.minSelfDistance();
  ASSERT_TRUE(std::isfinite(first.distance));
  scene.allowCollision(first.link1, first.link2);
  const auto second = scene.minSelfDistance();
  EXPECT_GE(second.distance, first.distance);
  EXPECT_NE(std::minmax(second.link1, second.link2), std::minmax(first.link1, first.link2));
  EXPECT_NEAR(second.distance, bruteForce(scene).d, kDistTol);
  scene.disallowCollision(first.link1, first.link2);
  EXPECT_NEAR(scene.minSelfDistance().distance, first.distance, kDistTol);
}

TEST(SceneSelf, WarmStartsEqualColdQueriesAlongATrajectory) {
  const auto model = sov::urdf::parseFile(dataPath("toy_finger.urdf"));
  sov::urdf::SceneOptions cold_options;
  cold_options.warm_start = false;
  sov::urdf::Scene warm(model), cold(model, cold_options);
  // Close the finger towards the palm while the thumb leans in, in small steps.
  for (int step = 0; step <= 120; ++step) {
    const double t = step / 120.0;
    const sov::urdf::JointPositions q = {{"finger_base", -0.5 + 2.2 * t},
                                         {"finger_middle", 1.7 * t},
                                         {"finger_distal", 1.7 * t},
                                         {"thumb_base", 1.0 * t}};
    warm.setJointPositions(q);
    cold.setJointPositions(q);
    const auto w = warm.minSelfDistance();
    const auto c = cold.minSelfDistance();
    ASSERT_NEAR(w.distance, c.distance, kDistTol) << "step " << step;
    EXPECT_EQ(w.link1, c.link1);
    EXPECT_EQ(w.link2, c.link2);
    EXPECT_NEAR((w.p1 - c.p1).norm(), 0, kPointTol) << "step " << step;
    EXPECT_NEAR((w.p2 - c.p2).norm(), 0, kPointTol) << "step " << step;
    EXPECT_EQ(warm.selfCollision(), cold.selfCollision()) << "step " << step;
  }
  EXPECT_GT(warm.cacheCount(), 0u);
  EXPECT_EQ(cold.cacheCount(), 0u);
}

TEST(SceneEnvironment, DistanceAndCollisionMatchBruteForce) {
  sov::urdf::Scene scene(sov::urdf::parseFile(dataPath("toy_finger.urdf")));
  auto sphere = std::make_shared<fcl::Sphere<double>>(0.012);
  auto body = std::make_shared<sov::Superovoid>(0.015, 0.012, 0.02, 0.7, 0.9, 0.1, 0.1);
  auto box = std::make_shared<fcl::Box<double>>(0.2, 0.2, 0.01);
  fcl::CollisionObject<double> o0(sphere), o1(body), o2(box);
  o2.setTranslation(fcl::Vector3<double>(0, 0, -0.06));
  o2.computeAABB();
  std::vector<fcl::CollisionObject<double>*> env{&o0, &o1, &o2};
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.06, 0.06);
  for (int trial = 0; trial < 100; ++trial) {
    scene.setJointPositions(randomHand(rng));
    o0.setTranslation(fcl::Vector3<double>(u(rng), u(rng), 0.05 + u(rng)));
    o0.computeAABB();
    o1.setTransform(Eigen::Quaterniond::UnitRandom().toRotationMatrix(),
                    fcl::Vector3<double>(u(rng), u(rng), 0.06 + u(rng)));
    o1.computeAABB();
    double best = std::numeric_limits<double>::infinity();
    std::set<std::pair<std::string, std::size_t>> expected;
    for (const auto& g : scene.geometries()) {
      for (std::size_t k = 0; k < env.size(); ++k) {
        fcl::DistanceRequest<double> request(true, true);
        request.distance_tolerance = sov::urdf::SceneOptions().gjk_tolerance;
        fcl::DistanceResult<double> result;
        best = std::min(best, sov::distance(g.object, env[k], request, result));
        fcl::CollisionRequest<double> creq;
        fcl::CollisionResult<double> cres;
        if (sov::collide(g.object, env[k], creq, cres) > 0) expected.emplace(g.link, k);
      }
    }
    const auto d = scene.distance(env);
    ASSERT_NEAR(d.distance, best, kDistTol) << "trial " << trial;
    EXPECT_TRUE(d.link2.empty());
    std::set<std::pair<std::string, std::size_t>> pairs;
    EXPECT_EQ(scene.collides(env, &pairs), !expected.empty());
    EXPECT_EQ(pairs, expected) << "trial " << trial;
  }
}

// A superovoid object moving through the hand in small steps while the hand
// closes: the warm-started environment pairs give the cold scene's answers.
TEST(SceneEnvironment, WarmStartsEqualColdQueriesAlongATrajectory) {
  const auto model = sov::urdf::parseFile(dataPath("toy_finger.urdf"));
  sov::urdf::SceneOptions cold_options;
  cold_options.warm_start = false;
  sov::urdf::Scene warm(model), cold(model, cold_options);
  auto body = std::make_shared<sov::Superovoid>(0.015, 0.012, 0.02, 0.7, 0.9, 0.1, 0.1);
  fcl::CollisionObject<double> object(body);
  std::vector<fcl::CollisionObject<double>*> env{&object};
  int overlapping = 0;
  for (int step = 0; step <= 120; ++step) {
    const double t = step / 120.0;
    const sov::urdf::JointPositions q = {{"finger_base", -0.5 + 2.2 * t},
                                         {"finger_middle", 1.7 * t},
                                         {"finger_distal", 1.7 * t},
                                         {"thumb_base", 1.0 * t}};
    warm.setJointPositions(q);
    cold.setJointPositions(q);
    object.setTransform(Eigen::AngleAxisd(1.5 * t, Eigen::Vector3d(1, 1, 0).normalized())
                            .toRotationMatrix(),
                        fcl::Vector3<double>(0.06 - 0.1 * t, 0.01, 0.05 - 0.03 * t));
    object.computeAABB();
    const auto w = warm.distance(env);
    const auto c = cold.distance(env);
    ASSERT_NEAR(w.distance, c.distance, kDistTol) << "step " << step;
    EXPECT_EQ(w.link1, c.link1);
    EXPECT_NEAR((w.p1 - c.p1).norm(), 0, kPointTol) << "step " << step;
    EXPECT_NEAR((w.p2 - c.p2).norm(), 0, kPointTol) << "step " << step;
    EXPECT_EQ(warm.collides(env), cold.collides(env)) << "step " << step;
    overlapping += c.distance < 0;
  }
  // The path crosses the hand: both apart and overlapping answers were compared.
  EXPECT_GT(overlapping, 0);
  EXPECT_LT(overlapping, 121);
  EXPECT_GT(warm.cacheCount(), 0u);
  EXPECT_EQ(cold.cacheCount(), 0u);
}

}  // namespace
