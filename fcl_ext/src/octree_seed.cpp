// Superovoid::voxels and sov::octreeSeededDistance: the study's octImplicit
// scheme (voxelised bodies, closest octree leaves, implicit Newton).
#include "superovoid/fcl/octree_seed.h"

#include <algorithm>
#include <cmath>

#include <fcl/geometry/octree/octree.h>
#include <fcl/narrowphase/distance.h>
#include <octomap/OcTree.h>

#include "solver.h"
#include "superovoid/fcl/error.h"
#include "voxel_cache.h"

namespace sov {
namespace {

// The cells of OctoMap's grid at resolution res whose centres lie in the
// body (F <= 0), as occupied leaves of a new tree (local frame).
std::shared_ptr<const octomap::OcTree> voxelise(const sov_shape& shape, double res) {
  auto tree = std::make_shared<octomap::OcTree>(res);
  const octomap::OcTreeKey lo =
      tree->coordToKey(octomap::point3d(shape.aabb_lo[0], shape.aabb_lo[1], shape.aabb_lo[2]));
  const octomap::OcTreeKey hi =
      tree->coordToKey(octomap::point3d(shape.aabb_hi[0], shape.aabb_hi[1], shape.aabb_hi[2]));
  octomap::OcTreeKey key;
  for (key[0] = lo[0]; key[0] <= hi[0]; ++key[0]) {
    for (key[1] = lo[1]; key[1] <= hi[1]; ++key[1]) {
      for (key[2] = lo[2]; key[2] <= hi[2]; ++key[2]) {
        const octomap::point3d c = tree->keyToCoord(key);
        const double x[3] = {c.x(), c.y(), c.z()};
        double F = 0;
        if (sov_shape_implicit(&F, nullptr, nullptr, &shape, x) == SOV_OK && F <= 0) {
          tree->updateNode(key, true, true);
        }
      }
    }
  }
  tree->updateInnerOccupancy();
  return tree;
}

}  // namespace

std::shared_ptr<const octomap::OcTree> Superovoid::voxels(double resolution) const {
  if (!(resolution > 0) || !std::isfinite(resolution)) {
    throw Error(SOV_ERR_OPTION, "Superovoid::voxels: resolution must be positive and finite");
  }
  std::lock_guard<std::mutex> lock(voxels_->mutex);
  if (!voxels_->tree || voxels_->resolution != resolution) {
    voxels_->tree = voxelise(shape_, resolution);
    voxels_->resolution = resolution;
  }
  return voxels_->tree;
}

OctreeSeedOptions::OctreeSeedOptions() { sov_options_default(&core); }

OctreeSeedResult octreeSeededDistance(const Superovoid& a, const fcl::Transform3<double>& tfa,
                                      const Superovoid& b, const fcl::Transform3<double>& tfb,
                                      const OctreeSeedOptions& options) {
  const sov_pose XA = detail::toPose(tfa);
  const sov_pose XB = detail::toPose(tfb);
  double res = options.resolution;
  if (res == 0) {
    const double* sa = a.shape().a;
    const double* sb = b.shape().a;
    res = 0.1 * std::min({sa[0], sa[1], sa[2], sb[0], sb[1], sb[2]});
  }
  const fcl::OcTree<double> ta(a.voxels(res));
  const fcl::OcTree<double> tb(b.voxels(res));
  fcl::DistanceRequest<double> request(true);
  fcl::DistanceResult<double> closest;
  OctreeSeedResult out;
  out.octree_distance = fcl::distance(&ta, tfa, &tb, tfb, request, closest);
  out.seed_a = closest.nearest_points[0];
  out.seed_b = closest.nearest_points[1];
  sov_cache cache{};
  out.status = sov_cache_set(&cache, &XA, &XB, out.seed_a.data(), out.seed_b.data());
  if (out.status != SOV_OK) return out;
  sov_options core = options.core;
  core.method = SOV_METHOD_IMPLICIT;
  core.seed = SOV_SEED_CACHE;
  out.status = sov_distance(&out.result, &a.shape(), &XA, &b.shape(), &XB, &core, &cache);
  return out;
}

}  // namespace sov
