// Study Eq. 15 system of solver/implicit.c: analytic Jacobian against finite
// differences, and Newton convergence on closed-form pairs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

extern "C" {
#include "solver/implicit.h"
#include "solver/pose.h"
#include "solver/shape.h"
#include "solver/shape_init.h"
#include "solver_api.h"
}

#include "pose_test_util.h"

namespace {

using sov_test::RandomPose;

constexpr double kJacobianTolerance = 2e-5;  // relative to the row scale
constexpr double kJacobianStep = 1e-7;
constexpr double kNewtonDistanceTolerance = 1e-10;

sovc_shape MakeChecked(double a1, double a2, double a3, double e1, double e2, double tx,
                       double ty) {
  const double p[7] = {a1, a2, a3, e1, e2, tx, ty};
  sovc_shape s{};
  EXPECT_EQ(sovc_shape_init(&s, p), SOV_OK);
  return s;
}

// Finite-difference Jacobian of the residual, with the frame axis frozen as
// the analytic one is (the residual is evaluated near a point where the
// Householder axis does not switch).
TEST(ImplicitSystem, JacobianMatchesFiniteDifferences) {
  std::mt19937_64 rng(7);
  const sovc_shape A = MakeChecked(1.0, 0.8, 1.2, 0.7, 1.1, 0.2, -0.1);
  const sovc_shape B = MakeChecked(0.6, 1.1, 0.9, 1.2, 0.6, 0.15, 0.15);
  int checked = 0;
  for (int k = 0; k < 50; ++k) {
    const sovc_pose XA = RandomPose(rng, 0.0), XB = RandomPose(rng, 2.0);
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    double p[6];
    for (int i = 0; i < 3; ++i) {
      p[i] = XA.p[i] + u(rng);
      p[3 + i] = XB.p[i] + u(rng);
    }
    for (int normalized = 0; normalized < 2; ++normalized) {
      double r[6], J[36];
      if (!std::isfinite(sovc_implicit_system(r, J, sov_test::SolverPair(&A, &XA, &B, &XB), p,
                                              p + 3, normalized)))
        continue;
      for (int c = 0; c < 6; ++c) {
        double pp[6], pm[6], rp[6], rm[6];
        for (int i = 0; i < 6; ++i) pp[i] = pm[i] = p[i];
        pp[c] += kJacobianStep;
        pm[c] -= kJacobianStep;
        sovc_implicit_system(rp, nullptr, sov_test::SolverPair(&A, &XA, &B, &XB), pp, pp + 3,
                             normalized);
        sovc_implicit_system(rm, nullptr, sov_test::SolverPair(&A, &XA, &B, &XB), pm, pm + 3,
                             normalized);
        // Rows 1-4 depend on the tangent basis; it is continuous unless the
        // argmax axis switches between the two probes: skip those columns.
        double scale = 1e-3;
        for (int i = 0; i < 6; ++i) scale = std::fmax(scale, std::fabs(J[6 * c + i]));
        bool smooth = true;
        for (int i = 0; i < 6; ++i)
          if (std::fabs(rp[i] - rm[i]) > 1e3 * kJacobianStep * scale) smooth = false;
        if (!smooth) continue;
        for (int i = 0; i < 6; ++i)
          EXPECT_NEAR(J[6 * c + i], (rp[i] - rm[i]) / (2 * kJacobianStep),
                      kJacobianTolerance * scale)
              << "pose " << k << " row " << i << " column " << c << " normalized " << normalized;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

// Two spheres: Newton from the support points along the centre line lands on
// the closed form in both the study's raw and the normalised formulation.
TEST(ImplicitNewton, SpheresMatchClosedForm) {
  const sovc_shape A = MakeChecked(1, 1, 1, 1, 1, 0, 0), B = MakeChecked(0.5, 0.5, 0.5, 1, 1, 0, 0);
  sovc_pose XA = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
  sovc_pose XB = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {1.2, 1.6, 0}};
  const double pA[3] = {0.7, 0.7, 0.1}, pB[3] = {1.0, 1.3, 0.05};
  for (int normalized = 0; normalized < 2; ++normalized) {
    const sovc_newton_config cfg = {normalized, 1, 1e-12, 50, normalized, 0, NULL};
    sovc_result r;
    ASSERT_EQ(sovc_solve_implicit(&r, sov_test::SolverPair(&A, &XA, &B, &XB), pA, pB, &cfg),
              SOV_OK);
    EXPECT_NEAR(r.d, 2.0 - 1.5, kNewtonDistanceTolerance);
    EXPECT_NEAR(r.n[0], 0.6, kNewtonDistanceTolerance);
    EXPECT_NEAR(r.n[1], 0.8, kNewtonDistanceTolerance);
  }
}

// Newton started on the far side of A converges to a common-normal pair
// whose B normal is not opposite A's, and must say so.
TEST(ImplicitNewton, ReportsSpuriousPairs) {
  const sovc_shape A = MakeChecked(1, 1, 1, 1, 1, 0, 0), B = MakeChecked(1, 1, 1, 1, 1, 0, 0);
  sovc_pose XA = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
  sovc_pose XB = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {3, 0, 0}};
  const double pA[3] = {1.0, 0.01, 0}, pB[3] = {4.0, 0.01, 0};  // B's far side
  const sovc_newton_config cfg = {1, 0, 1e-12, 50, 1, 0, NULL};
  sovc_result r;
  EXPECT_EQ(sovc_solve_implicit(&r, sov_test::SolverPair(&A, &XA, &B, &XB), pA, pB, &cfg),
            SOV_ERR_SPURIOUS);
}

// The default method's configuration (block solve of the Jacobian, the
// pivoted LU as its fallback) lands on the same answers as LAPACK's dgesv,
// in about as many steps.
TEST(ImplicitNewton, SmallSolverMatchesLapackPath) {
  std::mt19937_64 rng(11);
  const sovc_shape A = MakeChecked(1.0, 0.8, 1.2, 0.7, 1.1, 0.2, -0.1);
  const sovc_shape B = MakeChecked(0.6, 1.1, 0.9, 1.2, 0.6, 0.15, 0.15);
  int both = 0;
  for (int k = 0; k < 200; ++k) {
    const sovc_pose XA = RandomPose(rng, 0.0), XB = RandomPose(rng, 2.0);
    std::uniform_real_distribution<double> u(-0.3, 0.3);
    double pA[3], pB[3];
    for (int i = 0; i < 3; ++i) {
      pA[i] = XA.p[i] + 0.5 * (XB.p[i] - XA.p[i]) + u(rng);
      pB[i] = XB.p[i] + 0.5 * (XA.p[i] - XB.p[i]) + u(rng);
    }
    const sovc_newton_config small = {1, 1, 1e-12, 50, 0, 0, NULL},
                             lapack = {1, 1, 1e-12, 50, 1, 0, NULL};
    sovc_result rs, rl;
    const int ss = sovc_solve_implicit(&rs, sov_test::SolverPair(&A, &XA, &B, &XB), pA, pB, &small);
    const int sl =
        sovc_solve_implicit(&rl, sov_test::SolverPair(&A, &XA, &B, &XB), pA, pB, &lapack);
    if (ss != SOV_OK || sl != SOV_OK) continue;
    ++both;
    EXPECT_NEAR(rs.d, rl.d, kNewtonDistanceTolerance) << "pose " << k;
    EXPECT_LE(rs.iterations, rl.iterations + 1) << "pose " << k;
  }
  EXPECT_GT(both, 100);
}

}  // namespace
