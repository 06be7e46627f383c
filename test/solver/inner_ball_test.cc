// Tests of the overlap certificate by inner balls (solver/inner_ball.c)
// against independent computations: second derivatives of the SPEC implicit
// function by finite differences of its long-double gradient, and the SPEC
// implicit function sampled over the balls the certificate trusts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>

extern "C" {
#include "solver/inner_ball.h"
#include "solver/local.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"
#include "solver/shape_init.h"
#include "solver_api.h"
}

#include "spec_reference.h"

namespace {

using sov_spec::Param;
using sov_spec::SpecF;
using sov_spec::SpecImplicitLong;

using sov_spec::kPi;

// A valid shape drawn from the stress battery's ranges (dented draws
// redrawn).
sovc_shape RandomUndentedShape(std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> size(0.2, 3.0), eps(0.1, 1.9), taper(-0.5, 0.5);
  sovc_shape s;
  for (;;) {
    const double p[7] = {size(rng), size(rng),  size(rng), eps(rng),
                         eps(rng),  taper(rng), taper(rng)};
    if (sovc_shape_init(&s, p) == SOV_OK) return s;
  }
}

// Hessian (row-major) at local x by central differences of the SPEC
// gradient with step h.
void FiniteHessian(double H[9], const sovc_shape &s, const double x[3], double h) {
  for (int j = 0; j < 3; ++j) {
    double xp[3] = {x[0], x[1], x[2]}, xm[3] = {x[0], x[1], x[2]};
    xp[j] += h, xm[j] -= h;
    long double F, gp[3], gm[3];
    SpecImplicitLong(&F, gp, s, xp);
    SpecImplicitLong(&F, gm, s, xm);
    for (int i = 0; i < 3; ++i) H[3 * i + j] = static_cast<double>((gp[i] - gm[i]) / (2 * h));
  }
}

// Every entry of the Hessian at points of the box (its corners, centre and
// random points) lies in its range, and u^T H u below the eigenvalue bound.
TEST(InnerBall, HessianRangesCoverTheBox) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  int finite = 0;
  for (int k = 0; k < 400; ++k) {
    const sovc_shape s = RandomUndentedShape(rng);
    double lo[3], hi[3], Hlo[9], Hhi[9];
    for (int i = 0; i < 3; ++i) {
      const double c = (2 * unit(rng) - 1) * s.a[i], w = 0.3 * unit(rng) * s.a[i];
      lo[i] = c - w, hi[i] = c + w;
    }
    if (!sovc_hessian_ranges(Hlo, Hhi, &s, lo, hi)) continue;
    const double M = sovc_hessian_bound(&s, lo, hi);
    ASSERT_FALSE(std::isnan(M)) << "shape " << k;
    if (!std::isfinite(M)) continue;
    ++finite;
    const double h = 1e-6 * std::fmin(s.a[0], std::fmin(s.a[1], s.a[2]));
    for (int j = 0; j < 40; ++j) {
      double x[3], u[3], H[9];
      // Points h inside the box, so the differences stay where the ranges hold.
      for (int i = 0; i < 3; ++i)
        x[i] = lo[i] + h +
               (j < 8    ? (j >> i & 1)
                : j == 8 ? 0.5
                         : unit(rng)) *
                   (hi[i] - lo[i] - 2 * h);
      FiniteHessian(H, s, x, h);
      for (int e = 0; e < 9; ++e) {
        const double slack =
            1e-6 * (std::fabs(H[e]) + std::fabs(Hlo[e]) + std::fabs(Hhi[e])) + 1e-6;
        EXPECT_GE(H[e], Hlo[e] - slack) << "shape " << k << " point " << j << " entry " << e;
        EXPECT_LE(H[e], Hhi[e] + slack) << "shape " << k << " point " << j << " entry " << e;
      }
      for (double &v : u) v = normal(rng);
      const double nu = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      double q = 0;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) q += u[a] * H[3 * a + b] * u[b] / (nu * nu);
      EXPECT_LE(q, M + 1e-6 * (std::fabs(M) + std::fabs(q)) + 1e-6)
          << "shape " << k << " point " << j;
    }
  }
  EXPECT_GT(finite, 100);  // the bound is finite on most smooth boxes
}

// An ellipsoid's Hessian is constant (diag(2 / a_i^2)): its ranges over any
// box are that point, and match the SPEC's differences anywhere in it.
TEST(InnerBall, HessianRangesOfEllipsoidsAreTheirConstantHessian) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int k = 0; k < 100; ++k) {
    const double p[7] = {0.2 + 2.8 * unit(rng), 0.2 + 2.8 * unit(rng), 0.2 + 2.8 * unit(rng), 1, 1,
                         0, 0};
    sovc_shape s;
    ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
    double lo[3], hi[3], Hlo[9], Hhi[9], x[3], H[9];
    for (int i = 0; i < 3; ++i) {
      const double c = (2 * unit(rng) - 1) * s.a[i], w = 0.3 * unit(rng) * s.a[i];
      lo[i] = c - w, hi[i] = c + w;
      x[i] = c + (2 * unit(rng) - 1) * w;
    }
    ASSERT_TRUE(sovc_hessian_ranges(Hlo, Hhi, &s, lo, hi)) << "ellipsoid " << k;
    FiniteHessian(H, s, x, 1e-6 * std::fmin(s.a[0], std::fmin(s.a[1], s.a[2])));
    for (int e = 0; e < 9; ++e) {
      EXPECT_EQ(Hlo[e], Hhi[e]) << "ellipsoid " << k << " entry " << e;
      EXPECT_NEAR(H[e], Hhi[e], 1e-6 * (std::fabs(Hhi[e]) + 1)) << "ellipsoid " << k << " entry " << e;
    }
  }
}

// Worst SPEC F / |grad F| over samples of the sphere of the ball of radius
// r tangent at local point x of s, beyond x's own offset from the surface
// (the solver's witnesses lie on it to its tolerance): not positive, to
// rounding, for a ball inside.
double WorstOnBall(const sovc_shape &s, const double x[3], double r, int samples) {
  long double F, g[3];
  SpecImplicitLong(&F, g, s, x);
  const long double gn = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  double c[3];
  for (int i = 0; i < 3; ++i) c[i] = x[i] - r * static_cast<double>(g[i] / gn);
  double worst = -INFINITY;
  for (int j = 0; j < samples; ++j) {  // Fibonacci sphere
    const double z = 1 - 2 * (j + 0.5) / samples, rho = std::sqrt(1 - z * z),
                 ph = j * 2.399963229728653;
    const double y[3] = {c[0] + r * rho * std::cos(ph), c[1] + r * rho * std::sin(ph),
                         c[2] + r * z};
    worst = std::fmax(worst, SpecF(s, y) / static_cast<double>(gn));
  }
  return worst - std::fabs(static_cast<double>(F / gn));
}

// A ball the test trusts lies in the body: the SPEC implicit function is
// not positive anywhere on its sphere (to rounding), over random surface
// points of random shapes.
TEST(InnerBall, FittingBallsLieInside) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> unit(0, 1);
  int fitted = 0;
  for (int k = 0; k < 600; ++k) {
    const sovc_shape s = RandomUndentedShape(rng);
    double x[3];
    Param(x, s, kPi * (2 * unit(rng) - 1), kPi * (unit(rng) - 0.5));
    const double r =
        std::pow(10.0, -2 + 2 * unit(rng)) * std::fmin(s.a[0], std::fmin(s.a[1], s.a[2]));
    if (!sovc_inner_ball_fits(&s, x, r)) continue;
    ++fitted;
    EXPECT_LE(WorstOnBall(s, x, r, 2000), 1e-12 * s.radius) << "shape " << k << " radius " << r;
  }
  EXPECT_GT(fitted, 150);
}

// The disks a cap proof trusts lie in the body: over random surface points
// of random shapes, cap angles, radius limits and intervals of tangent
// directions, the SPEC implicit function is not positive (to rounding) at
// the disks' points within the cap. Every other shape is an ellipsoid,
// whose Hessian the interval bounds hold exactly: there a disk as large as
// the surface's radius of curvature at a flat side leaves the body, unless
// the bound follows the segments' directions away from the tangent.
TEST(InnerBall, CapDisksLieInside) {
  std::mt19937_64 rng(14);
  std::uniform_real_distribution<double> unit(0, 1);
  int fitted = 0;
  for (int k = 0; k < 1500; ++k) {
    sovc_shape s = RandomUndentedShape(rng);
    if (k % 2) {
      const double p[7] = {s.a[0], s.a[1], s.a[2], 1, 1, 0, 0};
      ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
    }
    double x[3];
    Param(x, s, kPi * (2 * unit(rng) - 1), kPi * (unit(rng) - 0.5));
    long double F, g[3];
    SpecImplicitLong(&F, g, s, x);
    const long double gn = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    const double m[3] = {static_cast<double>(g[0] / gn), static_cast<double>(g[1] / gn),
                         static_cast<double>(g[2] / gn)};
    double l1[3] = {-m[1], m[0], 0};
    if (std::fabs(m[2]) > 0.9) l1[0] = 0, l1[1] = -m[2], l1[2] = m[1];
    const double ln = std::sqrt(l1[0] * l1[0] + l1[1] * l1[1] + l1[2] * l1[2]);
    for (double &c : l1) c /= ln;
    const double l2[3] = {m[1] * l1[2] - m[2] * l1[1], m[2] * l1[0] - m[0] * l1[2],
                          m[0] * l1[1] - m[1] * l1[0]};
    const double theta = std::pow(10.0, -2.3 + 2.2 * unit(rng));
    const double rmax =
        std::pow(10.0, -2 + 2.5 * unit(rng)) * std::fmin(s.a[0], std::fmin(s.a[1], s.a[2]));
    const double psi = kPi * unit(rng), half = unit(rng) < 0.5 ? 0 : 0.3 * unit(rng);
    const double r = sovc_cap_disk_radius(&s, x, l1, l2, rmax, theta, psi, half);
    ASSERT_LE(r, rmax);
    if (!(r > 0)) continue;
    ++fitted;
    double worst = -INFINITY;
    for (int j = 0; j < 400; ++j) {
      const double a = psi + half * (2 * unit(rng) - 1), phi = theta * (j % 4 ? unit(rng) : 1);
      double y[3];
      for (int i = 0; i < 3; ++i) {
        const double t = std::cos(a) * l1[i] + std::sin(a) * l2[i];
        y[i] = x[i] - r * m[i] + r * (std::cos(phi) * m[i] + std::sin(phi) * t);
      }
      worst = std::fmax(worst, SpecF(s, y) / static_cast<double>(gn));
    }
    EXPECT_LE(worst, 1e-12 * s.radius) << "shape " << k << " radius " << r << " cap " << theta;
  }
  EXPECT_GT(fitted, 500);
}

// An ellipsoid (3, 1, 1.5) and a unit sphere, both at the identity
// rotation, the sphere centred at c.
struct EllipsoidAndSphere {
  sovc_shape A, B;
  sovc_pose XA, XB;
  explicit EllipsoidAndSphere(const double c[3]) {
    const double pa[7] = {3, 1, 1.5, 1, 1, 0, 0}, pb[7] = {1, 1, 1, 1, 1, 0, 0};
    const double q[4] = {1, 0, 0, 0}, origin[3] = {0, 0, 0};
    EXPECT_EQ(sovc_shape_init(&A, pa), SOV_OK);
    EXPECT_EQ(sovc_shape_init(&B, pb), SOV_OK);
    EXPECT_EQ(sovc_pose_from_quat(&XA, q, origin), SOV_OK);
    EXPECT_EQ(sovc_pose_from_quat(&XB, q, c), SOV_OK);
  }
};

// A shallow overlap at the ellipsoid's side: both balls (radius near 1)
// dwarf the depth, so the answer is proved without the search.
TEST(InnerBall, ProvesAShallowOverlap) {
  const double c[3] = {0, 1.8, 0};
  const EllipsoidAndSphere s(c);
  sovc_result r;
  ASSERT_EQ(sov_test::Distance(&r, &s.A, &s.XA, &s.B, &s.XB, nullptr, nullptr), SOV_OK);
  ASSERT_NEAR(r.d, -0.2, 1e-12);
  EXPECT_EQ(sovc_inner_balls_certify(&r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), 1e-10), 1);
}

// Found by an audit of the solver's loops: the ball and cap searches
// stepped their radius down by comparing it with a fraction of the depth,
// which a subnormal or infinite depth never lets it pass (a hang, reached
// through these internal calls only). Each call must return, and a zero-
// or infinite-depth overlap is no proof here: the witness of a pointy body
// (eps1 1.5 at (0, 1, 0)) holds no ball and no cap.
TEST(InnerBall, SubnormalAndInfiniteDepthsEndTheSearches) {
  const double p[7] = {1, 1, 1, 1.5, 1, 0, 0};
  sovc_shape A;
  ASSERT_EQ(sovc_shape_init(&A, p), SOV_OK);
  const sovc_pose XA = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
  const sovc_pose XB = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 2, 0}};  // B's (0, -1, 0) on A's (0, 1, 0)
  for (const double depth : {5e-324, 1e-323, 4e-323, double(INFINITY)}) {
    sovc_result r{};
    r.d = -depth;
    r.n[1] = 1;
    r.pA[1] = r.pB[1] = 1;
    double cap_cos = 0;
    EXPECT_EQ(sovc_inner_balls_certify(&r, sov_test::SolverPair(&A, &XA, &A, &XB), 1e-12), 0)
        << depth;
    EXPECT_EQ(sovc_proved_cap(&cap_cos, &r, sov_test::SolverPair(&A, &XA, &A, &XB), 1e-12), 0)
        << depth;
  }
}

// The sphere on the ellipsoid's axis at x = 2: the tips' common normal
// (n = +x, depth 2) is a common-normal pair but not the answer (pushing the
// sphere out sideways is shallower); no ball at the tip (radius of
// curvature 1/3) can prove it, and the certificate must refuse it.
TEST(InnerBall, RefusesACommonNormalPairThatIsNotTheAnswer) {
  const double c[3] = {2, 0, 0};
  const EllipsoidAndSphere s(c);
  sovc_result global;
  ASSERT_EQ(sov_test::Distance(&global, &s.A, &s.XA, &s.B, &s.XB, nullptr, nullptr), SOV_OK);
  ASSERT_GT(global.d, -2 + 0.1);
  sovc_result tip = global;
  tip.d = -2;
  const double n[3] = {1, 0, 0}, tA[3] = {3, 0, 0}, tB[3] = {1, 0, 0};
  for (int i = 0; i < 3; ++i) tip.n[i] = n[i], tip.pA[i] = tA[i], tip.pB[i] = tB[i];
  EXPECT_EQ(sovc_inner_balls_certify(&tip, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), 1e-10),
            0);
}

// The SPEC's objective at world direction v, from the core's support.
double Objective(const sovc_shape &A, const sovc_pose &XA, const sovc_shape &B, const sovc_pose &XB,
                 const double v[3]) {
  sovc_support_eval a{}, b{};
  const double mv[3] = {-v[0], -v[1], -v[2]};
  a.z = b.z = NAN;
  sovc_posed_support(&a, &A, &XA, v);
  sovc_posed_support(&b, &B, &XB, mv);
  return -(a.h + b.h);
}

// The tips' pair of the ellipsoid and a sphere on its axis at x = 4 - depth:
// the ellipsoid's radii of curvature at its tip are 1/3 (y) and 3/4 (z),
// the sphere's 1, so the pair is a local optimum exactly when the depth is
// below 1/3 + 1. The cap proof must hold the pair's curvature to that: it
// proves shallow pairs and refuses every pair deeper than 4/3.
TEST(InnerBall, ProvesCapsAtTheTipsExactlyWhereTheyAreOptima) {
  for (double depth = 0.2; depth < 1.95; depth += 0.05) {
    const double c[3] = {4 - depth, 0, 0};
    const EllipsoidAndSphere s(c);
    sovc_result tip{};
    tip.d = -depth;
    const double n[3] = {1, 0, 0}, tA[3] = {3, 0, 0}, tB[3] = {3 - depth, 0, 0};
    for (int i = 0; i < 3; ++i) tip.n[i] = n[i], tip.pA[i] = tA[i], tip.pB[i] = tB[i];
    double cos_cap = NAN;
    const int proved =
        sovc_proved_cap(&cos_cap, &tip, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), 1e-10);
    if (depth > 4.0 / 3) {
      EXPECT_EQ(proved, 0) << "depth " << depth;
    }
    if (depth < 1.2) {
      EXPECT_EQ(proved, 1) << "depth " << depth;
    }
    if (!proved) continue;
    const double theta = std::acos(cos_cap);
    for (double f : {1.0, 0.5, 0.1})
      for (int m = 0; m < 24; ++m) {
        const double phi = f * theta, psi = 2 * kPi * m / 24;
        const double w[3] = {std::cos(phi), std::sin(phi) * std::cos(psi),
                             std::sin(phi) * std::sin(psi)};
        EXPECT_LE(Objective(s.A, s.XA, s.B, s.XB, w), tip.d + 1e-10)
            << "depth " << depth << " angle " << phi;
      }
  }
}

// Two equal ellipsoids (1, 4, 1), B straight above A, paired at A's top and
// B's bottom along +z with depth d: the radii of curvature there are 1
// along x and 16 along y in both, so the pair is a local optimum exactly
// when d < 1 + 1. The disks along y are wide and serve the directions near
// x only by their share cos^2 of the angle: any larger share (|cos|, say)
// would prove pairs deeper than 2.
TEST(InnerBall, ProvesCapsBetweenElongatedBodiesExactlyWhereTheyAreOptima) {
  const double shape[7] = {1, 4, 1, 1, 1, 0, 0}, q[4] = {1, 0, 0, 0}, origin[3] = {0, 0, 0};
  sovc_shape A, B;
  ASSERT_EQ(sovc_shape_init(&A, shape), SOV_OK);
  ASSERT_EQ(sovc_shape_init(&B, shape), SOV_OK);
  for (double depth = 0.5; depth < 3.05; depth += 0.1) {
    const double c[3] = {0, 0, 2 - depth};
    sovc_pose XA, XB;
    ASSERT_EQ(sovc_pose_from_quat(&XA, q, origin), SOV_OK);
    ASSERT_EQ(sovc_pose_from_quat(&XB, q, c), SOV_OK);
    sovc_result pair{};
    pair.d = -depth;
    const double n[3] = {0, 0, 1}, tA[3] = {0, 0, 1}, tB[3] = {0, 0, 1 - depth};
    for (int i = 0; i < 3; ++i) pair.n[i] = n[i], pair.pA[i] = tA[i], pair.pB[i] = tB[i];
    double cos_cap = NAN;
    const int proved =
        sovc_proved_cap(&cos_cap, &pair, sov_test::SolverPair(&A, &XA, &B, &XB), 1e-10);
    if (depth > 2) {
      EXPECT_EQ(proved, 0) << "depth " << depth;
    }
    if (depth < 1.8) {
      EXPECT_EQ(proved, 1) << "depth " << depth;
    }
  }
}

// Local optima, not only the global one, of random overlapping pairs:
// polishes from 26 directions each. Wherever a cap is proved around one, no
// direction sampled in it (rings from its edge down to 1e-3 of its angle)
// has a larger objective. Saddles and the optima of other basins that a
// wrong proof would cover show up at the cap's edge, where they exceed the
// tolerance by orders of magnitude.
TEST(InnerBall, ProvedCapsHoldAtLocalOptima) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  const sovc_options options = sov_test::DefaultOptions();
  const sovc_newton_config cfg = sovc_chart_config(&options);
  int proved = 0, local_only = 0;
  for (int k = 0; k < 60; ++k) {
    const sovc_shape A = RandomUndentedShape(rng), B = RandomUndentedShape(rng);
    double q[4], c[3];
    for (double &x : q) x = normal(rng);
    const double qn = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (double &x : q) x /= qn;
    for (double &x : c) x = 0.5 * A.radius * (2 * unit(rng) - 1);
    const double identity[4] = {1, 0, 0, 0}, origin[3] = {0, 0, 0};
    sovc_pose XA, XB;
    ASSERT_EQ(sovc_pose_from_quat(&XA, identity, origin), SOV_OK);
    ASSERT_EQ(sovc_pose_from_quat(&XB, q, c), SOV_OK);
    sovc_result global;
    if (sov_test::Distance(&global, &A, &XA, &B, &XB, nullptr, nullptr) != SOV_OK || global.d >= 0)
      continue;
    const double tol = 1e-9 * (A.radius + B.radius);
    for (int j = 0; j < 26; ++j) {
      const double v0[3] = {static_cast<double>(j % 3) - 1, static_cast<double>(j / 3 % 3) - 1,
                            static_cast<double>(j / 9) - 1 + (j >= 13)};
      const double vn = std::sqrt(v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2]);
      const double v[3] = {v0[0] / vn, v0[1] / vn, v0[2] / vn}, mv[3] = {-v[0], -v[1], -v[2]};
      sovc_support_eval a{}, b{};
      a.z = b.z = NAN;
      sovc_posed_support(&a, &A, &XA, v);
      sovc_posed_support(&b, &B, &XB, mv);
      sovc_result r{};
      int have = 0;
      sovc_local_start at{};
      std::copy(v, v + 3, at.v);
      std::copy(a.p, a.p + 3, at.pA);
      std::copy(b.p, b.p + 3, at.pB);
      at.lb = -(a.h + b.h);
      if (sovc_solve_local(&r, &have, sov_test::SolverPair(&A, &XA, &B, &XB), &at, &cfg, 0,
                           nullptr) != SOV_OK ||
          !(r.d < 0))
        continue;
      double cos_cap;
      if (!sovc_proved_cap(&cos_cap, &r, sov_test::SolverPair(&A, &XA, &B, &XB),
                           sovc_value_tolerance(&r)))
        continue;
      ++proved;
      if (r.d < global.d - 1e-6) ++local_only;
      const double theta = std::acos(cos_cap);
      double t[3] = {-r.n[1], r.n[0], 0};
      if (std::fabs(r.n[2]) > 0.9) t[0] = 0, t[1] = -r.n[2], t[2] = r.n[1];
      const double tn = std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
      for (double &x : t) x /= tn;
      const double b2[3] = {r.n[1] * t[2] - r.n[2] * t[1], r.n[2] * t[0] - r.n[0] * t[2],
                            r.n[0] * t[1] - r.n[1] * t[0]};
      double worst = -INFINITY;
      for (double f : {1.0, 0.7, 0.4, 0.1, 0.01, 0.001})
        for (int m = 0; m < 24; ++m) {
          const double phi = f * theta, psi = 2 * kPi * m / 24;
          double w[3];
          for (int i = 0; i < 3; ++i)
            w[i] = std::cos(phi) * r.n[i] +
                   std::sin(phi) * (std::cos(psi) * t[i] + std::sin(psi) * b2[i]);
          worst = std::fmax(worst, Objective(A, XA, B, XB, w) - r.d);
        }
      EXPECT_LE(worst, tol) << "pair " << k << " start " << j << " cap " << theta;
    }
  }
  EXPECT_GT(proved, 100);
  EXPECT_GT(local_only, 5);
}

// A random unit quaternion q and a random unit vector u (normal draws,
// normalised: uniform on their spheres).
void RandomTurnAndDirection(std::mt19937_64 &rng, double q[4], double u[3]) {
  std::normal_distribution<double> normal(0, 1);
  for (int i = 0; i < 4; ++i) q[i] = normal(rng);
  const double qn = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (int i = 0; i < 4; ++i) q[i] /= qn;
  for (int i = 0; i < 3; ++i) u[i] = normal(rng);
  const double un = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
  for (int i = 0; i < 3; ++i) u[i] /= un;
}

// Balls kept for a warm start's cache prove the answers of the pair moved
// by ever larger steps only while they hold: wherever they prove one, both
// lie in their bodies at its witnesses (sampled SPEC F) and no direction
// sampled around the sphere beats its d; the larger moves carry the
// witnesses out of the balls' boxes and are refused.
TEST(InnerBall, KeptBallsProveMovedAnswersOnlyWhereTheyHold) {
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> unit(0, 1);
  std::normal_distribution<double> normal(0, 1);
  const double identity[4] = {1, 0, 0, 0}, origin[3] = {0, 0, 0};
  int kept_pairs = 0, reproved = 0, refused = 0;
  for (int k = 0; k < 3000 && kept_pairs < 40; ++k) {
    const sovc_shape A = RandomUndentedShape(rng), B = RandomUndentedShape(rng);
    double q[4], c[3];
    RandomTurnAndDirection(rng, q, c);
    const double reach = (0.4 + 0.5 * unit(rng)) * (A.radius + B.radius);
    for (double &x : c) x *= reach;
    sovc_pose XA, XB;
    ASSERT_EQ(sovc_pose_from_quat(&XA, identity, origin), SOV_OK);
    ASSERT_EQ(sovc_pose_from_quat(&XB, q, c), SOV_OK);
    sovc_result r;
    if (sov_test::Distance(&r, &A, &XA, &B, &XB, nullptr, nullptr) != SOV_OK || !(r.d < 0)) continue;
    sovc_cache_ball kept[2];
    int have = 0;
    if (!sovc_inner_balls_certify_keep(kept, &have, &r, sov_test::SolverPair(&A, &XA, &B, &XB),
                                       sovc_value_tolerance(&r), nullptr) ||
        !have)
      continue;
    ++kept_pairs;
    // B's centre moves along a random direction, by 1e-4 to 1 of the sizes.
    double dir[3];
    for (double &x : dir) x = normal(rng);
    for (double step = 1e-4; step < 1.5; step *= 4) {
      double moved[3];
      for (int i = 0; i < 3; ++i) moved[i] = c[i] + step * (A.radius + B.radius) * dir[i] / 3;
      sovc_pose YB;
      ASSERT_EQ(sovc_pose_from_quat(&YB, q, moved), SOV_OK);
      sovc_result m;
      if (sov_test::Distance(&m, &A, &XA, &B, &YB, nullptr, nullptr) != SOV_OK || !(m.d < 0)) break;
      const double tol = sovc_value_tolerance(&m);
      if (!sovc_kept_balls_certify(kept, &m, sov_test::SolverPair(&A, &XA, &B, &YB), tol)) {
        ++refused;
        continue;
      }
      ++reproved;
      const std::string at = "pair " + std::to_string(k) + " step " + std::to_string(step);
      double xA[3], xB[3];
      sovc_to_local(xA, &XA, m.pA);
      sovc_to_local(xB, &YB, m.pB);
      EXPECT_LE(WorstOnBall(A, xA, kept[0].radius, 500), 1e-12 * A.radius) << at;
      EXPECT_LE(WorstOnBall(B, xB, kept[1].radius, 500), 1e-12 * B.radius) << at;
      double worst = -INFINITY;
      for (int j = 0; j < 400; ++j) {
        double v[3];
        for (double &x : v) x = normal(rng);
        const double vn = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        for (double &x : v) x /= vn;
        worst = std::fmax(worst, Objective(A, XA, B, YB, v) - m.d);
      }
      EXPECT_LE(worst, tol) << at;
    }
  }
  EXPECT_GE(kept_pairs, 40);
  EXPECT_GT(reproved, 100);
  EXPECT_GT(refused, 20);
}

// A shallow overlap's balls are small: a pair sliding by steps longer than a
// quarter of their radius leaves their box at every step, unless the box is
// widened by the balls' travel since the previous step's (prev). Kept that
// way, they prove most next answers (where they do, both lie in their
// bodies at its witnesses), and more than balls kept without prev.
TEST(InnerBall, KeptBallsFollowAShallowOverlapThatSlides) {
  std::mt19937_64 rng(16);
  std::normal_distribution<double> normal(0, 1);
  const double identity[4] = {1, 0, 0, 0}, origin[3] = {0, 0, 0};
  int pairs = 0, steps = 0, with_travel = 0, without_travel = 0;
  for (int k = 0; k < 2000 && pairs < 30; ++k) {
    const sovc_shape A = RandomUndentedShape(rng), B = RandomUndentedShape(rng);
    const double size = A.radius + B.radius;
    double q[4], c[3];
    RandomTurnAndDirection(rng, q, c);
    for (double &x : c) x *= 0.7 * size;
    sovc_pose XA, XB;
    ASSERT_EQ(sovc_pose_from_quat(&XA, identity, origin), SOV_OK);
    sovc_result r{};
    bool ok = true;
    // B moved along the normal to an overlap 1e-4 of the size deep.
    for (int it = 0; it < 4 && ok; ++it) {
      ASSERT_EQ(sovc_pose_from_quat(&XB, q, c), SOV_OK);
      ok = sov_test::Distance(&r, &A, &XA, &B, &XB, nullptr, nullptr) == SOV_OK;
      for (int i = 0; ok && i < 3; ++i) c[i] += (-1e-4 * size - r.d) * r.n[i];
    }
    ASSERT_EQ(sovc_pose_from_quat(&XB, q, c), SOV_OK);
    if (!ok || sov_test::Distance(&r, &A, &XA, &B, &XB, nullptr, nullptr) != SOV_OK ||
        !(r.d < -0.5e-4 * size && r.d > -2e-4 * size))
      continue;
    // It slides across the normal by 2e-4 of the size a step.
    double dir[3], dn = 0;
    for (double &x : dir) x = normal(rng);
    for (int i = 0; i < 3; ++i) dn += dir[i] * r.n[i];
    for (int i = 0; i < 3; ++i) dir[i] -= dn * r.n[i];
    const double dl = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
    sovc_cache_ball with[2], without[2];
    int have = 0;
    if (!sovc_inner_balls_certify_keep(with, &have, &r, sov_test::SolverPair(&A, &XA, &B, &XB),
                                       sovc_value_tolerance(&r), nullptr) ||
        !have)
      continue;
    std::copy(with, with + 2, without);
    ++pairs;
    for (int step = 1; step <= 8; ++step) {
      double moved[3];
      for (int i = 0; i < 3; ++i) moved[i] = c[i] + step * 2e-4 * size * dir[i] / dl;
      sovc_pose YB;
      ASSERT_EQ(sovc_pose_from_quat(&YB, q, moved), SOV_OK);
      sovc_result m;
      if (sov_test::Distance(&m, &A, &XA, &B, &YB, nullptr, nullptr) != SOV_OK || !(m.d < 0)) break;
      const sov_test::PairOf P = sov_test::SolverPair(&A, &XA, &B, &YB);
      const double tol = sovc_value_tolerance(&m);
      ++steps;
      if (sovc_kept_balls_certify(with, &m, P, tol)) {
        ++with_travel;
        double xA[3], xB[3];
        sovc_to_local(xA, &XA, m.pA);
        sovc_to_local(xB, &YB, m.pB);
        const std::string at = "pair " + std::to_string(k) + " step " + std::to_string(step);
        EXPECT_LE(WorstOnBall(A, xA, with[0].radius, 200), 1e-12 * A.radius) << at;
        EXPECT_LE(WorstOnBall(B, xB, with[1].radius, 200), 1e-12 * B.radius) << at;
      }
      if (sovc_kept_balls_certify(without, &m, P, tol)) ++without_travel;
      // The cache's next balls, as a warm query keeps them.
      sovc_cache_ball next[2];
      if (sovc_inner_balls_certify_keep(next, &have, &m, P, tol, with) && have)
        std::copy(next, next + 2, with);
      if (sovc_inner_balls_certify_keep(next, &have, &m, P, tol, nullptr) && have)
        std::copy(next, next + 2, without);
    }
  }
  EXPECT_GE(pairs, 30);
  EXPECT_GT(steps, 150);
  EXPECT_GT(with_travel, 0.7 * steps);
  EXPECT_GT(with_travel, without_travel + steps / 4);
  std::printf("shallow slides: %d steps, proved by kept balls %d with travel, %d without\n", steps,
              with_travel, without_travel);
}

// Balls kept at the shallow overlap on the ellipsoid's side do not reach
// its tip: the tips' pair, a common-normal pair that is not the answer,
// is refused by them as by fresh balls.
TEST(InnerBall, KeptBallsRefuseAPairFarFromTheirs) {
  const double side[3] = {0, 1.8, 0};
  const EllipsoidAndSphere s(side);
  sovc_result r;
  ASSERT_EQ(sov_test::Distance(&r, &s.A, &s.XA, &s.B, &s.XB, nullptr, nullptr), SOV_OK);
  sovc_cache_ball kept[2];
  int have = 0;
  ASSERT_EQ(sovc_inner_balls_certify_keep(
                kept, &have, &r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), 1e-10, nullptr),
            1);
  ASSERT_EQ(have, 1);
  EXPECT_EQ(
      sovc_kept_balls_certify(kept, &r, sov_test::SolverPair(&s.A, &s.XA, &s.B, &s.XB), 1e-10), 1);
  const double tip_centre[3] = {2, 0, 0};
  const EllipsoidAndSphere t(tip_centre);
  sovc_result tip{};
  tip.d = -2;
  const double n[3] = {1, 0, 0}, tA[3] = {3, 0, 0}, tB[3] = {1, 0, 0};
  for (int i = 0; i < 3; ++i) tip.n[i] = n[i], tip.pA[i] = tA[i], tip.pB[i] = tB[i];
  EXPECT_EQ(
      sovc_kept_balls_certify(kept, &tip, sov_test::SolverPair(&t.A, &t.XA, &t.B, &t.XB), 1e-10),
      0);
}

}  // namespace
