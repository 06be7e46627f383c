// sov_support_penetration: EPA on support functions, against the battery
// subsets' reference answers (posed superovoids given by their supports),
// and its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "../battery_check.h"
#include "superovoid/superovoid.h"

namespace {

// A posed superovoid as a support function.
struct PosedBody {
  const sov_shape* shape;
  const sov_pose* X;
};

void posedSupport(const void* body, const double dir[3], double x[3]) {
  const auto* b = static_cast<const PosedBody*>(body);
  const double* R = b->X->R;
  double l[3], y[3], h = 0;
  for (int i = 0; i < 3; ++i) l[i] = R[i] * dir[0] + R[3 + i] * dir[1] + R[6 + i] * dir[2];
  sov_shape_support(y, &h, b->shape, l);
  for (int i = 0; i < 3; ++i) x[i] = R[3 * i] * y[0] + R[3 * i + 1] * y[1] + R[3 * i + 2] * y[2] + b->X->p[i];
}

void nanSupport(const void*, const double*, double x[3]) { x[0] = x[1] = x[2] = NAN; }

// Overlapping pairs: -depth within the tolerance of the reference d (the
// face below the depth and the support value above it are both within
// it), pB - pA = d n; pairs apart: proved apart. 1e-9 on these pairs takes
// at most 123 supports.
TEST(SovSupportPenetration, MatchesTheBatteryReferences) {
  constexpr double kTol = 1e-9;
  int overlapping = 0, apart = 0, steps = 0;
  for (const char* name : {"/paper_subset.csv", "/stress_subset.csv"}) {
    const sov_test::Battery b = sov_test::LoadBattery(std::string(SOV_TEST_DATA_DIR) + name);
    ASSERT_TRUE(b.error.empty()) << b.error;
    for (size_t i = 0; i < b.pairs.size(); ++i) {
      sov_test::PosedPair pp;
      ASSERT_EQ(sov_test::MakePosedPair(&pp, b.pairs[i]), SOV_OK);
      const PosedBody A{&pp.A, &pp.XA}, B{&pp.B, &pp.XB};
      const double d_ref = b.refs[i].d;
      if (std::abs(d_ref) < 1e-6) continue;  // touching: either answer
      sov_result r;
      int over = -1;
      const std::string what = std::string(name) + " row " + std::to_string(i);
      ASSERT_EQ(sov_support_penetration(&r, &over, posedSupport, &A, posedSupport, &B, kTol), SOV_OK)
          << what;
      EXPECT_EQ(over, d_ref < 0 ? 1 : 0) << what;
      if (over != 1) {
        ++apart;
        continue;
      }
      ++overlapping;
      steps = std::max(steps, r.iterations);
      EXPECT_NEAR(r.d, d_ref, kTol) << what;
      EXPECT_GE(r.d, d_ref - 1e-12) << what;  // the inner polytope's face: never deeper
      EXPECT_NEAR(std::hypot(r.n[0], std::hypot(r.n[1], r.n[2])), 1.0, 1e-12) << what;
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(r.pB[k] - r.pA[k], r.d * r.n[k], 1e-12) << what;
    }
  }
  EXPECT_GT(overlapping, 20);
  EXPECT_GT(apart, 20);
  EXPECT_LT(steps, 400);  // room left in the polytope (512 vertices)
}

TEST(SovSupportPenetration, RefusesBadInput) {
  const double params[7] = {0.3, 0.2, 0.4, 1, 1, 0, 0};
  sov_shape S;
  ASSERT_EQ(sov_shape_init(&S, params), SOV_OK);
  const double q[4] = {1, 0, 0, 0}, p[3] = {0, 0, 0};
  sov_pose X;
  ASSERT_EQ(sov_pose_from_quat(&X, q, p), SOV_OK);
  const PosedBody A{&S, &X};
  sov_result r;
  int over = 0;
  EXPECT_EQ(sov_support_penetration(nullptr, &over, posedSupport, &A, posedSupport, &A, 1e-6),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_support_penetration(&r, nullptr, posedSupport, &A, posedSupport, &A, 1e-6),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_support_penetration(&r, &over, nullptr, &A, posedSupport, &A, 1e-6), SOV_ERR_NULL);
  EXPECT_EQ(sov_support_penetration(&r, &over, posedSupport, &A, posedSupport, &A, 0),
            SOV_ERR_OPTION);
  EXPECT_EQ(sov_support_penetration(&r, &over, posedSupport, &A, posedSupport, &A, NAN),
            SOV_ERR_OPTION);
  EXPECT_EQ(sov_support_penetration(&r, &over, posedSupport, &A, nanSupport, &A, 1e-6),
            SOV_ERR_NONFINITE);
  // A body against itself at one pose: the depth is its least width, 0.4.
  ASSERT_EQ(sov_support_penetration(&r, &over, posedSupport, &A, posedSupport, &A, 1e-9), SOV_OK);
  EXPECT_EQ(over, 1);
  EXPECT_NEAR(r.d, -0.4, 1e-9);
}

}  // namespace
