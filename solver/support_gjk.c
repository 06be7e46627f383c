/* GJK distance on support functions (support_gjk.h). */
#include "solver/support_gjk.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "solver/pose.h"
#include "superovoid/status.h"

/* Support pairs before giving up: polytopes end in a few dozen, curved
 * bodies gain a constant factor a step. */
enum { kMaxSteps = 256 };

/* A simplex vertex: w = a - b, a of A. */
typedef struct vertex {
  double w[3], a[3];
} vertex;

/* Weights lam (summing to 1) of the point of the affine hull of the k
 * vertices S[idx[.]] closest to the origin; 0 if they are affinely
 * dependent to rounding (a singular Gram matrix). */
static int affine_closest(double lam[4], const vertex *S, const int idx[4], int k) {
  if (k == 1) return lam[0] = 1, 1;
  const int m = k - 1;
  double M[3][4], e[3][3];
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < 3; ++i) e[j][i] = S[idx[j + 1]].w[i] - S[idx[0]].w[i];
  double scale = 0;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) M[i][j] = sovc_dot(e[i], e[j]);
    M[i][m] = -sovc_dot(e[i], S[idx[0]].w);
    scale = fmax(scale, M[i][i]);
  }
  /* Gaussian elimination with partial pivoting. */
  for (int c = 0; c < m; ++c) {
    int p = c;
    for (int r = c + 1; r < m; ++r)
      if (fabs(M[r][c]) > fabs(M[p][c])) p = r;
    if (!(fabs(M[p][c]) > 1e-13 * scale)) return 0;
    if (p != c)
      for (int j = 0; j <= m; ++j) {
        const double t = M[c][j];
        M[c][j] = M[p][j];
        M[p][j] = t;
      }
    for (int r = c + 1; r < m; ++r) {
      const double f = M[r][c] / M[c][c];
      for (int j = c; j <= m; ++j) M[r][j] -= f * M[c][j];
    }
  }
  double x[3], sum = 0;
  for (int r = m - 1; r >= 0; --r) {
    double s = M[r][m];
    for (int j = r + 1; j < m; ++j) s -= M[r][j] * x[j];
    x[r] = s / M[r][r];
    sum += x[r];
  }
  lam[0] = 1 - sum;
  for (int j = 0; j < m; ++j) lam[j + 1] = x[j];
  return 1;
}

/* The point x of the simplex S[0..n) closest to the origin: the closest of
 * its faces' affine closest points that lie inside their faces (positive
 * weights). S keeps that face's vertices, lam their weights; returns their
 * count, or 0 when the origin lies inside the tetrahedron. */
static int closest(vertex *S, int n, double lam[4], double x[3]) {
  double best = INFINITY, best_lam[4] = {1, 0, 0, 0};
  int best_mask = 1;
  for (int mask = 1; mask < 1 << n; ++mask) {
    int idx[4], k = 0;
    for (int i = 0; i < n; ++i)
      if (mask >> i & 1) idx[k++] = i;
    double l[4];
    if (!affine_closest(l, S, idx, k)) continue;
    int inside = 1;
    for (int j = 0; j < k; ++j) inside = inside && l[j] > 0;
    if (!inside) continue;
    if (k == 4) return 0;
    double p[3] = {0, 0, 0};
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < 3; ++i) p[i] += l[j] * S[idx[j]].w[i];
    const double dd = sovc_dot(p, p);
    if (dd < best) {
      best = dd;
      best_mask = mask;
      memcpy(best_lam, l, sizeof best_lam);
      memcpy(x, p, 3 * sizeof(double));
    }
  }
  vertex kept[4];
  int k = 0;
  for (int i = 0; i < n; ++i)
    if (best_mask >> i & 1) kept[k] = S[i], lam[k] = best_lam[k], ++k;
  memcpy(S, kept, (size_t)k * sizeof *kept);
  return k;
}

/* 1 if w is within noise of a vertex of S[0..n): rounding leaves no room. */
static int known(const vertex *S, int n, const double w[3], double noise) {
  for (int k = 0; k < n; ++k) {
    double e[3];
    for (int i = 0; i < 3; ++i) e[i] = w[i] - S[k].w[i];
    if (sqrt(sovc_dot(e, e)) <= noise) return 1;
  }
  return 0;
}

/* The answer of the simplex S[0..n) with weights lam: its point x = pA - pB
 * and the lower bound lb. */
static void answer(sovc_support_gjk *out, const vertex *S, int n, const double lam[4],
                   const double x[3], double lb) {
  out->overlapping = 0;
  out->d = sqrt(sovc_dot(x, x));
  out->gap = out->d - lb;
  for (int i = 0; i < 3; ++i) {
    double a = 0, w = 0;
    for (int k = 0; k < n; ++k) a += lam[k] * S[k].a[i], w += lam[k] * S[k].w[i];
    out->pA[i] = a;
    out->pB[i] = a - w;
    out->n[i] = -x[i] / out->d;
  }
}

/* GJK on A - B (see sovc_support_distance); verdict_only: stop at the
 * first proof, a positive bound (a separating plane) or the origin in a
 * simplex. */
static int support_gjk(sovc_support_gjk *out, const sovc_support_body *A,
                       const sovc_support_body *B, const double start[3], double tolerance,
                       int verdict_only) {
  vertex S[4];
  double lam[4] = {1, 0, 0, 0}, x[3], first[3] = {1, 0, 0};
  if (start && sovc_all_finite(start, 3) && sovc_dot(start, start) > 0)
    memcpy(first, start, sizeof first);
  memset(out, 0, sizeof *out);
  out->gap = INFINITY;
  if (!sovc_support_difference(S[0].w, S[0].a, A, B, first)) return SOV_ERR_NONFINITE;
  out->steps = 1;
  int n = 1;
  memcpy(x, S[0].w, sizeof x);
  double size = sqrt(sovc_dot(x, x)), lb = -INFINITY;
  for (;;) {
    const double xn = sqrt(sovc_dot(x, x)), noise = 64 * DBL_EPSILON * size;
    /* The origin on the simplex, to rounding: touching or overlapping. */
    if (xn <= noise) break;
    /* min over A - B of x/|x| . y, a lower bound of the distance, at the
     * support along -x. */
    const double dir[3] = {-x[0] / xn, -x[1] / xn, -x[2] / xn};
    vertex w;
    if (!sovc_support_difference(w.w, w.a, A, B, dir)) return SOV_ERR_NONFINITE;
    ++out->steps;
    size = fmax(size, sqrt(sovc_dot(w.w, w.w)));
    /* The bound along x itself, not the best seen: it proves x's direction
     * too, the answer's normal. That direction is rounded by about an ulp
     * of the vertices over |x|, which turns the bound by size times that. */
    lb = -sovc_dot(dir, w.w);
    /* A verdict stops at a proof; the floor bounds only a distance's accuracy. */
    const double floor = fmax(64 * DBL_EPSILON * size, DBL_EPSILON * size * size / xn);
    if (verdict_only ? lb > 0 : xn - lb <= fmax(tolerance, floor)) {
      answer(out, S, n, lam, x, lb);
      return SOV_OK;
    }
    if (known(S, n, w.w, noise) || out->steps >= kMaxSteps) break; /* no room left, or slow */
    S[n++] = w;
    double next[3];
    const int kept = closest(S, n, lam, next);
    if (kept == 0) {
      out->overlapping = 1;
      return SOV_OK;
    }
    n = kept;
    /* Each step shortens x in exact arithmetic; one that does not is
     * rounding. */
    if (!(sovc_dot(next, next) < xn * xn)) break;
    memcpy(x, next, sizeof x);
  }
  const double xn = sqrt(sovc_dot(x, x));
  if (xn <= 64 * DBL_EPSILON * size) {
    out->overlapping = 1;
    return SOV_OK;
  }
  answer(out, S, n, lam, x, lb);
  return SOV_ERR_NO_CONVERGENCE;
}

int sovc_support_distance(sovc_support_gjk *out, const sovc_support_body *A,
                          const sovc_support_body *B, const double start[3], double tolerance) {
  return support_gjk(out, A, B, start, tolerance, 0);
}

int sovc_support_collide(sovc_support_gjk *out, const sovc_support_body *A,
                         const sovc_support_body *B, const double start[3]) {
  return support_gjk(out, A, B, start, 0, 1);
}
