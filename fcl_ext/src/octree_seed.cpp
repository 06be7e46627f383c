// Superovoid::voxels and sov::octreeSeededDistance: the study's octImplicit
// scheme (voxelised bodies, closest octree leaves, implicit Newton).
#include "superovoid/fcl/octree_seed.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fcl/geometry/octree/octree.h>
#include <fcl/narrowphase/distance.h>
#include <octomap/OcTree.h>

#include "solver.h"
#include "superovoid/error.h"
#include "voxel_cache.h"

namespace sov {
namespace {

// OctoMap's 16-bit keys cover +-32768 cells about the origin; coordinates
// farther out wrap around. The body's box must stay inside this many cells.
constexpr double kMaxCellsFromOrigin = 32767;

// The cells of OctoMap's grid at resolution res whose centres lie in the
// body (F <= 0), as occupied leaves of a new tree (local frame). Throws
// sov::Error (SOV_ERR_OPTION) when the body's box reaches OctoMap's key range
// at res, when the grid over it has more than Superovoid::kMaxVoxelCells cells, or when
// no cell centre lies in the body.
std::shared_ptr<const octomap::OcTree> voxelise(const sov_shape& shape, double res) {
  sov_shape_info info;
  throwIfError(sov_shape_get(&info, &shape), "sov_shape_get");
  const double *lo_corner = info.aabb_lo, *hi_corner = info.aabb_hi;
  double cells = 1;
  for (int i = 0; i < 3; ++i) {
    const double reach = std::max(std::abs(lo_corner[i]), std::abs(hi_corner[i])) / res;
    if (!(reach < kMaxCellsFromOrigin)) {
      throw Error(SOV_ERR_OPTION,
                  "Superovoid::voxels: resolution too fine for the body: its box reaches " +
                      std::to_string(reach) + " cells from the origin on an axis (OctoMap's " +
                      "16-bit keys allow fewer than 32767)");
    }
    cells *= std::floor((hi_corner[i] - lo_corner[i]) / res) + 2;
  }
  if (cells > Superovoid::kMaxVoxelCells) {
    throw Error(SOV_ERR_OPTION, "Superovoid::voxels: resolution too fine for the body: " +
                                    std::to_string(cells) + " grid cells (at most " +
                                    std::to_string(Superovoid::kMaxVoxelCells) + ")");
  }
  auto tree = std::make_shared<octomap::OcTree>(res);
  const octomap::OcTreeKey lo =
      tree->coordToKey(octomap::point3d(lo_corner[0], lo_corner[1], lo_corner[2]));
  const octomap::OcTreeKey hi =
      tree->coordToKey(octomap::point3d(hi_corner[0], hi_corner[1], hi_corner[2]));
  std::size_t occupied = 0;
  // Loop counters wider than OctoMap's 16-bit keys: no wrap at hi == 65535.
  for (unsigned i = lo[0]; i <= hi[0]; ++i) {
    for (unsigned j = lo[1]; j <= hi[1]; ++j) {
      for (unsigned k = lo[2]; k <= hi[2]; ++k) {
        const octomap::OcTreeKey key(static_cast<octomap::key_type>(i),
                                     static_cast<octomap::key_type>(j),
                                     static_cast<octomap::key_type>(k));
        const octomap::point3d c = tree->keyToCoord(key);
        const double x[3] = {c.x(), c.y(), c.z()};
        double F = 0;
        if (sov_shape_implicit(&F, nullptr, nullptr, &shape, x) == SOV_OK && F <= 0) {
          tree->updateNode(key, true, true);
          ++occupied;
        }
      }
    }
  }
  if (occupied == 0) {
    throw Error(SOV_ERR_OPTION, "Superovoid::voxels: resolution " + std::to_string(res) +
                                    " too coarse: no voxel centre inside the body");
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
  // Resolution 0: a tenth of each body's own smallest semi-axis.
  const auto resolution = [&options](const Superovoid& s) {
    if (options.resolution != 0) return options.resolution;
    const double* ax = s.info().params;
    return 0.1 * std::min({ax[0], ax[1], ax[2]});
  };
  const fcl::OcTree<double> ta(a.voxels(resolution(a)));
  const fcl::OcTree<double> tb(b.voxels(resolution(b)));
  fcl::DistanceRequest<double> request(true);
  fcl::DistanceResult<double> closest;
  OctreeSeedResult out;
  out.octree_distance = fcl::distance(&ta, tfa, &tb, tfb, request, closest);
  sov_options core = withThreadWork(&options.core);
  core.method = SOV_METHOD_IMPLICIT;
  core.seed = SOV_SEED_CACHE;
  if (out.octree_distance < 0) {
    // Overlapping leaves: libccd's distance answers -1 with zero nearest
    // points, no seed. The core's own SOV_SEED_CENTERS seed instead (a
    // contact of the overlapping leaves as both seeds did not converge on
    // the test pairs; the centre-line seed did).
    out.seed_source = OctreeSeedSource::Centers;
    out.seed_a = tfa.translation();
    out.seed_b = tfb.translation();
    core.seed = SOV_SEED_CENTERS;
    out.status = sov_distance(&out.result, &a.shape(), &XA, &b.shape(), &XB, &core, nullptr);
    return out;
  }
  out.seed_a = closest.nearest_points[0];
  out.seed_b = closest.nearest_points[1];
  sov_cache cache{};
  out.status = sov_cache_set(&cache, &XA, &XB, out.seed_a.data(), out.seed_b.data());
  if (out.status != SOV_OK) return out;
  out.status = sov_distance(&out.result, &a.shape(), &XA, &b.shape(), &XB, &core, &cache);
  return out;
}

}  // namespace sov
