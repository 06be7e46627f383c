// The FCL drop-in functions from many threads over shared geometry (every
// FCL type against superovoids, and the octree-seeded scheme, whose voxel
// cache the threads share) give the bits of a single-threaded run.
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/octree/octree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/plane.h>
#include <fcl/geometry/shape/sphere.h>
#include <gtest/gtest.h>
#include <octomap/OcTree.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "extreme_util.h"
#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/octree_seed.h"
#include "../fcl_ext/fcl_test_util.h"
#include "superovoid/fcl/superovoid.h"

namespace {

using Geometry = std::shared_ptr<fcl::CollisionGeometry<double>>;
using Transform = fcl::Transform3<double>;
using Vector = fcl::Vector3<double>;

constexpr int kThreads = 8;
constexpr int kPosesPerPair = 6;

// The superovoid tessellated by the C API, as an FCL mesh (the FCL tests'
// helpers).
Geometry Mesh() {
  return sov_test::meshModel<fcl::OBBRSS<double>>(
      sov_test::tessellate(sov::Superovoid(0.4, 0.3, 0.5, 0.6, 1.2, 0.1, 0.1), 6, 8));
}

Geometry Octree() {
  auto tree = std::make_shared<octomap::OcTree>(0.1);
  for (double x = -0.25; x < 0.3; x += 0.1)
    for (double z = -0.25; z < 0.3; z += 0.1) tree->updateNode(octomap::point3d(x, 0.05, z), true);
  tree->updateInnerOccupancy();
  return std::make_shared<fcl::OcTree<double>>(tree);
}

Geometry Tetrahedron() {
  auto v = std::make_shared<std::vector<Vector>>(
      std::vector<Vector>{Vector(0.5, 0, -0.25), Vector(-0.25, 0.5, -0.25),
                          Vector(-0.25, -0.5, -0.25), Vector(0, 0, 0.5)});
  auto f = std::make_shared<std::vector<int>>(
      std::vector<int>{3, 0, 1, 3, 3, 1, 2, 3, 3, 2, 0, 3, 3, 0, 2, 1});
  return std::make_shared<fcl::Convex<double>>(v, 4, f);
}

// One of FCL's geometry types of each kind, and two superovoids.
std::vector<Geometry> Geometries() {
  return {std::make_shared<fcl::Box<double>>(0.6, 0.4, 0.5),
          std::make_shared<fcl::Sphere<double>>(0.3),
          std::make_shared<fcl::Ellipsoid<double>>(0.4, 0.3, 0.2),
          std::make_shared<fcl::Capsule<double>>(0.2, 0.6),
          std::make_shared<fcl::Cone<double>>(0.3, 0.6),
          std::make_shared<fcl::Cylinder<double>>(0.25, 0.5),
          Tetrahedron(),
          std::make_shared<fcl::Plane<double>>(Vector(0, 0.6, 0.8), 0.1),
          std::make_shared<fcl::Halfspace<double>>(Vector(0.6, 0, 0.8), -0.2),
          Mesh(),
          Octree(),
          std::make_shared<sov::Superovoid>(0.5, 0.3, 0.4, 0.5, 1.4, 0.2, 0.2),
          std::make_shared<sov::Superovoid>(0.3, 0.35, 0.25, 1.2, 0.7)};
}

struct Query {
  const fcl::CollisionGeometry<double> *o1;
  const fcl::CollisionGeometry<double> *o2;
  Transform tf1, tf2;
};

// What one call pair returns, with the doubles kept as they are.
struct Answer {
  double distance = 0;
  double nearest[6] = {};
  std::size_t contacts = 0;
  double first_contact[7] = {};  // normal, position, depth of contact 0

  bool operator==(const Answer &o) const {
    return std::memcmp(&distance, &o.distance, sizeof distance) == 0 &&
           std::memcmp(nearest, o.nearest, sizeof nearest) == 0 && contacts == o.contacts &&
           std::memcmp(first_contact, o.first_contact, sizeof first_contact) == 0;
  }
};

Answer Ask(const Query &q) {
  Answer a;
  fcl::DistanceRequest<double> dreq(true);
  dreq.enable_signed_distance = true;
  fcl::DistanceResult<double> dres;
  a.distance = sov::distance(q.o1, q.tf1, q.o2, q.tf2, dreq, dres);
  for (int k = 0; k < 3; ++k) {
    a.nearest[k] = dres.nearest_points[0][k];
    a.nearest[3 + k] = dres.nearest_points[1][k];
  }
  fcl::CollisionRequest<double> creq(4, true);
  fcl::CollisionResult<double> cres;
  a.contacts = sov::collide(q.o1, q.tf1, q.o2, q.tf2, creq, cres);
  if (a.contacts > 0) {
    const auto &c = cres.getContact(0);
    for (int k = 0; k < 3; ++k) {
      a.first_contact[k] = c.normal[k];
      a.first_contact[3 + k] = c.pos[k];
    }
    a.first_contact[6] = c.penetration_depth;
  }
  return a;
}

TEST(HardeningConcurrency, FclDropInFunctionsGiveTheBitsOfOneThread) {
  const std::vector<Geometry> geometries = Geometries();
  const std::vector<std::shared_ptr<sov::Superovoid>> bodies = {
      std::make_shared<sov::Superovoid>(0.45, 0.35, 0.3, 0.3, 0.9, 0.2, -0.1),
      std::make_shared<sov::Superovoid>(0.3, 0.3, 0.5, 1.7, 1.2)};
  std::mt19937 rng(6);
  std::normal_distribution<double> gauss(0, 1);
  std::uniform_real_distribution<double> spread(-0.9, 0.9);
  std::vector<Query> queries;
  for (const auto &body : bodies)
    for (const auto &other : geometries)
      for (int k = 0; k < kPosesPerPair; ++k) {
        Transform tf[2];
        for (auto &t : tf) {
          t = Transform::Identity();
          t.linear() = Eigen::Quaterniond(gauss(rng), gauss(rng), gauss(rng), gauss(rng))
                           .normalized()
                           .toRotationMatrix();
          t.translation() = Vector(spread(rng), spread(rng), spread(rng));
        }
        const bool body_first = k % 2 == 0;
        queries.push_back(
            {body_first ? static_cast<const fcl::CollisionGeometry<double> *>(body.get())
                        : other.get(),
             body_first ? static_cast<const fcl::CollisionGeometry<double> *>(other.get())
                        : body.get(),
             tf[0], tf[1]});
      }
  std::vector<Answer> reference;
  for (const Query &q : queries) reference.push_back(Ask(q));

  std::vector<std::vector<Answer>> results(kThreads, std::vector<Answer>(queries.size()));
  std::atomic<int> ready{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();
      for (size_t k = 0; k < queries.size(); ++k) {
        const size_t i = (k + t * queries.size() / kThreads) % queries.size();
        results[t][i] = Ask(queries[i]);
      }
    });
  for (auto &th : pool) th.join();
  for (int t = 0; t < kThreads; ++t)
    for (size_t i = 0; i < queries.size(); ++i)
      EXPECT_TRUE(results[t][i] == reference[i]) << "thread " << t << ", query " << i;
}

TEST(HardeningConcurrency, OctreeSeededDistanceSharesTheVoxelCache) {
  // The threads share both bodies, so the first voxels() calls race to
  // build each body's cached tree.
  const sov::Superovoid a(0.5, 0.3, 0.4, 0.5, 1.4, 0.2, -0.1), b(0.3, 0.35, 0.25, 1.2, 0.7);
  Transform ta = Transform::Identity(), tb = Transform::Identity();
  tb.translation() = Vector(0.95, 0.1, -0.05);
  std::vector<sov::OctreeSeedResult> results(kThreads);
  std::vector<std::thread> pool;
  for (int t = 0; t < kThreads; ++t)
    pool.emplace_back([&, t] { results[t] = sov::octreeSeededDistance(a, ta, b, tb); });
  for (auto &th : pool) th.join();
  const sov::OctreeSeedResult one = sov::octreeSeededDistance(a, ta, b, tb);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(results[t].status, one.status) << "thread " << t;
    EXPECT_TRUE(sov_test::SameBits(results[t].result, one.result)) << "thread " << t;
    EXPECT_EQ(std::memcmp(&results[t].octree_distance, &one.octree_distance, sizeof(double)), 0);
  }
}

}  // namespace
