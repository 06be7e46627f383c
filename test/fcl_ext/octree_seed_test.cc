// sov::octreeSeededDistance (the study's octImplicit scheme) and
// Superovoid::voxels.
#include "superovoid/fcl/octree_seed.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <octomap/OcTree.h>

#include "fcl_test_util.h"
#include "superovoid/fcl/error.h"
#include "superovoid/fcl/superovoid.h"

namespace {

using sov_test::kExactTolerance;
using sov_test::pose;
using sov_test::Transform;
using sov_test::Vector;

// Core answer with the default method (SOV_METHOD_AUTO, cold start).
sov_result defaultAnswer(const sov::Superovoid& a, const Transform& tfa, const sov::Superovoid& b,
                         const Transform& tfb) {
  const sov_pose XA = sov_test::toPose(tfa), XB = sov_test::toPose(tfb);
  sov_result r{};
  EXPECT_EQ(sov_distance(&r, &a.shape(), &XA, &b.shape(), &XB, nullptr, nullptr), SOV_OK);
  return r;
}

TEST(OctreeSeed, VoxelsContainOnlyInsideCells) {
  const sov::Superovoid a(0.5, 0.3, 0.4, 0.5, 1.4, 0.2, -0.1);
  const double res = 0.04;
  const auto tree = a.voxels(res);
  ASSERT_TRUE(tree);
  EXPECT_DOUBLE_EQ(tree->getResolution(), res);
  std::size_t cells = 0;
  double volume = 0;
  for (auto it = tree->begin_leafs(); it != tree->end_leafs(); ++it) {
    ASSERT_TRUE(tree->isNodeOccupied(*it));
    ASSERT_EQ(it.getDepth(), tree->getTreeDepth());  // no pruning: one leaf per cell
    const double x[3] = {it.getX(), it.getY(), it.getZ()};
    double F = 1;
    ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &a.shape(), x), SOV_OK);
    EXPECT_LE(F, 0) << x[0] << " " << x[1] << " " << x[2];
    ++cells;
    volume += res * res * res;
  }
  double exact = 0;
  ASSERT_EQ(sov_shape_volume(&exact, &a.shape()), SOV_OK);
  EXPECT_GT(cells, 1000u);
  EXPECT_NEAR(volume, exact, 0.15 * exact);  // the cells fill the body up to its skin
}

TEST(OctreeSeed, VoxelsAreBuiltOnceAndShared) {
  const sov::Superovoid a(0.5, 0.3, 0.4, 0.8, 1.0);
  std::vector<std::shared_ptr<const octomap::OcTree>> trees(4);
  std::vector<std::thread> threads;
  for (auto& t : trees) threads.emplace_back([&a, &t] { t = a.voxels(0.05); });
  for (auto& t : threads) t.join();
  for (const auto& t : trees) EXPECT_EQ(t, trees[0]);
  const sov::Superovoid copy(a);
  EXPECT_EQ(copy.voxels(0.05), trees[0]);
  EXPECT_NE(a.voxels(0.1), trees[0]);
  EXPECT_THROW(a.voxels(0), sov::Error);
  EXPECT_THROW(a.voxels(-1), sov::Error);
}

TEST(OctreeSeed, ConvergesToTheDefaultAnswerOrSaysItDidNot) {
  constexpr double kResolution = 0.025;
  const sov::Superovoid a(0.5, 0.3, 0.4, 0.5, 1.4, 0.2, -0.1);
  const sov::Superovoid b(0.3, 0.35, 0.25, 1.2, 0.7);
  const std::vector<std::pair<Transform, Transform>> poses = {
      {pose(Vector(0, 0, 0)), pose(Vector(1.2, 0.1, -0.05), 0.3, Vector(1, 1, 0))},
      {pose(Vector(0.1, 0, 0.2), 0.7, Vector(0, 1, 1)), pose(Vector(-0.3, 0.9, 0.4), 1.1)},
      {pose(Vector(0, 0, 0), 2.0, Vector(1, 0, 1)), pose(Vector(0.2, -0.3, 1.1), -0.4, Vector(1, 2, 3))},
      {pose(Vector(0, 0, 0)), pose(Vector(0.9, 0.4, 0.3), 0.5, Vector(3, 1, 2))},
  };
  int converged = 0;
  for (const auto& [tfa, tfb] : poses) {
    const sov_result expected = defaultAnswer(a, tfa, b, tfb);
    ASSERT_GT(expected.d, 0);
    sov::OctreeSeedOptions options;
    options.resolution = kResolution;
    const sov::OctreeSeedResult r = sov::octreeSeededDistance(a, tfa, b, tfb, options);
    // Leaf centres lie inside the bodies, so the leaves stick out by at most
    // half a cell diagonal each.
    EXPECT_GE(r.octree_distance, expected.d - std::sqrt(3.0) * kResolution);
    EXPECT_LE(r.octree_distance, expected.d + std::sqrt(3.0) * kResolution);
    if (r.status != SOV_OK) {  // the study's scheme may fail: it must say so
      EXPECT_TRUE(r.status == SOV_ERR_NO_CONVERGENCE || r.status == SOV_ERR_SINGULAR ||
                  r.status == SOV_ERR_SPURIOUS)
          << sov_status_string(r.status);
      continue;
    }
    ++converged;
    EXPECT_EQ(r.result.method, SOV_METHOD_IMPLICIT);
    EXPECT_EQ(r.seed_source, sov::OctreeSeedSource::NearestPoints);
    EXPECT_NEAR(r.result.d, expected.d, kExactTolerance);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(r.result.pA[i], expected.pA[i], 1e-6);
      EXPECT_NEAR(r.result.pB[i], expected.pB[i], 1e-6);
    }
  }
  EXPECT_GE(2 * converged, static_cast<int>(poses.size()));
}

// Expects f() to throw sov::Error with SOV_ERR_OPTION and `text` in its message.
template <class F>
void expectOptionError(F&& f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "no exception (expected \"" << text << "\")";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_OPTION);
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

// A resolution so coarse that no cell centre is in the body would give an
// empty tree (FCL's octree distance crashes on a null root): a clear error.
TEST(OctreeSeed, CoarseResolutionWithNoCellInsideIsRejected) {
  const sov::Superovoid a(0.3, 0.3, 0.3, 1, 1);
  expectOptionError([&] { a.voxels(1.0); }, "too coarse");
  sov::OctreeSeedOptions options;
  options.resolution = 1.0;
  expectOptionError([&] { sov::octreeSeededDistance(a, pose(Vector(0, 0, 0)), a,
                                                    pose(Vector(2, 0, 0)), options); },
                    "too coarse");
}

// A resolution so fine that OctoMap's 16-bit keys would wrap, or that the
// grid would be huge: a clear error, no hang.
TEST(OctreeSeed, FineResolutionBeyondOctomapKeysOrTheCellCapIsRejected) {
  const sov::Superovoid big(1000, 1000, 1000, 1, 1);
  expectOptionError([&] { big.voxels(0.03); }, "16-bit keys");
  const sov::Superovoid unit(1, 1, 1, 1, 1);
  expectOptionError([&] { unit.voxels(1e-4); }, "grid cells");
  const sov::Superovoid small(0.3, 0.3, 0.3, 1, 1);
  sov::OctreeSeedOptions options;
  options.resolution = 0.03;  // a tenth of the small body's semi-axis
  expectOptionError([&] { sov::octreeSeededDistance(big, pose(Vector(0, 0, 0)), small,
                                                    pose(Vector(1002, 0, 0)), options); },
                    "16-bit keys");
}

// The default resolution is per body (a tenth of each one's smallest
// semi-axis): a size ratio of 3333 is answered.
TEST(OctreeSeed, DefaultResolutionIsPerBody) {
  const sov::Superovoid big(1000, 1000, 1000, 1, 1);
  const sov::Superovoid small(0.3, 0.3, 0.3, 1, 1);
  const Transform tfa = pose(Vector(0, 0, 0)), tfb = pose(Vector(1002, 0, 0));
  const sov::OctreeSeedResult r = sov::octreeSeededDistance(big, tfa, small, tfb);
  EXPECT_GT(r.octree_distance, 0);
  if (r.status == SOV_OK) {
    EXPECT_NEAR(r.result.d, 1.7, 1e-6);
  } else {
    EXPECT_TRUE(r.status == SOV_ERR_NO_CONVERGENCE || r.status == SOV_ERR_SINGULAR ||
                r.status == SOV_ERR_SPURIOUS)
        << sov_status_string(r.status);
  }
}

// Overlapping bodies: FCL's octree distance answers -1 with zero nearest
// points; the scheme reports the fallback to the core's centre-line seed
// (not a seed at the world origin), and the answer is the default one or an
// honest failure.
TEST(OctreeSeed, OverlappingBodiesFallBackToTheCentreSeed) {
  constexpr double kResolution = 0.025;
  const sov::Superovoid a(0.5, 0.3, 0.4, 0.5, 1.4, 0.2, -0.1);
  const sov::Superovoid b(0.3, 0.35, 0.25, 1.2, 0.7);
  const std::vector<std::pair<Transform, Transform>> poses = {
      {pose(Vector(3, 2, 1)), pose(Vector(3.6, 2.1, 1.05), 0.3, Vector(1, 1, 0))},
      {pose(Vector(-2, 1, 4), 0.7, Vector(0, 1, 1)), pose(Vector(-2.2, 1.4, 4.1), 1.1)},
  };
  int converged = 0;
  for (const auto& [tfa, tfb] : poses) {
    const sov_result expected = defaultAnswer(a, tfa, b, tfb);
    ASSERT_LT(expected.d, 0);
    sov::OctreeSeedOptions options;
    options.resolution = kResolution;
    const sov::OctreeSeedResult r = sov::octreeSeededDistance(a, tfa, b, tfb, options);
    EXPECT_LT(r.octree_distance, 0);
    EXPECT_EQ(r.seed_source, sov::OctreeSeedSource::Centers);
    EXPECT_TRUE(r.seed_a.isApprox(tfa.translation()));
    EXPECT_TRUE(r.seed_b.isApprox(tfb.translation()));
    if (r.status != SOV_OK) {
      EXPECT_TRUE(r.status == SOV_ERR_NO_CONVERGENCE || r.status == SOV_ERR_SINGULAR ||
                  r.status == SOV_ERR_SPURIOUS)
          << sov_status_string(r.status);
      continue;
    }
    ++converged;
    EXPECT_EQ(r.result.method, SOV_METHOD_IMPLICIT);
    EXPECT_NEAR(r.result.d, expected.d, kExactTolerance);
  }
  EXPECT_GE(converged, 1);
}

TEST(OctreeSeed, NonRotationPoseIsRejected) {
  const sov::Superovoid a(0.5, 0.3, 0.4, 0.8, 1.0);
  Transform scaled = Transform::Identity();
  scaled.linear() *= 1.1;
  EXPECT_THROW(sov::octreeSeededDistance(a, scaled, a, pose(Vector(2, 0, 0))), sov::Error);
}

}  // namespace
