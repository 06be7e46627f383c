// sov::octreeSeededDistance: the study's octImplicit scheme as a selectable
// alternative to sov::distance for superovoid pairs (not the default).
//
// Each superovoid is voxelised once into an OctoMap octree
// (Superovoid::voxels, cached on the shape); FCL's octree-octree distance
// finds the closest occupied leaves of the two posed trees and their nearest
// points; those points seed the core's implicit Newton (sov_cache_set,
// SOV_SEED_CACHE, SOV_METHOD_IMPLICIT), whose answer is returned as is,
// status included: the study's scheme can fail to converge where the default
// (SOV_METHOD_AUTO) does not, and says so.
#ifndef SUPEROVOID_FCL_OCTREE_SEED_H
#define SUPEROVOID_FCL_OCTREE_SEED_H

#include <fcl/common/types.h>
#include <superovoid/superovoid.h>

#include "superovoid/fcl/export.h"
#include "superovoid/fcl/superovoid.h"

namespace sov {

// Options of the octree-seeded scheme.
struct SOV_FCL_API OctreeSeedOptions {
  // Voxel size for both bodies; 0 picks, per body, a tenth of that body's
  // own smallest semi-axis. Superovoid::voxels throws sov::Error for a size
  // too coarse (no cell centre in a body) or too fine (OctoMap's key range,
  // Superovoid::kMaxVoxelCells).
  double resolution = 0;
  // Core options; method and seed are overridden (SOV_METHOD_IMPLICIT,
  // SOV_SEED_CACHE), and work memory, where work is NULL, is the calling
  // thread's (superovoid/work.h). Filled by sov_options_default in the
  // constructor.
  sov_options core;
  OctreeSeedOptions();
};

// Where the core's seed came from.
enum class OctreeSeedSource {
  // The leaves are apart: FCL's octree-octree nearest points, through
  // sov_cache_set and SOV_SEED_CACHE.
  NearestPoints,
  // Leaves overlap: FCL's (libccd) distance answers -1 with zero nearest
  // points, so the core runs with its own SOV_SEED_CENTERS seed (support
  // points along the centre line); seed_a and seed_b are then the bodies'
  // origins (world), not the core's seed points.
  Centers,
};

// What the scheme produced: the core's status and result, and the seed.
struct OctreeSeedResult {
  int status = SOV_OK;            // the core's sov_distance status (or sov_cache_set's)
  sov_result result{};            // the core's answer (valid when status is SOV_OK)
  fcl::Vector3<double> seed_a{};  // seed near a (world; see seed_source)
  fcl::Vector3<double> seed_b{};  // seed near b (world; see seed_source)
  double octree_distance = 0;     // FCL's octree-octree distance (-1 when cells overlap)
  OctreeSeedSource seed_source = OctreeSeedSource::NearestPoints;
};

// Signed distance of two posed superovoids by the octree-seeded implicit
// Newton (study's octImplicit). Throws sov::Error for a pose that is not a
// rotation or a bad resolution; a non-converging solve is reported in
// status, not thrown.
SOV_FCL_API OctreeSeedResult octreeSeededDistance(const Superovoid& a,
                                                  const fcl::Transform3<double>& tfa,
                                                  const Superovoid& b,
                                                  const fcl::Transform3<double>& tfb,
                                                  const OctreeSeedOptions& options = {});

}  // namespace sov

#endif  // SUPEROVOID_FCL_OCTREE_SEED_H
