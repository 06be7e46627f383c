#include "superovoid/fcl/superovoid.h"

#include <algorithm>
#include <ostream>
#include <string>

#include "superovoid/error.h"
#include "voxel_cache.h"

namespace sov {

Superovoid::Superovoid(const std::array<double, 7>& params) {
  const int status = sov_shape_init(&shape_, params.data());
  if (status != SOV_OK) {
    char why[512];
    sov_shape_explain(why, sizeof why, params.data());
    throw Error(status, std::string("invalid superovoid: ") + why);
  }
  throwIfError(sov_shape_get(&info_, &shape_), "sov_shape_get");
  computeLocalAABB();
  voxels_ = std::make_shared<detail::VoxelCache>();
}

Superovoid::Superovoid(double a1, double a2, double a3, double eps1, double eps2,
                       double taper_x, double taper_y)
    : Superovoid(std::array<double, 7>{a1, a2, a3, eps1, eps2, taper_x, taper_y}) {}

std::array<double, 7> Superovoid::params() const noexcept {
  std::array<double, 7> p;
  std::copy(std::begin(info_.params), std::end(info_.params), p.begin());
  return p;
}

void Superovoid::computeLocalAABB() {
  aabb_local.min_ = Eigen::Map<const fcl::Vector3<double>>(info_.aabb_lo);
  aabb_local.max_ = Eigen::Map<const fcl::Vector3<double>>(info_.aabb_hi);
  aabb_center = aabb_local.center();
  const double half_diagonal = (aabb_local.max_ - aabb_center).norm();
  aabb_radius = std::min(half_diagonal, info_.radius + aabb_center.norm());
}

fcl::NODE_TYPE Superovoid::getNodeType() const { return fcl::BV_UNKNOWN; }

double Superovoid::computeVolume() const {
  double volume = 0;
  throwIfError(sov_shape_volume(&volume, &shape_), "sov_shape_volume");
  return volume;
}

fcl::Vector3<double> Superovoid::computeCOM() const {
  double volume = 0;
  fcl::Vector3<double> com;
  throwIfError(sov_shape_mass(&volume, com.data(), nullptr, &shape_), "sov_shape_mass");
  return com;
}

fcl::Matrix3<double> Superovoid::computeMomentofInertia() const {
  double volume = 0, inertia[9];
  throwIfError(sov_shape_mass(&volume, nullptr, inertia, &shape_), "sov_shape_mass");
  return Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(inertia);
}

fcl::Vector3<double> Superovoid::localSupport(const fcl::Vector3<double>& dir) const {
  fcl::Vector3<double> x;
  double h = 0;
  throwIfError(sov_shape_support(x.data(), &h, &shape_, dir.data()), "sov_shape_support");
  return x;
}

std::vector<fcl::Vector3<double>> Superovoid::getBoundVertices(
    const fcl::Transform3<double>& tf) const {
  std::vector<fcl::Vector3<double>> corners;
  corners.reserve(8);
  const double *lo = info_.aabb_lo, *hi = info_.aabb_hi;
  for (int i = 0; i < 8; ++i) {
    const fcl::Vector3<double> local((i & 1) ? hi[0] : lo[0], (i & 2) ? hi[1] : lo[1],
                                     (i & 4) ? hi[2] : lo[2]);
    corners.push_back(tf * local);
  }
  return corners;
}

std::ostream& operator<<(std::ostream& out, const Superovoid& s) {
  const std::array<double, 7> p = s.params();
  return out << "Superovoid(a: " << p[0] << " " << p[1] << " " << p[2] << ", eps: " << p[3]
             << " " << p[4] << ", taper: " << p[5] << " " << p[6] << ")";
}

}  // namespace sov

namespace fcl {
namespace detail {

void ComputeBVImpl<double, AABB<double>, sov::Superovoid>::run(
    const sov::Superovoid& s, const Transform3<double>& tf, AABB<double>& bv) {
  const Matrix3<double>& R = tf.linear();
  // FCL's shape-octree traversals ask for the local box, at every query: the
  // shape's own (sov_shape_init's bounds) instead of six support points.
  if (R == Matrix3<double>::Identity()) {
    bv.min_ = s.aabb_local.min_ + tf.translation();
    bv.max_ = s.aabb_local.max_ + tf.translation();
    return;
  }
  for (int i = 0; i < 3; ++i) {
    // World axis e_i in the local frame is row i of R.
    const Vector3<double> dir = R.row(i).transpose();
    bv.max_[i] = R.row(i).dot(s.localSupport(dir)) + tf.translation()[i];
    bv.min_[i] = R.row(i).dot(s.localSupport(-dir)) + tf.translation()[i];
  }
}

void ComputeBVImpl<double, OBB<double>, sov::Superovoid>::run(
    const sov::Superovoid& s, const Transform3<double>& tf, OBB<double>& bv) {
  bv.axis = tf.linear();
  bv.To = tf * s.aabb_local.center();
  bv.extent = 0.5 * (s.aabb_local.max_ - s.aabb_local.min_);
}

}  // namespace detail
}  // namespace fcl
