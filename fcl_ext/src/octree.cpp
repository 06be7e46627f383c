// Superovoid vs OctoMap octree: FCL's shape-octree collision and distance
// templates instantiated with detail::Solver (compiled here only). FCL's
// ShapeOcTree* answer octree first (contacts, nearest points); for a
// superovoid first the answer is mirrored, as for meshes.
#include "octree.h"

#include <fcl/config.h>
#include <fcl/narrowphase/detail/collision_func_matrix.h>
#include <fcl/narrowphase/detail/distance_func_matrix.h>

#include "dispatch.h"
#include "mirror.h"

#if !FCL_HAVE_OCTOMAP
#error "superovoid::fcl needs FCL built with OctoMap (FCL_HAVE_OCTOMAP)"
#endif

namespace sov {
namespace detail {

std::size_t collideOcTree(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                          const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                          const Solver& solver, const fcl::CollisionRequest<double>& request,
                          fcl::CollisionResult<double>& result) {
  const bool superovoid_first = asSuperovoid(o1) != nullptr;
  answerTreeFirst(superovoid_first, result, [&](fcl::CollisionResult<double>& r) {
    if (superovoid_first)
      fcl::detail::ShapeOcTreeCollide<Superovoid, Solver>(o1, tf1, o2, tf2, &solver, request, r);
    else
      fcl::detail::OcTreeShapeCollide<Superovoid, Solver>(o1, tf1, o2, tf2, &solver, request, r);
  });
  return result.numContacts();
}

double distanceOcTree(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                      const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                      const Solver& solver, const fcl::DistanceRequest<double>& request,
                      fcl::DistanceResult<double>& result) {
  const bool superovoid_first = asSuperovoid(o1) != nullptr;
  answerTreeFirst(superovoid_first, result, [&](fcl::DistanceResult<double>& r) {
    if (superovoid_first)
      fcl::detail::ShapeOcTreeDistance<Superovoid, Solver>(o1, tf1, o2, tf2, &solver, request, r);
    else
      fcl::detail::OcTreeShapeDistance<Superovoid, Solver>(o1, tf1, o2, tf2, &solver, request, r);
  });
  return result.min_distance;
}

}  // namespace detail
}  // namespace sov
