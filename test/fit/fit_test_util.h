// Helpers shared by the fit tests: files, and the independent check that a
// converted URDF contains every vertex of the meshes it replaced.
#ifndef SUPEROVOID_TEST_FIT_FIT_TEST_UTIL_H
#define SUPEROVOID_TEST_FIT_FIT_TEST_UTIL_H

#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Geometry>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "superovoid/superovoid.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"

namespace sov_fit_test {

// Options of the tests of what is done with fits (conversion, writing),
// which do not depend on how hard the fit tries (fit_test.cc tests the
// fit): one refined start keeps them short.
inline sov::urdf::UrdfFitOptions quickOptions() {
  sov::urdf::UrdfFitOptions o;
  o.fit.refined_starts = 1;
  return o;
}

inline std::string readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << path;
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  ASSERT_TRUE(out.good()) << path;
}

// urdfdom's pose of a link's collision number index.
inline Eigen::Isometry3d collisionOrigin(const urdf::ModelInterface& model, const std::string& link,
                                         std::size_t index) {
  const auto l = model.getLink(link);
  EXPECT_TRUE(l && index < l->collision_array.size()) << link << " #" << index;
  const urdf::Pose& o = l->collision_array.at(index)->origin;
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() =
      Eigen::Quaterniond(o.rotation.w, o.rotation.x, o.rotation.y, o.rotation.z).toRotationMatrix();
  T.translation() = Eigen::Vector3d(o.position.x, o.position.y, o.position.z);
  return T;
}

// Largest F of mesh's vertices (given in the original collision frame
// `origin`, as urdfdom read the input) in the superovoid's frame as parsed
// from the converted document.
inline double maxImplicit(const sov::urdf::Superovoid& s, const Eigen::Isometry3d& origin,
                          const sov::urdf::TriangleMesh& mesh) {
  const Eigen::Quaterniond q(s.quat[0], s.quat[1], s.quat[2], s.quat[3]);
  const Eigen::Vector3d xyz(s.xyz[0], s.xyz[1], s.xyz[2]);
  double m = -INFINITY;
  for (const auto& v : mesh.vertices) {
    const Eigen::Vector3d y = q.conjugate() * (origin * Eigen::Vector3d(v[0], v[1], v[2]) - xyz);
    double F = 0;
    EXPECT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s.shape, y.data()), SOV_OK);
    m = std::max(m, F);
  }
  return m;
}

// 66 points on each triangle of the mesh (barycentric grid of step 1/10).
inline std::vector<sov::urdf::Point3> trianglePoints(const sov::urdf::TriangleMesh& m) {
  std::vector<sov::urdf::Point3> out;
  for (const auto& t : m.triangles)
    for (int i = 0; i <= 10; ++i)
      for (int j = 0; i + j <= 10; ++j) {
        const double u = i / 10.0, v = j / 10.0, w = 1 - u - v;
        sov::urdf::Point3 x;
        for (int k = 0; k < 3; ++k)
          x[k] = w * m.vertices[t[0]][k] + u * m.vertices[t[1]][k] + v * m.vertices[t[2]][k];
        out.push_back(x);
      }
  return out;
}

// Number of <collision> elements of every link urdfdom kept.
inline std::size_t collisionCount(const urdf::ModelInterface& model) {
  std::size_t n = 0;
  for (const auto& l : model.links_) n += l.second->collision_array.size();
  return n;
}

}  // namespace sov_fit_test

#endif  // SUPEROVOID_TEST_FIT_FIT_TEST_UTIL_H
