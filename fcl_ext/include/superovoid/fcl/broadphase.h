// Broadphase callbacks: FCL's default collision and distance callbacks
// (fcl/broadphase/default_broadphase_callbacks.h) with sov::collide and
// sov::distance in place of fcl::collide and fcl::distance, so that every
// FCL broadphase manager (DynamicAABBTreeCollisionManager, SaP, interval
// tree, ...) works on scenes that mix superovoids, FCL primitives and meshes.
//
//   sov::DefaultCollisionData data;          // request: 1 contact, no cost
//   manager.collide(&data, sov::DefaultCollisionFunction);
//   bool hit = data.result.isCollision();
//
//   sov::DefaultDistanceData ddata;
//   manager.distance(&ddata, sov::DefaultDistanceFunction);
//   double d = ddata.result.min_distance;    // <= 0: some pair touches
//
// The managers only need each object's world AABB (CollisionObject::
// computeAABB, from the geometry's local AABB; exact for a superovoid,
// enclosing when rotated). sov::Error thrown by a pair (an unsupported pair,
// GST_INDEP, a bad pose) propagates out of the manager's collide / distance.
#ifndef SUPEROVOID_FCL_BROADPHASE_H
#define SUPEROVOID_FCL_BROADPHASE_H

#include <fcl/narrowphase/collision_object.h>
#include <fcl/narrowphase/collision_request.h>
#include <fcl/narrowphase/collision_result.h>
#include <fcl/narrowphase/distance_request.h>
#include <fcl/narrowphase/distance_result.h>

#include "superovoid/fcl/export.h"

namespace sov {

// What DefaultCollisionFunction reads and accumulates: one request for every
// pair, one result over all of them, and whether the query may stop.
struct DefaultCollisionData {
  fcl::CollisionRequest<double> request;
  fcl::CollisionResult<double> result;
  bool done = false;
};

// What DefaultDistanceFunction reads and accumulates: the smallest distance
// over the pairs visited, with its nearest points and objects.
struct DefaultDistanceData {
  fcl::DistanceRequest<double> request;
  fcl::DistanceResult<double> result;
  bool done = false;
};

// fcl::CollisionCallBack<double>: sov::collide(o1, o2) into data's result
// (data is a DefaultCollisionData*). Sets and returns done (stop) once the
// result holds request.num_max_contacts contacts and no cost is requested.
SOV_FCL_API bool DefaultCollisionFunction(fcl::CollisionObject<double>* o1,
                                          fcl::CollisionObject<double>* o2, void* data);

// fcl::DistanceCallBack<double>: sov::distance(o1, o2) into data's result
// (data is a DefaultDistanceData*); dist receives the smallest distance so
// far. Returns true (stop) once that distance is <= 0 or done is set.
SOV_FCL_API bool DefaultDistanceFunction(fcl::CollisionObject<double>* o1,
                                         fcl::CollisionObject<double>* o2, void* data,
                                         double& dist);

}  // namespace sov

#endif  // SUPEROVOID_FCL_BROADPHASE_H
