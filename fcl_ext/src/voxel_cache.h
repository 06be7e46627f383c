// Internal: the voxelisation cache a Superovoid carries (Superovoid::voxels).
#ifndef SUPEROVOID_FCL_SRC_VOXEL_CACHE_H
#define SUPEROVOID_FCL_SRC_VOXEL_CACHE_H

#include <memory>
#include <mutex>

#include <octomap/OcTree.h>

namespace sov {
namespace detail {

// The last voxelisation built for a shape and its resolution, behind a mutex.
struct VoxelCache {
  std::mutex mutex;
  double resolution = 0;
  std::shared_ptr<const octomap::OcTree> tree;
};

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_VOXEL_CACHE_H
