// Internal: superovoid vs triangle mesh (fcl::BVHModel with any of FCL's
// bounding volumes), through FCL's own BVHShapeCollider / BVHShapeDistancer
// templates and traversal nodes, run with detail::Solver (libccd's GJK / MPR
// per triangle, the superovoid reached through the GJKInitializer bridge).
// Instantiated in mesh.cpp only.
#ifndef SUPEROVOID_FCL_SRC_MESH_H
#define SUPEROVOID_FCL_SRC_MESH_H

#include <cstddef>

#include <fcl/geometry/collision_geometry.h>
#include <fcl/narrowphase/collision_request.h>
#include <fcl/narrowphase/collision_result.h>
#include <fcl/narrowphase/distance_request.h>
#include <fcl/narrowphase/distance_result.h>

#include "solver.h"

namespace sov {
namespace detail {

// True when g is a BVHModel (a mesh or a point cloud) of any BV type.
inline bool isMesh(const fcl::CollisionGeometry<double>* g) {
  return g->getObjectType() == fcl::OT_BVH;
}

// Collision of a superovoid with a mesh, either order (o1 or o2 is the
// superovoid, the other one the mesh), as FCL's BVHShapeCollider answers it
// for a mesh first: one contact per intersecting triangle, b1 / b2 the
// triangle's index on the mesh's side. Superovoid first, the answer is the
// mirror image (o1, o2 and b1, b2 swapped, normals reversed), so contacts
// always have the normal from o1 to o2. Throws sov::Error if the mesh is not
// a built triangle mesh. Returns the number of contacts in result.
std::size_t collideMesh(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                        const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                        const Solver& solver, const fcl::CollisionRequest<double>& request,
                        fcl::CollisionResult<double>& result);

// True for a mesh (any BV type) and an fcl::Sphere, either order.
bool isMeshSphere(const fcl::CollisionGeometry<double>* o1,
                  const fcl::CollisionGeometry<double>* o2);

// Collision of an fcl::Sphere with a mesh, either order, as collideMesh
// answers a superovoid: FCL's BVHShapeCollider run with detail::Solver,
// whose sphere-triangle test is the closed form of sphereTriangleIntersect
// (FCL 0.7's reports spheres far from a mesh as colliding). Contacts' depths
// are positive (FCL's own are the negative of the overlap).
std::size_t collideMeshSphere(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                              const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                              const Solver& solver, const fcl::CollisionRequest<double>& request,
                              fcl::CollisionResult<double>& result);

// Distance between a superovoid and a mesh, either order, as FCL's
// BVHShapeDistancer answers it (the smallest triangle distance by libccd's
// GJK; -1 once a triangle intersects the superovoid: no penetration depth).
// Nearest points and b1 / b2 follow the caller's order. RSS, kIOS and OBBRSS
// trees run FCL's BVHShapeDistancer; FCL 0.7 has none for AABB, OBB and k-DOP
// trees, which run FCL's traversal node on a world copy of the mesh, with
// bounding-sphere (OBB) and axis-box (k-DOP) lower bounds in place of FCL's
// BV distances that print "not implemented". Returns result.min_distance.
double distanceMesh(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                    const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                    const Solver& solver, const fcl::DistanceRequest<double>& request,
                    fcl::DistanceResult<double>& result);

// True when FCL's traversal for a (mesh, shape) distance pair keeps the mesh
// in its own frame: RSS, kIOS and OBBRSS trees (FCL 0.7 has mesh-shape
// distance for these only).
bool isOrientedMesh(const fcl::CollisionGeometry<double>* g);

// Distance between a mesh with an oriented tree (isOrientedMesh) and an
// fcl::Sphere, either order: FCL's BVHShapeDistancer run with detail::Solver,
// whose sphere-triangle distance is the closed form of
// sphereTriangleDistance (FCL 0.7's leaves the distance unset when they
// intersect, and its nearest points in local frames). -1 once a triangle
// intersects the sphere, as FCL answers meshes. Nearest points (world) and
// b1 / b2 follow the caller's order. Returns result.min_distance.
double distanceMeshSphere(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                          const fcl::CollisionGeometry<double>* o2, const Transform& tf2,
                          const Solver& solver, const fcl::DistanceRequest<double>& request,
                          fcl::DistanceResult<double>& result);

}  // namespace detail
}  // namespace sov

#endif  // SUPEROVOID_FCL_SRC_MESH_H
