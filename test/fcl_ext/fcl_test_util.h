// Helpers shared by the FCL layer's tests: poses, shapes, sampling.
#ifndef SUPEROVOID_TEST_FCL_EXT_FCL_TEST_UTIL_H
#define SUPEROVOID_TEST_FCL_EXT_FCL_TEST_UTIL_H

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/plane.h>
#include <fcl/geometry/shape/sphere.h>
#include <gtest/gtest.h>
#include <superovoid/superovoid.h>

#include "superovoid/fcl/superovoid.h"

namespace sov_test {

using Transform = fcl::Transform3<double>;
using Vector = fcl::Vector3<double>;
using GeometryPtr = std::shared_ptr<fcl::CollisionGeometry<double>>;

// FCL's default GJK / MPR / EPA tolerance (CollisionRequest::gjk_tolerance,
// DistanceRequest::distance_tolerance): 1e-6.
constexpr double kGjkTolerance = 1e-6;
// Exact answers of the core: the project's 1e-9 on unit-scale bodies.
constexpr double kExactTolerance = 1e-9;
// libccd's GJK stops when an iteration improves the distance by less than
// distance_tolerance: at FCL's default, curved pairs come out up to 3e-4 off
// the exact core; at this tolerance they agree with it to kGjkAgreement.
constexpr double kTightGjkTolerance = 1e-12;
constexpr double kGjkAgreement = 1e-7;

// Pose from a translation and a rotation of angle about axis.
inline Transform pose(const Vector& p, double angle = 0.0, const Vector& axis = Vector::UnitZ()) {
  Transform tf = Transform::Identity();
  tf.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  tf.translation() = p;
  return tf;
}

// A transform as the C API's pose (sov_pose_from_matrix: its nearest
// rotation, for a rotation within 1e-6).
inline sov_pose toPose(const Transform& tf) {
  double R[9], p[3];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) R[3 * i + j] = tf.linear()(i, j);
    p[i] = tf.translation()[i];
  }
  sov_pose X{};
  EXPECT_EQ(sov_pose_from_matrix(&X, R, p), SOV_OK);
  return X;
}

// Deterministic random poses: uniform rotations, translations in a cube of
// half side `spread`.
inline std::vector<Transform> randomPoses(int count, double spread, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(-spread, spread);
  std::vector<Transform> poses;
  for (int i = 0; i < count; ++i) {
    Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
    q.normalize();
    Transform tf = Transform::Identity();
    tf.linear() = q.toRotationMatrix();
    tf.translation() = Vector(uniform(rng), uniform(rng), uniform(rng));
    poses.push_back(tf);
  }
  return poses;
}

// An axis-aligned box of half sides hx hy hz as an fcl::Convex.
inline std::shared_ptr<fcl::Convex<double>> convexBox(double hx, double hy, double hz) {
  auto vertices = std::make_shared<std::vector<Vector>>();
  for (int i = 0; i < 8; ++i) {
    vertices->emplace_back((i & 1) ? hx : -hx, (i & 2) ? hy : -hy, (i & 4) ? hz : -hz);
  }
  // Quads, counter-clockwise seen from outside.
  auto faces = std::make_shared<std::vector<int>>(std::vector<int>{
      4, 0, 2, 3, 1,  4, 4, 5, 7, 6,  4, 0, 1, 5, 4,
      4, 2, 6, 7, 3,  4, 0, 4, 6, 2,  4, 1, 3, 7, 5});
  return std::make_shared<fcl::Convex<double>>(vertices, 6, faces);
}

// One of each FCL primitive a superovoid is paired with through GJK, sized
// around 0.3 to 0.6.
inline std::vector<GeometryPtr> gjkShapes() {
  return {std::make_shared<fcl::Box<double>>(0.6, 0.8, 0.5),
          std::make_shared<fcl::Capsule<double>>(0.25, 0.7),
          std::make_shared<fcl::Cone<double>>(0.4, 0.8),
          std::make_shared<fcl::Cylinder<double>>(0.35, 0.7),
          convexBox(0.3, 0.2, 0.4)};
}

// A triangle mesh of a superovoid's surface: a latitude-longitude grid of
// sov_shape_point (phi1 the longitude, phi2 the latitude), poles single
// vertices, triangles counter-clockwise seen from outside. cells[t] is the
// parameter rectangle {phi1_lo, phi1_hi, phi2_lo, phi2_hi} triangle t lies on.
struct Tessellation {
  std::vector<Vector> vertices;
  std::vector<fcl::Triangle> triangles;
  std::vector<std::array<double, 4>> cells;
};

// The surface point of s at (phi1, phi2), local frame.
inline Vector surfacePoint(const sov::Superovoid& s, double phi1, double phi2) {
  Vector x;
  sov_shape_point(x.data(), nullptr, nullptr, nullptr, &s.shape(), phi1, phi2);
  return x;
}

// Tessellates s with n_lat latitude bands and n_lon longitude segments
// (sov_shape_tessellate), and records each triangle's parameter cell in the
// order that function writes the triangles.
inline Tessellation tessellate(const sov::Superovoid& s, int n_lat, int n_lon) {
  Tessellation t;
  std::size_t nv = 0, nt = 0;
  if (sov_shape_tessellation_size(&nv, &nt, n_lat, n_lon) != SOV_OK) return t;
  std::vector<double> v(3 * nv);
  std::vector<int> tri(3 * nt);
  if (sov_shape_tessellate(v.data(), v.size(), tri.data(), tri.size(), &s.shape(), n_lat, n_lon) !=
      SOV_OK) {
    return t;
  }
  for (std::size_t i = 0; i < nv; ++i)
    t.vertices.emplace_back(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  for (std::size_t k = 0; k < nt; ++k)
    t.triangles.emplace_back(tri[3 * k], tri[3 * k + 1], tri[3 * k + 2]);
  const double dlon = 2 * M_PI / n_lon, dlat = M_PI / n_lat;
  auto lon = [&](int j) { return -M_PI + dlon * j; };
  auto lat = [&](int i) { return -M_PI / 2 + dlat * i; };
  for (int j = 0; j < n_lon; ++j) {
    for (int i = 0; i < n_lat; ++i) {
      const std::array<double, 4> cell{lon(j), lon(j + 1), lat(i), lat(i + 1)};
      t.cells.push_back(cell);
      if (i > 0 && i + 1 < n_lat) t.cells.push_back(cell);  // two triangles off the poles
    }
  }
  return t;
}

// The tessellation as a built BVHModel<BV>.
template <class BV>
std::shared_ptr<fcl::BVHModel<BV>> meshModel(const Tessellation& t) {
  auto model = std::make_shared<fcl::BVHModel<BV>>();
  model->beginModel();
  model->addSubModel(t.vertices, t.triangles);
  model->endModel();
  return model;
}

// Distance from p to the triangle abc (closest point by regions: Ericson,
// Real-Time Collision Detection, 5.1.5).
inline double pointTriangleDistance(const Vector& p, const Vector& a, const Vector& b,
                                    const Vector& c) {
  const Vector ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return ap.norm();
  const Vector bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return bp.norm();
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return (p - (a + d1 / (d1 - d3) * ab)).norm();
  const Vector cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return cp.norm();
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return (p - (a + d2 / (d2 - d6) * ac)).norm();
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    return (p - (b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b))).norm();
  }
  const double denom = 1 / (va + vb + vc);
  return (p - (a + ab * (vb * denom) + ac * (vc * denom))).norm();
}

// Chordal deviation of a tessellation of s: the largest distance from a
// surface point to the triangles of its parameter cell, sampled on a
// samples x samples grid in every cell (an estimate from below of the
// largest distance from the surface to the mesh; the mesh lies inside the
// convex body).
inline double chordalDeviation(const sov::Superovoid& s, const Tessellation& t, int samples) {
  double worst = 0;
  for (std::size_t k = 0; k < t.triangles.size(); ++k) {
    // Cells with two triangles: handle them once, at their first triangle.
    const bool pair = k + 1 < t.triangles.size() && t.cells[k + 1] == t.cells[k];
    const std::array<double, 4>& cell = t.cells[k];
    for (int u = 0; u <= samples; ++u) {
      for (int v = 0; v <= samples; ++v) {
        const double phi1 = cell[0] + (cell[1] - cell[0]) * u / samples;
        const double phi2 = cell[2] + (cell[3] - cell[2]) * v / samples;
        const Vector x = surfacePoint(s, phi1, phi2);
        double d = 1e300;
        for (std::size_t m = k; m <= k + (pair ? 1 : 0); ++m) {
          const fcl::Triangle& tri = t.triangles[m];
          d = std::min(d, pointTriangleDistance(x, t.vertices[tri[0]], t.vertices[tri[1]],
                                                t.vertices[tri[2]]));
        }
        worst = std::max(worst, d);
      }
    }
    if (pair) ++k;
  }
  return worst;
}

}  // namespace sov_test

#endif  // SUPEROVOID_TEST_FCL_EXT_FCL_TEST_UTIL_H
