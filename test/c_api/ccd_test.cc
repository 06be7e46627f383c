// Continuous collision through the public C API (sov_time_of_contact,
// sov_motion_pose): closed-form first-contact times of spheres and
// ellipsoids, random superovoid sweeps against dense sampling, a thin
// obstacle that sampling at a planner's resolution misses, overlap at the
// start, no motion, half turns, the step cap and every error status.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "superovoid/superovoid.h"
#include "random_util.h"

namespace {

using sov_test::RandomQuat;
using sov_test::RandomUnit;
using sov_test::Rng;

using Params = std::array<double, 7>;

// The default distance tolerance of sov_time_of_contact.
constexpr double kCcdDistanceTolerance = 1e-6;
// Closed forms: the solver's distances are exact to 1e-9, so a reported
// time is within (tolerance + 1e-9) / closing speed before the true one.
constexpr double kDistanceSlack = 1e-9;
// Dense sampling of the issue: steps of 1e-4 in t.
constexpr int kSamples = 10000;
// Poses of sov_motion_pose at the ends equal the given ones to this.
constexpr double kEndTol = 1e-14;
// A rotation matrix built from a quaternion is orthonormal to about this.
constexpr double kRotationTol = 1e-12;
// Random sweeps per randomized test.
constexpr int kSweeps = 24;
// OMPL's default motion check: states every 1 % of the state space's
// extent (longest valid segment fraction 0.01).
constexpr int kPlannerSamples = 100;

const double kIdentityR[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};


// A validated shape.
sov_shape Shape(const Params& p) {
  sov_shape s{};
  EXPECT_EQ(sov_shape_init(&s, p.data()), SOV_OK);
  return s;
}

// Pose from a quaternion w x y z (normalised here) and a position.
sov_pose NormalisedQuatPose(const double q[4], const double p[3]) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double u[4] = {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
  sov_pose X{};
  EXPECT_EQ(sov_pose_from_quat(&X, u, p), SOV_OK);
  return X;
}

// Pose of angle theta about a unit axis, at p.
sov_pose AxisAnglePose(const double axis[3], double theta, const double p[3]) {
  const double s = std::sin(theta / 2);
  const double q[4] = {std::cos(theta / 2), s * axis[0], s * axis[1], s * axis[2]};
  return NormalisedQuatPose(q, p);
}

// Pose without rotation at p.
sov_pose At(double x, double y, double z) {
  const double p[3] = {x, y, z};
  sov_pose X{};
  EXPECT_EQ(sov_pose_from_matrix(&X, kIdentityR, p), SOV_OK);
  return X;
}



// Convex superovoid, exponents over the stress battery's range.
Params RandomParams(Rng& rng) {
  for (;;) {
    Params p;
    for (int i = 0; i < 3; ++i) p[i] = rng.Uniform(0.3, 1.0);
    for (int i = 3; i < 5; ++i) p[i] = rng.Uniform(0.2, 1.8);
    for (int i = 5; i < 7; ++i) p[i] = rng.Uniform(-0.3, 0.3);
    double scale = 0;
    if (sov_shape_max_taper_scale(&scale, p.data()) != SOV_OK) continue;
    p[5] *= 0.9 * scale;
    p[6] *= 0.9 * scale;
    sov_shape s;
    if (sov_shape_init(&s, p.data()) == SOV_OK) return p;
  }
}

// sov_time_of_contact with options (nullptr: defaults), no cache.
sov_toc_result Toc(const sov_shape& A, const sov_motion& MA, const sov_shape& B,
                   const sov_motion& MB, const sov_toc_options* options = nullptr) {
  sov_toc_result r{};
  EXPECT_EQ(sov_time_of_contact(&r, &A, &MA, &B, &MB, options, nullptr), SOV_OK);
  return r;
}

// Signed distance of A and B at time t of their motions.
double DistanceAt(const sov_shape& A, const sov_motion& MA, const sov_shape& B,
                  const sov_motion& MB, double t, sov_cache* cache = nullptr) {
  sov_pose XA, XB;
  EXPECT_EQ(sov_motion_pose(&XA, &MA, t), SOV_OK);
  EXPECT_EQ(sov_motion_pose(&XB, &MB, t), SOV_OK);
  sov_result r{};
  const int st = sov_distance(&r, &A, &XA, &B, &XB, nullptr, cache);
  return st == SOV_OK ? r.d : std::numeric_limits<double>::quiet_NaN();
}

// First time t = k / samples with d(t) <= 0, or 2 when there is none;
// *min_d gets the smallest sampled distance.
double FirstSampledContact(const sov_shape& A, const sov_motion& MA, const sov_shape& B,
                           const sov_motion& MB, int samples, double* min_d = nullptr) {
  sov_cache cache;
  sov_cache_reset(&cache);
  double lowest = std::numeric_limits<double>::infinity();
  for (int k = 0; k <= samples; ++k) {
    const double t = static_cast<double>(k) / samples;
    const double d = DistanceAt(A, MA, B, MB, t, &cache);
    lowest = std::fmin(lowest, d);
    if (d <= 0) {
      if (min_d) *min_d = lowest;
      return t;
    }
  }
  if (min_d) *min_d = lowest;
  return 2;
}

// First root in [0, 1] of |c + t v| = R (relative centre c, velocity v),
// or 2 when the spheres of radii summing to R never touch.
double SphereContactTime(const double c[3], const double v[3], double R) {
  double a = 0, b = 0, k = -R * R;
  for (int i = 0; i < 3; ++i) {
    a += v[i] * v[i];
    b += 2 * c[i] * v[i];
    k += c[i] * c[i];
  }
  if (k <= 0) return 0;
  const double disc = b * b - 4 * a * k;
  if (a == 0 || disc < 0) return 2;
  const double t = (-b - std::sqrt(disc)) / (2 * a);
  return t >= 0 && t <= 1 ? t : 2;
}

TEST(SuperovoidToc, SpheresUnderLinearMotionMatchClosedForm) {
  Rng rng(31);
  int contacts = 0;
  for (int i = 0; i < 200; ++i) {
    const double ra = rng.Uniform(0.1, 1.0), rb = rng.Uniform(0.1, 1.0);
    const sov_shape A = Shape({ra, ra, ra, 1, 1, 0, 0}), B = Shape({rb, rb, rb, 1, 1, 0, 0});
    double pa0[3], pa1[3], pb0[3], pb1[3], c[3], v[3];
    for (int j = 0; j < 3; ++j) {
      pa0[j] = rng.Uniform(-2, 2), pa1[j] = rng.Uniform(-2, 2);
      pb0[j] = rng.Uniform(-2, 2), pb1[j] = rng.Uniform(-2, 2);
      c[j] = pb0[j] - pa0[j];
      v[j] = (pb1[j] - pb0[j]) - (pa1[j] - pa0[j]);
    }
    // Spheres turning about their centres: the answer must not change.
    double axis[3];
    RandomUnit(axis, rng);
    const sov_motion MA = {At(pa0[0], pa0[1], pa0[2]), AxisAnglePose(axis, 2.5, pa1)};
    const sov_motion MB = {At(pb0[0], pb0[1], pb0[2]), At(pb1[0], pb1[1], pb1[2])};
    const double expected = SphereContactTime(c, v, ra + rb);
    const sov_toc_result r = Toc(A, MA, B, MB);
    if (expected > 1) {
      EXPECT_EQ(r.contact, 0) << "pair " << i << " t " << r.t;
      EXPECT_EQ(r.t, 1);
      continue;
    }
    ++contacts;
    ASSERT_EQ(r.contact, 1) << "pair " << i;
    EXPECT_LE(r.t, expected) << "pair " << i;
    EXPECT_LE(r.d, kCcdDistanceTolerance);
    // The closing speed at contact: the relative velocity along the normal.
    double ct[3], speed = 0;
    for (int j = 0; j < 3; ++j) ct[j] = c[j] + expected * v[j];
    for (int j = 0; j < 3; ++j) speed -= ct[j] * v[j] / (ra + rb);
    if (expected > 0) {
      EXPECT_LE(expected - r.t, (kCcdDistanceTolerance + kDistanceSlack) / speed + 1e-12)
          << "pair " << i;
    } else {
      EXPECT_EQ(r.t, 0);
    }
  }
  EXPECT_GT(contacts, 40);
}

TEST(SuperovoidToc, HomotheticEllipsoidsUnderTranslationMatchClosedForm) {
  // Ellipsoids with proportional semi-axes and one orientation: their
  // Minkowski difference is the ellipsoid of the summed semi-axes, so
  // contact is a quadratic in t.
  Rng rng(32);
  int contacts = 0;
  for (int i = 0; i < 200; ++i) {
    const double a[3] = {rng.Uniform(0.2, 1.0), rng.Uniform(0.2, 1.0), rng.Uniform(0.2, 1.0)};
    const double k = rng.Uniform(0.3, 2.0);
    const sov_shape A = Shape({a[0], a[1], a[2], 1, 1, 0, 0});
    const sov_shape B = Shape({k * a[0], k * a[1], k * a[2], 1, 1, 0, 0});
    double q[4], pa0[3], pa1[3], pb0[3], pb1[3];
    RandomQuat(q, rng);
    for (int j = 0; j < 3; ++j) {
      pa0[j] = rng.Uniform(-3, 3), pa1[j] = rng.Uniform(-3, 3);
      pb0[j] = rng.Uniform(-1, 1), pb1[j] = rng.Uniform(-1, 1);
    }
    const sov_motion MA = {NormalisedQuatPose(q, pa0), NormalisedQuatPose(q, pa1)};
    const sov_motion MB = {NormalisedQuatPose(q, pb0), NormalisedQuatPose(q, pb1)};
    // Relative centre and velocity in the shared body frame, scaled so that
    // the Minkowski difference is the unit sphere.
    double c[3], v[3];
    for (int j = 0; j < 3; ++j) {
      double cw = 0, vw = 0;
      for (int m = 0; m < 3; ++m) {
        cw += MA.from.R[3 * m + j] * (pb0[m] - pa0[m]);
        vw += MA.from.R[3 * m + j] * ((pb1[m] - pb0[m]) - (pa1[m] - pa0[m]));
      }
      c[j] = cw / ((1 + k) * a[j]);
      v[j] = vw / ((1 + k) * a[j]);
    }
    const double expected = SphereContactTime(c, v, 1.0);
    const sov_toc_result r = Toc(A, MA, B, MB);
    if (expected > 1) {
      EXPECT_EQ(r.contact, 0) << "pair " << i;
      continue;
    }
    ++contacts;
    ASSERT_EQ(r.contact, 1) << "pair " << i;
    EXPECT_LE(r.t, expected) << "pair " << i;
    EXPECT_LE(r.d, kCcdDistanceTolerance);
    if (expected == 0) continue;
    // Time error: d at the reported time over the closing speed near the
    // contact, measured from the exact distances a little before it.
    const double h = 1e-4;
    const double t0 = std::fmax(0, expected - h);
    const double speed = DistanceAt(A, MA, B, MB, t0) / (expected - t0);
    EXPECT_LE(expected - r.t, 2 * (kCcdDistanceTolerance + kDistanceSlack) / speed + 1e-12)
        << "pair " << i;
  }
  EXPECT_GT(contacts, 40);
}

// A random sweep: B turns in place near the origin (up to half a turn); A
// crosses from one side to the other, turning too, passing at a random
// offset (hitting, grazing or missing).
void RandomSweep(Rng& rng, sov_shape* A, sov_motion* MA, sov_shape* B, sov_motion* MB) {
  *A = Shape(RandomParams(rng));
  *B = Shape(RandomParams(rng));
  double q0[4], q1[4], qb0[4], qb1[4], dir[3], side[3], p0[3], p1[3], pb[3] = {0, 0, 0};
  RandomQuat(q0, rng);
  RandomQuat(q1, rng);
  RandomQuat(qb0, rng);
  RandomQuat(qb1, rng);
  RandomUnit(dir, rng);
  RandomUnit(side, rng);
  const double offset = rng.Uniform(0, 2.8);
  for (int j = 0; j < 3; ++j) {
    p0[j] = -3 * dir[j] + offset * side[j];
    p1[j] = 3 * dir[j] + offset * side[j];
  }
  *MA = {NormalisedQuatPose(q0, p0), NormalisedQuatPose(q1, p1)};
  *MB = {NormalisedQuatPose(qb0, pb), NormalisedQuatPose(qb1, pb)};
}

TEST(SuperovoidToc, RandomSweepsAreNeverLaterThanDenseSampling) {
  Rng rng(33);
  int contacts = 0, free = 0;
  double worst_gap = 0;
  for (int i = 0; i < kSweeps; ++i) {
    sov_shape A, B;
    sov_motion MA, MB;
    RandomSweep(rng, &A, &MA, &B, &MB);
    const sov_toc_result r = Toc(A, MA, B, MB);
    double min_d = 0;
    const double ts = FirstSampledContact(A, MA, B, MB, kSamples, &min_d);
    if (!r.contact) {
      // No contact in [0, 1]: no sample may touch.
      EXPECT_GT(ts, 1) << "sweep " << i << " missed the sampled contact at " << ts;
      EXPECT_GT(min_d, 0);
      ++free;
      continue;
    }
    ++contacts;
    // Never later than the first sampled contact; the distance at the
    // reported time within the tolerance.
    EXPECT_LE(r.t, ts) << "sweep " << i;
    const double dc = DistanceAt(A, MA, B, MB, r.t);
    EXPECT_LE(dc, kCcdDistanceTolerance + kDistanceSlack) << "sweep " << i;
    // Overlapping only when they do at the start.
    if (r.t > 0) {
      EXPECT_GT(dc, -kDistanceSlack) << "sweep " << i << ": overlapping at t";
    }
    if (ts <= 1) {
      // Within one sample of the sampled contact: the bodies close in at
      // speeds of order 1 here, so the tolerance is far below a sample.
      EXPECT_LE(ts - r.t, 1.0 / kSamples + 1e-5) << "sweep " << i;
      worst_gap = std::fmax(worst_gap, ts - r.t);
    } else {
      // A graze between samples: the samples come within a sample's travel.
      EXPECT_LT(min_d, 0.01) << "sweep " << i;
    }
  }
  EXPECT_GT(contacts, 5);
  EXPECT_GT(free, 3);
  RecordProperty("worst_sampled_minus_reported", std::to_string(worst_gap));
}

TEST(SuperovoidToc, ThinObstacleMissedByPlannerSamplingIsFound) {
  // A plate 2 mm thick and a small fast box-like body crossing it: the
  // planner's 100 states along the motion all miss the plate.
  const sov_shape plate = Shape({0.5, 0.5, 0.001, 0.1, 0.1, 0, 0});
  const sov_shape body = Shape({0.003, 0.003, 0.003, 0.3, 0.3, 0, 0});
  const sov_motion MP = {At(0, 0, 0), At(0, 0, 0)};
  const sov_motion MB = {At(0.1, 0.05, -0.5045), At(-0.1, 0.02, 0.4955)};
  EXPECT_GT(FirstSampledContact(plate, MP, body, MB, kPlannerSamples), 1);
  const sov_toc_result r = Toc(plate, MP, body, MB);
  ASSERT_EQ(r.contact, 1);
  // The body's top face meets the plate's bottom at z = -0.001.
  const double expected = (0.5045 - 0.001 - 0.003) / 1.0;
  EXPECT_LE(r.t, expected);
  EXPECT_NEAR(r.t, expected, 1e-4);
  EXPECT_NEAR(r.n[2], -1, 1e-3);  // from the plate towards the body: down
  EXPECT_NEAR(r.point[2], -0.001, 1e-4);
}

TEST(SuperovoidToc, OverlapAtTheStartIsContactAtZero) {
  const sov_shape A = Shape({1, 1, 1, 1, 1, 0, 0});
  const sov_motion MA = {At(0, 0, 0), At(5, 0, 0)};
  const sov_motion MB = {At(1.5, 0, 0), At(1.5, 0, 0)};
  const sov_toc_result r = Toc(A, MA, A, MB);
  EXPECT_EQ(r.contact, 1);
  EXPECT_EQ(r.t, 0);
  EXPECT_NEAR(r.d, -0.5, 1e-9);
  EXPECT_NEAR(r.n[0], 1, 1e-9);
  EXPECT_EQ(r.steps, 1);
}

TEST(SuperovoidToc, IdenticalBodiesAtOnePoseAreContactAtZero) {
  // Each body contains its local origin, so two copies at one pose overlap:
  // contact at 0 carries sov_distance's answer. Where the distance fails
  // there (here forced: one Newton step of a study method), sov_collide
  // proves the overlap and no depth is known.
  const Params bodies[3] = {
      {1.224896739103996, 0.91383137048726071, 0.90225101762486215, 1.4315860997675613,
       0.97483562569839022, -0.18624064711783539, 0.41543060924627218},
      {1.279687514635095, 1.3378335118633475, 0.35638918470130682, 1.0378353230997226,
       1.3044568926085727, -0.4974095153279805, -0.4974095153279805},
      {0.20622068624602688, 0.27559330362327672, 1.2913420181320943, 1.049761815514991,
       1.7713793644939018, 0.17414031282774922, 0.17414031282774922}};
  sov_toc_options failing;
  sov_toc_options_default(&failing);
  failing.distance.method = SOV_METHOD_IMPLICIT;
  failing.distance.max_iterations = 1;
  for (int k = 0; k < 3; ++k) {
    const sov_shape S = Shape(bodies[k]);
    const sov_motion still = {At(0, 0, 0), At(0, 0, 0)};
    sov_result d;
    ASSERT_EQ(sov_distance(&d, &S, &still.from, &S, &still.from, nullptr, nullptr), SOV_OK)
        << "body " << k;
    const sov_toc_result r = Toc(S, still, S, still);
    EXPECT_EQ(r.contact, 1) << "body " << k;
    EXPECT_EQ(r.t, 0) << "body " << k;
    EXPECT_EQ(r.d, d.d) << "body " << k;
    ASSERT_NE(sov_distance(&d, &S, &still.from, &S, &still.from, &failing.distance, nullptr),
              SOV_OK)
        << "body " << k;
    const sov_toc_result f = Toc(S, still, S, still, &failing);
    EXPECT_EQ(f.contact, 1) << "body " << k;
    EXPECT_EQ(f.t, 0) << "body " << k;
    EXPECT_TRUE(std::isnan(f.d)) << "body " << k;  // no depth known
  }
}

TEST(SuperovoidToc, ToleranceZeroAndFarOrHugeBodiesReachTheContact) {
  // Spheres of radius s, B from c + 5 s to c - 5 s along x towards A at c
  // (c on the diagonal): first contact at t = 0.3, closing speed 10 s. The
  // rounding floor, 128 DBL_EPSILON (|pA| + |pB| + 2 s), is largest at t = 0.
  struct Case {
    double s, c, tolerance;
  };
  for (const Case& k : {Case{1, 0, 0}, Case{1, 0, 1e-14}, Case{1, 3e7, kCcdDistanceTolerance},
                        Case{1, 1e9, kCcdDistanceTolerance}, Case{1e8, 0, kCcdDistanceTolerance},
                        Case{1e8, 0, 0}}) {
    const sov_shape S = Shape({k.s, k.s, k.s, 1, 1, 0, 0});
    const sov_motion MA = {At(k.c, k.c, k.c), At(k.c, k.c, k.c)};
    const sov_motion MB = {At(k.c + 5 * k.s, k.c, k.c), At(k.c - 5 * k.s, k.c, k.c)};
    sov_toc_options o;
    sov_toc_options_default(&o);
    o.distance_tolerance = k.tolerance;
    const sov_toc_result r = Toc(S, MA, S, MB, &o);
    const double pA = std::sqrt(3.0) * std::abs(k.c);
    const double pB = std::hypot(k.c + 5 * k.s, std::sqrt(2.0) * k.c);
    const double floor = 128 * std::numeric_limits<double>::epsilon() * (pA + pB + 2 * k.s);
    const double used = std::max(k.tolerance, floor);
    EXPECT_EQ(r.contact, 1) << "s " << k.s << " c " << k.c;
    EXPECT_LE(r.t, 0.3) << "s " << k.s << " c " << k.c;
    EXPECT_LE(0.3 - r.t, (used + kDistanceSlack * k.s) / (10 * k.s)) << "s " << k.s << " c " << k.c;
  }
}

TEST(SuperovoidToc, RoundingFloorIsTheDocumentedRule) {
  // The header's rule: allowance 64 DBL_EPSILON scale, contact at
  // max(tolerance, twice that); either output alone.
  const double eps = std::numeric_limits<double>::epsilon();
  double allowance = 0, contact = 0;
  ASSERT_EQ(sov_toc_rounding_floor(&allowance, &contact, 1e9, 1e-6), SOV_OK);
  EXPECT_EQ(allowance, 64 * eps * 1e9);
  EXPECT_EQ(contact, 128 * eps * 1e9);
  ASSERT_EQ(sov_toc_rounding_floor(nullptr, &contact, 1.0, 1e-6), SOV_OK);
  EXPECT_EQ(contact, 1e-6);
  ASSERT_EQ(sov_toc_rounding_floor(&allowance, nullptr, 0.0, 0.0), SOV_OK);
  EXPECT_EQ(allowance, 0);
}

TEST(SuperovoidToc, RoundingFloorErrorsAreNamed) {
  double x = 0;
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(sov_toc_rounding_floor(nullptr, nullptr, 1, 0), SOV_ERR_NULL);
  EXPECT_EQ(sov_toc_rounding_floor(&x, &x, std::nan(""), 0), SOV_ERR_NONFINITE);
  EXPECT_EQ(sov_toc_rounding_floor(&x, &x, 1, inf), SOV_ERR_NONFINITE);
  EXPECT_EQ(sov_toc_rounding_floor(&x, &x, -1, 0), SOV_ERR_OPTION);
  EXPECT_EQ(sov_toc_rounding_floor(&x, &x, 1, -1e-6), SOV_ERR_OPTION);
}

TEST(SuperovoidToc, NoMotionIsOneStep) {
  const sov_shape A = Shape({1, 0.5, 0.7, 0.4, 1.3, 0.1, 0.1});
  const sov_motion MA = {At(0, 0, 0), At(0, 0, 0)};
  const sov_motion MB = {At(3, 0, 0), At(3, 0, 0)};
  const sov_toc_result r = Toc(A, MA, A, MB);
  EXPECT_EQ(r.contact, 0);
  EXPECT_EQ(r.t, 1);
  EXPECT_EQ(r.steps, 1);
  // Moving apart is as quick: the gap along the normal never shrinks.
  const sov_motion away = {At(3, 0, 0), At(5, 1, 0)};
  EXPECT_EQ(Toc(A, MA, A, away).steps, 1);
}

TEST(SuperovoidToc, OppositeQuaternionsAreNoTurn) {
  // q and -q are one rotation: the motion does not turn.
  const double q[4] = {0.5, 0.5, -0.5, 0.5}, mq[4] = {-0.5, -0.5, 0.5, -0.5};
  const double p0[3] = {0, 0, 0}, p1[3] = {1, 0, 0};
  const sov_motion M = {NormalisedQuatPose(q, p0), NormalisedQuatPose(mq, p1)};
  sov_pose X;
  ASSERT_EQ(sov_motion_pose(&X, &M, 0.5), SOV_OK);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(X.R[i], M.from.R[i], kRotationTol);
  EXPECT_NEAR(X.p[0], 0.5, kEndTol);
}

TEST(SuperovoidToc, HalfTurnSweepsItsHalfCircle) {
  // A rod along x turns by exactly pi about z: halfway it lies along +-y,
  // and a ball on the y axis is hit before t = 1/2 (the half turn takes
  // the axis of the rotation's quaternion, here +z).
  const double z[3] = {0, 0, 1}, o[3] = {0, 0, 0};
  const sov_shape rod = Shape({1, 0.02, 0.02, 1, 1, 0, 0});
  const sov_shape ball = Shape({0.05, 0.05, 0.05, 1, 1, 0, 0});
  const sov_motion MR = {At(0, 0, 0), AxisAnglePose(z, M_PI, o)};
  sov_pose X;
  ASSERT_EQ(sov_motion_pose(&X, &MR, 0.5), SOV_OK);
  EXPECT_NEAR(std::fabs(X.R[3]), 1, kRotationTol);  // x axis onto +-y
  ASSERT_EQ(sov_motion_pose(&X, &MR, 1), SOV_OK);
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(X.R[i], MR.to.R[i], kEndTol);
  // Where the rod's +x end passes halfway: on +y or -y (the axis's sign).
  sov_pose Xh;
  ASSERT_EQ(sov_motion_pose(&Xh, &MR, 0.5), SOV_OK);
  const double y = Xh.R[3] > 0 ? 0.6 : -0.6;
  const sov_motion MB = {At(0, y, 0), At(0, y, 0)};
  const sov_toc_result r = Toc(rod, MR, ball, MB);
  ASSERT_EQ(r.contact, 1);
  const double ts = FirstSampledContact(rod, MR, ball, MB, kSamples);
  EXPECT_LE(r.t, ts);
  EXPECT_LT(ts - r.t, 1.0 / kSamples + 1e-5);
  EXPECT_LT(r.t, 0.5);
  // Almost half a turn (pi - 1e-9) takes the same path.
  const sov_motion MN = {At(0, 0, 0), AxisAnglePose(z, M_PI - 1e-9, o)};
  EXPECT_NEAR(Toc(rod, MN, ball, MB).t, r.t, 1e-6);
}

TEST(SuperovoidToc, MotionPoseEndsAreTheGivenPoses) {
  Rng rng(34);
  for (int i = 0; i < 50; ++i) {
    double q0[4], q1[4], p0[3], p1[3];
    RandomQuat(q0, rng);
    RandomQuat(q1, rng);
    for (int j = 0; j < 3; ++j) p0[j] = rng.Uniform(-2, 2), p1[j] = rng.Uniform(-2, 2);
    const sov_motion M = {NormalisedQuatPose(q0, p0), NormalisedQuatPose(q1, p1)};
    sov_pose X0, X1;
    ASSERT_EQ(sov_motion_pose(&X0, &M, 0), SOV_OK);
    ASSERT_EQ(sov_motion_pose(&X1, &M, 1), SOV_OK);
    for (int j = 0; j < 9; ++j) {
      EXPECT_NEAR(X0.R[j], M.from.R[j], kEndTol);
      EXPECT_NEAR(X1.R[j], M.to.R[j], 4 * kEndTol);
    }
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(X1.p[j], p1[j], kEndTol);
  }
}

TEST(SuperovoidToc, SwappedBodiesAndARigidMotionOfBothGiveTheSameTime) {
  Rng rng(35);
  for (int i = 0; i < 8; ++i) {
    sov_shape A, B;
    sov_motion MA, MB;
    RandomSweep(rng, &A, &MA, &B, &MB);
    const sov_toc_result r = Toc(A, MA, B, MB);
    const sov_toc_result s = Toc(B, MB, A, MA);
    EXPECT_EQ(r.contact, s.contact);
    EXPECT_NEAR(r.t, s.t, 1e-5);
    // Both motions moved by one rigid motion G: the same contact.
    double q[4], g[3];
    RandomQuat(q, rng);
    for (int j = 0; j < 3; ++j) g[j] = rng.Uniform(-5, 5);
    const sov_pose G = NormalisedQuatPose(q, g);
    auto moved = [&](const sov_pose& X) {
      double R[9], p[3];
      for (int a = 0; a < 3; ++a) {
        p[a] = G.p[a];
        for (int b = 0; b < 3; ++b) {
          R[3 * a + b] = 0;
          for (int m = 0; m < 3; ++m) R[3 * a + b] += G.R[3 * a + m] * X.R[3 * m + b];
          p[a] += G.R[3 * a + b] * X.p[b];
        }
      }
      sov_pose Y{};
      EXPECT_EQ(sov_pose_from_matrix(&Y, R, p), SOV_OK);
      return Y;
    };
    const sov_motion GA = {moved(MA.from), moved(MA.to)}, GB = {moved(MB.from), moved(MB.to)};
    const sov_toc_result m = Toc(A, GA, B, GB);
    EXPECT_EQ(r.contact, m.contact);
    EXPECT_NEAR(r.t, m.t, 1e-5);
  }
}

TEST(SuperovoidToc, CacheAndTimeTolerance) {
  const sov_shape A = Shape({0.6, 0.4, 0.5, 0.5, 1.2, 0.2, 0.2});
  const double z[3] = {0, 0, 1}, p1[3] = {1.6, 0.1, 0};
  const sov_motion MA = {At(-2, 0.1, 0), AxisAnglePose(z, 2.0, p1)};
  const sov_motion MB = {At(1.5, 0, 0), At(1.5, 0, 0)};
  const sov_toc_result cold = Toc(A, MA, A, MB);
  ASSERT_EQ(cold.contact, 1);
  sov_cache cache;
  sov_cache_reset(&cache);
  sov_toc_result warm{};
  ASSERT_EQ(sov_time_of_contact(&warm, &A, &MA, &A, &MB, nullptr, &cache), SOV_OK);
  EXPECT_NEAR(warm.t, cold.t, 1e-9);
  EXPECT_EQ(sov_cache_valid(&cache), 1);
  // A time tolerance stops earlier, in fewer steps, never later.
  sov_toc_options o;
  sov_toc_options_default(&o);
  o.time_tolerance = 1e-3;
  const sov_toc_result coarse = Toc(A, MA, A, MB, &o);
  EXPECT_EQ(coarse.contact, 1);
  EXPECT_LE(coarse.t, cold.t);
  EXPECT_LE(coarse.steps, cold.steps);
  EXPECT_GT(coarse.t, cold.t - 2e-2);
}

TEST(SuperovoidToc, StepCapIsNoConvergenceWithTheProvedInterval) {
  const sov_shape A = Shape({0.5, 0.5, 0.5, 0.8, 0.8, 0, 0});
  const double z[3] = {0, 0, 1}, p1[3] = {1.0, 0, 0};
  const sov_motion MA = {At(-3, 0, 0), AxisAnglePose(z, 3.0, p1)};
  const sov_motion MB = {At(2, 0, 0), At(2, 0, 0)};
  sov_toc_options o;
  sov_toc_options_default(&o);
  o.max_steps = 2;
  sov_toc_result r{};
  EXPECT_EQ(sov_time_of_contact(&r, &A, &MA, &A, &MB, &o, nullptr), SOV_ERR_NO_CONVERGENCE);
  EXPECT_EQ(r.contact, 0);
  EXPECT_EQ(r.steps, 2);
  EXPECT_GT(r.t, 0);
  EXPECT_LT(r.t, 1);
  EXPECT_GT(DistanceAt(A, MA, A, MB, r.t), 0);
}

TEST(SuperovoidToc, ErrorsAreNamed) {
  const sov_shape A = Shape({1, 1, 1, 1, 1, 0, 0});
  const sov_motion M = {At(0, 0, 0), At(1, 0, 0)};
  const sov_motion F = {At(3, 0, 0), At(3, 0, 0)};
  sov_toc_result r{};
  EXPECT_EQ(sov_time_of_contact(nullptr, &A, &M, &A, &F, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_time_of_contact(&r, nullptr, &M, &A, &F, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_time_of_contact(&r, &A, nullptr, &A, &F, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, nullptr, nullptr, nullptr), SOV_ERR_NULL);
  sov_shape zero{};
  EXPECT_EQ(sov_time_of_contact(&r, &zero, &M, &A, &F, nullptr, nullptr), SOV_ERR_UNINITIALIZED);
  sov_motion bad = M;
  bad.to.R[0] = 2;
  EXPECT_EQ(sov_time_of_contact(&r, &A, &bad, &A, &F, nullptr, nullptr), SOV_ERR_ROTATION);
  bad = M;
  bad.from.p[1] = std::numeric_limits<double>::infinity();
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, &bad, nullptr, nullptr), SOV_ERR_NONFINITE);
  sov_toc_options o;
  sov_toc_options_default(&o);
  o.distance_tolerance = -1;
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, &F, &o, nullptr), SOV_ERR_OPTION);
  sov_toc_options_default(&o);
  o.time_tolerance = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, &F, &o, nullptr), SOV_ERR_OPTION);
  sov_toc_options_default(&o);
  o.max_steps = 0;
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, &F, &o, nullptr), SOV_ERR_OPTION);
  sov_toc_options_default(&o);
  o.distance.tolerance = 0;
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, &F, &o, nullptr), SOV_ERR_OPTION);
  sov_toc_options_default(&o);
  char small[16];
  o.distance.work = small;
  o.distance.work_size = sizeof small;
  EXPECT_EQ(sov_time_of_contact(&r, &A, &M, &A, &F, &o, nullptr), SOV_ERR_BUFFER);
  sov_pose X;
  EXPECT_EQ(sov_motion_pose(nullptr, &M, 0.5), SOV_ERR_NULL);
  EXPECT_EQ(sov_motion_pose(&X, nullptr, 0.5), SOV_ERR_NULL);
  EXPECT_EQ(sov_motion_pose(&X, &M, std::numeric_limits<double>::quiet_NaN()),
            SOV_ERR_NONFINITE);
  // Ends 2e308 apart (each finite): the translation overflows. It gave an
  // infinite pose with SOV_OK; so does a t far outside [0, 1].
  const sov_motion huge = {At(-1e308, 0, 0), At(1e308, 0, 0)};
  EXPECT_EQ(sov_motion_pose(&X, &huge, 0.5), SOV_ERR_NONFINITE);
  EXPECT_EQ(sov_time_of_contact(&r, &A, &huge, &A, &F, nullptr, nullptr), SOV_ERR_NONFINITE);
  const sov_motion far = {At(0, 0, 0), At(1e300, 0, 0)};
  EXPECT_EQ(sov_motion_pose(&X, &far, 1e10), SOV_ERR_NONFINITE);
  EXPECT_EQ(sov_motion_pose(&X, &far, 0.5), SOV_OK);
  sov_toc_options_default(nullptr);  // a no-op
}

TEST(SuperovoidToc, WorkMemoryIsUsedByEveryStep) {
  // Deep overlap at the end: fine with caller-owned work memory.
  const sov_shape A = Shape({1, 0.4, 0.7, 0.3, 1.5, 0.2, 0.2});
  const sov_motion MA = {At(-3, 0, 0), At(0.2, 0, 0)};
  const sov_motion MB = {At(0, 0, 0), At(0, 0, 0)};
  std::vector<unsigned char> work(sov_work_size());
  sov_toc_options o;
  sov_toc_options_default(&o);
  o.distance.work = work.data();
  o.distance.work_size = work.size();
  sov_toc_result r{};
  ASSERT_EQ(sov_time_of_contact(&r, &A, &MA, &A, &MB, &o, nullptr), SOV_OK);
  EXPECT_EQ(r.contact, 1);
  EXPECT_NEAR(r.t, Toc(A, MA, A, MB).t, 1e-12);
}

}  // namespace
