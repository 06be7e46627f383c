// CollisionEnvSuperovoid and SuperovoidAllocator
// (superovoid/moveit/collision_env_superovoid.h).
#include "superovoid/moveit/collision_env_superovoid.h"

#include <geometric_shapes/shapes.h>
#include <moveit/collision_detection_fcl/collision_common.h>
#include <ros/console.h>

#include <algorithm>
#include <array>

#include "callbacks.h"
#include "superovoid/fcl/superovoid.h"
#include "superovoid/urdf.h"

namespace sov {
namespace moveit {

namespace cd = collision_detection;

namespace {

// Number of <collision> elements urdfdom kept for the link (MoveIt reads the
// array, or the single collision when the array is empty).
std::size_t urdfCollisionCount(const urdf::Model& table, const std::string& link) {
  const auto l = table.urdf->getLink(link);
  if (!l) return 0;
  return l->collision_array.empty() ? (l->collision ? 1 : 0) : l->collision_array.size();
}

// The error for a superovoid that the robot model does not match.
urdf::Error mismatch(const urdf::Model& table, const urdf::Superovoid& s, const std::string& what) {
  return urdf::Error(SOV_URDF_ERR_MODEL, urdf::Location{table.source, s.line, s.link, ""},
                     "the robot model does not match the URDF text: " + what);
}

}  // namespace

CollisionEnvSuperovoid::CollisionEnvSuperovoid(const ::moveit::core::RobotModelConstPtr& model,
                                               std::shared_ptr<const urdf::Model> table,
                                               double padding, double scale)
    : CollisionEnvFCL(model, padding, scale), table_(std::move(table)) {
  swapSuperovoids({});
}

CollisionEnvSuperovoid::CollisionEnvSuperovoid(const ::moveit::core::RobotModelConstPtr& model,
                                               const cd::WorldPtr& world,
                                               std::shared_ptr<const urdf::Model> table,
                                               double padding, double scale)
    : CollisionEnvFCL(model, world, padding, scale), table_(std::move(table)) {
  swapSuperovoids({});
}

// The base copies robot_geoms_ and robot_fcl_objs_, superovoids included.
CollisionEnvSuperovoid::CollisionEnvSuperovoid(const CollisionEnvSuperovoid& other,
                                               const cd::WorldPtr& world)
    : CollisionEnvFCL(other, world), table_(other.table_), swapped_(other.swapped_) {}

void CollisionEnvSuperovoid::swapSuperovoids(const std::vector<std::string>& links) {
  std::size_t swapped = 0;
  for (const urdf::Superovoid& s : table_->superovoids) {
    if (!links.empty() && std::find(links.begin(), links.end(), s.link) == links.end()) continue;
    if (!robot_model_->hasLinkModel(s.link)) throw mismatch(*table_, s, "no link '" + s.link + "'");
    const ::moveit::core::LinkModel* link = robot_model_->getLinkModel(s.link);
    const auto& shapes = link->getShapes();
    if (shapes.size() != urdfCollisionCount(*table_, s.link) || s.index >= shapes.size() ||
        shapes[s.index]->type != shapes::BOX)
      throw mismatch(*table_, s, "link '" + s.link + "' has no fallback box at collision " +
                                     std::to_string(s.index));
    // Uniform scale keeps a superovoid one (the tapers are relative to a3);
    // padding would not, so superovoid links are not padded.
    if (getLinkPadding(s.link) != 0.0)
      ROS_WARN_STREAM_ONCE_NAMED("superovoid.moveit", "padding of superovoid link '"
                                                          << s.link << "' ignored");
    std::array<double, 7> p = s.params;
    const double scale = getLinkScale(s.link);
    for (int i = 0; i < 3; ++i) p[i] *= scale;
    // FCLGeometry takes ownership of the shape and points it at its link data.
    auto geometry = std::make_shared<const cd::FCLGeometry>(new sov::Superovoid(p), link,
                                                            static_cast<int>(s.index));
    const std::size_t index = link->getFirstCollisionBodyTransformIndex() + s.index;
    robot_geoms_[index] = geometry;
    robot_fcl_objs_[index] =
        std::make_shared<const fcl::CollisionObjectd>(geometry->collision_geometry_);
    ++swapped;
  }
  if (links.empty()) swapped_ = swapped;
}

void CollisionEnvSuperovoid::updatedPaddingOrScaling(const std::vector<std::string>& links) {
  CollisionEnvFCL::updatedPaddingOrScaling(links);
  swapSuperovoids(links);
}

void CollisionEnvSuperovoid::collide(const cd::CollisionRequest& req, cd::CollisionResult& res,
                                     const ::moveit::core::RobotState& state,
                                     const cd::AllowedCollisionMatrix* acm, bool self) const {
  cd::CollisionData data(&req, &res, acm);
  data.enableGroup(getRobotModel());
  if (self) {
    cd::FCLManager manager;
    allocSelfCollisionBroadPhase(state, manager);
    manager.manager_->collide(&data, &detail::collisionCallback);
  } else {
    cd::FCLObject robot;
    constructFCLObjectRobot(state, robot);
    for (std::size_t i = 0; !data.done_ && i < robot.collision_objects_.size(); ++i)
      manager_->collide(robot.collision_objects_[i].get(), &data, &detail::collisionCallback);
  }
  if (!req.distance) return;
  cd::DistanceRequest dreq;
  cd::DistanceResult dres;
  dreq.group_name = req.group_name;
  dreq.acm = acm;
  dreq.enableGroup(getRobotModel());
  if (self)
    distanceSelf(dreq, dres, state);
  else
    distanceRobot(dreq, dres, state);
  res.distance = dres.minimum_distance.distance;
  if (req.detailed_distance) res.distance_result = dres;
}

void CollisionEnvSuperovoid::checkSelfCollision(const cd::CollisionRequest& req,
                                                cd::CollisionResult& res,
                                                const ::moveit::core::RobotState& state) const {
  collide(req, res, state, nullptr, true);
}

void CollisionEnvSuperovoid::checkSelfCollision(const cd::CollisionRequest& req,
                                                cd::CollisionResult& res,
                                                const ::moveit::core::RobotState& state,
                                                const cd::AllowedCollisionMatrix& acm) const {
  collide(req, res, state, &acm, true);
}

void CollisionEnvSuperovoid::checkRobotCollision(const cd::CollisionRequest& req,
                                                 cd::CollisionResult& res,
                                                 const ::moveit::core::RobotState& state) const {
  collide(req, res, state, nullptr, false);
}

void CollisionEnvSuperovoid::checkRobotCollision(const cd::CollisionRequest& req,
                                                 cd::CollisionResult& res,
                                                 const ::moveit::core::RobotState& state,
                                                 const cd::AllowedCollisionMatrix& acm) const {
  collide(req, res, state, &acm, false);
}

void CollisionEnvSuperovoid::distanceSelf(const cd::DistanceRequest& req, cd::DistanceResult& res,
                                          const ::moveit::core::RobotState& state) const {
  cd::FCLManager manager;
  allocSelfCollisionBroadPhase(state, manager);
  cd::DistanceData data(&req, &res);
  manager.manager_->distance(&data, &detail::distanceCallback);
}

void CollisionEnvSuperovoid::distanceRobot(const cd::DistanceRequest& req, cd::DistanceResult& res,
                                           const ::moveit::core::RobotState& state) const {
  cd::FCLObject robot;
  constructFCLObjectRobot(state, robot);
  cd::DistanceData data(&req, &res);
  for (std::size_t i = 0; !data.done && i < robot.collision_objects_.size(); ++i)
    manager_->distance(robot.collision_objects_[i].get(), &data, &detail::distanceCallback);
}

SuperovoidAllocator::SuperovoidAllocator(const std::string& urdf_xml)
    : table_(std::make_shared<const urdf::Model>(urdf::parse(urdf_xml, "robot_description"))) {}

cd::CollisionDetectorAllocatorPtr SuperovoidAllocator::create(const std::string& urdf_xml) {
  return std::make_shared<SuperovoidAllocator>(urdf_xml);
}

const std::string& SuperovoidAllocator::getName() const {
  static const std::string name = "Superovoid";
  return name;
}

cd::CollisionEnvPtr SuperovoidAllocator::allocateEnv(
    const cd::WorldPtr& world, const ::moveit::core::RobotModelConstPtr& robot_model) const {
  return std::make_shared<CollisionEnvSuperovoid>(robot_model, world, table_);
}

cd::CollisionEnvPtr SuperovoidAllocator::allocateEnv(const cd::CollisionEnvConstPtr& orig,
                                                     const cd::WorldPtr& world) const {
  return std::make_shared<CollisionEnvSuperovoid>(
      dynamic_cast<const CollisionEnvSuperovoid&>(*orig), world);
}

cd::CollisionEnvPtr SuperovoidAllocator::allocateEnv(
    const ::moveit::core::RobotModelConstPtr& robot_model) const {
  return std::make_shared<CollisionEnvSuperovoid>(robot_model, table_);
}

}  // namespace moveit
}  // namespace sov
