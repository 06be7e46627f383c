// The stack the FCL layer's queries need: it gives the core this thread's
// work memory (superovoid/work.h), so a query that reaches the global search
// keeps its polytope off the stack. Measured as stack_test.cc measures the
// core's, over the committed subsets (whose overlaps include pairs the
// global search decides): sov::distance, sov::collide and
// sov::continuousCollide on two sov::Superovoid objects, and the signed
// distance of the first against a box in place of the second (whose
// overlaps take the core's EPA), against the core's own queries of the same
// pairs without work memory.
#include <fcl/narrowphase/collision_object.h>
#include <gtest/gtest.h>

#include <fcl/geometry/shape/box.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../battery_check.h"
#include "painted_stack.h"
#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/continuous_collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/superovoid.h"

namespace {

// A body of a battery row as an FCL collision object.
std::shared_ptr<fcl::CollisionObject<double>> RowObject(const double* row) {
  auto body =
      std::make_shared<sov::Superovoid>(row[0], row[1], row[2], row[3], row[4], row[5], row[6]);
  fcl::Transform3<double> tf = fcl::Transform3<double>::Identity();
  tf.linear() = Eigen::Quaterniond(row[7], row[8], row[9], row[10]).normalized().toRotationMatrix();
  tf.translation() = Eigen::Vector3d(row[11], row[12], row[13]);
  return std::make_shared<fcl::CollisionObject<double>>(body, tf);
}

// The FCL layer's stack bound: the core's with work memory (superovoid.h)
// and a few KB for the layer's own frames (measured in a Release build:
// 24 KB).
constexpr size_t kFclStackWithWork = 40 * 1024;

// The box B's semi-axes span, at B's pose, as an FCL collision object.
std::shared_ptr<fcl::CollisionObject<double>> RowBox(const double* row) {
  auto box = std::make_shared<fcl::Box<double>>(2 * row[0], 2 * row[1], 2 * row[2]);
  const std::shared_ptr<fcl::CollisionObject<double>> b = RowObject(row);
  return std::make_shared<fcl::CollisionObject<double>>(box, b->getTransform());
}

// The FCL layer's queries on every pair of both committed subsets.
struct FclJob {
  std::vector<std::shared_ptr<fcl::CollisionObject<double>>> objects;  // A, B, A, B, ...
  std::vector<std::shared_ptr<fcl::CollisionObject<double>>> boxes;    // one per pair
  int overlaps = 0;
  int box_overlaps = 0;
  int threw = 0;
};

// A's motion for sov::continuousCollide: from its pose moved away from B by
// twice their centres' offset back to its pose.
fcl::Transform3<double> MotionStart(const fcl::CollisionObject<double>& a,
                                    const fcl::CollisionObject<double>& b) {
  fcl::Transform3<double> start = a.getTransform();
  start.translation() += 2 * (a.getTranslation() - b.getTranslation());
  return start;
}

void* RunFclQueries(void* arg) {
  FclJob* job = static_cast<FclJob*>(arg);
  for (size_t i = 0; i + 1 < job->objects.size(); i += 2) {
    try {
      fcl::DistanceRequest<double> dreq(true);
      fcl::DistanceResult<double> dres;
      sov::distance(job->objects[i].get(), job->objects[i + 1].get(), dreq, dres);
      fcl::CollisionRequest<double> creq;
      fcl::CollisionResult<double> cres;
      job->overlaps +=
          sov::collide(job->objects[i].get(), job->objects[i + 1].get(), creq, cres) > 0;
      const fcl::CollisionObject<double>&a = *job->objects[i], &b = *job->objects[i + 1];
      fcl::ContinuousCollisionRequest<double> treq;
      fcl::ContinuousCollisionResult<double> tres;
      sov::continuousCollide(a.collisionGeometry().get(), MotionStart(a, b), a.getTransform(),
                             b.collisionGeometry().get(), b.getTransform(), b.getTransform(), treq,
                             tres);
      fcl::DistanceRequest<double> sreq(true);
      sreq.enable_signed_distance = true;
      fcl::DistanceResult<double> sres;
      sov::distance(&a, job->boxes[i / 2].get(), sreq, sres);
      job->box_overlaps += sres.min_distance < 0;
    } catch (...) {
      ++job->threw;
    }
  }
  return nullptr;
}

// The core's queries of the same pairs without work memory.
struct CoreJob {
  std::vector<sov_test::PosedPair> pairs;
  int failures = 0;
};

void* RunCoreQueries(void* arg) {
  CoreJob* job = static_cast<CoreJob*>(arg);
  for (const sov_test::PosedPair& pp : job->pairs) {
    sov_result r;
    job->failures += sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr) != SOV_OK;
  }
  return nullptr;
}

TEST(HardeningStack, FclLayerQueriesUseThreadWorkMemory) {
  FclJob job;
  CoreJob core;
  std::string error;
  for (const sov_test::SubsetPair& sp : sov_test::LoadSubsetPairs(SOV_TEST_DATA_DIR, &error)) {
    ASSERT_EQ(sp.status, SOV_OK) << sp.where;
    job.objects.push_back(RowObject(sp.row.body[0]));
    job.objects.push_back(RowObject(sp.row.body[1]));
    job.boxes.push_back(RowBox(sp.row.body[1]));
    core.pairs.push_back(sp.posed);
  }
  ASSERT_TRUE(error.empty()) << error;
  ASSERT_FALSE(job.objects.empty());
  const size_t used = sov_test::PaintedStackUsed(RunFclQueries, &job);
  const size_t used_core = sov_test::PaintedStackUsed(RunCoreQueries, &core);
  std::printf(
      "[ stack    ] %zu pairs: %zu bytes of stack through the FCL layer, %d overlap, %d against "
      "boxes; %zu by the core without work memory\n",
      job.objects.size() / 2, used, job.overlaps, job.box_overlaps, used_core);
  EXPECT_EQ(job.threw, 0);
  EXPECT_GT(job.box_overlaps, 0);  // the EPA ran
  EXPECT_EQ(core.failures, 0);
  // The global search ran: the core's own queries put its polytope on the
  // stack, the layer's did not.
  EXPECT_GT(used_core, used + sov_work_size() / 2);
  if (sov_test::kSanitized) GTEST_SKIP() << "sanitized build: frames are not the release build's";
  EXPECT_LE(used, kFclStackWithWork);
}

}  // namespace
