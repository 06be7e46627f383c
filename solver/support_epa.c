/* EPA on support functions (support_epa.h). */
#include "solver/support_epa.h"

#include <float.h>
#include <math.h>

#include "solver/pose.h"
#include "superovoid/status.h"

/* Start directions: the 6 axes and the 8 diagonals. */
enum { kStart = 14 };
/* Relative tolerance of the hull's visibility tests (as the global search's). */
static const double kHullEps = 1e-13;
/* Widest bracket, relative to the difference's size, given where the
 * polytope runs out of room before the tolerance: FCL's default distance
 * tolerance at unit size. */
static const double kBracket = 1e-6;

/* See support_epa.h. */
int sovc_support_difference(double w[3], double a[3], const sovc_support_body *A,
                            const sovc_support_body *B, const double n[3]) {
  const double m[3] = {-n[0], -n[1], -n[2]};
  double b[3];
  A->support(A->body, n, a);
  B->support(B->body, m, b);
  for (int i = 0; i < 3; ++i) w[i] = a[i] - b[i];
  return sovc_all_finite(w, 3);
}

/* The alive face with the smallest plane offset (the nearest to the origin
 * once the origin is inside), or -1. */
static int nearest_face(const sovc_polytope *P) {
  int best = -1;
  for (int f = 0; f < P->nf; ++f)
    if (P->alive[f] && (best < 0 || P->dist[f] < P->dist[best])) best = f;
  return best;
}

/* Proved apart (or touching) along n: the answer says so. */
static int apart(sovc_support_epa *out, const double n[3]) {
  out->overlapping = 0;
  for (int i = 0; i < 3; ++i) out->n[i] = n[i];
  return SOV_OK;
}

/* The starting polytope: supports along the 14 directions. Returns SOV_OK
 * with *size the largest |w|, or apart() when one of them separates. */
static int start(sovc_support_epa *out, double *size, const sovc_support_body *A,
                 const sovc_support_body *B, sovc_polytope *P) {
  double w[kStart][3], a[kStart][3];
  const double r = 1 / sqrt(3.0);
  *size = 0;
  for (int k = 0; k < kStart; ++k) {
    double u[3] = {0, 0, 0};
    if (k < 6) {
      u[k / 2] = k % 2 ? -1 : 1;
    } else {
      for (int i = 0; i < 3; ++i) u[i] = ((k - 6) >> i) & 1 ? -r : r;
    }
    if (!sovc_support_difference(w[k], a[k], A, B, u)) return SOV_ERR_NONFINITE;
    if (sovc_dot(u, w[k]) <= 0) return apart(out, u);
    *size = fmax(*size, sqrt(sovc_dot(w[k], w[k])));
  }
  out->steps = kStart;
  if (!sovc_polytope_init(P, (const double(*)[3])w, (const double(*)[3])a, kStart, kHullEps))
    return SOV_ERR_NO_CONVERGENCE;
  return SOV_OK;
}

/* The support along face f's normal added; *h its support value. Returns
 * SOV_OK, apart() when it separates (or leaves the origin within eps of the
 * boundary: touching), or an error. */
static int expand(sovc_support_epa *out, double *h, const sovc_support_body *A,
                  const sovc_support_body *B, sovc_polytope *P, int f, double eps) {
  double w[3], a[3];
  if (!sovc_support_difference(w, a, A, B, P->normal[f])) return SOV_ERR_NONFINITE;
  ++out->steps;
  *h = sovc_dot(P->normal[f], w);
  if (*h <= eps) return apart(out, P->normal[f]);
  return sovc_polytope_add(P, w, a, eps) == 1 ? SOV_OK : SOV_ERR_NO_CONVERGENCE;
}

/* Largest distance between two of the three points p[k] + sign q[k]. */
static double spread(const double (*p)[3], const double (*q)[3], double sign) {
  double m = 0;
  for (int k = 0; k < 3; ++k) {
    const int l = (k + 1) % 3;
    double e[3];
    for (int i = 0; i < 3; ++i) e[i] = p[k][i] + sign * q[k][i] - p[l][i] - sign * q[l][i];
    m = fmax(m, sovc_dot(e, e));
  }
  return m;
}

/* The answer of face f, whose support value along its normal is h: its
 * distance and normal, the bracket's width, and the witnesses: the face's
 * point nearest the origin, weighted over the support points of the body
 * whose three lie closer together (a curved side: the weights land on its
 * surface, where over a box's face corners they land anywhere on the face,
 * off the other body by up to 8 cm; 1 in 300 overlaps with the flat body
 * first), the other witness the depth along the normal from it (so that
 * pA - pB = depth n exactly, where that point is only near depth n). */
static void answer(sovc_support_epa *out, const sovc_polytope *P, int f, double h) {
  double x[3], lam[3], a[3][3], w[3][3];
  sovc_polytope_closest(x, lam, P, f);
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i) {
      a[k][i] = P->aux[P->face[f][k]][i];
      w[k][i] = P->v[P->face[f][k]][i];
    }
  /* A's points a, B's a - w. */
  const int on_b = spread((const double(*)[3])a, (const double(*)[3])w, -1) <
                   spread((const double(*)[3])a, (const double(*)[3])w, 0);
  out->overlapping = 1;
  out->depth = P->dist[f];
  out->gap = h - P->dist[f];
  for (int i = 0; i < 3; ++i) {
    out->n[i] = P->normal[f][i];
    double p = 0;
    for (int k = 0; k < 3; ++k) p += lam[k] * (on_b ? a[k][i] - w[k][i] : a[k][i]);
    out->pA[i] = on_b ? p + out->depth * out->n[i] : p;
    out->pB[i] = on_b ? p : p - out->depth * out->n[i];
  }
}

int sovc_support_penetration(sovc_support_epa *out, const sovc_support_body *A,
                             const sovc_support_body *B, double tolerance, sovc_polytope *P) {
  double size;
  out->steps = 0;
  out->overlapping = 1; /* until a support value proves otherwise */
  out->gap = INFINITY;  /* no bracket yet */
  int st = start(out, &size, A, B, P);
  if (st != SOV_OK || !out->overlapping) return st;
  const double eps = 1e-14 * size, tol = fmax(tolerance, 64 * DBL_EPSILON * size);
  for (;;) {
    const int f = nearest_face(P);
    if (f < 0) return SOV_ERR_NO_CONVERGENCE;
    double h;
    if (P->dist[f] <= 0) { /* the origin outside this face: grow towards it */
      st = expand(out, &h, A, B, P, f, eps);
      if (st != SOV_OK || !out->overlapping) return st;
      continue;
    }
    /* depth lies in [dist, h]: the inner polytope's face, the support along it */
    double w[3], a[3];
    if (!sovc_support_difference(w, a, A, B, P->normal[f])) return SOV_ERR_NONFINITE;
    h = sovc_dot(P->normal[f], w);
    if (h - P->dist[f] <= tol) {
      answer(out, P, f, h);
      return SOV_OK;
    }
    ++out->steps;
    if (sovc_polytope_add(P, w, a, eps) != 1) {
      /* Full (curved against curved gains a digit per 70 or so vertices:
       * 4e-8 at 512 on a sphere in a capsule), or no room left to
       * rounding: the bracket reached is the best answer there is, if it
       * is one (a ring of optima left 0.014 on a depth of 100). */
      answer(out, P, f, h);
      if (!(out->gap <= kBracket * size)) out->gap = INFINITY;
      return SOV_ERR_NO_CONVERGENCE;
    }
  }
}
