// Broadphase callbacks over sov::collide / sov::distance.
#include "superovoid/fcl/broadphase.h"

#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"

namespace sov {

bool DefaultCollisionFunction(fcl::CollisionObject<double>* o1,
                              fcl::CollisionObject<double>* o2, void* data) {
  auto& d = *static_cast<DefaultCollisionData*>(data);
  if (d.done) return true;
  collide(o1, o2, d.request, d.result);
  const bool full = d.result.isCollision() &&
                    d.result.numContacts() >= d.request.num_max_contacts;
  if (!d.request.enable_cost && full) d.done = true;
  return d.done;
}

bool DefaultDistanceFunction(fcl::CollisionObject<double>* o1,
                             fcl::CollisionObject<double>* o2, void* data, double& dist) {
  auto& d = *static_cast<DefaultDistanceData*>(data);
  if (!d.done) distance(o1, o2, d.request, d.result);
  dist = d.result.min_distance;
  return d.done || dist <= 0;
}

}  // namespace sov
