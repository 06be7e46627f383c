// sov::DefaultCollisionFunction / DefaultDistanceFunction in FCL's
// broadphase managers: a mixed scene of 216 superovoids, boxes, spheres,
// cylinders and meshes gives the same colliding pairs and minimum distance as
// checking every pair with sov::collide / sov::distance.
#include "superovoid/fcl/broadphase.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <fcl/broadphase/broadphase_SaP.h>
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/broadphase/broadphase_interval_tree.h>

#include "fcl_test_util.h"
#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/superovoid.h"

namespace {

using sov_test::Transform;
using sov_test::Vector;
using Object = fcl::CollisionObject<double>;
using Pair = std::pair<int, int>;

// Grid of 6 x 6 x 6 objects; each body fits in a ball of radius kReach.
constexpr int kGridSide = 6;
constexpr double kReach = 0.4;
// Grid spacing of the dense scene (neighbours overlap often) and of the
// sparse one (no two bodies overlap: 2 kReach + 2 kJitter < 1).
constexpr double kDenseSpacing = 0.6;
constexpr double kSparseSpacing = 1.0;
constexpr double kJitter = 0.05;
// Broadphase and brute force query the same pairs, but a manager may hand a
// pair over in the other order, and two solves of one pair (A, B) and (B, A)
// agree to the solver's tolerance (default 1e-11 times max(1, |coordinates|),
// coordinates here up to about 6), not to rounding.
constexpr double kSameQueries = 1e-10;

// One geometry per object (contacts name geometries), cycling through the
// kinds; superovoids in four shapes, meshes tessellate a superovoid.
std::shared_ptr<fcl::CollisionGeometry<double>> makeGeometry(int i) {
  switch (i % 6) {
    case 0: return std::make_shared<sov::Superovoid>(0.3, 0.25, 0.35, 0.5, 0.8);
    case 1: return std::make_shared<fcl::Box<double>>(0.4, 0.3, 0.5);
    case 2: return std::make_shared<fcl::Sphere<double>>(0.25);
    case 3: {
      const sov::Superovoid body(0.3, 0.25, 0.35, 0.7, 0.9);
      return sov_test::meshModel<fcl::OBBRSS<double>>(sov_test::tessellate(body, 8, 16));
    }
    case 4: return std::make_shared<fcl::Cylinder<double>>(0.2, 0.5);
    default:
      return (i / 6) % 2 ? std::make_shared<sov::Superovoid>(0.3, 0.25, 0.35, 0.6, 1.0, 0.2, 0.1)
                         : std::make_shared<sov::Superovoid>(0.25, 0.3, 0.3, 1.0, 0.4);
  }
}

// The scene: objects on a jittered grid with random orientations.
struct Scene {
  std::vector<std::unique_ptr<Object>> objects;
  std::map<const fcl::CollisionGeometry<double>*, int> index;  // geometry -> object

  explicit Scene(double spacing) {
    const std::vector<Transform> poses =
        sov_test::randomPoses(kGridSide * kGridSide * kGridSide, kJitter, 5);
    for (int i = 0; i < static_cast<int>(poses.size()); ++i) {
      Transform tf = poses[i];
      const Vector cell(i % kGridSide, (i / kGridSide) % kGridSide, i / (kGridSide * kGridSide));
      tf.translation() += spacing * cell;
      objects.push_back(std::make_unique<Object>(makeGeometry(i), tf));
      index[objects.back()->collisionGeometry().get()] = i;
    }
  }

  std::vector<Object*> pointers() const {
    std::vector<Object*> out;
    for (const auto& o : objects) out.push_back(o.get());
    return out;
  }
};

// Every colliding pair, by sov::collide on every pair.
std::set<Pair> bruteForcePairs(const Scene& scene) {
  std::set<Pair> pairs;
  const int n = static_cast<int>(scene.objects.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      fcl::CollisionResult<double> r;
      if (sov::collide(scene.objects[i].get(), scene.objects[j].get(),
                       fcl::CollisionRequest<double>(), r) > 0) {
        pairs.emplace(i, j);
      }
    }
  }
  return pairs;
}

// The smallest sov::distance over every pair.
double bruteForceMinimum(const Scene& scene) {
  double best = std::numeric_limits<double>::max();
  const int n = static_cast<int>(scene.objects.size());
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      fcl::DistanceResult<double> r;
      best = std::min(best, sov::distance(scene.objects[i].get(), scene.objects[j].get(),
                                          fcl::DistanceRequest<double>(), r));
    }
  }
  return best;
}

// The managers under test.
std::vector<std::function<std::unique_ptr<fcl::BroadPhaseCollisionManager<double>>()>>
managers() {
  return {[] { return std::make_unique<fcl::DynamicAABBTreeCollisionManager<double>>(); },
          [] { return std::make_unique<fcl::SaPCollisionManager<double>>(); },
          [] { return std::make_unique<fcl::IntervalTreeCollisionManager<double>>(); }};
}

TEST(FclBroadphase, SceneIsLargeAndMixed) {
  const Scene scene(kDenseSpacing);
  EXPECT_GE(scene.objects.size(), 200u);
  std::set<int> kinds;
  for (const auto& o : scene.objects) {
    kinds.insert(dynamic_cast<const sov::Superovoid*>(o->collisionGeometry().get())
                     ? -1
                     : o->collisionGeometry()->getNodeType());
  }
  EXPECT_EQ(kinds.size(), 5u);  // superovoid, box, sphere, OBBRSS mesh, cylinder
}

// The object AABBs the managers use enclose each superovoid: its world
// support points along the six axis directions lie in them.
TEST(FclBroadphase, SuperovoidObjectAabbsEncloseTheBodies) {
  const Scene scene(kDenseSpacing);
  for (const auto& o : scene.objects) {
    const auto* s = dynamic_cast<const sov::Superovoid*>(o->collisionGeometry().get());
    if (!s) continue;
    const fcl::AABB<double>& box = o->getAABB();
    for (int axis = 0; axis < 3; ++axis) {
      for (double sign : {-1.0, 1.0}) {
        const Vector dir = sign * Vector::Unit(axis);
        const Vector tip = o->getTransform() * s->localSupport(o->getRotation().transpose() * dir);
        EXPECT_LE(tip[axis], box.max_[axis]);
        EXPECT_GE(tip[axis], box.min_[axis]);
      }
    }
  }
}

// All colliding pairs through the default callback (contacts name the
// geometries) equal the brute-force set, for each manager.
TEST(FclBroadphase, CollidingPairsMatchBruteForce) {
  const Scene scene(kDenseSpacing);
  const std::set<Pair> expected = bruteForcePairs(scene);
  ASSERT_GT(expected.size(), 50u);
  for (const auto& make : managers()) {
    auto manager = make();
    manager->registerObjects(scene.pointers());
    manager->setup();
    sov::DefaultCollisionData data;
    data.request.num_max_contacts = std::numeric_limits<std::size_t>::max();
    manager->collide(&data, sov::DefaultCollisionFunction);
    std::set<Pair> found;
    for (std::size_t k = 0; k < data.result.numContacts(); ++k) {
      const fcl::Contact<double>& c = data.result.getContact(k);
      const int i = scene.index.at(c.o1), j = scene.index.at(c.o2);
      found.emplace(std::min(i, j), std::max(i, j));
    }
    EXPECT_EQ(found, expected);
    EXPECT_FALSE(data.done);
  }
}

// With FCL's default request (one contact) the callback stops at the first
// colliding pair and reports a collision.
TEST(FclBroadphase, DefaultRequestStopsAtFirstCollision) {
  const Scene scene(kDenseSpacing);
  for (const auto& make : managers()) {
    auto manager = make();
    manager->registerObjects(scene.pointers());
    manager->setup();
    sov::DefaultCollisionData data;
    manager->collide(&data, sov::DefaultCollisionFunction);
    EXPECT_TRUE(data.done);
    EXPECT_EQ(data.result.numContacts(), 1u);
  }
}

// The sparse scene's minimum distance through the default callback equals
// the brute-force minimum, for each manager; the dense scene's is <= 0.
TEST(FclBroadphase, MinimumDistanceMatchesBruteForce) {
  const Scene scene(kSparseSpacing);
  const double expected = bruteForceMinimum(scene);
  ASSERT_GT(expected, 0.0);
  for (const auto& make : managers()) {
    auto manager = make();
    manager->registerObjects(scene.pointers());
    manager->setup();
    sov::DefaultDistanceData data;
    manager->distance(&data, sov::DefaultDistanceFunction);
    EXPECT_NEAR(data.result.min_distance, expected, kSameQueries);
  }
  const Scene dense(kDenseSpacing);
  auto manager = managers().front()();
  manager->registerObjects(dense.pointers());
  manager->setup();
  sov::DefaultDistanceData data;
  manager->distance(&data, sov::DefaultDistanceFunction);
  EXPECT_LE(data.result.min_distance, 0.0);
}

}  // namespace
