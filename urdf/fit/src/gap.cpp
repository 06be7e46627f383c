// Hausdorff distance from a posed convex shape to a convex hull inside it,
// from the two support functions.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

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

// Pattern searches of maximizeOverDirections, and how far apart their
// seeds lie (in lattice spacings).
constexpr int kSeeds = 8;
constexpr double kSeedSpacings = 3;
// A pattern search stops once kStallRounds moves have gained at most
// kStallGain of its value: a union's gap can peak where a body's surface
// enters another body, and searches crept along that edge for all their
// 10,000 moves (8 of them: 5.6 s of the L-shaped mesh's 2-body gap, 1.2 s
// with the stop, the same gap).
constexpr int kStallRounds = 100;
constexpr double kStallGain = 1e-9;

double maximizeOverDirections(const std::function<double(const Eigen::Vector3d&)>& f,
                              int directions, Eigen::Vector3d* best_u_out) {
  // Fibonacci lattice: directions spread evenly over the sphere.
  const double golden = M_PI * (3 - std::sqrt(5.0));
  std::vector<std::pair<double, Eigen::Vector3d>> lattice;
  lattice.reserve(static_cast<std::size_t>(directions));
  for (int i = 0; i < directions; ++i) {
    const double z = 1 - (2 * i + 1.0) / directions, r = std::sqrt(1 - z * z);
    const Eigen::Vector3d u(r * std::cos(golden * i), r * std::sin(golden * i), z);
    lattice.emplace_back(f(u), u);
  }
  // Pattern searches from the best lattice directions of distinct peaks
  // (kSeeds, at least kSeedSpacings lattice spacings apart): a box-like
  // body's gap peaks at its corners and edges alike, and a narrow higher
  // peak can lie between lattice directions that score below a broad lower
  // one's (0.17 % short on a cube from the best direction alone).
  const double spacing = std::sqrt(4 * M_PI / directions);
  const double apart = std::cos(std::min(M_PI, kSeedSpacings * spacing));
  std::sort(lattice.begin(), lattice.end(),
            [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<Eigen::Vector3d> seeds;
  for (const auto& candidate : lattice) {
    if (static_cast<int>(seeds.size()) == kSeeds || !(candidate.first > -INFINITY)) break;
    const Eigen::Vector3d& u = candidate.second;
    const auto near_u = [&](const Eigen::Vector3d& s) { return s.dot(u) > apart; };
    if (std::none_of(seeds.begin(), seeds.end(), near_u)) seeds.push_back(u);
  }
  double best = lattice.empty() ? -INFINITY : lattice[0].first;
  Eigen::Vector3d best_u = lattice.empty() ? Eigen::Vector3d(0, 0, 1) : lattice[0].second;
  for (const Eigen::Vector3d& seed : seeds) {
    // From the lattice spacing down to 1e-7 rad along the tangent axes.
    Eigen::Vector3d at = seed, t1 = at.unitOrthogonal(), t2 = at.cross(t1);
    double value = f(at), step = spacing, checkpoint = value;
    for (int it = 0; step > 1e-7 && it < 10000; ++it) {
      if (it % kStallRounds == kStallRounds - 1) {
        if (value - checkpoint <= kStallGain * std::abs(value)) break;
        checkpoint = value;
      }
      bool moved = false;
      const Eigen::Vector3d trial[4] = {at + step * t1, at - step * t1, at + step * t2,
                                        at - step * t2};
      for (const Eigen::Vector3d& v : trial) {
        const Eigen::Vector3d u = v.normalized();
        const double g = f(u);
        if (g > value) value = g, at = u, moved = true;
      }
      if (moved) {
        t1 = at.unitOrthogonal();
        t2 = at.cross(t1);
      } else {
        step *= 0.5;
      }
    }
    if (value > best) best = value, best_u = at;
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
