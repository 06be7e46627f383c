// The "Superovoid" collision detector plugin (pluginlib, base class
// collision_detection::CollisionPlugin), for move_group's collision_detector
// parameter. MoveIt 1 gives initialize() no URDF text, so it reads it here.
#include <moveit/collision_detection/collision_plugin.h>
#include <pluginlib/class_list_macros.hpp>
#include <ros/ros.h>

#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

#include "superovoid/moveit/collision_env_superovoid.h"

namespace sov {
namespace moveit {

namespace {

// The robot_description text: the ROS parameter when roscpp is initialised
// (move_group), else the file named by SOV_ROBOT_DESCRIPTION_FILE; "" if
// neither is there.
std::string robotDescription() {
  std::string xml;
  if (ros::isInitialized() && ros::param::get("robot_description", xml)) return xml;
  const char* path = std::getenv("SOV_ROBOT_DESCRIPTION_FILE");
  if (!path) return "";
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

// Makes the scene's active collision detector a SuperovoidAllocator.
class SuperovoidCollisionPlugin : public collision_detection::CollisionPlugin {
 public:
  // Returns false, with the reason logged, when there is no URDF text or it
  // is refused; the scene's detector is then unchanged.
  bool initialize(const planning_scene::PlanningScenePtr& scene, bool exclusive) const override {
    const std::string xml = robotDescription();
    if (xml.empty()) {
      ROS_ERROR_NAMED("superovoid.moveit",
                      "no robot_description parameter and no SOV_ROBOT_DESCRIPTION_FILE");
      return false;
    }
    try {
      scene->setActiveCollisionDetector(SuperovoidAllocator::create(xml), exclusive);
    } catch (const std::exception& e) {
      ROS_ERROR_STREAM_NAMED("superovoid.moveit", "Superovoid collision detector: " << e.what());
      return false;
    }
    return true;
  }
};

}  // namespace moveit
}  // namespace sov

PLUGINLIB_EXPORT_CLASS(sov::moveit::SuperovoidCollisionPlugin, collision_detection::CollisionPlugin)
