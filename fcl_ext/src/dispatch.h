// Internal: which pairs the drop-in functions answer, and the concrete FCL
// shape type behind a CollisionGeometry.
#ifndef SUPEROVOID_FCL_SRC_DISPATCH_H
#define SUPEROVOID_FCL_SRC_DISPATCH_H

#include <string>
#include <utility>

#include <fcl/geometry/collision_geometry.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/plane.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/distance_request.h>
#include <fcl/narrowphase/gjk_solver_type.h>
#include <superovoid/superovoid.h>

#include "superovoid/error.h"
#include "superovoid/fcl/superovoid.h"

namespace sov {
namespace detail {

using Geometry = fcl::CollisionGeometry<double>;

// The superovoid behind g, or nullptr.
inline const Superovoid* asSuperovoid(const Geometry* g) {
  return dynamic_cast<const Superovoid*>(g);
}

// Throws sov::Error unless o1 and o2 are non-null.
void checkNotNull(const Geometry* o1, const Geometry* o2);

// Throws sov::Error unless the request asks for FCL's libccd solver.
void checkSolver(fcl::GJKSolverType type);

// request for a pair FCL answers itself (no superovoid), with signed
// distance kept only where FCL 0.7 computes it without its penetration
// workaround: two primitive shapes with the libccd solver. Elsewhere (a mesh
// or octree, or GST_INDEP) that workaround can fail its assertion
// `index != -1` (distance-inl.h:177) and abort the process, so those pairs
// get FCL's unsigned answer.
fcl::DistanceRequest<double> forwardedRequest(const Geometry* o1, const Geometry* o2,
                                              const fcl::DistanceRequest<double>& request);

// Throws sov::Error: a superovoid cannot be paired with g (a
// TriangleP, a BVHModel of a node type FCL does not dispatch).
[[noreturn]] void throwUnsupported(const Geometry& g);

// Calls f with g as its concrete shape type: a superovoid or one of the FCL
// shapes a superovoid can be paired with; throws sov::Error otherwise.
template <class F>
auto withShape(const Geometry& g, F&& f) -> decltype(f(std::declval<const Superovoid&>())) {
  if (const Superovoid* s = asSuperovoid(&g)) return f(*s);
  if (g.getObjectType() == fcl::OT_GEOM) {
    switch (g.getNodeType()) {
      case fcl::GEOM_SPHERE: return f(static_cast<const fcl::Sphere<double>&>(g));
      case fcl::GEOM_ELLIPSOID: return f(static_cast<const fcl::Ellipsoid<double>&>(g));
      case fcl::GEOM_BOX: return f(static_cast<const fcl::Box<double>&>(g));
      case fcl::GEOM_CAPSULE: return f(static_cast<const fcl::Capsule<double>&>(g));
      case fcl::GEOM_CONE: return f(static_cast<const fcl::Cone<double>&>(g));
      case fcl::GEOM_CYLINDER: return f(static_cast<const fcl::Cylinder<double>&>(g));
      case fcl::GEOM_CONVEX: return f(static_cast<const fcl::Convex<double>&>(g));
      case fcl::GEOM_PLANE: return f(static_cast<const fcl::Plane<double>&>(g));
      case fcl::GEOM_HALFSPACE: return f(static_cast<const fcl::Halfspace<double>&>(g));
      default: break;
    }
  }
  throwUnsupported(g);
}

// Calls f(shape1, shape2) for a pair with at least one superovoid (s1 is the
// superovoid behind o1 or nullptr), concrete types in the caller's order.
template <class F>
auto withPair(const Superovoid* s1, const Geometry& o1, const Geometry& o2, F&& f) {
  if (s1) return withShape(o2, [&](const auto& g2) { return f(*s1, g2); });
  const Superovoid& s2 = static_cast<const Superovoid&>(o2);
  return withShape(o1, [&](const auto& g1) { return f(g1, s2); });
}

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_DISPATCH_H
