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

// True when g is an fcl::Sphere.
bool isSphere(const fcl::CollisionGeometry<double>* g) {
  return g->getObjectType() == fcl::OT_GEOM && g->getNodeType() == fcl::GEOM_SPHERE;
}

// True for a mesh with an oriented tree and an fcl::Sphere, either order:
// pairs the layer answers itself (distanceMeshSphere) instead of FCL.
bool isMeshSpherePair(const fcl::CollisionGeometry<double>* o1,
                      const fcl::CollisionGeometry<double>* o2) {
  return (isOrientedMesh(o1) && isSphere(o2)) || (isSphere(o1) && isOrientedMesh(o2));
}

// True for a primitive with a support function: not a plane or halfspace
// (FCL answers their pairs in closed form), a mesh or an octree.
bool hasSupport(const fcl::CollisionGeometry<double>* g) {
  if (g->getObjectType() != fcl::OT_GEOM) return false;
  switch (g->getNodeType()) {
    case fcl::GEOM_SPHERE:
    case fcl::GEOM_ELLIPSOID:
    case fcl::GEOM_BOX:
    case fcl::GEOM_CAPSULE:
    case fcl::GEOM_CONE:
    case fcl::GEOM_CYLINDER:
    case fcl::GEOM_CONVEX:
      return true;
    default:
      return false;
  }
}

// f(g1, g2) with the concrete shapes of two geometries hasSupport accepts;
// unreached for the others, which it excludes.
template <class R, class F>
R withSupportShapes(const fcl::CollisionGeometry<double>* o1,
                    const fcl::CollisionGeometry<double>* o2, R unreached, F&& f) {
  return withShape(*o1, [&](const auto& g1) {
    return withShape(*o2, [&](const auto& g2) -> R {
      using T1 = std::decay_t<decltype(g1)>;
      using T2 = std::decay_t<decltype(g2)>;
      if constexpr (std::is_same_v<T1, Superovoid> || std::is_same_v<T2, Superovoid> ||
                    kIsPlaneLike<T1> || kIsPlaneLike<T2>) {
        return unreached;
      } else {
        return f(g1, g2);
      }
    });
  });
}

// The core's EPA on the support functions of two primitives (hasSupport)
// at tolerance, into result: d < 0 and the witnesses, or, where it proves
// them apart after all, the distance.
double coreEpa(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
               const fcl::CollisionGeometry<double>* o2, const Transform& tf2, double tolerance,
               const Witness& fallback, fcl::DistanceResult<double>& result) {
  Solver solver;
  solver.distance_tolerance = tolerance;
  const Witness w = withSupportShapes(o1, o2, fallback, [&](const auto& g1, const auto& g2) {
    return solver.supportPenetration(g1, tf1, g2, tf2);
  });
  result.update(w.d, o1, o2, fcl::DistanceResult<double>::NONE, fcl::DistanceResult<double>::NONE,
                w.pA, w.pB);
  return w.d;
}

// fcl::distance of a pair FCL answers itself, with forwardedRequest's
// request. Signed distance of two spheres is the closed form (FCL's EPA
// never returns on concentric ones); two primitives with support functions
// get FCL's GJK answer, checked, or the core's EPA (below); for any other
// pair a signed request finer than kMinEpaTolerance first asks FCL for the
// unsigned distance at that tolerance, and only an overlapping pair for the
// signed one at kMinEpaTolerance (FCL's EPA aborts below about 1e-7).
double forwardDistance(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                       const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                       const fcl::DistanceRequest<double>& request,
                       fcl::DistanceResult<double>& result) {
  fcl::DistanceRequest<double> r = forwardedRequest(o1, o2, request);
  if (r.enable_signed_distance && isSphere(o1) && isSphere(o2)) {
    const Witness w = sphereDistance(static_cast<const fcl::Sphere<double>&>(*o1), tf1,
                                     static_cast<const fcl::Sphere<double>&>(*o2), tf2);
    result.update(w.d, o1, o2, fcl::DistanceResult<double>::NONE,
                  fcl::DistanceResult<double>::NONE, w.pA, w.pB);
    return w.d;
  }
  if (hasSupport(o1) && hasSupport(o2)) {
    // Apart: FCL's GJK answer, checked (its GJK stops early between flat
    // faces: FCL issue #508). Overlapping, for a signed request: the core's
    // EPA at the requested tolerance, as for the pairs with a superovoid.
    // FCL's EPA is never asked: it throws std::logic_error on faces that
    // meet in a plane (355 of 20,000 overlapping boxes side by side on one
    // floor, turned about its normal), leaking its objects, and aborts below
    // a tolerance of about 1e-7.
    fcl::DistanceRequest<double> first = r;
    first.enable_signed_distance = false;
    first.enable_nearest_points = true;
    fcl::DistanceResult<double> mine;
    double d = fcl::distance(o1, tf1, o2, tf2, first, mine);
    Vector p1 = mine.nearest_points[0], p2 = mine.nearest_points[1];
    // FCL's answer checked and, where its GJK stopped early, replaced.
    const bool apart =
        d >= 0 && withSupportShapes(o1, o2, true, [&](const auto& g1, const auto& g2) {
          return certifiedApart(g1, tf1, g2, tf2, r.distance_tolerance, &d, &p1, &p2);
        });
    if (apart) {
      result.update(d, o1, o2, fcl::DistanceResult<double>::NONE, fcl::DistanceResult<double>::NONE,
                    p1, p2);
      return d;
    }
    if (!r.enable_signed_distance) {
      // FCL's -1 where it found the overlap; -1 where only the check did.
      if (d < 0) {
        result.update(d, o1, o2, mine.b1, mine.b2, p1, p2);
        return d;
      }
      result.update(-1, o1, o2, fcl::DistanceResult<double>::NONE,
                    fcl::DistanceResult<double>::NONE, Vector::Zero(), Vector::Zero());
      return -1;
    }
    return coreEpa(o1, tf1, o2, tf2, r.distance_tolerance, Witness{d, Vector::UnitZ(), p1, p2},
                   result);
  }
  if (!r.enable_signed_distance || r.distance_tolerance >= kMinEpaTolerance) {
    return fcl::distance(o1, tf1, o2, tf2, r, result);
  }
  r.enable_signed_distance = false;
  fcl::DistanceResult<double> apart = result;
  const double d = fcl::distance(o1, tf1, o2, tf2, r, apart);
  if (d >= 0) {
    result = apart;
    return d;
  }
  r.enable_signed_distance = true;
  r.distance_tolerance = kMinEpaTolerance;
  return fcl::distance(o1, tf1, o2, tf2, r, result);
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
    return detail::forwardDistance(o1, tf1, o2, tf2, request, result);
  }
  detail::checkSolver(request.gjk_solver_type);
  detail::checkTransform(o1, tf1);
  detail::checkTransform(o2, tf2);
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
  return distance(g1, o1->getTransform(), g2, o2->getTransform(), request, result);
}

}  // namespace sov
