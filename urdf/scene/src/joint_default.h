// Where a movable joint sits when no position is given: shared by forward
// kinematics and the Scene's starting configuration (internal header).
#ifndef SUPEROVOID_URDF_SCENE_JOINT_DEFAULT_H
#define SUPEROVOID_URDF_SCENE_JOINT_DEFAULT_H

#include <algorithm>

#include <urdf_model/joint.h>

namespace sov {
namespace urdf {
namespace detail {

// 0, or the nearest limit when 0 is outside the limits of a revolute or
// prismatic joint (0 for inverted limits, which the position check refuses).
inline double defaultJointPosition(const ::urdf::Joint& joint) {
  const bool limited = joint.type == ::urdf::Joint::REVOLUTE ||
                       joint.type == ::urdf::Joint::PRISMATIC;
  if (!limited || !joint.limits || !(joint.limits->lower <= joint.limits->upper)) return 0.0;
  return std::clamp(0.0, joint.limits->lower, joint.limits->upper);
}

}  // namespace detail
}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SCENE_JOINT_DEFAULT_H
