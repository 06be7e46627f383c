// The extreme-input matrix: shapes at the edges of the valid range (exponents
// 0.05, 1.95 and 2 - 1e-9, aspect ratio 1000, strong tapers) paired with each other at
// gaps from 1e6 down to 1e-12 times their size, exactly touching, in tiny
// overlap, with coincident centres, as identical bodies and one inside the
// other. Deterministic: the same cases on every run.
#ifndef SUPEROVOID_TEST_HARDENING_EXTREME_CASES_H
#define SUPEROVOID_TEST_HARDENING_EXTREME_CASES_H

#include <cmath>
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "extreme_util.h"
#include "superovoid/superovoid.h"

namespace sov_hardening {

// Every kExtremeStride-th case of the extreme matrix joins the battery rows of
// the concurrency tests (all of it would triple their run under
// ThreadSanitizer for little gain).
constexpr size_t kExtremeStride = 3;

struct NamedShape {
  const char *name;
  double params[7];
};

// Shapes at the edges of SPEC "Valid parameters".
inline const std::vector<NamedShape> &ExtremeShapes() {
  static const std::vector<NamedShape> shapes = {
      {"ellipsoid", {1.0, 0.7, 0.5, 1.0, 1.0, 0.0, 0.0}},
      {"box eps 0.05", {1.0, 0.8, 0.6, 0.05, 0.05, 0.0, 0.0}},
      {"octahedron eps 1.95", {1.0, 0.8, 0.6, 1.95, 1.95, 0.0, 0.0}},
      {"eps 1.95/0.05", {0.7, 0.5, 0.9, 1.95, 0.05, 0.0, 0.0}},
      {"eps 0.05/1.95", {0.7, 0.5, 0.9, 0.05, 1.95, 0.0, 0.0}},
      {"needle 1000:1", {1e-3, 1e-3, 1.0, 1.0, 1.0, 0.0, 0.0}},
      {"plate 1000:1", {1.0, 1.0, 1e-3, 0.3, 0.3, 0.0, 0.0}},
      {"box plate 1000:1", {1.0, 0.5, 1e-3, 0.05, 0.05, 0.0, 0.0}},
      {"tapered 0.6", {0.6, 0.5, 0.8, 0.8, 1.0, 0.6, 0.6}},
      {"tapered eps 0.05", {0.5, 0.4, 0.6, 0.5, 0.05, 0.5, 0.5}},
      {"diamond eps 2 - 1e-9", {1.0, 0.8, 0.6, 1.999999999, 1.999999999, 0.0, 0.0}},
      {"tapered diamond eps1 2 - 1e-9", {0.6, 0.5, 0.8, 1.999999999, 1.0, 0.5, 0.5}},
  };
  return shapes;
}

enum class Layout { kGap, kCoincident, kIdentical, kInside };

// One query of the matrix and what is known about its answer independently.
struct Case {
  std::string shapes;    // "<A> | <B>"
  std::string category;  // row of the outcome table
  Layout layout = Layout::kGap;
  Body A, B;
  double gap = NAN;                 // kGap: B placed at this signed gap along u
  Vec u{};                          // kGap: the common normal the bodies were placed on
  bool centre_inside_both = false;  // B's centre is strictly inside A and B
};

// Gaps as multiples of the pair's size (the larger bounding radius).
inline const std::vector<std::pair<double, const char *>> &SeparationGaps() {
  static const std::vector<std::pair<double, const char *>> gaps = {
      {1e6, "apart 1e6 x size"},     {1e3, "apart 1e3 x size"},   {1.0, "apart 1 x size"},
      {1e-3, "apart 1e-3 x size"},   {1e-6, "apart 1e-6 x size"}, {1e-9, "apart 1e-9 x size"},
      {1e-12, "apart 1e-12 x size"}, {0.0, "exactly touching"}};
  return gaps;
}

// Overlap depths as multiples of the thinner body's smallest semi-axis.
inline const std::vector<std::pair<double, const char *>> &OverlapGaps() {
  static const std::vector<std::pair<double, const char *>> gaps = {
      {-1e-9, "overlap 1e-9 x thickness"}, {-1e-6, "overlap 1e-6 x thickness"}};
  return gaps;
}

// A uniformly random rotation.
inline sov_pose RandomPose(std::mt19937 &rng, const Vec &p) {
  std::normal_distribution<double> gauss(0, 1);
  double q[4] = {gauss(rng), gauss(rng), gauss(rng), gauss(rng)};
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double &x : q) x /= n;
  sov_pose X{};
  sov_pose_from_quat(&X, q, p.data());
  return X;
}

// Places B so that a surface point xA of A (normal u) and B's support point
// along -u are exactly gap apart along u: a common-normal pair, so d = gap
// when gap >= 0 and d >= gap always.
inline void PlaceAtGap(Case *c, std::mt19937 &rng) {
  std::uniform_real_distribution<double> lon(-M_PI, M_PI), lat(-1.3, 1.3);
  double x[3], n[3];
  sov_shape_point(x, nullptr, nullptr, n, &c->A.shape, lon(rng), lat(rng));
  const Vec xa_rel = Rotate(c->A.pose.R, {x[0], x[1], x[2]});
  const Vec xa = {xa_rel[0] + c->A.pose.p[0], xa_rel[1] + c->A.pose.p[1],
                  xa_rel[2] + c->A.pose.p[2]};
  c->u = Normalized(Rotate(c->A.pose.R, {n[0], n[1], n[2]}));
  const Vec minus_u_local = RotateBack(c->B.pose.R, {-c->u[0], -c->u[1], -c->u[2]});
  double xb[3], h;
  sov_shape_support(xb, &h, &c->B.shape, minus_u_local.data());
  const Vec xb_rel = Rotate(c->B.pose.R, {xb[0], xb[1], xb[2]});
  for (int k = 0; k < 3; ++k) c->B.pose.p[k] = xa[k] + c->gap * c->u[k] - xb_rel[k];
}

// The shape params scaled by s (semi-axes only).
inline sov_shape Scaled(const NamedShape &s, double factor) {
  double p[7];
  for (int k = 0; k < 7; ++k) p[k] = s.params[k] * (k < 3 ? factor : 1.0);
  sov_shape shape{};
  sov_shape_init(&shape, p);
  return shape;
}

// Every case of the matrix, in a fixed order.
inline std::vector<Case> ExtremeCases() {
  const auto &shapes = ExtremeShapes();
  std::vector<Case> cases;
  const Vec origin = {0.25, -1.5, 2.0};
  for (size_t i = 0; i < shapes.size(); ++i) {
    for (size_t j = 0; j < shapes.size(); ++j) {
      std::mt19937 rng(static_cast<unsigned>(1000 * i + j));
      Case base;
      base.shapes = std::string(shapes[i].name) + " | " + shapes[j].name;
      sov_shape_init(&base.A.shape, shapes[i].params);
      sov_shape_init(&base.B.shape, shapes[j].params);
      base.A.pose = RandomPose(rng, origin);
      base.B.pose = RandomPose(rng, origin);
      const double size = std::fmax(sov_test::Info(base.A.shape).radius, sov_test::Info(base.B.shape).radius);
      double thickness = INFINITY;
      for (int k = 0; k < 3; ++k)
        thickness = std::fmin(thickness, std::fmin(sov_test::Info(base.A.shape).params[k], sov_test::Info(base.B.shape).params[k]));
      for (const auto &[factor, label] : SeparationGaps()) {
        Case c = base;
        c.category = label;
        c.gap = factor * size;
        PlaceAtGap(&c, rng);
        cases.push_back(c);
      }
      for (const auto &[factor, label] : OverlapGaps()) {
        Case c = base;
        c.category = label;
        c.gap = factor * thickness;
        PlaceAtGap(&c, rng);
        cases.push_back(c);
      }
      Case coincident = base;
      coincident.category = "coincident centres";
      coincident.layout = Layout::kCoincident;
      coincident.centre_inside_both = true;
      cases.push_back(coincident);
      // B shrunk to a twentieth of A's smallest semi-axis, at A's centre.
      Case inside = base;
      inside.category = "one inside the other";
      inside.layout = Layout::kInside;
      double b_max = 0;
      for (int k = 0; k < 3; ++k) b_max = std::fmax(b_max, shapes[j].params[k]);
      const double a_min =
          std::fmin(sov_test::Info(base.A.shape).params[0], std::fmin(sov_test::Info(base.A.shape).params[1], sov_test::Info(base.A.shape).params[2]));
      inside.B.shape = Scaled(shapes[j], 0.05 * a_min / b_max);
      inside.centre_inside_both = true;
      cases.push_back(inside);
      if (i == j) {
        Case identical = base;
        identical.category = "identical bodies";
        identical.layout = Layout::kIdentical;
        identical.B = identical.A;
        identical.centre_inside_both = true;
        cases.push_back(identical);
      }
    }
  }
  return cases;
}

}  // namespace sov_hardening

#endif  // SUPEROVOID_TEST_HARDENING_EXTREME_CASES_H
