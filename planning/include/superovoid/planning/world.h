// The planning example's workspace: a table in front of the Panda, a shelf
// with boxes on its boards on the robot's left (FCL boxes), and a cluttered
// corner of the table seen only as a point cloud (an OctoMap octree), with
// the regions where queries start and end. Library superovoid::planning.
//
//   sov::planning::World w = sov::planning::shelfWorld();
//   scene.collides(w.env());  // a sov::urdf::Scene against every obstacle
#ifndef SUPEROVOID_PLANNING_WORLD_H
#define SUPEROVOID_PLANNING_WORLD_H

#include <fcl/narrowphase/collision_object.h>

#include <Eigen/Geometry>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace octomap {
class OcTree;
}  // namespace octomap

namespace sov {
namespace planning {

// A box where the robot's tool centre point is placed at the ends of a
// query (root frame of the robot).
struct Region {
  std::string name;
  Eigen::AlignedBox3d box;
};

// Obstacles of the robot's environment, each a named FCL object (world pose
// in the robot's root frame), and the query regions.
struct World {
  std::vector<std::string> names;  // one per object: "table", "shelf_back", ...
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> objects;
  // The point cloud the octree was built from, and the octree (occupied
  // leaves of side `octree_resolution`), which is also one of the objects.
  std::vector<Eigen::Vector3d> cloud;
  std::shared_ptr<octomap::OcTree> octree;
  double octree_resolution = 0;
  std::vector<Region> regions;
  // Boxes covering the octree's occupied leaves: each leaf lies in one of
  // them (the leaf's ancestor of side kCoverSide, or the leaf when larger).
  // Few boxes instead of thousands of leaves: a distance to them is a cheap
  // lower bound of the distance to the octree (recheck.h).
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> octree_cover;

  // The objects as sov::urdf::Scene's environment list.
  std::vector<fcl::CollisionObject<double>*> env() const;
  // The objects with the octree replaced by octree_cover: every point of an
  // object of env() lies in one of these, so distances to them are lower
  // bounds of distances to env().
  std::vector<fcl::CollisionObject<double>*> coveringEnv() const;
};

// Side of the octree cover's boxes (length units).
constexpr double kCoverSide = 0.08;

// The table, the shelf (back, two sides, three boards) with a box in each
// compartment and one on top, and the octree of a point cloud sampled, with
// noise drawn from seed, on the surfaces of a standing cylinder and a ball on
// the table. Regions: "table" (above the free part of the table), "shelf_low"
// and "shelf_high" (inside the compartments).
World shelfWorld(std::uint64_t seed = 1);

// One box of the world for drawing: an object's box or an occupied octree leaf.
struct DrawnBox {
  std::string name;            // the object's name ("octree" for a leaf)
  Eigen::Isometry3d pose;      // centre and orientation in the root frame
  Eigen::Vector3d size;        // edge lengths
};

// Every fcl::Box object of world and every occupied leaf of its octree.
std::vector<DrawnBox> drawnBoxes(const World& world);

}  // namespace planning
}  // namespace sov

#endif  // SUPEROVOID_PLANNING_WORLD_H
