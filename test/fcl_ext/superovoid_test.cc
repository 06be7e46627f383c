// sov::Superovoid as an FCL shape: validation, node type, bounds, volume,
// centre of mass and inertia against independent computations.
#include "superovoid/fcl/superovoid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include "fcl_test_util.h"
#include "superovoid/fcl/error.h"

namespace {

using sov_test::Transform;
using sov_test::Vector;

// Relative accuracy of the surface quadrature below (observed: 4e-9).
constexpr double kQuadratureTolerance = 1e-7;
// How close sampled surface points come to the exact bounds (grid spacing).
constexpr double kSampleGap = 2e-3;

// Surface points of a superovoid on a parameter grid (sov_shape_point).
std::vector<Vector> surfaceSamples(const sov_shape& s, int n) {
  std::vector<Vector> points;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j <= n; ++j) {
      const double phi1 = -M_PI + 2 * M_PI * i / n, phi2 = -M_PI / 2 + M_PI * j / n;
      Vector x;
      EXPECT_EQ(sov_shape_point(x.data(), nullptr, nullptr, nullptr, &s, phi1, phi2), SOV_OK);
      points.push_back(x);
    }
  }
  return points;
}

// Box of 400 surface samples of s posed by tf.
fcl::AABB<double> sampledBox(const sov::Superovoid& s, const Transform& tf) {
  fcl::AABB<double> box;
  box.min_ = Vector::Constant(1e9);
  box.max_ = Vector::Constant(-1e9);
  for (const Vector& x : surfaceSamples(s.shape(), 400)) {
    box.min_ = box.min_.cwiseMin(tf * x);
    box.max_ = box.max_.cwiseMax(tf * x);
  }
  return box;
}

// box encloses the sampled box and touches it to the sampling's gap.
void expectTightBox(const fcl::AABB<double>& box, const fcl::AABB<double>& sampled) {
  for (int i = 0; i < 3; ++i) {
    EXPECT_LE(box.min_[i], sampled.min_[i] + 1e-12);
    EXPECT_GE(box.max_[i], sampled.max_[i] - 1e-12);
    EXPECT_NEAR(box.min_[i], sampled.min_[i], kSampleGap);
    EXPECT_NEAR(box.max_[i], sampled.max_[i], kSampleGap);
  }
}

// Volume integrals by the divergence theorem over the parametric surface
// (sov_shape_point and its tangents). Each quadrant of the parameters is
// mapped by u = g(t), g'(t) = 630 t^4 (1 - t)^4, which smooths the power-law
// behaviour of spow at the quadrant lines, then integrated by composite
// Gauss-Legendre.
struct SurfaceMoments {
  double volume = 0, z = 0, xx = 0, yy = 0, zz = 0, xy = 0;
};

// Nodes u and weights w of the mapped rule on [lo, hi], appended.
void quadrantRule(double lo, double hi, std::vector<double>& u, std::vector<double>& w) {
  static const double kNodes[4] = {0.1834346424956498, 0.5255324099163290,
                                   0.7966664774136267, 0.9602898564975363};
  static const double kWeights[4] = {0.3626837833783620, 0.3137066458778873,
                                     0.2223810344533745, 0.1012285362903763};
  const int panels = 24;
  for (int p = 0; p < panels; ++p) {
    for (int k = 0; k < 8; ++k) {
      const double node = k < 4 ? -kNodes[k] : kNodes[k - 4];
      const double t = (p + 0.5 + 0.5 * node) / panels;
      const double g = t * t * t * t * t * (126 + t * (-420 + t * (540 + t * (-315 + t * 70))));
      const double dg = 630 * std::pow(t * (1 - t), 4);
      u.push_back(lo + (hi - lo) * g);
      w.push_back((hi - lo) * dg * 0.5 * kWeights[k < 4 ? k : k - 4] / panels);
    }
  }
}

SurfaceMoments surfaceMoments(const sov_shape& s) {
  std::vector<double> u1, w1, u2, w2;
  for (int q = 0; q < 4; ++q) quadrantRule(-M_PI + q * M_PI / 2, -M_PI / 2 + q * M_PI / 2, u1, w1);
  for (int q = 0; q < 2; ++q) quadrantRule(-M_PI / 2 + q * M_PI / 2, q * M_PI / 2, u2, w2);
  SurfaceMoments m;
  for (std::size_t i = 0; i < u1.size(); ++i) {
    for (std::size_t j = 0; j < u2.size(); ++j) {
      Vector x, t1, t2;
      sov_shape_point(x.data(), t1.data(), t2.data(), nullptr, &s, u1[i], u2[j]);
      const Vector N = t1.cross(t2) * (w1[i] * w2[j]);  // outward area element
      m.volume += x.x() * N.x();
      m.z += 0.5 * x.z() * x.z() * N.z();
      m.xx += x.x() * x.x() * x.x() / 3 * N.x();
      m.yy += x.y() * x.y() * x.y() / 3 * N.y();
      m.zz += x.z() * x.z() * x.z() / 3 * N.z();
      m.xy += 0.5 * x.x() * x.x() * x.y() * N.x();
    }
  }
  return m;
}

TEST(FclSuperovoid, InvalidExponentThrowsWithExplanation) {
  try {
    sov::Superovoid s(1, 1, 1, 1, 2.5);
    FAIL() << "no exception";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_EXPONENT);
    EXPECT_NE(std::string(e.what()).find("eps2 = 2.5"), std::string::npos) << e.what();
  }
}

TEST(FclSuperovoid, NonConvexTaperThrowsWithExplanation) {
  try {
    sov::Superovoid s(1, 1, 1, 1.9, 1.9, 0.6, 0.6);
    FAIL() << "no exception";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_NONCONVEX);
    EXPECT_NE(std::string(e.what()).find("non-convex"), std::string::npos) << e.what();
  }
}

TEST(FclSuperovoid, ParametersRoundTrip) {
  const std::array<double, 7> p = {0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3};
  EXPECT_EQ(sov::Superovoid(p).params(), p);
}

TEST(FclSuperovoid, IsAnFclShapeOfUnknownNodeType) {
  const sov::Superovoid s(0.5, 0.4, 0.7, 0.8, 1.0);
  EXPECT_EQ(s.getObjectType(), fcl::OT_GEOM);
  EXPECT_EQ(s.getNodeType(), fcl::BV_UNKNOWN);
}

// FCL's tables hold nothing for BV_UNKNOWN: plain fcl::collide / distance
// answer "no collision" / the largest double (after a warning on stderr).
TEST(FclSuperovoid, PlainFclRefusesIt) {
  const sov::Superovoid s(0.5, 0.5, 0.5, 1, 1);
  const fcl::Sphere<double> sphere(0.5);
  const Transform I = Transform::Identity();
  fcl::CollisionResult<double> cres;
  EXPECT_EQ(fcl::collide(&s, I, &sphere, I, fcl::CollisionRequest<double>(), cres), 0u);
  fcl::DistanceResult<double> dres;
  EXPECT_EQ(fcl::distance(&s, I, &sphere, I, fcl::DistanceRequest<double>(), dres),
            std::numeric_limits<double>::max());
}

TEST(FclSuperovoid, LocalAabbEnclosesAndTouchesTheSurface) {
  const sov::Superovoid s(0.5, 0.4, 0.7, 0.6, 1.3, 0.3, 0.2);
  const auto samples = surfaceSamples(s.shape(), 400);
  Vector lo = Vector::Constant(1e9), hi = Vector::Constant(-1e9);
  double reach = 0;
  for (const Vector& x : samples) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
    reach = std::max(reach, (x - s.aabb_center).norm());
  }
  for (int i = 0; i < 3; ++i) {
    EXPECT_LE(s.aabb_local.min_[i], lo[i] + 1e-12);
    EXPECT_GE(s.aabb_local.max_[i], hi[i] - 1e-12);
    EXPECT_NEAR(s.aabb_local.min_[i], lo[i], kSampleGap);
    EXPECT_NEAR(s.aabb_local.max_[i], hi[i], kSampleGap);
  }
  EXPECT_GE(s.aabb_radius, reach);
  EXPECT_LE(s.aabb_radius, (s.aabb_local.max_ - s.aabb_center).norm() + 1e-15);
}

TEST(FclSuperovoid, WorldAabbIsExactUnderRotation) {
  const sov::Superovoid s(0.5, 0.4, 0.7, 0.6, 1.3, 0.3, 0.2);
  const Transform tf = sov_test::pose(Vector(0.3, -1, 2), 0.9, Vector(1, 2, -0.5));
  fcl::AABB<double> box;
  fcl::computeBV(s, tf, box);
  expectTightBox(box, sampledBox(s, tf));
  // The OBB and the generic fits (bound vertices) enclose it too.
  fcl::OBB<double> obb;
  fcl::computeBV(s, tf, obb);
  fcl::RSS<double> rss;
  fcl::computeBV(s, tf, rss);
  for (const Vector& x : surfaceSamples(s.shape(), 60)) {
    EXPECT_TRUE(obb.contain(tf * x));
    EXPECT_LE(rss.distance(fcl::RSS<double>()), std::numeric_limits<double>::max());
  }
}

// Without rotation (FCL's shape-octree traversals ask for the box at the
// identity, every query) the world box is the local one moved: as tight, no
// support points spent.
TEST(FclSuperovoid, WorldAabbWithoutRotationIsTheLocalBoxMoved) {
  const sov::Superovoid s(0.5, 0.4, 0.7, 0.6, 1.3, 0.3, 0.2);
  Transform tf = Transform::Identity();
  tf.translation() = Vector(0.3, -1, 2);
  fcl::AABB<double> box;
  fcl::computeBV(s, tf, box);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(box.min_[i], s.aabb_local.min_[i] + tf.translation()[i]);
    EXPECT_EQ(box.max_[i], s.aabb_local.max_[i] + tf.translation()[i]);
  }
  expectTightBox(box, sampledBox(s, tf));
}

TEST(FclSuperovoid, EllipsoidMassPropertiesMatchFclEllipsoid) {
  const sov::Superovoid s(0.8, 0.5, 0.3, 1, 1);
  const fcl::Ellipsoid<double> e(0.8, 0.5, 0.3);
  EXPECT_NEAR(s.computeVolume(), e.computeVolume(), 1e-14);
  EXPECT_NEAR(s.computeVolume(), 4.0 / 3.0 * M_PI * 0.8 * 0.5 * 0.3, 1e-14);
  EXPECT_TRUE(s.computeMomentofInertia().isApprox(e.computeMomentofInertia(), 1e-13))
      << s.computeMomentofInertia() << "\n" << e.computeMomentofInertia();
  EXPECT_EQ(s.computeCOM(), Vector::Zero());
}

TEST(FclSuperovoid, TaperedMassPropertiesMatchSurfaceQuadrature) {
  const std::array<double, 7> bodies[] = {{0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3},
                                          {0.6, 0.3, 0.5, 1.4, 1.2, 0.2, -0.1},
                                          {0.4, 0.5, 0.6, 1.0, 0.7, 0.25, 0.25}};
  for (const auto& p : bodies) {
    const sov::Superovoid s(p);
    const SurfaceMoments q = surfaceMoments(s.shape());
    const double V = s.computeVolume();
    EXPECT_NEAR(q.volume / V, 1, kQuadratureTolerance);
    const Vector com = s.computeCOM();
    EXPECT_EQ(com.x(), 0);
    EXPECT_EQ(com.y(), 0);
    EXPECT_NEAR(com.z(), q.z / V, kQuadratureTolerance * s.info().params[2]);
    const fcl::Matrix3<double> I = s.computeMomentofInertia();
    EXPECT_NEAR(I(0, 0) / (q.yy + q.zz), 1, kQuadratureTolerance);
    EXPECT_NEAR(I(1, 1) / (q.xx + q.zz), 1, kQuadratureTolerance);
    EXPECT_NEAR(I(2, 2) / (q.xx + q.yy), 1, kQuadratureTolerance);
    EXPECT_NEAR(q.xy, 0, kQuadratureTolerance * V);
    EXPECT_EQ(I(0, 1), 0);
  }
}

TEST(FclSuperovoid, PrintsItsParameters) {
  std::ostringstream out;
  out << sov::Superovoid(0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.25);
  EXPECT_EQ(out.str(), "Superovoid(a: 0.5 0.4 0.7, eps: 0.8 1, taper: 0.3 0.25)");
}

}  // namespace
