// The broadphase callbacks of CollisionEnvSuperovoid (internal): MoveIt's
// signatures and data (collision_detection::CollisionData, DistanceData).
#ifndef SUPEROVOID_MOVEIT_SRC_CALLBACKS_H
#define SUPEROVOID_MOVEIT_SRC_CALLBACKS_H

#include <fcl/narrowphase/collision_object.h>

namespace sov {
namespace moveit {
namespace detail {

// Collision of one broadphase pair into the CollisionData at data; returns
// true when the check is complete. Pairs without a superovoid go to
// collision_detection::collisionCallback.
bool collisionCallback(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data);

// Distance of one pair into the DistanceData at data; returns true when
// complete. Pairs without a superovoid go to
// collision_detection::distanceCallback.
bool distanceCallback(fcl::CollisionObjectd* o1, fcl::CollisionObjectd* o2, void* data,
                      double& min_dist);

}  // namespace detail
}  // namespace moveit
}  // namespace sov

#endif  // SUPEROVOID_MOVEIT_SRC_CALLBACKS_H
