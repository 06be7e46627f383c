// The FCL layer of superovoid in one include: sov::Superovoid, sov::collide,
// sov::distance, sov::continuousCollide, the broadphase callbacks,
// sov::Error, and the octree-seeded scheme sov::octreeSeededDistance. Link
// with superovoid::fcl.
#ifndef SUPEROVOID_FCL_H
#define SUPEROVOID_FCL_H

#include "superovoid/fcl/broadphase.h"
#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/continuous_collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/error.h"
#include "superovoid/fcl/octree_seed.h"
#include "superovoid/fcl/superovoid.h"

#endif  // SUPEROVOID_FCL_H
