// Internal: superovoid vs OctoMap octree (fcl::OcTree<double>), through FCL's
// OcTreeSolver shape member templates (ShapeOcTreeCollide / -Distance,
// OcTreeShapeCollide / -Distance) run with detail::Solver: every occupied
// leaf is a Box, answered by libccd's GJK / MPR with the core's support
// function. Instantiated in octree.cpp only.
#ifndef SUPEROVOID_FCL_SRC_OCTREE_H
#define SUPEROVOID_FCL_SRC_OCTREE_H

#include <cstddef>

#include <fcl/geometry/collision_geometry.h>
#include <fcl/narrowphase/collision_request.h>
#include <fcl/narrowphase/collision_result.h>
#include <fcl/narrowphase/distance_request.h>
#include <fcl/narrowphase/distance_result.h>

#include "solver.h"

namespace sov {
namespace detail {

// True when g is an fcl::OcTree.
inline bool isOcTree(const fcl::CollisionGeometry<double>* g) {
  return g->getObjectType() == fcl::OT_OCTREE;
}

// Collision of a superovoid with an octree, either order (o1 or o2 is the
// superovoid, the other the octree), as FCL answers a shape-octree pair: one
// contact per intersecting occupied leaf (up to num_max_contacts), the leaf
// index on the octree's side, normals from o1 to o2. Returns the number of contacts in result.
std::size_t collideOcTree(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                          const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                          const Solver& solver, const fcl::CollisionRequest<double>& request,
                          fcl::CollisionResult<double>& result);

// Distance between a superovoid and an octree, either order, as FCL answers a
// shape-octree pair: the smallest GJK distance to an occupied leaf's box (-1
// once one intersects: libccd's answer, no penetration depth), nearest
// points in the caller's order. Returns
// result.min_distance.
double distanceOcTree(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                      const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                      const Solver& solver, const fcl::DistanceRequest<double>& request,
                      fcl::DistanceResult<double>& result);

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_OCTREE_H
