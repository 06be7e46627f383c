// Math the fit's files share: the radial scale of a point against a
// superovoid (fit.cpp) and the maximum of a function over unit directions
// (gap.cpp); used by the single fit, its gap and the union's measures.
#ifndef SUPEROVOID_URDF_FIT_DIRECTIONS_H
#define SUPEROVOID_URDF_FIT_DIRECTIONS_H

#include <Eigen/Dense>
#include <functional>

#include "superovoid/superovoid.h"

namespace sov {
namespace urdf {
namespace detail {

// The smallest l with F(y / l) <= 0: y / l is the surface point on the ray
// from the body's origin through y (a convex body containing its origin is
// star-shaped about it). 0 for y = 0.
double radialScale(const sov_shape& shape, const Eigen::Vector3d& y);

// The largest f(u) over unit vectors u: a Fibonacci lattice of `directions`
// (spread evenly over the sphere), then pattern searches about the best
// lattice directions of up to 8 distinct peaks, from the lattice spacing
// down to 1e-7 rad. Its argument in best_u when not null. A lower bound on
// the supremum.
double maximizeOverDirections(const std::function<double(const Eigen::Vector3d&)>& f,
                              int directions, Eigen::Vector3d* best_u = nullptr);

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_FIT_DIRECTIONS_H
