/* Starting directions and points of a pair, and its centre-line overlap
 * test. */
#include "solver/pair.h"

#include <math.h>
#include <string.h>

#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/shape.h"
#include "solver/support.h"

/* Nearest points of two core segments closer than this, relative to their
 * lengths and the distance between the centres, are taken to meet. */
static const double kCoreRounding = 1e-12;

/* Where the line from S's centre towards world point q leaves S, as a
 * fraction of the way, from the normalised G at the point x (local) of the
 * line at fraction t: G of an untapered body is homogeneous of degree 1
 * about its centre, so the line leaves at t / (G + 1); a tapered body's
 * exit is approached by repeating this from the last guess. */
static double centre_line_exit(const sovc_shape *S, const double x[3], double t) {
  double y[3], g;
  for (int i = 0; i < 3; ++i) y[i] = t * x[i];
  sovc_implicit_norm(&g, NULL, NULL, S, y);
  return t / (g + 1);
}

/* See pair.h. */
int sovc_pair_inside(const sovc_pair *P, const double x[3]) {
  return sovc_posed_inside(P->A, P->XA, x) && sovc_posed_inside(P->B, P->XB, x);
}

/* 1 if the point at fraction t of the way from A's centre to B's lies in
 * both. */
static int centre_line_inside(const sovc_pair *P, double t) {
  double m[3];
  for (int i = 0; i < 3; ++i) m[i] = P->XA->p[i] + t * (P->XB->p[i] - P->XA->p[i]);
  return sovc_pair_inside(P, m);
}

/* The gap along the centre line (a fraction of it) between the first
 * estimates of A's exit and B's entry beyond which the second estimate is
 * not worth its two evaluations: near-contact pairs that the line misses
 * then go on to the collide's searches at once. A choice of speed only. */
static const double kCentreLineGap = 0.1;

/* A point of the centre line between B's entry and A's exit, estimated once
 * and then, unless the first estimates lie far apart, once more for
 * tapers, found inside both. */
static int centre_line_point(const sovc_pair *P) {
  double xA[3], xB[3];
  sovc_to_local(xA, P->XA, P->XB->p); /* B's centre in A's frame, and A's in B's */
  sovc_to_local(xB, P->XB, P->XA->p);
  double exit_A = centre_line_exit(P->A, xA, 1), exit_B = centre_line_exit(P->B, xB, 1);
  if (1 - exit_B < exit_A && centre_line_inside(P, 0.5 * (exit_A + 1 - exit_B))) return 1;
  if (1 - exit_B - exit_A > kCentreLineGap) return 0;
  exit_A = centre_line_exit(P->A, xA, exit_A);
  exit_B = centre_line_exit(P->B, xB, exit_B);
  return 1 - exit_B < exit_A && centre_line_inside(P, 0.5 * (exit_A + 1 - exit_B));
}

/* See pair.h. */
int sovc_centre_line_overlap(const sovc_pair *P) {
  return sovc_posed_inside(P->B, P->XB, P->XA->p) || sovc_posed_inside(P->A, P->XA, P->XB->p) ||
         centre_line_point(P);
}

/* Index of S's longest semi-axis (the first of equal ones). */
static int longest_axis(const sovc_shape *S) {
  int k = 0;
  for (int i = 1; i < 3; ++i)
    if (S->a[i] > S->a[k]) k = i;
  return k;
}

/* Half-length of S's core segment: its longest semi-axis minus the next
 * longest (0 for a body as wide as it is long). */
static double core_length(const sovc_shape *S) {
  const int k = longest_axis(S);
  return S->a[k] - fmax(S->a[(k + 1) % 3], S->a[(k + 2) % 3]);
}

/* S's core segment: centre c, unit world direction u of its longest axis,
 * half-length L. */
static void core_segment(double c[3], double u[3], double *L, const sovc_shape *S,
                         const sovc_pose *X) {
  const int k = longest_axis(S);
  *L = core_length(S);
  for (int i = 0; i < 3; ++i) {
    u[i] = X->R[3 * i + k];
    c[i] = X->p[i];
  }
}

/* x clamped to [-L, L]. */
static double clamp_to(double x, double L) {
  return fmax(-L, fmin(L, x));
}

/* See pair.h. */
void sovc_support_seeds(double pA[3], double pB[3], const sovc_pair *P, const double v[3]) {
  double vl[3], x[3];
  const double mv[3] = {-v[0], -v[1], -v[2]};
  sovc_rotate_t(vl, P->XA->R, v);
  sovc_support_seed(x, P->A, vl);
  sovc_to_world(pA, P->XA, x);
  sovc_rotate_t(vl, P->XB->R, mv);
  sovc_support_seed(x, P->B, vl);
  sovc_to_world(pB, P->XB, x);
}

/* See pair.h. The nearest points of two segments c + s u (|s| <= L):
 * minimise over s with t free, clamp, then t for that s, and s again when
 * t was clamped (u unit). */
void sovc_core_points(double qA[3], double qB[3], const sovc_pair *P) {
  double cA[3], uA[3], LA, cB[3], uB[3], LB, r[3];
  core_segment(cA, uA, &LA, P->A, P->XA);
  core_segment(cB, uB, &LB, P->B, P->XB);
  for (int i = 0; i < 3; ++i) r[i] = cA[i] - cB[i];
  const double b = sovc_dot(uA, uB), rA = sovc_dot(uA, r), rB = sovc_dot(uB, r);
  const double den = 1 - b * b; /* 0 for parallel cores: any s is nearest, take 0 */
  double s = den > 1e-12 ? clamp_to((b * rB - rA) / den, LA) : 0.0;
  const double t_free = b * s + rB, t = clamp_to(t_free, LB);
  if (t != t_free) s = clamp_to(b * t - rA, LA);
  for (int i = 0; i < 3; ++i) {
    qA[i] = cA[i] + s * uA[i];
    qB[i] = cB[i] + t * uB[i];
  }
}

/* See pair.h. */
void sovc_core_direction(double v[3], const sovc_pair *P) {
  double qA[3], qB[3];
  sovc_core_points(qA, qB, P);
  /* Cores that cross leave only rounding (of the cores' and the centres'
   * size) in v, not a direction. */
  const sovc_shape *A = P->A, *B = P->B;
  double gap = 0, size = core_length(A) + core_length(B);
  for (int i = 0; i < 3; ++i) {
    v[i] = qB[i] - qA[i];
    gap = fmax(gap, fabs(v[i]));
    size = fmax(size, fabs(P->XA->p[i] - P->XB->p[i]));
  }
  if (gap > kCoreRounding * size) return;
  for (int i = 0; i < 3; ++i) v[i] = P->XB->p[i] - P->XA->p[i];
  if (!(sovc_dot(v, v) > 0)) v[0] = v[1] = 0, v[2] = 1;
}

/* Bounds of the scaled semi-axes: a scale that would push one past them
 * (bodies 1e290 apart in size) is not applied. */
static const double kScaledMin = 1e-280, kScaledMax = 1e280;

/* S with its lengths times f (a power of two: exact). */
static void scale_shape(sovc_shape *out, const sovc_shape *S, double f) {
  *out = *S;
  for (int i = 0; i < 3; ++i) {
    out->a[i] = S->a[i] * f;
    out->aabb_lo[i] = S->aabb_lo[i] * f;
    out->aabb_hi[i] = S->aabb_hi[i] * f;
  }
  out->radius = S->radius * f;
}

/* The pair's size (the sum of the bounding radii) rounded down to a power
 * of two, or 1 where scaling would take a semi-axis past kScaledMin or
 * kScaledMax. */
static double pair_scale(const sovc_pair *P) {
  int k;
  frexp(P->A->radius + P->B->radius, &k);
  const double s = ldexp(1.0, k - 1);
  for (int i = 0; i < 3; ++i) {
    const double a = P->A->a[i] / s, b = P->B->a[i] / s;
    if (!(a > kScaledMin && a < kScaledMax && b > kScaledMin && b < kScaledMax)) return 1;
  }
  return s;
}

/* See pair.h. */
void sovc_pair_normalize(sovc_normal_pair *N, const sovc_pair *P) {
  const double s = pair_scale(P), f = 1 / s;
  scale_shape(&N->A, P->A, f);
  scale_shape(&N->B, P->B, f);
  memcpy(N->origin, P->XA->p, sizeof N->origin);
  N->XA = *P->XA;
  N->XB = *P->XB;
  for (int i = 0; i < 3; ++i) {
    N->XA.p[i] = 0;
    N->XB.p[i] = (P->XB->p[i] - N->origin[i]) * f;
  }
  N->pair.A = &N->A;
  N->pair.XA = &N->XA;
  N->pair.B = &N->B;
  N->pair.XB = &N->XB;
  N->pair.scale = s;
}

/* See pair.h. */
void sovc_result_restore(sovc_result *r, const sovc_normal_pair *N) {
  const double s = N->pair.scale;
  r->d *= s;
  for (int i = 0; i < 3; ++i) {
    r->pA[i] = r->pA[i] * s + N->origin[i];
    r->pB[i] = r->pB[i] * s + N->origin[i];
  }
  r->residual *= s;
}
