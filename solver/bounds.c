/* Local bounds and volume of a superovoid (SPEC "Shape"). */
#include "solver/bounds.h"

#include <math.h>

#include "solver/golden.h"
#include "solver/shape.h"
#include "solver/support.h"

enum {
  kRadiusNodes = 129,   /* heights s = z/a3 in [-1, 1] (odd: s = 0 is one) */
  kRadiusCandidates = 3,/* local maxima refined */
  kGoldenSteps = 50     /* bracket shrinks by 0.618^50 ~ 4e-11 */
};

/* Relative pad on the bounding radius: covers the refinement's last digits. */
static const double kRadiusPad = 1e-12;

/* Squared distance from the axis to the farthest point of the slice at
 * height s = z/a3 (semi-axes A = a1 kx c, B = a2 ky c, exponent eps1), plus
 * (a3 s)^2. branch < 0: whole slice; 0 or 1: the x or y semi-axis alone.
 * A^2 C^e + B^2 (1-C)^e (C = cos^2 phi1) is concave in C for e < 1 and its
 * maximum is (A^k + B^k)^(1-e), k = 2/(1-e) (Hoelder); for e >= 1 it is
 * convex and the maximum is at an axis. */
static double radius2_at(const sovc_shape *shape, double s, int branch) {
  const double e1 = shape->eps1, as = fabs(s);
  const double c2 = as >= 1 ? 0.0 : pow(1 - pow(as, 2 / shape->eps2), shape->eps2);
  const double A = shape->a[0] * (1 + shape->taper[0] * s);
  const double B = shape->a[1] * (1 + shape->taper[1] * s);
  double Q;
  if (branch == 0) Q = A * A;
  else if (branch == 1) Q = B * B;
  else {
    const double big = A > B ? A : B, small = A > B ? B : A;
    Q = big * big * pow(1 + pow(small / big, 2 / (1 - e1)), 1 - e1);
  }
  return c2 * Q + shape->a[2] * shape->a[2] * s * s;
}

/* One branch of one shape: the context of radius2_at for sovc_golden_max. */
typedef struct radius2_ctx {
  const sovc_shape *shape;
  int branch;
} radius2_ctx;

/* radius2_at through the callback signature of sovc_golden_max. */
static double radius2_cb(const void *ctx, double s) {
  const radius2_ctx *c = ctx;
  return radius2_at(c->shape, s, c->branch);
}

/* Golden-section maximum of radius2_at over [lo, hi]. */
static double radius2_refine(const sovc_shape *shape, int branch, double lo, double hi) {
  const radius2_ctx ctx = {shape, branch};
  return sovc_golden_max(radius2_cb, &ctx, lo, hi, kGoldenSteps);
}

/* Sorted heights s = sin(pi/2 u), u uniform: nodes crowd both poles, where
 * a flat profile turns its corner. */
static void radius_nodes(double s[kRadiusNodes]) {
  const double half_pi = 2 * atan(1.0);
  for (int i = 0; i < kRadiusNodes; ++i)
    s[i] = sin(half_pi * (-1 + 2.0 * i / (kRadiusNodes - 1)));
  s[0] = -1;
  s[kRadiusNodes / 2] = 0;
  s[kRadiusNodes - 1] = 1;
}

/* Max over heights of radius2_at for one branch: grid, then golden
 * section around the largest local maxima. */
static double radius2_max(const sovc_shape *shape, int branch) {
  double s[kRadiusNodes], f[kRadiusNodes];
  radius_nodes(s);
  double best = 0;
  for (int i = 0; i < kRadiusNodes; ++i) {
    f[i] = radius2_at(shape, s[i], branch);
    if (f[i] > best) best = f[i];
  }
  for (int k = 0; k < kRadiusCandidates; ++k) {
    int imax = -1;
    for (int i = 1; i + 1 < kRadiusNodes; ++i)
      if (f[i] >= f[i - 1] && f[i] >= f[i + 1] && (imax < 0 || f[i] > f[imax])) imax = i;
    if (imax < 0) break;
    const double r = radius2_refine(shape, branch, s[imax - 1], s[imax + 1]);
    if (r > best) best = r;
    f[imax] = -1; /* take the next local maximum */
  }
  return best;
}

/* Local AABB by the support in the six axis directions, and the radius
 * max |x| over the body, the largest slice radius over heights. */
void sovc_shape_bounds(double lo[3], double hi[3], double *radius, const sovc_shape *shape) {
  for (int i = 0; i < 3; ++i) {
    double d[3] = {0, 0, 0}, x[3];
    d[i] = 1;
    hi[i] = sovc_support(x, shape, d, NAN);
    d[i] = -1;
    lo[i] = -sovc_support(x, shape, d, NAN);
  }
  double r2;
  if (shape->eps1 == 1 && shape->eps2 == 1 && shape->taper[0] == 0 && shape->taper[1] == 0) {
    /* An ellipsoid (an FCL sphere or ellipsoid, made a shape per query):
     * farthest at the end of its longest semi-axis, where the search below
     * ends too, at a much higher price. */
    r2 = 0;
    for (int i = 0; i < 3; ++i)
      if (shape->a[i] * shape->a[i] > r2) r2 = shape->a[i] * shape->a[i];
  } else if (shape->eps1 < 1) {
    r2 = radius2_max(shape, -1);
  } else {
    const double rx = radius2_max(shape, 0), ry = radius2_max(shape, 1);
    r2 = rx > ry ? rx : ry;
  }
  *radius = sqrt(r2) * (1 + kRadiusPad);
}

/* Beta function B(x, y) from tgamma (arguments here lie in (0, 3]). */
static double beta_fn(double x, double y) {
  return tgamma(x) * tgamma(y) / tgamma(x + y);
}

/* Profile integral int_{-1}^{1} s^p c(s)^k ds (p even) with c(s) =
 * (1 - |s|^(2/e2))^(e2/2), the SPEC's slice scale at height s a3:
 * substituting u = s^(2/e2) gives e2 B((p+1) e2/2, k e2/2 + 1). */
static double profile(double e2, int p, int k) {
  return e2 * beta_fn((p + 1) * e2 / 2, k * e2 / 2 + 1);
}

/* Volume integrals of the uniform body over the SPEC's slices. The slice at
 * z = a3 s is the superellipse |x/A|^(2/e1) + |y/B|^(2/e1) <= 1 with
 * A = a1 kx c, B = a2 ky c (kx = 1 + tx s, ky = 1 + ty s): its area is
 * alpha A B, alpha = 4 Gamma(1+e1/2)^2 / Gamma(1+e1), and its second
 * moment int x^2 dA = beta2 A^3 B, beta2 = e1^2 Gamma(3e1/2) Gamma(e1/2) /
 * Gamma(1+2e1). Odd moments in x and y vanish, and of the polynomials in s
 * (kx ky, kx^3 ky, ...) only even powers survive the integral over s.
 * m = {V, <z>, <x^2>, <y^2>, <z^2>}: the means are the integrals over V with
 * the common factors cancelled, finite where the integrals overflow. */
void sovc_shape_moments(double m[5], const sovc_shape *shape) {
  const double a1 = shape->a[0], a2 = shape->a[1], a3 = shape->a[2];
  const double e1 = shape->eps1, e2 = shape->eps2, tx = shape->taper[0], ty = shape->taper[1];
  const double g = tgamma(1 + e1 / 2);
  const double alpha = 4 * g * g / tgamma(1 + e1);
  /* e1^2 Gamma(3e1/2) Gamma(e1/2) with each e1 taken into its Gamma
   * (x Gamma(x) = Gamma(1 + x)): e1^2 underflows below 1e-154 (bug 29). */
  const double beta2 = 4.0 / 3.0 * tgamma(1 + 1.5 * e1) * tgamma(1 + 0.5 * e1) / tgamma(1 + 2 * e1);
  const double j02 = profile(e2, 0, 2), j22 = profile(e2, 2, 2), j42 = profile(e2, 4, 2);
  const double j04 = profile(e2, 0, 4), j24 = profile(e2, 2, 4), j44 = profile(e2, 4, 4);
  const double slices = j02 + tx * ty * j22; /* V / (a1 a2 a3 alpha) */
  const double second = beta2 / (alpha * slices);
  m[0] = a1 * a2 * a3 * alpha * slices;
  m[1] = a3 * (tx + ty) * j22 / slices;
  m[2] = a1 * a1 * second * (j04 + 3 * (tx * tx + tx * ty) * j24 + tx * tx * tx * ty * j44);
  m[3] = a2 * a2 * second * (j04 + 3 * (ty * ty + tx * ty) * j24 + ty * ty * ty * tx * j44);
  m[4] = a3 * a3 * (j22 + tx * ty * j42) / slices;
}

/* Volume: the zeroth moment. */
double sovc_shape_volume(const sovc_shape *shape) {
  double m[5];
  sovc_shape_moments(m, shape);
  return m[0];
}
