// sov_shape_tessellate: a closed, outward-oriented mesh of surface points
// whose enclosed volume converges to sov_shape_volume from below.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "superovoid/superovoid.h"

namespace {

struct Mesh {
  std::vector<double> v;
  std::vector<int> t;
};

Mesh tessellate(const sov_shape& s, int n_lat, int n_lon) {
  size_t nv = 0, nt = 0;
  EXPECT_EQ(sov_shape_tessellation_size(&nv, &nt, n_lat, n_lon), SOV_OK);
  Mesh m;
  m.v.resize(3 * nv);
  m.t.resize(3 * nt);
  EXPECT_EQ(sov_shape_tessellate(m.v.data(), m.v.size(), m.t.data(), m.t.size(), &s, n_lat, n_lon),
            SOV_OK);
  return m;
}

sov_shape shape(const std::array<double, 7>& p) {
  sov_shape s;
  EXPECT_EQ(sov_shape_init(&s, p.data()), SOV_OK);
  return s;
}

// Signed volume by the divergence theorem (positive for outward triangles).
double enclosedVolume(const Mesh& m) {
  double vol = 0;
  for (size_t k = 0; k < m.t.size(); k += 3) {
    const double* a = &m.v[3 * m.t[k]];
    const double* b = &m.v[3 * m.t[k + 1]];
    const double* c = &m.v[3 * m.t[k + 2]];
    vol += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6;
  }
  return vol;
}

const std::array<double, 7> kShapes[] = {
    {1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0},
    {0.5, 1.2, 0.8, 0.3, 1.6, 0.0, 0.0},
    {0.7, 0.4, 1.1, 0.8, 1.0, 0.3, 0.3},
};

TEST(Tessellate, VerticesLieOnTheSurface) {
  for (const auto& p : kShapes) {
    const sov_shape s = shape(p);
    const Mesh m = tessellate(s, 9, 16);
    for (size_t i = 0; i < m.v.size(); i += 3) {
      double F = 0;
      ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s, &m.v[i]), SOV_OK);
      EXPECT_NEAR(F, 0, 1e-12) << "vertex " << i / 3;
    }
  }
}

TEST(Tessellate, MeshIsClosedAndOutward) {
  for (const auto& p : kShapes) {
    const sov_shape s = shape(p);
    const Mesh m = tessellate(s, 7, 12);
    // Every directed edge appears once and its reverse once: closed,
    // consistently oriented.
    std::map<std::pair<int, int>, int> edges;
    for (size_t k = 0; k < m.t.size(); k += 3) {
      for (int e = 0; e < 3; ++e) ++edges[{m.t[k + e], m.t[k + (e + 1) % 3]}];
    }
    for (const auto& [edge, count] : edges) {
      EXPECT_EQ(count, 1);
      EXPECT_EQ(edges.count({edge.second, edge.first}), 1u);
    }
    // The origin is inside the convex body, so each outward face's plane has it
    // behind.
    for (size_t k = 0; k < m.t.size(); k += 3) {
      const double* a = &m.v[3 * m.t[k]];
      const double* b = &m.v[3 * m.t[k + 1]];
      const double* c = &m.v[3 * m.t[k + 2]];
      const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
      const double w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
      const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                           u[0] * w[1] - u[1] * w[0]};
      EXPECT_GT(n[0] * a[0] + n[1] * a[1] + n[2] * a[2], 0) << "triangle " << k / 3;
    }
  }
}

TEST(Tessellate, VolumeConvergesFromBelow) {
  for (const auto& p : kShapes) {
    const sov_shape s = shape(p);
    double exact = 0;
    ASSERT_EQ(sov_shape_volume(&exact, &s), SOV_OK);
    double previous = 0;
    for (int n : {8, 32, 128}) {
      const double vol = enclosedVolume(tessellate(s, n, 2 * n));
      EXPECT_LT(vol, exact);
      EXPECT_GT(vol, previous);
      previous = vol;
    }
    EXPECT_NEAR(previous / exact, 1, 2e-3);
  }
}

TEST(Tessellate, BadArguments) {
  const sov_shape s = shape(kShapes[0]);
  size_t nv = 0, nt = 0;
  EXPECT_EQ(sov_shape_tessellation_size(&nv, &nt, 4, 6), SOV_OK);
  EXPECT_EQ(nv, 20u);
  EXPECT_EQ(nt, 36u);
  EXPECT_EQ(sov_shape_tessellation_size(nullptr, &nt, 4, 6), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_tessellation_size(&nv, &nt, 1, 6), SOV_ERR_OPTION);
  EXPECT_EQ(sov_shape_tessellation_size(&nv, &nt, 4, 2), SOV_ERR_OPTION);
  std::vector<double> v(3 * nv);
  std::vector<int> t(3 * nt);
  EXPECT_EQ(sov_shape_tessellate(v.data(), v.size() - 1, t.data(), t.size(), &s, 4, 6),
            SOV_ERR_BUFFER);
  EXPECT_EQ(sov_shape_tessellate(v.data(), v.size(), t.data(), t.size() - 1, &s, 4, 6),
            SOV_ERR_BUFFER);
  EXPECT_EQ(sov_shape_tessellate(nullptr, v.size(), t.data(), t.size(), &s, 4, 6), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_tessellate(v.data(), v.size(), t.data(), t.size(), nullptr, 4, 6),
            SOV_ERR_NULL);
}

}  // namespace
