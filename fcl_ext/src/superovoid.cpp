#include "superovoid/fcl/superovoid.h"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include "superovoid/fcl/error.h"
#include "voxel_cache.h"

namespace sov {
namespace {

// Beta function B(x, y).
double beta(double x, double y) {
  return std::tgamma(x) * std::tgamma(y) / std::tgamma(x + y);
}

// Profile integral J(p, k) = int_{-1}^{1} s^p c(s)^k ds for even p, with
// c(s) = (1 - |s|^(2/eps2))^(eps2/2) the SPEC's slice scale at height s a3;
// substituting u = s^(2/eps2) gives eps2 B((p+1) eps2/2, k eps2/2 + 1).
double profile(double eps2, int p, int k) {
  return eps2 * beta((p + 1) * eps2 / 2, k * eps2 / 2 + 1);
}

// Volume integrals of the uniform body over the SPEC's slices: the slice at
// height z = a3 s is the superellipse |x/A|^(2/eps1) + |y/B|^(2/eps1) <= 1
// with A = a1 kx c, B = a2 ky c, kx = 1 + tx s, ky = 1 + ty s. Its area is
// alpha A B and its second moment int x^2 dA = beta A^3 B (beta for the
// quadrant integral of x^2 over a superellipse, times 4); odd moments vanish.
// Polynomials in s of kx ky and kx^3 ky keep their even terms only.
struct Moments {
  double volume;  // int dV
  double z;       // int z dV
  double xx;      // int x^2 dV
  double yy;      // int y^2 dV
  double zz;      // int z^2 dV
};

Moments moments(const sov_shape& s) {
  const double a1 = s.a[0], a2 = s.a[1], a3 = s.a[2];
  const double e1 = s.eps1, e2 = s.eps2, tx = s.taper[0], ty = s.taper[1];
  const double g = std::tgamma(1 + e1 / 2);
  const double alpha = 4 * g * g / std::tgamma(1 + e1);
  const double beta2 = e1 * e1 * std::tgamma(1.5 * e1) * std::tgamma(0.5 * e1) /
                       std::tgamma(1 + 2 * e1);
  const double j02 = profile(e2, 0, 2), j22 = profile(e2, 2, 2), j42 = profile(e2, 4, 2);
  const double j04 = profile(e2, 0, 4), j24 = profile(e2, 2, 4), j44 = profile(e2, 4, 4);
  Moments m;
  m.volume = a1 * a2 * a3 * alpha * (j02 + tx * ty * j22);
  m.z = a1 * a2 * a3 * a3 * alpha * (tx + ty) * j22;
  m.zz = a1 * a2 * a3 * a3 * a3 * alpha * (j22 + tx * ty * j42);
  m.xx = a1 * a1 * a1 * a2 * a3 * beta2 *
         (j04 + 3 * (tx * tx + tx * ty) * j24 + tx * tx * tx * ty * j44);
  m.yy = a1 * a2 * a2 * a2 * a3 * beta2 *
         (j04 + 3 * (ty * ty + tx * ty) * j24 + ty * ty * ty * tx * j44);
  return m;
}

}  // namespace

Superovoid::Superovoid(const std::array<double, 7>& params) {
  const int status = sov_shape_init(&shape_, params.data());
  if (status != SOV_OK) {
    char why[512];
    sov_shape_explain(why, sizeof why, params.data());
    throw Error(status, std::string("invalid superovoid: ") + why);
  }
  computeLocalAABB();
  voxels_ = std::make_shared<detail::VoxelCache>();
}

Superovoid::Superovoid(double a1, double a2, double a3, double eps1, double eps2,
                       double taper_x, double taper_y)
    : Superovoid(std::array<double, 7>{a1, a2, a3, eps1, eps2, taper_x, taper_y}) {}

std::array<double, 7> Superovoid::params() const noexcept {
  return {shape_.a[0], shape_.a[1], shape_.a[2], shape_.eps1, shape_.eps2,
          shape_.taper[0], shape_.taper[1]};
}

void Superovoid::computeLocalAABB() {
  aabb_local.min_ = Eigen::Map<const fcl::Vector3<double>>(shape_.aabb_lo);
  aabb_local.max_ = Eigen::Map<const fcl::Vector3<double>>(shape_.aabb_hi);
  aabb_center = aabb_local.center();
  const double half_diagonal = (aabb_local.max_ - aabb_center).norm();
  aabb_radius = std::min(half_diagonal, shape_.radius + aabb_center.norm());
}

fcl::NODE_TYPE Superovoid::getNodeType() const { return fcl::BV_UNKNOWN; }

double Superovoid::computeVolume() const {
  double volume = 0;
  throwIfError(sov_shape_volume(&volume, &shape_), "sov_shape_volume");
  return volume;
}

fcl::Vector3<double> Superovoid::computeCOM() const {
  const Moments m = moments(shape_);
  return fcl::Vector3<double>(0, 0, m.z / m.volume);
}

fcl::Matrix3<double> Superovoid::computeMomentofInertia() const {
  const Moments m = moments(shape_);
  return fcl::Vector3<double>(m.yy + m.zz, m.xx + m.zz, m.xx + m.yy).asDiagonal();
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
  for (int i = 0; i < 8; ++i) {
    const fcl::Vector3<double> local((i & 1) ? shape_.aabb_hi[0] : shape_.aabb_lo[0],
                                     (i & 2) ? shape_.aabb_hi[1] : shape_.aabb_lo[1],
                                     (i & 4) ? shape_.aabb_hi[2] : shape_.aabb_lo[2]);
    corners.push_back(tf * local);
  }
  return corners;
}

std::ostream& operator<<(std::ostream& out, const Superovoid& s) {
  const sov_shape& p = s.shape();
  return out << "Superovoid(a: " << p.a[0] << " " << p.a[1] << " " << p.a[2]
             << ", eps: " << p.eps1 << " " << p.eps2 << ", taper: " << p.taper[0] << " "
             << p.taper[1] << ")";
}

}  // namespace sov

namespace fcl {
namespace detail {

void ComputeBVImpl<double, AABB<double>, sov::Superovoid>::run(
    const sov::Superovoid& s, const Transform3<double>& tf, AABB<double>& bv) {
  const Matrix3<double>& R = tf.linear();
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
