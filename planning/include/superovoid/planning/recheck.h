// Re-checking a planned path on another model of the robot (the original
// meshes), independently of the planner's own checks: every segment is
// walked from start to end, each configuration tested for collision, each
// step as long as a lower bound of the clearance there proves free (the
// point speed bound of arm.h) and never longer than a fixed step of the
// fastest point where it does not. Library superovoid::planning.
#ifndef SUPEROVOID_PLANNING_RECHECK_H
#define SUPEROVOID_PLANNING_RECHECK_H

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "superovoid/planning/arm.h"

namespace sov {
namespace planning {

// Options of recheckPath.
struct RecheckOptions {
  // No point of the robot moves more than this (length units) between two
  // configurations checked where the clearance proves nothing.
  double max_step = 0.001;
};

// What recheckPath found.
struct Recheck {
  bool collides = false;  // a configuration of the path is in collision
  // Where first: the segment (from 0) and the fraction along it, and the
  // pair (link names; an environment object as "env:<index>").
  std::size_t segment = 0;
  double t = 0;
  std::string link1, link2;
  // The smallest clearance bound met (self and environment together; 0 on
  // contact): the distance to the covering objects, at most the true one.
  double min_clearance = std::numeric_limits<double>::infinity();
  std::size_t configurations = 0;  // configurations checked
  // Of the path's joint-space length, the share proved free by clearance
  // (the rest was sampled at max_step).
  double proved_fraction = 0;
};

// Walks every segment of path (configurations of arm) through scene (its
// SRDF applied by the caller) among env; stops at the first configuration
// in self collision or touching env (Scene's exact collision tests). reach
// is reachBounds() of this scene. covering: objects whose union contains
// every object of env (World::coveringEnv: boxes instead of the octree's
// leaves, whose distance FCL computes slowly), env itself when empty. On a
// segment where the speed bound v is positive, a configuration with
// clearance bound d (the smaller of the self distance and the distance to
// covering) proves the next d / (2 v) of it free (two links approach at
// most at 2 v; an obstacle at v); shorter steps are lengthened to
// max_step / v and only sampled.
Recheck recheckPath(urdf::Scene& scene, const std::vector<fcl::CollisionObject<double>*>& env,
                    const std::vector<fcl::CollisionObject<double>*>& covering,
                    const Arm& arm, const std::vector<double>& reach,
                    const std::vector<Config>& path, const RecheckOptions& options = {});

}  // namespace planning
}  // namespace sov

#endif  // SUPEROVOID_PLANNING_RECHECK_H
