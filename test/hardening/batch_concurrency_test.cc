// The batch queries' threads (c_api/batch.c) share the shapes, the poses and
// a pair counter, and each keeps its own work memory and writes only its
// pairs' outputs and caches: two and three threads give the bits of one.
// Run under ThreadSanitizer in CI (.ci/run, tests HardeningConcurrency.*),
// where a data race is a failure of its own.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "../battery_check.h"
#include "extreme_cases.h"
#include "superovoid/superovoid.h"

namespace {

using sov_hardening::kExtremeStride;
using sov_test::SameBits;

// Shapes (2 per pair), indices and poses of the battery subsets and part of
// the extreme matrix.
struct Arrays {
  std::vector<sov_shape> shapes;
  std::vector<size_t> ia, ib;
  std::vector<sov_pose> XA, XB;
  void Add(const sov_shape &A, const sov_pose &XA_, const sov_shape &B, const sov_pose &XB_) {
    ia.push_back(shapes.size());
    shapes.push_back(A);
    ib.push_back(shapes.size());
    shapes.push_back(B);
    XA.push_back(XA_);
    XB.push_back(XB_);
  }
};

Arrays LoadArrays() {
  Arrays a;
  std::string error;
  for (const sov_test::SubsetPair &sp : sov_test::LoadSubsetPairs(SOV_TEST_DATA_DIR, &error)) {
    EXPECT_EQ(sp.status, SOV_OK) << sp.where;
    a.Add(sp.posed.A, sp.posed.XA, sp.posed.B, sp.posed.XB);
  }
  EXPECT_TRUE(error.empty()) << error;
  const auto cases = sov_hardening::ExtremeCases();
  for (size_t i = 0; i < cases.size(); i += kExtremeStride)
    a.Add(cases[i].A.shape, cases[i].A.pose, cases[i].B.shape, cases[i].B.pose);
  return a;
}

// Statuses and results of a cold and then a warm batch (fresh caches).
struct BatchRun {
  std::vector<int> status[2];
  std::vector<sov_result> result[2];
  std::vector<int> colliding, collide_status;
};

BatchRun RunBatch(const Arrays &a, int threads) {
  const size_t n = a.ia.size();
  std::vector<sov_cache> caches(n);
  for (auto &c : caches) sov_cache_reset(&c);
  const sov_batch b = {a.shapes.data(), a.shapes.size(), a.ia.data(), a.ib.data(),
                       a.XA.data(),     a.XB.data(),     n,           caches.data()};
  BatchRun run;
  for (int round = 0; round < 2; ++round) {
    run.status[round].assign(n, 99);
    run.result[round].assign(n, sov_result{});
    sov_batch_distance(run.result[round].data(), run.status[round].data(), nullptr, &b, nullptr,
                       threads);
  }
  sov_batch nocache = b;
  nocache.caches = nullptr;
  run.colliding.assign(n, -1);
  run.collide_status.assign(n, 99);
  sov_batch_collide(run.colliding.data(), run.collide_status.data(), nullptr, &nocache, nullptr,
                    threads);
  return run;
}

TEST(HardeningConcurrency, BatchThreadsGiveTheBitsOfOneThread) {
  const Arrays a = LoadArrays();
  ASSERT_GT(a.ia.size(), 400u);
  const BatchRun one = RunBatch(a, 1);
  for (const int threads : {2, 3}) {
    const BatchRun many = RunBatch(a, threads);
    size_t differing = 0;
    for (int round = 0; round < 2; ++round)
      for (size_t k = 0; k < a.ia.size(); ++k)
        differing += many.status[round][k] != one.status[round][k] ||
                     !SameBits(many.result[round][k], one.result[round][k]);
    EXPECT_EQ(differing, 0u) << threads << " threads";
    EXPECT_EQ(many.colliding, one.colliding) << threads << " threads";
    EXPECT_EQ(many.collide_status, one.collide_status) << threads << " threads";
  }
}

}  // namespace
