// The joints a planner moves (a planning group, as an SRDF's <group>), their
// limits from the URDF, the other joints held fixed, and a bound on how fast
// any point of the robot's collision geometry moves when they turn; and the
// Panda's scene as the demo, its tests and benchmarks build it.
// Library superovoid::planning.
#ifndef SUPEROVOID_PLANNING_ARM_H
#define SUPEROVOID_PLANNING_ARM_H

#include <superovoid/urdf/model.h>
#include <superovoid/urdf/scene.h>

#include <memory>
#include <string>
#include <vector>

namespace sov {
namespace planning {

// A configuration of the group: one position per joint, in Arm::joints' order.
using Config = std::vector<double>;

// A planning group of revolute or prismatic joints.
struct Arm {
  std::vector<std::string> joints;
  std::vector<double> lower, upper;  // the URDF's limits
  std::vector<bool> prismatic;       // else revolute
  urdf::JointPositions fixed;        // the other joints, held here while planning

  // The scene's joint positions of q (the fixed joints included).
  urdf::JointPositions positions(const Config& q) const;
};

// The group of the named joints of model, limits read from it, with the
// joints in fixed held there. Throws urdf::SceneError (SOV_SCENE_ERR_JOINT)
// for a joint that is not revolute or prismatic, or a mimic joint.
Arm armOf(const urdf::Model& model, const std::vector<std::string>& joints,
          const urdf::JointPositions& fixed = {});

// The Panda's seven arm joints (fer_joint1 .. fer_joint7), the fingers held
// open (fer_finger_joint1 = 0.04, its mimic follows).
Arm pandaArm(const urdf::Model& model);

// The scene of a model of the Panda (meshes resolved in dir) with
// dir/panda.srdf applied: the adjacent and never-colliding pairs skipped.
std::unique_ptr<urdf::Scene> pandaScene(const urdf::Model& model, const std::string& dir);

// reach[j]: an upper bound, valid at every configuration, on the distance
// from joint j's axis to any point of the collision geometry of the links it
// moves: the largest sum, down the tree to a link, of the joints' origin
// offsets (plus the travel of prismatic joints) and the link's geometry
// radius about its frame origin (from the scene's local bounding boxes).
// So along q(t) = q0 + t (q1 - q0) no point moves, per unit of t, faster
// than the sum over j of |q1_j - q0_j| reach[j] (plus |q1_j - q0_j| for a
// prismatic joint).
std::vector<double> reachBounds(const urdf::Model& model, const urdf::Scene& scene,
                                const Arm& arm);

// The bound above on the speed of any point along the segment q0 -> q1.
double pointSpeedBound(const Arm& arm, const std::vector<double>& reach, const Config& q0,
                       const Config& q1);

}  // namespace planning
}  // namespace sov

#endif  // SUPEROVOID_PLANNING_ARM_H
