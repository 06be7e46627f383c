// Superovoid vs fcl::OcTree: FCL's shape-octree templates with the layer's
// solver agree with the same occupied cells given as fcl::Box objects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include <fcl/geometry/octree/octree.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include "fcl_test_util.h"
#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/superovoid.h"

namespace {

using sov_test::pose;
using sov_test::randomPoses;
using sov_test::Transform;
using sov_test::Vector;

// Octree and box answers run the same GJK on the same boxes; they differ only
// by rounding in the boxes' poses.
constexpr double kSameGjkTolerance = 1e-8;
// Poses closer than this to touching are left out of the flag comparison.
constexpr double kTouchMargin = 1e-6;

// An occupied leaf of the octree as an FCL box with its pose in the world.
struct Cell {
  fcl::Box<double> box;
  Transform tf;
};

// An octree of resolution 0.1 with 60 occupied points in a 0.8 cube around
// the origin (some collapse into larger leaves).
std::shared_ptr<octomap::OcTree> occupiedTree(unsigned seed) {
  auto tree = std::make_shared<octomap::OcTree>(0.1);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-0.4, 0.4);
  for (int i = 0; i < 60; ++i) tree->updateNode(octomap::point3d(u(rng), u(rng), u(rng)), true);
  for (double x = -0.35; x < 0; x += 0.1) {  // a solid 4 x 4 x 4 block: pruned leaves
    for (double y = 0.05; y < 0.4; y += 0.1) {
      for (double z = -0.35; z < 0; z += 0.1) tree->updateNode(octomap::point3d(x, y, z), true);
    }
  }
  tree->updateInnerOccupancy();
  tree->prune();
  return tree;
}

// The occupied leaves of tree, posed by the octree's transform tf.
std::vector<Cell> cells(const octomap::OcTree& tree, const Transform& tf) {
  std::vector<Cell> out;
  for (auto it = tree.begin_leafs(); it != tree.end_leafs(); ++it) {
    if (!tree.isNodeOccupied(*it)) continue;
    const double s = it.getSize();
    out.push_back({fcl::Box<double>(s, s, s),
                   tf * pose(Vector(it.getX(), it.getY(), it.getZ()))});
  }
  return out;
}

// Minimum sov::distance from the posed superovoid to the boxes.
double minBoxDistance(const sov::Superovoid& a, const Transform& tfa, const std::vector<Cell>& cs,
                      const fcl::DistanceRequest<double>& request) {
  double best = std::numeric_limits<double>::max();
  for (const Cell& c : cs) {
    fcl::DistanceResult<double> r;
    best = std::min(best, sov::distance(&a, tfa, &c.box, c.tf, request, r));
  }
  return best;
}

// True when the posed superovoid collides with one of the boxes.
bool anyBoxCollides(const sov::Superovoid& a, const Transform& tfa, const std::vector<Cell>& cs) {
  for (const Cell& c : cs) {
    fcl::CollisionResult<double> r;
    if (sov::collide(&a, tfa, &c.box, c.tf, fcl::CollisionRequest<double>(), r) > 0) return true;
  }
  return false;
}

TEST(FclOcTree, DistanceAndCollisionMatchTheOccupiedBoxes) {
  const sov::Superovoid a(0.3, 0.2, 0.4, 0.6, 1.3, 0.2, -0.1);
  auto tree = occupiedTree(7);
  const Transform tf_tree = pose(Vector(0.2, -0.1, 0.3), 0.4, Vector(1, 2, 3));
  const fcl::OcTree<double> octree(tree);
  const std::vector<Cell> cs = cells(*tree, tf_tree);
  ASSERT_GT(cs.size(), 40u);
  fcl::DistanceRequest<double> request(true);
  request.distance_tolerance = 1e-12;
  int apart = 0, overlapping = 0;
  for (const Transform& offset : randomPoses(40, 1.0, 11)) {
    const Transform tfa = offset;
    const double expected = minBoxDistance(a, tfa, cs, request);
    fcl::DistanceResult<double> r12, r21;
    const double d12 = sov::distance(&a, tfa, &octree, tf_tree, request, r12);
    const double d21 = sov::distance(&octree, tf_tree, &a, tfa, request, r21);
    fcl::CollisionResult<double> c12, c21;
    const bool hit12 = sov::collide(&a, tfa, &octree, tf_tree, fcl::CollisionRequest<double>(), c12) > 0;
    const bool hit21 = sov::collide(&octree, tf_tree, &a, tfa, fcl::CollisionRequest<double>(), c21) > 0;
    if (expected > kTouchMargin) {
      ++apart;
      EXPECT_NEAR(d12, expected, kSameGjkTolerance);
      EXPECT_NEAR(d21, expected, kSameGjkTolerance);
      EXPECT_NEAR((r12.nearest_points[1] - r12.nearest_points[0]).norm(), d12, 1e-6);
      EXPECT_TRUE((r12.nearest_points[0] - r21.nearest_points[1]).norm() < 1e-6);
      EXPECT_FALSE(hit12);
      EXPECT_FALSE(hit21);
    } else if (expected < 0) {
      ++overlapping;
      EXPECT_LE(d12, 0);
      EXPECT_LE(d21, 0);
      EXPECT_EQ(hit12, anyBoxCollides(a, tfa, cs));
      EXPECT_EQ(hit21, hit12);
    }
  }
  EXPECT_GE(apart, 5);
  EXPECT_GE(overlapping, 5);
}

// Equivalence: an ellipsoid-shaped superovoid (eps 1, no taper) against the
// octree answers as FCL's own Ellipsoid does through plain fcl::distance /
// fcl::collide (both run libccd GJK on the same leaves).
TEST(FclOcTree, EllipsoidEquivalence) {
  constexpr double kGjkTolerance = 1e-6;
  const sov::Superovoid a(0.3, 0.2, 0.4, 1, 1);
  const fcl::Ellipsoid<double> e(0.3, 0.2, 0.4);
  auto tree = occupiedTree(5);
  const Transform tf_tree = pose(Vector(-0.1, 0.2, 0.1), 0.7, Vector(2, -1, 1));
  const fcl::OcTree<double> octree(tree);
  const std::vector<Cell> cs = cells(*tree, tf_tree);
  fcl::DistanceRequest<double> request(true);
  request.distance_tolerance = 1e-12;
  int apart = 0, compared_flags = 0;
  for (const Transform& tfa : randomPoses(40, 1.0, 23)) {
    fcl::DistanceResult<double> rs, re;
    const double ds = sov::distance(&a, tfa, &octree, tf_tree, request, rs);
    const fcl::CollisionGeometry<double>* ge = &e;
    const fcl::CollisionGeometry<double>* go = &octree;
    const double de = fcl::distance(ge, tfa, go, tf_tree, request, re);
    const double expected = minBoxDistance(a, tfa, cs, request);
    if (expected > kTouchMargin) {
      ++apart;
      EXPECT_NEAR(ds, de, kGjkTolerance);
    }
    if (std::fabs(expected) > kTouchMargin) {
      ++compared_flags;
      fcl::CollisionResult<double> cs_, ce;
      const bool hs = sov::collide(&a, tfa, &octree, tf_tree, fcl::CollisionRequest<double>(), cs_) > 0;
      const bool he = fcl::collide(ge, tfa, go, tf_tree, fcl::CollisionRequest<double>(), ce) > 0;
      EXPECT_EQ(hs, he);
    }
  }
  EXPECT_GE(apart, 5);
  EXPECT_GE(compared_flags, 20);
}

TEST(FclOcTree, ContactsNameTheOcTreeLeaves) {
  const sov::Superovoid a(0.3, 0.2, 0.4, 0.6, 1.3);
  auto tree = occupiedTree(3);
  const fcl::OcTree<double> octree(tree);
  fcl::CollisionRequest<double> request(100, true);
  fcl::CollisionResult<double> result;
  const Transform tfa = pose(Vector(0.013, 0.021, -0.017), 0.3, Vector(1, 2, 2));
  ASSERT_GT(sov::collide(&a, tfa, &octree, Transform::Identity(), request, result), 0u);
  EXPECT_GT(result.numContacts(), 1u);
  for (std::size_t i = 0; i < result.numContacts(); ++i) {
    EXPECT_EQ(result.getContact(i).o1, &a);
    EXPECT_EQ(result.getContact(i).o2, &octree);
    EXPECT_EQ(result.getContact(i).b1, static_cast<int>(fcl::Contact<double>::NONE));
  }
  fcl::CollisionResult<double> reversed;
  sov::collide(&octree, Transform::Identity(), &a, tfa, request, reversed);
  ASSERT_EQ(reversed.numContacts(), result.numContacts());
  for (std::size_t i = 0; i < result.numContacts(); ++i) {
    EXPECT_EQ(reversed.getContact(i).o1, &octree);
    EXPECT_EQ(reversed.getContact(i).b1, result.getContact(i).b2);
    EXPECT_TRUE(reversed.getContact(i).normal.isApprox(-result.getContact(i).normal));
  }
}

TEST(FclOcTree, EmptyTreeNeverCollides) {
  const sov::Superovoid a(0.3, 0.2, 0.4, 0.6, 1.3);
  const fcl::OcTree<double> octree(std::make_shared<octomap::OcTree>(0.1));
  fcl::CollisionResult<double> result;
  EXPECT_EQ(sov::collide(&a, Transform::Identity(), &octree, Transform::Identity(),
                         fcl::CollisionRequest<double>(), result),
            0u);
}

}  // namespace
