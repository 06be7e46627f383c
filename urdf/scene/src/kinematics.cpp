// Forward kinematics of a urdfdom model: fixed, revolute, continuous and
// prismatic joints, and mimic joints following them.
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../../src/number.h"
#include "joint_default.h"
#include "superovoid/urdf/scene.h"

namespace sov {
namespace urdf {

SceneError::SceneError(int status, const std::string& name, const std::string& message)
    : Error(status, Location{}, message), name_(name) {}

SceneError::SceneError(int status, const std::string& name, const Location& where,
                       const std::string& message)
    : Error(status, where, message), name_(name) {}

namespace {

using detail::formatShortest;

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

// Throws unless q is a valid position of the movable joint; role follows the
// joint's name in messages (" (mimics 'x')" for a derived position).
void checkPosition(const ::urdf::Joint& joint, double q, const std::string& role = "") {
  if (!std::isfinite(q)) {
    std::ostringstream s;
    s << quoted(joint) << role << ": position " << q << " is not finite";
    throw SceneError(SOV_SCENE_ERR_JOINT, joint.name, s.str());
  }
  const bool limited =
      joint.type == ::urdf::Joint::REVOLUTE || joint.type == ::urdf::Joint::PRISMATIC;
  if (limited && joint.limits && !(joint.limits->lower <= joint.limits->upper)) {
    std::ostringstream s;
    s << quoted(joint) << ": its limits are inverted (lower " << formatShortest(joint.limits->lower)
      << " > upper " << formatShortest(joint.limits->upper) << ")";
    throw SceneError(SOV_SCENE_ERR_JOINT, joint.name, s.str());
  }
  if (limited && joint.limits && (q < joint.limits->lower || q > joint.limits->upper)) {
    std::ostringstream s;
    s << quoted(joint) << role << ": position " << formatShortest(q) << " is outside its limits ["
      << formatShortest(joint.limits->lower) << ", " << formatShortest(joint.limits->upper) << "]";
    throw SceneError(SOV_SCENE_ERR_JOINT, joint.name, s.str());
  }
}

// Positions of the movable joints: given, default, or derived from the
// joint a mimic joint follows (multiplier * q(master) + offset, through
// chains of mimic joints), each checked against its limits.
class Positions {
 public:
  Positions(const ::urdf::ModelInterface& model, const JointPositions& q) : model_(model), q_(q) {}

  // The position of joint; throws for unknown masters and mimic cycles.
  double of(const ::urdf::Joint& joint) {
    auto known = done_.find(joint.name);
    if (known != done_.end()) return known->second;
    double value = 0;
    if (!joint.mimic) {
      auto given = q_.find(joint.name);
      value = given == q_.end() ? detail::defaultJointPosition(joint) : given->second;
      checkPosition(joint, value);
    } else {
      const ::urdf::Joint& master = masterOf(joint);
      chain_.push_back(joint.name);
      const double q_master = of(master);
      chain_.pop_back();
      value = joint.mimic->multiplier * q_master + joint.mimic->offset;
      checkPosition(joint, value, " (mimics '" + master.name + "')");
    }
    done_[joint.name] = value;
    return value;
  }

 private:
  // The movable joint that joint mimics; throws when it is unknown or fixed,
  // or when following it closes a cycle.
  const ::urdf::Joint& masterOf(const ::urdf::Joint& joint) const {
    const std::string& name = joint.mimic->joint_name;
    auto it = model_.joints_.find(name);
    if (it == model_.joints_.end() || !it->second) {
      throw SceneError(SOV_SCENE_ERR_JOINT, joint.name,
                       quoted(joint) + " mimics '" + name + "', which is not a joint of the model");
    }
    if (it->second->type == ::urdf::Joint::FIXED) {
      throw SceneError(SOV_SCENE_ERR_JOINT, joint.name,
                       quoted(joint) + " mimics '" + name + "', which is fixed");
    }
    if (std::find(chain_.begin(), chain_.end(), name) != chain_.end() || name == joint.name) {
      std::string cycle;
      for (const std::string& j : chain_) cycle += "'" + j + "' -> ";
      throw SceneError(SOV_SCENE_ERR_JOINT, joint.name,
                       quoted(joint) + ": mimic joints form a cycle: " + cycle + "'" + joint.name +
                           "' -> '" + name + "'");
    }
    return *it->second;
  }

  const ::urdf::ModelInterface& model_;
  const JointPositions& q_;
  std::map<std::string, double> done_;
  std::vector<std::string> chain_;  // mimic joints being resolved, outermost first
};

// The motion of a joint at position q (identity for a fixed joint); throws
// for unsupported joints.
Eigen::Isometry3d jointMotion(const ::urdf::Joint& joint, double q) {
  Eigen::Isometry3d m = Eigen::Isometry3d::Identity();
  if (joint.type == ::urdf::Joint::FIXED) return m;
  if (joint.type != ::urdf::Joint::REVOLUTE && joint.type != ::urdf::Joint::CONTINUOUS &&
      joint.type != ::urdf::Joint::PRISMATIC) {
    throw SceneError(SOV_SCENE_ERR_JOINT, joint.name,
                     quoted(joint) +
                         ": only fixed, revolute, continuous and prismatic "
                         "joints are supported");
  }
  Eigen::Vector3d axis(joint.axis.x, joint.axis.y, joint.axis.z);
  // A tiny axis (1e-200 0 0) has a squared norm of 0: scaled first.
  if (!(axis.norm() > 0) && axis.stableNorm() > 0) axis /= axis.cwiseAbs().maxCoeff();
  if (!(axis.norm() > 0))
    throw SceneError(SOV_SCENE_ERR_JOINT, joint.name, quoted(joint) + ": zero axis");
  axis.normalize();
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
      throw SceneError(SOV_SCENE_ERR_JOINT, name,
                       "joint '" + name + "' is not a joint of the model");
    }
    if (it->second->type == ::urdf::Joint::FIXED) {
      throw SceneError(SOV_SCENE_ERR_JOINT, name,
                       "joint '" + name + "' is fixed: it takes no position");
    }
    if (it->second->mimic) {
      throw SceneError(SOV_SCENE_ERR_JOINT, name,
                       "joint '" + name + "' mimics '" + it->second->mimic->joint_name +
                           "': its position follows that joint and cannot be given");
    }
    (void)value;
  }
  Positions positions(model, q);
  LinkPoses poses;
  ::urdf::LinkConstSharedPtr root = model.getRoot();
  if (!root) throw SceneError(SOV_SCENE_ERR_LINK, "", "the model has no root link");
  poses[root->name] = Eigen::Isometry3d::Identity();
  // Filled by push_back: GCC 12 at -O3 warns falsely (-Wfree-nonheap-object)
  // about the initializer-list constructor here.
  std::vector<::urdf::LinkConstSharedPtr> stack;
  stack.push_back(root);
  while (!stack.empty()) {
    ::urdf::LinkConstSharedPtr link = stack.back();
    stack.pop_back();
    const Eigen::Isometry3d parent = poses.at(link->name);
    for (const auto& joint : link->child_joints) {
      const double position = joint->type == ::urdf::Joint::FIXED ? 0.0 : positions.of(*joint);
      poses[joint->child_link_name] =
          parent * toEigen(joint->parent_to_joint_origin_transform) * jointMotion(*joint, position);
    }
    for (const auto& child : link->child_links) stack.push_back(child);
  }
  return poses;
}

}  // namespace urdf
}  // namespace sov
