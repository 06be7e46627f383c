// sov_boxes_apart: against the projections of both boxes' corners on every
// separating axis, on boxes made to share a point, and its errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "random_util.h"
#include "superovoid/superovoid.h"

namespace {

using sov_test::Rng;
using Vec = std::array<double, 3>;

struct Box {
  Vec lo, hi;
  sov_pose X;
};

Vec toWorld(const sov_pose& X, const Vec& x) {
  Vec y;
  for (int i = 0; i < 3; ++i) y[i] = X.R[3 * i] * x[0] + X.R[3 * i + 1] * x[1] + X.R[3 * i + 2] * x[2] + X.p[i];
  return y;
}

Vec column(const sov_pose& X, int j) { return {X.R[j], X.R[3 + j], X.R[6 + j]}; }

Vec cross(const Vec& a, const Vec& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

double dot(const Vec& a, const Vec& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

std::vector<Vec> corners(const Box& b) {
  std::vector<Vec> c;
  for (int k = 0; k < 8; ++k)
    c.push_back(toWorld(b.X, {k & 1 ? b.hi[0] : b.lo[0], k & 2 ? b.hi[1] : b.lo[1],
                            k & 4 ? b.hi[2] : b.lo[2]}));
  return c;
}

// The largest gap between the two boxes' corner projections over the 15
// axes (unit length; cross products of near-parallel edges skipped): > 0
// when some axis separates them, < 0 by the overlap along the best axis.
double largestGap(const Box& a, const Box& b) {
  std::vector<Vec> axes;
  for (int i = 0; i < 3; ++i) {
    axes.push_back(column(a.X, i));
    axes.push_back(column(b.X, i));
    for (int j = 0; j < 3; ++j) axes.push_back(cross(column(a.X, i), column(b.X, j)));
  }
  const auto ca = corners(a), cb = corners(b);
  double best = -std::numeric_limits<double>::infinity();
  for (Vec u : axes) {
    const double n = std::sqrt(dot(u, u));
    if (n < 1e-3) continue;
    for (double& x : u) x /= n;
    double loA = INFINITY, hiA = -INFINITY, loB = INFINITY, hiB = -INFINITY;
    for (const Vec& c : ca) loA = std::min(loA, dot(u, c)), hiA = std::max(hiA, dot(u, c));
    for (const Vec& c : cb) loB = std::min(loB, dot(u, c)), hiB = std::max(hiB, dot(u, c));
    best = std::max(best, std::max(loB - hiA, loA - hiB));
  }
  return best;
}

Box randomBox(Rng& rng, const Vec& centre) {
  Box b;
  double q[4];
  sov_test::RandomQuat(q, rng);
  for (int i = 0; i < 3; ++i) {
    b.lo[i] = rng.Uniform(-0.8, -0.02);
    b.hi[i] = rng.Uniform(0.02, 0.8);
  }
  EXPECT_EQ(sov_pose_from_quat(&b.X, q, centre.data()), SOV_OK);
  return b;
}

int apart(const Box& a, const Box& b) {
  int out = -1;
  EXPECT_EQ(sov_boxes_apart(&out, a.lo.data(), a.hi.data(), &a.X, b.lo.data(), b.hi.data(), &b.X),
            SOV_OK);
  return out;
}

// Boxes near contact: apart exactly when the corners' projections on some
// axis leave a gap (pairs within 1e-9 of touching are left out).
TEST(SovBoxesApart, AgreesWithCornerProjections) {
  Rng rng(33);
  int separated = 0, overlapping = 0;
  for (int k = 0; k < 20000; ++k) {
    const Box a = randomBox(rng, {0, 0, 0});
    double u[3];
    sov_test::RandomUnit(u, rng);
    const double r = rng.Uniform(0.0, 2.0);
    const Box b = randomBox(rng, {r * u[0], r * u[1], r * u[2]});
    const double gap = largestGap(a, b);
    if (std::abs(gap) < 1e-9) continue;
    EXPECT_EQ(apart(a, b), gap > 0 ? 1 : 0) << "pair " << k << ", gap " << gap;
    EXPECT_EQ(apart(b, a), gap > 0 ? 1 : 0) << "pair " << k << ", swapped";
    (gap > 0 ? separated : overlapping) += 1;
  }
  EXPECT_GT(separated, 2000);
  EXPECT_GT(overlapping, 2000);
}

// A corner of one box moved 1e-9 of its size inside, placed on a point of
// the other box (its corners included): never "apart".
TEST(SovBoxesApart, BoxesSharingAPointAreNeverApart) {
  Rng rng(34);
  for (int k = 0; k < 20000; ++k) {
    const Box a = randomBox(rng, {rng.Uniform(-5, 5), rng.Uniform(-5, 5), rng.Uniform(-5, 5)});
    Vec local;
    for (int i = 0; i < 3; ++i) {
      const double s = rng.Uniform(0, 1);
      local[i] = k % 2 ? (s < 0.5 ? a.lo[i] : a.hi[i]) : a.lo[i] + s * (a.hi[i] - a.lo[i]);
    }
    const Vec shared = toWorld(a.X, local);
    Box b = randomBox(rng, {0, 0, 0});
    Vec corner;
    for (int i = 0; i < 3; ++i) {
      const double c = k & 4 ? b.hi[i] : b.lo[i];
      corner[i] = c - 1e-9 * (c - 0.5 * (b.lo[i] + b.hi[i]));
    }
    const Vec at = toWorld(b.X, corner);
    for (int i = 0; i < 3; ++i) b.X.p[i] = shared[i] - at[i];
    EXPECT_EQ(apart(a, b), 0) << "pair " << k;
    EXPECT_EQ(apart(b, a), 0) << "pair " << k;
  }
}

TEST(SovBoxesApart, RefusesBadInput) {
  Rng rng(35);
  Box a = randomBox(rng, {0, 0, 0}), b = randomBox(rng, {3, 0, 0});
  int out = 0;
  EXPECT_EQ(sov_boxes_apart(nullptr, a.lo.data(), a.hi.data(), &a.X, b.lo.data(), b.hi.data(), &b.X),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_boxes_apart(&out, nullptr, a.hi.data(), &a.X, b.lo.data(), b.hi.data(), &b.X),
            SOV_ERR_NULL);
  EXPECT_EQ(sov_boxes_apart(&out, a.lo.data(), a.hi.data(), nullptr, b.lo.data(), b.hi.data(), &b.X),
            SOV_ERR_NULL);
  Box nan = b;
  nan.hi[1] = NAN;
  EXPECT_EQ(sov_boxes_apart(&out, a.lo.data(), a.hi.data(), &a.X, nan.lo.data(), nan.hi.data(), &nan.X),
            SOV_ERR_NONFINITE);
  Box inverted = b;
  std::swap(inverted.lo[2], inverted.hi[2]);
  EXPECT_EQ(sov_boxes_apart(&out, a.lo.data(), a.hi.data(), &a.X, inverted.lo.data(),
                            inverted.hi.data(), &inverted.X),
            SOV_ERR_SIZE);
  Box sheared = b;
  sheared.X.R[1] += 1e-3;
  EXPECT_EQ(sov_boxes_apart(&out, a.lo.data(), a.hi.data(), &a.X, sheared.lo.data(),
                            sheared.hi.data(), &sheared.X),
            SOV_ERR_ROTATION);
  EXPECT_EQ(apart(a, b), 1);  // 3 apart, half sides at most 0.8 * sqrt(3)
}

}  // namespace
