// The planning example's workspace (world.h).
#include "superovoid/planning/world.h"

#include <fcl/geometry/octree/octree.h>
#include <fcl/geometry/shape/box.h>
#include <octomap/OcTree.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <tuple>

namespace sov {
namespace planning {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Side of the octree's leaves: a typical depth-camera map's.
constexpr double kOctreeResolution = 0.02;
// Standard deviation of the point cloud's noise.
constexpr double kCloudNoise = 0.003;
// How far the octree cover's boxes reach beyond their cells.
constexpr double kCoverPad = 1e-6;

// Appends an axis-aligned box given by its corners.
void addBox(World& w, const std::string& name, const Eigen::Vector3d& lo,
            const Eigen::Vector3d& hi) {
  const Eigen::Vector3d size = hi - lo;
  auto box = std::make_shared<fcl::Box<double>>(size.x(), size.y(), size.z());
  fcl::Transform3<double> pose = fcl::Transform3<double>::Identity();
  pose.translation() = 0.5 * (lo + hi);
  w.objects.push_back(std::make_unique<fcl::CollisionObject<double>>(box, pose));
  w.objects.back()->computeAABB();
  w.names.push_back(name);
}

// The table and the shelf, open towards the robot (-y), with its boxes.
void addFurniture(World& w) {
  using V = Eigen::Vector3d;
  addBox(w, "table", V(0.25, -0.7, -0.04), V(1.0, 0.7, 0.0));
  const double x0 = 0.2, x1 = 0.8, y0 = 0.45, y1 = 0.8, t = 0.02;
  addBox(w, "shelf_back", V(x0, y1 - t, 0.0), V(x1, y1, 0.82));
  addBox(w, "shelf_side_near", V(x0, y0, 0.0), V(x0 + t, y1, 0.82));
  addBox(w, "shelf_side_far", V(x1 - t, y0, 0.0), V(x1, y1, 0.82));
  addBox(w, "shelf_board_bottom", V(x0, y0, 0.0), V(x1, y1, t));
  addBox(w, "shelf_board_middle", V(x0, y0, 0.40), V(x1, y1, 0.40 + t));
  addBox(w, "shelf_board_top", V(x0, y0, 0.80), V(x1, y1, 0.80 + t));
  addBox(w, "box_low", V(0.24, 0.60, t), V(0.34, 0.76, 0.17));
  addBox(w, "box_high", V(0.64, 0.62, 0.42), V(0.76, 0.76, 0.52));
  addBox(w, "box_top", V(0.40, 0.55, 0.82), V(0.55, 0.75, 0.97));
}

// Points on a standing cylinder (side and top) and on a ball, with noise:
// what a depth camera would see of two objects on the table.
std::vector<Eigen::Vector3d> clutterCloud(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, kCloudNoise);
  std::vector<Eigen::Vector3d> cloud;
  const Eigen::Vector3d cyl(0.55, -0.1, 0.0), ball(0.75, -0.25, 0.07);
  const double r_cyl = 0.06, h_cyl = 0.25, r_ball = 0.07;
  for (int i = 0; i < 2500; ++i) {  // cylinder side
    const double a = 2 * kPi * u(rng), z = h_cyl * u(rng);
    cloud.push_back(cyl + Eigen::Vector3d(r_cyl * std::cos(a), r_cyl * std::sin(a), z));
  }
  for (int i = 0; i < 400; ++i) {  // cylinder top
    const double a = 2 * kPi * u(rng), r = r_cyl * std::sqrt(u(rng));
    cloud.push_back(cyl + Eigen::Vector3d(r * std::cos(a), r * std::sin(a), h_cyl));
  }
  for (int i = 0; i < 1500; ++i) {  // ball, uniform on the sphere
    const double z = 2 * u(rng) - 1, a = 2 * kPi * u(rng), s = std::sqrt(1 - z * z);
    cloud.push_back(ball + r_ball * Eigen::Vector3d(s * std::cos(a), s * std::sin(a), z));
  }
  for (auto& p : cloud) p += Eigen::Vector3d(noise(rng), noise(rng), noise(rng));
  return cloud;
}

// The octree of cloud: every leaf holding a point occupied.
std::shared_ptr<octomap::OcTree> octreeOf(const std::vector<Eigen::Vector3d>& cloud) {
  auto tree = std::make_shared<octomap::OcTree>(kOctreeResolution);
  for (const auto& p : cloud) tree->updateNode(octomap::point3d(p.x(), p.y(), p.z()), true);
  tree->updateInnerOccupancy();
  tree->prune();
  return tree;
}

// Boxes covering every occupied leaf of tree: per leaf, its ancestor of side
// kCoverSide (or the leaf, when it is larger), each box once.
std::vector<std::unique_ptr<fcl::CollisionObject<double>>> coverOf(const octomap::OcTree& tree) {
  unsigned depth = tree.getTreeDepth();
  while (depth > 0 && tree.getNodeSize(depth) < kCoverSide * (1 - 1e-9)) --depth;
  std::set<std::tuple<unsigned, unsigned, unsigned, unsigned>> seen;
  std::vector<std::unique_ptr<fcl::CollisionObject<double>>> out;
  for (auto it = tree.begin_leafs(); it != tree.end_leafs(); ++it) {
    if (!tree.isNodeOccupied(*it)) continue;
    const unsigned d = std::min(depth, it.getDepth());
    const octomap::OcTreeKey key = tree.adjustKeyAtDepth(it.getKey(), d);
    if (!seen.insert({d, key[0], key[1], key[2]}).second) continue;
    const octomap::point3d c = tree.keyToCoord(key, d);
    // A micrometre larger than the cell: octomap's float coordinates (errors
    // near 1e-8) never leave a leaf's face outside.
    const double side = tree.getNodeSize(d) + 2 * kCoverPad;
    fcl::Transform3<double> pose = fcl::Transform3<double>::Identity();
    pose.translation() = Eigen::Vector3d(c.x(), c.y(), c.z());
    out.push_back(std::make_unique<fcl::CollisionObject<double>>(
        std::make_shared<fcl::Box<double>>(side, side, side), pose));
    out.back()->computeAABB();
  }
  return out;
}

}  // namespace

std::vector<fcl::CollisionObject<double>*> World::env() const {
  std::vector<fcl::CollisionObject<double>*> out;
  for (const auto& o : objects) out.push_back(o.get());
  return out;
}

std::vector<fcl::CollisionObject<double>*> World::coveringEnv() const {
  std::vector<fcl::CollisionObject<double>*> out;
  for (const auto& o : objects)
    if (o->getObjectType() != fcl::OT_OCTREE) out.push_back(o.get());
  for (const auto& o : octree_cover) out.push_back(o.get());
  return out;
}

World shelfWorld(std::uint64_t seed) {
  World w;
  addFurniture(w);
  w.cloud = clutterCloud(seed);
  w.octree = octreeOf(w.cloud);
  w.octree_resolution = kOctreeResolution;
  w.octree_cover = coverOf(*w.octree);
  w.objects.push_back(std::make_unique<fcl::CollisionObject<double>>(
      std::make_shared<fcl::OcTree<double>>(w.octree), fcl::Transform3<double>::Identity()));
  w.objects.back()->computeAABB();
  w.names.push_back("octree");
  using V = Eigen::Vector3d;
  w.regions = {{"table", Eigen::AlignedBox3d(V(0.40, -0.50, 0.10), V(0.65, -0.30, 0.30))},
               {"shelf_low", Eigen::AlignedBox3d(V(0.38, 0.50, 0.12), V(0.62, 0.60, 0.28))},
               {"shelf_high", Eigen::AlignedBox3d(V(0.38, 0.50, 0.52), V(0.62, 0.60, 0.68))}};
  return w;
}

std::vector<DrawnBox> drawnBoxes(const World& world) {
  std::vector<DrawnBox> out;
  for (std::size_t i = 0; i < world.objects.size(); ++i) {
    const auto* box = dynamic_cast<const fcl::Box<double>*>(
        world.objects[i]->collisionGeometry().get());
    if (box) out.push_back({world.names[i], world.objects[i]->getTransform(), box->side});
  }
  if (!world.octree) return out;
  for (auto it = world.octree->begin_leafs(); it != world.octree->end_leafs(); ++it) {
    if (!world.octree->isNodeOccupied(*it)) continue;
    Eigen::Isometry3d pose = Eigen::Isometry3d::Identity();
    pose.translation() = Eigen::Vector3d(it.getX(), it.getY(), it.getZ());
    out.push_back({"octree", pose, Eigen::Vector3d::Constant(it.getSize())});
  }
  return out;
}

}  // namespace planning
}  // namespace sov
