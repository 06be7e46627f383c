// A MoveIt 1 (noetic) collision environment that checks a robot's superovoid
// links as superovoids, and its allocator. Library superovoid::moveit, built
// when moveit_core is found (moveit/build_moveit_core.sh builds it from source).
//
// CollisionEnvSuperovoid is MoveIt's CollisionEnvFCL with the fallback box of
// every <sov:superovoid> collision replaced by a sov::Superovoid, and with
// collision and distance callbacks that send every pair holding a superovoid
// to sov::collide / sov::distance (superovoid/fcl/collision.h, distance.h).
// Pairs without one (mesh and primitive links, world objects among
// themselves) go to MoveIt's own callbacks unchanged; world objects, octomaps
// and attached bodies are built by CollisionEnvFCL as before.
//
//   std::string urdf = ...;  // the robot_description text, with its superovoids
//   auto scene = std::make_shared<planning_scene::PlanningScene>(robot_model);
//   scene->setActiveCollisionDetector(sov::moveit::SuperovoidAllocator::create(urdf), true);
//   scene->checkCollision(req, res, state);  // getActiveCollisionDetectorName() == "Superovoid"
#ifndef SUPEROVOID_MOVEIT_COLLISION_ENV_SUPEROVOID_H
#define SUPEROVOID_MOVEIT_COLLISION_ENV_SUPEROVOID_H

#include <moveit/collision_detection/collision_detector_allocator.h>
#include <moveit/collision_detection_fcl/collision_env_fcl.h>

#include <memory>
#include <string>
#include <vector>

#include "superovoid/moveit/export.h"
#include "superovoid/urdf/model.h"

namespace sov {
namespace moveit {

// The collision environment. Its const queries may run from several threads
// at once, as MoveIt's: they keep no warm-start caches (every pair is solved
// cold) and the FCL layer's queries are safe from many threads.
class SOV_MOVEIT_API CollisionEnvSuperovoid : public collision_detection::CollisionEnvFCL {
 public:
  // The three constructors MoveIt's allocators use, each with the parsed URDF
  // (sov::urdf::parse of the robot_description text). Throws sov::urdf::Error
  // (SOV_URDF_ERR_MODEL) when a superovoid of table names a link the robot
  // model lacks, or when the model's shapes of that link do not match the
  // document (not one shape per <collision>, or not a box where the
  // superovoid's fallback is): the text and the model then disagree.
  CollisionEnvSuperovoid(const ::moveit::core::RobotModelConstPtr& model,
                         std::shared_ptr<const urdf::Model> table, double padding = 0.0,
                         double scale = 1.0);
  CollisionEnvSuperovoid(const ::moveit::core::RobotModelConstPtr& model,
                         const collision_detection::WorldPtr& world,
                         std::shared_ptr<const urdf::Model> table, double padding = 0.0,
                         double scale = 1.0);
  CollisionEnvSuperovoid(const CollisionEnvSuperovoid& other,
                         const collision_detection::WorldPtr& world);

  void checkSelfCollision(const collision_detection::CollisionRequest& req,
                          collision_detection::CollisionResult& res,
                          const ::moveit::core::RobotState& state) const override;
  void checkSelfCollision(const collision_detection::CollisionRequest& req,
                          collision_detection::CollisionResult& res,
                          const ::moveit::core::RobotState& state,
                          const collision_detection::AllowedCollisionMatrix& acm) const override;
  void checkRobotCollision(const collision_detection::CollisionRequest& req,
                           collision_detection::CollisionResult& res,
                           const ::moveit::core::RobotState& state) const override;
  void checkRobotCollision(const collision_detection::CollisionRequest& req,
                           collision_detection::CollisionResult& res,
                           const ::moveit::core::RobotState& state,
                           const collision_detection::AllowedCollisionMatrix& acm) const override;
  // Continuous checks: as CollisionEnvFCL (not implemented there: it logs an
  // error and reports nothing), inherited unchanged.
  using CollisionEnvFCL::checkRobotCollision;

  // Signed distances: superovoid pairs give -depth when overlapping whether
  // or not req.enable_signed_distance is set (see superovoid/fcl/distance.h).
  void distanceSelf(const collision_detection::DistanceRequest& req,
                    collision_detection::DistanceResult& res,
                    const ::moveit::core::RobotState& state) const override;
  void distanceRobot(const collision_detection::DistanceRequest& req,
                     collision_detection::DistanceResult& res,
                     const ::moveit::core::RobotState& state) const override;

  // Number of robot collision geometries answered as superovoids.
  std::size_t superovoidCount() const noexcept { return swapped_; }

 protected:
  // CollisionEnvFCL rebuilds the geometry of links whose padding or scale
  // changed from their shapes (the boxes); the superovoids are put back.
  void updatedPaddingOrScaling(const std::vector<std::string>& links) override;

 private:
  // Replaces the fallback box of each superovoid of links (all when empty)
  // in robot_geoms_ and robot_fcl_objs_.
  void swapSuperovoids(const std::vector<std::string>& links);
  // The shared body of the collision checks (acm may be null).
  void collide(const collision_detection::CollisionRequest& req,
               collision_detection::CollisionResult& res, const ::moveit::core::RobotState& state,
               const collision_detection::AllowedCollisionMatrix* acm, bool self) const;

  std::shared_ptr<const urdf::Model> table_;
  std::size_t swapped_ = 0;
};

// The allocator: MoveIt makes every environment of a planning scene through
// it. getName() is "Superovoid".
class SOV_MOVEIT_API SuperovoidAllocator : public collision_detection::CollisionDetectorAllocator {
 public:
  // Parses urdf_xml (the robot_description text) once; throws
  // sov::urdf::Error as sov::urdf::parse does.
  explicit SuperovoidAllocator(const std::string& urdf_xml);
  // A shared allocator for PlanningScene::setActiveCollisionDetector.
  static collision_detection::CollisionDetectorAllocatorPtr create(const std::string& urdf_xml);

  const std::string& getName() const override;
  collision_detection::CollisionEnvPtr allocateEnv(
      const collision_detection::WorldPtr& world,
      const ::moveit::core::RobotModelConstPtr& robot_model) const override;
  collision_detection::CollisionEnvPtr allocateEnv(
      const collision_detection::CollisionEnvConstPtr& orig,
      const collision_detection::WorldPtr& world) const override;
  collision_detection::CollisionEnvPtr allocateEnv(
      const ::moveit::core::RobotModelConstPtr& robot_model) const override;

  // The parsed document.
  const std::shared_ptr<const urdf::Model>& table() const noexcept { return table_; }

 private:
  std::shared_ptr<const urdf::Model> table_;
};

}  // namespace moveit
}  // namespace sov

#endif  // SUPEROVOID_MOVEIT_COLLISION_ENV_SUPEROVOID_H
