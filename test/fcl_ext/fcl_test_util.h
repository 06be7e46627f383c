// Helpers shared by the FCL layer's tests: poses, shapes, sampling.
#ifndef SUPEROVOID_TEST_FCL_EXT_FCL_TEST_UTIL_H
#define SUPEROVOID_TEST_FCL_EXT_FCL_TEST_UTIL_H

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/cone.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/ellipsoid.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/plane.h>
#include <fcl/geometry/shape/sphere.h>

namespace sov_test {

using Transform = fcl::Transform3<double>;
using Vector = fcl::Vector3<double>;
using GeometryPtr = std::shared_ptr<fcl::CollisionGeometry<double>>;

// FCL's default GJK / MPR / EPA tolerance (CollisionRequest::gjk_tolerance,
// DistanceRequest::distance_tolerance): 1e-6.
constexpr double kGjkTolerance = 1e-6;
// Exact answers of the core: the project's 1e-9 on unit-scale bodies.
constexpr double kExactTolerance = 1e-9;

// Pose from a translation and a rotation of angle about axis.
inline Transform pose(const Vector& p, double angle = 0.0, const Vector& axis = Vector::UnitZ()) {
  Transform tf = Transform::Identity();
  tf.linear() = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
  tf.translation() = p;
  return tf;
}

// Deterministic random poses: uniform rotations, translations in a cube of
// half side `spread`.
inline std::vector<Transform> randomPoses(int count, double spread, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(-spread, spread);
  std::vector<Transform> poses;
  for (int i = 0; i < count; ++i) {
    Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
    q.normalize();
    Transform tf = Transform::Identity();
    tf.linear() = q.toRotationMatrix();
    tf.translation() = Vector(uniform(rng), uniform(rng), uniform(rng));
    poses.push_back(tf);
  }
  return poses;
}

// An axis-aligned box of half sides hx hy hz as an fcl::Convex.
inline std::shared_ptr<fcl::Convex<double>> convexBox(double hx, double hy, double hz) {
  auto vertices = std::make_shared<std::vector<Vector>>();
  for (int i = 0; i < 8; ++i) {
    vertices->emplace_back((i & 1) ? hx : -hx, (i & 2) ? hy : -hy, (i & 4) ? hz : -hz);
  }
  // Quads, counter-clockwise seen from outside.
  auto faces = std::make_shared<std::vector<int>>(std::vector<int>{
      4, 0, 2, 3, 1,  4, 4, 5, 7, 6,  4, 0, 1, 5, 4,
      4, 2, 6, 7, 3,  4, 0, 4, 6, 2,  4, 1, 3, 7, 5});
  return std::make_shared<fcl::Convex<double>>(vertices, 6, faces);
}

// One of each FCL primitive a superovoid is paired with through GJK, sized
// around 0.3 to 0.6.
inline std::vector<GeometryPtr> gjkShapes() {
  return {std::make_shared<fcl::Box<double>>(0.6, 0.8, 0.5),
          std::make_shared<fcl::Capsule<double>>(0.25, 0.7),
          std::make_shared<fcl::Cone<double>>(0.4, 0.8),
          std::make_shared<fcl::Cylinder<double>>(0.35, 0.7),
          convexBox(0.3, 0.2, 0.4)};
}

}  // namespace sov_test

#endif  // SUPEROVOID_TEST_FCL_EXT_FCL_TEST_UTIL_H
