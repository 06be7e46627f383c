// Which pairs solver/coaxial.c takes as bodies of revolution on one axis.
// (Its search is tested through the default method in global_test.cc.)
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "solver_api.h"
#include "pose_test_util.h"

extern "C" {
#include "solver/coaxial.h"
#include "solver/pose.h"
#include "solver/shape_init.h"
}

namespace {

// Columns of rotations made from quaternions are unit to a few ulps.
constexpr double kUnitTolerance = 4e-15;

const double kProlate[7] = {1, 1, 2, 1, 1, 0, 0};
const double kTaperedRevolution[7] = {0.8, 0.8, 1.5, 1, 0.6, 0.2, 0.2};
const double kSphere[7] = {0.5, 0.5, 0.5, 1, 1, 0, 0};

sovc_shape InitShape(const double p[7]) {
  sovc_shape s;
  EXPECT_EQ(sovc_shape_init(&s, p), SOV_OK);
  return s;
}

// B posed along A's axis (local z) at the given height, optionally reversed
// and spun about its own axis.
sovc_pose AlongAxis(const sovc_pose &XA, double height, bool reversed, double spin) {
  sovc_pose local = sov_test::Turn(spin, reversed);
  local.p[2] = height;
  return sov_test::Compose(XA, local);
}

// The world axis must be A's local z, either way round.
void ExpectAxisOfA(const double axis[3], const sovc_pose &XA) {
  const double along = axis[0] * XA.R[2] + axis[1] * XA.R[5] + axis[2] * XA.R[8];
  EXPECT_NEAR(std::fabs(along), 1, kUnitTolerance);
}

TEST(Coaxial, BodiesOfRevolutionOnOneAxisAreFound) {
  std::mt19937_64 rng(3);
  const sovc_shape A = InitShape(kProlate), B = InitShape(kTaperedRevolution);
  for (int k = 0; k < 20; ++k) {
    const sovc_pose XA = sov_test::RandomPose(rng, 1.0);
    const sovc_pose XB = AlongAxis(XA, 0.4 * (k - 10), k % 2, 0.3 * k);
    double axis[3];
    ASSERT_TRUE(sovc_coaxial_axis(axis, sov_test::SolverPair(&A, &XA, &B, &XB))) << "pose " << k;
    ExpectAxisOfA(axis, XA);
  }
}

TEST(Coaxial, TiltedOrOffsetAxesAreNot) {
  std::mt19937_64 rng(4);
  const sovc_shape A = InitShape(kProlate), B = InitShape(kTaperedRevolution);
  const sovc_pose XA = sov_test::RandomPose(rng, 1.0);
  double axis[3];
  sovc_pose XB = AlongAxis(XA, 0.5, false, 0);
  for (int i = 0; i < 3; ++i) XB.p[i] += 1e-9 * XA.R[3 * i];  // across A's axis
  EXPECT_FALSE(sovc_coaxial_axis(axis, sov_test::SolverPair(&A, &XA, &B, &XB)));
  const double a = 1e-9;  // about x
  sovc_pose tilt = {{1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a)}, {0, 0, 0.5}};
  XB = sov_test::Compose(XA, tilt);
  EXPECT_FALSE(sovc_coaxial_axis(axis, sov_test::SolverPair(&A, &XA, &B, &XB)));
}

TEST(Coaxial, OtherShapesAreNotBodiesOfRevolution) {
  std::mt19937_64 rng(5);
  const sovc_shape A = InitShape(kProlate);
  const double squarish[7] = {1, 1, 2, 0.9, 1, 0, 0}, oval[7] = {1, 1.1, 2, 1, 1, 0, 0},
               leaning[7] = {1, 1, 2, 1, 1, 0.2, 0.1};
  const sovc_pose XA = sov_test::RandomPose(rng, 1.0), XB = AlongAxis(XA, 0.5, false, 0.2);
  for (const double *p : {squarish, oval, leaning}) {
    const sovc_shape B = InitShape(p);
    double axis[3];
    EXPECT_FALSE(sovc_coaxial_axis(axis, sov_test::SolverPair(&A, &XA, &B, &XB)))
        << "eps1 " << p[3];
    EXPECT_FALSE(sovc_coaxial_axis(axis, sov_test::SolverPair(&B, &XB, &A, &XA)))
        << "eps1 " << p[3];
  }
}

// A sphere is a body of revolution about every axis through its centre:
// the pair is coaxial when the sphere's centre lies on the other's axis,
// whatever the sphere's own rotation; two spheres always are, about the
// line through their centres.
TEST(Coaxial, SpheresTakeTheOtherBodysAxis) {
  std::mt19937_64 rng(6);
  const sovc_shape A = InitShape(kProlate), S = InitShape(kSphere);
  const sovc_pose XA = sov_test::RandomPose(rng, 1.0);
  sovc_pose XS = sov_test::RandomPose(rng, 1.0);
  for (int i = 0; i < 3; ++i) XS.p[i] = XA.p[i] + 0.7 * XA.R[3 * i + 2];
  double axis[3];
  ASSERT_TRUE(sovc_coaxial_axis(axis, sov_test::SolverPair(&S, &XS, &A, &XA)));
  ExpectAxisOfA(axis, XA);
  ASSERT_TRUE(sovc_coaxial_axis(axis, sov_test::SolverPair(&A, &XA, &S, &XS)));
  ExpectAxisOfA(axis, XA);
  for (int i = 0; i < 3; ++i) XS.p[i] += 0.1 * XA.R[3 * i];
  EXPECT_FALSE(sovc_coaxial_axis(axis, sov_test::SolverPair(&A, &XA, &S, &XS)));
  const sovc_pose XT = sov_test::RandomPose(rng, 1.0);
  ASSERT_TRUE(sovc_coaxial_axis(axis, sov_test::SolverPair(&S, &XS, &S, &XT)));
  double c[3], cn = 0;
  for (int i = 0; i < 3; ++i) c[i] = XT.p[i] - XS.p[i], cn += c[i] * c[i];
  cn = std::sqrt(cn);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(axis[i], c[i] / cn, kUnitTolerance);
}

}  // namespace
