// The libccd bridge: FCL's GJK/EPA/MPR (GJKSolver_libccd, the default
// GST_LIBCCD solver) reaches a shape through detail::GJKInitializer, which
// hands libccd a support callback, a centre callback and an object. This
// specialisation makes every FCL template built on it (ShapeShapeCollide,
// ShapeShapeDistance, later the mesh and octree traversals) work for
// superovoids. The callbacks are noexcept: nothing may unwind through libccd.
//
// FCL's other solver, GST_INDEP, looks shapes up by node type and would treat
// a superovoid as a point; sov::collide / sov::distance reject it.
#ifndef SUPEROVOID_FCL_GJK_LIBCCD_H
#define SUPEROVOID_FCL_GJK_LIBCCD_H

#include <fcl/narrowphase/detail/convexity_based_algorithm/gjk_libccd.h>

#include "superovoid/fcl/export.h"
#include "superovoid/fcl/superovoid.h"

namespace fcl {
namespace detail {

template <>
class SOV_FCL_API GJKInitializer<double, sov::Superovoid> {
 public:
  // Support point of the posed body along a world direction, through
  // sov_shape_support in the local frame. A zero direction gives the body's
  // centre (every point maximises 0 . x); a non-finite one gives NaN.
  static GJKSupportFunction getSupportFunction();
  // The body's centre in the world: its local origin, which lies inside every
  // superovoid (the z = 0 slice contains it), as MPR requires.
  static GJKCenterFunction getCenterFunction();
  // A heap object holding the shape's address and the pose tf (the shape
  // must outlive it); release it with deleteGJKObject.
  static void* createGJKObject(const sov::Superovoid& s, const Transform3<double>& tf);
  // Releases an object of createGJKObject; nullptr is a no-op.
  static void deleteGJKObject(void* o);
};

}  // namespace detail
}  // namespace fcl

#endif  // SUPEROVOID_FCL_GJK_LIBCCD_H
