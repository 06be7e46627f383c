/* Superovoid implicit function (SPEC "Shape") with analytic derivatives. */
#include "solver/shape.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "solver/convexity.h"
#include "solver/pose.h"

/* Floor for magnitudes raised to negative powers in second derivatives: the
 * true curvature is infinite there (pointy axes when eps > 1); capping it
 * only slows Newton inside a 1e-12 band, never changes F or its gradient. */
static const double kHessFloor = 1e-12;

/* Largest power-of-two scale of a far point's evaluation: beyond it every
 * term is far past the double range however it is scaled. */
static const double kMaxScale = 1 << 30;

/* A power of two k that brings e^logv to about 1 when e^logv would
 * overflow (0 if it would not, or if no scale can: then the terms stay
 * past the double range). */
static inline int scale_of(double logv) {
  const double k = ceil(logv / M_LN2);
  return k > 0 && k < kMaxScale ? (int)k : 0;
}

/* v 2^k (v for k = 0). */
static inline double unscale(double v, int k) { return k != 0 ? ldexp(v, k) : v; }

/* W(X, Y) = (|X|^p + |Y|^p)^m and its first and second derivatives
 * (W, WX, WY, WXX, WXY, WYY), scaled by the larger magnitude M so nothing
 * underflows for large p. With scaled set (far points, where W would
 * overflow), all six are times 2^-k for the returned k; else k = 0. */
static inline __attribute__((always_inline)) int cross_section(double W[6], double X, double Y,
                                                               double p, double m, int scaled) {
  /* An elliptic cross-section with m = 1 (eps1 = eps2 = 1): W = X^2 + Y^2,
   * exactly and without logarithms (the scaled branch keeps far points). */
  if (p == 2 && m == 1 && !scaled) {
    W[0] = X * X + Y * Y;
    W[1] = 2 * X;
    W[2] = 2 * Y;
    W[3] = W[5] = 2;
    W[4] = 0;
    return 0;
  }
  const double ax = fabs(X), ay = fabs(Y);
  const double M = ax > ay ? ax : ay;
  const double r = p * m;
  if (M == 0) {
    W[0] = W[1] = W[2] = W[4] = 0;
    /* Curvature at the axis: finite only for r >= 2; cap it otherwise. */
    W[3] = W[5] = m * p * pow(kHessFloor, r - 2);
    return 0;
  }
  /* The larger ratio is exactly +-1; the powers are taken as exponentials
   * of logarithms (M^r u^m only appears whole): 3 logs and 2 exps instead
   * of 3 pows, with relative errors near 1e-15. Reciprocals replace the
   * divisions of the smaller ratio's powers (the divisions cost more than
   * the rest of the arithmetic here). */
  const double iM = 1 / M;
  const int tiny = M < SOVC_TINY_BASE; /* then iM may overflow: divide */
  const int x_larger = ax >= ay;
  const double rx = x_larger ? copysign(1.0, X) : (tiny ? X / M : X * iM);
  const double ry = x_larger ? (tiny ? Y / M : Y * iM) : copysign(1.0, Y);
  const double small = x_larger ? fabs(ry) : fabs(rx); /* in [0, 1] */
  const double ps = sovc_power(small, p);
  /* small^(p-1) and small^(p-2), the latter floored at kHessFloor. */
  const double isml = small > 0 ? 1 / small : 0.0;
  const double q1 = small > SOVC_TINY_BASE ? ps * isml : sovc_power(small, p - 1);
  const double q2 = small > kHessFloor ? q1 * isml : pow(kHessFloor, p - 2);
  const double px = x_larger ? 1.0 : ps, py = x_larger ? ps : 1.0;
  const double u = px + py; /* in [1, 2] */
  const double iu = 1 / u;
  const double lM = log(M), lu = log(u);
  const int k = scaled ? scale_of(r * lM + m * lu) : 0;
  const double c = k * M_LN2;
  const double W0 = exp(r * lM + m * lu - c); /* M^r u^m */
  /* M^(r-1) u^(m-1); directly where W0 may have underflowed */
  const double W1 = tiny ? exp((r - 1) * lM + (m - 1) * lu - c) : W0 * iu * iM;
  const double Wh = (M > kHessFloor ? W1 * iM : W0 * iu / (kHessFloor * kHessFloor)) * iu;
  /* sign(r) |r|^(p-1) and |r|^(p-2) of both ratios. */
  const double sx = x_larger ? rx : copysign(q1, rx), sy = x_larger ? copysign(q1, ry) : ry;
  const double mx = x_larger ? 1.0 : q2, my = x_larger ? q2 : 1.0;
  W[0] = W0;
  W[1] = m * p * W1 * sx;
  W[2] = m * p * W1 * sy;
  /* Wh = M^(r-2) u^(m-2): the (m-1) terms carry u^(m-2), the rest u^(m-1). */
  W[3] = m * p * Wh * ((m - 1) * p * sx * sx + (p - 1) * u * mx);
  W[4] = m * (m - 1) * p * p * Wh * sx * sy;
  W[5] = m * p * Wh * ((m - 1) * p * sy * sy + (p - 1) * u * my);
  return k;
}

/* SPEC F by the chain rule through (X, Y, s) = (x/(a1 kx), y/(a2 ky), z/a3).
 * F and its derivatives are sums of terms of the cross-section's family
 * (powers of M) and of the profile's (powers of |s|). With scaled set (far
 * points), each family's powers are taken times its own 2^-k and each
 * family's sum times 2^k at the end: the sums of huge terms are formed
 * before they overflow, and a moderate term of one family is not lost to
 * the other's scale. */
static inline __attribute__((always_inline)) void implicit_scaled(double *F, double g[3],
                                                                  double H[9],
                                                                  const sovc_shape *shape,
                                                                  const double x[3], int scaled) {
  const double ia3 = 1 / shape->a[2];
  const double p = 2.0 / shape->eps1, r = 2.0 / shape->eps2, m = shape->eps1 / shape->eps2;
  const double s = x[2] * ia3;
  const int inside = fabs(s) <= 1;
  const double sc = inside ? s : (s > 0 ? 1.0 : -1.0);
  const double ikx = 1 / (1 + shape->taper[0] * sc), iky = 1 / (1 + shape->taper[1] * sc);
  /* Logarithmic derivatives of the taper factors with respect to z. */
  const double lx = inside ? shape->taper[0] * ia3 * ikx : 0.0;
  const double ly = inside ? shape->taper[1] * ia3 * iky : 0.0;
  /* Jacobian of (X, Y, s) with respect to (x, y, z), and X, Y. */
  const double Xx = ikx / shape->a[0], Yy = iky / shape->a[1];
  const double X = x[0] * Xx, Y = x[1] * Yy;
  double W[6];
  const int kw = cross_section(W, X, Y, p, m, scaled);
  const double as = fabs(s);
  const int ks = scaled && as > 0 ? scale_of(r * log(as)) : 0;
  const double sr = ks != 0 ? exp(r * log(as) - ks * M_LN2) : sovc_power_or_square(as, r);
  *F = unscale(W[0], kw) + unscale(sr, ks) - 1;
  if (!g && !H) return;
  const double Xz = -X * lx, Yz = -Y * ly;
  /* sign(s) |s|^(r-1) and |s|^(r-2) (floored) from |s|^r. */
  const double ias = as > 0 ? 1 / as : 0.0;
  /* (Bases below 1 are never scaled: ks = 0 there.) */
  const double sr1 = as > SOVC_TINY_BASE ? sr * ias : sovc_power(as, r - 1);
  const double Ps = r * copysign(sr1, s) * ia3;
  if (g) {
    g[0] = unscale(W[1] * Xx, kw);
    g[1] = unscale(W[2] * Yy, kw);
    g[2] = unscale(W[1] * Xz + W[2] * Yz, kw) + unscale(Ps, ks);
  }
  if (!H) return;
  const double s2 = as > kHessFloor ? sr * ias * ias : pow(kHessFloor, r - 2);
  const double Pss = r * (r - 1) * s2 * ia3 * ia3;
  H[0] = unscale(W[3] * Xx * Xx, kw);
  H[4] = unscale(W[5] * Yy * Yy, kw);
  H[1] = H[3] = unscale(W[4] * Xx * Yy, kw);
  /* d2X/dxdz = -Xx lx, d2X/dz2 = 2 X lx^2 (kx is linear in z). */
  H[2] = H[6] = unscale((W[3] * Xz + W[4] * Yz) * Xx - W[1] * Xx * lx, kw);
  H[5] = H[7] = unscale((W[4] * Xz + W[5] * Yz) * Yy - W[2] * Yy * ly, kw);
  /* Summed in the order of the unscaled formula, whose rounding the
   * solvers' answers were measured with. */
  H[8] = unscale(W[3] * Xz * Xz + 2 * W[4] * Xz * Yz + W[5] * Yz * Yz, kw) + unscale(Pss, ks) +
         unscale(2 * W[1] * X * lx * lx, kw) + unscale(2 * W[2] * Y * ly * ly, kw);
}

/* An ellipsoid's F = sum (x_i / a_i)^2 - 1, its gradient and its constant
 * Hessian diag(2 / a_i^2): the chain rule above comes to the same through
 * its exponents' general terms. */
static void implicit_ellipsoid(double *F, double g[3], double H[9], const sovc_shape *shape,
                               const double x[3]) {
  double ia[3], u[3];
  for (int i = 0; i < 3; ++i) ia[i] = 1 / shape->a[i], u[i] = x[i] * ia[i];
  *F = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] - 1;
  if (g)
    for (int i = 0; i < 3; ++i) g[i] = 2 * u[i] * ia[i];
  if (!H) return;
  for (int i = 0; i < 9; ++i) H[i] = 0;
  for (int i = 0; i < 3; ++i) H[4 * i] = 2 * ia[i] * ia[i];
}

/* See shape.h. Inlined with scaled = 0: the solvers' evaluations keep the
 * unscaled code alone. */
void sovc_implicit(double *F, double g[3], double H[9], const sovc_shape *shape, const double x[3]) {
  if (sovc_is_ellipsoid(shape)) {
    implicit_ellipsoid(F, g, H, shape, x);
    return;
  }
  implicit_scaled(F, g, H, shape, x, 0);
}

/* 1 if none of the n values is NaN. */
static int no_nan(const double *v, int n) {
  for (int i = 0; i < n; ++i)
    if (isnan(v[i])) return 0;
  return 1;
}

/* See shape.h. */
int sovc_implicit_checked(double *F, double g[3], double H[9], const sovc_shape *shape,
                          const double x[3]) {
  sovc_implicit(F, g, H, shape, x);
  if (isfinite(*F) && (!g || sovc_all_finite(g, 3)) && (!H || sovc_all_finite(H, 9))) return 1;
  /* Far outside, a term overflowed: evaluate again with each family's
   * powers scaled. */
  implicit_scaled(F, g, H, shape, x, 1);
  return !isnan(*F) && (!g || no_nan(g, 3)) && (!H || no_nan(H, 9));
}

/* G = (F + 1)^(1/r) - 1 with r = 2/eps2, from F by the chain rule. */
void sovc_implicit_norm(double *G, double g[3], double H[9],
                        const sovc_shape *shape, const double x[3]) {
  double F, gF[3], HF[9];
  sovc_implicit(&F, g ? gF : NULL, H ? HF : NULL, shape, x);
  const double r = 2.0 / shape->eps2;
  double S = F + 1;
  /* Deep inside a flat-profiled body F + 1 underflows: G is clamped there
   * and its derivatives are reported as zero (undefined), never as the
   * clamp's, whose huge gradient would make the point look on the surface. */
  const int clamped = S < 1e-300;
  if (clamped) S = 1e-300;
  const double Sr = exp(log(S) / r);
  *G = Sr - 1;
  if (clamped) {
    if (g) g[0] = g[1] = g[2] = 0;
    if (H)
      for (int i = 0; i < 9; ++i) H[i] = 0;
    return;
  }
  if (!g && !H) return;
  const double c1 = Sr / (S * r);
  if (g)
    for (int i = 0; i < 3; ++i) g[i] = c1 * gF[i];
  if (!H) return;
  const double c2 = c1 * (1 / r - 1) / S;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) H[3 * i + j] = c1 * HF[3 * i + j] + c2 * gF[i] * gF[j];
}
