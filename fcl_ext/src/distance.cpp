// sov::distance, and the instantiations of FCL's ShapeShapeDistance for every
// pair with a superovoid (compiled here only).
#include "superovoid/fcl/distance.h"

#include <fcl/narrowphase/detail/distance_func_matrix.h>
#include <fcl/narrowphase/distance.h>

#include "dispatch.h"
#include "mesh.h"
#include "octree.h"
#include "solver.h"

namespace sov {
namespace detail {
namespace {

// True for a mesh with an oriented tree and an fcl::Sphere, either order:
// pairs the layer answers itself (distanceMeshSphere) instead of FCL.
bool isMeshSpherePair(const fcl::CollisionGeometry<double>* o1,
                      const fcl::CollisionGeometry<double>* o2) {
  const auto sphere = [](const fcl::CollisionGeometry<double>* g) {
    return g->getObjectType() == fcl::OT_GEOM && g->getNodeType() == fcl::GEOM_SPHERE;
  };
  return (isOrientedMesh(o1) && sphere(o2)) || (sphere(o1) && isOrientedMesh(o2));
}

}  // namespace
}  // namespace detail

double distance(const fcl::CollisionGeometry<double>* o1, const fcl::Transform3<double>& tf1,
                const fcl::CollisionGeometry<double>* o2, const fcl::Transform3<double>& tf2,
                const fcl::DistanceRequest<double>& request,
                fcl::DistanceResult<double>& result) {
  detail::checkNotNull(o1, o2);
  const Superovoid* s1 = detail::asSuperovoid(o1);
  const Superovoid* s2 = detail::asSuperovoid(o2);
  if (!s1 && !s2) {
    if (detail::isMeshSpherePair(o1, o2)) {
      detail::checkSolver(request.gjk_solver_type);
      detail::Solver solver;
      return detail::distanceMeshSphere(o1, tf1, o2, tf2, solver, request, result);
    }
    return fcl::distance(o1, tf1, o2, tf2, detail::forwardedRequest(o1, o2, request), result);
  }
  detail::checkSolver(request.gjk_solver_type);
  detail::checkCoordinates(tf1);
  detail::checkCoordinates(tf2);
  if (s1) detail::toPose(tf1);
  if (s2) detail::toPose(tf2);
  detail::Solver solver;
  solver.distance_tolerance = request.distance_tolerance;
  if (detail::isMesh(o1) || detail::isMesh(o2)) {
    return detail::distanceMesh(o1, tf1, o2, tf2, solver, request, result);
  }
  if (detail::isOcTree(o1) || detail::isOcTree(o2)) {
    return detail::distanceOcTree(o1, tf1, o2, tf2, solver, request, result);
  }
  return detail::withPair(s1, *o1, *o2, [&](const auto& g1, const auto& g2) {
    using T1 = std::decay_t<decltype(g1)>;
    using T2 = std::decay_t<decltype(g2)>;
    return fcl::detail::ShapeShapeDistance<T1, T2, detail::Solver>(o1, tf1, o2, tf2, &solver,
                                                                    request, result);
  });
}

double distance(const fcl::CollisionObject<double>* o1, const fcl::CollisionObject<double>* o2,
                const fcl::DistanceRequest<double>& request,
                fcl::DistanceResult<double>& result) {
  if (!o1 || !o2) throwIfError(SOV_ERR_NULL, "sov::distance: null collision object");
  const fcl::CollisionGeometry<double>* g1 = o1->collisionGeometry().get();
  const fcl::CollisionGeometry<double>* g2 = o2->collisionGeometry().get();
  if (g1 && g2 && !detail::asSuperovoid(g1) && !detail::asSuperovoid(g2) &&
      !detail::isMeshSpherePair(g1, g2)) {
    return fcl::distance(o1, o2, detail::forwardedRequest(g1, g2, request), result);
  }
  return distance(o1->collisionGeometry().get(), o1->getTransform(),
                  o2->collisionGeometry().get(), o2->getTransform(), request, result);
}

}  // namespace sov
