// OMPL on a sov::urdf::Scene: the joint space of a planning group, a state
// validity checker (self collision with the scene's allowed pairs, the
// SRDF's among them, and collision with the environment), OMPL's discrete
// motion validator or the scene's certified motion check, and one planning
// run with its counts. Library superovoid::planning (needs OMPL 1.5).
//
//   sov::planning::PlanOptions o;  // RRTConnect, 10 s, discrete motions
//   sov::planning::PlanResult r = sov::planning::plan(scene, env, arm, start, goal, o);
//   // r.solved, r.path (configurations), r.length, r.counts.states, ...
#ifndef SUPEROVOID_PLANNING_OMPL_PLANNING_H
#define SUPEROVOID_PLANNING_OMPL_PLANNING_H

#include <ompl/base/MotionValidator.h>
#include <ompl/base/SpaceInformation.h>
#include <ompl/base/StateValidityChecker.h>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "superovoid/planning/arm.h"

namespace sov {
namespace planning {

// How the planner checks the motion between two states.
enum class MotionValidation {
  // OMPL's DiscreteMotionValidator: states every `resolution` of the
  // space's extent along the segment; may step over a thin obstacle.
  kDiscrete,
  // Scene::motionCollides: the whole segment, by conservative advancement;
  // certified where every pair's distance is (superovoids, primitives).
  kCertified,
};

// What one planning run's collision checks cost.
struct CheckCounts {
  std::size_t states = 0;         // state validity checks (the discrete
                                  // motion validator's states included)
  double state_seconds = 0;       // time spent in them
  std::size_t motions = 0;        // certified motion checks
  double motion_seconds = 0;      // time spent in them
  std::size_t motion_steps = 0;   // their distance queries
  std::size_t motion_failures = 0;  // checks that gave up (counted invalid)
  bool motions_certified = true;  // no motion check stepped on an unproved distance
};

// The joint space of arm (a box of its limits) with the scene's checks.
// scene and env must outlive it; the scene is not thread-safe, so neither
// is the space (OMPL's single-threaded planners are fine).
ompl::base::SpaceInformationPtr spaceOf(urdf::Scene& scene,
                                        const std::vector<fcl::CollisionObject<double>*>& env,
                                        const Arm& arm, MotionValidation motion,
                                        double resolution, CheckCounts* counts);

// A state's configuration, and a configuration as a state of si's space.
Config configOf(const ompl::base::State* state, std::size_t n);
void setState(ompl::base::State* state, const Config& q);

// Options of one planning run.
struct PlanOptions {
  // "RRTConnect", or an asymptotically optimal planner minimising path
  // length: "BITstar" or "RRTstar" (these run until time_limit).
  std::string planner = "RRTConnect";
  double time_limit = 10;  // seconds
  MotionValidation motion = MotionValidation::kDiscrete;
  // Discrete motions: OMPL's longest valid segment fraction of the space's
  // extent (its default 0.01: 0.13 rad on the Panda's arm).
  double resolution = 0.01;
  // Shortcut the path and drop its redundant vertices (a fixed number of
  // attempts, each new segment checked with the same motion validation).
  bool simplify = true;
};

// The outcome of one planning run.
struct PlanResult {
  bool solved = false;   // an exact solution was found
  double seconds = 0;    // in the planner's solve()
  double first_solution_seconds = std::numeric_limits<double>::quiet_NaN();
  double simplify_seconds = 0;
  // Joint-space length (radians, OMPL's PathGeometric::length) of path.
  double length = std::numeric_limits<double>::quiet_NaN();
  std::vector<Config> path;  // start to goal, simplified when asked
  CheckCounts counts;        // solve and simplification together
};

// The planner names PlanOptions::planner takes: RRTConnect, BITstar, RRTstar.
const std::vector<std::string>& plannerNames();

// Plans from start to goal for arm in scene (its SRDF applied by the caller)
// among env. Throws std::invalid_argument for an unknown planner name.
PlanResult plan(urdf::Scene& scene, const std::vector<fcl::CollisionObject<double>*>& env,
                const Arm& arm, const Config& start, const Config& goal,
                const PlanOptions& options);

}  // namespace planning
}  // namespace sov

#endif  // SUPEROVOID_PLANNING_OMPL_PLANNING_H
