// Tests of the support mapping (solver/support.c) against independent
// computations: brute-force maximisation of dir . x over the SPEC parametric
// surface, the SPEC implicit function in long double, and closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <random>
#include <vector>

extern "C" {
#include "solver/shape.h"
#include "solver/shape_init.h"
#include "solver/support.h"
}

#include "spec_reference.h"

namespace {

using sov_spec::MakeShape;
using sov_spec::Param;
using sov_spec::SpecImplicitLong;
using sov_spec::Spow;

using sov_spec::kPi;
// Support value against the brute-force maximum (relative to |dir| size).
constexpr double kValueTol = 1e-14;
// |F| / |grad F| at the support point (SPEC implicit), in length units.
constexpr double kSupportSurfaceTol = 1e-13;
// sin of the angle between dir and grad F at the support point.
constexpr double kParallelTol = 1e-12;
// Agreement of two evaluations that must give the same answer.
constexpr double kSameTol = 1e-14;

double Dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Maximum of a unimodal f over [lo, hi]: a grid of n points, then golden
// section between the neighbours of the best one.
template <class Fn>
double UnimodalMax(Fn f, double lo, double hi, int n) {
  int best = 0;
  double fbest = -HUGE_VAL;
  for (int i = 0; i <= n; ++i) {
    const double v = f(lo + (hi - lo) * i / n);
    if (v > fbest) fbest = v, best = i;
  }
  double a = lo + (hi - lo) * std::max(best - 1, 0) / n, b = lo + (hi - lo) * std::min(best + 1, n) / n;
  const double g = 0.5 * (std::sqrt(5.0) - 1);
  for (int it = 0; it < 80; ++it) {
    const double x1 = b - g * (b - a), x2 = a + g * (b - a);
    const double f1 = f(x1), f2 = f(x2);
    fbest = std::max(fbest, std::max(f1, f2));
    if (f1 < f2) a = x1;
    else b = x2;
  }
  return fbest;
}

// max over the SPEC parametric surface of d . x, by nested 1-D searches: for
// each latitude phi2 the longitude phi1 runs over the quadrant of (d1, d2)
// (d . x is unimodal there); the slice maxima are unimodal in phi2 for a
// convex body.
double BruteSupport(const sovc_shape& s, const double d[3]) {
  const double q1 = d[0] < 0 ? kPi : 0.0, q2 = d[1] < 0 ? -1.0 : 1.0;
  auto slice = [&](double p2) {
    return UnimodalMax(
        [&](double t) {
          double x[3];
          Param(x, s, q2 * (q1 == 0 ? t : kPi - t), p2);
          return Dot(d, x);
        },
        0.0, kPi / 2, 64);
  };
  return UnimodalMax(slice, -kPi / 2, kPi / 2, 256);
}

// Checks that x is on the surface and dir is parallel to the outward normal.
void ExpectSurfaceAndNormal(const sovc_shape& s, const double x[3], const double d[3]) {
  long double F, g[3];
  SpecImplicitLong(&F, g, s, x);
  const long double gn = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  EXPECT_LE(std::fabs((double)(F / gn)), kSupportSurfaceTol);
  const long double cx = g[1] * d[2] - g[2] * d[1], cy = g[2] * d[0] - g[0] * d[2],
                    cz = g[0] * d[1] - g[1] * d[0];
  const double sin_angle = (double)(std::sqrt(cx * cx + cy * cy + cz * cz) / (gn * std::sqrt(Dot(d, d))));
  EXPECT_LE(sin_angle, kParallelTol);
  EXPECT_GT((double)(g[0] * d[0] + g[1] * d[1] + g[2] * d[2]), 0.0);
}

sovc_shape RandomShape(std::mt19937_64& rng, bool tapered) {
  std::uniform_real_distribution<double> size(0.3, 2.5), eps(0.1, 1.9), tap(-0.35, 0.35);
  const double tx = tapered ? tap(rng) : 0.0, ty = tapered ? tap(rng) : 0.0;
  return MakeShape(size(rng), size(rng), size(rng), eps(rng), eps(rng), tx, ty);
}

void RandomDirection(double d[3], std::mt19937_64& rng) {
  std::normal_distribution<double> n(0, 1);
  for (int i = 0; i < 3; ++i) d[i] = n(rng);
}

TEST(Support, EllipsoidMatchesClosedForm) {
  const sovc_shape s = MakeShape(1.5, 0.7, 2.2, 1.0, 1.0, 0.0, 0.0);
  std::mt19937_64 rng(1);
  for (int k = 0; k < 100; ++k) {
    double d[3], x[3];
    RandomDirection(d, rng);
    const double h = sovc_support(x, &s, d, NAN);
    const double ad[3] = {s.a[0] * d[0], s.a[1] * d[1], s.a[2] * d[2]};
    const double ref = std::sqrt(Dot(ad, ad));
    EXPECT_NEAR(h, ref, kSameTol * ref);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(x[i], s.a[i] * ad[i] / ref, kSameTol * 4);
  }
}

TEST(Support, UntaperedMatchesBruteForce) {
  std::mt19937_64 rng(2);
  for (int k = 0; k < 60; ++k) {
    const sovc_shape s = RandomShape(rng, false);
    double d[3], x[3];
    RandomDirection(d, rng);
    const double h = sovc_support(x, &s, d, NAN);
    EXPECT_NEAR(h, BruteSupport(s, d), kValueTol * std::sqrt(Dot(d, d)) * 3)
        << "shape " << k;
    EXPECT_NEAR(h, Dot(d, x), kSameTol * std::fabs(h) * 4);
    ExpectSurfaceAndNormal(s, x, d);
  }
}

TEST(Support, TaperedMatchesBruteForce) {
  std::mt19937_64 rng(3);
  for (int k = 0; k < 120; ++k) {
    const sovc_shape s = RandomShape(rng, true);
    double d[3], x[3];
    RandomDirection(d, rng);
    const double h = sovc_support(x, &s, d, NAN);
    EXPECT_NEAR(h, BruteSupport(s, d), kValueTol * std::sqrt(Dot(d, d)) * 3)
        << "shape " << k;
    EXPECT_NEAR(h, Dot(d, x), kSameTol * std::fabs(h) * 4);
    ExpectSurfaceAndNormal(s, x, d);
  }
}

TEST(Support, ManyDirectionsLandOnSurfaceWithParallelNormal) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> scale(-6, 6);
  for (int k = 0; k < 4000; ++k) {
    const sovc_shape s = RandomShape(rng, k % 3 != 0);
    double d[3], x[3];
    RandomDirection(d, rng);
    const double f = std::pow(10.0, scale(rng));
    for (double& di : d) di *= f;
    sovc_support(x, &s, d, NAN);
    ExpectSurfaceAndNormal(s, x, d);
  }
}

TEST(Support, ScaleOfDirectionOnlyScalesValue) {
  std::mt19937_64 rng(5);
  for (int k = 0; k < 200; ++k) {
    const sovc_shape s = RandomShape(rng, true);
    double d[3], dk[3], x[3], xk[3];
    RandomDirection(d, rng);
    const double f = k % 2 ? 1e-200 : 3e150;
    for (int i = 0; i < 3; ++i) dk[i] = d[i] * f;
    const double h = sovc_support(x, &s, d, NAN), hk = sovc_support(xk, &s, dk, NAN);
    EXPECT_NEAR(hk / f, h, kSameTol * 10 * h);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(xk[i], x[i], kSameTol * 10 * (1 + std::fabs(x[i])));
  }
}

TEST(Support, HintDoesNotChangeAnswer) {
  std::mt19937_64 rng(6);
  std::uniform_real_distribution<double> hint(-0.999, 0.999);
  for (int k = 0; k < 300; ++k) {
    const sovc_shape s = RandomShape(rng, true);
    double d[3], x[3], xh[3];
    RandomDirection(d, rng);
    const double h = sovc_support(x, &s, d, NAN), hh = sovc_support(xh, &s, d, hint(rng));
    EXPECT_NEAR(hh, h, kSameTol * 10 * h);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(xh[i], x[i], 1e-9 * (1 + std::fabs(x[i])));
  }
}

TEST(Support, PolesAreExact) {
  const sovc_shape s = MakeShape(1.2, 0.8, 1.7, 0.6, 1.3, 0.3, -0.2);
  for (double sign : {1.0, -1.0}) {
    const double d[3] = {0, 0, 2.5 * sign};
    double x[3];
    const double h = sovc_support(x, &s, d, NAN);
    EXPECT_EQ(h, 2.5 * 1.7);
    EXPECT_EQ(x[0], 0.0);
    EXPECT_EQ(x[1], 0.0);
    EXPECT_EQ(x[2], 1.7 * sign);
  }
}

TEST(Support, NearPoleDirectionsApproachThePole) {
  for (double e2 : {0.2, 1.0, 1.8}) {
    const sovc_shape s = MakeShape(1.2, 0.8, 1.7, 0.6, e2, 0.3, -0.2);
    for (double tilt : {1e-3, 1e-6, 1e-10}) {
      const double d[3] = {tilt, -0.5 * tilt, 1.0};
      double x[3];
      const double h = sovc_support(x, &s, d, NAN);
      EXPECT_GE(h, 1.7 - kSameTol);
      EXPECT_LE(h, 1.7 + 2 * tilt * 1.2 * 1.3);
      EXPECT_NEAR(x[2], 1.7, 1.7 * 2 * tilt);
      ExpectSurfaceAndNormal(s, x, d);
    }
  }
}

// Checks a support answer for a direction tilted from a pole: finite, within
// the body's height, its value between the pole's and the pole's plus what
// the tilt can add (reach: the widest slice's half-width).
void ExpectNearPole(const sovc_shape& s, const double d[3], double reach) {
  double x[3];
  const double h = sovc_support(x, &s, d, NAN);
  const double axial = std::fabs(d[2]), tilt = std::hypot(d[0], d[1]);
  ASSERT_TRUE(std::isfinite(h) && std::isfinite(x[0]) && std::isfinite(x[1]) && std::isfinite(x[2]))
      << "tilt " << tilt / axial << " eps2 " << s.eps2;
  EXPECT_LE(std::fabs(x[2]), s.a[2]);
  EXPECT_GE(h, axial * s.a[2] * (1 - kSameTol));
  EXPECT_LE(h, axial * s.a[2] * (1 + kSameTol) + tilt * reach);
  EXPECT_NEAR(h, Dot(d, x), kSameTol * h);
}

// Directions tilted from a pole by 1e-1 down to 1e-300, on tapered bodies
// with a profile exponent near 2 or near 0 (|zeta| reaches 1e300 there). The
// first shape's direction tilted by 3e-3 gave NaN and made FCL's GJK abort
// on a mesh (found by fcl_fuzz); the others gave NaN or points beyond the
// pole.
TEST(Support, NearPoleDirectionsGiveFinitePointsWithinTheBody) {
  const double shapes[][7] = {{0.12088162772705469, 0.33284031175153411, 46.836909991595384,
                               0.23420691064341098, 1.9499802853771857, 0, -0.021752752504653472},
                              {0.78, 1.23, 14.58, 0.0694, 0.368, 0.276, 0.4255},
                              {0.0479, 1.458, 1.398, 0.0586, 1.941, -0.0119, -0.0436},
                              {5.08, 2.43, 0.0172, 1.96, 1.12, -0.0257, -0.0481}};
  for (const auto& p : shapes) {
    sovc_shape s;
    ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
    const double reach =
        std::max(s.a[0], s.a[1]) * (1 + std::max(std::fabs(s.taper[0]), std::fabs(s.taper[1])));
    for (double sign : {1.0, -1.0}) {
      for (int k = 1; k <= 300; ++k) {
        const double tilt = std::pow(10.0, -k);
        for (int azimuth = 0; azimuth < 8; ++azimuth) {
          const double d[3] = {tilt * std::cos(azimuth * kPi / 4 + 0.3),
                               tilt * std::sin(azimuth * kPi / 4 + 0.3), sign};
          ExpectNearPole(s, d, reach);
        }
      }
    }
    if (&p == &shapes[0]) {
      const double found[3] = {-0.36737219861571113, 5.2440652292204831e-11, -117.03790919780717};
      ExpectNearPole(s, found, reach);
    }
  }
}

TEST(Support, HorizontalAndAxisDirections) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 40; ++k) {
    const sovc_shape s = RandomShape(rng, true);
    const double dirs[5][3] = {{1, 0, 0}, {0, -1, 0}, {0.6, 0.8, 0}, {-0.3, 0, 0.9}, {0, 0.4, -0.2}};
    for (const auto& d : dirs) {
      double x[3];
      const double h = sovc_support(x, &s, d, NAN);
      EXPECT_NEAR(h, BruteSupport(s, d), kValueTol * 3);
      if (d[0] == 0) {
        EXPECT_EQ(x[0], 0.0);
      }
      if (d[1] == 0) {
        EXPECT_EQ(x[1], 0.0);
      }
      ExpectSurfaceAndNormal(s, x, d);
    }
  }
}

TEST(Support, MirroredShapeMirrorsSupport) {
  // Negating the tapers mirrors the body in z.
  std::mt19937_64 rng(8);
  for (int k = 0; k < 100; ++k) {
    const sovc_shape s = RandomShape(rng, true);
    sovc_shape m = s;
    m.taper[0] = -s.taper[0], m.taper[1] = -s.taper[1];
    double d[3], dm[3], x[3], xm[3];
    RandomDirection(d, rng);
    dm[0] = d[0], dm[1] = d[1], dm[2] = -d[2];
    const double h = sovc_support(x, &s, d, NAN), hm = sovc_support(xm, &m, dm, NAN);
    EXPECT_NEAR(hm, h, kSameTol * 10 * h);
    EXPECT_NEAR(xm[2], -x[2], 1e-12 * s.a[2]);
  }
}

TEST(Support, ExtremeExponents) {
  for (double e1 : {0.02, 1.98}) {
    for (double e2 : {0.02, 1.98}) {
      const sovc_shape s = MakeShape(1.0, 0.6, 0.9, e1, e2, 0.0, 0.0);
      std::mt19937_64 rng(9);
      for (int k = 0; k < 20; ++k) {
        double d[3], x[3];
        RandomDirection(d, rng);
        const double h = sovc_support(x, &s, d, NAN);
        EXPECT_TRUE(std::isfinite(h));
        EXPECT_NEAR(h, Dot(d, x), kSameTol * 10 * std::fabs(h));
        EXPECT_NEAR(h, BruteSupport(s, d), 1e-9 * std::sqrt(Dot(d, d)));
      }
    }
  }
}

// Bug 24 (c_api_fuzz in CI): below eps = 2e-16 the dual exponent is exactly
// 1, and r^1 taken as exp(log r) put support points of box-like bodies up
// to 2e-14 of their size outside their box, for directions with a tiny
// component (r = 1e-141).
TEST(Support, BoxLikeBodiesKeepTheirPointsInTheirBox) {
  const double shapes[][7] = {
      {2.045932695167262e80, 4.4662266636329759, 2.8e-202, 2.8e-202, 2.8e-202, 0, 0},
      {1, 0.6, 0.9, 1e-17, 1e-17, 0, 0},
      {1, 0.6, 0.9, 1e-17, 0.5, 0, 0}};
  std::mt19937_64 rng(24);
  std::uniform_real_distribution<double> unit(-1, 1), exponent(-220, 0);
  for (const auto &p : shapes) {
    sovc_shape s;
    ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
    const double slack = 2 * DBL_EPSILON * s.radius;
    for (int k = 0; k < 2000; ++k) {
      double d[3] = {unit(rng), unit(rng), unit(rng)}, x[3];
      d[k % 3] *= std::pow(10.0, exponent(rng));  // one tiny component
      sovc_support(x, &s, d, NAN);
      for (int i = 0; i < 3; ++i) {
        ASSERT_LE(x[i], s.aabb_hi[i] + slack)
            << "shape " << p[0] << " dir " << d[0] << " " << d[1] << " " << d[2] << " axis " << i;
        ASSERT_GE(x[i], s.aabb_lo[i] - slack) << "shape " << p[0] << " axis " << i;
      }
    }
  }
}

TEST(Support, TinyDentStillGivesGlobalMaximum) {
  // eps2 < 1 with unequal tapers: the slice support c(s) N(s) is slightly
  // convex near s = 0 (a dent of ~1e-7 of the width, small enough to be
  // accepted), so f(s) = v3 a3 s + c N has two close maxima for nearly
  // horizontal directions. The support must be the larger one: compare with
  // a dense scan of the SPEC slice support.
  const sovc_shape s = MakeShape(1, 1, 1, 1.0, 0.3, 0.008, -0.008);
  for (int k = -40; k <= 40; ++k) {
    const double d[3] = {1, 1, k * 1e-4};
    double x[3];
    const double h = sovc_support(x, &s, d, NAN);
    double best = -HUGE_VAL;
    for (int i = 0; i <= 100000; ++i) {
      const double z = -0.8 + 1.6 * i / 100000;
      const double c = std::pow(1 - std::pow(std::fabs(z), 2 / s.eps2), s.eps2 / 2);
      const double N = std::hypot(1 + s.taper[0] * z, 1 + s.taper[1] * z);  // q = 2
      best = std::max(best, d[2] * z + c * N);
    }
    EXPECT_GE(h, best - kSameTol) << "v3 " << d[2];
    ExpectSurfaceAndNormal(s, x, d);
  }
}

// Maximum of f over [lo, hi] when it may have several local maxima: a grid
// of n points, then golden section around every grid-local maximum.
template <class Fn>
double MultimodalMax(Fn f, double lo, double hi, int n) {
  std::vector<double> v(n + 1);
  for (int i = 0; i <= n; ++i) v[i] = f(lo + (hi - lo) * i / n);
  double best = -HUGE_VAL;
  for (int i = 0; i <= n; ++i) {
    if ((i > 0 && v[i - 1] > v[i]) || (i < n && v[i + 1] > v[i])) continue;
    const double a = lo + (hi - lo) * std::max(i - 1, 0) / n;
    const double b = lo + (hi - lo) * std::min(i + 1, n) / n;
    best = std::max(best, UnimodalMax(f, a, b, 2));
  }
  return best;
}

TEST(Support, DentZoneWithTwoMaximaGivesTheHigher) {
  // A fitted iCub finger link (eps1 = 0.1, unequal tapers, dent ~1e-6) and
  // directions around the one of a refused iCub pair query: f(s) has a
  // maximum on each side of a local minimum inside the dent zone (s near
  // +-0.043, about 5e-16 apart), and the higher one must be found whichever
  // the first solve lands on. Brute force: every latitude's slice maximum
  // (unimodal in longitude, over the first quadrant as d1, d2 > 0), all
  // local maxima over latitude refined.
  const double p[7] = {0.0051795649575494956, 0.0050666421958565234, 0.014055528685330089,
                       0.10000000000180029,   0.3958866919927192,    0.077001676351266618,
                       0.27514813711595176};
  sovc_shape s;
  ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
  ASSERT_GT(s.dent, SOVC_DENT_NEGLECT);
  for (int k = -5; k <= 5; ++k) {
    const double d[3] = {0.041697290363037216, 0.9941704894573915,
                         -0.099430246245480275 + k * 2e-7};
    double x[3];
    const double h = sovc_support(x, &s, d, NAN);
    auto slice = [&](double p2) {
      return UnimodalMax(
          [&](double t) {
            double y[3];
            Param(y, s, t, p2);
            return Dot(d, y);
          },
          0.0, kPi / 2, 16);
    };
    const double brute = MultimodalMax(slice, -kPi / 2, kPi / 2, 2000);
    EXPECT_GE(h, brute - 3 * kValueTol * brute) << "v3 " << d[2];
    ExpectSurfaceAndNormal(s, x, d);
  }
}

// A random shape accepted by sovc_shape_init (so its dent is known), or
// none after 100 rejections.
bool RandomValidShape(sovc_shape* s, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> size(0.3, 2.5), eps(0.1, 1.9), tap(-0.6, 0.6);
  for (int tries = 0; tries < 100; ++tries) {
    const double p[7] = {size(rng), size(rng), size(rng), eps(rng), eps(rng), tap(rng), tap(rng)};
    if (sovc_shape_init(s, p) == SOV_OK) return true;
  }
  return false;
}

TEST(Support, DentedBodiesGiveTheGlobalMaximumFromEveryHint) {
  // A dented body's search solves from its hint, then bounds the dent zone
  // and the other side of it, searching only where a bound does not rule
  // out a higher point. From every hint, the zone's edges included, the
  // answer must be the global maximum of the SPEC slice support
  // f(s) = v3 a3 s + c(s) N(s) (every grid-local maximum refined). Nearly
  // horizontal directions: the dent lies near the equator. (The two maxima
  // inside a zone are DentZoneWithTwoMaximaGivesTheHigher's case.)
  std::mt19937_64 rng(13);
  int dented = 0;
  for (int tries = 0; tries < 20000 && dented < 25; ++tries) {
    sovc_shape s;
    ASSERT_TRUE(RandomValidShape(&s, rng));
    if (!(s.dent > SOVC_DENT_NEGLECT)) continue;
    ++dented;
    const double q = 2 / (2 - s.eps1), m = 2 / s.eps2;
    for (int j = 0; j < 8; ++j) {
      double d[3], x[3];
      RandomDirection(d, rng);
      d[2] *= j < 4 ? 1e-2 : 1e-4;
      auto f = [&](double z) {
        const double c = std::pow(1 - std::pow(std::fabs(z), m), 1 / m);
        const double X = std::fabs(s.a[0] * (1 + s.taper[0] * z) * d[0]);
        const double Y = std::fabs(s.a[1] * (1 + s.taper[1] * z) * d[1]);
        return d[2] * s.a[2] * z + c * std::pow(std::pow(X, q) + std::pow(Y, q), 1 / q);
      };
      const double brute = MultimodalMax(f, -1.0, 1.0, 4000);
      for (double hint :
           {double(NAN), -0.95, s.dent_zone[0] - 0.05, 0.0, s.dent_zone[1] + 0.05, 0.95}) {
        const double h = sovc_support(x, &s, d, hint);
        EXPECT_GE(h, brute - 10 * kValueTol * std::fabs(brute))
            << "shape " << dented << " hint " << hint;
        ExpectSurfaceAndNormal(s, x, d);
      }
    }
  }
  EXPECT_EQ(dented, 25);
}

// A random accepted tapered shape, not dented, whose exponents are drawn
// from the given ranges (redrawn until sovc_shape_init accepts the body),
// or none after 1000 rejections.
bool RandomShapeIn(sovc_shape* s, std::mt19937_64& rng, double e1_lo, double e1_hi, double e2_lo,
                   double e2_hi, bool equal_tapers) {
  std::uniform_real_distribution<double> size(0.05, 2), e1(e1_lo, e1_hi), e2(e2_lo, e2_hi),
      tap(-0.5, 0.5), unit(0, 1);
  for (int tries = 0; tries < 1000; ++tries) {
    // Small tapers too (eps2 near 2 allows only those) and unequal ones
    // close to each other (flat profiles dent otherwise).
    const double tx = unit(rng) * tap(rng);
    const double ty = equal_tapers ? tx : tx + unit(rng) * unit(rng) * 0.1 * tap(rng);
    const double p[7] = {size(rng), size(rng), size(rng), e1(rng), e2(rng), tx, ty};
    if (sovc_shape_init(s, p) == SOV_OK && s->dent <= SOVC_DENT_NEGLECT) return true;
  }
  return false;
}

// The 1-D search's hard cases: flat profiles (eps2 in [0.1, 0.2], where
// Halley's steps in the unknown crawl or overshoot to a pole), diamond
// profiles and cross-sections (eps near 1.9), nearly horizontal directions
// (the support on a side face) and hints far from the answer or at the
// poles. Every hint must give the brute-force maximum over the SPEC surface
// and a point where the normal is dir.
TEST(Support, HardProfilesMatchBruteForceFromEveryHint) {
  std::mt19937_64 rng(14);
  const double bands[3][4] = {{0.1, 1.9, 0.1, 0.2}, {0.1, 1.9, 1.8, 1.9}, {1.8, 1.9, 0.1, 1.9}};
  const double hints[] = {NAN, -0.99, -0.5, 0.0, 0.5, 0.99, -1 + 1e-12, 1 - 1e-12};
  for (int k = 0; k < 24; ++k) {
    const double* b = bands[k % 3];
    sovc_shape s;
    ASSERT_TRUE(RandomShapeIn(&s, rng, b[0], b[1], b[2], b[3], k % 2 == 0));
    double d[3];
    RandomDirection(d, rng);
    if (k % 4 < 2) d[2] *= k % 4 == 0 ? 1e-1 : 1e-3;  // nearly horizontal
    const double brute = BruteSupport(s, d);
    for (double hint : hints) {
      double x[3];
      const double h = sovc_support(x, &s, d, hint);
      EXPECT_NEAR(h, brute, kValueTol * std::sqrt(Dot(d, d)) * 3) << "shape " << k << " hint " << hint;
      EXPECT_NEAR(h, Dot(d, x), kSameTol * std::fabs(h) * 4);
      ExpectSurfaceAndNormal(s, x, d);
    }
  }
}

// A pair of the contact battery (robot-scale, eps2 = 0.16): from the hint
// -0.74 the search went to a pole, where Halley's steps crawl, and bisected
// 53 times for the support at s = 0.91 on the other side.
TEST(Support, FlatProfileFromTheFarSideOfTheBody) {
  const sovc_shape s = MakeShape(0.354331974692316, 0.08127100737947258, 0.39284222022524523,
                                 1.5571507987408229, 0.15975365837546382, 0.019405795875714386,
                                 0.019405795875714386);
  const double d[3] = {0.06885199527932025, 0.9929942219024455, 0.09603060977841688};
  double x[3], xn[3];
  const double h = sovc_support(x, &s, d, -0.7375908425449162);
  EXPECT_NEAR(h, BruteSupport(s, d), kValueTol * 3);
  EXPECT_NEAR(h, sovc_support(xn, &s, d, NAN), kSameTol * h);
  ExpectSurfaceAndNormal(s, x, d);
}

// Equal tapers take the slice norm at s = 0 scaled by 1 + t s; a taper one
// ulp away takes the general slice norm at every height. Both must agree.
TEST(Support, EqualTapersAgreeWithTapersAnUlpApart) {
  std::mt19937_64 rng(15);
  for (int k = 0; k < 300; ++k) {
    sovc_shape s;
    ASSERT_TRUE(RandomShapeIn(&s, rng, 0.1, 1.9, 0.1, 1.9, true));
    sovc_shape u = s;
    u.taper[1] = std::nextafter(s.taper[1], 2.0);
    double d[3], x[3], xu[3];
    RandomDirection(d, rng);
    const double h = sovc_support(x, &s, d, NAN), hu = sovc_support(xu, &u, d, NAN);
    EXPECT_NEAR(hu, h, kSameTol * 10 * h) << "shape " << k;
    ExpectSurfaceAndNormal(s, x, d);
  }
}

// Directions whose a1 v1 and a2 v2 underflow to 0 (every slice support is 0)
// have the pole as their support point, as exactly vertical ones do; the
// support bound of such a direction was NaN.
TEST(Support, UnderflowingHorizontalPartGivesThePole) {
  const sovc_shape s = MakeShape(0.3, 0.17, 1.7, 0.27, 0.16, 0.0026, 0.0026);
  for (double sign : {1.0, -1.0}) {
    const double d[3] = {-5e-324, 0, sign * 3.5e-84};
    double x[3];
    const double h = sovc_support(x, &s, d, -0.002);
    EXPECT_EQ(h, 3.5e-84 * 1.7);
    EXPECT_EQ(x[0], 0.0);
    EXPECT_EQ(x[1], 0.0);
    EXPECT_EQ(x[2], sign * 1.7);
    double lower;
    EXPECT_EQ(sovc_support_bound(&lower, &s, d), h);  // not NaN
    EXPECT_EQ(lower, h);
  }
}

TEST(SupportBound, BoundsTheSupportFromAbove) {
  std::mt19937_64 rng(10);
  int below_exact = 0, tapered_convex = 0;  // convex: every valid shape that is not dented
  for (int k = 0; k < 150; ++k) {
    sovc_shape s;
    ASSERT_TRUE(RandomValidShape(&s, rng));
    for (int j = 0; j < 4; ++j) {
      double d[3], x[3];
      RandomDirection(d, rng);
      if (j == 3) d[2] = 0;  // horizontal directions too
      double lower;
      const double h = sovc_support(x, &s, d, NAN), u = sovc_support_bound(&lower, &s, d);
      EXPECT_LE(lower, h + kSameTol * 10 * std::sqrt(Dot(d, d))) << "shape " << k;
      EXPECT_LE(lower, u) << "shape " << k;
      if (j == 0 && k % 3 == 0) {  // the brute force is slow; sovc_support is checked against it
        EXPECT_GE(u, BruteSupport(s, d) - kValueTol * std::sqrt(Dot(d, d)) * 3) << "shape " << k;
      }
      EXPECT_GE(u, h) << "shape " << k;
      if (s.dent > 0) {
        EXPECT_EQ(u, h) << "a dented body gets its exact support";
      } else {
        ++tapered_convex;
        below_exact += u < h + 0.1 * std::sqrt(Dot(d, d));
      }
    }
  }
  // Useful as well as sound: most bounds are within a tenth of the size.
  EXPECT_GT(below_exact, tapered_convex * 3 / 4);
}

TEST(SupportBound, ExactWhenUntapered) {
  std::mt19937_64 rng(11);
  for (int k = 0; k < 50; ++k) {
    const sovc_shape s = RandomShape(rng, false);
    double d[3], x[3];
    RandomDirection(d, rng);
    double lower;
    EXPECT_EQ(sovc_support_bound(&lower, &s, d), sovc_support(x, &s, d, NAN));
    EXPECT_EQ(lower, sovc_support(x, &s, d, NAN));
  }
}

TEST(SupportSteps, SurfacePointsBelowTheSupportApproachingItStepByStep) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> height(-0.999, 0.999), nudge(-0.05, 0.05);
  double gap0 = 0, gap1 = 0;
  for (int k = 0; k < 200; ++k) {
    sovc_shape s;
    ASSERT_TRUE(RandomValidShape(&s, rng));
    double d[3], x[3];
    RandomDirection(d, rng);
    const double h = sovc_support(x, &s, d, NAN);
    // A random height, and one near the support's (as a neighbour's hint).
    const double z_near = std::max(-0.999, std::min(0.999, x[2] / s.a[2] + nudge(rng)));
    for (double z : {height(rng), z_near}) {
      double previous = -HUGE_VAL;
      for (int steps : {0, 1, 3}) {
        double xs[3];
        const double v = sovc_support_steps(xs, &s, d, z, steps);
        EXPECT_LE(v, h + kSameTol * 10 * std::sqrt(Dot(d, d)));
        EXPECT_GE(v, previous) << "a step never lowers the value";
        previous = v;
        EXPECT_NEAR(v, Dot(d, xs), kSameTol * 10 * (std::fabs(v) + 1));
        long double F, g[3];
        SpecImplicitLong(&F, g, s, xs);
        const long double gn = std::sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
        EXPECT_LE(std::fabs((double)(F / gn)), kSupportSurfaceTol)
            << "shape " << k << " steps " << steps;
        if (z == z_near && steps == 0) gap0 += h - v;
        if (z == z_near && steps == 1) gap1 += h - v;
      }
    }
    // At the support's own height the slice's support is the support.
    double xs[3];
    EXPECT_NEAR(sovc_support_steps(xs, &s, d, x[2] / s.a[2], 0), h, 1e-12 * std::sqrt(Dot(d, d)));
  }
  EXPECT_LT(gap1, 0.1 * gap0) << "one step from a nearby height closes most of the gap";
}

// Hardening bug 2 (a wrong overlap distance): on flat profiles (eps2 near 0)
// a hint far from the support's height sent Halley into the region where the
// unknown's power 2/eps2 - 1 makes its steps crawl, and the search stopped
// unconverged below the maximum. Every hint must give the unhinted answer,
// which a dense scan of the slice supports confirms.
TEST(Support, FlatProfilesGiveTheMaximumFromAnyHint) {
  std::mt19937_64 rng(13);
  for (double e2 : {0.01, 0.05, 0.1}) {
    sovc_shape s;
    const double p[7] = {167.3, 167.3, 167.3, 1.003, e2, 0, 1e-6};
    ASSERT_EQ(sovc_shape_init(&s, p), SOV_OK);
    for (int k = 0; k < 40; ++k) {
      double d[3], x[3], xh[3];
      RandomDirection(d, rng);
      const double h = sovc_support(x, &s, d, NAN);
      double scan = -HUGE_VAL;  // max over heights of the slice support (q = 2 / (2 - eps1))
      const double q = 2 / (2 - s.eps1);
      for (int i = 0; i <= 20000; ++i) {
        const double z = -1 + 2.0 * i / 20000;
        const double c = std::pow(1 - std::pow(std::fabs(z), 2 / e2), e2 / 2);
        const double X = s.a[0] * std::fabs(d[0]), Y = s.a[1] * (1 + s.taper[1] * z) * std::fabs(d[1]);
        scan = std::max(scan, d[2] * s.a[2] * z + c * std::pow(std::pow(X, q) + std::pow(Y, q), 1 / q));
      }
      EXPECT_GE(h, scan - 1e-9 * s.a[0]) << "eps2 " << e2 << " direction " << k;
      for (int j = 0; j <= 20; ++j) {
        const double hint = -0.999 + 1.998 * j / 20;
        EXPECT_NEAR(sovc_support(xh, &s, d, hint), h, 1e-12 * s.a[0])
            << "eps2 " << e2 << " direction " << k << " hint " << hint;
      }
    }
  }
}

// Slice support f(s) = v3 a3 s + c(s) N(s) of SPEC "Valid parameters" in long
// double, c(s) = (1 - |s|^m)^(1/m), N the l_q norm of (a1 kx |v1|, a2 ky |v2|)
// with the larger term factored out (q reaches 1e9 as eps1 nears 2).
long double SliceSupportLong(const sovc_shape& s, const double d[3], long double z) {
  const long double m = 2.0L / s.eps2, q = 2.0L / (2.0L - s.eps1), az = std::fabs(z);
  const long double c = az >= 1 ? 0.0L : std::exp(std::log1p(-std::pow(az, m)) / m);
  const long double X = std::fabs(s.a[0] * (1 + s.taper[0] * z) * (long double)d[0]);
  const long double Y = std::fabs(s.a[1] * (1 + s.taper[1] * z) * (long double)d[1]);
  const long double big = std::max(X, Y), small = std::min(X, Y);
  const long double N = big == 0 ? 0.0L : big * std::exp(std::log1p(std::pow(small / big, q)) / q);
  return (long double)d[2] * s.a[2] * z + c * N;
}

// The support value along d by brute force over the slices: the larger of
// the multimodal maxima over heights and over latitudes (the latter dense
// near the poles).
double SliceSupportMax(const sovc_shape& s, const double d[3]) {
  auto height = [&](double z) { return (double)SliceSupportLong(s, d, z); };
  auto latitude = [&](double t) {
    return (double)SliceSupportLong(s, d, Spow(std::sin(t), s.eps2));
  };
  return std::max(MultimodalMax(height, -1.0, 1.0, 6000),
                  MultimodalMax(latitude, -kPi / 2, kPi / 2, 6000));
}

// Supports of nearly degenerate exponents (eps1 within 1e-8 of 2, eps2 near
// 1e-5 or 3e-4; tapers of 1e-6 at the dent limit): the slice support
// switches between its x and y terms within 1e-3 of height (a kink of f, a
// local minimum), and for directions where the body's two corners nearly
// tie, f has a maximum near each pole. The dent-zone scan stepped over the
// kink and the maximum beside it (both in one scanned cell) and returned the
// other corner, 3.1e-7 short on a body of size 4 (the first direction, from
// an accuracy hunt). Brute force: every local maximum of f over a grid of
// heights and one of latitudes (s = sin(t)^eps2 resolves the poles), refined.
TEST(Support, NearlyDegenerateExponentsGiveTheHigherCorner) {
  const double shapes[2][7] = {
      {3.2197614699938661, 1.3925542540253777, 4.0707829839276712, 1.9999999978785246,
       8.7274971652220476e-06, -2.6568208749720414e-07, 1.7871118978935023e-06},
      {2.0645074648354096, 1.5766272210741457, 3.676263669848292, 1.9999999903602679,
       0.00026634864355301602, -4.4353292769006065e-06, -2.3771851139021324e-06}};
  const double found[2][3] = {{0.39696457303431332, -0.91783393255826551, -5.6109553998767475e-07},
                              {-0.60693724834103235, 0.79474975720285124, 1.491630387444999e-06}};
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int k = 0; k < 2; ++k) {
    sovc_shape s;
    ASSERT_EQ(sovc_shape_init(&s, shapes[k]), SOV_OK);
    ASSERT_GT(s.dent, SOVC_DENT_NEGLECT);
    for (int j = 0; j < 20; ++j) {
      double d[3] = {found[k][0], found[k][1], found[k][2]}, x[3];
      if (j > 0) {  // a1 |d1| kx = a2 |d2| ky at a random height, d3 near the corners' tie
        const double zs = 2 * unit(rng) - 1, tx = s.taper[0], ty = s.taper[1];
        d[0] = 1 / s.a[0];
        d[1] = (1 + tx * zs) / ((1 + ty * zs) * s.a[1]);
        const double tie = (1 - tx - s.a[1] * d[1] * (1 + ty)) / 2;
        d[2] = (tie + (unit(rng) - 0.5) * std::fabs(tx - ty) * std::pow(10.0, -6 * unit(rng))) /
               s.a[2];
      }
      const double brute = SliceSupportMax(s, d);
      const double h = sovc_support(x, &s, d, NAN);
      EXPECT_GE(h, brute - 3 * kValueTol * std::fabs(brute)) << "shape " << k << " direction " << j;
      EXPECT_NEAR(h, Dot(d, x), kSameTol * std::fabs(h) * 4);
    }
  }
}

// A box-like link of a fitted Panda union (eps1 0.1, tapers -0.86 and -0.39,
// dented at the acceptance limit) along directions nearly in its x-z plane:
// its dent zone's support function rises over most of the zone and peaks in
// its last cell next to a minimum. The zone's halvings were all spent on the
// rising cells below it (their bounds still exceeded the best value), and
// the support returned the zone's end, 2e-8 of the size below the maximum.
TEST(Support, DentZoneHalvingsReachTheCellOfTheMaximum) {
  const double shape[7] = {0.0037669236422637068, 0.01386163337748742, 0.027207997917500559,
                           0.10000000000601501,   0.6231277993619273,  -0.85529009438781012,
                           -0.39341182506985301};
  sovc_shape s;
  ASSERT_EQ(sovc_shape_init(&s, shape), SOV_OK);
  ASSERT_GT(s.dent, SOVC_DENT_NEGLECT);
  std::mt19937_64 rng(35);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int j = 0; j < 12; ++j) {
    // d2 from 0 to 1e-3 (the cross-section's flat side), d3 near 0.137.
    double d[3] = {0.99055148934608495, j == 0 ? 0.0 : std::pow(10.0, -3 - 9 * unit(rng)),
                   0.13714133933374295 + (j < 2 ? 0.0 : 0.02 * (unit(rng) - 0.5))};
    const double brute = SliceSupportMax(s, d);
    double x[3];
    const double h = sovc_support(x, &s, d, NAN);
    EXPECT_GE(h, brute - 3 * kValueTol * std::fabs(brute)) << "direction " << j;
    EXPECT_NEAR(h, Dot(d, x), kSameTol * std::fabs(h) * 4) << "direction " << j;
  }
}

// Another Panda union body (tapers 0.82 and 0.22, dented at the acceptance
// limit): along this direction its dent zone's first cell holds two maxima
// 0.022 apart in s, 7.8e-11 apart in value, with a minimum between them.
// From half the hints the search took the lower one; the zone's halvings,
// depth first from the zone's low end, were spent at that end before
// reaching the higher, and a deep overlap with it was answered 2.5e-9 of
// the pair's size above the objective at its own normal.
TEST(Support, DentZoneCellWithTwoMaximaFromEveryHint) {
  const double shape[7] = {0.0086643948019665545, 0.0008187742006522796, 0.0135976397851367,
                           0.59247541883861421,   0.73927823720404306,   0.81535679970135777,
                           0.2237209447764052};
  const double d[3] = {-0.83986761647126018, -0.088521633280228468, -0.53552432927392246};
  sovc_shape s;
  ASSERT_EQ(sovc_shape_init(&s, shape), SOV_OK);
  ASSERT_GT(s.dent, SOVC_DENT_NEGLECT);
  const double brute = SliceSupportMax(s, d);
  for (int k = 0; k <= 20; ++k) {
    const double hint = k == 20 ? NAN : -0.95 + 0.1 * k;
    double x[3];
    const double h = sovc_support(x, &s, d, hint);
    EXPECT_GE(h, brute - 3 * kValueTol * std::fabs(brute)) << "hint " << hint;
    EXPECT_NEAR(h, Dot(d, x), kSameTol * std::fabs(h) * 4) << "hint " << hint;
  }
}

}  // namespace
