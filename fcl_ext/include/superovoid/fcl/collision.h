// Drop-in replacement for fcl::collide that also answers superovoid pairs.
//
// Same signatures and meaning as fcl::collide. A pair without a superovoid is
// forwarded to fcl::collide untouched. A pair with one is answered here:
//  - superovoid vs superovoid, sphere, ellipsoid: exactly, by the C core;
//  - vs plane, halfspace: exactly, closed form from the core's support point;
//  - vs box, capsule, cone, cylinder, convex: FCL's GJK/MPR through libccd
//    with the core's support function (GJK tolerance);
//  - vs a triangle mesh (fcl::BVHModel with AABB, OBB, RSS, kIOS, OBBRSS or
//    KDOP<16/18/24> nodes): FCL's BVHShapeCollider, libccd's MPR per
//    triangle; one contact per intersecting triangle (up to
//    num_max_contacts), b1 / b2 the triangle's index on the mesh's side. A
//    mesh is a surface: a superovoid wholly inside a closed mesh does not
//    collide with it.
//  - vs an OctoMap octree (fcl::OcTree): FCL's OcTreeSolver, each occupied
//    leaf a box answered as the GJK pairs; one contact per intersecting leaf
//    (up to num_max_contacts), the leaf's index on the octree's side.
// With enable_contact the contact has the normal from o1 to o2, the
// penetration depth -d and the position halfway between the witness points
// (GJK, mesh and octree pairs: what FCL's libccd path reports; for a
// superovoid first and a mesh or octree second the mirror image of FCL's
// answer, which FCL itself does not flip). Without enable_contact a contact
// names only o1, o2, b1 and b2: as in FCL, its normal, pos and
// penetration_depth are left unset. Costs (enable_cost) are AABB overlaps,
// as in FCL.
//
// Throws sov::Error for what FCL would print about and answer wrongly:
// a null geometry, a request with gjk_solver_type other than GST_LIBCCD
// (FCL's GST_INDEP would take a superovoid for a point), a superovoid paired
// with a triangle (TriangleP: not supported yet), a BVHModel
// that is not a built triangle mesh (a point cloud, endModel() not called),
// a superovoid pose that is not a rotation within 1e-6, a non-finite GJK
// answer.
// fcl::detail::FailedAtThisConfiguration from FCL's own GJK passes through.
#ifndef SUPEROVOID_FCL_COLLISION_H
#define SUPEROVOID_FCL_COLLISION_H

#include <cstddef>

#include <fcl/narrowphase/collision_object.h>
#include <fcl/narrowphase/collision_request.h>
#include <fcl/narrowphase/collision_result.h>

#include "superovoid/fcl/export.h"

namespace sov {

// Collision between geometries o1 (pose tf1) and o2 (pose tf2); returns the
// number of contacts in result, like fcl::collide.
SOV_FCL_API std::size_t collide(const fcl::CollisionGeometry<double>* o1,
                                const fcl::Transform3<double>& tf1,
                                const fcl::CollisionGeometry<double>* o2,
                                const fcl::Transform3<double>& tf2,
                                const fcl::CollisionRequest<double>& request,
                                fcl::CollisionResult<double>& result);

// Collision between two collision objects (geometry and pose of each).
SOV_FCL_API std::size_t collide(const fcl::CollisionObject<double>* o1,
                                const fcl::CollisionObject<double>* o2,
                                const fcl::CollisionRequest<double>& request,
                                fcl::CollisionResult<double>& result);

}  // namespace sov

#endif  // SUPEROVOID_FCL_COLLISION_H
