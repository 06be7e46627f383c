// Random poses and rigid motions shared by the solver's tests, as the
// solver's sovc_pose or (Pose = sov_pose) the public one.
#ifndef SUPEROVOID_TEST_SOLVER_POSE_TEST_UTIL_H
#define SUPEROVOID_TEST_SOLVER_POSE_TEST_UTIL_H

#include <cmath>
#include <random>

#include "superovoid/superovoid.h"
extern "C" {
#include "solver/pose.h"
}

namespace sov_test {

// A uniformly random rotation and a normal(0, spread) translation.
template <class Pose = sovc_pose>
inline Pose RandomPose(std::mt19937_64 &rng, double spread) {
  std::normal_distribution<double> n(0, 1);
  double q[4] = {n(rng), n(rng), n(rng), n(rng)};
  const double s = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double &v : q) v /= s;
  Pose X;
  sovc_quat_to_matrix(X.R, q);
  for (double &v : X.p) v = spread * n(rng);
  return X;
}

// The rigid motion M applied to pose X: (M.R X.R, M.R X.p + M.p).
template <class Pose>
inline Pose Compose(const Pose &M, const Pose &X) {
  Pose out;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int l = 0; l < 3; ++l) s += M.R[3 * i + l] * X.R[3 * l + j];
      out.R[3 * i + j] = s;
    }
  sovc_rotate(out.p, M.R, X.p);
  for (int i = 0; i < 3; ++i) out.p[i] += M.p[i];
  return out;
}

// A turn by angle about z, then a half turn about x if reversed (z to -z).
template <class Pose = sovc_pose>
inline Pose Turn(double angle, bool reversed) {
  const double c = std::cos(angle), s = std::sin(angle), f = reversed ? -1.0 : 1.0;
  const Pose X = {{c, -s, 0, f * s, f * c, 0, 0, 0, f}, {0, 0, 0}};
  return X;
}

}  // namespace sov_test

#endif
