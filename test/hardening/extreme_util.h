// Independent checks for the extreme-input matrix: support-function bounds
// on the SPEC's signed distance, a brute-force maximisation over directions,
// and the posing of two bodies at a known gap along a common normal.
#ifndef SUPEROVOID_TEST_HARDENING_EXTREME_UTIL_H
#define SUPEROVOID_TEST_HARDENING_EXTREME_UTIL_H

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../battery_check.h"
#include "../shape_info.h"
#include "superovoid/superovoid.h"

namespace sov_hardening {

using Vec = std::array<double, 3>;

inline double Dot(const Vec &a, const Vec &b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

inline Vec Normalized(const Vec &v) {
  const double n = std::sqrt(Dot(v, v));
  return {v[0] / n, v[1] / n, v[2] / n};
}

// R v for a row-major R.
inline Vec Rotate(const double R[9], const Vec &v) {
  return {R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
          R[6] * v[0] + R[7] * v[1] + R[8] * v[2]};
}

// R^T v for a row-major R.
inline Vec RotateBack(const double R[9], const Vec &v) {
  return {R[0] * v[0] + R[3] * v[1] + R[6] * v[2], R[1] * v[0] + R[4] * v[1] + R[7] * v[2],
          R[2] * v[0] + R[5] * v[1] + R[8] * v[2]};
}

// A posed body.
struct Body {
  sov_shape shape{};
  sov_pose pose{};
};

// World support point and value of a posed body along the world direction v
// (the core's local support function, moved by the pose).
inline double Support(const Body &b, const Vec &v, Vec *point = nullptr) {
  const Vec local = RotateBack(b.pose.R, v);
  double x[3], h = NAN;
  if (sov_shape_support(x, &h, &b.shape, local.data()) != SOV_OK) return NAN;
  if (point) {
    const Vec w = Rotate(b.pose.R, {x[0], x[1], x[2]});
    *point = {w[0] + b.pose.p[0], w[1] + b.pose.p[1], w[2] + b.pose.p[2]};
  }
  return h + v[0] * b.pose.p[0] + v[1] * b.pose.p[1] + v[2] * b.pose.p[2];
}

// The SPEC's objective at direction v: -(h_A(v) + h_B(-v)). Every v gives a
// lower bound on d; d is the maximum.
inline double LowerBound(const Body &A, const Body &B, const Vec &v) {
  return -(Support(A, v) + Support(B, {-v[0], -v[1], -v[2]}));
}

// The brute-force search's local refinement: starts, smallest angular step,
// moves per step.
constexpr int kBruteStarts = 3;
constexpr double kBruteMinStep = 1e-7;
constexpr int kBruteMovesPerStep = 16;

// Brute-force estimate of d = max over unit v of LowerBound: a Fibonacci
// sphere of directions, then a shrinking pattern search around the best
// few. Never above the true d (every value is a lower bound).
inline double BruteForceD(const Body &A, const Body &B, int directions, Vec *best_dir = nullptr) {
  const double golden = M_PI * (3 - std::sqrt(5.0));
  std::vector<std::pair<double, Vec>> samples;
  for (int i = 0; i < directions; ++i) {
    const double z = 1 - 2 * (i + 0.5) / directions, r = std::sqrt(1 - z * z);
    const Vec v = {r * std::cos(golden * i), r * std::sin(golden * i), z};
    samples.push_back({LowerBound(A, B, v), v});
  }
  std::partial_sort(samples.begin(), samples.begin() + kBruteStarts, samples.end(),
                    [](const auto &a, const auto &b) { return a.first > b.first; });
  double best = samples[0].first;
  Vec arg = samples[0].second;
  for (int s = 0; s < kBruteStarts; ++s) {
    double value = samples[s].first;
    Vec v = samples[s].second;
    for (double step = 2.0 / std::sqrt(double(directions)); step > kBruteMinStep; step *= 0.5) {
      bool moved = true;
      // Along a ridge of L (flat faces) every move gains a little: cap them.
      for (int moves = 0; moved && moves < kBruteMovesPerStep; ++moves) {
        moved = false;
        for (int axis = 0; axis < 3; ++axis)
          for (double sign : {-1.0, 1.0}) {
            Vec w = v;
            w[axis] += sign * step;
            w = Normalized(w);
            const double lw = LowerBound(A, B, w);
            if (lw > value) value = lw, v = w, moved = true;
          }
      }
    }
    if (value > best) best = value, arg = v;
  }
  if (best_dir) *best_dir = arg;
  return best;
}

// F of a posed body at a world point (< 0 strictly inside).
inline double Implicit(const Body &b, const Vec &w) {
  const Vec local =
      RotateBack(b.pose.R, {w[0] - b.pose.p[0], w[1] - b.pose.p[1], w[2] - b.pose.p[2]});
  double F = NAN;
  if (sov_shape_implicit(&F, nullptr, nullptr, &b.shape, local.data()) != SOV_OK) return NAN;
  return F;
}

}  // namespace sov_hardening

#endif  // SUPEROVOID_TEST_HARDENING_EXTREME_UTIL_H
