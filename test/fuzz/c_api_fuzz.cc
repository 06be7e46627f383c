// libFuzzer target for the C API: bytes become shape parameters, poses and
// options (NaN, inf, huge, tiny, denormal, non-unit quaternions included);
// every call must either refuse with a status or give an answer that is one.
// A violated invariant aborts with the numbers (a finding).
#include <cfloat>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "fuzz_values.h"
#include "../shape_info.h"
#include "superovoid/superovoid.h"

namespace {

using sov_test::Info;

// Parameter k (a1 a2 a3 eps1 eps2 taper_x taper_y) of a shape.
double P(const sov_shape &s, int k) { return Info(s).params[k]; }

// Relative tolerance (times the scale of the query) for identities that hold
// exactly in exact arithmetic: pB - pA = d n, witnesses on their surfaces,
// d = -(h_A(n) + h_B(-n)), one answer for every method. Loose enough for
// rounding at the extremes, tight enough that a wrong answer cannot hide.
constexpr double kRelTol = 1e-6;
// Below this exponent (the low end of the extreme-input matrix) answers are
// run (crashes, sanitizers, statuses) but not checked: F's powers 2 / eps
// make the surface offsets ill-conditioned.
constexpr double kMinCheckedExponent = 0.05;
// Likewise above this aspect ratio (largest over smallest semi-axis; the
// matrix goes to 1000): the witness points' offsets from a body thinner than
// the rounding of world coordinates cannot be measured.
constexpr double kMaxCheckedAspect = 1e4;
// Positions beyond this are not generated (HugePositionsNoOutOfBoundsRead
// and FarApartIsFiniteOrRefused test bugs 3 and 4, found there).
constexpr double kMaxPosition = 1e150;
constexpr double kPi = 3.14159265358979323846;
// The C API's own bound on a quaternion's norm (superovoid.h), with rounding.
constexpr double kQuatNormTol = 1e-6 + 1e-12;

// Prints the finding and aborts, which libFuzzer reports as a crash.
[[noreturn]] void Fail(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::fprintf(stderr, "c_api_fuzz invariant violated: ");
  std::vfprintf(stderr, fmt, args);
  std::fprintf(stderr, "\n");
  va_end(args);
  std::abort();
}

double Dot(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

double Norm(const double a[3]) { return std::sqrt(Dot(a, a)); }

bool Finite(const double *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

// v in the body frame: R^T v.
void ToLocalDir(double local[3], const sov_pose &X, const double v[3]) {
  for (int i = 0; i < 3; ++i) local[i] = X.R[i] * v[0] + X.R[3 + i] * v[1] + X.R[6 + i] * v[2];
}

// World support value h(v) = v . p + h_local(R^T v) of a posed body.
bool Support(double *h, const sov_shape &s, const sov_pose &X, const double v[3]) {
  double local[3], x[3], hl = 0;
  ToLocalDir(local, X, v);
  if (sov_shape_support(x, &hl, &s, local) != SOV_OK) return false;
  *h = Dot(v, X.p) + hl;
  return std::isfinite(*h);
}

// Sign of F at t * x (local), +1 outside or where F overflows.
int Side(const sov_shape &s, const double x[3], double t) {
  const double y[3] = {t * x[0], t * x[1], t * x[2]};
  double F = NAN;
  if (sov_shape_implicit(&F, nullptr, nullptr, &s, y) != SOV_OK)
    Fail("sov_shape_implicit refused a point");
  return F < 0 ? -1 : 1;
}

// Distance from a world point to the surface, estimated two ways: first
// order, |F| / |grad F| (fails where F's huge exponents overflow or bend
// it), and along the ray from the body's origin, which is inside it (an
// upper bound, found by bisection on the sign of F alone). The smaller.
double SurfaceOffset(const sov_shape &s, const sov_pose &X, const double w[3]) {
  const double v[3] = {w[0] - X.p[0], w[1] - X.p[1], w[2] - X.p[2]};
  double x[3], F = NAN, g[3] = {NAN, NAN, NAN};
  ToLocalDir(x, X, v);
  if (sov_shape_implicit(&F, g, nullptr, &s, x) != SOV_OK)
    Fail("sov_shape_implicit refused a witness point");
  // An overflowed gradient says nothing of nearness (far outside a body of
  // a tiny exponent): the ray alone decides there.
  const double first_order = std::isfinite(Norm(g)) ? std::fabs(F) / Norm(g) : INFINITY;
  double lo = 0, hi = 1;
  if (Side(s, x, 1) < 0) {
    lo = 1;
    for (hi = 2; Side(s, x, hi) < 0 && hi < 1e300; hi *= 2) lo = hi;
  }
  for (int k = 0; k < 80 && lo < hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    (Side(s, x, mid) < 0 ? lo : hi) = mid;
  }
  const double along_ray = std::fabs(1 - lo) * Norm(x);
  return std::isnan(first_order) ? along_ray : std::fmin(first_order, along_ray);
}

struct Query {
  sov_shape A, B;
  sov_pose XA, XB;
  double scale;  // size of the query: radii, centres
  // Queries outside the checked range (exponents, aspect ratio) still run
  // (crashes, sanitizers, statuses) but their answers are not checked.
  bool unchecked = false;
  // ... and for these not even the sign of d is checked.
  bool sign_unchecked = false;
};

// Fail() after dumping the query and answer.
#define FailAnswer(q, r, ...) (Dump(q, r), Fail(__VA_ARGS__))

// Prints a query and its answer at full precision (for the finding's report).
void Dump(const Query &q, const sov_result &r) {
  const sov_shape *shapes[2] = {&q.A, &q.B};
  const sov_pose *poses[2] = {&q.XA, &q.XB};
  for (int b = 0; b < 2; ++b) {
    const sov_shape &s = *shapes[b];
    std::fprintf(stderr, "body %d: params %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n  R", b,
                 P(s, 0), P(s, 1), P(s, 2), P(s, 3), P(s, 4), P(s, 5), P(s, 6));
    for (double x : poses[b]->R) std::fprintf(stderr, " %.17g", x);
    std::fprintf(stderr, "\n  p %.17g %.17g %.17g\n", poses[b]->p[0], poses[b]->p[1],
                 poses[b]->p[2]);
  }
  std::fprintf(stderr,
               "answer: d %.17g n %.17g %.17g %.17g\n  pA %.17g %.17g %.17g\n  pB %.17g "
               "%.17g %.17g\n  method %d iterations %d residual %.3g\n",
               r.d, r.n[0], r.n[1], r.n[2], r.pA[0], r.pA[1], r.pA[2], r.pB[0], r.pB[1], r.pB[2],
               static_cast<int>(r.method), r.iterations, r.residual);
}

// Checks everything an OK answer promises; aborts otherwise. An answer that
// need not be the SPEC's (a study method's overlap answer without
// certification) is only checked for being a common-normal pair.
void CheckAnswer(const sov_result &r, const Query &q, const char *what, bool spec_answer) {
  if (q.unchecked) return;
  if (!std::isfinite(r.d) || !Finite(r.n, 3) || !Finite(r.pA, 3) || !Finite(r.pB, 3))
    FailAnswer(q, r, "%s: non-finite OK answer d=%.17g", what, r.d);
  const double tol = kRelTol * q.scale;
  if (std::fabs(Norm(r.n) - 1) > 1e-9) FailAnswer(q, r, "%s: |n| = %.17g", what, Norm(r.n));
  for (int k = 0; k < 3; ++k)
    if (std::fabs(r.pB[k] - r.pA[k] - r.d * r.n[k]) > tol)
      FailAnswer(q, r, "%s: pB - pA != d n (component %d, d=%.17g)", what, k, r.d);
  const double offA = SurfaceOffset(q.A, q.XA, r.pA);
  const double offB = SurfaceOffset(q.B, q.XB, r.pB);
  if (!(offA <= tol + Info(q.A).dent * Info(q.A).radius))
    FailAnswer(q, r, "%s: pA off A's surface by %.17g", what, offA);
  if (!(offB <= tol + Info(q.B).dent * Info(q.B).radius))
    FailAnswer(q, r, "%s: pB off B's surface by %.17g", what, offB);
  if (!spec_answer) return;
  // The SPEC's d is the maximum over v of -(h_A(v) + h_B(-v)): its value at
  // n is d, and no direction gives more.
  double hA = 0, hB = 0;
  const double m[3] = {-r.n[0], -r.n[1], -r.n[2]};
  if (Support(&hA, q.A, q.XA, r.n) && Support(&hB, q.B, q.XB, m) &&
      std::fabs(-(hA + hB) - r.d) > tol)
    FailAnswer(q, r, "%s: d=%.17g but -(h_A(n)+h_B(-n))=%.17g", what, r.d, -(hA + hB));
  double dirs[7][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (int k = 0; k < 3; ++k) dirs[6][k] = q.XB.p[k] - q.XA.p[k];
  const double c = Norm(dirs[6]);
  for (int i = 0; i < 7; ++i) {
    if (i == 6) {
      if (!(c > 0) || !std::isfinite(c)) break;
      for (double &x : dirs[6]) x /= c;
    }
    const double *v = dirs[i];
    const double mv[3] = {-v[0], -v[1], -v[2]};
    if (Support(&hA, q.A, q.XA, v) && Support(&hB, q.B, q.XB, mv) && -(hA + hB) > r.d + tol)
      FailAnswer(q, r, "%s: d=%.17g below the lower bound %.17g of direction %d", what, r.d,
                 -(hA + hB), i);
  }
}

// Largest over smallest semi-axis.
double Aspect(const sov_shape &s) {
  return std::fmax(Info(s).params[0], std::fmax(Info(s).params[1], Info(s).params[2])) /
         std::fmin(Info(s).params[0], std::fmin(Info(s).params[1], Info(s).params[2]));
}

// A shape from 7 fuzzed numbers; checks that OK means valid parameters.
int MakeShape(sov_shape *s, FuzzedDataProvider &in) {
  double p[7];
  for (int i = 0; i < 3; ++i) p[i] = sov_fuzz::Value(in, 1e-3, 1e3);
  for (int i = 3; i < 5; ++i) p[i] = sov_fuzz::Value(in, 0.01, 1.99);
  for (int i = 5; i < 7; ++i) p[i] = sov_fuzz::Value(in, -0.6, 0.6);
  const int st = sov_shape_init(s, p);
  if (st == SOV_OK) {
    const bool valid = Finite(p, 7) && p[0] > 0 && p[1] > 0 && p[2] > 0 && p[3] > 0 && p[3] < 2 &&
                       p[4] > 0 && p[4] < 2 && std::fabs(p[5]) < 1 && std::fabs(p[6]) < 1;
    if (!valid) Fail("sov_shape_init accepted invalid parameters");
    // Bug 1 (InitRefuses*Radius): no accepted shape that no query can use.
    const double radius = Info(*s).radius;
    if (!(std::isfinite(radius) && radius > 0))
      Fail(
          "shape radius %.17g for params %.17g %.17g %.17g %.17g %.17g %.17g "
          "%.17g",
          radius, p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
    // Mass properties: finite where OK (bug 29), else SOV_ERR_RANGE; 0 only
    // where they underflow (sizes near 1e-200).
    double V = NAN, com[3] = {NAN, NAN, NAN}, I[9];
    for (double &v : I) v = NAN;
    const int ms = sov_shape_mass(&V, com, I, s);
    const bool mass_ok = V >= 0 && Finite(&V, 1) && Finite(com, 3) && Finite(I, 9) && I[0] >= 0 &&
                         I[4] >= 0 && I[8] >= 0;
    if (ms == SOV_OK ? !mass_ok : ms != SOV_ERR_RANGE)
      Fail(
          "sov_shape_mass status %d: V %.17g com %.17g I %.17g %.17g %.17g for params %.17g "
          "%.17g %.17g %.17g %.17g %.17g %.17g",
          ms, V, com[2], I[0], I[4], I[8], p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
  } else if (st >= 0) {
    Fail("sov_shape_init returned positive status %d", st);
  }
  return st;
}

// sov_shape_support for a fuzzed local direction, half the time tilted from a
// pole by a fuzzed angle down to 1e-300 (bug 17), components at most 1: OK
// means a finite point in the body's box (to rounding) whose value is dir . x
// and at least the pole's.
void CheckSupport(const sov_shape &s, FuzzedDataProvider &in) {
  double d[3];
  if (in.ConsumeBool()) {
    const double tilt = sov_fuzz::Value(in, 1e-300, 1), azimuth = sov_fuzz::Value(in, 0, 7);
    d[0] = tilt * std::cos(azimuth), d[1] = tilt * std::sin(azimuth);
    d[2] = in.ConsumeBool() ? 1 : -1;
  } else {
    for (double &v : d) v = sov_fuzz::Value(in, -1, 1);
  }
  // Larger directions can make h overflow, rightly.
  for (const double v : d)
    if (!(std::fabs(v) <= 1)) return;
  double x[3], h = 0;
  if (sov_shape_support(x, &h, &s, d) != SOV_OK) return;
  // hypot: the squares of a tiny direction underflow. The tolerance keeps a
  // few subnormal ulps: for a subnormal direction h and dir . x are
  // themselves subnormal, each product rounded to 5e-324.
  const double pole = std::fabs(d[2]) * Info(s).params[2];
  const double size = std::hypot(d[0], std::hypot(d[1], d[2])) * Info(s).radius;
  const double tol = kRelTol * size + 8 * std::numeric_limits<double>::denorm_min();
  // The box is itself made of support points: a few ulps of the body's size.
  const double slack = 16 * DBL_EPSILON * Info(s).radius;
  bool inside = Finite(x, 3) && std::isfinite(h);
  for (int i = 0; i < 3; ++i)
    inside = inside && x[i] >= Info(s).aabb_lo[i] - slack && x[i] <= Info(s).aabb_hi[i] + slack;
  // In the checked range: x on the surface with a finite, nonzero gradient
  // (bug 26), and no point of the SPEC's parametric surface (a 16 x 17 grid
  // of angles) further along d. Outside it (exponents near 0: F overflows
  // at points within rounding of a box-like body's corner, and its gradient
  // with it, SOV_ERR_RANGE), F alone.
  const bool checked = std::fmin(Info(s).params[3], Info(s).params[4]) >= kMinCheckedExponent &&
                       Aspect(s) <= kMaxCheckedAspect && size >= 1e-150;
  // F is never NaN at a finite point (bug 21: it was, for subnormal eps).
  double F = NAN, g[3] = {NAN, NAN, NAN};
  const bool F_ok =
      sov_shape_implicit(&F, checked ? g : nullptr, nullptr, &s, x) == SOV_OK && !std::isnan(F);
  const sov_pose identity = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
  const double offset = checked && inside ? SurfaceOffset(s, identity, x) : 0;
  const double g_norm = Norm(g);
  const bool g_ok = !(checked && inside) || (g_norm > 0 && std::isfinite(g_norm));
  double beyond = -INFINITY;
  for (int i = 0; checked && i < 16; ++i)
    for (int j = 0; j <= 16; ++j) {
      double y[3];
      sov_shape_point(y, nullptr, nullptr, nullptr, &s, (i - 8) * (kPi / 8), (j - 8) * (kPi / 16));
      beyond = std::fmax(beyond, Dot(d, y) - h);
    }
  const double surface_tol = kRelTol * Info(s).radius;
  if (!inside || !(std::fabs(h - Dot(d, x)) <= tol) || !(h >= pole - tol) || !F_ok ||
      !(offset <= surface_tol) || !(beyond <= tol) || !g_ok)
    Fail(
        "sov_shape_support of %.17g %.17g %.17g %.17g %.17g %.17g %.17g: dir %.17g %.17g %.17g "
        "gave x %.17g %.17g %.17g, h %.17g (pole %.17g), F there %.17g, %.3g off the surface, "
        "a surface point %.3g further along dir, |grad F| %.3g",
        P(s, 0), P(s, 1), P(s, 2), P(s, 3), P(s, 4), P(s, 5), P(s, 6), d[0], d[1], d[2], x[0],
        x[1], x[2], h, pole, F, offset, beyond, g_norm);
}

// sov_shape_implicit at a fuzzed local point, often far outside (up to
// 1e308): OK, or SOV_ERR_RANGE where a value's sign is lost past the double
// range (bug 27: OK with a NaN gradient). OK means no NaN among F, its
// gradient and Hessian, and F > 0 clearly outside the box.
void CheckFarPoint(const sov_shape &s, FuzzedDataProvider &in) {
  const double scale = sov_fuzz::Value(in, 1e-3, 1e308);
  double x[3];
  for (double &v : x) v = in.ConsumeBool() ? 0.0 : scale * sov_fuzz::Value(in, -1, 1);
  if (!Finite(x, 3)) return;
  double F = NAN, g[3] = {NAN, NAN, NAN}, H[9];
  for (double &v : H) v = NAN;
  const int st = sov_shape_implicit(&F, g, H, &s, x);
  if (st == SOV_ERR_RANGE) return;
  // Beyond the box's rounding, F > 0.
  const double slack = kRelTol * Info(s).radius;
  bool outside = false;
  for (int i = 0; i < 3; ++i)
    outside = outside || x[i] < Info(s).aabb_lo[i] - slack || x[i] > Info(s).aabb_hi[i] + slack;
  bool nan = std::isnan(F);
  for (const double v : g) nan = nan || std::isnan(v);
  for (const double v : H) nan = nan || std::isnan(v);
  if (st != SOV_OK || nan || (outside && !(F > 0)))
    Fail(
        "sov_shape_implicit of %.17g %.17g %.17g %.17g %.17g %.17g %.17g at %.17g %.17g %.17g: "
        "status %d, F %.17g, gradient %.17g %.17g %.17g, H00 %.17g H22 %.17g",
        P(s, 0), P(s, 1), P(s, 2), P(s, 3), P(s, 4), P(s, 5), P(s, 6), x[0], x[1], x[2], st, F,
        g[0], g[1], g[2], H[0], H[8]);
}

// A pose from a fuzzed quaternion (usually normalised) or matrix.
int MakePose(sov_pose *X, FuzzedDataProvider &in, double spread) {
  double p[3];
  for (double &x : p) x = sov_fuzz::Value(in, -spread, spread);
  const uint8_t kind = in.ConsumeIntegral<uint8_t>();
  if (kind < 16) {
    double R[9];
    for (double &x : R) x = sov_fuzz::Value(in, -1, 1);
    return sov_pose_from_matrix(X, R, p);
  }
  double q[4];
  for (double &x : q) x = sov_fuzz::Value(in, -1, 1);
  const double nq = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (kind >= 64 && nq > 0 && std::isfinite(nq))
    for (double &x : q) x /= nq;
  const int st = sov_pose_from_quat(X, q, p);
  const double n2 = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (st == SOV_OK && !(std::fabs(n2 - 1) <= kQuatNormTol))
    Fail("sov_pose_from_quat accepted |q| = %.17g", n2);
  return st;
}

// The pair's size s of superovoid.h (sov_options.tolerance): the sum of the
// bounding radii rounded down to a power of two, or 1 where dividing a
// semi-axis by it would leave [1e-280, 1e280].
double PairSize(const Query &q) {
  sov_shape_info a, b;
  if (sov_shape_get(&a, &q.A) != SOV_OK || sov_shape_get(&b, &q.B) != SOV_OK) Fail("sov_shape_get");
  int k;
  std::frexp(a.radius + b.radius, &k);
  const double s = std::ldexp(1.0, k - 1);
  for (int i = 0; i < 3; ++i) {
    const double x = a.params[i] / s, y = b.params[i] / s;
    if (!(x > 1e-280 && x < 1e280 && y > 1e-280 && y < 1e280)) return 1;
  }
  return s;
}

double Scale(const Query &q, const sov_result *r) {
  double s = std::fmax(Info(q.A).radius, Info(q.B).radius);
  for (int k = 0; k < 3; ++k) {
    s = std::fmax(s, std::fabs(q.XA.p[k]));
    s = std::fmax(s, std::fabs(q.XB.p[k]));
    if (r) s = std::fmax(s, std::fmax(std::fabs(r->pA[k]), std::fabs(r->pB[k])));
  }
  return s;
}

// Fuzzed options: any method, seed and certification, sometimes out of
// range. The enum fields are written through memcpy: an out-of-range value
// is valid C (the library's language) but not C++.
struct FuzzedOptions {
  sov_options o;
  int method, seed;  // as written into o
};

FuzzedOptions MakeOptions(FuzzedDataProvider &in) {
  FuzzedOptions f;
  sov_options_default(&f.o);
  f.method = in.ConsumeIntegralInRange<int>(-1, SOV_METHOD_COUNT);
  f.seed = in.ConsumeIntegralInRange<int>(-1, 3);
  static_assert(sizeof(sov_method) == sizeof(int) && sizeof(sov_seed) == sizeof(int), "enums");
  std::memcpy(&f.o.method, &f.method, sizeof(int));
  std::memcpy(&f.o.seed, &f.seed, sizeof(int));
  f.o.certify = in.ConsumeIntegralInRange<int>(0, 1);
  if (in.ConsumeBool()) f.o.tolerance = sov_fuzz::Value(in, 1e-13, 1e-3);
  if (in.ConsumeBool()) f.o.max_iterations = in.ConsumeIntegralInRange<int>(-2, 200);
  return f;
}

bool OptionsValid(const FuzzedOptions &f) {
  return f.method >= 0 && f.method < SOV_METHOD_COUNT && f.seed >= 0 && f.seed <= 2 &&
         f.o.tolerance > 0 && std::isfinite(f.o.tolerance) && f.o.max_iterations > 0;
}

// True when an OK answer under options o must be the SPEC's d: AUTO always,
// a study method when certified or when d >= 0 (README "Why a non-negative
// answer is final").
bool IsSpecAnswer(const sov_result &r, const sov_options &o, double tol) {
  return o.method == SOV_METHOD_AUTO || o.certify || r.d > tol;
}

// Same d as the reference AUTO answer when r must be the SPEC's answer.
void CheckSameD(const sov_result &r, const sov_options &o, const sov_result &ref, const Query &q,
                const char *what) {
  if (q.unchecked) return;
  const double tol = kRelTol * q.scale;
  if (IsSpecAnswer(r, o, tol) && std::fabs(r.d - ref.d) > tol)
    Fail("%s (method %d seed %d certify %d): d=%.17g, AUTO d=%.17g", what, o.method, o.seed,
         o.certify, r.d, ref.d);
}

// Bodies of revolution on one axis (solver/coaxial.c), from the input's
// shapes made round (eps1 = 1, a2 = a1, taper_y = taper_x) and B posed on
// A's axis at a fuzzed height, spun about it and maybe reversed. Read after
// everything else, so the corpus's inputs decode as before. Their answer is
// checked like the cold one, and against directions across the axis.
void CheckCoaxial(const Query &base, FuzzedDataProvider &in) {
  if (!in.ConsumeBool()) return;
  Query q = base;
  for (sov_shape *s : {&q.A, &q.B}) {
    const sov_shape_info i = Info(*s);
    const double p[7] = {i.params[0], i.params[0], i.params[2], 1, i.params[4], i.params[5],
                         i.params[5]};
    if (sov_shape_init(s, p) != SOV_OK) return;  // the taper may now dent it
  }
  const double height = sov_fuzz::Value(in, -1, 1) * (Info(q.A).params[2] + Info(q.B).params[2]);
  const double spin = sov_fuzz::Value(in, -kPi, kPi), f = in.ConsumeBool() ? -1.0 : 1.0;
  const double c = std::cos(spin), sn = std::sin(spin);
  const double L[9] = {c, -sn, 0, f * sn, f * c, 0, 0, 0, f};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      q.XB.R[3 * i + j] = q.XA.R[3 * i] * L[j] + q.XA.R[3 * i + 1] * L[3 + j] +
                          q.XA.R[3 * i + 2] * L[6 + j];
    q.XB.p[i] = q.XA.p[i] + height * q.XA.R[3 * i + 2];
  }
  q.scale = Scale(q, nullptr);
  q.sign_unchecked = std::fmin(Info(q.A).params[4], Info(q.B).params[4]) < kMinCheckedExponent;
  q.unchecked =
      q.sign_unchecked || Aspect(q.A) > kMaxCheckedAspect || Aspect(q.B) > kMaxCheckedAspect;
  sov_result r{};
  if (sov_distance(&r, &q.A, &q.XA, &q.B, &q.XB, nullptr, nullptr) != SOV_OK) return;
  q.scale = Scale(q, &r);
  CheckAnswer(r, q, "AUTO coaxial", true);
  if (q.unchecked) return;
  // Directions at 17 angles to the axis, 0 to pi, in the plane of A's local x.
  for (int k = 0; k <= 16; ++k) {
    const double t = kPi * k / 16, v[3] = {std::sin(t) * q.XA.R[0] + std::cos(t) * q.XA.R[2],
                                           std::sin(t) * q.XA.R[3] + std::cos(t) * q.XA.R[5],
                                           std::sin(t) * q.XA.R[6] + std::cos(t) * q.XA.R[8]};
    const double mv[3] = {-v[0], -v[1], -v[2]};
    double hA = 0, hB = 0;
    if (Support(&hA, q.A, q.XA, v) && Support(&hB, q.B, q.XB, mv) &&
        -(hA + hB) > r.d + kRelTol * q.scale)
      FailAnswer(q, r, "AUTO coaxial: d=%.17g below the lower bound %.17g at %d pi / 16", r.d,
                 -(hA + hB), k);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  FuzzedDataProvider in(data, size);
  Query q;
  const double spread = sov_fuzz::Value(in, 1e-3, 1e4);
  if (MakeShape(&q.A, in) || MakeShape(&q.B, in)) return 0;
  CheckSupport(q.A, in);
  const int pose_status = MakePose(&q.XA, in, spread) | MakePose(&q.XB, in, spread);
  if (pose_status != SOV_OK) return 0;
  // Positions whose squares overflow are outside the checked range; bugs 3
  // and 4 were found there and their regression tests keep them fixed.
  for (const double x : {q.XA.p[0], q.XA.p[1], q.XA.p[2], q.XB.p[0], q.XB.p[1], q.XB.p[2]})
    if (std::fabs(x) > kMaxPosition) return 0;
  q.scale = Scale(q, nullptr);
  q.sign_unchecked =
      std::fmin(std::fmin(Info(q.A).params[3], Info(q.A).params[4]), std::fmin(Info(q.B).params[3], Info(q.B).params[4])) <
      kMinCheckedExponent;
  q.unchecked =
      q.sign_unchecked || Aspect(q.A) > kMaxCheckedAspect || Aspect(q.B) > kMaxCheckedAspect;

  // SOV_FUZZ_DUMP=1 prints every query first: the inputs of a crash that
  // happens inside the library.
  static const bool dump = std::getenv("SOV_FUZZ_DUMP") != nullptr;
  if (dump) Dump(q, sov_result{});
  sov_result cold{};
  const int st = sov_distance(&cold, &q.A, &q.XA, &q.B, &q.XB, nullptr, nullptr);
  if (st > 0) Fail("sov_distance returned positive status %d", st);
  if (st == SOV_OK) {
    q.scale = Scale(q, &cold);
    CheckAnswer(cold, q, "AUTO cold", true);
  }

  // One more call of each kind per input would halve the executions a
  // second; the input picks the collision test, the warm start or both.
  const uint8_t extra = in.ConsumeIntegral<uint8_t>();
  if (extra & 1) {
    int colliding = -1;
    const int cst = sov_collide(&colliding, &q.A, &q.XA, &q.B, &q.XB, nullptr, nullptr);
    if (cst == SOV_OK && colliding != 0 && colliding != 1) Fail("colliding = %d", colliding);
    // The sign needs no offsets measured: queries left unchecked only for
    // their aspect ratio are checked here (bug 8, HugeAspectOverlapIsNegative).
    if (!q.sign_unchecked && cst == SOV_OK && st == SOV_OK &&
        std::fabs(cold.d) > kRelTol * q.scale && colliding != (cold.d <= 0))
      Fail("sov_collide says %d but d = %.17g", colliding, cold.d);
  }

  // Warm start from the cold answer (sov_cache_set), then a study method or
  // a bad option through the same cache, from the same or a nudged pose.
  sov_cache cache;
  sov_cache_reset(&cache);
  if ((extra & 2) && st == SOV_OK &&
      sov_cache_set(&cache, &q.XA, &q.XB, cold.pA, cold.pB) == SOV_OK) {
    sov_result warm{};
    const int wst = sov_distance(&warm, &q.A, &q.XA, &q.B, &q.XB, nullptr, &cache);
    if (wst == SOV_OK) {
      CheckAnswer(warm, q, "AUTO warm", false);
      CheckSameD(warm, sov_options{}, cold, q, "AUTO warm");
    }
  }
  const FuzzedOptions fuzzed = MakeOptions(in);
  const sov_options &options = fuzzed.o;
  sov_result ref = cold;
  int rst = st;
  if (in.ConsumeBool()) {
    for (double &x : q.XB.p) x += sov_fuzz::Value(in, -1e-3, 1e-3) * q.scale;
    for (const double x : q.XB.p)
      if (!(std::fabs(x) <= kMaxPosition)) return 0;
    q.scale = Scale(q, nullptr);
    if (dump) Dump(q, sov_result{});
    rst = sov_distance(&ref, &q.A, &q.XA, &q.B, &q.XB, nullptr, nullptr);
  }
  sov_result r{};
  if (dump)
    std::fprintf(
        stderr, "options: method %d seed %d certify %d tolerance %.17g max_iterations %d\n",
        fuzzed.method, fuzzed.seed, options.certify, options.tolerance, options.max_iterations);
  const int ost = sov_distance(&r, &q.A, &q.XA, &q.B, &q.XB, &options, &cache);
  if (!OptionsValid(fuzzed) && ost != SOV_ERR_OPTION)
    Fail("invalid options gave status %d, not SOV_ERR_OPTION", ost);
  // A study method's OK answer is below its tolerance times the pair's size
  // s, or below the rounding floor of its coordinates from A's centre when
  // that is larger (superovoid.h; bug 6).
  if (ost == SOV_OK && options.method != SOV_METHOD_AUTO) {
    const double s = PairSize(q);
    double L = s;
    for (int i = 0; i < 3; ++i)
      L = std::fmax(L, std::fmax(std::fabs(r.pA[i] - q.XA.p[i]), std::fabs(r.pB[i] - q.XA.p[i])));
    const double bound = std::fmax(options.tolerance * s, 64 * DBL_EPSILON * L);
    if (!(r.residual <= bound))
      FailAnswer(q, r, "method %d: SOV_OK with residual %.17g above %.17g", fuzzed.method,
                 r.residual, bound);
  }
  // A tolerance near the checks' own lets the method stop anywhere.
  if (ost == SOV_OK && options.tolerance <= 1e-3 * kRelTol * q.scale) {
    q.scale = Scale(q, &r);
    CheckAnswer(r, q, "fuzzed options", false);
    if (rst == SOV_OK) CheckSameD(r, options, ref, q, "fuzzed options");
  }
  CheckFarPoint(q.A, in);
  CheckCoaxial(q, in);
  return 0;
}
