// The stack the FCL layer's queries need: it gives the core this thread's
// work memory (superovoid/work.h), so a query that reaches the global search
// keeps its polytope off the stack. Measured as stack_test.cc measures the
// core's, over the committed subsets (whose overlaps include pairs the
// global search decides), distance and collide by sov::distance and
// sov::collide on two sov::Superovoid objects.
#include <fcl/narrowphase/collision_object.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "../battery_check.h"
#include "painted_stack.h"
#include "superovoid/fcl/collision.h"
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

// The FCL layer's queries on every pair of both committed subsets.
struct FclJob {
  std::vector<std::shared_ptr<fcl::CollisionObject<double>>> objects;  // A, B, A, B, ...
  int overlaps = 0;
  int threw = 0;
};

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
    } catch (...) {
      ++job->threw;
    }
  }
  return nullptr;
}

TEST(HardeningStack, FclLayerQueriesUseThreadWorkMemory) {
  FclJob job;
  for (const char* name : {"/paper_subset.csv", "/stress_subset.csv"}) {
    const sov_test::Battery b = sov_test::LoadBattery(std::string(SOV_TEST_DATA_DIR) + name);
    ASSERT_TRUE(b.error.empty()) << b.error;
    for (const sov_test::Pair& p : b.pairs) {
      job.objects.push_back(RowObject(p.body[0]));
      job.objects.push_back(RowObject(p.body[1]));
    }
  }
  ASSERT_FALSE(job.objects.empty());
  const size_t used = sov_test::PaintedStackUsed(RunFclQueries, &job);
  std::printf("[ stack    ] %zu pairs through the FCL layer: %zu bytes of stack, %d overlap\n",
              job.objects.size() / 2, used, job.overlaps);
  EXPECT_EQ(job.threw, 0);
  EXPECT_GT(job.overlaps, 0);  // overlaps, some decided by the global search, were queried
  if (sov_test::kSanitized) GTEST_SKIP() << "sanitized build: frames are not the release build's";
  // Well below the global search's polytope (sov_work_size(), 177 KB) that
  // the core would otherwise put on this thread's stack.
  EXPECT_LT(used, sov_work_size() / 2);
}

}  // namespace
