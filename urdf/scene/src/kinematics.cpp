// Forward kinematics of a urdfdom model: fixed, revolute, continuous and
// prismatic joints.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <vector>

#include "superovoid/urdf/scene.h"
#include "joint_default.h"

namespace sov {
namespace urdf {

SceneError::SceneError(const std::string& name, const std::string& message)
    : std::runtime_error(message), name_(name) {}

namespace {

// Eigen pose of a urdfdom pose (its quaternion is x y z w).
Eigen::Isometry3d toEigen(const ::urdf::Pose& p) {
  Eigen::Quaterniond q(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z);
  Eigen::Isometry3d t = Eigen::Isometry3d::Identity();
  t.linear() = q.normalized().toRotationMatrix();
  t.translation() = Eigen::Vector3d(p.position.x, p.position.y, p.position.z);
  return t;
}

// "joint 'name'" for messages.
std::string quoted(const ::urdf::Joint& joint) { return "joint '" + joint.name + "'"; }

// Throws unless q is a valid position of the movable joint.
void checkPosition(const ::urdf::Joint& joint, double q) {
  if (!std::isfinite(q)) {
    std::ostringstream s;
    s << quoted(joint) << ": position " << q << " is not finite";
    throw SceneError(joint.name, s.str());
  }
  const bool limited = joint.type == ::urdf::Joint::REVOLUTE ||
                       joint.type == ::urdf::Joint::PRISMATIC;
  if (limited && joint.limits && (q < joint.limits->lower || q > joint.limits->upper)) {
    std::ostringstream s;
    s.precision(17);
    s << quoted(joint) << ": position " << q << " is outside its limits ["
      << joint.limits->lower << ", " << joint.limits->upper << "]";
    throw SceneError(joint.name, s.str());
  }
}

// The motion of a joint at position q (identity for a fixed joint); throws
// for unsupported joints.
Eigen::Isometry3d jointMotion(const ::urdf::Joint& joint, double q) {
  if (joint.mimic) {
    throw SceneError(joint.name, quoted(joint) + ": mimic joints are not supported yet");
  }
  Eigen::Isometry3d m = Eigen::Isometry3d::Identity();
  if (joint.type == ::urdf::Joint::FIXED) return m;
  if (joint.type != ::urdf::Joint::REVOLUTE && joint.type != ::urdf::Joint::CONTINUOUS &&
      joint.type != ::urdf::Joint::PRISMATIC) {
    throw SceneError(joint.name, quoted(joint) +
                                     ": only fixed, revolute, continuous and prismatic "
                                     "joints are supported");
  }
  Eigen::Vector3d axis(joint.axis.x, joint.axis.y, joint.axis.z);
  if (!(axis.norm() > 0)) throw SceneError(joint.name, quoted(joint) + ": zero axis");
  axis.normalize();
  checkPosition(joint, q);
  if (joint.type == ::urdf::Joint::PRISMATIC) {
    m.translation() = q * axis;
  } else {
    m.linear() = Eigen::AngleAxisd(q, axis).toRotationMatrix();
  }
  return m;
}

}  // namespace

LinkPoses forwardKinematics(const ::urdf::ModelInterface& model, const JointPositions& q) {
  for (const auto& [name, value] : q) {
    auto it = model.joints_.find(name);
    if (it == model.joints_.end() || !it->second) {
      throw SceneError(name, "joint '" + name + "' is not a joint of the model");
    }
    if (it->second->type == ::urdf::Joint::FIXED) {
      throw SceneError(name, "joint '" + name + "' is fixed: it takes no position");
    }
    (void)value;
  }
  LinkPoses poses;
  ::urdf::LinkConstSharedPtr root = model.getRoot();
  if (!root) throw SceneError("", "the model has no root link");
  poses[root->name] = Eigen::Isometry3d::Identity();
  std::vector<::urdf::LinkConstSharedPtr> stack{root};
  while (!stack.empty()) {
    ::urdf::LinkConstSharedPtr link = stack.back();
    stack.pop_back();
    const Eigen::Isometry3d parent = poses.at(link->name);
    for (const auto& joint : link->child_joints) {
      auto value = q.find(joint->name);
      const double position = value == q.end() ? detail::defaultJointPosition(*joint) : value->second;
      poses[joint->child_link_name] =
          parent * toEigen(joint->parent_to_joint_origin_transform) *
          jointMotion(*joint, position);
    }
    for (const auto& child : link->child_links) stack.push_back(child);
  }
  return poses;
}

}  // namespace urdf
}  // namespace sov
