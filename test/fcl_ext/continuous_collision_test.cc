// sov::continuousCollide: a sweep through a box reports the contact (plain
// FCL reports none), superovoid pairs equal the C core's
// sov_time_of_contact, GJK primitive and mesh pairs are never later than
// dense sampling of sov::collide and within its step, the motion types,
// the overloads, forwarding, and the errors.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include <fcl/math/motion/interp_motion.h>
#include <fcl/math/motion/screw_motion.h>
#include <fcl/math/motion/spline_motion.h>
#include <fcl/math/motion/translation_motion.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/geometry/shape/triangle_p.h>
#include <fcl/narrowphase/continuous_collision.h>

#include "fcl_test_util.h"
#include "superovoid/fcl.h"

namespace {

using sov_test::GeometryPtr;
using sov_test::pose;
using sov_test::toPose;
using sov_test::Transform;
using sov_test::Vector;
using Request = fcl::ContinuousCollisionRequest<double>;
using Result = fcl::ContinuousCollisionResult<double>;

// Steps of the dense sampling the answers are checked against.
constexpr int kSamples = 1000;
// The layer's distance tolerance at contact, plus GJK's error at 1e-10.
constexpr double kContactDistance = sov::kContinuousDistanceTolerance + 1e-7;

// FCL's InterpMotion about the local origin from tf0 to tf1. (FCL 0.7's
// InterpMotion(tf0, tf1) leaves its reference point uninitialised.)
std::shared_ptr<fcl::InterpMotion<double>> interp(const Transform& tf0, const Transform& tf1) {
  return std::make_shared<fcl::InterpMotion<double>>(tf0.linear(), tf0.translation(),
                                                     tf1.linear(), tf1.translation(),
                                                     Vector::Zero());
}

// A request for FCL's linear motion (InterpMotion) and no time tolerance:
// contact at d <= 1e-6.
Request linearRequest() {
  Request r;
  r.ccd_motion_type = fcl::CCDM_LINEAR;
  r.toc_err = 0;
  return r;
}

// First t = k / samples at which sov::collide reports a contact along
// motions m1, m2 (2 when none).
double firstSampledContact(const fcl::CollisionGeometry<double>* o1,
                           const fcl::MotionBase<double>& m1,
                           const fcl::CollisionGeometry<double>* o2,
                           const fcl::MotionBase<double>& m2, int samples) {
  for (int k = 0; k <= samples; ++k) {
    const double t = static_cast<double>(k) / samples;
    Transform tf1, tf2;
    m1.integrate(t);
    m2.integrate(t);
    m1.getCurrentTransform(tf1);
    m2.getCurrentTransform(tf2);
    fcl::CollisionRequest<double> request;
    fcl::CollisionResult<double> result;
    if (sov::collide(o1, tf1, o2, tf2, request, result) > 0) return t;
  }
  return 2;
}

// The layer's signed distance at given poses (0 for a touching mesh).
double distanceAt(const fcl::CollisionGeometry<double>* o1, const Transform& tf1,
                  const fcl::CollisionGeometry<double>* o2, const Transform& tf2) {
  return sov::separation(o1, tf1, o2, tf2, 1e-10).distance;
}

TEST(FclContinuous, SweepThroughABoxReportsTheContact) {
  // A round superovoid of radius 0.1 flies along x through a box whose
  // faces are at x = +-0.5: contact when its centre reaches x = -0.6.
  auto ball = std::make_shared<sov::Superovoid>(0.1, 0.1, 0.1, 1.0, 1.0);
  auto box = std::make_shared<fcl::Box<double>>(1.0, 1.0, 1.0);
  const Transform beg = pose(Vector(-2, 0, 0)), end = pose(Vector(2, 0, 0), 1.0);
  const Transform still = Transform::Identity();
  Request request;  // FCL's defaults: naive solver, 10 samples, CCDM_TRANS
  Result result;
  sov::ContinuousContact contact;
  const double toc =
      sov::continuousCollide(ball.get(), beg, end, box.get(), still, still, request, result,
                             &contact);
  EXPECT_TRUE(result.is_collide);
  EXPECT_EQ(toc, result.time_of_contact);
  const double expected = 1.4 / 4.0;
  EXPECT_LE(toc, expected);
  EXPECT_NEAR(toc, expected, 1e-3);  // toc_err 1e-4 of FCL's default
  EXPECT_NEAR(result.contact_tf1.translation()[0], -2 + 4 * toc, 1e-12);
  EXPECT_TRUE(result.contact_tf1.linear().isApprox(beg.linear()));  // CCDM_TRANS
  EXPECT_NEAR(contact.normal[0], 1, 1e-3);
  EXPECT_NEAR(contact.point[0], -0.5, 1e-3);
  EXPECT_TRUE(contact.certified);
  // Plain FCL answers the same pair with no collision (it prints "not
  // supported" for each of its samples): the issue's silent wrong answer.
  Result plain;
  fcl::continuousCollide<double>(ball.get(), beg, end, box.get(), still, still, request, plain);
  EXPECT_FALSE(plain.is_collide);
  // With no time tolerance the contact is at a distance of at most 1e-6.
  Result fine;
  const double t_fine = sov::continuousCollide(ball.get(), beg, end, box.get(), still, still,
                                               linearRequest(), fine);
  EXPECT_TRUE(fine.is_collide);
  EXPECT_LE(t_fine, expected);
  EXPECT_NEAR(t_fine, expected, 1e-6);
}

// Random motions crossing past an obstacle near the origin: from x = -2.5
// to 2.5 with random turns and a random offset across.
struct Sweep {
  Transform a0, a1, b0, b1;
};
std::vector<Sweep> sweeps(int count, unsigned seed) {
  const auto poses = sov_test::randomPoses(4 * count, 0.6, seed);
  std::vector<Sweep> out;
  for (int i = 0; i < count; ++i) {
    Sweep s{poses[4 * i], poses[4 * i + 1], poses[4 * i + 2], poses[4 * i + 3]};
    s.a0.translation() += Vector(-2.5, 0, 0);
    s.a1.translation() += Vector(2.5, 0, 0);
    s.b1.translation() = s.b0.translation();
    out.push_back(s);
  }
  return out;
}

TEST(FclContinuous, SuperovoidPairsAreTheCoresTimeOfContact) {
  const auto a = std::make_shared<sov::Superovoid>(0.5, 0.3, 0.4, 0.6, 1.2, 0.2, 0.2);
  const auto b = std::make_shared<sov::Superovoid>(0.3, 0.45, 0.35, 1.4, 0.5);
  int contacts = 0;
  for (const Sweep& s : sweeps(12, 42)) {
    Result result;
    sov::ContinuousContact contact;
    const double toc = sov::continuousCollide(a.get(), s.a0, s.a1, b.get(), s.b0, s.b1,
                                              linearRequest(), result, &contact);
    const sov_motion MA = {toPose(s.a0), toPose(s.a1)}, MB = {toPose(s.b0), toPose(s.b1)};
    sov_toc_options o;
    sov_toc_options_default(&o);
    sov_toc_result r{};
    ASSERT_EQ(sov_time_of_contact(&r, &a->shape(), &MA, &b->shape(), &MB, &o, nullptr), SOV_OK);
    EXPECT_EQ(result.is_collide, r.contact != 0);
    EXPECT_EQ(toc, r.contact ? r.t : 1.0);
    EXPECT_EQ(contact.distance, r.d);
    EXPECT_EQ(contact.steps, static_cast<std::size_t>(r.steps));
    contacts += r.contact;
    // The FCL motion's pose at that time.
    const auto m1 = interp(s.a0, s.a1);
    m1->integrate(toc);
    Transform tf;
    m1->getCurrentTransform(tf);
    EXPECT_TRUE(tf.isApprox(result.contact_tf1, 1e-12));
  }
  EXPECT_GT(contacts, 3);
}

// Checks one pair along the sweeps against dense sampling: a contact is
// never after the first sampled one and within a step of it (or a graze
// within the tolerance), and no contact means no sampled one.
void checkAgainstSampling(const GeometryPtr& a, const GeometryPtr& b, const Request& request,
                          unsigned seed, int* contacts) {
  for (const Sweep& s : sweeps(6, seed)) {
    Result result;
    sov::ContinuousContact contact;
    const double toc = sov::continuousCollide(a.get(), s.a0, s.a1, b.get(), s.b0, s.b1, request,
                                              result, &contact);
    const auto m1 = interp(s.a0, s.a1);
    const auto m2 = interp(s.b0, s.b1);
    const double ts = firstSampledContact(a.get(), *m1, b.get(), *m2, kSamples);
    if (!result.is_collide) {
      EXPECT_GT(ts, 1) << "missed a sampled contact at " << ts;
      continue;
    }
    ++*contacts;
    EXPECT_LE(toc, ts);
    EXPECT_LE(contact.distance, kContactDistance);
    EXPECT_GT(distanceAt(a.get(), result.contact_tf1, b.get(), result.contact_tf2), -1e-7);
    if (ts <= 1) {
      EXPECT_LT(ts - toc, 1.0 / kSamples + 1e-5);
    }
  }
}

TEST(FclContinuous, GjkPrimitivesAreNeverLaterThanSampling) {
  const auto a = std::make_shared<sov::Superovoid>(0.4, 0.3, 0.35, 0.5, 1.3, 0.1, 0.1);
  int contacts = 0;
  unsigned seed = 50;
  for (const GeometryPtr& g : sov_test::gjkShapes()) {
    checkAgainstSampling(a, g, linearRequest(), ++seed, &contacts);
    checkAgainstSampling(g, a, linearRequest(), ++seed, &contacts);
  }
  EXPECT_GT(contacts, 20);
}

// A transform from a row-major rotation and a translation.
Transform rowMajor(const std::array<double, 9>& R, const Vector& p) {
  Transform tf = Transform::Identity();
  for (int i = 0; i < 9; ++i) tf.linear()(i / 3, i % 3) = R[i];
  tf.translation() = p;
  return tf;
}

TEST(FclContinuous, GjkStepsDoNotStallOnARoughDirection) {
  // A Convex box and a superovoid that touch near t = 0.35786: GJK at 1e-6
  // gave d = 2.5e-4 (true 7.6e-5) along a direction whose support gap was
  // 1.4e-6, and the steps shrank to nothing (10,000 steps, no answer).
  const double s = 0x1.af611a810a306p-1;
  auto vertices = std::make_shared<std::vector<Vector>>();
  for (int i = 0; i < 8; ++i) {
    vertices->push_back(Vector(i & 1 ? s : -s, (i & 2 ? s : -s) * 0.7, (i & 4 ? s : -s) * 0.5));
  }
  auto faces = std::make_shared<std::vector<int>>(std::vector<int>{
      4, 0, 2, 3, 1, 4, 4, 5, 7, 6, 4, 0, 1, 5, 4, 4, 2, 6, 7, 3, 4, 0, 4, 6, 2, 4, 1, 3, 7, 5});
  const auto box = std::make_shared<fcl::Convex<double>>(vertices, 6, faces);
  const auto body = std::make_shared<sov::Superovoid>(
      0x1.2553fcede3322p-2, 0x1.5d5adc4325529p-1, 0x1.0c5f0d22c34cdp-2, 0x1.c91e59f0fa2bap-1,
      0x1.11e5fe42bbc7cp+0, 0x1.0db4c0b46b49p-5, 0x1.346d2303f757ap-6);
  const Transform a0 =
      rowMajor({0x1.2133c1d18a2p-10, -0x1.ea3b4c05b514ep-1, -0x1.2768b974b5da3p-2,
                -0x1.5b0fe1e8802f6p-3, -0x1.2351e360580a8p-2, 0x1.e31d20fa83b3cp-1,
                -0x1.f89825512eb34p-1, 0x1.87f630f8331p-5, -0x1.4cf2f23c0c878p-3},
               Vector(0x1.34df419537a07p+0, -0x1.aae9b7b43007bp-1, -0x1.6861d5cb7b4a6p+1));
  const Transform a1 =
      rowMajor({-0x1.505c82ec2afe4p-2, -0x1.b6405215c7836p-1, -0x1.98e081d3f0535p-2,
                -0x1.99192c1aff428p-1, 0x1.b07d4ed65c84p-6, 0x1.33922a41e18e9p-1,
                -0x1.01df27bde2acap-1, 0x1.08617844e742bp-1, -0x1.629c6efa6b5ap-1},
               Vector(-0x1.59a8885a55081p+0, 0x1.1b4d0652936ebp+1, 0x1.9e399766ccc22p-1));
  const Transform b0 =
      rowMajor({0x1.46b17d1ebd5p-9, 0x1.e4505a2de2768p-1, 0x1.4c28c440c9ca5p-2,
                -0x1.7ca481b907b28p-5, -0x1.4bb077feb86d4p-2, 0x1.e3cfbef9b7efap-1,
                0x1.ff7205e3cbc56p-1, -0x1.1d879aa3fae7p-6, 0x1.61721ca07c7bp-5},
               Vector(-0x1.9a3ab28771f0cp-5, 0x1.671bd131ec1a6p-3, -0x1.433a3835d183ep-3));
  const Transform b1 =
      rowMajor({0x1.401496f86b358p-4, 0x1.d41d1de4d0968p-5, -0x1.fd985bc524e2p-1,
                -0x1.fbacf654f7ee8p-1, 0x1.bad2660254118p-4, -0x1.257386cda5d74p-4,
                0x1.a7f92ba82b7ap-4, 0x1.fc2855407e31cp-1, 0x1.0aaf25de6404p-4},
               Vector(0x1.1ca206a76a0b8p-4, 0x1.021b93e60c34p-8, -0x1.40c9e9beb4454p-3));
  Result result;
  sov::ContinuousContact contact;
  const double toc = sov::continuousCollide(box.get(), a0, a1, body.get(), b0, b1, linearRequest(),
                                            result, &contact);
  const auto m1 = interp(a0, a1);
  const auto m2 = interp(b0, b1);
  const double ts = firstSampledContact(box.get(), *m1, body.get(), *m2, kSamples);
  EXPECT_TRUE(result.is_collide);
  EXPECT_LE(toc, ts);
  EXPECT_LT(ts - toc, 1.0 / kSamples);
  EXPECT_LE(distanceAt(box.get(), result.contact_tf1, body.get(), result.contact_tf2),
            kContactDistance);
}

TEST(FclContinuous, MeshesAreNeverLaterThanSampling) {
  const auto a = std::make_shared<sov::Superovoid>(0.4, 0.3, 0.35, 0.5, 1.3, 0.1, 0.1);
  const sov::Superovoid hull_shape(0.5, 0.4, 0.3, 0.3, 0.8);
  const auto mesh = sov_test::meshModel<fcl::OBBRSS<double>>(sov_test::tessellate(hull_shape, 13, 24));
  int contacts = 0;
  checkAgainstSampling(a, mesh, linearRequest(), 60, &contacts);
  checkAgainstSampling(mesh, a, linearRequest(), 61, &contacts);
  EXPECT_GT(contacts, 3);
  // Convex meshes: every step is proved by the hull's supports.
  Result result;
  sov::ContinuousContact contact;
  const Sweep s = sweeps(1, 62)[0];
  sov::continuousCollide(a.get(), s.a0, s.a1, mesh.get(), s.b0, s.b1, linearRequest(), result,
                         &contact);
  EXPECT_TRUE(contact.certified);
}

TEST(FclContinuous, ScrewAndTranslationMotions) {
  const auto a = std::make_shared<sov::Superovoid>(0.4, 0.2, 0.3, 0.7, 0.9);
  const auto box = std::make_shared<fcl::Box<double>>(0.4, 0.4, 0.4);
  int contacts = 0;
  for (const Sweep& s : sweeps(6, 70)) {
    Request request = linearRequest();
    request.ccd_motion_type = fcl::CCDM_SCREW;
    Result result;
    const double toc =
        sov::continuousCollide(a.get(), s.a0, s.a1, box.get(), s.b0, s.b1, request, result);
    fcl::ScrewMotion<double> m1(s.a0, s.a1), m2(s.b0, s.b1);
    const double ts = firstSampledContact(a.get(), m1, box.get(), m2, kSamples);
    contacts += result.is_collide;
    if (!result.is_collide) {
      EXPECT_GT(ts, 1);
      continue;
    }
    EXPECT_LE(toc, ts);
    if (ts <= 1) {
      EXPECT_LT(ts - toc, 1.0 / kSamples + 1e-5);
    }
    // The motion-object overload gives the same answer.
    fcl::ScrewMotion<double> n1(s.a0, s.a1), n2(s.b0, s.b1);
    Result again;
    EXPECT_EQ(sov::continuousCollide(a.get(), &n1, box.get(), &n2, request, again), toc);
  }
  EXPECT_GT(contacts, 1);
  // CCDM_TRANS keeps the start rotation; the core path and the generic
  // path (a translation motion object) agree.
  const Sweep s = sweeps(1, 71)[0];
  Request request = linearRequest();
  request.ccd_motion_type = fcl::CCDM_TRANS;
  const auto b = std::make_shared<sov::Superovoid>(0.3, 0.3, 0.3, 1.0, 1.0);
  Result core, generic;
  const double t1 = sov::continuousCollide(a.get(), s.a0, s.a1, b.get(), s.b0, s.b1, request, core);
  fcl::TranslationMotion<double> m1(s.a0, s.a1), m2(s.b0, s.b1);
  const double t2 = sov::continuousCollide(a.get(), &m1, b.get(), &m2, request, generic);
  EXPECT_EQ(core.is_collide, generic.is_collide);
  EXPECT_NEAR(t1, t2, 1e-6);
  EXPECT_TRUE(core.contact_tf1.linear().isApprox(s.a0.linear()));
}

TEST(FclContinuous, HalfspaceFallIsTheClosedForm) {
  // A ball of radius 0.2 falls from z = 1 to z = -1 onto z <= 0.
  const auto ball = std::make_shared<sov::Superovoid>(0.2, 0.2, 0.2, 1.0, 1.0);
  const auto ground = std::make_shared<fcl::Halfspace<double>>(Vector(0, 0, 1), 0.0);
  Result result;
  const double toc = sov::continuousCollide(ball.get(), pose(Vector(0, 0, 1)),
                                            pose(Vector(0.3, 0, -1), 2.0), ground.get(),
                                            Transform::Identity(), Transform::Identity(),
                                            linearRequest(), result);
  EXPECT_TRUE(result.is_collide);
  EXPECT_LE(toc, 0.4);
  EXPECT_NEAR(toc, 0.4, 1e-6);
}

// A ball of radius 0.3 falling 10 along the normal of a plane or halfspace
// that does not move (tilted: its R R^T is not exactly I) first touches it
// at (5 - 0.3) / 10.
struct FallOntoStillPlane {
  std::shared_ptr<sov::Superovoid> ball =
      std::make_shared<sov::Superovoid>(0.3, 0.3, 0.3, 1.0, 1.0);
  std::vector<GeometryPtr> planes = {std::make_shared<fcl::Halfspace<double>>(Vector(0, 0, 1), 0.0),
                                     std::make_shared<fcl::Plane<double>>(Vector(0, 0, 1), 0.0)};
  static constexpr double kFirstContact = 0.47;

  // Expects the contact, at kFirstContact and not after it.
  static void expectContact(const Result& result, double toc) {
    EXPECT_TRUE(result.is_collide);
    EXPECT_LE(toc, kFirstContact);
    EXPECT_NEAR(toc, kFirstContact, 1e-6);
  }
};

TEST(FclContinuous, StillTiltedPlanesAreAnswered) {
  const FallOntoStillPlane fall;
  for (const Transform& tilt : sov_test::randomPoses(100, 0.0, 81)) {
    const Transform beg = tilt * pose(Vector(0, 0, 5)), end = tilt * pose(Vector(0, 0, -5));
    for (const GeometryPtr& still : fall.planes) {
      Result result;
      const double toc = sov::continuousCollide(fall.ball.get(), beg, end, still.get(), tilt, tilt,
                                                linearRequest(), result);
      FallOntoStillPlane::expectContact(result, toc);
    }
  }
}

TEST(FclContinuous, StillTiltedPlaneMotionsAreAnswered) {
  // FallOntoStillPlane, the plane's motion an fcl::InterpMotion object (so a
  // ContinuousCollisionObject's) between two equal tilted rotations, or
  // rotations one ulp apart in every entry: FCL records a turn of about
  // 1e-16 rad, which a plane (no speed bound) was refused for.
  const FallOntoStillPlane falling;
  for (const Transform& tilt : sov_test::randomPoses(50, 0.0, 82)) {
    Transform nudged = tilt;
    for (int i = 0; i < 9; ++i) {
      double& x = nudged.linear().data()[i];
      x = std::nextafter(x, 2.0);
    }
    const auto fall = interp(tilt * pose(Vector(0, 0, 5)), tilt * pose(Vector(0, 0, -5)));
    for (const Transform& end : {tilt, nudged}) {
      const auto still = interp(tilt, end);
      for (const GeometryPtr& g : falling.planes) {
        Result result;
        const double toc = sov::continuousCollide(falling.ball.get(), fall.get(), g.get(),
                                                  still.get(), linearRequest(), result);
        FallOntoStillPlane::expectContact(result, toc);
        const fcl::ContinuousCollisionObject<double> cball(falling.ball, fall), cplane(g, still);
        Result again;
        EXPECT_EQ(sov::collide(&cball, &cplane, linearRequest(), again), toc);
      }
    }
  }
}

TEST(FclContinuous, FarAndHugeGjkPairsMeetAtTheClosedFormTime) {
  // A ball superovoid of radius s from c + 5 s to c - 5 s along x towards
  // a box of half side s (libccd's GJK) or a sphere of radius s at c (c on
  // the diagonal), no time tolerance, every motion type: first contact at
  // t = 0.3, closing speed 10 s. Far from the origin the libccd pair
  // stalled above the gap's rounding allowance, or threw on GJK's NaN
  // points where it reached touching (3e7, 1e8); the contact distance is
  // now the core's rounding floor there, at most that of t = 0 (the
  // ball's nearest point within its radius of its origin: scale
  // |c A| + |c B| + 2 (|c B| + s)).
  struct Case {
    double s, c;
  };
  for (const Case& k :
       {Case{1, 1e6}, Case{1, 1e7}, Case{1, 3e7}, Case{1, 1e8}, Case{1, 1e9}, Case{1e8, 0}}) {
    const auto ball = std::make_shared<sov::Superovoid>(k.s, k.s, k.s, 1.0, 1.0);
    const auto box = std::make_shared<fcl::Box<double>>(2 * k.s, 2 * k.s, 2 * k.s);
    const auto sphere = std::make_shared<fcl::Sphere<double>>(k.s);
    const Vector c(k.c, k.c, k.c);
    const Transform beg = pose(c + Vector(5 * k.s, 0, 0)), end = pose(c - Vector(5 * k.s, 0, 0));
    const double pA = c.norm(), pB = (c + Vector(5 * k.s, 0, 0)).norm();
    double floor = 0;
    ASSERT_EQ(sov_toc_rounding_floor(nullptr, &floor, pA + pB + 2 * (pB + k.s),
                                     sov::kContinuousDistanceTolerance),
              SOV_OK);
    for (const GeometryPtr& other : {GeometryPtr(box), GeometryPtr(sphere)}) {
      for (const auto type : {fcl::CCDM_TRANS, fcl::CCDM_LINEAR, fcl::CCDM_SCREW}) {
        Request request = linearRequest();
        request.ccd_motion_type = type;
        Result result;
        double toc = -1;
        EXPECT_NO_THROW(toc = sov::continuousCollide(ball.get(), beg, end, other.get(), pose(c),
                                                     pose(c), request, result))
            << "s " << k.s << " c " << k.c << " type " << type;
        EXPECT_TRUE(result.is_collide) << "s " << k.s << " c " << k.c << " type " << type;
        EXPECT_NEAR(toc, 0.3, floor / (10 * k.s))
            << "s " << k.s << " c " << k.c << " type " << type;
      }
    }
    // The pair touching there: an answer, not libccd's NaN points; for the
    // unit bodies within the floor. (At size 1e8 the core's GJK stops at
    // its documented rounding of the direction, an ulp of size^2 / d.)
    fcl::DistanceRequest<double> request(true, true);
    fcl::DistanceResult<double> answer;
    double d = -1;
    EXPECT_NO_THROW(d = sov::distance(ball.get(), pose(c + Vector(2 * k.s, 0, 0)), box.get(),
                                      pose(c), request, answer));
    if (k.s == 1) {
      EXPECT_LE(std::abs(d), floor) << "c " << k.c;
    }
  }
}

TEST(FclContinuous, ScrewOfOneRotationFollowsTheSegment) {
  // FCL 0.7's ScrewMotion between poses of one rotation moves |o| o; the
  // layer moves a ball of radius 0.3 from tf_beg to tf_end onto z <= 0:
  // first contact where its centre is at z = 0.3.
  const auto ball = std::make_shared<sov::Superovoid>(0.3, 0.3, 0.3, 1.0, 1.0);
  const auto ground = std::make_shared<fcl::Halfspace<double>>(Vector(0, 0, 1), 0.0);
  const auto sphere = std::make_shared<fcl::Sphere<double>>(0.2);
  Request screw = linearRequest();
  screw.ccd_motion_type = fcl::CCDM_SCREW;
  const Transform still = Transform::Identity();
  struct Fall {
    double z0, z1, turn;  // start and end height, rotation of the end (rad)
  };
  for (const Fall& f : {Fall{1.0, 0.2, 0.0}, Fall{3.0, -1.0, 0.0}, Fall{1.0, 0.2, 1e-11}}) {
    const double first = (f.z0 - 0.3) / (f.z0 - f.z1);
    const Transform beg = pose(Vector(0.1, 0, f.z0), 0.7),
                    end = pose(Vector(0.1, 0, f.z1), 0.7 + f.turn);
    Result result;
    const double toc =
        sov::continuousCollide(ball.get(), beg, end, ground.get(), still, still, screw, result);
    EXPECT_TRUE(result.is_collide);
    EXPECT_LE(toc, first);
    EXPECT_NEAR(toc, first, 1e-6);
    EXPECT_NEAR(result.contact_tf1.translation()[2], 0.3, 1e-6);
    // A core pair too: the sphere of radius 0.2 at z = -0.2 is first touched
    // at the same time.
    Result core;
    const double t2 =
        sov::continuousCollide(ball.get(), beg, end, sphere.get(), pose(Vector(0.1, 0, -0.2)),
                               pose(Vector(0.1, 0, -0.2)), screw, core);
    EXPECT_TRUE(core.is_collide);
    EXPECT_LE(t2, first);
    EXPECT_NEAR(t2, first, 1e-6);
  }
}

TEST(FclContinuous, OverlapAtTheStartAndObjectOverloads) {
  const auto a = std::make_shared<sov::Superovoid>(0.5, 0.5, 0.5, 0.8, 0.8);
  const auto box = std::make_shared<fcl::Box<double>>(1.0, 1.0, 1.0);
  fcl::CollisionObject<double> oa(a, pose(Vector(0.8, 0, 0))), ob(box, Transform::Identity());
  Result result;
  EXPECT_EQ(sov::continuousCollide(&oa, pose(Vector(3, 0, 0)), &ob, Transform::Identity(),
                                   linearRequest(), result),
            0.0);
  EXPECT_TRUE(result.is_collide);
  // ContinuousCollisionObject (FCL's collide overload): same as the
  // geometry form.
  auto m1 = interp(pose(Vector(-3, 0.2, 0)), pose(Vector(3, 0.2, 0), 1.0));
  auto m2 = interp(Transform::Identity(), Transform::Identity());
  fcl::ContinuousCollisionObject<double> ca(a, m1), cb(box, m2);
  Result r1, r2;
  const double t1 = sov::collide(&ca, &cb, linearRequest(), r1);
  const double t2 = sov::continuousCollide(a.get(), pose(Vector(-3, 0.2, 0)),
                                           pose(Vector(3, 0.2, 0), 1.0), box.get(),
                                           Transform::Identity(), Transform::Identity(),
                                           linearRequest(), r2);
  EXPECT_TRUE(r1.is_collide);
  EXPECT_NEAR(t1, t2, 1e-9);
}

TEST(FclContinuous, PairsWithoutASuperovoidAreFcls) {
  const auto s = std::make_shared<fcl::Sphere<double>>(0.2);
  const auto box = std::make_shared<fcl::Box<double>>(1.0, 1.0, 1.0);
  Request request;
  request.ccd_solver_type = fcl::CCDC_CONSERVATIVE_ADVANCEMENT;
  Result ours, theirs;
  const Transform beg = pose(Vector(-3, 0, 0)), end = pose(Vector(3, 0, 0));
  const Transform still = Transform::Identity();
  const double t1 =
      sov::continuousCollide(s.get(), beg, end, box.get(), still, still, request, ours);
  const double t2 =
      fcl::continuousCollide<double>(s.get(), beg, end, box.get(), still, still, request, theirs);
  EXPECT_EQ(t1, t2);
  EXPECT_EQ(ours.is_collide, theirs.is_collide);
  EXPECT_EQ(ours.time_of_contact, theirs.time_of_contact);
}

TEST(FclContinuous, ErrorsAreSovErrors) {
  const auto a = std::make_shared<sov::Superovoid>(0.5, 0.5, 0.5, 0.8, 0.8);
  const auto box = std::make_shared<fcl::Box<double>>(1.0, 1.0, 1.0);
  const Transform beg = pose(Vector(-3, 0, 0)), end = pose(Vector(3, 0, 0), 1.0);
  const Transform still = Transform::Identity();
  Result result;
  auto status = [&](const Request& request, const fcl::CollisionGeometry<double>* o2) {
    try {
      sov::continuousCollide(a.get(), beg, end, o2, still, still, request, result);
    } catch (const sov::Error& e) {
      return e.status();
    }
    return 0;
  };
  Request spline = linearRequest();
  spline.ccd_motion_type = fcl::CCDM_SPLINE;
  EXPECT_EQ(status(spline, box.get()), SOV_ERR_OPTION);
  Request indep = linearRequest();
  indep.gjk_solver_type = fcl::GST_INDEP;
  EXPECT_EQ(status(indep, box.get()), SOV_ERR_OPTION);
  Request negative = linearRequest();
  negative.toc_err = -1;
  EXPECT_EQ(status(negative, box.get()), SOV_ERR_OPTION);
  EXPECT_EQ(status(linearRequest(), nullptr), SOV_ERR_NULL);
  // A turning halfspace: its points have no speed bound.
  const auto ground = std::make_shared<fcl::Halfspace<double>>(Vector(0, 0, 1), -2.0);
  try {
    sov::continuousCollide(a.get(), beg, end, ground.get(), still, pose(Vector(0, 0, 0), 0.5),
                           linearRequest(), result);
    ADD_FAILURE() << "no error";
  } catch (const sov::Error& e) {
    EXPECT_EQ(e.status(), SOV_ERR_OPTION);
  }
  EXPECT_THROW(sov::boundingRadius(fcl::TriangleP<double>(Vector(0, 0, 0), Vector(1, 0, 0),
                                                          Vector(0, 1, 0))),
               sov::Error);
  // A superovoid's transform that is no rotation (a reflection, a scaled
  // matrix) is refused on every path, as by sov::distance: the motions had
  // posed it as some rotation, and a rod swept "free" through a box.
  const auto rod = std::make_shared<sov::Superovoid>(1.0, 0.05, 0.05, 1.0, 1.0);
  Transform swap_xy = pose(Vector(0.5, -1, 0)), scaled = pose(Vector(0.5, -1, 0));
  swap_xy.linear() << 0, 1, 0, 1, 0, 0, 0, 0, 1;  // det -1
  scaled.linear() = Eigen::Vector3d(2, 1, 1).asDiagonal();
  for (const Transform& bad : {swap_xy, scaled}) {
    Transform bad_end = bad;
    bad_end.translation() += Vector(0, 2, 0);
    for (const fcl::CCDMotionType type : {fcl::CCDM_TRANS, fcl::CCDM_LINEAR, fcl::CCDM_SCREW}) {
      Request request = linearRequest();
      request.ccd_motion_type = type;
      for (const fcl::CollisionGeometry<double>* other :
           {static_cast<const fcl::CollisionGeometry<double>*>(box.get()),
            static_cast<const fcl::CollisionGeometry<double>*>(a.get())}) {
        try {
          sov::continuousCollide(rod.get(), bad, bad_end, other, still, still, request, result);
          ADD_FAILURE() << "no error, motion type " << type;
        } catch (const sov::Error& e) {
          EXPECT_EQ(e.status(), SOV_ERR_ROTATION) << "motion type " << type;
        }
      }
    }
  }
}

TEST(FclContinuous, BoundingRadiiHoldTheShapes) {
  EXPECT_DOUBLE_EQ(sov::boundingRadius(fcl::Sphere<double>(0.3)), 0.3);
  EXPECT_DOUBLE_EQ(sov::boundingRadius(fcl::Box<double>(2, 2, 1)), 1.5);
  EXPECT_DOUBLE_EQ(sov::boundingRadius(fcl::Capsule<double>(0.2, 1.0)), 0.7);
  EXPECT_DOUBLE_EQ(sov::boundingRadius(fcl::Cylinder<double>(0.3, 0.8)), 0.5);
  EXPECT_TRUE(std::isinf(sov::boundingRadius(fcl::Halfspace<double>(Vector(0, 0, 1), 0))));
  const sov::Superovoid s(0.5, 0.3, 0.4, 0.6, 1.2, 0.2, 0.2);
  const auto mesh = sov_test::meshModel<fcl::OBBRSS<double>>(sov_test::tessellate(s, 13, 24));
  EXPECT_LE(sov::boundingRadius(*mesh), sov::boundingRadius(s));
  EXPECT_GT(sov::boundingRadius(*mesh), 0.9 * sov::boundingRadius(s));
}

}  // namespace
