// Drop-in replacement for fcl::distance that also answers superovoid pairs.
//
// Same signatures and meaning as fcl::distance. A pair without a superovoid
// is forwarded to fcl::distance untouched, except that FCL is asked for
// signed distance only for two primitive shapes with the libccd solver (its
// signed distance of a mesh or octree pair can abort the process), and that
// a mesh (RSS, kIOS, OBBRSS tree) against an fcl::Sphere is answered here in
// closed form per triangle (FCL 0.7's leaves the distance unset on an
// intersection): -1 once a triangle intersects the sphere, world nearest
// points; and two spheres' signed distance is the closed form (FCL's EPA
// never returns on concentric ones). Pairs with one are answered as in
// superovoid/fcl/collision.h (exact: superovoid vs superovoid, sphere,
// ellipsoid, plane, halfspace; GJK tolerance: vs box, capsule, cone,
// cylinder, convex, triangle meshes of every BV type). Conventions, as FCL
// documents them:
//  - min_distance: the distance when apart. When overlapping: exact pairs
//    always give the exact signed distance -depth (the SPEC's d), whether or
//    not enable_signed_distance is set (FCL leaves that value "implementation
//    defined"); GJK pairs give FCL's libccd answer: -depth by EPA with
//    enable_signed_distance, -1 without. Mesh pairs give what FCL's
//    mesh-shape distance gives: the smallest triangle distance by libccd's
//    GJK, and -1 as soon as a triangle intersects the superovoid, with or
//    without enable_signed_distance (no penetration depth; a superovoid
//    wholly inside a closed mesh gets its positive distance to the surface).
//  - nearest_points: world frame, on o1 then o2, filled whether or not
//    enable_nearest_points is set (as FCL does for shapes); for exact pairs
//    they are the witness points, nearest_points[1] - nearest_points[0] =
//    d n with n the unit normal from o1 to o2. Mesh pairs: b1 / b2 the
//    nearest triangle's index on the mesh's side, NONE on the other.
// Throws sov::Error in the cases listed in collision.h.
#ifndef SUPEROVOID_FCL_DISTANCE_H
#define SUPEROVOID_FCL_DISTANCE_H

#include <fcl/narrowphase/collision_object.h>
#include <fcl/narrowphase/distance_request.h>
#include <fcl/narrowphase/distance_result.h>

#include "superovoid/fcl/export.h"

namespace sov {

// Distance between geometries o1 (pose tf1) and o2 (pose tf2), stored in
// result (updated only if smaller, as in FCL); returns result.min_distance.
SOV_FCL_API double distance(const fcl::CollisionGeometry<double>* o1,
                            const fcl::Transform3<double>& tf1,
                            const fcl::CollisionGeometry<double>* o2,
                            const fcl::Transform3<double>& tf2,
                            const fcl::DistanceRequest<double>& request,
                            fcl::DistanceResult<double>& result);

// Distance between two collision objects (geometry and pose of each).
SOV_FCL_API double distance(const fcl::CollisionObject<double>* o1,
                            const fcl::CollisionObject<double>* o2,
                            const fcl::DistanceRequest<double>& request,
                            fcl::DistanceResult<double>& result);

}  // namespace sov

#endif  // SUPEROVOID_FCL_DISTANCE_H
