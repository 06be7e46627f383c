// Helpers shared by the scene tests: fixture paths and brute force over the
// geometry pairs of a scene.
#ifndef SUPEROVOID_TEST_URDF_SCENE_SCENE_TEST_UTIL_H
#define SUPEROVOID_TEST_URDF_SCENE_SCENE_TEST_UTIL_H

#include <superovoid/fcl.h>
#include <superovoid/urdf/scene.h>

#include <algorithm>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <utility>

namespace sov_test {

// A distance of the same pair by the scene and by brute force: the same
// calls, but FCL's EPA is not bit-reproducible (it keeps its polytope in hash
// sets of pointers).
constexpr double kDistTol = 1e-9;
// A witness point against the distance it spans, or found by two routes.
constexpr double kPointTol = 1e-6;

// Path of a fixture under test/urdf/data.
inline std::string dataPath(const std::string& name) {
  return std::string(SOV_URDF_TEST_DATA_DIR) + "/" + name;
}

// Random positions within the limits of the movable, non-mimic joints.
inline sov::urdf::JointPositions randomConfiguration(const sov::urdf::Scene& scene,
                                                     const ::urdf::ModelInterface& model,
                                                     std::mt19937& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  sov::urdf::JointPositions q;
  for (const auto& [name, value] : scene.jointPositions()) {
    const auto& limits = model.joints_.at(name)->limits;
    q[name] = limits ? limits->lower + (limits->upper - limits->lower) * u(rng) : 0.0;
  }
  return q;
}

// Brute force: smallest signed distance over the geometry pairs of links
// that may not collide, with the pair's link names (ordered as found) and
// geometries, and the colliding link pairs.
struct Brute {
  double d = std::numeric_limits<double>::infinity();
  std::string link1, link2;
  const fcl::CollisionObject<double>* object1 = nullptr;
  const fcl::CollisionObject<double>* object2 = nullptr;
  std::set<std::pair<std::string, std::string>> colliding;
};

// True when a or b is a triangle mesh or an octree: the scene then answers
// FCL's unsigned distance, 0 when they touch or overlap.
inline bool unsignedPair(const fcl::CollisionObject<double>* a,
                         const fcl::CollisionObject<double>* b) {
  return a->getObjectType() != fcl::OT_GEOM || b->getObjectType() != fcl::OT_GEOM;
}

// The distance the scene documents for one pair, through sov::distance with
// the scene's default request tolerance (SceneOptions::gjk_tolerance):
// signed for two shapes, unsigned and at least 0 with a mesh or octree.
inline double pairDistance(const fcl::CollisionObject<double>* a,
                           const fcl::CollisionObject<double>* b) {
  const bool no_sign = unsignedPair(a, b);
  fcl::DistanceRequest<double> request(true, !no_sign);
  request.distance_tolerance = sov::urdf::SceneOptions().gjk_tolerance;
  fcl::DistanceResult<double> result;
  const double d = sov::distance(a, b, request, result);
  return no_sign ? std::max(d, 0.0) : d;
}

// Brute force with the scene's conventions (pairDistance).
inline Brute bruteForce(sov::urdf::Scene& scene) {
  Brute b;
  const auto g = scene.geometries();
  for (std::size_t i = 0; i < g.size(); ++i) {
    for (std::size_t j = i + 1; j < g.size(); ++j) {
      if (g[i].link == g[j].link || scene.isCollisionAllowed(g[i].link, g[j].link)) continue;
      const double d = pairDistance(g[i].object, g[j].object);
      if (d < b.d) {
        b.d = d;
        b.link1 = g[i].link;
        b.link2 = g[j].link;
        b.object1 = g[i].object;
        b.object2 = g[j].object;
      }
      fcl::CollisionRequest<double> creq;
      fcl::CollisionResult<double> cres;
      if (sov::collide(g[i].object, g[j].object, creq, cres) > 0) {
        b.colliding.insert(std::minmax(g[i].link, g[j].link));
      }
    }
  }
  return b;
}

}  // namespace sov_test

#endif  // SUPEROVOID_TEST_URDF_SCENE_SCENE_TEST_UTIL_H
