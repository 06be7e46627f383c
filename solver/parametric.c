/* Parametric superovoid surface (SPEC Parametric): point, first and second
 * angle derivatives, outward unit normal, and the inverse map along a ray. */
#include "solver/parametric.h"

#include <math.h>
#include <stddef.h>

#include "solver/pose.h"
#include "solver/shape.h"

/* Smallest |cos| or |sin| used in the derivative powers |c|^(e-1) and
 * |c|^(e-2), which blow up on the axes, the equator and the poles when e < 1
 * (first derivative) or e < 2 (second). Clamping the trigonometric value is
 * the same as clamping the angle about 1e-12 away from the singular value;
 * the point itself is always evaluated at the true angle. */
#define SOVC_PARAM_TRIG_MIN 1e-12

/* Bisection steps for the surface point on a ray: shrink a bracket of a few
 * length units below 1e-18. */
#define SOVC_PARAM_RAY_STEPS 64

/* f[0] = spow(c, e) (the SPEC's signed power) with c = cos(phi), s = sin(phi);
 * f[1], f[2] its first and second derivatives in phi, with |c| clamped below
 * by SOVC_PARAM_TRIG_MIN. Call with (s, -c) for spow(sin(phi), e). */
static void trig_pow(double f[3], double c, double s, double e) {
  const double ac = fmax(fabs(c), SOVC_PARAM_TRIG_MIN);
  const double sg = c < 0 ? -1.0 : 1.0;
  const double p1 = sovc_power(ac, e - 1.0);
  f[0] = sovc_spow(c, e);
  f[1] = -e * p1 * s;
  f[2] = e * (e - 1.0) * (p1 / ac) * sg * s * s - e * p1 * ac * sg;
}

/* Outward unit normal from the implicit gradient written in the angles:
 * grad F ~ (gu / (a1 kx), gv / (a2 ky), (gw - c2^2 (tx c1^2/kx + ty s1^2/ky)) / a3)
 * with gu = spow(c1, 2-e1) spow(c2, 2-e2), gv = spow(s1, 2-e1) spow(c2, 2-e2),
 * gw = spow(s2, 2-e2). Every exponent is positive, so it is finite and
 * continuous everywhere; at the poles it is exactly +-z (local). */
static void param_normal(double n[3], const sovc_shape *shape, double c1,
                         double s1, double c2, double s2, double kx,
                         double ky) {
  const double e1 = shape->eps1, e2 = shape->eps2;
  const double h = sovc_spow(c2, 2.0 - e2);
  const double q = shape->taper[0] * c1 * c1 / kx + shape->taper[1] * s1 * s1 / ky;
  n[0] = sovc_spow(c1, 2.0 - e1) * h / (shape->a[0] * kx);
  n[1] = sovc_spow(s1, 2.0 - e1) * h / (shape->a[1] * ky);
  n[2] = (sovc_spow(s2, 2.0 - e2) - c2 * c2 * q) / shape->a[2];
  const double s = 1.0 / sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  n[0] *= s;
  n[1] *= s;
  n[2] *= s;
}

/* v = (a, b, c). */
static void set3(double v[3], double a, double b, double c) {
  v[0] = a;
  v[1] = b;
  v[2] = c;
}

/* See parametric.h. */
void sovc_param_position(double x[3], const sovc_shape *shape, double phi1, double phi2) {
  const double c1 = cos(phi1), s1 = sin(phi1), c2 = cos(phi2), s2 = sin(phi2);
  const double C1 = sovc_spow(c1, shape->eps1), S1 = sovc_spow(s1, shape->eps1);
  const double C2 = sovc_spow(c2, shape->eps2), S2 = sovc_spow(s2, shape->eps2);
  const double kx = 1.0 + shape->taper[0] * S2, ky = 1.0 + shape->taper[1] * S2;
  set3(x, shape->a[0] * C1 * (kx * C2), shape->a[1] * S1 * (ky * C2), shape->a[2] * S2);
}

/* See parametric.h. */
void sovc_param_point(sovc_surface_point *p, const sovc_shape *shape, double phi1, double phi2) {
  const double c1 = cos(phi1), s1 = sin(phi1), c2 = cos(phi2), s2 = sin(phi2);
  const double a1 = shape->a[0], a2 = shape->a[1], a3 = shape->a[2];
  const double tx = shape->taper[0], ty = shape->taper[1];
  double C1[3], S1[3], C2[3], S2[3];
  trig_pow(C1, c1, s1, shape->eps1);
  trig_pow(S1, s1, -c1, shape->eps1);
  trig_pow(C2, c2, s2, shape->eps2);
  trig_pow(S2, s2, -c2, shape->eps2);
  /* kx = 1 + tx z/a3 and its phi2 derivatives; U = kx C2, V = ky C2. */
  const double kx[3] = {1.0 + tx * S2[0], tx * S2[1], tx * S2[2]};
  const double ky[3] = {1.0 + ty * S2[0], ty * S2[1], ty * S2[2]};
  const double U[3] = {kx[0] * C2[0], kx[1] * C2[0] + kx[0] * C2[1],
                       kx[2] * C2[0] + 2.0 * kx[1] * C2[1] + kx[0] * C2[2]};
  const double V[3] = {ky[0] * C2[0], ky[1] * C2[0] + ky[0] * C2[1],
                       ky[2] * C2[0] + 2.0 * ky[1] * C2[1] + ky[0] * C2[2]};
  set3(p->x, a1 * C1[0] * U[0], a2 * S1[0] * V[0], a3 * S2[0]);
  set3(p->t1, a1 * C1[1] * U[0], a2 * S1[1] * V[0], 0.0);
  set3(p->t2, a1 * C1[0] * U[1], a2 * S1[0] * V[1], a3 * S2[1]);
  set3(p->x11, a1 * C1[2] * U[0], a2 * S1[2] * V[0], 0.0);
  set3(p->x12, a1 * C1[1] * U[1], a2 * S1[1] * V[1], 0.0);
  set3(p->x22, a1 * C1[0] * U[2], a2 * S1[0] * V[2], a3 * S2[2]);
  param_normal(p->n, shape, c1, s1, c2, s2, kx[0], ky[0]);
}

/* 1 if lam * xh is inside or on the body (|z| <= a3 and SPEC F <= 0). */
static int ray_inside(const sovc_shape *shape, const double xh[3], double lam) {
  const double x[3] = {lam * xh[0], lam * xh[1], lam * xh[2]};
  if (fabs(x[2]) > shape->a[2]) return 0;
  double F;
  sovc_implicit(&F, NULL, NULL, shape, x);
  return F <= 0.0;
}

/* z / a3 of the surface point on the ray from the centre along unit xh, by
 * bisection on the inside test (the body is star-shaped about its centre). */
static double ray_surface_height(const sovc_shape *shape, const double xh[3]) {
  const double bx = shape->a[0] * (1.0 + fabs(shape->taper[0]));
  const double by = shape->a[1] * (1.0 + fabs(shape->taper[1]));
  double lo = 0.0, hi = sqrt(bx * bx + by * by + shape->a[2] * shape->a[2]);
  for (int i = 0; i < SOVC_PARAM_RAY_STEPS; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (ray_inside(shape, xh, mid))
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi) * xh[2] / shape->a[2];
}

/* Angles of the surface point on the ray from the centre through x: undo the
 * taper at that point's height, then phi1 = atan2 of the slice coordinates
 * raised to 1/eps1 and phi2 = atan2 of the z fraction and the slice radius
 * raised to 1/eps2. (0, 0) for x = 0. */
void sovc_param_angles(double *phi1, double *phi2, const sovc_shape *shape,
                       const double x[3]) {
  const double r = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
  *phi1 = 0.0;
  *phi2 = 0.0;
  if (!(r > 0.0) || !isfinite(r)) return;
  const double xh[3] = {x[0] / r, x[1] / r, x[2] / r};
  double kx = 1.0, ky = 1.0;
  if (shape->taper[0] != 0.0 || shape->taper[1] != 0.0) {
    const double w = ray_surface_height(shape, xh);
    kx = 1.0 + shape->taper[0] * w;
    ky = 1.0 + shape->taper[1] * w;
  }
  const double u = xh[0] / (shape->a[0] * kx), v = xh[1] / (shape->a[1] * ky);
  const double w = xh[2] / shape->a[2];
  const double e1 = shape->eps1, e2 = shape->eps2;
  const double m1 = fmax(fabs(u), fabs(v));
  if (m1 == 0.0) {
    *phi2 = w > 0 ? 0.5 * SOVC_PI : -0.5 * SOVC_PI;
    return;
  }
  const double p = atan2(sovc_spow(v / m1, 1.0 / e1), sovc_spow(u / m1, 1.0 / e1));
  *phi1 = p <= -SOVC_PI ? p + 2.0 * SOVC_PI : p;
  const double rho =
      m1 *
      sovc_power(sovc_power(fabs(u / m1), 2.0 / e1) + sovc_power(fabs(v / m1), 2.0 / e1), 0.5 * e1);
  const double m2 = fmax(rho, fabs(w));
  *phi2 = atan2(sovc_spow(w / m2, 1.0 / e2), sovc_power(rho / m2, 1.0 / e2));
}
