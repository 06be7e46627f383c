// sov::collide, and the instantiations of FCL's ShapeShapeCollide for every
// pair with a superovoid (compiled here only).
#include "superovoid/fcl/collision.h"

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/detail/collision_func_matrix.h>

#include "dispatch.h"
#include "mesh.h"
#include "octree.h"
#include "solver.h"

namespace sov {

std::size_t collide(const fcl::CollisionGeometry<double>* o1, const fcl::Transform3<double>& tf1,
                    const fcl::CollisionGeometry<double>* o2, const fcl::Transform3<double>& tf2,
                    const fcl::CollisionRequest<double>& request,
                    fcl::CollisionResult<double>& result) {
  detail::checkNotNull(o1, o2);
  const Superovoid* s1 = detail::asSuperovoid(o1);
  const Superovoid* s2 = detail::asSuperovoid(o2);
  if (!s1 && !s2) {
    if (detail::isMeshSphere(o1, o2)) {
      detail::checkSolver(request.gjk_solver_type);
      detail::Solver solver;
      solver.collision_tolerance = request.gjk_tolerance;
      return detail::collideMeshSphere(o1, tf1, o2, tf2, solver, request, result);
    }
    return fcl::collide(o1, tf1, o2, tf2, request, result);
  }
  detail::checkSolver(request.gjk_solver_type);
  if (request.num_max_contacts == 0) {
    throwIfError(SOV_ERR_OPTION, "sov::collide: num_max_contacts is 0");
  }
  detail::checkTransform(o1, tf1);
  detail::checkTransform(o2, tf2);
  detail::Solver solver;
  solver.collision_tolerance = request.gjk_tolerance;
  if (detail::isMesh(o1) || detail::isMesh(o2)) {
    return detail::collideMesh(o1, tf1, o2, tf2, solver, request, result);
  }
  if (detail::isOcTree(o1) || detail::isOcTree(o2)) {
    return detail::collideOcTree(o1, tf1, o2, tf2, solver, request, result);
  }
  return detail::withPair(s1, *o1, *o2, [&](const auto& g1, const auto& g2) {
    using T1 = std::decay_t<decltype(g1)>;
    using T2 = std::decay_t<decltype(g2)>;
    return fcl::detail::ShapeShapeCollide<T1, T2, detail::Solver>(o1, tf1, o2, tf2, &solver,
                                                                   request, result);
  });
}

std::size_t collide(const fcl::CollisionObject<double>* o1, const fcl::CollisionObject<double>* o2,
                    const fcl::CollisionRequest<double>& request,
                    fcl::CollisionResult<double>& result) {
  if (!o1 || !o2) throwIfError(SOV_ERR_NULL, "sov::collide: null collision object");
  const auto* g1 = o1->collisionGeometry().get();
  const auto* g2 = o2->collisionGeometry().get();
  if (!detail::asSuperovoid(g1) && !detail::asSuperovoid(g2) && !detail::isMeshSphere(g1, g2)) {
    return fcl::collide(o1, o2, request, result);
  }
  return collide(o1->collisionGeometry().get(), o1->getTransform(),
                 o2->collisionGeometry().get(), o2->getTransform(), request, result);
}

}  // namespace sov
