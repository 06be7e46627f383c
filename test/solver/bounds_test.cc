// Tests of the local bounds and volume (solver/bounds.c) against dense
// sampling of the SPEC parametric surface and numerical quadrature.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

extern "C" {
#include "solver/bounds.h"
#include "solver/shape.h"
}

#include "spec_reference.h"

namespace {

using sov_spec::MakeShape;
using sov_spec::Norm;
using sov_spec::Param;

using sov_spec::kPi;
// Closed-form volume against quadrature (relative).
constexpr double kVolumeTol = 1e-7;
// How far a sampled-and-refined maximum may sit below an exact bound (relative).
constexpr double kTightTol = 1e-9;
// How far a sample may exceed a bound: rounding only (relative).
constexpr double kEncloseTol = 1e-14;

// Maximum over the parametric surface of f(x): grid, then compass search.
template <class Fn>
double SurfaceMax(const sovc_shape& s, Fn f) {
  const int n = 200;
  double best = -HUGE_VAL, b1 = 0, b2 = 0, x[3];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= n; ++j) {
      const double p1 = -kPi + 2 * kPi * i / n, p2 = -kPi / 2 + kPi * j / n;
      Param(x, s, p1, p2);
      if (f(x) > best) best = f(x), b1 = p1, b2 = p2;
    }
  }
  for (double step = 2 * kPi / n; step > 1e-15; step *= 0.5) {
    for (bool moved = true; moved;) {
      moved = false;
      const double cand[4][2] = {{b1 + step, b2}, {b1 - step, b2}, {b1, b2 + step}, {b1, b2 - step}};
      for (const auto& c : cand) {
        if (std::fabs(c[1]) > kPi / 2) continue;
        Param(x, s, c[0], c[1]);
        if (f(x) > best) best = f(x), b1 = c[0], b2 = c[1], moved = true;
      }
    }
  }
  return best;
}

// Largest |x| over a dense grid of the surface, without refinement.
double SampledRadius(const sovc_shape& s, int n) {
  double best = 0, x[3];
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= n; ++j) {
      Param(x, s, -kPi + 2 * kPi * i / n, -kPi / 2 + kPi * j / n);
      best = std::max(best, Norm(x));
    }
  }
  return best;
}

// Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n).
void GaussLegendre(std::vector<double>& t, std::vector<double>& w, int n) {
  t.resize(n), w.resize(n);
  for (int i = 0; i < n; ++i) {
    double x = std::cos(kPi * (i + 0.75) / (n + 0.5)), dp = 0;
    for (int it = 0; it < 100; ++it) {
      double p0 = 1, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k;
        p0 = p1, p1 = p2;
      }
      dp = n * (x * p1 - p0) / (x * x - 1);
      const double dx = p1 / dp;
      x -= dx;
      if (std::fabs(dx) < 1e-16) break;
    }
    t[i] = x, w[i] = 2 / ((1 - x * x) * dp * dp);
  }
}

// Volume by quadrature of the SPEC implicit description: at each height the
// y half-extent over x comes from F = 0. Both integrals use Gauss-Legendre
// with the grading u = 1 - (1 - v)^7 to tame the endpoint root singularity.
double QuadratureVolume(const sovc_shape& s) {
  std::vector<double> t, w;
  GaussLegendre(t, w, 400);
  const int k = 7;
  // integral over [-1, 1] of g(u), as the integral over [0, 1] of g(u) + g(-u).
  auto integrate = [&](auto g) {
    double sum = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      // u = 1 - (1 - v)^k on [0, 1] with v = (t + 1)/2: dense near u = 1.
      const double v = 0.5 * (t[i] + 1), u = 1 - std::pow(1 - v, k);
      const double du = 0.5 * k * std::pow(1 - v, k - 1);
      sum += w[i] * du * (g(u) + g(-u));
    }
    return sum;
  };
  return integrate([&](double zs) {
    const double c = std::pow(std::max(0.0, 1 - std::pow(std::fabs(zs), 2 / s.eps2)), s.eps2 / 2);
    const double A = s.a[0] * (1 + s.taper[0] * zs) * c, B = s.a[1] * (1 + s.taper[1] * zs) * c;
    if (A <= 0) return 0.0;
    const double profile = integrate([&](double xs) {  // xs = x / A in [-1, 1]
      return std::pow(std::max(0.0, 1 - std::pow(std::fabs(xs), 2 / s.eps1)), s.eps1 / 2);
    });
    return s.a[2] * 2 * A * B * profile;  // slice area 2 A B int (..) dxs
  });
}

TEST(ShapeBounds, EllipsoidVolumeIsClosedForm) {
  const sovc_shape s = MakeShape(1.3, 0.4, 2.1, 1.0, 1.0, 0.0, 0.0);
  EXPECT_NEAR(sovc_shape_volume(&s), 4.0 / 3.0 * kPi * 1.3 * 0.4 * 2.1, 1e-14);
}

TEST(ShapeBounds, VolumeMatchesQuadrature) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> size(0.3, 2.5), eps(0.2, 1.9), tap(-0.3, 0.3);
  for (int k = 0; k < 12; ++k) {
    const sovc_shape s = MakeShape(size(rng), size(rng), size(rng), eps(rng), eps(rng), tap(rng), tap(rng));
    const double v = sovc_shape_volume(&s), q = QuadratureVolume(s);
    EXPECT_NEAR(v, q, kVolumeTol * q) << "shape " << k;
  }
}

TEST(ShapeBounds, AabbMatchesSurfaceExtremes) {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> size(0.3, 2.5), eps(0.1, 1.9), tap(-0.35, 0.35);
  for (int k = 0; k < 15; ++k) {
    const sovc_shape s = MakeShape(size(rng), size(rng), size(rng), eps(rng), eps(rng), tap(rng), tap(rng));
    double lo[3], hi[3], r;
    sovc_shape_bounds(lo, hi, &r, &s);
    for (int i = 0; i < 3; ++i) {
      const double top = SurfaceMax(s, [i](const double* x) { return x[i]; });
      const double bot = -SurfaceMax(s, [i](const double* x) { return -x[i]; });
      EXPECT_NEAR(hi[i], top, kTightTol * hi[i]) << "shape " << k << " axis " << i;
      EXPECT_NEAR(lo[i], bot, kTightTol * hi[i]) << "shape " << k << " axis " << i;
      EXPECT_GE(hi[i], top - kEncloseTol * hi[i]);
      EXPECT_LE(lo[i], bot + kEncloseTol * hi[i]);
    }
    EXPECT_DOUBLE_EQ(hi[2], s.a[2]);
    EXPECT_DOUBLE_EQ(lo[2], -s.a[2]);
  }
}

TEST(ShapeBounds, RadiusEnclosesAndIsTight) {
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> size(0.3, 2.5), eps(0.05, 1.95), tap(-0.35, 0.35);
  for (int k = 0; k < 25; ++k) {
    const sovc_shape s = MakeShape(size(rng), size(rng), size(rng), eps(rng), eps(rng), tap(rng), tap(rng));
    double lo[3], hi[3], r;
    sovc_shape_bounds(lo, hi, &r, &s);
    const double sampled = SampledRadius(s, 400);
    const double refined = SurfaceMax(s, [](const double* x) { return Norm(x); });
    EXPECT_GE(r, std::max(sampled, refined)) << "shape " << k;
    EXPECT_LE(r, refined * (1 + kTightTol)) << "shape " << k;
  }
}

TEST(ShapeBounds, RadiusOfBoxLikeBodyReachesTheCorner) {
  // eps -> 0 approaches a box: the farthest point is near the corner.
  const sovc_shape s = MakeShape(1.0, 2.0, 3.0, 0.05, 0.05, 0.0, 0.0);
  double lo[3], hi[3], r;
  sovc_shape_bounds(lo, hi, &r, &s);
  const double corner = std::sqrt(1.0 + 4.0 + 9.0);
  EXPECT_LT(r, corner);
  EXPECT_GT(r, 0.95 * corner);
  EXPECT_GE(r, SampledRadius(s, 600));
}

TEST(ShapeBounds, SphereRadiusIsItsSize) {
  const sovc_shape s = MakeShape(1.7, 1.7, 1.7, 1.0, 1.0, 0.0, 0.0);
  double lo[3], hi[3], r;
  sovc_shape_bounds(lo, hi, &r, &s);
  EXPECT_GE(r, 1.7);
  EXPECT_LE(r, 1.7 * (1 + 2e-12));
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(hi[i], 1.7, 1e-15);
    EXPECT_NEAR(lo[i], -1.7, 1e-15);
  }
}

}  // namespace
