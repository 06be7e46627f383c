// Hausdorff distance from a posed convex shape to a convex hull inside it,
// from the two support functions.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "directions.h"
#include "superovoid/urdf.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fit.h"

namespace sov {
namespace urdf {
namespace {

// For convex K inside S, the Hausdorff distance is max over unit u of
// h_S(u) - h_K(u) (Schneider, "Convex Bodies: The Brunn-Minkowski Theory",
// Lemma 1.8.14).
double supportGap(const sov_shape& shape, const sov_pose& pose, const ConvexHull& hull,
                  const Eigen::Vector3d& u) {
  const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(pose.R);
  const Eigen::Vector3d local = R.transpose() * u;
  double x[3], h = 0;
  sov_shape_support(x, &h, &shape, local.data());
  h += u.dot(Eigen::Vector3d(pose.p[0], pose.p[1], pose.p[2]));
  double hk = -INFINITY;
  for (const Point3& v : hull.vertices) hk = std::max(hk, u[0] * v[0] + u[1] * v[1] + u[2] * v[2]);
  return h - hk;
}

}  // namespace

namespace detail {

double maximizeOverDirections(const std::function<double(const Eigen::Vector3d&)>& f,
                              int directions, Eigen::Vector3d* best_u_out) {
  // Fibonacci lattice: directions spread evenly over the sphere.
  const double golden = M_PI * (3 - std::sqrt(5.0));
  double best = -INFINITY;
  Eigen::Vector3d best_u(0, 0, 1);
  for (int i = 0; i < directions; ++i) {
    const double z = 1 - (2 * i + 1.0) / directions, r = std::sqrt(1 - z * z);
    const Eigen::Vector3d u(r * std::cos(golden * i), r * std::sin(golden * i), z);
    const double g = f(u);
    if (g > best) best = g, best_u = u;
  }
  // Pattern search about the best lattice direction, from the lattice
  // spacing down to 1e-7 rad.
  Eigen::Vector3d t1 = best_u.unitOrthogonal(), t2 = best_u.cross(t1);
  double step = std::sqrt(4 * M_PI / directions);
  for (int it = 0; step > 1e-7 && it < 10000; ++it) {
    bool moved = false;
    const Eigen::Vector3d trial[4] = {best_u + step * t1, best_u - step * t1, best_u + step * t2,
                                      best_u - step * t2};
    for (const Eigen::Vector3d& v : trial) {
      const Eigen::Vector3d u = v.normalized();
      const double g = f(u);
      if (g > best) best = g, best_u = u, moved = true;
    }
    if (moved) {
      t1 = best_u.unitOrthogonal();
      t2 = best_u.cross(t1);
    } else {
      step *= 0.5;
    }
  }
  if (best_u_out) *best_u_out = best_u;
  return best;
}

}  // namespace detail

double hausdorffGap(const sov_shape& shape, const sov_pose& pose, const ConvexHull& hull,
                    int directions) {
  if (directions < 6 || hull.vertices.empty())
    throw Error(SOV_ERR_OPTION, Location{"<points>", 0, "", ""},
                "hausdorffGap needs at least 6 directions and a non-empty hull");
  const double best = detail::maximizeOverDirections(
      [&](const Eigen::Vector3d& u) { return supportGap(shape, pose, hull, u); }, directions);
  return std::max(best, 0.0);
}

}  // namespace urdf
}  // namespace sov
