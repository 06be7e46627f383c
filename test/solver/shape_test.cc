// Implicit function of solver/shape.c against the SPEC formula and finite
// differences.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

extern "C" {
#include "solver/posed.h"
#include "solver/shape.h"
#include "solver/shape_init.h"
#include "solver_api.h"
}

#include "spec_reference.h"

namespace {

using sov_spec::MakeShape;
using sov_spec::SpecF;

constexpr double kValueTolerance = 1e-13;
constexpr double kGradientTolerance = 1e-6;  // relative, central differences
constexpr double kHessianTolerance = 1e-5;   // relative, central differences
constexpr double kDerivativeStep = 1e-6;

// Random shapes (small convex tapers) and points away from the axes.
struct Case {
  double p[7];
  double x[3];
};

// ellipsoid: eps1 = eps2 = 1, the quadric that sovc_implicit evaluates
// without logarithms.
Case RandomCase(std::mt19937_64 &rng, bool ellipsoid = false) {
  std::uniform_real_distribution<double> size(0.3, 3), eps(0.2, 1.8), taper(-0.1, 0.1),
      coord(-1.2, 1.2);
  Case c;
  c.p[0] = size(rng);
  c.p[1] = size(rng);
  c.p[2] = size(rng);
  c.p[3] = eps(rng);
  c.p[4] = eps(rng);
  c.p[5] = taper(rng);
  c.p[6] = taper(rng);
  if (ellipsoid) c.p[3] = c.p[4] = 1;
  for (int i = 0; i < 3; ++i) {
    double v = coord(rng);
    if (std::fabs(v) < 0.05) v = 0.05;
    c.x[i] = v * c.p[i] * (i == 2 ? 0.8 : 1.0);
  }
  return c;
}

TEST(ShapeImplicit, MatchesSpecFormula) {
  std::mt19937_64 rng(1);
  for (int k = 0; k < 500; ++k) {
    const Case c = RandomCase(rng);
    const sovc_shape s = MakeShape(c.p);
    double F;
    sovc_implicit(&F, nullptr, nullptr, &s, c.x);
    const double ref = SpecF(s, c.x);
    EXPECT_NEAR(F, ref, kValueTolerance * std::fmax(1, std::fabs(ref)));
  }
}

// F of a tapered ellipsoid is the quadric X^2 + Y^2 + s^2 - 1 with X = x /
// (a1 (1 + tx s)), Y = y / (a2 (1 + ty s)), s = z / a3, to rounding.
TEST(ShapeImplicit, EllipsoidsAreTheirQuadric) {
  std::mt19937_64 rng(4);
  for (int k = 0; k < 500; ++k) {
    const Case c = RandomCase(rng, true);
    const sovc_shape sh = MakeShape(c.p);
    double F;
    sovc_implicit(&F, nullptr, nullptr, &sh, c.x);
    const double s = c.x[2] / c.p[2];
    const double X = c.x[0] / (c.p[0] * (1 + c.p[5] * s)), Y = c.x[1] / (c.p[1] * (1 + c.p[6] * s));
    const double terms = X * X + Y * Y + s * s;
    EXPECT_NEAR(F, terms - 1, 8 * DBL_EPSILON * terms) << "case " << k;
    EXPECT_NEAR(F, SpecF(sh, c.x), kValueTolerance * std::fmax(1, terms)) << "case " << k;
  }
}

// Untapered ellipsoids take their own path (the quadric itself): F, the
// gradient 2 x_i / a_i^2 and the constant Hessian diag(2 / a_i^2), to
// rounding, and the SPEC's F.
TEST(ShapeImplicit, UntaperedEllipsoidsAreTheirQuadricWithDerivatives) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 500; ++k) {
    Case c = RandomCase(rng, true);
    c.p[5] = c.p[6] = 0;
    const sovc_shape sh = MakeShape(c.p);
    ASSERT_TRUE(sovc_is_ellipsoid(&sh));
    double F, g[3], H[9];
    sovc_implicit(&F, g, H, &sh, c.x);
    double terms = 0;
    for (int i = 0; i < 3; ++i) terms += (c.x[i] / c.p[i]) * (c.x[i] / c.p[i]);
    EXPECT_NEAR(F, terms - 1, 8 * DBL_EPSILON * terms) << "case " << k;
    EXPECT_NEAR(F, SpecF(sh, c.x), kValueTolerance * std::fmax(1, terms)) << "case " << k;
    for (int i = 0; i < 3; ++i) {
      const double gi = 2 * c.x[i] / (c.p[i] * c.p[i]);
      EXPECT_NEAR(g[i], gi, 8 * DBL_EPSILON * std::fabs(gi)) << "case " << k;
      for (int j = 0; j < 3; ++j) {
        const double hij = i == j ? 2 / (c.p[i] * c.p[i]) : 0.0;
        EXPECT_NEAR(H[3 * i + j], hij, 8 * DBL_EPSILON * std::fabs(hij)) << "case " << k;
      }
    }
  }
}

TEST(ShapeImplicit, DerivativesMatchFiniteDifferences) {
  std::mt19937_64 rng(2);
  for (int k = 0; k < 400; ++k) {
    const Case c = RandomCase(rng, k >= 300);  // the last 100: ellipsoids
    const sovc_shape s = MakeShape(c.p);
    double F, g[3], H[9];
    sovc_implicit(&F, g, H, &s, c.x);
    for (int j = 0; j < 3; ++j) {
      double xp[3] = {c.x[0], c.x[1], c.x[2]}, xm[3] = {c.x[0], c.x[1], c.x[2]};
      const double h = kDerivativeStep * s.a[j];
      xp[j] += h;
      xm[j] -= h;
      double Fp, Fm, gp[3], gm[3];
      sovc_implicit(&Fp, gp, nullptr, &s, xp);
      sovc_implicit(&Fm, gm, nullptr, &s, xm);
      const double gscale = std::fabs(g[0]) + std::fabs(g[1]) + std::fabs(g[2]);
      EXPECT_NEAR(g[j], (Fp - Fm) / (2 * h), kGradientTolerance * gscale) << "case " << k;
      double hscale = 0;
      for (double v : H) hscale += std::fabs(v);
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(H[3 * i + j], (gp[i] - gm[i]) / (2 * h), kHessianTolerance * hscale)
            << "case " << k << " entry " << i << j;
    }
  }
}

TEST(ShapeImplicit, NormalisedFormIsHomogeneousWithoutTaper) {
  const double p[7] = {1.3, 0.7, 2.1, 0.4, 1.6, 0, 0};
  const sovc_shape s = MakeShape(p);
  const double x[3] = {0.4, -0.3, 0.9};
  double G1, G2;
  sovc_implicit_norm(&G1, nullptr, nullptr, &s, x);
  const double y[3] = {2.5 * x[0], 2.5 * x[1], 2.5 * x[2]};
  sovc_implicit_norm(&G2, nullptr, nullptr, &s, y);
  EXPECT_NEAR(G2 + 1, 2.5 * (G1 + 1), kValueTolerance);
}

TEST(ShapeImplicit, NormalisedGradientIsParallelToF) {
  std::mt19937_64 rng(3);
  for (int k = 0; k < 100; ++k) {
    const Case c = RandomCase(rng);
    const sovc_shape s = MakeShape(c.p);
    double F, G, gF[3], gG[3];
    sovc_implicit(&F, gF, nullptr, &s, c.x);
    sovc_implicit_norm(&G, gG, nullptr, &s, c.x);
    EXPECT_NEAR(G, std::pow(F + 1, c.p[4] / 2) - 1, kValueTolerance * std::fmax(1, std::fabs(G)));
    const double cx = gF[1] * gG[2] - gF[2] * gG[1];
    const double nF = std::sqrt(gF[0] * gF[0] + gF[1] * gF[1] + gF[2] * gF[2]);
    const double nG = std::sqrt(gG[0] * gG[0] + gG[1] * gG[1] + gG[2] * gG[2]);
    EXPECT_NEAR(cx / (nF * nG), 0, 1e-12);
  }
}

// sovc_power is exp(e log t): its relative error is that of e log t, a few
// ulps of |e log t|, for exponents of either sign from 1e-3 to 2000 in size
// (2 / eps down to eps = 1e-3), bases from 1e-304 to 1e304 and results from
// 1e-300 to 1e300.
TEST(ShapePower, RelativeErrorFollowsTheLogarithmsSize) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> log_size(std::log(1e-3), std::log(2000.0)), unit(-1, 1);
  for (int k = 0; k < 100000; ++k) {
    const double e = std::copysign(std::exp(log_size(rng)), unit(rng));
    // e log t within +-690, and log t within +-700 (t finite and normal).
    const double log_t = unit(rng) * std::fmin(690 / std::fabs(e), 700.0);
    const double t = std::exp(log_t), want = std::pow(t, e);
    const double bound = 4 * DBL_EPSILON * (2 + std::fabs(e * std::log(t)));
    ASSERT_LE(std::fabs(sovc_power(t, e) - want), bound * want) << t << " ^ " << e;
  }
  EXPECT_EQ(sovc_power(0, 2.5), 0.0);
  EXPECT_EQ(sovc_power(0, 0), 1.0);
  EXPECT_EQ(sovc_power(0, -1), INFINITY);
  EXPECT_EQ(sovc_power(1, 37.5), 1.0);
  // eps near 0 makes exponents 2 / eps infinite: pow()'s values, no NaN.
  EXPECT_EQ(sovc_power(1, INFINITY), 1.0);
  EXPECT_EQ(sovc_power(1, -INFINITY), 1.0);
  EXPECT_EQ(sovc_power(0.5, INFINITY), 0.0);
  EXPECT_EQ(sovc_power(2, INFINITY), INFINITY);
  EXPECT_EQ(sovc_power(0.5, -INFINITY), INFINITY);
  EXPECT_EQ(sovc_power(INFINITY, 0), 1.0);
  EXPECT_TRUE(std::isnan(sovc_power(NAN, 2)));
  // e = 1 (box-like bodies' dual exponent) is exact, as pow() is (bug 24).
  EXPECT_EQ(sovc_power(2.66e-141, 1), 2.66e-141);
  // Ellipsoids' exponents 2 and 1/2 are exact with the helpers, and every
  // other exponent is sovc_power's.
  for (const double t : {0.0, 1e-200, 0.3, 1.7, 3e150, 1e300, double(INFINITY)}) {
    EXPECT_EQ(sovc_power_or_square(t, 2), t * t);
    EXPECT_EQ(sovc_power_or_root(t, 0.5), std::sqrt(t));
    EXPECT_EQ(sovc_power_or_square(t, 2.5), sovc_power(t, 2.5));
    EXPECT_EQ(sovc_power_or_root(t, 0.4), sovc_power(t, 0.4));
  }
}

TEST(ShapeImplicit, SignedPowerNeverUsesNegativeBase) {
  EXPECT_EQ(sovc_spow(-8, 1.0 / 3), -sovc_spow(8, 1.0 / 3));
  EXPECT_NEAR(sovc_spow(-8, 1.0 / 3), -2, kValueTolerance);
  EXPECT_EQ(sovc_spow(0, 0.5), 0);
  EXPECT_NEAR(sovc_spow(4, 0.5), 2, kValueTolerance);
}

// Bug 26 (c_api_fuzz, gradient check at support points): within 1e-150 of
// an axis or of the equator, in units of the semi-axes, |t|^(e-1) was taken
// as t^e / t through 1 / t, which overflows for subnormal t: the gradient
// came out inf or NaN where it is finite (here up to 0.03 for eps 1.99).
TEST(ShapeImplicit, PointsNearTheAxesGiveTheSpecsGradient) {
  const double shapes[][7] = {{4.03, 0.104, 1000, 1.99, 0.327, 0, 0},
                              {1, 0.8, 1.2, 1.99, 1.99, 0, 0},
                              {1, 0.8, 1.2, 0.5, 1.5, 0.05, -0.05}};
  const double tiny[] = {5.8e-316, 1e-310, 1e-200, 1e-160};
  for (const auto &p : shapes)
    for (const double t : tiny)
      for (int which = 0; which < 4; ++which) {
        // One coordinate tiny, two (x and y: near the z axis), or z tiny.
        double x[3] = {0.6 * p[0], -0.3 * p[1], 0.4 * p[2]};
        if (which == 0) x[1] = t;
        if (which == 1) x[0] = -t;
        if (which == 2) x[0] = t, x[1] = -t;
        if (which == 3) x[2] = t;
        sovc_shape s;
        ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
        double F, g[3];
        sovc_implicit(&F, g, nullptr, &s, x);
        long double Fl, gl[3];
        sov_spec::SpecImplicitLong(&Fl, gl, s, x);
        SCOPED_TRACE(testing::Message()
                     << "eps " << p[3] << " " << p[4] << ", " << t << " in " << which);
        EXPECT_NEAR(F, static_cast<double>(Fl), kValueTolerance);
        // A subnormal coordinate scaled by 1 / a_i rounds to the subnormal
        // grid (relative error up to 5e-324 / t), and the gradient moves by
        // up to |e - 1| < 4 times that here; the long double reference does not round.
        const double rel = 1e-12 + 4 * std::numeric_limits<double>::denorm_min() / t;
        for (int i = 0; i < 3; ++i)
          EXPECT_NEAR(g[i], static_cast<double>(gl[i]), rel * std::fabs(static_cast<double>(gl[i])))
              << "component " << i;
      }
}

// Bug 27: far outside, where F's terms overflow, sov_shape_implicit gave
// SOV_OK with NaN in the gradient and Hessian (an overflowed power times a
// true 0, or two overflowed terms of opposite sign). Each value is now the
// SPEC's (long double, whose range holds these points' powers), or +-inf
// where that lies past the double range.
TEST(ShapeImplicit, FarPointsGiveTheSpecsValuesOrInfinities) {
  // Tapered bodies only within |z| <= a3, where the tapers are not frozen.
  const double shapes[][7] = {{1, 0.8, 1.2, 0.25, 1.0, 0, 0},
                              {2, 0.5, 1.5, 1.9, 0.3, 0, 0},
                              {1, 0.8, 1.2, 0.5, 1.5, 0.3, -0.2},
                              {0.7, 1.3, 0.9, 0.3, 1.0, -0.1, 0.08}};
  const double far[] = {1e30, 1e100, 1e200, 1e300};
  int overflowed = 0;
  for (const auto &p : shapes)
    for (const double t : far)
      for (int which = 0; which < 5; ++which) {
        const bool tapered = p[5] != 0 || p[6] != 0;
        double x[3] = {t, 0, 0.5 * p[2]};
        if (which == 1) x[0] = 0, x[1] = -t;
        if (which == 2) x[1] = 0.5 * t;
        if (which == 3) x[0] = -0.3 * t, x[1] = t;
        if (which == 4) x[0] = x[1] = 0, x[2] = tapered ? -p[2] : -t;
        sovc_shape s;
        ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
        double F, g[3], H[9];
        ASSERT_EQ(sov_test::Implicit(&F, g, H, &s, x), SOV_OK);
        long double Fl, gl[3];
        sov_spec::SpecImplicitLong(&Fl, gl, s, x);
        SCOPED_TRACE(testing::Message() << "eps " << p[3] << " " << p[4] << " taper " << p[5] << " "
                                        << p[6] << ", " << t << " in " << which);
        const auto expect_value = [&](double got, long double ref, const char *what) {
          if (std::fabs(ref) > DBL_MAX) {
            EXPECT_EQ(got, ref > 0 ? INFINITY : -INFINITY) << what;
            ++overflowed;
          } else {
            EXPECT_NEAR(got, static_cast<double>(ref), 1e-12 * std::fabs(static_cast<double>(ref)))
                << what;
          }
        };
        expect_value(F, Fl, "F");
        for (int i = 0; i < 3; ++i) expect_value(g[i], gl[i], "gradient");
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            EXPECT_FALSE(std::isnan(H[3 * i + j])) << "H " << i << j;
            EXPECT_EQ(H[3 * i + j], H[3 * j + i]) << "H " << i << j;
          }
      }
  EXPECT_GT(overflowed, 0) << "the points must reach past the double range";
}

// Bug 27's limit: with exponents near 0, a far point's terms lie past the
// double range however they are scaled, and a gradient entry's sign is
// lost: SOV_ERR_RANGE, where OK came with NaN.
TEST(ShapeImplicit, TermsPastEveryScaleAreARangeError) {
  const double p[7] = {1, 1, 1, 1e-7, 1e-7, 0, 0};
  sovc_shape s;
  ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
  const double x[3] = {1e300, 0, 0};
  double F, g[3], H[9];
  EXPECT_EQ(sov_test::Implicit(&F, g, H, &s, x), SOV_ERR_RANGE);
  // F alone has its sign.
  EXPECT_EQ(sov_test::Implicit(&F, nullptr, nullptr, &s, x), SOV_OK);
  EXPECT_EQ(F, INFINITY);
}

// Hardening bug 2: deep inside a flat-profiled body F + 1 underflows and G
// is clamped; its gradient was then the clamp's (huge), so |G| / |grad G|
// called a point 100 units inside "on the surface". Zero derivatives there
// make it infinitely off instead.
TEST(ShapeImplicit, UnderflowDeepInsideIsNotOnTheSurface) {
  const double p[7] = {167.3, 167.3, 167.3, 1.003, 0.01, 0, 1e-6};
  sovc_shape s;
  ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
  const double x[3] = {-12.4, -15.8, 8.6};  // deep inside, where F + 1 underflows
  double F, G, g[3];
  sovc_implicit(&F, nullptr, nullptr, &s, x);
  ASSERT_LT(F + 1, 1e-300) << "the case needs an underflowing F + 1";
  sovc_implicit_norm(&G, g, nullptr, &s, x);
  EXPECT_LT(G, -0.9);
  EXPECT_EQ(g[0], 0.0);
  const sovc_pose X = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
  EXPECT_EQ(sovc_off_surface(&s, &X, x), HUGE_VAL);
  // Near the surface nothing changes: on the x axis at the semi-axis, G = 0.
  const double on[3] = {167.3, 0, 0};
  EXPECT_LE(sovc_off_surface(&s, &X, on), 1e-12 * 167.3);
}

// The SPEC's F of an untapered body with the cross-section's power written
// as exp((2/eps2) log M + (eps1/eps2) log(1 + (m/M)^(2/eps1))), M and m the
// larger and smaller of |X| and |Y|: algebraically the SPEC's, in long
// double, whose range holds 2/eps for every double eps. (The plain form
// underflows |X|^(2/eps1) to 0 before raising it to the tiny eps1/eps2.)
long double UntaperedSpecFLimitSafe(const double p[7], const double x[3]) {
  const long double X = std::fabs(x[0] / p[0]), Y = std::fabs(x[1] / p[1]);
  const long double z = std::fabs(x[2] / p[2]), e1 = p[3], e2 = p[4];
  const long double M = std::fmax(X, Y), small = std::fmin(X, Y);
  const long double slice =
      M > 0 ? std::exp(2 / e2 * std::log(M) + e1 / e2 * std::log1p(std::pow(small / M, 2 / e1)))
            : 0;
  return slice + std::pow(z, 2 / e2) - 1;
}

// Bug 21: for a subnormal exponent 2 / eps overflows, and F came out NaN
// wherever a power of 1 was taken as exp(inf x log 1) (on the faces of a
// box-like body, at its poles). Stored as DBL_MIN, the exponent gives the
// SPEC's F for the exponent given.
TEST(ShapeInit, SubnormalExponentsGiveTheSpecsF) {
  const double subnormals[2] = {5e-324, 1e-310};
  const double points[][3] = {{0, 0, 1.3},   {0.7, 0, 0},   {0.5, 0.5, 0},   {0, 0, 0.65},
                              {0.7, 0.9, 0}, {0.7, 0, 1.3}, {0.2, 0.3, 0.4}, {1, 1, 2}};
  for (const double tiny : subnormals)
    for (int which = 0; which < 3; ++which) {
      const double p[7] = {0.7, 0.9, 1.3, which != 1 ? tiny : 1.0, which != 0 ? tiny : 1.0, 0, 0};
      sovc_shape s;
      ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
      EXPECT_EQ(s.eps1, which != 1 ? DBL_MIN : 1.0);
      EXPECT_EQ(s.eps2, which != 0 ? DBL_MIN : 1.0);
      for (const auto &x : points) {
        double F;
        sovc_implicit(&F, nullptr, nullptr, &s, x);
        const double ref = static_cast<double>(UntaperedSpecFLimitSafe(p, x));
        SCOPED_TRACE(testing::Message() << "eps " << tiny << " in " << which << " at " << x[0]
                                        << " " << x[1] << " " << x[2]);
        if (std::isinf(ref))
          EXPECT_EQ(F, ref);
        else
          EXPECT_NEAR(F, ref, kValueTolerance * std::fmax(1, std::fabs(ref)));
      }
    }
}

// Hardening bug 1: sizes whose derived bounds overflow or underflow were
// accepted, and every later query refused the shape.
TEST(ShapeInit, RefusesBoundsThatOverflowOrUnderflow) {
  sovc_shape s;
  const double huge[7] = {5.8e296, 0.025, 0.43, 0.022, 0.065, 0, 0};
  EXPECT_EQ(sovc_shape_init(&s, huge), SOV_ERR_NONFINITE);
  const double tiny = 4.1e-207;
  const double small[7] = {tiny, tiny, tiny, tiny, tiny, tiny, tiny};
  const int st = sovc_shape_init(&s, small);
  EXPECT_TRUE(st != SOV_OK) << "radius " << s.radius;
  const double fine[7] = {1e-100, 2e-100, 3e-100, 0.5, 1.5, 0.1, -0.1};
  EXPECT_EQ(sovc_shape_init(&s, fine), SOV_OK) << "small but representable sizes stay valid";
  EXPECT_GT(s.radius, 0);
}

}  // namespace
