// OctoMap environments: the scene's distance and collision against an
// fcl::OcTree equal brute force over its occupied leaves as boxes, for
// superovoid and mesh link geometries.
#include <fcl/geometry/octree/octree.h>
#include <fcl/geometry/shape/box.h>
#include <gtest/gtest.h>
#include <superovoid/fcl.h>
#include <superovoid/urdf/scene.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "scene_test_util.h"

namespace {

using sov_test::dataPath;

// GJK tolerance of the scene and of the brute force: tight, so that the two
// paths to the same leaf agree closely (see fcl_ext/README.md).
constexpr double kTightGjkTol = 1e-12;
// Agreement of a geometry's distance to the octree with its smallest
// distance to the leaves as boxes. Mesh triangles and boxes are polytopes,
// where GJK ends exactly. A superovoid is curved: GJK stops above the true
// distance by an amount that depends on the frame it runs in, and FCL's
// octree traversal runs it in another frame than the standalone box pair
// (up to 1.8e-8 apart measured on these poses, the octree path the higher).
constexpr double kMeshLeafTol = 1e-12;
constexpr double kCurvedLeafTol = 1e-7;

// An octree of resolution 0.02 beside the mesh arm: a slab at z = 0.19 over
// x in [0.06, 0.24] and 40 random cells in the box x in [0.1, 0.26], |y| <
// 0.1, z in [0.1, 0.3], out of the base's reach.
std::shared_ptr<octomap::OcTree> obstacle() {
  auto tree = std::make_shared<octomap::OcTree>(0.02);
  for (double x = 0.07; x < 0.24; x += 0.02) {
    for (double y = -0.07; y < 0.08; y += 0.02) {
      tree->updateNode(octomap::point3d(x, y, 0.19), true);
    }
  }
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int i = 0; i < 40; ++i) {
    const double x = 0.18 + 0.08 * u(rng), y = 0.1 * u(rng), z = 0.2 + 0.1 * u(rng);
    tree->updateNode(octomap::point3d(x, y, z), true);
  }
  tree->updateInnerOccupancy();
  tree->prune();
  return tree;
}

// The occupied leaves of tree as box objects posed by tf.
std::vector<std::unique_ptr<fcl::CollisionObject<double>>> leafBoxes(
    const octomap::OcTree& tree, const fcl::Transform3<double>& tf) {
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> out;
  for (auto it = tree.begin_leafs(); it != tree.end_leafs(); ++it) {
    if (!tree.isNodeOccupied(*it)) continue;
    const double s = it.getSize();
    fcl::Transform3<double> leaf = tf * Eigen::Translation3d(it.getX(), it.getY(), it.getZ());
    out.push_back(std::make_unique<fcl::CollisionObject<double>>(
        std::make_shared<fcl::Box<double>>(s, s, s), leaf));
  }
  return out;
}

TEST(SceneOcTree, DistanceAndCollisionMatchTheOccupiedBoxes) {
  sov::urdf::SceneOptions options;
  options.gjk_tolerance = kTightGjkTol;
  sov::urdf::Scene scene(dataPath("mesh_arm.urdf"), options);
  const auto tree = obstacle();
  // The octree posed by a small rotation and a shift.
  const fcl::Transform3<double> tf =
      Eigen::Translation3d(0.01, -0.02, 0.0) * Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitZ());
  fcl::CollisionObject<double> octree(std::make_shared<fcl::OcTree<double>>(tree), tf);
  octree.computeAABB();
  const auto boxes = leafBoxes(*tree, tf);
  ASSERT_GT(boxes.size(), 40u);
  const std::vector<fcl::CollisionObject<double>*> env{&octree};

  std::mt19937 rng(21);
  std::uniform_real_distribution<double> u(-2.8, 2.8);
  fcl::DistanceRequest<double> request(true, true);
  request.distance_tolerance = kTightGjkTol;
  int apart = 0, touching = 0, mesh_nearest = 0, superovoid_nearest = 0;
  for (int trial = 0; trial < 60; ++trial) {
    scene.setJointPositions({{"shoulder", u(rng)}, {"elbow", u(rng)}, {"wrist", u(rng)}});
    std::set<std::pair<std::string, std::size_t>> expected;
    double best = std::numeric_limits<double>::infinity();
    bool best_is_mesh = false;
    for (const auto& g : scene.geometries()) {
      bool touches = false;
      for (const auto& box : boxes) {
        fcl::CollisionRequest<double> creq;
        fcl::CollisionResult<double> cres;
        touches = touches || sov::collide(g.object, box.get(), creq, cres) > 0;
      }
      if (touches) expected.emplace(g.link, 0);
      fcl::DistanceResult<double> result;
      const double d = sov::distance(g.object, &octree, request, result);
      const bool mesh = g.object->getObjectType() == fcl::OT_BVH;
      if (std::max(d, 0.0) < best) {  // the scene's octree pairs: unsigned, 0 on overlap
        best = std::max(d, 0.0);
        best_is_mesh = mesh;
      }
      if (touches) {
        EXPECT_LE(d, 0) << g.link << ", trial " << trial;
        continue;  // no box distances: EPA on overlapping GJK pairs at kTightGjkTol
      }
      double nearest_leaf = std::numeric_limits<double>::infinity();
      for (const auto& box : boxes) {
        fcl::DistanceResult<double> r;
        nearest_leaf = std::min(nearest_leaf, sov::distance(g.object, box.get(), request, r));
      }
      EXPECT_NEAR(d, nearest_leaf, mesh ? kMeshLeafTol : kCurvedLeafTol)
          << g.link << " #" << g.collision << ", trial " << trial;
    }
    std::set<std::pair<std::string, std::size_t>> pairs;
    EXPECT_EQ(scene.collides(env, &pairs), !expected.empty()) << "trial " << trial;
    EXPECT_EQ(pairs, expected) << "trial " << trial;
    EXPECT_EQ(scene.collides(env), !expected.empty()) << "trial " << trial;
    // The broadphase finds the geometry nearest to the octree.
    const sov::urdf::PairDistance d = scene.distance(env);
    EXPECT_EQ(d.distance, best) << "trial " << trial;
    EXPECT_TRUE(d.link2.empty());
    EXPECT_EQ(d.collision2, 0u);
    if (expected.empty()) {
      ++apart;
      EXPECT_NEAR((d.p2 - d.p1).norm(), d.distance, 1e-9) << "trial " << trial;
      mesh_nearest += best_is_mesh;
      superovoid_nearest += !best_is_mesh;
    } else {
      ++touching;
    }
  }
  // Both outcomes, and both kinds of link geometry as the nearest one.
  EXPECT_GT(apart, 10);
  EXPECT_GT(touching, 5);
  EXPECT_GT(mesh_nearest, 3);
  EXPECT_GT(superovoid_nearest, 3);
}

}  // namespace
