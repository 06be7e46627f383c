// Planning group, limits and point speed bounds (arm.h).
#include "superovoid/planning/arm.h"

#include <superovoid/scene.h>
#include <urdf_model/model.h>

#include <algorithm>
#include <cmath>
#include <map>

namespace sov {
namespace planning {
namespace {

// The joint of model named name; throws SceneError if it is not a movable,
// non-mimic revolute or prismatic joint.
const ::urdf::Joint& groupJoint(const urdf::Model& model, const std::string& name) {
  const auto j = model.urdf->getJoint(name);
  if (!j) throw urdf::SceneError(SOV_SCENE_ERR_JOINT, name, "joint '" + name + "' not in the model");
  if ((j->type != ::urdf::Joint::REVOLUTE && j->type != ::urdf::Joint::PRISMATIC) || j->mimic ||
      !j->limits)
    throw urdf::SceneError(SOV_SCENE_ERR_JOINT, name,
                           "joint '" + name + "' is not a revolute or prismatic joint with limits");
  return *j;
}

// Largest distance from link's frame origin to a point of its collision
// geometry, from the geometries' local bounding spheres (0 without any).
std::map<std::string, double> geometryRadii(const urdf::Scene& scene) {
  std::map<std::string, double> radius;
  for (const auto& g : scene.geometries()) {
    const auto& geometry = *g.object->collisionGeometry();
    const Eigen::Isometry3d local =
        scene.linkPose(g.link).inverse() * Eigen::Isometry3d(g.object->getTransform().matrix());
    const double r = (local * geometry.aabb_center).norm() + geometry.aabb_radius;
    radius[g.link] = std::max(radius[g.link], r);
  }
  return radius;
}

// Largest sum of joint offsets (and prismatic travel) from link's frame
// origin down to a link of its subtree, plus that link's geometry radius.
double subtreeReach(const ::urdf::Link& link, const std::map<std::string, double>& radius) {
  double best = radius.count(link.name) ? radius.at(link.name) : 0.0;
  for (const auto& joint : link.child_joints) {
    const auto& t = joint->parent_to_joint_origin_transform.position;
    double offset = std::sqrt(t.x * t.x + t.y * t.y + t.z * t.z);
    if (joint->type == ::urdf::Joint::PRISMATIC && joint->limits)
      offset += std::max(std::fabs(joint->limits->lower), std::fabs(joint->limits->upper));
    const auto child = std::find_if(link.child_links.begin(), link.child_links.end(),
                                    [&](const auto& l) { return l->name == joint->child_link_name; });
    if (child != link.child_links.end())
      best = std::max(best, offset + subtreeReach(**child, radius));
  }
  return best;
}

}  // namespace

urdf::JointPositions Arm::positions(const Config& q) const {
  urdf::JointPositions out = fixed;
  for (std::size_t i = 0; i < joints.size() && i < q.size(); ++i) out[joints[i]] = q[i];
  return out;
}

Arm armOf(const urdf::Model& model, const std::vector<std::string>& joints,
          const urdf::JointPositions& fixed) {
  Arm arm;
  arm.fixed = fixed;
  for (const auto& name : joints) {
    const ::urdf::Joint& j = groupJoint(model, name);
    arm.joints.push_back(name);
    arm.lower.push_back(j.limits->lower);
    arm.upper.push_back(j.limits->upper);
    arm.prismatic.push_back(j.type == ::urdf::Joint::PRISMATIC);
  }
  return arm;
}

Arm pandaArm(const urdf::Model& model) {
  std::vector<std::string> joints;
  for (int i = 1; i <= 7; ++i) joints.push_back("fer_joint" + std::to_string(i));
  return armOf(model, joints, {{"fer_finger_joint1", 0.04}});
}

std::unique_ptr<urdf::Scene> pandaScene(const urdf::Model& model, const std::string& dir) {
  urdf::SceneOptions options;
  options.mesh_directory = dir;
  auto scene = std::make_unique<urdf::Scene>(model, options);
  scene->loadSrdf(dir + "/panda.srdf");
  return scene;
}

std::vector<double> reachBounds(const urdf::Model& model, const urdf::Scene& scene,
                                const Arm& arm) {
  const auto radius = geometryRadii(scene);
  std::vector<double> reach;
  for (const auto& name : arm.joints) {
    const auto child = model.urdf->getLink(groupJoint(model, name).child_link_name);
    reach.push_back(subtreeReach(*child, radius));
  }
  return reach;
}

double pointSpeedBound(const Arm& arm, const std::vector<double>& reach, const Config& q0,
                       const Config& q1) {
  double v = 0;
  for (std::size_t j = 0; j < arm.joints.size(); ++j) {
    const double dq = std::fabs(q1[j] - q0[j]);
    v += dq * (reach[j] + (arm.prismatic[j] ? 1.0 : 0.0));
  }
  return v;
}

}  // namespace planning
}  // namespace sov
