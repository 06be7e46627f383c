// Parametric surface of solver/parametric.c against the SPEC implicit
// function and finite differences, and the study's angle methods of
// solver/parametric_solve.c (study Eq. 18 and its ntb variant) against
// closed-form distances.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

extern "C" {
#include "solver/parametric.h"
#include "solver/parametric_solve.h"
#include "solver/pose.h"
#include "solver/quadtree.h"
#include "solver_api.h"
}

#include "../c_api/random_util.h"
#include "spec_reference.h"

namespace {

using sov_spec::Dist;
using sov_spec::MakeShape;
using sov_spec::Norm;
using sov_spec::PoseQ;
using sov_spec::SpecF;
using sov_test::MatMul;

using sov_spec::kPi;
constexpr double kSurfaceTol = 1e-12;      // |F| at a parametric point
constexpr double kFdStep = 1e-6;           // central differences in the angles
constexpr double kFdTol = 1e-6;            // relative error of those differences
constexpr double kGradStep = 1e-6;         // central differences of F in space
constexpr double kNormalTol = 1e-6;        // |n - grad F / |grad F||
constexpr double kUnitTol = 1e-14;         // ||n| - 1|
constexpr double kOutwardStep = 1e-4;      // F(x +- h n) has the sign of +-1
constexpr double kAngleTol = 1e-9;         // param_angles round trip
constexpr double kDistanceTol = 1e-9;      // SPEC accuracy of d
constexpr double kWitnessTol = 1e-8;       // witness points and normal
constexpr double kSolveTolerance = 1e-11;  // Newton residual tolerance
constexpr int kMaxIterations = 50;

// Central-difference gradient of SpecF.
void SpecGrad(double g[3], const sovc_shape &s, const double x[3]) {
  for (int i = 0; i < 3; ++i) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[i] += kGradStep;
    xm[i] -= kGradStep;
    g[i] = (SpecF(s, xp) - SpecF(s, xm)) / (2 * kGradStep);
  }
}

// Shapes of every kind: sphere, ellipsoid, superellipsoids, tapered, extremes.
std::vector<sovc_shape> Shapes() {
  return {MakeShape(1.3, 1.3, 1.3, 1, 1, 0, 0),
          MakeShape(1.0, 0.6, 0.8, 1, 1, 0, 0),
          MakeShape(0.9, 1.2, 0.7, 0.4, 1.6, 0, 0),
          MakeShape(1.1, 0.8, 0.9, 0.7, 0.5, 0.3, -0.2),
          MakeShape(0.6, 1.0, 1.3, 1.5, 0.3, -0.4, 0.4),
          MakeShape(1.0, 1.0, 1.0, 0.1, 1.9, 0.2, 0.1)};
}

// Angles away from the axes, the equator and the poles.
const double kPhi1[] = {-2.9, -1.3, -0.4, 0.7, 1.9, 2.8};
const double kPhi2[] = {-1.2, -0.5, 0.3, 1.1};

// Error of b against a, relative to |a| (at least 1).
double RelErr(const double a[3], const double b[3]) {
  return Dist(a, b) / std::max(1.0, Norm(a));
}

TEST(ParametricPoint, LiesOnSurface) {
  for (const sovc_shape &s : Shapes())
    for (double p1 : kPhi1)
      for (double p2 : kPhi2) {
        double x[3];
        sovc_param_position(x, &s, p1, p2);
        EXPECT_NEAR(SpecF(s, x), 0.0, kSurfaceTol) << p1 << " " << p2;
      }
}

TEST(ParametricPoint, TangentsMatchFiniteDifferences) {
  for (const sovc_shape &s : Shapes())
    for (double p1 : kPhi1)
      for (double p2 : kPhi2) {
        double xp[3], xm[3], fd[3];
        sovc_surface_point sp;
        sovc_param_point(&sp, &s, p1, p2);
        const double *t1 = sp.t1, *t2 = sp.t2;
        sovc_param_position(xp, &s, p1 + kFdStep, p2);
        sovc_param_position(xm, &s, p1 - kFdStep, p2);
        for (int i = 0; i < 3; ++i) fd[i] = (xp[i] - xm[i]) / (2 * kFdStep);
        EXPECT_LT(RelErr(t1, fd), kFdTol) << p1 << " " << p2;
        sovc_param_position(xp, &s, p1, p2 + kFdStep);
        sovc_param_position(xm, &s, p1, p2 - kFdStep);
        for (int i = 0; i < 3; ++i) fd[i] = (xp[i] - xm[i]) / (2 * kFdStep);
        EXPECT_LT(RelErr(t2, fd), kFdTol) << p1 << " " << p2;
      }
}

// Central difference of the tangents t1 (k = 0) or t2 (k = 1) along phi_j.
void TangentFd(double fd[3], const sovc_shape &s, double p1, double p2, int k, int j) {
  sovc_surface_point p, m;
  const double h1 = j == 0 ? kFdStep : 0, h2 = j == 1 ? kFdStep : 0;
  sovc_param_point(&p, &s, p1 + h1, p2 + h2);
  sovc_param_point(&m, &s, p1 - h1, p2 - h2);
  const double *tp = k == 0 ? p.t1 : p.t2, *tm = k == 0 ? m.t1 : m.t2;
  for (int i = 0; i < 3; ++i) fd[i] = (tp[i] - tm[i]) / (2 * kFdStep);
}

TEST(ParametricPoint, SecondDerivativesMatchFiniteDifferences) {
  for (const sovc_shape &s : Shapes())
    for (double p1 : kPhi1)
      for (double p2 : kPhi2) {
        double fd[3];
        sovc_surface_point sp;
        sovc_param_point(&sp, &s, p1, p2);
        const double *x11 = sp.x11, *x12 = sp.x12, *x22 = sp.x22;
        TangentFd(fd, s, p1, p2, 0, 0);
        EXPECT_LT(RelErr(x11, fd), kFdTol) << p1 << " " << p2;
        TangentFd(fd, s, p1, p2, 0, 1);
        EXPECT_LT(RelErr(x12, fd), kFdTol) << p1 << " " << p2;
        TangentFd(fd, s, p1, p2, 1, 0);
        EXPECT_LT(RelErr(x12, fd), kFdTol) << p1 << " " << p2;
        TangentFd(fd, s, p1, p2, 1, 1);
        EXPECT_LT(RelErr(x22, fd), kFdTol) << p1 << " " << p2;
      }
}

// n is a unit vector along grad F, and stepping along it leaves the body.
void ExpectOutwardGradientNormal(const sovc_shape &s, double p1, double p2) {
  double g[3];
  sovc_surface_point sp;
  sovc_param_point(&sp, &s, p1, p2);
  const double *x = sp.x, *n = sp.n;
  EXPECT_NEAR(Norm(n), 1.0, kUnitTol);
  SpecGrad(g, s, x);
  const double gn = Norm(g);
  const double gu[3] = {g[0] / gn, g[1] / gn, g[2] / gn};
  EXPECT_LT(Dist(n, gu), kNormalTol) << p1 << " " << p2;
  const double out[3] = {x[0] + kOutwardStep * n[0], x[1] + kOutwardStep * n[1], x[2] + kOutwardStep * n[2]};
  const double in[3] = {x[0] - kOutwardStep * n[0], x[1] - kOutwardStep * n[1], x[2] - kOutwardStep * n[2]};
  EXPECT_GT(SpecF(s, out), 0.0);
  EXPECT_LT(SpecF(s, in), 0.0);
}

TEST(ParametricPoint, NormalIsOutwardGradient) {
  for (const sovc_shape &s : Shapes())
    for (double p1 : kPhi1)
      for (double p2 : kPhi2) ExpectOutwardGradientNormal(s, p1, p2);
}

TEST(ParametricPoint, NormalTendsToTheAxisAtPoles) {
  // Near the tip |x|, |y| are O(|z - a3|^(eps2/2)) and F grows like
  // |x|^(2/eps2) with 2/eps2 > 1: the tangent plane at the tip is horizontal
  // whatever the taper, and n tilts away from +-z like cos(phi2)^(2-eps2).
  for (const sovc_shape &s : Shapes())
    for (double sign : {-1.0, 1.0}) {
      double g[3];
      const double tip[3] = {0, 0, sign * s.a[2]};
      SpecGrad(g, s, tip);
      EXPECT_NEAR(g[0] / Norm(g), 0.0, kNormalTol);
      EXPECT_NEAR(g[1] / Norm(g), 0.0, kNormalTol);
      for (double p1 : kPhi1) {
        double previous = 2.0;
        for (double delta : {1e-2, 1e-4, 1e-8, 1e-12}) {
          sovc_surface_point sp;
          sovc_param_point(&sp, &s, p1, sign * (kPi / 2 - delta));
          const double *n = sp.n;
          const double off[3] = {n[0], n[1], n[2] - sign};
          EXPECT_LT(Norm(off), previous) << p1 << " " << delta;
          previous = Norm(off);
        }
      }
    }
}

TEST(ParametricPoint, FiniteOnAxesEquatorAndPoles) {
  const double p1s[] = {0, kPi / 2, kPi, -kPi / 2};
  const double p2s[] = {0, kPi / 2, -kPi / 2};
  const sovc_shape extremes[] = {MakeShape(1, 1, 1, 0.1, 0.1, 0.3, -0.3),
                                MakeShape(1, 1, 1, 1.9, 1.9, 0.1, 0.1)};
  for (const sovc_shape &s : extremes)
    for (double p1 : p1s)
      for (double p2 : p2s) {
        sovc_surface_point sp;
        sovc_param_point(&sp, &s, p1, p2);
        for (const double *row : {sp.x, sp.t1, sp.t2, sp.x11, sp.x12, sp.x22, sp.n})
          for (int i = 0; i < 3; ++i) EXPECT_TRUE(std::isfinite(row[i])) << p1 << " " << p2;
      }
}

// Angle difference wrapped into (-pi, pi].
double WrapDiff(double a, double b) { return std::remainder(a - b, 2 * kPi); }

TEST(ParametricAngles, RoundTripParamPoint) {
  for (const sovc_shape &s : Shapes())
    for (double p1 : kPhi1)
      for (double p2 : kPhi2) {
        double x[3], q1, q2;
        sovc_param_position(x, &s, p1, p2);
        sovc_param_angles(&q1, &q2, &s, x);
        EXPECT_NEAR(WrapDiff(q1, p1), 0.0, kAngleTol) << p1 << " " << p2;
        EXPECT_NEAR(q2, p2, kAngleTol) << p1 << " " << p2;
        EXPECT_GT(q1, -kPi);
        EXPECT_LE(q1, kPi);
      }
}

TEST(ParametricAngles, SameAnglesAlongTheRay) {
  for (const sovc_shape &s : Shapes())
    for (double p1 : kPhi1)
      for (double p2 : kPhi2)
        for (double scale : {0.3, 2.7}) {
          double x[3], q1, q2;
          sovc_param_position(x, &s, p1, p2);
          for (double &c : x) c *= scale;
          sovc_param_angles(&q1, &q2, &s, x);
          EXPECT_NEAR(WrapDiff(q1, p1), 0.0, kAngleTol) << p1 << " " << p2 << " " << scale;
          EXPECT_NEAR(q2, p2, kAngleTol) << p1 << " " << p2 << " " << scale;
        }
}

TEST(ParametricAngles, PolesAndCentre) {
  const sovc_shape s = MakeShape(1.1, 0.8, 0.9, 0.7, 0.5, 0.3, -0.2);
  const double up[3] = {0, 0, 2}, down[3] = {0, 0, -0.1}, centre[3] = {0, 0, 0};
  double q1, q2;
  sovc_param_angles(&q1, &q2, &s, up);
  EXPECT_EQ(q2, kPi / 2);
  sovc_param_angles(&q1, &q2, &s, down);
  EXPECT_EQ(q2, -kPi / 2);
  sovc_param_angles(&q1, &q2, &s, centre);
  EXPECT_EQ(q1, 0.0);
  EXPECT_EQ(q2, 0.0);
}

// ---- study methods -------------------------------------------------------

using Solver = int (*)(sovc_result *, const sovc_pair *, const double *, const double *,
                       const sovc_options *);

struct Method {
  Solver solve;
  sovc_method id;
  const char *name;
};

const Method kMethods[] = {{sovc_solve_parametric, SOVC_METHOD_PARAMETRIC, "parametric"},
                           {sovc_solve_ntb, SOVC_METHOD_NTB, "ntb"}};

sovc_options Options(int max_iterations = kMaxIterations) {
  sovc_options o{};
  o.method = SOVC_METHOD_PARAMETRIC;
  o.seed = SOVC_SEED_QUADTREE;
  o.tolerance = kSolveTolerance;
  o.max_iterations = max_iterations;
  return o;
}

// Solve from the quadtree seed.
int SolveSeeded(sovc_result *r, const Method &m, const sovc_shape &A, const sovc_pose &XA,
                const sovc_shape &B, const sovc_pose &XB, const sovc_options &o) {
  double phiA[2], phiB[2];
  sovc_quadtree_seed(phiA, phiB, sov_test::SolverPair(&A, &XA, &B, &XB));
  return m.solve(r, sov_test::SolverPair(&A, &XA, &B, &XB), phiA, phiB, &o);
}

// Answer r against the expected d, normal and witness points.
void ExpectSolved(const sovc_result &r, double d, const double n[3], const double pA[3],
                  const double pB[3]) {
  EXPECT_NEAR(r.d, d, kDistanceTol);
  EXPECT_LT(Dist(r.n, n), kWitnessTol);
  EXPECT_LT(Dist(r.pA, pA), kWitnessTol);
  EXPECT_LT(Dist(r.pB, pB), kWitnessTol);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.pB[i] - r.pA[i], r.d * r.n[i], kDistanceTol);
  EXPECT_LT(r.residual, kSolveTolerance);
  EXPECT_LE(r.iterations, kMaxIterations);
}

struct SpherePair {
  double rA, cA[3], rB, cB[3];
};

// Two posed spheres with their closed-form answer (SPEC: the penetration
// depth of spheres is rA + rB - |cB - cA| too).
struct SphereAnswer {
  sovc_shape A, B;
  sovc_pose XA, XB;
  double d, n[3], pA[3], pB[3];
};

SphereAnswer Spheres(const SpherePair &c) {
  SphereAnswer s;
  s.A = MakeShape(c.rA, c.rA, c.rA, 1, 1, 0, 0);
  s.B = MakeShape(c.rB, c.rB, c.rB, 1, 1, 0, 0);
  s.XA = PoseQ(0.9, 0.1, -0.3, 0.2, c.cA[0], c.cA[1], c.cA[2]);
  s.XB = PoseQ(-0.2, 0.7, 0.4, -0.5, c.cB[0], c.cB[1], c.cB[2]);
  const double L = Dist(c.cB, c.cA);
  s.d = L - c.rA - c.rB;
  for (int i = 0; i < 3; ++i) {
    s.n[i] = (c.cB[i] - c.cA[i]) / L;
    s.pA[i] = c.cA[i] + c.rA * s.n[i];
    s.pB[i] = c.cB[i] - c.rB * s.n[i];
  }
  return s;
}

TEST(ParametricSolve, SpheresApartMatchClosedForm) {
  const SpherePair cases[] = {
      {1.0, {0.3, -0.2, 0.5}, 0.5, {2.1, 0.7, -0.4}},
      {0.7, {-1.0, 0.4, 0.2}, 1.2, {-1.3, -0.1, 2.6}},  // mostly along z
      {1.0, {0, 0, 0}, 1.0, {0, 0, 2.000001}},           // nearly touching
  };
  for (const SpherePair &c : cases) {
    const SphereAnswer s = Spheres(c);
    for (const Method &m : kMethods) {
      SCOPED_TRACE(m.name);
      sovc_result r{};
      ASSERT_EQ(SolveSeeded(&r, m, s.A, s.XA, s.B, s.XB, Options()), SOV_OK);
      EXPECT_EQ(r.method, m.id);
      ExpectSolved(r, s.d, s.n, s.pA, s.pB);
    }
  }
}

// Overlapping pairs from the quadtree seed: it seeds on the intersection
// curve, where study Eq. 18 holds trivially (pB = pA) and undamped Newton on
// either system may wander to another common-normal pair. A method may fail
// there, but must say so; a success must be the answer.
void ExpectAnswerOrFailure(int status, const sovc_result &r, double d, const double n[3],
                           const double pA[3], const double pB[3]) {
  if (status != SOV_OK) {
    EXPECT_TRUE(status == SOV_ERR_SPURIOUS || status == SOV_ERR_NO_CONVERGENCE ||
                status == SOV_ERR_SINGULAR)
        << status;
    return;
  }
  ExpectSolved(r, d, n, pA, pB);
}

const SpherePair kOverlappingSpheres[] = {
    {1.0, {0.0, 0.0, 0.0}, 0.8, {0.9, -0.6, 0.9}},
    {0.6, {0.2, 0.1, -0.3}, 0.9, {0.5, 1.2, 0.1}},
};

TEST(ParametricSolve, OverlappingSpheresFromQuadtreeAnswerOrFail) {
  for (const SpherePair &c : kOverlappingSpheres) {
    const SphereAnswer s = Spheres(c);
    for (const Method &m : kMethods) {
      SCOPED_TRACE(m.name);
      sovc_result r{};
      const int status = SolveSeeded(&r, m, s.A, s.XA, s.B, s.XB, Options());
      ExpectAnswerOrFailure(status, r, s.d, s.n, s.pA, s.pB);
    }
  }
}

// Angles of the world point w on a posed shape, moved by (dphi1, dphi2).
void NearbyAngles(double phi[2], const sovc_shape &s, const sovc_pose &X, const double w[3],
                  double dphi1, double dphi2) {
  double l[3];
  sovc_to_local(l, &X, w);
  sovc_param_angles(&phi[0], &phi[1], &s, l);
  phi[0] += dphi1;
  phi[1] += dphi2;
}

TEST(ParametricSolve, OverlappingSpheresNearWitnessMatchClosedForm) {
  // Seeded near the witness points, both methods reach the penetration
  // answer, and the second-order test accepts it.
  const double kOffset = 0.05;  // radians
  for (const SpherePair &c : kOverlappingSpheres) {
    const SphereAnswer s = Spheres(c);
    double phiA[2], phiB[2];
    NearbyAngles(phiA, s.A, s.XA, s.pA, kOffset, -kOffset);
    NearbyAngles(phiB, s.B, s.XB, s.pB, -kOffset, kOffset);
    const sovc_options o = Options();
    for (const Method &m : kMethods) {
      SCOPED_TRACE(m.name);
      sovc_result r{};
      ASSERT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phiA, phiB, &o),
                SOV_OK);
      ExpectSolved(r, s.d, s.n, s.pA, s.pB);
    }
  }
}

TEST(ParametricSolve, ConcentricSpheresAnswerAnyAntipodalPair) {
  // Every antipodal pair is an answer, d = -(rA + rB): exact at the seed, so
  // no Newton step; the answer checks must not reject it.
  const sovc_shape A = MakeShape(0.7, 0.7, 0.7, 1, 1, 0, 0);
  const sovc_shape B = MakeShape(0.4, 0.4, 0.4, 1, 1, 0, 0);
  const sovc_pose XA = PoseQ(0.9, 0.1, -0.3, 0.2, 0.5, -1, 2), XB = PoseQ(1, 0, 0, 0, 0.5, -1, 2);
  double n[3], pA[3], pB[3], phiA[2], phiB[2];
  sovc_param_position(n, &A, 0.3, 0.2);
  for (int i = 0; i < 3; ++i) n[i] /= A.a[0];
  double nw[3];
  sovc_rotate(nw, XA.R, n);
  for (int i = 0; i < 3; ++i) {
    pA[i] = XA.p[i] + A.a[0] * nw[i];
    pB[i] = XB.p[i] - B.a[0] * nw[i];
  }
  NearbyAngles(phiA, A, XA, pA, 0, 0);
  NearbyAngles(phiB, B, XB, pB, 0, 0);
  const sovc_options o = Options();
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    sovc_result r{};
    ASSERT_EQ(m.solve(&r, sov_test::SolverPair(&A, &XA, &B, &XB), phiA, phiB, &o), SOV_OK);
    ExpectSolved(r, -(A.a[0] + B.a[0]), nw, pA, pB);
  }
}

TEST(ParametricSolve, Eq18HoldsOnTheIntersectionCurve) {
  // Unit spheres at x = 0 and x = 1 meet on the circle x = 1/2: A at
  // phi1 = pi/3 and B at phi1 = 2 pi/3 are the same point, every equation of
  // study Eq. 18 is 0, and the pair is not the answer.
  const sovc_shape A = MakeShape(1, 1, 1, 1, 1, 0, 0), B = MakeShape(1, 1, 1, 1, 1, 0, 0);
  const sovc_pose XA = PoseQ(1, 0, 0, 0, 0, 0, 0), XB = PoseQ(1, 0, 0, 0, 1, 0, 0);
  const double phiA[2] = {kPi / 3, 0}, phiB[2] = {2 * kPi / 3, 0};
  const sovc_options o = Options();
  sovc_result r{};
  EXPECT_EQ(sovc_solve_parametric(&r, sov_test::SolverPair(&A, &XA, &B, &XB), phiA, phiB, &o),
            SOV_ERR_SPURIOUS);
  EXPECT_EQ(r.iterations, 0);
}

// Ellipsoid support h(v) = v.p + |diag(a) R^T v| (closed form).
double EllipsoidSupport(const sovc_shape &s, const sovc_pose &X, const double v[3]) {
  double l[3];
  sovc_rotate_t(l, X.R, v);
  const double w[3] = {s.a[0] * l[0], s.a[1] * l[1], s.a[2] * l[2]};
  return v[0] * X.p[0] + v[1] * X.p[1] + v[2] * X.p[2] + Norm(w);
}

// Largest -(h_A(v) + h_B(-v)) over a latitude-longitude grid of directions.
double SampledSignedDistance(const sovc_shape &A, const sovc_pose &XA, const sovc_shape &B,
                             const sovc_pose &XB) {
  double best = -1e300;
  for (int i = 0; i <= 400; ++i)
    for (int j = 0; j < 800; ++j) {
      const double th = kPi * i / 400 - kPi / 2, ph = 2 * kPi * j / 800;
      const double v[3] = {std::cos(th) * std::cos(ph), std::cos(th) * std::sin(ph), std::sin(th)};
      const double mv[3] = {-v[0], -v[1], -v[2]};
      best = std::max(best, -(EllipsoidSupport(A, XA, v) + EllipsoidSupport(B, XB, mv)));
    }
  return best;
}

TEST(ParametricSolve, CoaxialEllipsoidsMatchTipGap) {
  // Common axis: local x (tips on the equator) or local z (tips at the
  // poles, where the angles are singular and Eq. 18 converges only linearly).
  const sovc_shape A = MakeShape(1.0, 0.6, 0.8, 1, 1, 0, 0), B = MakeShape(0.5, 0.9, 0.7, 1, 1, 0, 0);
  const sovc_pose Q = PoseQ(0.8, -0.3, 0.5, 0.1, 0.4, -0.7, 0.2);
  const double c = std::cos(0.7), s = std::sin(0.7);  // B also turned about the axis
  const double Rx[9] = {1, 0, 0, 0, c, -s, 0, s, c}, Rz[9] = {c, -s, 0, s, c, 0, 0, 0, 1};
  for (int k : {0, 2}) {
    for (double excess : {0.5, -0.05}) {  // apart, overlapping
      const double L = A.a[k] + B.a[k] + excess;
      sovc_pose XB{};
      MatMul(XB.R, Q.R, k == 0 ? Rx : Rz);
      const double axis[3] = {Q.R[k], Q.R[3 + k], Q.R[6 + k]};  // world local axis k
      double pA[3], pB[3];
      for (int i = 0; i < 3; ++i) {
        XB.p[i] = Q.p[i] + L * axis[i];
        pA[i] = Q.p[i] + A.a[k] * axis[i];
        pB[i] = XB.p[i] - B.a[k] * axis[i];
      }
      // The tip gap is the SPEC answer: no sampled direction does better.
      EXPECT_LE(SampledSignedDistance(A, Q, B, XB), excess + kDistanceTol);
      for (const Method &m : kMethods) {
        SCOPED_TRACE(m.name);
        sovc_result r{};
        const int status = SolveSeeded(&r, m, A, Q, B, XB, Options());
        if (excess > 0) {
          ASSERT_EQ(status, SOV_OK) << k;
          ExpectSolved(r, excess, axis, pA, pB);
        } else {
          ExpectAnswerOrFailure(status, r, excess, axis, pA, pB);
        }
      }
    }
  }
}

// Witness points on their surfaces (independent F) with normals +-n.
void ExpectCommonNormal(const sovc_result &r, const sovc_shape &A, const sovc_pose &XA,
                        const sovc_shape &B, const sovc_pose &XB) {
  double lA[3], lB[3], gA[3], gB[3], wA[3], wB[3];
  sovc_to_local(lA, &XA, r.pA);
  sovc_to_local(lB, &XB, r.pB);
  EXPECT_NEAR(SpecF(A, lA), 0.0, kDistanceTol);
  EXPECT_NEAR(SpecF(B, lB), 0.0, kDistanceTol);
  SpecGrad(gA, A, lA);
  SpecGrad(gB, B, lB);
  sovc_rotate(wA, XA.R, gA);
  sovc_rotate(wB, XB.R, gB);
  const double nA = Norm(wA), nB = Norm(wB);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(wA[i] / nA, r.n[i], kNormalTol);
    EXPECT_NEAR(wB[i] / nB, -r.n[i], kNormalTol);
  }
}

// Convex superovoids (equal tapers well inside the SPEC bounds), apart.
struct TaperedPair {
  sovc_shape A = MakeShape(1.0, 0.8, 0.9, 0.7, 0.9, 0.2, 0.2);
  sovc_shape B = MakeShape(0.7, 0.9, 0.6, 1.2, 0.8, -0.3, -0.3);
  sovc_pose XA = PoseQ(0.6, 0.2, -0.7, 0.3, 0.1, 0.2, -0.3);
  sovc_pose XB = PoseQ(0.3, -0.8, 0.1, 0.5, 3.3, 0.9, -0.6);
};

TEST(ParametricSolve, TaperedPairSatisfiesCommonNormal) {
  const TaperedPair t;
  sovc_result r[2] = {};
  for (int k = 0; k < 2; ++k) {
    SCOPED_TRACE(kMethods[k].name);
    ASSERT_EQ(SolveSeeded(&r[k], kMethods[k], t.A, t.XA, t.B, t.XB, Options()), SOV_OK);
    // Apart convex bodies: opposite normals and d > 0 make d the distance.
    EXPECT_GT(r[k].d, 0.0);
    ExpectCommonNormal(r[k], t.A, t.XA, t.B, t.XB);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(r[k].pB[i] - r[k].pA[i], r[k].d * r[k].n[i], kDistanceTol);
  }
  EXPECT_NEAR(r[0].d, r[1].d, kDistanceTol);
}

TEST(ParametricSolve, NewtonConvergesQuadratically) {
  // Residual after k steps (cap k, unreachable tolerance). A wrong analytic
  // Jacobian would make the rate linear, r_{k+1} ~ rho r_k.
  const double kQuadraticFactor = 100;  // r_{k+1} <= C r_k^2 once r_k < 1e-2
  const double kAsymptotic = 1e-2;
  const double kRoundoffFloor = 1e-13;
  const TaperedPair t;
  double phiA[2], phiB[2];
  sovc_quadtree_seed(phiA, phiB, sov_test::SolverPair(&t.A, &t.XA, &t.B, &t.XB));
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    double previous = -1;
    for (int k = 0; k <= 8; ++k) {
      sovc_options o = Options(k);
      o.tolerance = 1e-300;
      sovc_result r{};
      m.solve(&r, sov_test::SolverPair(&t.A, &t.XA, &t.B, &t.XB), phiA, phiB, &o);
      if (previous >= 0 && previous < kAsymptotic) {
        EXPECT_LE(r.residual, kQuadraticFactor * previous * previous + kRoundoffFloor) << k;
      }
      previous = r.residual;
    }
    EXPECT_LT(previous, kSolveTolerance);
  }
}

TEST(ParametricSolve, SwappingBodiesFlipsNormal) {
  const TaperedPair t;
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    sovc_result ab{}, ba{};
    ASSERT_EQ(SolveSeeded(&ab, m, t.A, t.XA, t.B, t.XB, Options()), SOV_OK);
    ASSERT_EQ(SolveSeeded(&ba, m, t.B, t.XB, t.A, t.XA, Options()), SOV_OK);
    EXPECT_NEAR(ab.d, ba.d, kDistanceTol);
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(ab.n[i], -ba.n[i], kWitnessTol);
      EXPECT_NEAR(ab.pA[i], ba.pB[i], kWitnessTol);
    }
  }
}

TEST(ParametricSolve, RigidMotionOfBothKeepsDistance) {
  const TaperedPair t;
  const sovc_pose M = PoseQ(0.4, 0.5, -0.6, 0.2, -1.5, 2.0, 0.7);
  sovc_pose XA2{}, XB2{};
  MatMul(XA2.R, M.R, t.XA.R);
  MatMul(XB2.R, M.R, t.XB.R);
  sovc_to_world(XA2.p, &M, t.XA.p);
  sovc_to_world(XB2.p, &M, t.XB.p);
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    sovc_result r1{}, r2{};
    ASSERT_EQ(SolveSeeded(&r1, m, t.A, t.XA, t.B, t.XB, Options()), SOV_OK);
    ASSERT_EQ(SolveSeeded(&r2, m, t.A, XA2, t.B, XB2, Options()), SOV_OK);
    EXPECT_NEAR(r1.d, r2.d, kDistanceTol);
    double n1[3];
    sovc_rotate(n1, M.R, r1.n);
    EXPECT_LT(Dist(n1, r2.n), kWitnessTol);
  }
}

// Two unit spheres on the x axis, centres 3 apart, no rotation.
struct UnitSpheres {
  sovc_shape A = MakeShape(1, 1, 1, 1, 1, 0, 0);
  sovc_shape B = MakeShape(1, 1, 1, 1, 1, 0, 0);
  sovc_pose XA = PoseQ(1, 0, 0, 0, 0, 0, 0);
  sovc_pose XB = PoseQ(1, 0, 0, 0, 3, 0, 0);
};

TEST(ParametricSolve, IterationCapReportsNoConvergence) {
  const UnitSpheres s;
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    for (int cap : {0, 1}) {
      sovc_result r{};
      EXPECT_EQ(SolveSeeded(&r, m, s.A, s.XA, s.B, s.XB, Options(cap)), SOV_ERR_NO_CONVERGENCE);
      EXPECT_EQ(r.iterations, cap);
      EXPECT_GE(r.residual, kSolveTolerance);
      EXPECT_EQ(r.method, m.id);
    }
  }
}

TEST(ParametricSolve, NearSideFarSidePairIsSpurious) {
  // A's near side (+x) with B's far side (+x): the normals agree.
  const UnitSpheres s;
  const double phiA[2] = {0.1, 0.05}, phiB[2] = {0.15, -0.05};
  const sovc_options o = Options();
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    sovc_result r{};
    EXPECT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phiA, phiB, &o),
              SOV_ERR_SPURIOUS);
    EXPECT_NEAR(r.pB[0], 4.0, kWitnessTol);
  }
}

TEST(ParametricSolve, FarSidesPairIsSpurious) {
  // Both far sides: normals opposite and pB - pA parallel, but d = -5 is a
  // minimum over directions, not the maximum (the answer is d = 1).
  const UnitSpheres s;
  const double phiA[2] = {kPi - 0.1, 0.05}, phiB[2] = {0.1, -0.05};
  const sovc_options o = Options();
  for (const Method &m : kMethods) {
    SCOPED_TRACE(m.name);
    sovc_result r{};
    EXPECT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phiA, phiB, &o),
              SOV_ERR_SPURIOUS);
    EXPECT_NEAR(r.d, -5.0, kDistanceTol);
  }
}

TEST(ParametricSolve, RejectsNullArguments) {
  const UnitSpheres s;
  const double phi[2] = {0, 0};
  const sovc_options o = Options();
  sovc_result r{};
  for (const Method &m : kMethods) {
    EXPECT_EQ(m.solve(nullptr, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phi, phi, &o),
              SOV_ERR_NULL);
    EXPECT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phi, phi, nullptr),
              SOV_ERR_NULL);
  }
}

TEST(ParametricSolve, RejectsBadOptions) {
  const UnitSpheres s;
  const double phi[2] = {0, 0};
  sovc_options bad_tol = Options(), bad_cap = Options();
  bad_tol.tolerance = 0;
  bad_cap.max_iterations = -1;
  sovc_result r{};
  for (const Method &m : kMethods) {
    EXPECT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phi, phi, &bad_tol),
              SOV_ERR_OPTION);
    EXPECT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phi, phi, &bad_cap),
              SOV_ERR_OPTION);
  }
}

TEST(ParametricSolve, RejectsNonFiniteSeed) {
  const UnitSpheres s;
  const double phi[2] = {0, 0}, nan_phi[2] = {std::nan(""), 0};
  const sovc_options o = Options();
  sovc_result r{};
  for (const Method &m : kMethods)
    EXPECT_EQ(m.solve(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), phi, nan_phi, &o),
              SOV_ERR_NONFINITE);
}

}  // namespace
