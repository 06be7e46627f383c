// sov::Superovoid: a superovoid (tapered superellipsoid) as an FCL 0.7 shape.
//
// It wraps a validated sov_shape of the C core; every geometric quantity comes
// from the core (bounds, support points, volume, centre of mass and moment of
// inertia through sov_shape_mass): no math is redone here.
//
// FCL's dispatch tables are closed, so plain fcl::collide / fcl::distance
// cannot answer a superovoid pair: getNodeType() returns fcl::BV_UNKNOWN, for
// which FCL's tables hold no function (they print "not supported" and answer
// no collision / the largest double, never index out of bounds). Use
// sov::collide and sov::distance (superovoid/fcl/collision.h, distance.h).
#ifndef SUPEROVOID_FCL_SUPEROVOID_H
#define SUPEROVOID_FCL_SUPEROVOID_H

#include <array>
#include <iosfwd>
#include <memory>
#include <vector>

#include <fcl/geometry/shape/shape_base.h>
#include <fcl/geometry/shape/utility.h>
#include <superovoid/superovoid.h>

#include "superovoid/fcl/export.h"

namespace octomap {
class OcTree;
}  // namespace octomap

namespace sov {
namespace detail {
struct VoxelCache;
}  // namespace detail

// A superovoid with parameters a1 a2 a3 eps1 eps2 taper_x taper_y (SPEC),
// body F <= 0 in its local frame. Immutable: the parameters are validated
// once, by the constructor.
class SOV_FCL_API Superovoid : public fcl::ShapeBase<double> {
 public:
  using S = double;

  // Validates params = a1 a2 a3 eps1 eps2 taper_x taper_y; throws sov::Error
  // (status of sov_shape_init, message from sov_shape_explain) if invalid.
  explicit Superovoid(const std::array<double, 7>& params);
  // Same, parameter by parameter; zero tapers by default.
  Superovoid(double a1, double a2, double a3, double eps1, double eps2,
             double taper_x = 0.0, double taper_y = 0.0);

  // The validated C core shape.
  const sov_shape& shape() const noexcept { return shape_; }
  // What the core derived from the parameters: the seven parameters
  // a1 a2 a3 eps1 eps2 taper_x taper_y, bounding radius and box, dent.
  const sov_shape_info& info() const noexcept { return info_; }
  // The seven parameters a1 a2 a3 eps1 eps2 taper_x taper_y.
  std::array<double, 7> params() const noexcept;

  // Local AABB from the core's exact bounds; aabb_center is its centre and
  // aabb_radius the smaller of its half diagonal and the core's bounding
  // sphere radius plus |aabb_center| (both enclose the body).
  void computeLocalAABB() override;
  // fcl::BV_UNKNOWN: see the file comment.
  fcl::NODE_TYPE getNodeType() const override;
  // Volume (sov_shape_volume).
  double computeVolume() const override;
  // Centre of mass of the uniform body, local frame: (0, 0, z_c); tapers move
  // it along z (sov_shape_mass).
  fcl::Vector3<double> computeCOM() const override;
  // Inertia tensor about the local origin for unit density, FCL's convention
  // (integral of |r|^2 I - r r^T over the body; Ellipsoid gives
  // V/5 diag(b^2 + c^2, ...)). Diagonal: the slices are symmetric in x and y
  // (sov_shape_mass).
  fcl::Matrix3<double> computeMomentofInertia() const override;

  // Support point of the body along a non-zero local direction (local frame).
  fcl::Vector3<double> localSupport(const fcl::Vector3<double>& dir) const;
  // The eight corners of the local AABB under tf (they bound the body); used
  // by FCL's generic bounding-volume fitting (RSS, kIOS, OBBRSS, k-DOP).
  std::vector<fcl::Vector3<double>> getBoundVertices(
      const fcl::Transform3<double>& tf) const;

  // "Superovoid(a: a1 a2 a3, eps: eps1 eps2, taper: tx ty)".
  // The body voxelised on OctoMap's grid of the given resolution (> 0): an
  // octree whose occupied leaves are the cells whose centres satisfy F <= 0,
  // in the local frame. Built on first use and cached on the shape (copies
  // share the cache); thread-safe; a different resolution replaces the
  // cached tree. Throws sov::Error (SOV_ERR_OPTION) for a resolution that
  // is not positive and finite; that is so fine that the body's box reaches
  // 32767 cells from the origin on an axis (OctoMap's 16-bit keys would
  // wrap) or the grid over the box exceeds kMaxVoxelCells cells; or that is
  // so coarse that no cell centre lies in the body (an empty tree). Used by
  // sov::octreeSeededDistance (octree_seed.h).
  std::shared_ptr<const octomap::OcTree> voxels(double resolution) const;
  // The most grid cells voxels() visits (the cells over the body's box).
  static constexpr double kMaxVoxelCells = 2e7;

  friend SOV_FCL_API std::ostream& operator<<(std::ostream& out,
                                              const Superovoid& s);

 private:
  sov_shape shape_;
  sov_shape_info info_;
  std::shared_ptr<detail::VoxelCache> voxels_;
};

}  // namespace sov

namespace fcl {
namespace detail {

// Exact world AABB of a posed superovoid: support points along the six world
// axis directions.
template <>
struct SOV_FCL_API ComputeBVImpl<double, AABB<double>, sov::Superovoid> {
  static void run(const sov::Superovoid& s, const Transform3<double>& tf,
                  AABB<double>& bv);
};

// OBB of a posed superovoid: the local AABB carried by the pose.
template <>
struct SOV_FCL_API ComputeBVImpl<double, OBB<double>, sov::Superovoid> {
  static void run(const sov::Superovoid& s, const Transform3<double>& tf,
                  OBB<double>& bv);
};

}  // namespace detail
}  // namespace fcl

#endif  // SUPEROVOID_FCL_SUPEROVOID_H
