// Internal: one collision geometry of a Scene, shared by the scene's query
// code (scene.cpp) and its motion checks (motion.cpp).
#ifndef SUPEROVOID_URDF_SCENE_SRC_GEOMETRY_H
#define SUPEROVOID_URDF_SCENE_SRC_GEOMETRY_H

#include <superovoid/fcl/superovoid.h>

#include <cstddef>
#include <memory>

#include "superovoid/urdf/scene.h"

namespace sov {
namespace urdf {

struct Scene::Geometry {
  std::size_t index = 0;                                    // position in Scene::geometries_
  std::size_t link = 0;                                     // index into Scene::links_
  std::size_t collision = 0;                                // <collision> index in the link
  Eigen::Isometry3d local = Eigen::Isometry3d::Identity();  // in the link frame
  std::shared_ptr<sov::Superovoid> superovoid;              // null for FCL primitives
  std::unique_ptr<fcl::CollisionObject<double>> object;
};

}  // namespace urdf
}  // namespace sov

#endif  // SUPEROVOID_URDF_SCENE_SRC_GEOMETRY_H
