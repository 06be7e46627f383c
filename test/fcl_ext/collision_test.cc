// sov::collide: exact pairs against closed forms, GJK pairs against FCL's
// own Ellipsoid, forwarded pairs against fcl::collide, bad requests.
#include "superovoid/fcl/collision.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include <fcl/geometry/shape/triangle_p.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include "fcl_test_util.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/error.h"
#include "superovoid/fcl/superovoid.h"

namespace {

using sov_test::kExactTolerance;
using sov_test::kGjkTolerance;
using sov_test::pose;
using sov_test::Transform;
using sov_test::Vector;

// Poses closer than this to touching are left out of flag comparisons: GJK
// and MPR decide them within their tolerance only.
constexpr double kFlagMargin = 1e3 * kGjkTolerance;
// MPR penetration depths of two supports of the same ellipsoid (FCL's own
// and the superovoid's) agree to a few GJK tolerances.
constexpr double kMprAgreement = 10 * kGjkTolerance;

// Collision with contacts; returns the contact count, first contact in *c.
std::size_t hit(const fcl::CollisionGeometry<double>& a, const Transform& ta,
                const fcl::CollisionGeometry<double>& b, const Transform& tb, bool is_sov,
                bool contact, fcl::Contact<double>* c = nullptr) {
  fcl::CollisionRequest<double> request(1, contact);
  fcl::CollisionResult<double> result;
  const std::size_t n = is_sov ? sov::collide(&a, ta, &b, tb, request, result)
                               : fcl::collide(&a, ta, &b, tb, request, result);
  if (c && n > 0) *c = result.getContact(0);
  return n;
}

TEST(FclCollide, SuperovoidSpheresMatchClosedForm) {
  const sov::Superovoid a(0.5, 0.5, 0.5, 1, 1), b(0.3, 0.3, 0.3, 1, 1);
  const Vector dir = Vector(1, -2, 0.5).normalized();
  const Transform ta = pose(Vector(0.1, 0.2, 0.3), 0.4, Vector(1, 1, 0));
  for (double gap : {0.2, 1e-6, -1e-6, -0.05, -0.4}) {
    const Transform tb = pose(ta.translation() + (0.8 + gap) * dir, 1.1, Vector(0, 1, 2));
    EXPECT_EQ(hit(a, ta, b, tb, true, false), gap < 0 ? 1u : 0u) << gap;
    fcl::Contact<double> c;
    ASSERT_EQ(hit(a, ta, b, tb, true, true, &c), gap < 0 ? 1u : 0u) << gap;
    if (gap > 0) continue;
    EXPECT_NEAR(c.penetration_depth, -gap, kExactTolerance);
    EXPECT_NEAR((c.normal - dir).norm(), 0, 1e-8);
    const Vector mid = ta.translation() + (0.5 + 0.5 * gap) * dir;
    EXPECT_NEAR((c.pos - mid).norm(), 0, 1e-8);
    EXPECT_EQ(c.o1, &a);
    EXPECT_EQ(c.o2, &b);
  }
}

TEST(FclCollide, SwappedPairReversesTheNormal) {
  const sov::Superovoid a(0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3);
  const fcl::Box<double> box(0.6, 0.8, 0.5);
  const fcl::Sphere<double> sphere(0.4);
  const Transform ta = pose(Vector(0, 0, 0)), tb = pose(Vector(0.6, 0.2, 0.1), 0.3);
  for (const fcl::CollisionGeometry<double>* other :
       {static_cast<const fcl::CollisionGeometry<double>*>(&box), static_cast<const fcl::CollisionGeometry<double>*>(&sphere)}) {
    fcl::Contact<double> c1, c2;
    ASSERT_EQ(hit(a, ta, *other, tb, true, true, &c1), 1u);
    ASSERT_EQ(hit(*other, tb, a, ta, true, true, &c2), 1u);
    EXPECT_NEAR(c1.penetration_depth, c2.penetration_depth, kMprAgreement);
    EXPECT_NEAR((c1.normal + c2.normal).norm(), 0, kMprAgreement);
  }
}

TEST(FclCollide, SuperovoidVsHalfspaceAndPlaneMatchClosedForm) {
  const sov::Superovoid ball(0.5, 0.5, 0.5, 1, 1);
  const fcl::Halfspace<double> half(Vector(0, 0, 1), 0.25);
  const fcl::Plane<double> plane(Vector(0, 0, 1), 0.25);
  for (double h : {0.6, 0.4, -0.2, -0.7}) {  // centre height above z = 0.25
    const Transform tb = pose(Vector(0.3, 0.1, 0.25 + h));
    fcl::Contact<double> c;
    ASSERT_EQ(hit(ball, tb, half, Transform::Identity(), true, true, &c), h < 0.5 ? 1u : 0u);
    if (h < 0.5) {
      EXPECT_NEAR(c.penetration_depth, 0.5 - h, kExactTolerance);
      EXPECT_NEAR((c.normal - Vector(0, 0, -1)).norm(), 0, kExactTolerance);
      EXPECT_NEAR(c.pos.z(), 0.25 + h - 0.5 + 0.5 * (0.5 - h), kExactTolerance);
    }
    const bool crosses = std::abs(h) < 0.5;
    ASSERT_EQ(hit(plane, Transform::Identity(), ball, tb, true, true, &c), crosses ? 1u : 0u);
    if (crosses) {
      EXPECT_NEAR(c.penetration_depth, 0.5 - std::abs(h), kExactTolerance);
      EXPECT_NEAR(c.normal.z(), h > 0 ? 1 : -1, kExactTolerance);  // plane towards ball
    }
  }
}

// A superovoid with eps1 = eps2 = 1 and no taper is FCL's Ellipsoid: every
// pair type gives the same flag, and GJK pairs the same MPR depth.
TEST(FclCollide, EllipsoidEquivalenceForEveryPairType) {
  const sov::Superovoid as_sov(0.5, 0.3, 0.4, 1, 1);
  const fcl::Ellipsoid<double> as_fcl(0.5, 0.3, 0.4);
  auto others = sov_test::gjkShapes();
  const std::size_t gjk_count = others.size();
  others.push_back(std::make_shared<fcl::Sphere<double>>(0.3));
  others.push_back(std::make_shared<fcl::Ellipsoid<double>>(0.2, 0.5, 0.3));
  others.push_back(std::make_shared<fcl::Halfspace<double>>(Vector(0.3, 0.2, 1), 0.1));
  others.push_back(std::make_shared<fcl::Plane<double>>(Vector(0.3, 0.2, 1), 0.1));
  const Transform ta = pose(Vector(0.05, -0.1, 0.1), 0.5, Vector(1, 2, 3));
  for (std::size_t k = 0; k < others.size(); ++k) {
    const auto& other = others[k];
    int hits = 0, misses = 0;
    for (const Transform& tb : sov_test::randomPoses(60, 0.9, 13)) {
      // Distance from FCL to the exact answer: the superovoid's.
      fcl::DistanceResult<double> exact;
      const double d = sov::distance(&as_sov, ta, other.get(), tb,
                                     fcl::DistanceRequest<double>(false, true), exact);
      if (std::abs(d) < kFlagMargin) continue;
      fcl::Contact<double> ref, got, got_swapped;
      const std::size_t n_ref = hit(as_fcl, ta, *other, tb, false, true, &ref);
      EXPECT_EQ(hit(as_sov, ta, *other, tb, true, false), n_ref) << "node type " << other->getNodeType();
      EXPECT_EQ(hit(as_sov, ta, *other, tb, true, true, &got), n_ref);
      EXPECT_EQ(hit(*other, tb, as_sov, ta, true, true, &got_swapped), n_ref);
      EXPECT_EQ(n_ref, d < 0 ? 1u : 0u) << "node type " << other->getNodeType();
      if (n_ref == 0) {
        ++misses;
        continue;
      }
      ++hits;
      if (k < gjk_count) {  // same algorithm (MPR) on the same body
        EXPECT_NEAR(got.penetration_depth, ref.penetration_depth, kMprAgreement);
        EXPECT_NEAR((got.normal - ref.normal).norm(), 0, kMprAgreement);
      } else {  // exact: -d
        EXPECT_NEAR(got.penetration_depth, -d, kExactTolerance);
        EXPECT_NEAR(got_swapped.penetration_depth, -d, kExactTolerance);
      }
    }
    EXPECT_GT(hits, 5) << "node type " << other->getNodeType();
    EXPECT_GT(misses, 5) << "node type " << other->getNodeType();
  }
}

// Pairs without a superovoid reach fcl::collide untouched.
TEST(FclCollide, ForwardedPairsAreBitIdentical) {
  const fcl::Box<double> box(0.6, 0.8, 0.5);
  const fcl::Sphere<double> sphere(0.3);
  const fcl::Cylinder<double> cylinder(0.35, 0.7);
  const fcl::Ellipsoid<double> ellipsoid(0.5, 0.3, 0.4);
  const std::pair<const fcl::CollisionGeometry<double>*, const fcl::CollisionGeometry<double>*>
      pairs[] = {{&box, &sphere}, {&ellipsoid, &cylinder}, {&sphere, &sphere}};
  for (const auto& [a, b] : pairs) {
    for (const Transform& tb : sov_test::randomPoses(20, 0.7, 5)) {
      fcl::Contact<double> c1, c2;
      const std::size_t n = hit(*a, Transform::Identity(), *b, tb, true, true, &c1);
      ASSERT_EQ(n, hit(*a, Transform::Identity(), *b, tb, false, true, &c2));
      if (n == 0) continue;
      EXPECT_EQ(c1.pos, c2.pos);
      EXPECT_EQ(c1.normal, c2.normal);
      EXPECT_EQ(c1.penetration_depth, c2.penetration_depth);
    }
  }
}

// Pairs that libccd answers are first tried on the two shapes' bounding
// boxes, whose separating axes prove "apart". Bodies made to overlap by a
// point inside both must still collide, in either order, at any pose: a
// point kFlagMargin inside the superovoid's surface (libccd decides only to
// its tolerance) met by one kFlagMargin inside an extreme point of the other
// shape (a box corner, a cylinder's rim, a cone's apex, a capsule's pole),
// where the two bounding boxes overlap least.
TEST(FclCollide, OverlapsAtTheShapesExtremePointsAreFound) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> gauss(0.0, 1.0);
  const auto unitVector = [&] {
    Vector v(gauss(rng), gauss(rng), gauss(rng));
    return Vector(v.normalized());
  };
  const auto rotation = [&] {
    Eigen::Quaterniond q(gauss(rng), gauss(rng), gauss(rng), gauss(rng));
    return q.normalized().toRotationMatrix();
  };
  const fcl::Box<double> box(0.6, 0.2, 0.45);
  const fcl::Cylinder<double> cylinder(0.3, 0.7);
  const fcl::Cone<double> cone(0.25, 0.6);
  const fcl::Capsule<double> capsule(0.1, 0.5);
  // Extreme points of each shape, local frame.
  const auto extreme = [&](int kind) -> Vector {
    const double angle = 2 * M_PI * unit(rng);
    const double side = unit(rng) < 0.5 ? -1 : 1;
    switch (kind) {
      case 0:
        return 0.5 * box.side.cwiseProduct(Vector(unit(rng) < 0.5 ? -1 : 1,
                                                  unit(rng) < 0.5 ? -1 : 1, side));
      case 1:
        return Vector(cylinder.radius * std::cos(angle), cylinder.radius * std::sin(angle),
                      side * 0.5 * cylinder.lz);
      case 2:
        return Vector(0, 0, 0.5 * cone.lz);
      default:
        return Vector(0, 0, side * (0.5 * capsule.lz + capsule.radius));
    }
  };
  const fcl::CollisionGeometry<double>* others[] = {&box, &cylinder, &cone, &capsule};
  int pairs = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::array<double, 7> p{0.05 + 0.3 * unit(rng), 0.05 + 0.3 * unit(rng),
                            0.05 + 0.3 * unit(rng), 0.1 + 1.8 * unit(rng),
                            0.1 + 1.8 * unit(rng), 2 * unit(rng) - 1, 2 * unit(rng) - 1};
    double scale = 0;
    ASSERT_EQ(sov_shape_max_taper_scale(&scale, p.data()), SOV_OK);
    p[5] *= 0.9 * scale;
    p[6] *= 0.9 * scale;
    const sov::Superovoid s(p);
    Vector x;
    double h = 0;
    const Vector dir = unitVector();
    ASSERT_EQ(sov_shape_support(x.data(), &h, &s.shape(), dir.data()), SOV_OK);
    // Moved towards the local origin, which is inside each shape.
    const auto inside = [](const Vector& v) { return Vector(v * (1 - kFlagMargin / v.norm())); };
    Transform ts = Transform::Identity();
    ts.linear() = rotation();
    ts.translation() = Vector(unit(rng), unit(rng), unit(rng));
    for (int kind = 0; kind < 4; ++kind) {
      Transform to = Transform::Identity();
      to.linear() = rotation();
      to.translation() = ts * inside(x) - to.linear() * inside(extreme(kind));
      EXPECT_EQ(hit(s, ts, *others[kind], to, true, false), 1u)
          << "shape " << kind << ", trial " << trial;
      EXPECT_EQ(hit(*others[kind], to, s, ts, true, true), 1u)
          << "shape " << kind << ", trial " << trial;
      ++pairs;
    }
  }
  EXPECT_EQ(pairs, 1600);
}

// A superovoid and each GJK primitive (box, capsule, cone, cylinder,
// convex) a small gap apart or overlapping by as much, along the normal of
// their distance: the primitive moved along it from the pair's own answer,
// which for convex bodies makes the gap exact. Collide without contacts
// (libccd's GJK, its "apart" proved by a separating plane) and with them
// both tell the two apart.
TEST(FclCollide, SlightGapsAndOverlapsOfGjkPairsAreToldApart) {
  std::mt19937 rng(41);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const auto shapes = sov_test::gjkShapes();
  int pairs = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::array<double, 7> p{0.1 + 0.3 * unit(rng), 0.1 + 0.3 * unit(rng), 0.1 + 0.3 * unit(rng),
                            0.1 + 1.8 * unit(rng), 0.1 + 1.8 * unit(rng), 2 * unit(rng) - 1,
                            2 * unit(rng) - 1};
    double scale = 0;
    ASSERT_EQ(sov_shape_max_taper_scale(&scale, p.data()), SOV_OK);
    p[5] *= 0.9 * scale;
    p[6] *= 0.9 * scale;
    const sov::Superovoid s(p);
    const auto poses = sov_test::randomPoses(2, 1.0, 100 + trial);
    for (const auto& other : shapes) {
      fcl::DistanceRequest<double> request(true, true);
      request.distance_tolerance = 1e-9;
      fcl::DistanceResult<double> r;
      const double d = sov::distance(&s, poses[0], other.get(), poses[1], request, r);
      if (!(d > 0.01)) continue;  // apart, so that a move along n sets the gap
      const Vector n = (r.nearest_points[1] - r.nearest_points[0]).normalized();
      for (const double gap : {1e-3, -1e-3}) {
        Transform moved = poses[1];
        moved.translation() += (gap - d) * n;
        const std::size_t expected = gap < 0 ? 1 : 0;
        EXPECT_EQ(hit(s, poses[0], *other, moved, true, false), expected)
            << "trial " << trial << ", gap " << gap;
        EXPECT_EQ(hit(*other, moved, s, poses[0], true, false), expected)
            << "trial " << trial << ", gap " << gap;
        EXPECT_EQ(hit(s, poses[0], *other, moved, true, true), expected)
            << "trial " << trial << ", gap " << gap;
        ++pairs;
      }
    }
  }
  EXPECT_GT(pairs, 200);
}

// Mesh vs fcl::Sphere collision is the layer's, in closed form: FCL 0.7's
// sphere-triangle test takes a zero-area triangle (two equal vertices, as
// the iCub hand's meshes have) for a hit with any sphere its tree reaches
// (the normal of such a triangle is zero, so every centre lies "in its
// plane": found by sov_bench_robots icub, a sphere 16 mm from a finger).
// The answer: colliding exactly when some triangle is within the radius of
// the centre, both argument orders, both call forms, every tree type; a
// contact's depth is the radius less its point's distance from the centre.
TEST(FclCollide, MeshVsSphereIsTheClosedForm) {
  const sov::Superovoid body(0.3, 0.2, 0.4, 0.6, 0.8, 0.2, 0.2);
  sov_test::Tessellation t = sov_test::tessellate(body, 12, 24);
  t.triangles.emplace_back(t.triangles[5][0], t.triangles[5][1], t.triangles[5][1]);
  const Transform tm = pose(Vector(0.1, -0.2, 0.05), 0.7, Vector(1, 2, 3));
  std::vector<Vector> world;
  for (const Vector& v : t.vertices) world.push_back(tm * v);
  auto sphere = std::make_shared<fcl::Sphere<double>>(0.15);
  const std::vector<std::shared_ptr<fcl::CollisionGeometry<double>>> meshes = {
      sov_test::meshModel<fcl::OBBRSS<double>>(t), sov_test::meshModel<fcl::RSS<double>>(t),
      sov_test::meshModel<fcl::AABB<double>>(t), sov_test::meshModel<fcl::OBB<double>>(t)};
  int hits = 0, misses = 0;
  for (const auto& mesh : meshes) {
    for (const Transform& ts : sov_test::randomPoses(100, 0.7, 33)) {
      double nearest = std::numeric_limits<double>::infinity();
      for (const fcl::Triangle& tri : t.triangles) {
        nearest = std::min(nearest, sov_test::pointTriangleDistance(
                                        ts.translation(), world[tri[0]], world[tri[1]],
                                        world[tri[2]]));
      }
      if (std::abs(nearest - sphere->radius) < 1e-9) continue;
      const bool expected = nearest < sphere->radius;
      fcl::Contact<double> c;
      EXPECT_EQ(hit(*mesh, tm, *sphere, ts, true, false), expected ? 1u : 0u);
      EXPECT_EQ(hit(*sphere, ts, *mesh, tm, true, true, &c) > 0, expected);
      if (expected) {  // the first triangle found: within the radius, no nearer than the nearest
        EXPECT_NEAR(c.penetration_depth, sphere->radius - (c.pos - ts.translation()).norm(),
                    kExactTolerance);
        EXPECT_GT(c.penetration_depth, 0);
        EXPECT_LE(c.penetration_depth, sphere->radius - nearest + kExactTolerance);
      }
      const fcl::CollisionObject<double> om(mesh, tm), os(sphere, ts);
      fcl::CollisionResult<double> r;
      EXPECT_EQ(sov::collide(&om, &os, fcl::CollisionRequest<double>(), r) > 0, expected);
      (expected ? hits : misses)++;
    }
  }
  EXPECT_GT(hits, 30);
  EXPECT_GT(misses, 30);
}

TEST(FclCollide, CollisionObjectFormMatchesGeometryForm) {
  auto a = std::make_shared<sov::Superovoid>(0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3);
  auto b = std::make_shared<sov::Superovoid>(0.3, 0.3, 0.3, 1, 1);
  const Transform ta = pose(Vector(0.1, 0, 0)), tb = pose(Vector(0.6, 0.3, 0), 0.4);
  const fcl::CollisionObject<double> oa(a, ta), ob(b, tb);
  fcl::CollisionRequest<double> request(1, true);
  fcl::CollisionResult<double> r1, r2;
  ASSERT_EQ(sov::collide(&oa, &ob, request, r1), 1u);
  ASSERT_EQ(sov::collide(a.get(), ta, b.get(), tb, request, r2), 1u);
  EXPECT_EQ(r1.getContact(0).penetration_depth, r2.getContact(0).penetration_depth);
}

TEST(FclCollide, CostSourceIsTheAabbOverlap) {
  const sov::Superovoid a(0.5, 0.5, 0.5, 1, 1);
  const fcl::Box<double> box(1, 1, 1);
  fcl::CollisionRequest<double> request(1, false, 1, true);
  fcl::CollisionResult<double> result;
  ASSERT_EQ(sov::collide(&a, Transform::Identity(), &box, pose(Vector(0.8, 0, 0)), request, result), 1u);
  std::vector<fcl::CostSource<double>> costs;
  result.getCostSources(costs);
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_NEAR(costs[0].aabb_min.x(), 0.3, kExactTolerance);
  EXPECT_NEAR(costs[0].aabb_max.x(), 0.5, kExactTolerance);
}

TEST(FclCollide, IndependentGjkSolverIsRejected) {
  const sov::Superovoid a(0.5, 0.4, 0.7, 1, 1);
  const fcl::Box<double> box(1, 1, 1);
  fcl::CollisionRequest<double> request;
  request.gjk_solver_type = fcl::GST_INDEP;
  fcl::CollisionResult<double> result;
  try {
    sov::collide(&box, Transform::Identity(), &a, Transform::Identity(), request, result);
    FAIL() << "no exception";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_OPTION);
    EXPECT_NE(std::string(e.what()).find("GST_INDEP"), std::string::npos) << e.what();
  }
}

TEST(FclCollide, TrianglePIsNotSupportedYet) {
  const sov::Superovoid a(0.5, 0.4, 0.7, 1, 1);
  const fcl::TriangleP<double> tri(Vector(-1, -1, 0), Vector(1, -1, 0), Vector(0, 1, 0));
  fcl::CollisionResult<double> result;
  try {
    sov::collide(&a, Transform::Identity(), &tri, Transform::Identity(),
                 fcl::CollisionRequest<double>(), result);
    FAIL() << "no exception";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_OPTION);
    EXPECT_NE(std::string(e.what()).find("triangle"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not supported yet"), std::string::npos) << e.what();
  }
}

TEST(FclCollide, ZeroMaxContactsIsRejected) {
  const sov::Superovoid a(0.5, 0.4, 0.7, 1, 1);
  fcl::CollisionRequest<double> request(0);
  fcl::CollisionResult<double> result;
  EXPECT_THROW(sov::collide(&a, Transform::Identity(), &a, Transform::Identity(), request, result),
               sov::Error);
}

}  // namespace
