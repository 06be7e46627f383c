// Scene::contacts: every checked geometry pair within a margin, against
// brute force over all pairs (the same pairs, distances and witnesses),
// with unit normals from the first geometry to the second; self and
// environment, on superovoids, primitives and meshes; the C entry points.
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/sphere.h>
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/scene.h>
#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "scene_test_util.h"

namespace {

using sov_test::dataPath;
using sov_test::kDistTol;
using sov_test::randomConfiguration;

// pB - pA = d n of the core's answers (SPEC).
constexpr double kExactTol = 1e-9;
// And of GJK's, to the coarser of its tolerances: EPA's, which never runs
// finer than 1e-6 (fcl_ext/README.md).
constexpr double kGjkTol = 1e-6;
// A pair key: link and collision index of both geometries.
using Key = std::tuple<std::string, std::size_t, std::string, std::size_t>;

// Brute force: the scene's distance (sov_test::pairDistance) of every
// checked geometry pair at most margin, by key (geometries in the scene's
// order).
std::map<Key, double> bruteContacts(sov::urdf::Scene& scene, double margin) {
  std::map<Key, double> out;
  const auto g = scene.geometries();
  for (std::size_t i = 0; i < g.size(); ++i) {
    for (std::size_t j = i + 1; j < g.size(); ++j) {
      if (g[i].link == g[j].link || scene.isCollisionAllowed(g[i].link, g[j].link)) continue;
      const double d = sov_test::pairDistance(g[i].object, g[j].object);
      if (d <= margin) out[{g[i].link, g[i].collision, g[j].link, g[j].collision}] = d;
    }
  }
  return out;
}

// Brute force against environment objects.
std::map<Key, double> bruteEnvContacts(sov::urdf::Scene& scene,
                                       const std::vector<fcl::CollisionObject<double>*>& env,
                                       double margin) {
  std::map<Key, double> out;
  for (const auto& g : scene.geometries()) {
    for (std::size_t k = 0; k < env.size(); ++k) {
      const double d = sov_test::pairDistance(g.object, env[k]);
      if (d <= margin) out[{g.link, g.collision, "", k}] = d;
    }
  }
  return out;
}

// The contacts are brute force's pairs and distances, sorted nearest first,
// with unit normals and witnesses consistent with them: p1 = p2 for a
// touching mesh pair (distance 0), p2 - p1 = d n otherwise (to the GJK
// tolerance tol of the pair kind). Counts the contacts of each kind.
struct Kinds {
  int apart = 0, overlapping = 0, touching = 0;
};
void expectContacts(const std::vector<sov::urdf::Contact>& contacts,
                    const std::map<Key, double>& brute, double tol, Kinds& kinds,
                    const std::string& what) {
  ASSERT_EQ(contacts.size(), brute.size()) << what;
  for (std::size_t i = 0; i < contacts.size(); ++i) {
    const sov::urdf::Contact& c = contacts[i];
    const auto it = brute.find({c.link1, c.collision1, c.link2, c.collision2});
    ASSERT_NE(it, brute.end()) << what << ": " << c.link1 << " " << c.link2;
    EXPECT_NEAR(c.distance, it->second, kDistTol) << what;
    if (i > 0) {
      EXPECT_LE(contacts[i - 1].distance, c.distance) << what;
    }
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12) << what;
    if (c.distance == 0) {
      EXPECT_EQ(c.p1, c.p2) << what;
      ++kinds.touching;
    } else {
      EXPECT_LT((c.p2 - c.p1 - c.distance * c.normal).norm(), tol) << what;
      ++(c.distance > 0 ? kinds.apart : kinds.overlapping);
    }
  }
}

// The self contacts of a fixture at random configurations and margins.
Kinds selfContacts(const std::string& fixture, int trials, double tol) {
  const auto model = sov::urdf::parseFile(dataPath(fixture));
  sov::urdf::SceneOptions options;
  options.mesh_directory = SOV_URDF_TEST_DATA_DIR;
  sov::urdf::Scene scene(model, options);
  std::mt19937 rng(17);
  Kinds kinds;
  for (int trial = 0; trial < trials; ++trial) {
    scene.setJointPositions(randomConfiguration(scene, *model.urdf, rng));
    for (double margin : {0.0, 0.03, -0.001}) {
      expectContacts(scene.contacts(margin), bruteContacts(scene, margin), tol, kinds,
                     fixture + " trial " + std::to_string(trial));
    }
  }
  return kinds;
}

TEST(SceneContacts, SuperovoidsAndACylinderMatchBruteForce) {
  const Kinds k = selfContacts("toy_finger.urdf", 60, kExactTol);
  EXPECT_GT(k.apart, 20);
  EXPECT_GT(k.overlapping, 20);
}

TEST(SceneContacts, MeshesAndSuperovoidsMatchBruteForce) {
  const Kinds k = selfContacts("mesh_arm.urdf", 60, kGjkTol);
  EXPECT_GT(k.apart, 20);
  EXPECT_GT(k.touching, 5);
}

TEST(SceneContacts, MeshesAndBoxesMatchBruteForce) {
  const Kinds k = selfContacts("panda_wrist.urdf", 60, kGjkTol);
  EXPECT_GT(k.apart, 20);
  EXPECT_GT(k.overlapping + k.touching, 5);
}

TEST(SceneContacts, EnvironmentMatchesBruteForce) {
  sov::urdf::Scene scene(dataPath("toy_finger.urdf"));
  fcl::CollisionObject<double> ball(std::make_shared<sov::Superovoid>(0.02, 0.03, 0.02, 0.6, 1.2));
  fcl::CollisionObject<double> sphere(std::make_shared<fcl::Sphere<double>>(0.015));
  fcl::CollisionObject<double> box(std::make_shared<fcl::Box<double>>(0.03, 0.02, 0.04));
  const std::vector<fcl::CollisionObject<double>*> env = {&ball, &sphere, &box};
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-0.06, 0.06);
  Kinds kinds;
  for (int trial = 0; trial < 60; ++trial) {
    for (auto* o : env) {
      o->setTranslation(Eigen::Vector3d(u(rng), u(rng), 0.05 + u(rng)));
      o->computeAABB();
    }
    for (double margin : {0.0, 0.02}) {
      expectContacts(scene.contacts(env, margin), bruteEnvContacts(scene, env, margin),
                     kGjkTol, kinds, "trial " + std::to_string(trial));
    }
  }
  EXPECT_GT(kinds.apart, 20);
  EXPECT_GT(kinds.overlapping, 20);
}

// A mesh pair that overlaps: distance 0, one point of contact, and FCL's
// contact normal turned to point from the first geometry (the cube, link
// "a") to the second (the sphere on its +x side: +x, not -x), whichever of
// the two FCL answers first.
TEST(SceneContacts, TouchingMeshPairNormalPointsFromFirstToSecond) {
  const std::string xml =
      "<robot name='r'><link name='base'/><link name='a'><collision><geometry>"
      "<mesh filename='meshes/cube.stl' scale='0.1 0.1 0.1'/></geometry></collision></link>"
      "<link name='b'><collision><origin xyz='0.06 0.01 0'/><geometry><sphere radius='0.02'/>"
      "</geometry></collision></link>"
      "<joint name='ja' type='fixed'><parent link='base'/><child link='a'/></joint>"
      "<joint name='jb' type='fixed'><parent link='base'/><child link='b'/></joint></robot>";
  sov::urdf::SceneOptions options;
  options.mesh_directory = SOV_URDF_TEST_DATA_DIR;
  sov::urdf::Scene scene(sov::urdf::parse(xml), options);
  const std::vector<sov::urdf::Contact> self = scene.contacts(0.0);
  ASSERT_EQ(self.size(), 1u);
  EXPECT_EQ(self[0].link1, "a");
  EXPECT_EQ(self[0].distance, 0.0);
  EXPECT_GT(self[0].normal.x(), 0.0);
  // The same sphere as an environment object: from the link (the cube) to it.
  fcl::CollisionObject<double> sphere(std::make_shared<fcl::Sphere<double>>(0.02));
  sphere.setTranslation(Eigen::Vector3d(0.06, 0.01, 0));
  sphere.computeAABB();
  const std::vector<sov::urdf::Contact> env = scene.contacts({&sphere}, 0.0);
  ASSERT_EQ(env.size(), 2u);  // the cube, and the sphere link inside the sphere
  for (const sov::urdf::Contact& c : env) {
    if (c.link1 == "a") {
      EXPECT_GT(c.normal.x(), 0.0);
    }
  }
}

// Overlapping shape pairs answered by EPA (box, cylinder, superovoid vs
// box): the normal points from the first geometry (link "a", at the origin)
// to the second (link "b", 0.09 along +x), and the depth is the overlap.
TEST(SceneContacts, OverlapNormalsPointFromFirstToSecond) {
  for (const std::string& first :
       {std::string("<box size='0.1 0.1 0.1'/>"), std::string("<cylinder radius='0.05' length='0.1'/>"),
        std::string("<sov:superovoid a1='0.05' a2='0.05' a3='0.05' eps1='0.2' eps2='0.2'/>")}) {
    const std::string xml =
        "<robot name='r' xmlns:sov='urn:superovoid:urdf:1'><link name='base'/>"
        "<link name='a'><collision><geometry>" + first + "</geometry></collision></link>"
        "<link name='b'><collision><origin xyz='0.09 0.002 0.001'/><geometry>"
        "<box size='0.1 0.1 0.1'/></geometry></collision></link>"
        "<joint name='ja' type='fixed'><parent link='base'/><child link='a'/></joint>"
        "<joint name='jb' type='fixed'><parent link='base'/><child link='b'/></joint></robot>";
    sov::urdf::Scene scene(sov::urdf::parse(xml));
    const std::vector<sov::urdf::Contact> c = scene.contacts(0.0);
    ASSERT_EQ(c.size(), 1u) << first;
    EXPECT_EQ(c[0].link1, "a");
    EXPECT_NEAR(c[0].distance, -0.01, 2e-3) << first;  // about the 1 cm overlap
    EXPECT_GT(c[0].normal.x(), 0.9) << first;
  }
}

TEST(SceneContacts, MarginBounds) {
  sov::urdf::Scene scene(dataPath("toy_finger.urdf"));
  EXPECT_THROW(scene.contacts(std::nan("")), sov::Error);
  // An infinite margin lists every checked pair.
  EXPECT_EQ(scene.contacts(std::numeric_limits<double>::infinity()).size(),
            bruteContacts(scene, std::numeric_limits<double>::infinity()).size());
  EXPECT_GT(scene.contacts(std::numeric_limits<double>::infinity()).size(), 5u);
}

// The C entry points give the C++ contacts, with the count query and a
// buffer too small.
TEST(SceneContacts, CApiMatchesTheCppScene) {
  const std::string path = dataPath("toy_finger.urdf");
  sov::urdf::Scene cpp(path);
  sov_scene* scene = nullptr;
  char err[256];
  ASSERT_EQ(sov_scene_create_file(&scene, path.c_str(), err, sizeof err), SOV_OK) << err;
  const char* names[] = {"finger_base", "finger_middle", "thumb_base"};
  const double q[] = {1.2, 1.4, 0.9};
  ASSERT_EQ(sov_scene_set_joint_positions(scene, names, q, 3, err, sizeof err), SOV_OK) << err;
  cpp.setJointPositions({{names[0], q[0]}, {names[1], q[1]}, {names[2], q[2]}});
  const std::vector<sov::urdf::Contact> expected = cpp.contacts(0.05);
  ASSERT_GE(expected.size(), 2u);
  std::size_t count = 0;
  EXPECT_EQ(sov_scene_self_contacts(nullptr, 0, &count, scene, 0.05, err, sizeof err),
            SOV_ERR_BUFFER);
  EXPECT_EQ(count, expected.size());
  std::vector<sov_scene_contact> out(count);
  EXPECT_EQ(sov_scene_self_contacts(out.data(), 1, &count, scene, 0.05, err, sizeof err),
            SOV_ERR_BUFFER);
  ASSERT_EQ(sov_scene_self_contacts(out.data(), out.size(), &count, scene, 0.05, err, sizeof err),
            SOV_OK)
      << err;
  for (std::size_t i = 0; i < count; ++i) {
    EXPECT_EQ(std::string(out[i].link1), expected[i].link1);
    EXPECT_EQ(out[i].collision1, expected[i].collision1);
    EXPECT_EQ(std::string(out[i].link2), expected[i].link2);
    EXPECT_NEAR(out[i].distance, expected[i].distance, kDistTol);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(out[i].normal[k], expected[i].normal[k], 1e-6);
      EXPECT_NEAR(out[i].p1[k], expected[i].p1[k], 1e-6);
    }
  }
  // A superovoid obstacle in the palm's way.
  const std::array<double, 7> params = {0.02, 0.02, 0.02, 1, 1, 0, 0};
  sov_shape shape;
  ASSERT_EQ(sov_shape_init(&shape, params.data()), SOV_OK);
  sov_pose pose = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0.02}};
  ASSERT_EQ(sov_scene_contacts_superovoids(out.data(), out.size(), &count, scene, &shape, &pose, 1,
                                           0.0, err, sizeof err),
            SOV_OK)
      << err;
  fcl::CollisionObject<double> ball(std::make_shared<sov::Superovoid>(params));
  ball.setTranslation(Eigen::Vector3d(0, 0, 0.02));
  ball.computeAABB();
  const std::vector<sov::urdf::Contact> env = cpp.contacts({&ball}, 0.0);
  ASSERT_EQ(count, env.size());
  ASSERT_GE(count, 1u);
  EXPECT_STREQ(out[0].link2, "");
  EXPECT_NEAR(out[0].distance, env[0].distance, kDistTol);
  EXPECT_EQ(sov_scene_self_contacts(out.data(), 1, nullptr, scene, 0, err, sizeof err),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_scene_self_contacts(out.data(), 1, &count, scene, std::nan(""), err, sizeof err),
            SOV_ERR_NONFINITE);
  sov_scene_destroy(scene);
}

}  // namespace
