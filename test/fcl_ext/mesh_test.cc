// Superovoid vs triangle mesh (fcl::BVHModel, every BV type) through
// sov::collide / sov::distance: a tessellated superovoid against the exact
// superovoid pair, FCL's own Ellipsoid on the same mesh, both argument
// orders, contact normals, bad meshes.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>
#include <superovoid/superovoid.h>

#include "fcl_test_util.h"
#include "superovoid/fcl/collision.h"
#include "superovoid/fcl/distance.h"
#include "superovoid/fcl/error.h"
#include "superovoid/fcl/superovoid.h"

namespace {

using sov_test::kGjkAgreement;
using sov_test::kTightGjkTolerance;
using sov_test::pose;
using sov_test::Transform;
using sov_test::Vector;

// The tessellation of the meshed body: bands x segments, and the samples per
// parameter cell side of its chordal-deviation estimate.
constexpr int kBands = 24;
constexpr int kSegments = 48;
constexpr int kDeviationSamples = 6;
// The sampled deviation is an estimate from below; bounds use it times this.
constexpr double kDeviationSafety = 1.25;
// Implicit function F of B at a GJK witness point (B's support points
// mixed): on the surface, to this much (F is dimensionless).
constexpr double kOnSurface = 1e-6;
// Overlaps used for the collision flags are deeper than the deviation by this.
constexpr double kOverlapMargin = 0.01;
// Cases of each kind (separated, overlapping).
constexpr int kCases = 10;

// A posed pair: the meshed body A and the exact body B, with their exact
// signed distance.
struct Case {
  Transform tfA, tfB;
  double d;
};

// The scene every mesh test uses: A, its tessellation and deviation, B, and
// separated and overlapping poses.
struct MeshScene {
  sov::Superovoid A{0.5, 0.4, 0.6, 0.6, 1.0, 0.2, 0.1};
  sov::Superovoid B{0.35, 0.3, 0.45, 0.8, 0.6};
  sov_test::Tessellation mesh = sov_test::tessellate(A, kBands, kSegments);
  double deviation = kDeviationSafety * sov_test::chordalDeviation(A, mesh, kDeviationSamples);
  std::vector<Case> apart, overlapping;
  MeshScene();
};

// The implicit function of s (pose tf) at the world point x.
double implicitAt(const sov::Superovoid& s, const Transform& tf, const Vector& x) {
  const Vector local = tf.inverse() * x;
  double F = 0;
  sov_shape_implicit(&F, nullptr, nullptr, &s.shape(), local.data());
  return F;
}

// True when some point of B (its support point away from A's centre) lies
// outside A, so that B is not inside A's mesh.
bool reachesOutside(const sov::Superovoid& A, const Transform& tfA, const sov::Superovoid& B,
                    const Transform& tfB) {
  const Vector dir = (tfB.translation() - tfA.translation()).normalized();
  const Vector local_dir = tfB.linear().transpose() * dir;
  const Vector tip = tfB * B.localSupport(local_dir);
  return implicitAt(A, tfA, tip) > 0;
}

MeshScene::MeshScene() {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> reach(0.45, 1.3);
  const std::vector<Transform> posesA = sov_test::randomPoses(400, 0.3, 11);
  const std::vector<Transform> posesB = sov_test::randomPoses(400, 1.0, 12);
  for (std::size_t i = 0; i < posesA.size(); ++i) {
    if (static_cast<int>(apart.size()) >= kCases &&
        static_cast<int>(overlapping.size()) >= kCases) {
      break;
    }
    Transform tfB = posesB[i];
    tfB.translation() = posesA[i].translation() + reach(rng) * posesB[i].translation().normalized();
    fcl::DistanceResult<double> r;
    const double d = sov::distance(&A, posesA[i], &B, tfB, fcl::DistanceRequest<double>(), r);
    if (d > 0 && static_cast<int>(apart.size()) < kCases) {
      apart.push_back({posesA[i], tfB, d});
    } else if (d < -(deviation + kOverlapMargin) && reachesOutside(A, posesA[i], B, tfB) &&
               static_cast<int>(overlapping.size()) < kCases) {
      overlapping.push_back({posesA[i], tfB, d});
    }
  }
}

const MeshScene& scene() {
  static const MeshScene s;
  return s;
}

fcl::DistanceRequest<double> tightRequest() {
  return fcl::DistanceRequest<double>(true, false, 0.0, 0.0, kTightGjkTolerance);
}

template <class BV>
class FclMesh : public ::testing::Test {
 protected:
  // A's tessellation with this test's BV type (built once per type).
  static const fcl::BVHModel<BV>& meshA() {
    static const auto model = sov_test::meshModel<BV>(scene().mesh);
    return *model;
  }
};

using BVTypes = ::testing::Types<fcl::OBBRSS<double>, fcl::OBB<double>, fcl::RSS<double>,
                                 fcl::AABB<double>, fcl::kIOS<double>, fcl::KDOP<double, 16>,
                                 fcl::KDOP<double, 18>, fcl::KDOP<double, 24>>;
TYPED_TEST_SUITE(FclMesh, BVTypes);

TYPED_TEST(FclMesh, SceneHasEnoughCases) {
  EXPECT_EQ(static_cast<int>(scene().apart.size()), kCases);
  EXPECT_EQ(static_cast<int>(scene().overlapping.size()), kCases);
  EXPECT_GT(scene().deviation, 0.0);
  EXPECT_LT(scene().deviation, 0.01);
}

// Mesh inside the convex body A and within the deviation of its surface:
// d(A, B) <= d(mesh, B) <= d(A, B) + deviation when apart; a collision
// exactly when the bodies overlap deeper than the deviation.
TYPED_TEST(FclMesh, TessellationMatchesExactSuperovoidPair) {
  const MeshScene& s = scene();
  for (const Case& c : s.apart) {
    fcl::DistanceResult<double> r;
    const double d = sov::distance(&this->meshA(), c.tfA, &s.B, c.tfB, tightRequest(), r);
    EXPECT_GE(d, c.d - kGjkAgreement);
    EXPECT_LE(d, c.d + s.deviation + kGjkAgreement);
    EXPECT_NEAR((r.nearest_points[1] - r.nearest_points[0]).norm(), d, kGjkAgreement);
    EXPECT_NEAR(implicitAt(s.B, c.tfB, r.nearest_points[1]), 0.0, kOnSurface);  // world frame
    fcl::CollisionResult<double> cr;
    EXPECT_EQ(sov::collide(&this->meshA(), c.tfA, &s.B, c.tfB, fcl::CollisionRequest<double>(), cr),
              0u);
  }
  for (const Case& c : s.overlapping) {
    fcl::CollisionResult<double> cr;
    EXPECT_EQ(sov::collide(&this->meshA(), c.tfA, &s.B, c.tfB, fcl::CollisionRequest<double>(), cr),
              1u);
    fcl::DistanceResult<double> r;
    EXPECT_LE(sov::distance(&this->meshA(), c.tfA, &s.B, c.tfB, tightRequest(), r), 0.0);
  }
}

// (mesh, superovoid) and (superovoid, mesh) run the same computation: the
// same distance with the nearest points swapped, the same contacts mirrored.
TYPED_TEST(FclMesh, ArgumentOrdersAgree) {
  const MeshScene& s = scene();
  std::vector<Case> cases = s.apart;
  cases.insert(cases.end(), s.overlapping.begin(), s.overlapping.end());
  const fcl::CollisionRequest<double> request(1000, true);
  for (const Case& c : cases) {
    const fcl::BVHModel<TypeParam>& mesh = this->meshA();
    fcl::DistanceResult<double> mesh_first, mesh_second;
    const double d1 = sov::distance(&mesh, c.tfA, &s.B, c.tfB, tightRequest(), mesh_first);
    const double d2 = sov::distance(&s.B, c.tfB, &mesh, c.tfA, tightRequest(), mesh_second);
    EXPECT_EQ(d1, d2);
    EXPECT_EQ(mesh_first.nearest_points[0], mesh_second.nearest_points[1]);
    EXPECT_EQ(mesh_first.nearest_points[1], mesh_second.nearest_points[0]);
    EXPECT_EQ(mesh_first.b1, mesh_second.b2);
    EXPECT_EQ(mesh_second.o1, &s.B);

    fcl::CollisionResult<double> r1, r2;
    const std::size_t n = sov::collide(&mesh, c.tfA, &s.B, c.tfB, request, r1);
    ASSERT_EQ(sov::collide(&s.B, c.tfB, &mesh, c.tfA, request, r2), n);
    for (std::size_t k = 0; k < n; ++k) {
      const fcl::Contact<double>& a = r1.getContact(k);
      const fcl::Contact<double>& b = r2.getContact(k);
      EXPECT_EQ(a.o1, b.o2);
      EXPECT_EQ(a.b1, b.b2);
      EXPECT_EQ(a.normal, -b.normal);
      EXPECT_EQ(a.pos, b.pos);
      EXPECT_EQ(a.penetration_depth, b.penetration_depth);
    }
  }
}

// Contacts and distance results point at the caller's mesh and superovoid
// in both argument orders, for every tree (FCL's AABB and k-DOP colliders and
// the layer's AABB, OBB and k-DOP distance run on copies of the mesh).
TYPED_TEST(FclMesh, ResultsPointAtTheCallersGeometry) {
  const MeshScene& s = scene();
  std::vector<Case> cases = s.apart;
  cases.insert(cases.end(), s.overlapping.begin(), s.overlapping.end());
  const fcl::CollisionRequest<double> request(1000, true);
  const fcl::CollisionGeometry<double>* mesh = &this->meshA();
  const fcl::CollisionGeometry<double>* body = &s.B;
  std::size_t contacts = 0;
  for (const Case& c : cases) {
    fcl::DistanceResult<double> d1, d2;
    sov::distance(mesh, c.tfA, body, c.tfB, tightRequest(), d1);
    sov::distance(body, c.tfB, mesh, c.tfA, tightRequest(), d2);
    EXPECT_EQ(d1.o1, mesh);
    EXPECT_EQ(d1.o2, body);
    EXPECT_EQ(d2.o1, body);
    EXPECT_EQ(d2.o2, mesh);

    fcl::CollisionResult<double> r1, r2;
    sov::collide(mesh, c.tfA, body, c.tfB, request, r1);
    sov::collide(body, c.tfB, mesh, c.tfA, request, r2);
    for (std::size_t k = 0; k < r1.numContacts(); ++k) {
      EXPECT_EQ(r1.getContact(k).o1, mesh);
      EXPECT_EQ(r1.getContact(k).o2, body);
    }
    for (std::size_t k = 0; k < r2.numContacts(); ++k) {
      EXPECT_EQ(r2.getContact(k).o1, body);
      EXPECT_EQ(r2.getContact(k).o2, mesh);
    }
    contacts += r1.numContacts() + r2.numContacts();
  }
  EXPECT_GT(contacts, 0u);
}

// The same mesh against a superovoid ellipsoid and FCL's own Ellipsoid:
// the same collision flags; the same distance within GJK tolerance (for
// RSS, kIOS and OBBRSS trees: FCL 0.7 has no mesh-shape distance for AABB,
// OBB and k-DOP trees).
TYPED_TEST(FclMesh, MatchesFclEllipsoidOnTheSameMesh) {
  using BV = TypeParam;
  constexpr bool kFclHasDistance = std::is_same_v<BV, fcl::RSS<double>> ||
                                   std::is_same_v<BV, fcl::kIOS<double>> ||
                                   std::is_same_v<BV, fcl::OBBRSS<double>>;
  const sov::Superovoid ours(0.35, 0.3, 0.45, 1, 1);
  const fcl::Ellipsoid<double> theirs(0.35, 0.3, 0.45);
  const MeshScene& s = scene();
  std::vector<Case> cases = s.apart;
  cases.insert(cases.end(), s.overlapping.begin(), s.overlapping.end());
  for (const Case& c : cases) {
    fcl::CollisionResult<double> r1, r2;
    const fcl::CollisionRequest<double> request;
    EXPECT_EQ(sov::collide(&this->meshA(), c.tfA, &ours, c.tfB, request, r1),
              fcl::collide(&this->meshA(), c.tfA, &theirs, c.tfB, request, r2));
    if (!kFclHasDistance) continue;
    fcl::DistanceResult<double> d1, d2;
    const double ours_d = sov::distance(&this->meshA(), c.tfA, &ours, c.tfB, tightRequest(), d1);
    const double theirs_d =
        fcl::distance(&this->meshA(), c.tfA, &theirs, c.tfB, tightRequest(), d2);
    if (theirs_d > 0) {
      EXPECT_NEAR(ours_d, theirs_d, kGjkAgreement);
    } else {
      EXPECT_EQ(ours_d, theirs_d);  // FCL's -1: no penetration depth
    }
  }
}

// Every BV type's tree gives the same distance as the AABB tree (the bounds
// prune, the smallest triangle distance is the same).
TYPED_TEST(FclMesh, EveryTreeGivesTheAabbTreesDistance) {
  const MeshScene& s = scene();
  const auto aabb = sov_test::meshModel<fcl::AABB<double>>(s.mesh);
  for (const Case& c : s.apart) {
    fcl::DistanceResult<double> r1, r2;
    EXPECT_NEAR(sov::distance(&this->meshA(), c.tfA, &s.B, c.tfB, tightRequest(), r1),
                sov::distance(aabb.get(), c.tfA, &s.B, c.tfB, tightRequest(), r2), kGjkAgreement);
  }
}

// Two triangles spanning z = 0 and a unit-radius superovoid sphere resting
// 0.2 deep in them: contacts point from o1 to o2 in both orders.
TEST(FclMeshContact, NormalsPointFromFirstToSecond) {
  fcl::BVHModel<fcl::OBBRSS<double>> floor;
  floor.beginModel();
  floor.addTriangle(Vector(-2, -2, 0), Vector(2, -2, 0), Vector(2, 2, 0));
  floor.addTriangle(Vector(-2, -2, 0), Vector(2, 2, 0), Vector(-2, 2, 0));
  floor.endModel();
  const sov::Superovoid ball(1, 1, 1, 1, 1);
  const Transform above = pose(Vector(0.1, -0.2, 0.8));
  const fcl::CollisionRequest<double> request(10, true);
  fcl::CollisionResult<double> r1, r2;
  ASSERT_GE(sov::collide(&floor, Transform::Identity(), &ball, above, request, r1), 1u);
  ASSERT_GE(sov::collide(&ball, above, &floor, Transform::Identity(), request, r2), 1u);
  EXPECT_NEAR(r1.getContact(0).normal.z(), 1.0, kGjkAgreement);
  EXPECT_NEAR(r2.getContact(0).normal.z(), -1.0, kGjkAgreement);
  EXPECT_EQ(r2.getContact(0).o1, &ball);
}

// FCL's mesh-shape distance has no penetration depth: once a triangle
// intersects the shape, libccd's GJK answers -1, and so does the pair.
TEST(FclMeshDistance, OverlapGivesFclsMinusOne) {
  fcl::BVHModel<fcl::OBBRSS<double>> tri;
  tri.beginModel();
  tri.addTriangle(Vector(-1, -1, 0), Vector(1, -1, 0), Vector(0, 1, 0));
  tri.endModel();
  const sov::Superovoid ball(0.5, 0.5, 0.5, 1, 1);
  fcl::DistanceResult<double> r;
  const fcl::DistanceRequest<double> signed_request(true, true);
  EXPECT_EQ(sov::distance(&tri, Transform::Identity(), &ball, pose(Vector(0, 0, 0.3)),
                          signed_request, r),
            -1.0);
}

// A BVHModel that is not a built triangle mesh: a point cloud, or triangles
// without endModel().
TEST(FclMeshErrors, UnbuiltMeshAndPointCloudAreRejected) {
  const sov::Superovoid ball(0.5, 0.5, 0.5, 1, 1);
  fcl::BVHModel<fcl::AABB<double>> unbuilt, cloud;
  unbuilt.beginModel();
  unbuilt.addTriangle(Vector(0, 0, 0), Vector(1, 0, 0), Vector(0, 1, 0));
  cloud.beginModel();
  cloud.addVertex(Vector(0, 0, 0));
  cloud.addVertex(Vector(1, 0, 0));
  cloud.endModel();
  for (const fcl::CollisionGeometry<double>* mesh :
       std::vector<const fcl::CollisionGeometry<double>*>{&unbuilt, &cloud}) {
    fcl::DistanceResult<double> r;
    try {
      sov::distance(mesh, Transform::Identity(), &ball, pose(Vector(0, 0, 2)),
                    fcl::DistanceRequest<double>(), r);
      FAIL() << "no exception";
    } catch (const sov::Error& e) {
      EXPECT_EQ(e.status(), SOV_ERR_OPTION);
      EXPECT_NE(std::string(e.what()).find("not a built triangle mesh"), std::string::npos)
          << e.what();
    }
    fcl::CollisionResult<double> cr;
    EXPECT_THROW(sov::collide(&ball, pose(Vector(0, 0, 2)), mesh, Transform::Identity(),
                              fcl::CollisionRequest<double>(), cr),
                 sov::Error);
  }
}

}  // namespace
