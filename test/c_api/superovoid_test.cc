// The public C API (superovoid.h): one test per error status, closed-form
// distances, invariances (swap, rigid motion), warm start, collide and
// thread safety. Public functions only.
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include "c_api/storage.h"
}
#include "../battery_check.h"
#include "superovoid/superovoid.h"
#include "random_util.h"

namespace {

using sov_test::MatMul;
using sov_test::RandomQuat;
using sov_test::RandomUnit;
using sov_test::Rng;

using Params = std::array<double, 7>;
using sov_test::CheckAnswer;
using sov_test::IsHonestFailure;
using sov_test::kDistanceTol;
using sov_test::kWitnessTol;
using sov_test::PosedPair;
using sov_test::SameBits;

// Closed-form answers (d, n, points) are exact; the solver must meet SPEC
// "Accuracy" on them.
constexpr double kClosedFormTol = 1e-9;
// Invariances: d, n and witness points of related queries agree to this.
constexpr double kInvarianceTol = 1e-9;
// SPEC "Valid parameters" gives the largest convex equal taper to 3 digits.
constexpr double kSpecTaperTol = 2e-3;
// sov_shape_explain's shrink figure, as a fraction (or per cent / 100).
constexpr double kExplainScaleTol = 1e-2;
// SPEC "Pose": a quaternion's norm may be off by at most 1e-6.
constexpr double kQuatRejectedOffset = 2e-6;
constexpr double kQuatAcceptedOffset = 5e-7;
// Random battery-like pairs per invariance test.
constexpr int kRandomPairs = 8;
// Warm start: size of the move between the cached and the new query.
constexpr double kWarmMove = 1e-3;
constexpr int kThreads = 4;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();
const double kNonFinite[] = {kNaN, kInf, -kInf};
const char* const kParamNames[7] = {"a1", "a2", "a3", "eps1", "eps2", "taper_x", "taper_y"};

// A valid, tapered, convex shape (equal tapers well below SPEC's bound).
const Params kValid = {0.9, 1.1, 0.8, 0.6, 0.8, 0.2, 0.2};
const double kIdentityQuat[4] = {1, 0, 0, 0};
const double kOrigin[3] = {0, 0, 0};


// Shape from parameters, which must be valid.
sov_shape MakeShape(const Params& p) {
  sov_shape s{};
  EXPECT_EQ(sov_shape_init(&s, p.data()), SOV_OK);
  return s;
}

// Pose from a unit quaternion and a position, which must be valid.
sov_pose QuatPose(const double q[4], const double p[3]) {
  sov_pose X{};
  EXPECT_EQ(sov_pose_from_quat(&X, q, p), SOV_OK);
  return X;
}

// Pose from a rotation matrix and a position, which must be valid.
sov_pose MatrixPose(const double R[9], const double p[3]) {
  sov_pose X{};
  EXPECT_EQ(sov_pose_from_matrix(&X, R, p), SOV_OK);
  return X;
}

// y = R x + t.
void Transform(double y[3], const double R[9], const double x[3], const double t[3]) {
  for (int i = 0; i < 3; ++i) y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2] + t[i];
}

// Rotation matrix of angle theta about a unit axis.
void AxisAngle(double R[9], const double axis[3], double theta) {
  const double q[4] = {std::cos(theta / 2), std::sin(theta / 2) * axis[0],
                       std::sin(theta / 2) * axis[1], std::sin(theta / 2) * axis[2]};
  const sov_pose X = QuatPose(q, kOrigin);
  std::memcpy(R, X.R, sizeof X.R);
}

// The rigid motion M applied to pose X: (M.R X.R, M.R X.p + M.p).
sov_pose Compose(const sov_pose& M, const sov_pose& X) {
  double R[9], p[3];
  MatMul(R, M.R, X.R);
  Transform(p, M.R, X.p, M.p);
  return MatrixPose(R, p);
}

// Battery-like convex shape: sizes [0.5, 1.5], eps [0.3, 1.1], tapers
// [-0.4, 0.4], dented draws redrawn (as the battery was made).
Params RandomConvexParams(Rng& rng) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    Params p;
    for (int i = 0; i < 3; ++i) p[i] = rng.Uniform(0.5, 1.5);
    for (int i = 3; i < 5; ++i) p[i] = rng.Uniform(0.3, 1.1);
    for (int i = 5; i < 7; ++i) p[i] = rng.Uniform(-0.4, 0.4);
    sov_shape s;
    if (sov_shape_init(&s, p.data()) == SOV_OK) return p;
  }
  ADD_FAILURE() << "no convex shape in 1000 battery-like draws";
  return kValid;
}

// Random battery-like pair: random orientations, centres 1.2 to 3 apart
// (some overlapping, some separated).
PosedPair RandomPair(Rng& rng) {
  PosedPair pp;
  pp.A = MakeShape(RandomConvexParams(rng));
  pp.B = MakeShape(RandomConvexParams(rng));
  double qa[4], qb[4], ca[3], dir[3], cb[3];
  RandomQuat(qa, rng);
  RandomQuat(qb, rng);
  RandomUnit(dir, rng);
  const double dist = rng.Uniform(1.2, 3.0);
  for (int i = 0; i < 3; ++i) {
    ca[i] = rng.Uniform(-1, 1);
    cb[i] = ca[i] + dist * dir[i];
  }
  pp.XA = QuatPose(qa, ca);
  pp.XB = QuatPose(qb, cb);
  return pp;
}

// Distance query that must succeed.
sov_result Solve(const PosedPair& pp, const sov_options* options = nullptr,
                 sov_cache* cache = nullptr) {
  sov_result r{};
  const int st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, options, cache);
  EXPECT_EQ(st, SOV_OK) << sov_status_string(st);
  return r;
}

// Largest component difference of two 3-vectors.
double MaxDiff(const double a[3], const double b[3]) {
  double m = 0;
  for (int i = 0; i < 3; ++i) m = std::fmax(m, std::fabs(a[i] - b[i]));
  return std::isnan(a[0] + a[1] + a[2] + b[0] + b[1] + b[2]) ? kNaN : m;
}

// Expects the closed-form d, n and (where given) witness points, and the
// SPEC accuracy rules.
void ExpectAnswer(const sov_result& r, const PosedPair& pp, double d, const double n[3],
                  const double pA[3], const double pB[3]) {
  EXPECT_NEAR(r.d, d, kClosedFormTol);
  EXPECT_LE(MaxDiff(r.n, n), kClosedFormTol) << "n = " << r.n[0] << " " << r.n[1] << " " << r.n[2];
  if (pA) {
    EXPECT_LE(MaxDiff(r.pA, pA), kClosedFormTol);
  }
  if (pB) {
    EXPECT_LE(MaxDiff(r.pB, pB), kClosedFormTol);
  }
  const std::string why = CheckAnswer(r, pp, d);
  EXPECT_TRUE(why.empty()) << why;
}

// Parameters with one entry replaced.
Params With(Params p, int index, double value) {
  p[index] = value;
  return p;
}

// sov_shape_init's status for params, checking that sov_shape_explain agrees
// and (on error) names the offending parameter.
int InitStatus(const Params& p, int bad_index) {
  sov_shape s;
  char text[512];
  const int st = sov_shape_init(&s, p.data());
  EXPECT_EQ(sov_shape_explain(text, sizeof text, p.data()), st);
  if (st != SOV_OK && bad_index >= 0) {
    EXPECT_NE(std::string(text).find(kParamNames[bad_index]), std::string::npos)
        << "explanation does not name " << kParamNames[bad_index] << ": " << text;
  }
  return st;
}

// Lower-case copy.
std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Every decimal number written in a text.
std::vector<double> NumbersIn(const std::string& text) {
  std::vector<double> out;
  for (size_t i = 0; i < text.size(); ++i) {
    const bool starts = std::isdigit(static_cast<unsigned char>(text[i])) &&
                        (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])));
    if (!starts) continue;
    char* end = nullptr;
    out.push_back(std::strtod(text.c_str() + i, &end));
    i = static_cast<size_t>(end - text.c_str());
  }
  return out;
}

// A posed pair from shapes and poses.
PosedPair Posed(const Params& a, const sov_pose& XA, const Params& b, const sov_pose& XB) {
  PosedPair pp;
  pp.A = MakeShape(a);
  pp.B = MakeShape(b);
  pp.XA = XA;
  pp.XB = XB;
  return pp;
}

// ---------------------------------------------------------------- statuses

TEST(SuperovoidStatus, StringsAreNonEmptyAndDistinct) {
  std::set<std::string> seen;
  for (int st = SOV_OK; st >= SOV_ERR_RANGE; --st) {
    const char* s = sov_status_string(st);
    ASSERT_NE(s, nullptr) << "status " << st;
    EXPECT_GT(std::strlen(s), 0u) << "status " << st;
    EXPECT_TRUE(seen.insert(s).second) << "status " << st << " repeats '" << s << "'";
  }
  for (int unknown : {1, -15, 1000, -1000}) EXPECT_NE(sov_status_string(unknown), nullptr);
}

TEST(SuperovoidStatus, VersionMatchesMacros) {
  char expected[64];
  std::snprintf(expected, sizeof expected, "%d.%d.%d", SOV_VERSION_MAJOR, SOV_VERSION_MINOR,
                SOV_VERSION_PATCH);
  ASSERT_NE(sov_version(), nullptr);
  EXPECT_STREQ(sov_version(), expected);
}

TEST(SuperovoidStatus, MethodNamesRoundTrip) {
  const char* const names[SOV_METHOD_COUNT] = {"auto", "implicit", "parametric", "ntb"};
  for (int m = 0; m < SOV_METHOD_COUNT; ++m) {
    const char* name = sov_method_name(static_cast<sov_method>(m));
    ASSERT_NE(name, nullptr) << "method " << m;
    EXPECT_STREQ(name, names[m]);
    sov_method back = SOV_METHOD_COUNT;
    EXPECT_EQ(sov_method_from_name(&back, name), SOV_OK);
    EXPECT_EQ(static_cast<int>(back), m);
  }
  EXPECT_EQ(sov_method_name(SOV_METHOD_COUNT), nullptr);
}

// ------------------------------------------------------------ error codes

TEST(SuperovoidErrors, NullPointersAreRejected) {
  const sov_shape s = MakeShape(kValid);
  const sov_pose X = QuatPose(kIdentityQuat, kOrigin);
  const double x[3] = {0.1, 0.2, 0.3}, R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  const double* p = kValid.data();
  double F, g[3], H[9], t1[3], t2[3], n[3], h, v, scale;
  char buf[128];
  sov_method m;
  sov_shape out_shape;
  sov_pose out_pose;
  sov_cache cache{};
  EXPECT_EQ(sov_method_from_name(nullptr, "auto"), SOV_ERR_NULL);
  EXPECT_EQ(sov_method_from_name(&m, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_init(nullptr, p), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_init(&out_shape, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_explain(nullptr, sizeof buf, p), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_explain(buf, sizeof buf, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_max_taper_scale(nullptr, p), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_max_taper_scale(&scale, nullptr), SOV_ERR_NULL);
  // Sizes sov_shape_init refuses whatever the tapers: its status, not scale 1
  // (or a scale whose body init still refuses), as it once was.
  for (const Params& q :
       {Params{1e-310, 1, 1, 1, 1, 0, 0}, Params{1e300, 1e300, 1e300, 1, 1, 0, 0},
        Params{1e-310, 1, 1, 1, 1.9, 0.2, 0.2}}) {
    sov_shape refused;
    const int init = sov_shape_init(&refused, q.data());
    ASSERT_NE(init, SOV_OK);
    EXPECT_EQ(sov_shape_max_taper_scale(&scale, q.data()),
              init == SOV_ERR_NONCONVEX ? SOV_ERR_SIZE : init);
  }
  EXPECT_EQ(sov_shape_implicit(nullptr, g, H, &s, x), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_implicit(&F, g, H, nullptr, x), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_implicit(&F, g, H, &s, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s, x), SOV_OK);  // optional outputs
  EXPECT_EQ(sov_shape_point(nullptr, t1, t2, n, &s, 0.1, 0.2), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_point(g, t1, t2, n, nullptr, 0.1, 0.2), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_point(g, nullptr, nullptr, nullptr, &s, 0.1, 0.2), SOV_OK);
  EXPECT_EQ(sov_shape_support(nullptr, &h, &s, x), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_support(g, nullptr, &s, x), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_support(g, &h, nullptr, x), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_support(g, &h, &s, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_volume(nullptr, &s), SOV_ERR_NULL);
  EXPECT_EQ(sov_shape_volume(&v, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_pose_from_quat(nullptr, kIdentityQuat, kOrigin), SOV_ERR_NULL);
  EXPECT_EQ(sov_pose_from_quat(&out_pose, nullptr, kOrigin), SOV_ERR_NULL);
  EXPECT_EQ(sov_pose_from_quat(&out_pose, kIdentityQuat, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_pose_from_matrix(nullptr, R, kOrigin), SOV_ERR_NULL);
  EXPECT_EQ(sov_pose_from_matrix(&out_pose, nullptr, kOrigin), SOV_ERR_NULL);
  EXPECT_EQ(sov_pose_from_matrix(&out_pose, R, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_cache_set(nullptr, &X, &X, x, g), SOV_ERR_NULL);
  EXPECT_EQ(sov_cache_set(&cache, nullptr, &X, x, g), SOV_ERR_NULL);
  EXPECT_EQ(sov_cache_set(&cache, &X, nullptr, x, g), SOV_ERR_NULL);
  EXPECT_EQ(sov_cache_set(&cache, &X, &X, nullptr, g), SOV_ERR_NULL);
  EXPECT_EQ(sov_cache_set(&cache, &X, &X, x, nullptr), SOV_ERR_NULL);
}

TEST(SuperovoidErrors, NullQueryArgumentsAreRejected) {
  const double far[3] = {4, 0, 0};
  const sov_shape s = MakeShape(kValid);
  const sov_pose XA = QuatPose(kIdentityQuat, kOrigin), XB = QuatPose(kIdentityQuat, far);
  sov_result r;
  int c;
  EXPECT_EQ(sov_distance(nullptr, &s, &XA, &s, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_distance(&r, nullptr, &XA, &s, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_distance(&r, &s, nullptr, &s, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_distance(&r, &s, &XA, nullptr, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_distance(&r, &s, &XA, &s, nullptr, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_distance(&r, &s, &XA, &s, &XB, nullptr, nullptr), SOV_OK);  // optional
  EXPECT_EQ(sov_collide(nullptr, &s, &XA, &s, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_collide(&c, nullptr, &XA, &s, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_collide(&c, &s, nullptr, &s, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_collide(&c, &s, &XA, nullptr, &XB, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_collide(&c, &s, &XA, &s, nullptr, nullptr, nullptr), SOV_ERR_NULL);
  EXPECT_EQ(sov_collide(&c, &s, &XA, &s, &XB, nullptr, nullptr), SOV_OK);
}

TEST(SuperovoidErrors, NonFiniteShapeParametersAreRejected) {
  for (int i = 0; i < 7; ++i)
    for (double bad : kNonFinite) {
      const Params p = With(kValid, i, bad);
      EXPECT_EQ(InitStatus(p, i), SOV_ERR_NONFINITE) << kParamNames[i] << " = " << bad;
      double scale;
      EXPECT_EQ(sov_shape_max_taper_scale(&scale, p.data()), SOV_ERR_NONFINITE);
    }
}

TEST(SuperovoidErrors, NonFinitePosesAndPointsAreRejected) {
  const sov_shape s = MakeShape(kValid);
  const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  sov_pose X;
  double F, h, y[3];
  for (double bad : kNonFinite) {
    for (int i = 0; i < 4; ++i) {
      double q[4] = {1, 0, 0, 0};
      q[i] = bad;
      EXPECT_EQ(sov_pose_from_quat(&X, q, kOrigin), SOV_ERR_NONFINITE) << "q[" << i << "]";
    }
    for (int i = 0; i < 9; ++i) {
      double M[9];
      std::memcpy(M, R, sizeof M);
      M[i] = bad;
      EXPECT_EQ(sov_pose_from_matrix(&X, M, kOrigin), SOV_ERR_NONFINITE) << "R[" << i << "]";
    }
    for (int i = 0; i < 3; ++i) {
      double p[3] = {0, 0, 0};
      p[i] = bad;
      EXPECT_EQ(sov_pose_from_quat(&X, kIdentityQuat, p), SOV_ERR_NONFINITE) << "p[" << i << "]";
      EXPECT_EQ(sov_pose_from_matrix(&X, R, p), SOV_ERR_NONFINITE) << "p[" << i << "]";
      EXPECT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &s, p), SOV_ERR_NONFINITE);
      EXPECT_EQ(sov_shape_support(y, &h, &s, p), SOV_ERR_NONFINITE);
    }
    EXPECT_EQ(sov_shape_point(y, nullptr, nullptr, nullptr, &s, bad, 0.1), SOV_ERR_NONFINITE);
    EXPECT_EQ(sov_shape_point(y, nullptr, nullptr, nullptr, &s, 0.1, bad), SOV_ERR_NONFINITE);
  }
}

TEST(SuperovoidErrors, NonFinitePoseStructsAreRejectedByQueries) {
  const double far[3] = {4, 0, 0};
  const sov_shape s = MakeShape(kValid);
  const sov_pose XA = QuatPose(kIdentityQuat, kOrigin);
  sov_result r;
  int c;
  for (double bad : kNonFinite)
    for (int i = 0; i < 12; ++i) {
      sov_pose XB = QuatPose(kIdentityQuat, far);
      (i < 9 ? XB.R[i] : XB.p[i - 9]) = bad;
      EXPECT_EQ(sov_distance(&r, &s, &XA, &s, &XB, nullptr, nullptr), SOV_ERR_NONFINITE);
      EXPECT_EQ(sov_collide(&c, &s, &XA, &s, &XB, nullptr, nullptr), SOV_ERR_NONFINITE);
      sov_cache cache{};
      EXPECT_EQ(sov_cache_set(&cache, &XA, &XB, kOrigin, far), SOV_ERR_NONFINITE);
    }
}

TEST(SuperovoidErrors, NonPositiveSizesAreRejected) {
  for (int i = 0; i < 3; ++i)
    for (double bad : {0.0, -0.0, -1.0, -1e-300})
      EXPECT_EQ(InitStatus(With(kValid, i, bad), i), SOV_ERR_SIZE) << kParamNames[i] << " = " << bad;
}

// Positive but unusable sizes: sov_shape_explain gives init's refusal too
// (it called such shapes valid, and init refused them).
TEST(SuperovoidErrors, SizesNoQueryCouldUseAreRejected) {
  for (int i = 0; i < 3; ++i) {
    for (double subnormal : {5e-324, 1e-310})
      EXPECT_EQ(InitStatus(With(kValid, i, subnormal), i), SOV_ERR_SIZE)
          << kParamNames[i] << " = " << subnormal;
    EXPECT_EQ(InitStatus(With(kValid, i, 1e305), i), SOV_ERR_NONFINITE) << kParamNames[i];
  }
  const Params tiny = {1e-200, 1e-200, 1e-200, 0.6, 0.8, 0.2, 0.2};
  EXPECT_EQ(InitStatus(tiny, -1), SOV_ERR_SIZE) << "the bounding radius underflows";
}

TEST(SuperovoidErrors, ExponentsOutsideOpenIntervalAreRejected) {
  const Params untapered = {0.9, 1.1, 0.8, 1.0, 1.0, 0.0, 0.0};
  for (int i = 3; i < 5; ++i) {
    for (double bad : {0.0, -0.5, 2.0, 2.5})
      EXPECT_EQ(InitStatus(With(untapered, i, bad), i), SOV_ERR_EXPONENT)
          << kParamNames[i] << " = " << bad;
    for (double good : {0.1, 1.9, 5e-324})  // subnormal: bug 21
      EXPECT_EQ(InitStatus(With(untapered, i, good), -1), SOV_OK) << kParamNames[i] << " = " << good;
  }
}

TEST(SuperovoidErrors, TapersOfMagnitudeOneOrMoreAreRejected) {
  for (int i = 5; i < 7; ++i)
    for (double bad : {1.0, -1.0, 1.5, -3.0})
      EXPECT_EQ(InitStatus(With(kValid, i, bad), i), SOV_ERR_TAPER) << kParamNames[i] << " = " << bad;
}

TEST(SuperovoidErrors, NonConvexTapersAreRejectedAndExplained) {
  // SPEC: with equal tapers t and eps2 = 1.6 the largest convex |t| is 0.348.
  const Params dented = {1, 1, 1, 1, 1.6, 0.5, 0.5};
  EXPECT_EQ(InitStatus(dented, -1), SOV_ERR_NONCONVEX);
  double scale = kNaN;
  ASSERT_EQ(sov_shape_max_taper_scale(&scale, dented.data()), SOV_OK);
  EXPECT_NEAR(scale * dented[5], 0.348, kSpecTaperTol);
  char text[512];
  sov_shape_explain(text, sizeof text, dented.data());
  const std::string lower = Lower(text);
  EXPECT_NE(lower.find("taper"), std::string::npos) << text;
  EXPECT_NE(lower.find("convex"), std::string::npos) << text;
  bool names_scale = false;
  for (double v : NumbersIn(text))
    for (double want : {scale, 1 - scale, scale * dented[5]})
      names_scale |= std::fabs(v - want) <= kExplainScaleTol ||
                     std::fabs(v / 100 - want) <= kExplainScaleTol;
  EXPECT_TRUE(names_scale) << "explanation gives no shrink figure near scale " << scale << ": "
                           << text;
  Params shrunk = dented;
  for (double f : {0.99, 1.02}) {
    shrunk[5] = shrunk[6] = dented[5] * scale * f;
    EXPECT_EQ(InitStatus(shrunk, -1), f < 1 ? SOV_OK : SOV_ERR_NONCONVEX) << "taper " << shrunk[5];
  }
}

TEST(SuperovoidErrors, LargestConvexTaperFollowsSpecTable) {
  // SPEC "Valid parameters": eps2 -> largest convex equal taper.
  const double table[][2] = {{1.0, 0.707}, {1.4, 0.487}, {1.6, 0.348}, {1.8, 0.187}, {1.9, 0.097}};
  for (const auto& row : table) {
    const Params p = {1, 1, 1, 1, row[0], 0.9, 0.9};
    double scale = kNaN;
    ASSERT_EQ(sov_shape_max_taper_scale(&scale, p.data()), SOV_OK);
    EXPECT_NEAR(scale * p[5], row[1], kSpecTaperTol) << "eps2 = " << row[0];
  }
  double scale = kNaN;
  ASSERT_EQ(sov_shape_max_taper_scale(&scale, kValid.data()), SOV_OK);
  EXPECT_EQ(scale, 1.0);
}

TEST(SuperovoidErrors, UnequalTapersDentingAFlatProfileAreRejected) {
  // eps2 < 1 with opposite tapers: the equator is dented by about a quarter
  // of the body's size (SPEC "Valid parameters", second way).
  const Params dented = {1, 1, 1, 1, 0.2, 0.9, -0.9};
  EXPECT_EQ(InitStatus(dented, -1), SOV_ERR_NONCONVEX);
  char text[512];
  sov_shape_explain(text, sizeof text, dented.data());
  EXPECT_NE(Lower(text).find("convex"), std::string::npos) << text;
  double scale = kNaN;
  ASSERT_EQ(sov_shape_max_taper_scale(&scale, dented.data()), SOV_OK);
  EXPECT_LT(scale, 1.0);
}

TEST(SuperovoidErrors, QuaternionsOffUnitNormAreRejected) {
  Rng rng(7);
  double q[4];
  RandomQuat(q, rng);
  sov_pose X;
  for (double off : {kQuatRejectedOffset, -kQuatRejectedOffset, kQuatAcceptedOffset,
                     -kQuatAcceptedOffset}) {
    double scaled[4];
    for (int i = 0; i < 4; ++i) scaled[i] = q[i] * (1 + off);
    EXPECT_EQ(sov_pose_from_quat(&X, scaled, kOrigin),
              std::fabs(off) > 1e-6 ? SOV_ERR_QUATERNION : SOV_OK)
        << "norm off by " << off;
  }
  const double zero[4] = {0, 0, 0, 0};
  EXPECT_EQ(sov_pose_from_quat(&X, zero, kOrigin), SOV_ERR_QUATERNION);
}

// A matrix accepted with an error (float precision: about 6e-8 an entry)
// poses the nearest rotation: orthonormal to rounding, det 1, and moved from
// the given matrix by no more than its own error.
TEST(SuperovoidPose, AcceptedMatricesAreMadeOrthonormal) {
  Rng rng(12);
  for (int trial = 0; trial < 100; ++trial) {
    double q[4];
    RandomQuat(q, rng);
    const sov_pose exact = QuatPose(q, kOrigin);
    double M[9];
    for (int i = 0; i < 9; ++i) M[i] = static_cast<float>(exact.R[i]);
    M[trial % 9] += 4e-7;  // and a little more, still within the rule
    sov_pose X;
    ASSERT_EQ(sov_pose_from_matrix(&X, M, kOrigin), SOV_OK);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double dot = X.R[3 * i] * X.R[3 * j] + X.R[3 * i + 1] * X.R[3 * j + 1] +
                           X.R[3 * i + 2] * X.R[3 * j + 2];
        EXPECT_NEAR(dot, i == j ? 1.0 : 0.0, 4 * DBL_EPSILON) << "trial " << trial;
      }
    const double* R = X.R;
    const double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                       R[2] * (R[3] * R[7] - R[4] * R[6]);
    EXPECT_NEAR(det, 1.0, 4 * DBL_EPSILON) << "trial " << trial;
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(X.R[i], M[i], 1e-6) << "trial " << trial;
  }
}

// A hand-filled pose whose R is accepted but not a rotation to rounding
// (scaled, float-rounded, sheared within 1e-6) poses the nearest rotation in
// every query, as sov_pose_from_matrix's pose of the same R does: the same
// bits. Before, the queries took R as given, a slightly scaled or sheared
// body (3e-7 of the size off for R = (1 + 3e-7) I).
TEST(SuperovoidPose, HandFilledPosesPoseTheNearestRotation) {
  Rng rng(13);
  const sov_shape A = MakeShape(kValid);
  const sov_shape B = MakeShape({0.4, 0.7, 0.5, 0.3, 1.6, 0.2, -0.1});
  for (int trial = 0; trial < 60; ++trial) {
    double q[4];
    RandomQuat(q, rng);
    const double p[3] = {1.2, -0.3, 0.4 + 0.02 * trial};
    sov_pose raw = QuatPose(q, p);
    if (trial % 3 == 0)
      for (double& e : raw.R) e *= 1 + 3e-7;  // scaled
    else if (trial % 3 == 1)
      for (double& e : raw.R) e = static_cast<float>(e);  // float precision
    else
      raw.R[trial % 9] += 5e-7;  // sheared
    sov_pose settled;
    ASSERT_EQ(sov_pose_from_matrix(&settled, raw.R, raw.p), SOV_OK);
    const sov_pose XA = QuatPose(kIdentityQuat, kOrigin);
    sov_result r_raw, r_settled;
    ASSERT_EQ(sov_distance(&r_raw, &A, &XA, &B, &raw, nullptr, nullptr), SOV_OK);
    ASSERT_EQ(sov_distance(&r_settled, &A, &XA, &B, &settled, nullptr, nullptr), SOV_OK);
    EXPECT_TRUE(sov_test::SameBits(r_raw, r_settled)) << "trial " << trial;
    int c_raw = -1, c_settled = -2;
    ASSERT_EQ(sov_collide(&c_raw, &A, &XA, &B, &raw, nullptr, nullptr), SOV_OK);
    ASSERT_EQ(sov_collide(&c_settled, &A, &XA, &B, &settled, nullptr, nullptr), SOV_OK);
    EXPECT_EQ(c_raw, c_settled) << "trial " << trial;
    // The same motion given by the two poses: the same pose at every t.
    const sov_motion m_raw = {XA, raw}, m_settled = {XA, settled};
    for (const double t : {0.25, 1.0}) {
      sov_pose at_raw, at_settled;
      ASSERT_EQ(sov_motion_pose(&at_raw, &m_raw, t), SOV_OK);
      ASSERT_EQ(sov_motion_pose(&at_settled, &m_settled, t), SOV_OK);
      EXPECT_EQ(std::memcmp(&at_raw, &at_settled, sizeof at_raw), 0) << "trial " << trial;
    }
  }
}

TEST(SuperovoidErrors, NonRotationMatricesAreRejected) {
  Rng rng(11);
  double q[4];
  RandomQuat(q, rng);
  const sov_pose good = QuatPose(q, kOrigin);
  sov_pose X;
  EXPECT_EQ(sov_pose_from_matrix(&X, good.R, kOrigin), SOV_OK);
  double M[9];
  for (int i = 0; i < 9; ++i) M[i] = good.R[i] * (1 + 1e-4);  // scaled
  EXPECT_EQ(sov_pose_from_matrix(&X, M, kOrigin), SOV_ERR_ROTATION);
  std::memcpy(M, good.R, sizeof M);
  M[1] += 1e-3;  // sheared
  EXPECT_EQ(sov_pose_from_matrix(&X, M, kOrigin), SOV_ERR_ROTATION);
  for (int i = 0; i < 9; ++i) M[i] = (i < 3 ? -1 : 1) * good.R[i];  // det -1
  EXPECT_EQ(sov_pose_from_matrix(&X, M, kOrigin), SOV_ERR_ROTATION);
  const double reflection[9] = {1, 0, 0, 0, 1, 0, 0, 0, -1};
  EXPECT_EQ(sov_pose_from_matrix(&X, reflection, kOrigin), SOV_ERR_ROTATION);
  const double zero[9] = {};
  EXPECT_EQ(sov_pose_from_matrix(&X, zero, kOrigin), SOV_ERR_ROTATION);
  // A pose struct filled by hand is checked by the queries too.
  const sov_shape s = MakeShape(kValid);
  const double far[3] = {4, 0, 0};
  sov_pose XB = QuatPose(kIdentityQuat, far);
  std::memcpy(XB.R, reflection, sizeof XB.R);
  sov_result r;
  EXPECT_EQ(sov_distance(&r, &s, &good, &s, &XB, nullptr, nullptr), SOV_ERR_ROTATION);
}

TEST(SuperovoidErrors, BadOptionsAreRejected) {
  sov_method m;
  EXPECT_EQ(sov_method_from_name(&m, "bogus"), SOV_ERR_OPTION);
  EXPECT_EQ(sov_method_from_name(&m, ""), SOV_ERR_OPTION);
  const double far[3] = {4, 0, 0};
  const sov_shape s = MakeShape(kValid);
  const sov_pose XA = QuatPose(kIdentityQuat, kOrigin), XB = QuatPose(kIdentityQuat, far);
  std::vector<sov_options> bad(7);
  for (auto& o : bad) sov_options_default(&o);
  bad[0].method = SOV_METHOD_COUNT;
  bad[1].method = static_cast<sov_method>(7);
  bad[2].seed = static_cast<sov_seed>(3);
  bad[3].tolerance = 0;
  bad[4].tolerance = -1e-9;
  bad[5].tolerance = kNaN;
  bad[6].max_iterations = 0;
  for (size_t i = 0; i < bad.size(); ++i) {
    sov_result r;
    int c;
    EXPECT_EQ(sov_distance(&r, &s, &XA, &s, &XB, &bad[i], nullptr), SOV_ERR_OPTION) << "case " << i;
    EXPECT_EQ(sov_collide(&c, &s, &XA, &s, &XB, &bad[i], nullptr), SOV_ERR_OPTION) << "case " << i;
  }
}

TEST(SuperovoidErrors, IterationCapReportsNoConvergence) {
  Rng rng(13);
  const PosedPair pp = RandomPair(rng);
  const sov_result truth = Solve(pp);
  for (int m = SOV_METHOD_AUTO; m < SOV_METHOD_COUNT; ++m) {
    sov_options o;
    sov_options_default(&o);
    o.method = static_cast<sov_method>(m);
    o.max_iterations = 1;
    sov_result r{};
    const int st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, nullptr);
    if (m == SOV_METHOD_AUTO) {  // may still answer, but only correctly
      if (st == SOV_OK) {
        EXPECT_TRUE(CheckAnswer(r, pp, truth.d).empty()) << CheckAnswer(r, pp, truth.d);
      } else {
        EXPECT_TRUE(IsHonestFailure(st)) << sov_status_string(st);
      }
    } else {
      EXPECT_EQ(st, SOV_ERR_NO_CONVERGENCE) << sov_method_name(o.method) << ": "
                                            << sov_status_string(st);
    }
  }
}

// Two ellipsoids 3 apart on the x axis: the answer is d = 1.5, n = +x.
PosedPair EllipsoidsOnXAxis() {
  const double far[3] = {3, 0, 0};
  return Posed({0.8, 0.6, 0.5, 1, 1, 0, 0}, QuatPose(kIdentityQuat, kOrigin),
               {0.7, 0.5, 0.9, 1, 1, 0, 0}, QuatPose(kIdentityQuat, far));
}

TEST(SuperovoidErrors, SpuriousCommonNormalPairsAreReported) {
  const PosedPair pp = EllipsoidsOnXAxis();
  // Exact common-normal pairs that are not the answer: both far sides, and
  // A's near side with B's far side (B's normal not opposite A's).
  const double far_a[3] = {-0.8, 0, 0}, near_a[3] = {0.8, 0, 0}, far_b[3] = {3.7, 0, 0};
  const double* seeds[2][2] = {{far_a, far_b}, {near_a, far_b}};
  const double n[3] = {1, 0, 0}, pA[3] = {0.8, 0, 0}, pB[3] = {2.3, 0, 0};
  for (const auto& seed : seeds)
    for (int m = SOV_METHOD_AUTO; m < SOV_METHOD_COUNT; ++m) {
      sov_cache cache{};
      ASSERT_EQ(sov_cache_set(&cache, &pp.XA, &pp.XB, seed[0], seed[1]), SOV_OK);
      sov_options o;
      sov_options_default(&o);
      o.method = static_cast<sov_method>(m);
      o.seed = SOV_SEED_CACHE;
      sov_result r{};
      const int st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, &cache);
      SCOPED_TRACE(std::string(sov_method_name(o.method)) + " from pA.x = " +
                   std::to_string(seed[0][0]));
      if (m == SOV_METHOD_AUTO) {
        ASSERT_EQ(st, SOV_OK) << sov_status_string(st);
        ExpectAnswer(r, pp, 1.5, n, pA, pB);
      } else {
        EXPECT_EQ(st, SOV_ERR_SPURIOUS) << sov_status_string(st) << " d = " << r.d;
      }
    }
}

TEST(SuperovoidErrors, SingularSeedIsAnHonestFailureOrACorrectAnswer) {
  // Both seeds at poles, where the parametrization's phi1 column vanishes;
  // the answer is elsewhere. SOV_ERR_SINGULAR cannot be forced through the
  // public API, so this checks it is only ever an honest failure.
  EXPECT_LT(SOV_ERR_SINGULAR, 0);
  const double cB[3] = {0.6, 0.3, 2.5};
  const PosedPair pp = Posed({0.8, 0.6, 0.5, 1, 1, 0, 0}, QuatPose(kIdentityQuat, kOrigin),
                             {0.7, 0.5, 0.9, 1, 1, 0, 0}, QuatPose(kIdentityQuat, cB));
  const double poleA[3] = {0, 0, 0.5}, poleB[3] = {0.6, 0.3, 1.6};
  const sov_result truth = Solve(pp);
  for (int m = SOV_METHOD_IMPLICIT; m < SOV_METHOD_COUNT; ++m) {
    sov_cache cache{};
    ASSERT_EQ(sov_cache_set(&cache, &pp.XA, &pp.XB, poleA, poleB), SOV_OK);
    sov_options o;
    sov_options_default(&o);
    o.method = static_cast<sov_method>(m);
    o.seed = SOV_SEED_CACHE;
    sov_result r{};
    const int st = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, &cache);
    std::printf("[ singular ] %s from poles: status %d (%s)\n", sov_method_name(o.method), st,
                sov_status_string(st));
    if (st == SOV_OK) {
      EXPECT_TRUE(CheckAnswer(r, pp, truth.d).empty()) << sov_method_name(o.method);
    } else {
      EXPECT_TRUE(IsHonestFailure(st)) << sov_method_name(o.method) << ": "
                                       << sov_status_string(st);
    }
  }
}

// A study method seeded from the cache without a cached answer is refused
// by sov_collide as by sov_distance, far apart (an early exit) or not: the
// collide once answered where the distance refused the same options.
TEST(SuperovoidErrors, CollideRefusesACacheSeedWithoutAnAnswerAsDistanceDoes) {
  sov_options o;
  sov_options_default(&o);
  o.method = SOV_METHOD_IMPLICIT;
  o.seed = SOV_SEED_CACHE;
  for (double x : {3.0, 0.5}) {
    const double c[3] = {x, 0, 0};
    const PosedPair pp = Posed({1, 1, 1, 1, 1, 0, 0}, QuatPose(kIdentityQuat, kOrigin),
                               {1, 1, 1, 1, 1, 0, 0}, QuatPose(kIdentityQuat, c));
    sov_result r{};
    int colliding = -1;
    EXPECT_EQ(sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, nullptr), SOV_ERR_OPTION) << x;
    EXPECT_EQ(sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, nullptr), SOV_ERR_OPTION)
        << x;
    sov_cache empty;
    sov_cache_reset(&empty);
    EXPECT_EQ(sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, &empty), SOV_ERR_OPTION)
        << x;
    // With an answer in the cache both answer.
    ASSERT_EQ(sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, &empty), SOV_OK) << x;
    EXPECT_EQ(sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, &empty), SOV_OK) << x;
    EXPECT_EQ(colliding, x < 2 ? 1 : 0) << x;
  }
}

TEST(SuperovoidErrors, TooSmallBufferIsRejected) {
  const Params dented = {1, 1, 1, 1, 1.6, 0.5, 0.5};
  char buf[16];
  std::memset(buf, 'x', sizeof buf);
  EXPECT_EQ(sov_shape_explain(buf, 0, dented.data()), SOV_ERR_BUFFER);
  EXPECT_EQ(buf[0], 'x') << "a zero-size buffer was written";
  // A short buffer is never overrun and always terminated.
  const int st = sov_shape_explain(buf, 8, dented.data());
  EXPECT_TRUE(st == SOV_ERR_NONCONVEX || st == SOV_ERR_BUFFER) << sov_status_string(st);
  EXPECT_NE(std::memchr(buf, '\0', 8), nullptr) << "not terminated within the buffer";
  for (size_t i = 8; i < sizeof buf; ++i) EXPECT_EQ(buf[i], 'x') << "overrun at " << i;
}

// Issue 29: every query is solved in a frame centred on the pair and
// scaled to its size, so an answer does not depend on where the pair is or
// on its unit of length. The subsets' pairs moved 1e3 to 1e9 away (d to
// 1e-9, as at the origin; pB - pA = d n to 1e-9 or, where the coordinates'
// own rounding is coarser, to 4 ulps of them) and scaled by 1e-9 and 1e9
// (d to 1e-9 of the size).
TEST(SuperovoidDistance, AnswerIndependentOfOffsetAndScale) {
  // Far from the origin the input itself is rounded: adding the offset moves
  // each body by up to half an ulp of the offset, so the pair posed there is
  // a slightly different pair. Its exact relative placement is recovered by
  // subtracting the offset again (Sterbenz: exact), and the distance, being
  // 1-Lipschitz in the relative translation, may differ from the reference by
  // the tolerance plus that translation's change, and no more.
  for (const char *name : {"/paper_subset.csv", "/stress_subset.csv"}) {
    const sov_test::Battery b = sov_test::LoadBattery(std::string(SOV_TEST_DATA_DIR) + name);
    ASSERT_TRUE(b.error.empty()) << b.error;
    for (size_t i = 0; i < b.pairs.size(); i += 5) {
      const double d_ref = b.refs[i].d;
      for (const double offset : {1e3, 1e6, 1e9}) {
        const double dir[3] = {0.6, -0.8, 0.5};
        sov_test::Pair moved = b.pairs[i], back = b.pairs[i];
        for (int j = 0; j < 2; ++j)
          for (int k = 0; k < 3; ++k) {
            moved.body[j][11 + k] += offset * dir[k];
            back.body[j][11 + k] = moved.body[j][11 + k] - offset * dir[k];
          }
        double shift2 = 0;
        for (int k = 0; k < 3; ++k) {
          const double was = b.pairs[i].body[1][11 + k] - b.pairs[i].body[0][11 + k];
          const double now = back.body[1][11 + k] - back.body[0][11 + k];
          shift2 += (now - was) * (now - was);
        }
        PosedPair pp;
        ASSERT_EQ(sov_test::MakePosedPair(&pp, moved), SOV_OK);
        const sov_result r = Solve(pp);
        const std::string what = std::string(name) + " row " + std::to_string(i) + " offset " +
                                 sov_test::Num(offset);
        EXPECT_NEAR(r.d, d_ref, 1e-9 + std::sqrt(shift2)) << what;
        const double rounding = 4 * std::ldexp(DBL_EPSILON, std::ilogb(offset));
        for (int k = 0; k < 3; ++k)
          EXPECT_NEAR(r.pB[k] - r.pA[k], r.d * r.n[k], std::fmax(1e-9, rounding)) << what;
      }
      for (const double scale : {1e-9, 1e9}) {
        sov_test::Pair scaled = b.pairs[i];
        for (double *body : {scaled.body[0], scaled.body[1]}) {
          for (int k = 0; k < 3; ++k) body[k] *= scale;
          for (int k = 0; k < 3; ++k) body[11 + k] *= scale;
        }
        PosedPair pp;
        ASSERT_EQ(sov_test::MakePosedPair(&pp, scaled), SOV_OK);
        const sov_result r = Solve(pp);
        EXPECT_NEAR(r.d / scale, d_ref, 1e-9)
            << name << " row " << i << " scale " << sov_test::Num(scale);
      }
    }
  }
}

TEST(SuperovoidErrors, TooSmallWorkMemoryIsRejected) {
  const double near[3] = {0.5, 0, 0};
  const sov_shape s = MakeShape(kValid);
  const sov_pose XA = QuatPose(kIdentityQuat, kOrigin), XB = QuatPose(kIdentityQuat, near);
  std::vector<unsigned char> work(sov_work_size() - 1);
  sov_options o;
  sov_options_default(&o);
  o.work = work.data();
  o.work_size = work.size();
  sov_result r;
  int c;
  EXPECT_EQ(sov_distance(&r, &s, &XA, &s, &XB, &o, nullptr), SOV_ERR_BUFFER);
  EXPECT_EQ(sov_collide(&c, &s, &XA, &s, &XB, &o, nullptr), SOV_ERR_BUFFER);
}

// The caller's work memory, at any alignment, gives the answers of the
// stack's, bit for bit: every pair of both subsets, the default method
// and a certified study method (whose certificate runs the search too).
TEST(SuperovoidDistance, WorkMemoryGivesTheStacksAnswers) {
  std::vector<unsigned char> work(sov_work_size() + 7);
  for (const char* name : {"/paper_subset.csv", "/stress_subset.csv"}) {
    const sov_test::Battery b = sov_test::LoadBattery(std::string(SOV_TEST_DATA_DIR) + name);
    ASSERT_TRUE(b.error.empty()) << b.error;
    for (sov_method m : {SOV_METHOD_AUTO, SOV_METHOD_IMPLICIT}) {
      sov_options plain, given;
      sov_options_default(&plain);
      plain.method = m;
      given = plain;
      for (size_t i = 0; i < b.pairs.size(); ++i) {
        PosedPair pp;
        ASSERT_EQ(sov_test::MakePosedPair(&pp, b.pairs[i]), SOV_OK);
        given.work = work.data() + i % 8;
        given.work_size = sov_work_size();
        sov_result r1, r2;
        const int st1 = sov_distance(&r1, &pp.A, &pp.XA, &pp.B, &pp.XB, &plain, nullptr);
        const int st2 = sov_distance(&r2, &pp.A, &pp.XA, &pp.B, &pp.XB, &given, nullptr);
        SCOPED_TRACE(std::string(name) + " row " + std::to_string(i));
        ASSERT_EQ(st1, st2);
        if (st1 != SOV_OK) continue;
        EXPECT_EQ(std::memcmp(&r1.d, &r2.d, sizeof r1.d), 0);
        EXPECT_EQ(std::memcmp(r1.n, r2.n, sizeof r1.n), 0);
        EXPECT_EQ(std::memcmp(r1.pA, r2.pA, sizeof r1.pA), 0);
        EXPECT_EQ(std::memcmp(r1.pB, r2.pB, sizeof r1.pB), 0);
      }
    }
  }
}

// ------------------------------------------------------------ closed forms

TEST(SuperovoidDistance, SpheresMatchClosedForm) {
  const double r1 = 0.7, r2 = 1.3, c1[3] = {0.3, -0.2, 0.5};
  const double u[3] = {1.0 / 3, 2.0 / 3, -2.0 / 3};
  Rng rng(17);
  for (double L : {2.5, 1.6}) {  // separated by 0.5, overlapping by 0.4
    double qa[4], qb[4], c2[3], pA[3], pB[3];
    RandomQuat(qa, rng);
    RandomQuat(qb, rng);
    for (int i = 0; i < 3; ++i) {
      c2[i] = c1[i] + L * u[i];
      pA[i] = c1[i] + r1 * u[i];
      pB[i] = c2[i] - r2 * u[i];
    }
    const PosedPair pp = Posed({r1, r1, r1, 1, 1, 0, 0}, QuatPose(qa, c1),
                               {r2, r2, r2, 1, 1, 0, 0}, QuatPose(qb, c2));
    const sov_result r = Solve(pp);
    SCOPED_TRACE("centre distance " + std::to_string(L));
    ExpectAnswer(r, pp, L - r1 - r2, u, pA, pB);
    if (L < r1 + r2) {
      EXPECT_NEAR(-r.d, r1 + r2 - L, kClosedFormTol);  // penetration depth
    }
  }
}

// Poses of two bodies sharing the axis w = Q z, B at distance L along it,
// each turned about the axis by its own angle.
void CoaxialPoses(sov_pose* XA, sov_pose* XB, double w[3], const double c0[3], double L) {
  const double q[4] = {0.9, 0.2, -0.3, 0.25};
  const double nq = std::sqrt(0.9 * 0.9 + 0.2 * 0.2 + 0.3 * 0.3 + 0.25 * 0.25);
  const double qn[4] = {q[0] / nq, q[1] / nq, q[2] / nq, q[3] / nq};
  const sov_pose Q = QuatPose(qn, kOrigin);
  const double z[3] = {0, 0, 1};
  double RzA[9], RzB[9], RA[9], RB[9], cB[3];
  AxisAngle(RzA, z, 0.4);
  AxisAngle(RzB, z, -1.1);
  MatMul(RA, Q.R, RzA);
  MatMul(RB, Q.R, RzB);
  for (int i = 0; i < 3; ++i) {
    w[i] = Q.R[3 * i + 2];
    cB[i] = c0[i] + L * w[i];
  }
  *XA = MatrixPose(RA, c0);
  *XB = MatrixPose(RB, cB);
}

// Checks the tip-to-tip answer of coaxial shapes at gaps of both signs;
// exact tips are checked only where the tips are rounded (ellipsoids).
void ExpectCoaxialTips(const Params& a, const Params& b, bool check_points) {
  const double c0[3] = {0.1, 0.2, -0.3};
  for (double gap : {0.3, -0.05}) {
    const double L = a[2] + b[2] + gap;
    sov_pose XA, XB;
    double w[3], tipA[3], tipB[3];
    CoaxialPoses(&XA, &XB, w, c0, L);
    for (int i = 0; i < 3; ++i) {
      tipA[i] = c0[i] + a[2] * w[i];
      tipB[i] = c0[i] + (L - b[2]) * w[i];
    }
    const PosedPair pp = Posed(a, XA, b, XB);
    SCOPED_TRACE("gap " + std::to_string(gap));
    ExpectAnswer(Solve(pp), pp, gap, w, check_points ? tipA : nullptr,
                 check_points ? tipB : nullptr);
  }
}

TEST(SuperovoidDistance, CoaxialEllipsoidsMatchTipGap) {
  // Overlap 0.05 is far below the tips' radii of curvature, so the
  // penetration is along the axis.
  ExpectCoaxialTips({0.7, 1.1, 0.5, 1, 1, 0, 0}, {0.9, 0.6, 1.3, 1, 1, 0, 0}, true);
}

TEST(SuperovoidDistance, CoaxialSuperellipsoidsMatchTipGap) {
  // eps2 < 1: flat tops (so the penetration is along the axis too); the
  // witness points are not sharply defined there, d and n are.
  ExpectCoaxialTips({0.7, 1.1, 0.5, 0.5, 0.7, 0, 0}, {0.9, 0.6, 1.3, 1.3, 0.5, 0, 0}, false);
}

TEST(SuperovoidDistance, SphereFacingCubeLikeFaceMatchesGap) {
  const Params cube = {0.8, 0.6, 0.5, 0.1, 0.1, 0, 0};
  const double r = 0.4;
  Rng rng(19);
  double q[4];
  RandomQuat(q, rng);
  const sov_pose XA = QuatPose(q, kOrigin);
  for (int axis : {0, 2})  // the eps1 (side) face and the eps2 (top) face
    for (double gap : {0.2, -0.05}) {
      double local_c[3] = {0, 0, 0}, c[3], n[3], pB[3];
      local_c[axis] = cube[axis] + r + gap;
      Transform(c, XA.R, local_c, XA.p);
      for (int i = 0; i < 3; ++i) {
        n[i] = XA.R[3 * i + axis];
        pB[i] = c[i] - r * n[i];
      }
      const PosedPair pp = Posed(cube, XA, {r, r, r, 1, 1, 0, 0}, QuatPose(kIdentityQuat, c));
      SCOPED_TRACE("face axis " + std::to_string(axis) + ", gap " + std::to_string(gap));
      ExpectAnswer(Solve(pp), pp, gap, n, nullptr, pB);  // the flat face's point is not unique
    }
}

// ------------------------------------------------------------ invariances

TEST(SuperovoidDistance, SwappingBodiesFlipsNormalAndWitnesses) {
  Rng rng(23);
  for (int k = 0; k < kRandomPairs; ++k) {
    const PosedPair ab = RandomPair(rng);
    PosedPair ba;
    ba.A = ab.B;
    ba.B = ab.A;
    ba.XA = ab.XB;
    ba.XB = ab.XA;
    const sov_result r1 = Solve(ab), r2 = Solve(ba);
    const double minus_n[3] = {-r1.n[0], -r1.n[1], -r1.n[2]};
    SCOPED_TRACE("random pair " + std::to_string(k) + ", d = " + sov_test::Num(r1.d));
    EXPECT_NEAR(r2.d, r1.d, kInvarianceTol);
    EXPECT_LE(MaxDiff(r2.n, minus_n), kInvarianceTol);
    EXPECT_LE(MaxDiff(r2.pA, r1.pB), kInvarianceTol);
    EXPECT_LE(MaxDiff(r2.pB, r1.pA), kInvarianceTol);
    EXPECT_TRUE(CheckAnswer(r1, ab, r1.d).empty()) << CheckAnswer(r1, ab, r1.d);
    EXPECT_TRUE(CheckAnswer(r2, ba, r2.d).empty()) << CheckAnswer(r2, ba, r2.d);
  }
}

TEST(SuperovoidDistance, RigidMotionOfBothBodiesMovesTheAnswer) {
  Rng rng(29);
  for (int k = 0; k < kRandomPairs; ++k) {
    const PosedPair pp = RandomPair(rng);
    double q[4], t[3];
    RandomQuat(q, rng);
    for (double& ti : t) ti = rng.Uniform(-5, 5);
    const sov_pose M = QuatPose(q, t);
    PosedPair moved = pp;
    moved.XA = Compose(M, pp.XA);
    moved.XB = Compose(M, pp.XB);
    const sov_result r1 = Solve(pp), r2 = Solve(moved);
    double n[3], pA[3], pB[3];
    Transform(n, M.R, r1.n, kOrigin);
    Transform(pA, M.R, r1.pA, M.p);
    Transform(pB, M.R, r1.pB, M.p);
    SCOPED_TRACE("random pair " + std::to_string(k) + ", d = " + sov_test::Num(r1.d));
    EXPECT_NEAR(r2.d, r1.d, kInvarianceTol);
    EXPECT_LE(MaxDiff(r2.n, n), kInvarianceTol);
    EXPECT_LE(MaxDiff(r2.pA, pA), kInvarianceTol);
    EXPECT_LE(MaxDiff(r2.pB, pB), kInvarianceTol);
  }
}

// Pose moved by a small rigid motion (rotation and translation of size `size`).
sov_pose Nudge(const sov_pose& X, Rng& rng, double size) {
  double axis[3], t[3], R[9];
  RandomUnit(axis, rng);
  RandomUnit(t, rng);
  AxisAngle(R, axis, size);
  for (double& ti : t) ti *= size;
  return Compose(MatrixPose(R, t), X);
}

// A warm answer against the cold answer of the same posed pair.
void ExpectSameAnswer(const sov_result& warm, const sov_result& cold) {
  EXPECT_NEAR(warm.d, cold.d, kInvarianceTol);
  EXPECT_LE(MaxDiff(warm.n, cold.n), kInvarianceTol);
  EXPECT_LE(MaxDiff(warm.pA, cold.pA), kInvarianceTol);
  EXPECT_LE(MaxDiff(warm.pB, cold.pB), kInvarianceTol);
}

TEST(SuperovoidDistance, WarmStartMatchesColdQuery) {
  Rng rng(31);
  for (int k = 0; k < kRandomPairs; ++k) {
    const PosedPair pp = RandomPair(rng);
    sov_cache cache;
    sov_cache_reset(&cache);
    Solve(pp, nullptr, &cache);
    EXPECT_TRUE(sov_cache_valid(&cache)) << "the query did not fill the cache";
    PosedPair moved = pp;
    moved.XA = Nudge(pp.XA, rng, kWarmMove);
    moved.XB = Nudge(pp.XB, rng, kWarmMove);
    const sov_result cold = Solve(moved);
    for (int m = SOV_METHOD_AUTO; m < SOV_METHOD_COUNT; ++m) {
      sov_options o;
      sov_options_default(&o);
      o.method = static_cast<sov_method>(m);
      o.seed = SOV_SEED_CACHE;
      sov_cache warm_cache = cache;
      sov_result warm{};
      const int st = sov_distance(&warm, &moved.A, &moved.XA, &moved.B, &moved.XB, &o, &warm_cache);
      SCOPED_TRACE("random pair " + std::to_string(k) + ", " + sov_method_name(o.method));
      if (m == SOV_METHOD_AUTO) {
        ASSERT_EQ(st, SOV_OK) << sov_status_string(st);
      }
      if (st != SOV_OK) continue;  // a study method may fail, honestly
      ExpectSameAnswer(warm, cold);
    }
  }
}

// The cache keeps both bodies' F where the answer's Newton solve last
// evaluated them; a warm query starts there without evaluating again. Those
// values belong to the shapes: a cache filled for one pair and used for
// another must only seed the second pair, never answer it. Here the second
// pair has the first's poses, and the first pair was queried twice, so that
// its cached values (from the repeat, ended on an evaluated converged
// point) would claim a converged start.
TEST(SuperovoidDistance, CacheOfOtherShapesOnlySeeds) {
  Rng rng(37);
  for (int k = 0; k < kRandomPairs; ++k) {
    const PosedPair pp = RandomPair(rng);
    sov_cache cache;
    sov_cache_reset(&cache);
    Solve(pp, nullptr, &cache);
    Solve(pp, nullptr, &cache);
    PosedPair other = pp;
    other.A = MakeShape(RandomConvexParams(rng));
    const sov_result cold = Solve(other);
    const sov_result warm = Solve(other, nullptr, &cache);
    SCOPED_TRACE("random pair " + std::to_string(k) + ", d = " + sov_test::Num(cold.d));
    ExpectSameAnswer(warm, cold);
  }
}

// An overlap proved by inner balls keeps balls in the cache that fit around
// its witnesses; a pair sliding a little per query is proved again by those
// very balls (no new fit: the cache's balls stay as they were) until its
// witnesses have moved out of their reach, while its warm answers stay the
// cold ones.
TEST(SuperovoidDistance, SlidingOverlapIsProvedAgainByTheCachedBalls) {
  const Params a = {1.2, 0.8, 1.0, 0.7, 0.9, 0.2, -0.1}, b = {0.9, 1.1, 0.7, 1.2, 0.8, 0, 0.15};
  const double qb[4] = {0.9, 0.3, -0.2, 0.25}, cb[3] = {0.3, 1.45, 0.4};
  const double qn = std::sqrt(qb[0] * qb[0] + qb[1] * qb[1] + qb[2] * qb[2] + qb[3] * qb[3]);
  const double q[4] = {qb[0] / qn, qb[1] / qn, qb[2] / qn, qb[3] / qn};
  sov_cache cache;
  sov_cache_reset(&cache);
  sovc_cache_ball before[2];
  const sovc_cache *kept = sovc_cache_of(&cache);
  int reused = 0;
  for (int step = 0; step < 20; ++step) {
    const double c[3] = {cb[0] + 2e-3 * step, cb[1] - 1e-3 * step, cb[2]};
    const PosedPair pp = Posed(a, QuatPose(kIdentityQuat, kOrigin), b, QuatPose(q, c));
    const sov_result cold = Solve(pp);
    ASSERT_LT(cold.d, 0) << "step " << step;
    const sov_result warm = Solve(pp, nullptr, &cache);
    SCOPED_TRACE("step " + std::to_string(step));
    ExpectSameAnswer(warm, cold);
    ASSERT_EQ(kept->certified, 1) << "the overlap was not proved by inner balls";
    if (step > 0) reused += !std::memcmp(before, kept->ball, sizeof before);
    std::memcpy(before, kept->ball, sizeof before);
  }
  // Each fit reaches about 8 steps of this slide.
  EXPECT_GE(reused, 15) << "the cached balls were fitted anew too often";
  EXPECT_LT(reused, 19) << "the witnesses never left the cached balls' reach";
}

// A cache is the caller's memory: whatever it holds that a query or
// sov_cache_set did not seal into it is ignored, never trusted. Here the
// cached evaluations are replaced, key and flags kept, by a consistent lie:
// both bodies "on their surfaces" at points 5 apart along opposite
// gradients, which the position chart would take as converged at its start
// (d = 5); and the whole storage by random bytes. Both queries must give
// the cold answer.
TEST(SuperovoidDistance, EditedOrJunkCacheIsIgnored) {
  Rng rng(43);
  int edited_pairs = 0;
  for (int k = 0; k < kRandomPairs; ++k) {
    const PosedPair pp = RandomPair(rng);
    const sov_result cold = Solve(pp);
    sov_cache cache;
    sov_cache_reset(&cache);
    Solve(pp, nullptr, &cache);
    Solve(pp, nullptr, &cache);
    ASSERT_TRUE(sov_cache_valid(&cache));
    sovc_cache* c = sovc_cache_of(&cache);
    if (!c->evaluated) continue;  // answered by a chart that keeps no evaluations
    ++edited_pairs;
    const double up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    const sov_pose* X[2] = {&pp.XA, &pp.XB};
    for (int b = 0; b < 2; ++b) {
      const double w[3] = {pp.XA.p[0] + 50, pp.XA.p[1], pp.XA.p[2] + 5.0 * b};
      for (int i = 0; i < 3; ++i) {
        const double d[3] = {w[0] - X[b]->p[0], w[1] - X[b]->p[1], w[2] - X[b]->p[2]};
        c->eval[b].x[i] = X[b]->R[i] * d[0] + X[b]->R[3 + i] * d[1] + X[b]->R[6 + i] * d[2];
        const double* g = b ? down : up;
        c->eval[b].g[i] = X[b]->R[i] * g[0] + X[b]->R[3 + i] * g[1] + X[b]->R[6 + i] * g[2];
      }
      c->eval[b].f = 0;
    }
    const sov_result edited = Solve(pp, nullptr, &cache);
    SCOPED_TRACE("random pair " + std::to_string(k));
    ExpectSameAnswer(edited, cold);
    EXPECT_EQ(sov_cache_valid(&cache), 1) << "the query's own answer was not sealed";
    unsigned char* bytes = reinterpret_cast<unsigned char*>(&cache);
    for (size_t i = 0; i < sizeof cache; ++i)
      bytes[i] = static_cast<unsigned char>(rng.Uniform(0, 256));
    EXPECT_EQ(sov_cache_valid(&cache), 0) << "random bytes taken for a cache";
    ExpectSameAnswer(Solve(pp, nullptr, &cache), cold);
  }
  EXPECT_GT(edited_pairs, kRandomPairs / 2) << "too few answers kept evaluations to edit";
}

// A query that did not end in the position chart's Newton solve (a study
// method, a cache seeded from points) leaves no evaluations in the cache.
TEST(SuperovoidDistance, CacheHoldsEvaluationsOnlyFromTheDefaultMethod) {
  Rng rng(41);
  int evaluated = 0;
  for (int k = 0; k < kRandomPairs; ++k) {
    const PosedPair pp = RandomPair(rng);
    sov_cache cache;
    sov_cache_reset(&cache);
    const sov_result r = Solve(pp, nullptr, &cache);
    const sovc_cache *c = sovc_cache_of(&cache);
    evaluated += c->evaluated;
    ASSERT_EQ(sov_cache_set(&cache, &pp.XA, &pp.XB, r.pA, r.pB), SOV_OK);
    EXPECT_EQ(c->evaluated, 0) << "sov_cache_set kept evaluations";
    EXPECT_EQ(c->certified, 0) << "sov_cache_set kept inner balls";
    Solve(pp, nullptr, &cache);
    sov_options o;
    sov_options_default(&o);
    o.method = SOV_METHOD_IMPLICIT;
    o.seed = SOV_SEED_CACHE;
    sov_result study{};
    if (sov_distance(&study, &pp.A, &pp.XA, &pp.B, &pp.XB, &o, &cache) == SOV_OK) {
      EXPECT_EQ(c->evaluated, 0) << "a study method's answer kept evaluations";
      EXPECT_EQ(c->certified, 0) << "a study method's answer kept inner balls";
    }
  }
  // Most battery-like pairs end in the position chart (all but pointy ones).
  EXPECT_GT(evaluated, 0) << "no default-method query kept its evaluations";
}

// ---------------------------------------------------- collide and threads

// Posed pairs of both committed subsets.
std::vector<PosedPair> SubsetPairs() {
  std::vector<PosedPair> out;
  for (const char* name : {"/paper_subset.csv", "/stress_subset.csv"}) {
    const sov_test::Battery b = sov_test::LoadBattery(std::string(SOV_TEST_DATA_DIR) + name);
    EXPECT_TRUE(b.error.empty()) << b.error;
    for (const auto& pair : b.pairs) {
      PosedPair pp;
      EXPECT_EQ(sov_test::MakePosedPair(&pp, pair), SOV_OK) << name << " id " << pair.id;
      out.push_back(pp);
    }
  }
  return out;
}

TEST(SuperovoidCollide, AgreesWithSignOfDistanceOnSubsets) {
  const std::vector<PosedPair> pairs = SubsetPairs();
  ASSERT_FALSE(pairs.empty());
  int disagreements = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const PosedPair& pp = pairs[i];
    sov_result r{};
    int colliding = -1;
    const int sd = sov_distance(&r, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
    const int sc = sov_collide(&colliding, &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
    EXPECT_EQ(sc, SOV_OK) << "subset pair " << i << ": " << sov_status_string(sc);
    if (sd != SOV_OK || sc != SOV_OK) continue;
    EXPECT_TRUE(colliding == 0 || colliding == 1) << colliding;
    if (colliding != (r.d <= 0 ? 1 : 0) && ++disagreements <= 20)
      ADD_FAILURE() << "subset pair " << i << ": d = " << sov_test::Num(r.d)
                    << " but colliding = " << colliding;
  }
  EXPECT_EQ(disagreements, 0);
}

// A tip of a pointy body (exponents near 2: each semi-axis ends in a
// vertex, the support point over a cone of directions about its axis) a
// hair inside or outside a box-like body's face, in random poses, both ways
// round: the verdict is the gap's sign, known by construction. The face
// (eps 0.1, flat to rounding within a fifth of its half-width of its
// centre) is tilted from the tip's axis by up to 0.15 rad and shifted
// sideways; with exponents 1.9 and above the support along its normal lies
// within 1e-11 of the size of the tip. Such overlaps are what the collide's
// kink proof (a point of a support moved inwards) decides.
TEST(SuperovoidCollide, TipsOfPointyBodiesJustInsideOrOutsideAFace) {
  const Params pointy[] = {{0.3, 0.2, 0.15, 1.9, 1.9, 0, 0},
                           {0.2, 0.25, 0.3, 1.95, 1.9, 0, 0},
                           {0.3, 0.2, 0.15, 1.95, 1.9, 0.05, 0.05}};
  const Params face = {0.2, 0.25, 0.2, 0.1, 0.1, 0, 0};
  const sov_shape F = MakeShape(face);
  Rng rng(20261129);
  for (int k = 0; k < 3; ++k) {
    const sov_shape S = MakeShape(pointy[k]);
    for (int draw = 0; draw < 24; ++draw) {
      // The pointy body's pose and tip (one of its six, in world).
      double q[4], p[3], tip_local[3] = {0, 0, 0}, tip[3], axis[3], n[3], side[3], R[9];
      RandomQuat(q, rng);
      for (double& x : p) x = rng.Uniform(-1, 1);
      const sov_pose XS = QuatPose(q, p);
      const int a = draw % 6;
      tip_local[a / 2] = (a % 2 ? -1 : 1) * pointy[k][a / 2];
      Transform(tip, XS.R, tip_local, XS.p);
      // The face's outward normal is -n: n is the tip's axis tilted.
      Transform(axis, XS.R, tip_local, kOrigin);
      RandomUnit(side, rng);
      const double along = (axis[0] * side[0] + axis[1] * side[1] + axis[2] * side[2]) /
                           (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
      for (int i = 0; i < 3; ++i) side[i] -= along * axis[i];
      const double la = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
      const double ls = std::sqrt(side[0] * side[0] + side[1] * side[1] + side[2] * side[2]);
      const double tilt = rng.Uniform(0, 0.15);
      for (int i = 0; i < 3; ++i)
        n[i] = std::cos(tilt) * axis[i] / la + std::sin(tilt) * side[i] / ls;
      // The face body: its local z along n, turned about it at random.
      double t1[3], t2[3];
      RandomUnit(t1, rng);
      const double tn = t1[0] * n[0] + t1[1] * n[1] + t1[2] * n[2];
      for (int i = 0; i < 3; ++i) t1[i] -= tn * n[i];
      const double l1 = std::sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
      for (double& x : t1) x /= l1;
      t2[0] = n[1] * t1[2] - n[2] * t1[1];
      t2[1] = n[2] * t1[0] - n[0] * t1[2];
      t2[2] = n[0] * t1[1] - n[1] * t1[0];
      for (int i = 0; i < 3; ++i) R[3 * i] = t1[i], R[3 * i + 1] = t2[i], R[3 * i + 2] = n[i];
      const double u = rng.Uniform(-0.04, 0.04), v = rng.Uniform(-0.05, 0.05);
      for (double gap : {1e-3, 1e-6, 1e-9, -1e-9, -1e-6, -1e-3}) {
        double c[3];
        for (int i = 0; i < 3; ++i) c[i] = tip[i] + (gap + face[2]) * n[i] + u * t1[i] + v * t2[i];
        const sov_pose XF = MatrixPose(R, c);
        int ab = -1, ba = -1;
        ASSERT_EQ(sov_collide(&ab, &S, &XS, &F, &XF, nullptr, nullptr), SOV_OK);
        ASSERT_EQ(sov_collide(&ba, &F, &XF, &S, &XS, nullptr, nullptr), SOV_OK);
        EXPECT_EQ(ab, gap < 0) << "shape " << k << ", draw " << draw << ", gap " << gap;
        EXPECT_EQ(ba, gap < 0) << "swapped: shape " << k << ", draw " << draw << ", gap " << gap;
      }
    }
  }
}

// Query outputs of one pass over the pairs.
struct Pass {
  std::vector<int> status, collide_status, colliding;
  std::vector<sov_result> result;
};

// Solves every pair (distance and collide), in reverse order if asked.
Pass RunPass(const std::vector<PosedPair>& pairs, bool reverse) {
  const size_t n = pairs.size();
  Pass out{std::vector<int>(n), std::vector<int>(n), std::vector<int>(n),
           std::vector<sov_result>(n)};
  for (size_t k = 0; k < n; ++k) {
    const size_t i = reverse ? n - 1 - k : k;
    const PosedPair& pp = pairs[i];
    out.result[i] = sov_result{};
    out.status[i] = sov_distance(&out.result[i], &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
    out.collide_status[i] =
        sov_collide(&out.colliding[i], &pp.A, &pp.XA, &pp.B, &pp.XB, nullptr, nullptr);
  }
  return out;
}

TEST(SuperovoidThreads, ConcurrentQueriesMatchSerialBitForBit) {
  const std::vector<PosedPair> pairs = SubsetPairs();
  ASSERT_FALSE(pairs.empty());
  const Pass serial = RunPass(pairs, false);
  std::vector<Pass> passes(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { passes[t] = RunPass(pairs, t % 2 == 1); });
  for (auto& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) {
    int differing = 0;
    for (size_t i = 0; i < pairs.size(); ++i) {
      const bool same = passes[t].status[i] == serial.status[i] &&
                        SameBits(passes[t].result[i], serial.result[i]) &&
                        passes[t].collide_status[i] == serial.collide_status[i] &&
                        passes[t].colliding[i] == serial.colliding[i];
      if (!same && ++differing <= 5)
        ADD_FAILURE() << "thread " << t << ", subset pair " << i << ": d "
                      << sov_test::Num(passes[t].result[i].d) << " vs serial "
                      << sov_test::Num(serial.result[i].d);
    }
    EXPECT_EQ(differing, 0) << "thread " << t;
  }
}

}  // namespace

// Two spheres are answered in closed form, concentric ones included: every
// direction is then optimal and the penetration depth is r1 + r2.
TEST(SuperovoidDistance, ConcentricSpheresAreAnsweredInClosedForm) {
  const double big[7] = {1.0, 1.0, 1.0, 1, 1, 0, 0}, small[7] = {0.4, 0.4, 0.4, 1, 1, 0, 0};
  const double q[4] = {1, 0, 0, 0}, c[3] = {0.3, -0.2, 0.7};
  sov_shape A, B;
  sov_pose XA, XB;
  ASSERT_EQ(sov_shape_init(&A, big), SOV_OK);
  ASSERT_EQ(sov_shape_init(&B, small), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&XA, q, c), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&XB, q, c), SOV_OK);
  sov_result r;
  ASSERT_EQ(sov_distance(&r, &A, &XA, &B, &XB, nullptr, nullptr), SOV_OK);
  EXPECT_NEAR(r.d, -1.4, 1e-15);
  EXPECT_NEAR(std::sqrt(r.n[0] * r.n[0] + r.n[1] * r.n[1] + r.n[2] * r.n[2]), 1, 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.pB[i] - r.pA[i], r.d * r.n[i], 1e-15);
}

// Concentric equal prolate spheroids have a circle of optimal directions,
// every one perpendicular to the axis: the depth is the minor diameter.
TEST(SuperovoidDistance, ContinuumOfOptimaIsAnswered) {
  const double prolate[7] = {1.0, 1.0, 2.0, 1, 1, 0, 0};
  const double q[4] = {1, 0, 0, 0}, c[3] = {0, 0, 0};
  sov_shape A;
  sov_pose X;
  ASSERT_EQ(sov_shape_init(&A, prolate), SOV_OK);
  ASSERT_EQ(sov_pose_from_quat(&X, q, c), SOV_OK);
  sov_result r;
  ASSERT_EQ(sov_distance(&r, &A, &X, &A, &X, nullptr, nullptr), SOV_OK);
  EXPECT_NEAR(r.d, -2.0, 1e-12);
  EXPECT_NEAR(r.n[2], 0, 1e-12);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(r.pB[i] - r.pA[i], r.d * r.n[i], 1e-12);
}

// Bug 29: below eps1 = 1e-154 the slices' second moment took e1^2, which
// underflows: the inertia lost its x^2 and y^2 terms (I22 = 0 for a box-like
// body) with SOV_OK. The limit body has square slices: with eps2 = 1 and no
// taper, int x^2 dV = (4/3) a1^3 a2 a3 (16/15), int z^2 dV = (16/15) a1 a2 a3^3.
TEST(SuperovoidShape, MassOfSquareSlicedBodiesKeepsEveryTerm) {
  const double a1 = 1, a2 = 2, a3 = 3;
  const double xx = 4.0 / 3 * a1 * a1 * a1 * a2 * a3 * 16 / 15;
  const double yy = 4.0 / 3 * a1 * a2 * a2 * a2 * a3 * 16 / 15;
  const double zz = 16.0 / 15 * a1 * a2 * a3 * a3 * a3;
  for (const double eps1 : {1e-20, 1e-160, 1e-200, 1e-300, 5e-324}) {
    const double p[7] = {a1, a2, a3, eps1, 1, 0, 0};
    sov_shape s;
    ASSERT_EQ(sov_shape_init(&s, p), SOV_OK);
    double V, com[3], I[9];
    ASSERT_EQ(sov_shape_mass(&V, com, I, &s), SOV_OK);
    EXPECT_NEAR(V, 16.0 / 3 * a1 * a2 * a3, 1e-12 * V) << "eps1 " << eps1;
    EXPECT_NEAR(I[0], yy + zz, 1e-12 * (yy + zz)) << "eps1 " << eps1;
    EXPECT_NEAR(I[4], xx + zz, 1e-12 * (xx + zz)) << "eps1 " << eps1;
    EXPECT_NEAR(I[8], xx + yy, 1e-12 * (xx + yy)) << "eps1 " << eps1;
  }
}

// Mass properties of huge bodies: the centre of mass scales with the size
// and stays finite (it was m1 / m0, whose m1 = int z dV overflowed from
// 1e78 across), the inertia overflows near 1e62 across and is then
// SOV_ERR_RANGE, never inf or NaN with SOV_OK.
TEST(SuperovoidShape, MassOfHugeBodiesIsFiniteOrARangeError) {
  const double unit[7] = {1, 0.8, 1.2, 0.6, 1.3, 0.3, 0.2};
  sov_shape U;
  ASSERT_EQ(sov_shape_init(&U, unit), SOV_OK);
  double V1, com1[3], I1[9];
  ASSERT_EQ(sov_shape_mass(&V1, com1, I1, &U), SOV_OK);
  for (const double size : {1e60, 1e62, 1e78, 1e100}) {
    double p[7] = {size * unit[0], size * unit[1], size * unit[2], unit[3],
                   unit[4],        unit[5],        unit[6]};
    sov_shape S;
    ASSERT_EQ(sov_shape_init(&S, p), SOV_OK) << size;
    double V, com[3], I[9];
    ASSERT_EQ(sov_shape_mass(&V, com, nullptr, &S), SOV_OK) << size;
    EXPECT_NEAR(V, V1 * size * size * size, 1e-12 * V) << size;
    EXPECT_NEAR(com[2], com1[2] * size, 1e-12 * std::fabs(com1[2] * size)) << size;
    const int st = sov_shape_mass(&V, com, I, &S);
    const double I00 = I1[0] * size * size * size * size * size;  // inf past the range
    if (std::isfinite(I00)) {
      ASSERT_EQ(st, SOV_OK) << size;
      EXPECT_NEAR(I[0], I00, 1e-12 * I00) << size;
    } else {
      EXPECT_EQ(st, SOV_ERR_RANGE) << size;
    }
  }
}

// Mass properties: the ellipsoid closed form, and a tapered body against a
// midpoint-rule integration of the indicator F <= 0 on a grid (independent of
// the closed form; its error is a fraction of a percent at this resolution).
TEST(SuperovoidShape, MassPropertiesMatchClosedFormAndGridIntegration) {
  constexpr double kClosedFormTol = 1e-12;  // relative
  constexpr double kGridTol = 5e-3;         // relative, 160^3 midpoint cells
  const double ell[7] = {0.8, 0.5, 0.3, 1, 1, 0, 0};
  sov_shape E;
  ASSERT_EQ(sov_shape_init(&E, ell), SOV_OK);
  double V, com[3], I[9];
  ASSERT_EQ(sov_shape_mass(&V, com, I, &E), SOV_OK);
  const double a = 0.8, b = 0.5, c = 0.3, Ve = 4.0 / 3.0 * M_PI * a * b * c;
  EXPECT_NEAR(V, Ve, kClosedFormTol * Ve);
  EXPECT_NEAR(com[2], 0, kClosedFormTol);
  EXPECT_NEAR(I[0], Ve / 5 * (b * b + c * c), kClosedFormTol * Ve);
  EXPECT_NEAR(I[4], Ve / 5 * (a * a + c * c), kClosedFormTol * Ve);
  EXPECT_NEAR(I[8], Ve / 5 * (a * a + b * b), kClosedFormTol * Ve);

  const double tap[7] = {0.7, 0.5, 0.9, 0.8, 1.2, 0.3, 0.2};
  sov_shape T;
  ASSERT_EQ(sov_shape_init(&T, tap), SOV_OK);
  ASSERT_EQ(sov_shape_mass(&V, com, I, &T), SOV_OK);
  sov_shape_info info;
  ASSERT_EQ(sov_shape_get(&info, &T), SOV_OK);
  const double *lo = info.aabb_lo, *hi = info.aabb_hi;
  const int n = 160;
  double gV = 0, gz = 0, gxx = 0, gyy = 0, gzz = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        double x[3], F;
        for (int d = 0; d < 3; ++d) {
          const int idx = d == 0 ? i : d == 1 ? j : k;
          x[d] = lo[d] + (idx + 0.5) * (hi[d] - lo[d]) / n;
        }
        ASSERT_EQ(sov_shape_implicit(&F, nullptr, nullptr, &T, x), SOV_OK);
        if (F > 0) continue;
        gV += 1, gz += x[2], gxx += x[0] * x[0], gyy += x[1] * x[1], gzz += x[2] * x[2];
      }
  const double cell =
      (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) / (double(n) * n * n);
  EXPECT_NEAR(V, gV * cell, kGridTol * V);
  EXPECT_NEAR(com[2], gz / gV, kGridTol * tap[2]);
  EXPECT_NEAR(I[0], (gyy + gzz) * cell, kGridTol * I[0]);
  EXPECT_NEAR(I[4], (gxx + gzz) * cell, kGridTol * I[4]);
  EXPECT_NEAR(I[8], (gxx + gyy) * cell, kGridTol * I[8]);
  EXPECT_GT(com[2], 0.01 * tap[2]);  // positive tapers widen the top
}

// The support point depends on the direction only, at any scale: subnormal
// directions (c_api_fuzz: 5e-324 per entry) gave a point outside the body,
// and h is the scaled support value.
TEST(SuperovoidShape, SupportIsScaleInvariant) {
  const double p[7] = {0.0022935930677141832,
                       1.6007578923860279,
                       634.76468876160402,
                       0.80453806621517643,
                       0.059982876488163459,
                       0,
                       0};
  sov_shape s;
  ASSERT_EQ(sov_shape_init(&s, p), SOV_OK);
  const double unit[3] = {1 / std::sqrt(3.0), 1 / std::sqrt(3.0), 1 / std::sqrt(3.0)};
  double x1[3], h1;
  ASSERT_EQ(sov_shape_support(x1, &h1, &s, unit), SOV_OK);
  for (const double scale : {4.9406564584124654e-324, 1e-300, 1e-3, 1e300}) {
    const double dir[3] = {scale, scale, scale};
    double x[3], h;
    ASSERT_EQ(sov_shape_support(x, &h, &s, dir), SOV_OK) << scale;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(x[i], x1[i]) << scale;
    // h of a subnormal scale is itself subnormal: a few of its ulps (5e-324).
    const double expected = h1 * std::sqrt(3.0) * scale;
    EXPECT_NEAR(h, expected, std::fmax(1e-12 * expected, 2e-323)) << scale;
  }
}

TEST(SuperovoidShape, MassRejectsNullVolume) {
  const double ell[7] = {0.8, 0.5, 0.3, 1, 1, 0, 0};
  sov_shape E;
  ASSERT_EQ(sov_shape_init(&E, ell), SOV_OK);
  EXPECT_EQ(sov_shape_mass(nullptr, nullptr, nullptr, &E), SOV_ERR_NULL);
  double V;
  EXPECT_EQ(sov_shape_mass(&V, nullptr, nullptr, nullptr), SOV_ERR_NULL);
}
