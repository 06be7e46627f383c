// Tests of unions of superovoids fitted to a mesh (fitSuperovoidUnion, its
// volume and gap measures) and of their conversion into several
// <collision>s per link (fitUrdf with SplitOptions).
#include <gtest/gtest.h>
#include <urdf_parser/urdf_parser.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fit_test_util.h"
#include "superovoid/superovoid.h"
#include "superovoid/urdf/error.h"
#include "superovoid/urdf/fit.h"
#include "superovoid/urdf/mesh.h"
#include "superovoid/urdf/model.h"

namespace {

using sov::urdf::Point3;
using sov::urdf::SplitOptions;
using sov::urdf::SuperovoidFit;
using sov::urdf::UnionFit;
using sov_fit_test::trianglePoints;

// The smallest F (SPEC) of x over the bodies: <= 0 when some body holds it.
double unionImplicit(const std::vector<SuperovoidFit>& bodies, const Point3& x) {
  double m = INFINITY;
  for (const SuperovoidFit& b : bodies) {
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> R(b.pose.R);
    const Eigen::Vector3d y =
        R.transpose() * (Eigen::Vector3d(x[0], x[1], x[2]) - Eigen::Vector3d(b.pose.p));
    double F = 0;
    EXPECT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &b.shape, y.data()), SOV_OK);
    m = std::min(m, F);
  }
  return m;
}

// unionVolume samples overlaps on a grid of this many cells per axis; its
// error on a body shared whole is then a few cells' share of the volume.
constexpr int kCells = 40;
constexpr double kGridShare = 0.05;
// unionGap and hausdorffGap sample directions differently; both are refined
// to about 1e-7 rad, so they agree far below the fit's size.
constexpr double kGapAgreement = 1e-6;

TEST(FitUnion, LShapedMeshSplitsTighterWithEveryTriangleInside) {
  const sov::urdf::TriangleMesh m = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  // The union's fits with one refined start (twice as quick), the single
  // fit with the default three: the union must beat the harder-tried fit.
  sov::urdf::FitOptions o;
  o.refined_starts = 1;
  SplitOptions s;
  s.max_bodies = 2;
  const UnionFit u = sov::urdf::fitSuperovoidUnion(m, o, s);
  const SuperovoidFit one = sov::urdf::fitSuperovoid(m.vertices);
  ASSERT_EQ(u.bodies.size(), 2u);  // an L is two boxes: cutting it pays
  EXPECT_LT(u.volume, one.volume);
  EXPECT_DOUBLE_EQ(u.volume_ratio, u.volume / u.hull_volume);
  EXPECT_DOUBLE_EQ(u.hull_volume, one.hull_volume);
  for (const Point3& x : trianglePoints(m)) EXPECT_LE(unionImplicit(u.bodies, x), 0.0);
  for (const SuperovoidFit& b : u.bodies) {
    sov_shape_info info;
    ASSERT_EQ(sov_shape_get(&info, &b.shape), SOV_OK);
    EXPECT_LE(info.dent, 1e-6);
  }
  EXPECT_GT(u.gap, 0.0);
  EXPECT_LT(u.gap, one.gap);
  EXPECT_EQ(u.points, m.vertices.size());
  EXPECT_GT(u.seconds, 0.0);
}

// Appends the closed box [lo, hi] (12 triangles) to m.
void addBox(sov::urdf::TriangleMesh& m, const Point3& lo, const Point3& hi) {
  const int v0 = static_cast<int>(m.vertices.size());
  for (int k = 0; k < 8; ++k)
    m.vertices.push_back({k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2]});
  const int faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    m.triangles.push_back({v0 + f[0], v0 + f[1], v0 + f[2]});
    m.triangles.push_back({v0 + f[0], v0 + f[2], v0 + f[3]});
  }
}

// A U of three overlapping boxes, 30 mm thick (finding F9): a base 120 x 20 mm
// and two arms 20 x 80 mm around a notch 80 mm wide. Its first cut saves
// nothing by any convex measure (the arms' side has the hull's box); cutting
// it into slabs through the thickness kept the notch in every body. The arms
// and the base leave the notch out: its points 15 mm and more from every box.
TEST(FitUnion, UShapedMeshLeavesItsNotchOut) {
  sov::urdf::TriangleMesh m;
  addBox(m, {-0.06, -0.01, -0.015}, {0.06, 0.01, 0.015});
  addBox(m, {-0.06, 0.0, -0.015}, {-0.04, 0.08, 0.015});
  addBox(m, {0.04, 0.0, -0.015}, {0.06, 0.08, 0.015});
  // The cuts' choice is tested, not how hard each fit tries: one refined
  // start, and one candidate cut per piece (the box-volume ranking's best;
  // with four, the same union volume), about twice as quick.
  sov::urdf::FitOptions o;
  o.refined_starts = 1;
  SplitOptions s;
  s.max_bodies = 4;
  s.cut_candidates = 1;
  const UnionFit u = sov::urdf::fitSuperovoidUnion(m, o, s);
  for (const Point3& x : trianglePoints(m)) EXPECT_LE(unionImplicit(u.bodies, x), 0.0);
  for (const double x : {-0.025, 0.0, 0.025})
    for (const double y : {0.045, 0.06, 0.075})
      for (const double z : {-0.01, 0.0, 0.01})
        EXPECT_GT(unionImplicit(u.bodies, {x, y, z}), 0.0) << x << " " << y << " " << z;
  EXPECT_LT(u.volume, u.hull_volume);  // the notch is 52 % of the hull
}

TEST(FitUnion, OneBodyIsTheSingleFit) {
  const sov::urdf::TriangleMesh m = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  const UnionFit u = sov::urdf::fitSuperovoidUnion(m);
  const SuperovoidFit one = sov::urdf::fitSuperovoid(m.vertices);
  ASSERT_EQ(u.bodies.size(), 1u);
  for (int k = 0; k < 7; ++k) EXPECT_EQ(u.bodies[0].params[k], one.params[k]) << k;
  EXPECT_EQ(u.volume, one.volume);
}

TEST(FitUnion, TargetRatioMetStopsSplitting) {
  const sov::urdf::TriangleMesh m = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  const SuperovoidFit one = sov::urdf::fitSuperovoid(m.vertices);
  SplitOptions s;
  s.max_bodies = 2;
  s.target_ratio = one.volume_ratio;  // met by the whole fit already
  EXPECT_EQ(sov::urdf::fitSuperovoidUnion(m, sov::urdf::FitOptions(), s).bodies.size(), 1u);
}

TEST(FitUnion, VolumeCountsAnOverlapOnce) {
  const sov::urdf::TriangleMesh m = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  const SuperovoidFit one = sov::urdf::fitSuperovoid(m.vertices);
  EXPECT_DOUBLE_EQ(sov::urdf::unionVolume({one}, kCells), one.volume);
  EXPECT_NEAR(sov::urdf::unionVolume({one, one}, kCells), one.volume, kGridShare * one.volume);
  // Moved apart by more than its size, the two add up exactly.
  SuperovoidFit far = one;
  far.pose.p[0] += 1;
  EXPECT_DOUBLE_EQ(sov::urdf::unionVolume({one, far}, kCells), 2 * one.volume);
}

TEST(FitUnion, GapOfOneBodyOverAConvexMeshIsItsHausdorffGap) {
  const sov::urdf::TriangleMesh cube =
      sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/../../urdf/data/meshes/cube.stl");
  const SuperovoidFit f = sov::urdf::fitSuperovoid(cube.vertices);
  const double g = sov::urdf::unionGap({f}, cube, 4000);
  EXPECT_NEAR(g, f.gap, kGapAgreement);
}

TEST(FitUnion, OutOfRangeSplitOptionsAreRefused) {
  const sov::urdf::TriangleMesh m = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  const auto refused = [&](const SplitOptions& s) {
    try {
      sov::urdf::fitSuperovoidUnion(m, sov::urdf::FitOptions(), s);
    } catch (const sov::urdf::Error& e) {
      return e.status() == SOV_ERR_OPTION;
    }
    return false;
  };
  SplitOptions s;
  s.max_bodies = 0;
  EXPECT_TRUE(refused(s));
  s.max_bodies = SplitOptions::kMaxBodies + 1;  // sov-urdf-fit's limit, the library's too
  EXPECT_TRUE(refused(s));
  s = SplitOptions();
  s.target_ratio = NAN;
  EXPECT_TRUE(refused(s));
  s.target_ratio = 0.5;  // a ratio is 0 (no target) or at least 1, as the tool takes it
  EXPECT_TRUE(refused(s));
  s = SplitOptions();
  s.target_gap = -1;
  EXPECT_TRUE(refused(s));
  s = SplitOptions();
  s.cut_candidates = 0;
  EXPECT_TRUE(refused(s));
  s = SplitOptions();
  s.volume_cells = 1;
  EXPECT_TRUE(refused(s));
  EXPECT_THROW(sov::urdf::unionGap({}, m, 5), sov::urdf::Error);
}

// Options of the union-writing tests below: unions of up to 2 bodies, fitted
// with one refined start and half the default iterations of each solve
// (about twice as quick): the writing is tested, not how hard the fit tries.
sov::urdf::UrdfFitOptions unionWritingOptions() {
  sov::urdf::UrdfFitOptions o = sov_fit_test::quickOptions();
  o.fit.max_iterations = 30;
  o.split.max_bodies = 2;
  return o;
}

// two_link.urdf's base has a named, turned mesh collision and a box after
// it: the union's bodies become base_mesh, base_mesh_1, ... and the box
// moves after them; every vertex is inside one body as parsed back.
TEST(FitUnionUrdf, SeveralCollisionsPerLinkHoldEveryVertex) {
  const std::string in = SOV_FIT_TEST_DATA_DIR "/two_link.urdf";
  sov::urdf::UrdfFitOptions o = unionWritingOptions();
  o.links = {"base"};
  std::vector<sov::urdf::CollisionFit> fits;
  const std::string out =
      sov::urdf::fitUrdf(sov_fit_test::readText(in), SOV_FIT_TEST_DATA_DIR, o, &fits, in);
  ASSERT_EQ(fits.size(), 1u);
  const std::size_t k = fits[0].bodies.bodies.size();
  ASSERT_EQ(k, 2u);
  EXPECT_EQ(fits[0].written, 0u);
  const sov::urdf::Model model = sov::urdf::parse(out, "out");
  const auto base = model.urdf->getLink("base");
  ASSERT_EQ(base->collision_array.size(), k + 1);  // the bodies and the box
  EXPECT_EQ(base->collision_array[0]->name, "base_mesh");
  EXPECT_EQ(base->collision_array[1]->name, "base_mesh_1");
  EXPECT_EQ(base->collision_array[k]->geometry->type, urdf::Geometry::BOX);
  // What an unmodified reader (MoveIt through urdfdom) sees: a fallback box
  // per body, each its own collision shape of the link.
  const auto plain = urdf::parseURDF(out);
  ASSERT_TRUE(plain);
  ASSERT_EQ(plain->getLink("base")->collision_array.size(), k + 1);
  for (std::size_t b = 0; b < k; ++b)
    EXPECT_EQ(plain->getLink("base")->collision_array[b]->geometry->type, urdf::Geometry::BOX);
  const auto input = urdf::parseURDF(sov_fit_test::readText(in));
  const Eigen::Isometry3d origin = sov_fit_test::collisionOrigin(*input, "base", 0);
  const sov::urdf::TriangleMesh m = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  for (const auto& v : m.vertices) {
    double F = INFINITY;
    for (std::size_t b = 0; b < k; ++b) {
      const sov::urdf::Superovoid* s = model.find("base", b);
      ASSERT_NE(s, nullptr);
      sov::urdf::TriangleMesh one;
      one.vertices = {v};
      F = std::min(F, sov_fit_test::maxImplicit(*s, origin, one));
    }
    EXPECT_LE(F, 0.0);
  }
}

// A start tag as XML allows it: spaces around '=' and a '>' in a value. The
// bodies were written unrenamed (spaces), and the output cut the tag at the
// value's '>' (not well-formed, blamed on the input).
TEST(FitUnionUrdf, NamesAreFoundWhateverTheTagsLayout) {
  const std::string in = SOV_FIT_TEST_DATA_DIR "/two_link.urdf";
  std::string text = sov_fit_test::readText(in);
  const std::string tag = "<collision name=\"base_mesh\">";
  ASSERT_NE(text.find(tag), std::string::npos);
  text.replace(text.find(tag), tag.size(), "<collision\n      name = 'base>mesh' >");
  sov::urdf::UrdfFitOptions o = unionWritingOptions();
  o.links = {"base"};
  std::vector<sov::urdf::CollisionFit> fits;
  const std::string out = sov::urdf::fitUrdf(text, SOV_FIT_TEST_DATA_DIR, o, &fits, in);
  ASSERT_EQ(fits.size(), 1u);
  ASSERT_EQ(fits[0].bodies.bodies.size(), 2u);
  const sov::urdf::Model model = sov::urdf::parse(out, "out");
  const auto base = model.urdf->getLink("base");
  ASSERT_EQ(base->collision_array.size(), 3u);
  EXPECT_EQ(base->collision_array[0]->name, "base>mesh");
  EXPECT_EQ(base->collision_array[1]->name, "base>mesh_1");
}

// Two links whose meshes have the same vertices, the second with one more
// triangle across the L's notch: it was taken for the same mesh (vertices
// only) and reused the first union, which leaves that triangle outside. Each
// link's union must hold every point of its own triangles as parsed back.
TEST(FitUnionUrdf, SameVerticesOtherTrianglesAreFittedAgain) {
  const std::string web = ::testing::TempDir() + "sov_fit_l_web.obj";
  // l_link.obj's vertices 6 (0.04 0 0.01), 10 (0 0 0.03) and 14 (0.01 0 0.03).
  sov_fit_test::writeText(
      web, sov_fit_test::readText(SOV_FIT_TEST_DATA_DIR "/l_link.obj") + "f 6 10 14\n");
  const sov::urdf::TriangleMesh l = sov::urdf::loadMesh(SOV_FIT_TEST_DATA_DIR "/l_link.obj");
  const sov::urdf::TriangleMesh w = sov::urdf::loadMesh(web);
  ASSERT_EQ(l.vertices, w.vertices);  // the case: equal vertex lists
  ASSERT_EQ(w.triangles.size(), l.triangles.size() + 1);
  const std::string text =
      "<robot name=\"r\"><link name=\"base\"/>\n"
      "<link name=\"a\"><collision><geometry><mesh filename=\"" SOV_FIT_TEST_DATA_DIR
      "/l_link.obj\"/></geometry></collision></link>\n"
      "<link name=\"b\"><collision><origin xyz=\"0 0 0.5\"/><geometry><mesh filename=\"" +
      web +
      "\"/></geometry></collision></link>\n"
      "<joint name=\"ja\" type=\"fixed\"><parent link=\"base\"/><child link=\"a\"/></joint>\n"
      "<joint name=\"jb\" type=\"fixed\"><parent link=\"base\"/><child link=\"b\"/></joint>\n"
      "</robot>\n";
  sov::urdf::UrdfFitOptions o = unionWritingOptions();
  std::vector<sov::urdf::CollisionFit> fits;
  const std::string out = sov::urdf::fitUrdf(text, "", o, &fits, "web.urdf");
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[1].same_as, "");  // fitted, not reused
  const sov::urdf::Model model = sov::urdf::parse(out, "out");
  const auto input = urdf::parseURDF(text);
  ASSERT_TRUE(input);
  for (std::size_t i = 0; i < fits.size(); ++i) {
    const sov::urdf::TriangleMesh& m = i == 0 ? l : w;
    const Eigen::Isometry3d origin = sov_fit_test::collisionOrigin(*input, fits[i].link, 0);
    for (const Point3& x : trianglePoints(m)) {
      double F = INFINITY;
      for (std::size_t b = 0; b < fits[i].bodies.bodies.size(); ++b) {
        const sov::urdf::Superovoid* s = model.find(fits[i].link, b);
        ASSERT_NE(s, nullptr);
        sov::urdf::TriangleMesh point;
        point.vertices = {x};
        F = std::min(F, sov_fit_test::maxImplicit(*s, origin, point));
      }
      EXPECT_LE(F, 0.0) << fits[i].link << " (" << x[0] << ", " << x[1] << ", " << x[2] << ")";
    }
  }
}

TEST(FitUnionUrdf, BadSplitOptionsFailBeforeAnyMeshIsRead) {
  sov::urdf::UrdfFitOptions o;
  o.split.max_bodies = 0;
  bool progressed = false;
  o.progress = [&](const sov::urdf::FitProgress&) { progressed = true; };
  const std::string in = SOV_FIT_TEST_DATA_DIR "/two_link.urdf";
  try {
    sov::urdf::fitUrdf(sov_fit_test::readText(in), SOV_FIT_TEST_DATA_DIR, o, nullptr, in);
    ADD_FAILURE() << "accepted max_bodies = 0";
  } catch (const sov::urdf::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_OPTION);
  }
  EXPECT_FALSE(progressed);
}

}  // namespace
