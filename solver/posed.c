/* Posed-shape evaluation shared by the Newton formulations. */
#include "solver/posed.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "solver/falsi.h"
#include "solver/pose.h"
#include "solver/shape.h"
#include "solver/support.h"

/* out = R M R^T for symmetric row-major M. Written out: as loops it was
 * vectorised into 16-byte loads of M just stored as scalars, which stall. */
static void rotate_matrix(double out[9], const double R[9], const double M[9]) {
  double T[9]; /* T = M R^T: T[3i + j] = M row i . R row j */
  T[0] = M[0] * R[0] + M[1] * R[1] + M[2] * R[2];
  T[1] = M[0] * R[3] + M[1] * R[4] + M[2] * R[5];
  T[2] = M[0] * R[6] + M[1] * R[7] + M[2] * R[8];
  T[3] = M[3] * R[0] + M[4] * R[1] + M[5] * R[2];
  T[4] = M[3] * R[3] + M[4] * R[4] + M[5] * R[5];
  T[5] = M[3] * R[6] + M[4] * R[7] + M[5] * R[8];
  T[6] = M[6] * R[0] + M[7] * R[1] + M[8] * R[2];
  T[7] = M[6] * R[3] + M[7] * R[4] + M[8] * R[5];
  T[8] = M[6] * R[6] + M[7] * R[7] + M[8] * R[8];
  /* out is symmetric: its upper triangle, mirrored (exactly symmetric). */
  out[0] = R[0] * T[0] + R[1] * T[3] + R[2] * T[6];
  out[1] = out[3] = R[0] * T[1] + R[1] * T[4] + R[2] * T[7];
  out[2] = out[6] = R[0] * T[2] + R[1] * T[5] + R[2] * T[8];
  out[4] = R[3] * T[1] + R[4] * T[4] + R[5] * T[7];
  out[5] = out[7] = R[3] * T[2] + R[4] * T[5] + R[5] * T[8];
  out[8] = R[6] * T[2] + R[7] * T[5] + R[8] * T[8];
}

/* World gradient, its norm and the unit normal from e->gl. */
static void world_gradient(sovc_implicit_eval *e, const sovc_pose *X) {
  sovc_rotate(e->g, X->R, e->gl);
  e->gnorm = sqrt(e->g[0] * e->g[0] + e->g[1] * e->g[1] + e->g[2] * e->g[2]);
  e->inv_gnorm = e->gnorm > 0 ? 1 / e->gnorm : 0;
  for (int i = 0; i < 3; ++i) e->n[i] = e->g[i] * e->inv_gnorm;
}

/* Implicit value, gradient, normal and Hessian at a world point. */
void sovc_posed_implicit(sovc_implicit_eval *e, const sovc_shape *S,
                         const sovc_pose *X, const double p[3], int normalized,
                         int want_hessian) {
  double x[3];
  sovc_to_local(x, X, p);
  if (normalized)
    sovc_implicit_norm(&e->f, e->gl, want_hessian ? e->Hl : NULL, S, x);
  else
    sovc_implicit(&e->f, e->gl, want_hessian ? e->Hl : NULL, S, x);
  world_gradient(e, X);
  if (want_hessian == SOVC_WORLD_HESSIAN) rotate_matrix(e->H, X->R, e->Hl);
}

/* See posed.h. */
void sovc_posed_from_cache(sovc_implicit_eval *e, double p[3], const sovc_cache_eval *c,
                           const sovc_pose *X) {
  sovc_to_world(p, X, c->x);
  e->f = c->f;
  for (int i = 0; i < 3; ++i) e->gl[i] = c->g[i];
  e->Hl[0] = c->H[0], e->Hl[1] = e->Hl[3] = c->H[1], e->Hl[2] = e->Hl[6] = c->H[2];
  e->Hl[4] = c->H[3], e->Hl[5] = e->Hl[7] = c->H[4], e->Hl[8] = c->H[5];
  world_gradient(e, X);
}

/* See posed.h. */
void sovc_posed_to_cache(sovc_cache_eval *c, const sovc_implicit_eval *e, const sovc_pose *X,
                         const double p[3]) {
  sovc_to_local(c->x, X, p); /* the same rounding as the evaluation's */
  c->f = e->f;
  for (int i = 0; i < 3; ++i) c->g[i] = e->gl[i];
  c->H[0] = e->Hl[0], c->H[1] = e->Hl[1], c->H[2] = e->Hl[2];
  c->H[3] = e->Hl[4], c->H[4] = e->Hl[5], c->H[5] = e->Hl[8];
}

/* World Hessian from the local one. */
void sovc_posed_hessian(sovc_implicit_eval *e, const sovc_pose *X) {
  rotate_matrix(e->H, X->R, e->Hl);
}

/* |G| / |grad G| at a world point. Where grad F overflowed (far outside a
 * body of a tiny exponent: F near DBL_MAX) grad G is infinite, and the
 * point is no nearer the surface for it: a witness 0.46 outside a body was
 * taken as on it. */
double sovc_off_surface(const sovc_shape *S, const sovc_pose *X, const double p[3]) {
  sovc_implicit_eval e;
  sovc_posed_implicit(&e, S, X, p, 1, SOVC_NO_HESSIAN);
  return e.gnorm > 0 && isfinite(e.gnorm) ? fabs(e.f) / e.gnorm : INFINITY;
}

/* u^T (I - n n^T) H / |g|. */
void sovc_dnormal(double out[3], const sovc_implicit_eval *e, const double u[3]) {
  /* Written out: as loops they were vectorised into a 16-byte load of u
   * just stored as scalars by the caller, a stall longer than the rest. */
  const double *n = e->n, *H = e->H;
  const double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
  const double w0 = (u[0] - un * n[0]) * e->inv_gnorm, w1 = (u[1] - un * n[1]) * e->inv_gnorm,
               w2 = (u[2] - un * n[2]) * e->inv_gnorm;
  out[0] = w0 * H[0] + w1 * H[3] + w2 * H[6];
  out[1] = w0 * H[1] + w1 * H[4] + w2 * H[7];
  out[2] = w0 * H[2] + w1 * H[5] + w2 * H[8];
}

/* See posed.h. */
int sovc_posed_inside(const sovc_shape *S, const sovc_pose *X, const double p[3]) {
  double x[3], F;
  sovc_to_local(x, X, p);
  sovc_implicit(&F, NULL, NULL, S, x);
  return F < 0;
}

/* Support point in world direction v. */
void sovc_posed_support(sovc_support_eval *e, const sovc_shape *S,
                        const sovc_pose *X, const double v[3]) {
  double vl[3], xl[3];
  sovc_rotate_t(vl, X->R, v);
  const double hl = sovc_support(xl, S, vl, e->z);
  e->z = xl[2] / S->a[2];
  sovc_to_world(e->p, X, xl);
  e->h = hl + v[0] * X->p[0] + v[1] * X->p[1] + v[2] * X->p[2];
}

/* An ellipsoid's support map x(v) = A^2 v / |A v| (A = diag(a), local
 * frame) has dx/dv = (A^2 - x x^T) / (v . x) at unit v: the tangential
 * inverse curvature below, in closed form. */
static int ellipsoid_support_derivative(sovc_support_eval *e, const sovc_shape *S,
                                        const sovc_pose *X, const double v[3]) {
  double vl[3], x[3], Dl[9];
  sovc_rotate_t(vl, X->R, v);
  sovc_to_local(x, X, e->p);
  const double h = vl[0] * x[0] + vl[1] * x[1] + vl[2] * x[2];
  if (!(h > 0) || !isfinite(h)) return 0;
  const double ih = 1 / h;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      Dl[3 * r + c] = ((r == c ? S->a[r] * S->a[r] : 0) - x[r] * x[c]) * ih;
  rotate_matrix(e->D, X->R, Dl);
  return 1;
}

/* dp/dv = |grad F| T (T^T H T)^-1 T^T, T a tangent basis of v. */
int sovc_support_derivative(sovc_support_eval *e, const sovc_shape *S,
                            const sovc_pose *X, const double v[3]) {
  if (sovc_is_ellipsoid(S)) return ellipsoid_support_derivative(e, S, X, v);
  sovc_implicit_eval ie;
  sovc_frame fr;
  sovc_posed_implicit(&ie, S, X, e->p, 0, SOVC_WORLD_HESSIAN);
  sovc_frame_make(&fr, v);
  double Ht[3], Hb[3];
  sovc_rotate(Ht, ie.H, fr.t); /* H symmetric: row-major product is H t */
  sovc_rotate(Hb, ie.H, fr.b);
  const double m00 = fr.t[0] * Ht[0] + fr.t[1] * Ht[1] + fr.t[2] * Ht[2];
  const double m01 = fr.t[0] * Hb[0] + fr.t[1] * Hb[1] + fr.t[2] * Hb[2];
  const double m11 = fr.b[0] * Hb[0] + fr.b[1] * Hb[1] + fr.b[2] * Hb[2];
  const double det = m00 * m11 - m01 * m01;
  if (!(det > 0) || !isfinite(det) || !(ie.gnorm > 0)) return 0;
  const double lam = ie.gnorm;
  const double i00 = lam * m11 / det, i01 = -lam * m01 / det, i11 = lam * m00 / det;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c)
      e->D[3 * r + c] = i00 * fr.t[r] * fr.t[c] + i01 * (fr.t[r] * fr.b[c] + fr.b[r] * fr.t[c]) +
                        i11 * fr.b[r] * fr.b[c];
  return 1;
}

/* Householder frame: axis k = argmax |n_k|. */
void sovc_frame_make(sovc_frame *F, const double n[3]) {
  const double x = fabs(n[0]), y = fabs(n[1]), z = fabs(n[2]);
  const int k = x >= y ? (x >= z ? 0 : 2) : (y >= z ? 1 : 2);
  F->k = k;
  F->i = (k + 1) % 3;
  F->j = (k + 2) % 3;
  F->sigma = n[k] >= 0 ? 1.0 : -1.0;
  F->beta = 1 / (1 + F->sigma * n[k]);
  double w[3] = {n[0], n[1], n[2]};
  w[k] += F->sigma;
  for (int c = 0; c < 3; ++c) {
    F->t[c] = (c == F->i) - F->beta * n[F->i] * w[c];
    F->b[c] = (c == F->j) - F->beta * n[F->j] * w[c];
  }
}

/* v^T dq/dn = v^T (beta^2 sigma n_a w e_k^T - beta w e_a^T - beta n_a I). */
void sovc_frame_dvec(double out[3], const sovc_frame *F, const double n[3],
                     int which, const double v[3]) {
  /* Scalar statements, no loop: its vectorised 16-byte loads of v (stored
   * as scalars just before, as dp in the Jacobian) stalled. */
  const int a = which == 0 ? F->i : F->j;
  const double vw = v[0] * n[0] + v[1] * n[1] + v[2] * n[2] + F->sigma * v[F->k]; /* v . w */
  const double be = F->beta, c = -be * n[a];
  out[0] = c * v[0];
  out[1] = c * v[1];
  out[2] = c * v[2];
  out[F->k] += be * be * F->sigma * n[a] * vw;
  out[a] -= be * vw;
}

/* G at p + s dir. */
static double line_value(const sovc_shape *S, const sovc_pose *X, const double p[3],
                         const double dir[3], double s) {
  double x[3], y[3], G;
  for (int i = 0; i < 3; ++i) y[i] = p[i] + s * dir[i];
  sovc_to_local(x, X, y);
  sovc_implicit_norm(&G, NULL, NULL, S, x);
  return G;
}

/* See posed.h. The body is convex up to its dent, so the line leaves it
 * once: bisection on the sign of the implicit function, or within a short
 * reach, where G is smooth across the bracket, regula falsi (Illinois:
 * an end kept twice has its value halved) to the coordinates' rounding. */
void sovc_exit_point(double out[3], const sovc_shape *S, const sovc_pose *X, const double p[3],
                     const double dir[3], double reach) {
  double x[3];
  sovc_to_local(x, X, p);
  memcpy(out, p, 3 * sizeof(double));
  double G;
  sovc_implicit_norm(&G, NULL, NULL, S, x);
  if (!(G < 0)) return;
  /* Beyond |x| + 2 radius the line is outside the bounding sphere. */
  const double span = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) + 2 * S->radius;
  sovc_falsi b = {0, span, G, reach < span ? line_value(S, X, p, dir, reach) : -1, 0};
  /* A reach that does not bracket the exit (rounding) is dropped. */
  const int falsi = b.fhi >= 0;
  if (falsi) b.hi = reach;
  const double resolution = falsi ? DBL_EPSILON * span : 0;
  for (;;) {
    double mid = falsi ? sovc_falsi_point(&b) : 0.5 * (b.lo + b.hi);
    /* A false position on an end (its value 0, or not finite) bisects. */
    if (falsi && !(mid > b.lo && mid < b.hi)) mid = 0.5 * (b.lo + b.hi);
    if (!(mid > b.lo && mid < b.hi) || b.hi - b.lo <= resolution) break;
    const double Gm = line_value(S, X, p, dir, mid);
    if (falsi && Gm == 0) {
      b.lo = mid; /* on the surface */
      break;
    }
    sovc_falsi_move(&b, Gm < 0, mid, Gm);
  }
  for (int i = 0; i < 3; ++i) out[i] = p[i] + b.lo * dir[i];
}
