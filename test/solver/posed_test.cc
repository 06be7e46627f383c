// The default method's start direction (sovc_core_direction, solver/posed.c):
// between the nearest points of the bodies' core segments.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

extern "C" {
#include "solver/pair.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/shape.h"
#include "solver/shape_init.h"
#include "solver_api.h"
}

#include "pose_test_util.h"

namespace {

sovc_shape MakeRounded(double a1, double a2, double a3) {
  const double p[7] = {a1, a2, a3, 0.8, 1.2, 0.0, 0.0};
  sovc_shape s{};
  EXPECT_EQ(sovc_shape_init(&s, p), SOV_OK);
  return s;
}

sovc_pose PoseAt(double x, double y, double z) {
  const double q[4] = {1, 0, 0, 0};
  sovc_pose X;
  sovc_quat_to_matrix(X.R, q);
  X.p[0] = x;
  X.p[1] = y;
  X.p[2] = z;
  return X;
}

// Pose with a rotation about the world axis e_k by a quarter turn.
sovc_pose QuarterTurn(int k, double x, double y, double z) {
  double q[4] = {std::sqrt(0.5), 0, 0, 0};
  q[1 + k] = std::sqrt(0.5);
  sovc_pose X = PoseAt(x, y, z);
  sovc_quat_to_matrix(X.R, q);
  return X;
}

void ExpectDirection(const double v[3], double x, double y, double z) {
  EXPECT_NEAR(v[0], x, 1e-12);
  EXPECT_NEAR(v[1], y, 1e-12);
  EXPECT_NEAR(v[2], z, 1e-12);
}

// Two parallel needles side by side, B shifted along the axis: the common
// normal is across the needles, while the centre line is mostly along them.
TEST(CoreDirection, ParallelNeedlesSideBySideGiveTheAcrossDirection) {
  const sovc_shape needle = MakeRounded(0.1, 0.1, 2.0);
  const sovc_pose XA = PoseAt(0, 0, 0), XB = PoseAt(0.5, 0, 1.5);
  double v[3];
  sovc_core_direction(v, sov_test::SolverPair(&needle, &XA, &needle, &XB));
  ExpectDirection(v, 0.5, 0, 0);
}

// Needles along x and y, B above A: the cores' nearest points are the
// centres' projections, straight up.
TEST(CoreDirection, CrossedNeedlesGiveTheirCommonPerpendicular) {
  const sovc_shape needle = MakeRounded(0.1, 0.1, 2.0);
  const sovc_pose XA = QuarterTurn(1, 0.3, 0, 0);  // core along x
  const sovc_pose XB = QuarterTurn(0, 0, 0.7, 1);  // core along y
  double v[3];
  sovc_core_direction(v, sov_test::SolverPair(&needle, &XA, &needle, &XB));
  ExpectDirection(v, 0, 0, 1);
}

// End to end on one line: from A's core end to B's, cores of half-length
// 2 - 0.1 each.
TEST(CoreDirection, CollinearNeedlesGiveTheGapBetweenCoreEnds) {
  const sovc_shape needle = MakeRounded(0.1, 0.1, 2.0);
  const sovc_pose XA = PoseAt(0, 0, 0), XB = PoseAt(0, 0, 10);
  double v[3];
  sovc_core_direction(v, sov_test::SolverPair(&needle, &XA, &needle, &XB));
  ExpectDirection(v, 0, 0, 10 - 2 * 1.9);
}

// Bodies as wide as they are long have a point core: the centre line.
TEST(CoreDirection, RoundBodiesGiveTheCentreLine) {
  const sovc_shape ball = MakeRounded(1, 1, 1), disc = MakeRounded(2, 2, 0.5);
  const sovc_pose XA = PoseAt(0.2, -0.1, 0.3), XB = PoseAt(1.5, 2.5, -0.5);
  double v[3];
  sovc_core_direction(v, sov_test::SolverPair(&ball, &XA, &disc, &XB));
  ExpectDirection(v, 1.3, 2.6, -0.8);
}

// Cores that cross fall back on the centre line, and coincident centres
// on +z: a direction is always given.
TEST(CoreDirection, CrossingCoresFallBackOnTheCentreLineThenOnZ) {
  const sovc_shape needle = MakeRounded(0.1, 0.1, 2.0);
  const sovc_pose XA = QuarterTurn(1, 0, 0, 0);  // core along x through the origin
  const sovc_pose XB = PoseAt(0.5, 0, 0.2);      // core along z through (0.5, 0, 0)
  double v[3];
  sovc_core_direction(v, sov_test::SolverPair(&needle, &XA, &needle, &XB));
  ExpectDirection(v, 0.5, 0, 0.2);
  const sovc_pose XC = PoseAt(0, 0, 0);
  sovc_core_direction(v, sov_test::SolverPair(&needle, &XA, &needle, &XC));
  ExpectDirection(v, 0, 0, 1);
}

// Moving both bodies rigidly moves the direction with them.
TEST(CoreDirection, FollowsARigidMotionOfBoth) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> size(0.2, 3.0);
  for (int k = 0; k < 200; ++k) {
    const sovc_shape A = MakeRounded(size(rng), size(rng), size(rng));
    const sovc_shape B = MakeRounded(size(rng), size(rng), size(rng));
    const sovc_pose XA = sov_test::RandomPose(rng, 2), XB = sov_test::RandomPose(rng, 2);
    const sovc_pose M = sov_test::RandomPose(rng, 2);
    const sovc_pose movedA = sov_test::Compose(M, XA), movedB = sov_test::Compose(M, XB);
    double v[3], w[3], Rv[3];
    sovc_core_direction(v, sov_test::SolverPair(&A, &XA, &B, &XB));
    sovc_core_direction(w, sov_test::SolverPair(&A, &movedA, &B, &movedB));
    sovc_rotate(Rv, M.R, v);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(w[i], Rv[i], 1e-9) << "pair " << k;
  }
}

// dp/dv of the support map against central differences along two tangents,
// and zero along v: ellipsoids (closed form) and superellipsoids (implicit
// function theorem) alike.
TEST(SupportDerivative, MatchesFiniteDifferencesOfTheSupportMap) {
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> size(0.2, 3.0), eps(0.6, 1.4);
  std::normal_distribution<double> n(0, 1);
  constexpr double kStep = 1e-5;
  for (int k = 0; k < 400; ++k) {
    const bool ellipsoid = k % 2 == 0;
    const double p[7] = {size(rng), size(rng), size(rng), ellipsoid ? 1.0 : eps(rng),
                         ellipsoid ? 1.0 : eps(rng), 0.0, 0.0};
    sovc_shape S{};
    ASSERT_EQ(sovc_shape_init(&S, p), SOV_OK);
    ASSERT_EQ(sovc_is_ellipsoid(&S), ellipsoid ? 1 : 0);
    const sovc_pose X = sov_test::RandomPose(rng, 2);
    double v[3] = {n(rng), n(rng), n(rng)};
    const double nv = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (double &c : v) c /= nv;
    sovc_support_eval e;
    e.z = NAN;
    sovc_posed_support(&e, &S, &X, v);
    ASSERT_EQ(sovc_support_derivative(&e, &S, &X, v), 1) << "shape " << k;
    double scale = 0;
    for (double d : e.D) scale = std::fmax(scale, std::fabs(d));
    sovc_frame fr;
    sovc_frame_make(&fr, v);
    for (const double *t : {fr.t, fr.b}) {
      double vp[3], vm[3];
      for (int i = 0; i < 3; ++i) vp[i] = v[i] + kStep * t[i], vm[i] = v[i] - kStep * t[i];
      sovc_support_eval ep, em;
      ep.z = em.z = NAN;
      sovc_posed_support(&ep, &S, &X, vp);
      sovc_posed_support(&em, &S, &X, vm);
      for (int i = 0; i < 3; ++i) {
        const double Dt = e.D[3 * i] * t[0] + e.D[3 * i + 1] * t[1] + e.D[3 * i + 2] * t[2];
        EXPECT_NEAR(Dt, (ep.p[i] - em.p[i]) / (2 * kStep), 1e-6 * scale) << "shape " << k;
      }
    }
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(e.D[3 * i] * v[0] + e.D[3 * i + 1] * v[1] + e.D[3 * i + 2] * v[2], 0,
                  1e-12 * scale)
          << "shape " << k;
  }
}

}  // namespace
