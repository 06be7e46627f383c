/* Coaxial bodies of revolution. D = A - B is then symmetric about the line
 * through the origin along the axis u (the centres' offset lies along it),
 * so h_D(v) depends on v's angle t to u alone: every direction is a turn
 * about u of v(t) = cos t u + sin t e, t in [0, pi], e a unit normal of u.
 * On that half meridian the support points w_k of D at t_k bound h_D from
 * below between neighbours, h_D(v) >= max(v . w_i, v . w_j): EPA's argument
 * in the plane, refined where the bound is lowest until it closes. */
#include "solver/coaxial.h"

#include <math.h>
#include <string.h>

#include "solver/falsi.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"

enum {
  kStart = 9,       /* t = 0, pi/8, ..., pi */
  kMaxPoints = 128, /* the tests' pairs close the bound with 33 to 39 */
  kPolishSteps = 60,
};

/* Axes parallel (sine of their angle) and centres on the axis (relative to
 * the centres' distance plus the radii, the size below) to this: what
 * rounding leaves of exact symmetry in poses composed along a kinematic
 * chain. Turning B by that angle about its centre and moving it onto the
 * axis changes the objective by at most twice this times the size: for
 * overlapping bodies (centres within the radii) under half the bound
 * tolerance. */
static const double kSymmetry = 1e-12;
/* A split closer than this share of its interval to an end bisects it. */
static const double kSplitMargin = 1e-2;

/* Circular slices of one radius law: a body of revolution about local z. */
static int revolution(const sovc_shape *S) {
  return S->eps1 == 1 && S->a[0] == S->a[1] && S->taper[0] == S->taper[1];
}

/* A body of revolution about every axis through its centre. */
static int sphere(const sovc_shape *S) {
  return revolution(S) && S->eps2 == 1 && S->a[2] == S->a[0] && S->taper[0] == 0;
}

/* Euclidean length of a 3-vector. */
static double norm3(const double a[3]) { return sqrt(sovc_dot(a, a)); }

/* See coaxial.h. */
int sovc_coaxial_axis(double axis[3], const sovc_pair *P) {
  if (!revolution(P->A) || !revolution(P->B)) return 0;
  const double c[3] = {P->XB->p[0] - P->XA->p[0], P->XB->p[1] - P->XA->p[1],
                       P->XB->p[2] - P->XA->p[2]};
  const double zA[3] = {P->XA->R[2], P->XA->R[5], P->XA->R[8]},
               zB[3] = {P->XB->R[2], P->XB->R[5], P->XB->R[8]};
  const double cn = norm3(c), size = P->A->radius + P->B->radius + cn;
  if (!isfinite(size)) return 0;
  if (!sphere(P->A)) {
    memcpy(axis, zA, sizeof zA);
    if (!sphere(P->B)) {
      const double x[3] = {zA[1] * zB[2] - zA[2] * zB[1], zA[2] * zB[0] - zA[0] * zB[2],
                           zA[0] * zB[1] - zA[1] * zB[0]};
      if (norm3(x) > kSymmetry) return 0;
    }
  } else if (!sphere(P->B)) {
    memcpy(axis, zB, sizeof zB);
  } else {
    for (int i = 0; i < 3; ++i) axis[i] = cn > 0 ? c[i] / cn : (i == 2);
  }
  const double an = norm3(axis); /* a rotation's column, unit to rounding */
  for (int i = 0; i < 3; ++i) axis[i] /= an;
  const double along = sovc_dot(c, axis);
  const double off[3] = {c[0] - along * axis[0], c[1] - along * axis[1], c[2] - along * axis[2]};
  return norm3(off) <= kSymmetry * size;
}

/* The half meridian's evaluated directions, sorted by t: h_D and the
 * support point of D in plane coordinates (w . u, w . e); for the interval
 * from t[i] to t[i + 1], the least of the lower bound on it and where. */
typedef struct meridian {
  const sovc_pair *P;
  double u[3], e[3];
  int n;
  double t[kMaxPoints], h[kMaxPoints], w[kMaxPoints][2];
  double pa[kMaxPoints][3], pb[kMaxPoints][3]; /* A's and B's support points */
  double low[kMaxPoints], at[kMaxPoints];
} meridian;

/* The world unit direction v(t) = cos t u + sin t e. */
static void direction(double v[3], const meridian *M, double t) {
  const double c = cos(t), s = sin(t);
  for (int i = 0; i < 3; ++i) v[i] = c * M->u[i] + s * M->e[i];
}

/* Exact supports of A along v(t) and of B along -v(t); returns h_D(v(t)) and
 * writes w's plane coordinates. */
static double evaluate(sovc_support_eval *a, sovc_support_eval *b, double w[2], const meridian *M,
                       double t) {
  double v[3], mv[3], d[3];
  direction(v, M, t);
  for (int i = 0; i < 3; ++i) mv[i] = -v[i];
  a->z = b->z = NAN;
  sovc_posed_support(a, M->P->A, M->P->XA, v);
  sovc_posed_support(b, M->P->B, M->P->XB, mv);
  for (int i = 0; i < 3; ++i) d[i] = a->p[i] - b->p[i];
  w[0] = sovc_dot(d, M->u);
  w[1] = sovc_dot(d, M->e);
  return a->h + b->h;
}

/* v(t) . W for plane coordinates W. */
static double along(const double W[2], double t) { return cos(t) * W[0] + sin(t) * W[1]; }

/* The first t0 + k period at or after lo. */
static double first_from(double t0, double period, double lo) {
  return t0 + period * ceil((lo - t0) / period);
}

/* Least of max(v . w_i, v . w_{i+1}) over the interval: at an end, where
 * the two cross, or at an interior minimum of either; *at gets where. */
static double interval_bound(const meridian *M, int i, double *at) {
  const double lo = M->t[i], hi = M->t[i + 1];
  const double *wi = M->w[i], *wj = M->w[i + 1];
  const double cand[5] = {
      lo, hi, first_from(atan2(wj[0] - wi[0], wi[1] - wj[1]), SOVC_PI, lo),
      first_from(atan2(wi[1], wi[0]) + SOVC_PI, 2 * SOVC_PI, lo),
      first_from(atan2(wj[1], wj[0]) + SOVC_PI, 2 * SOVC_PI, lo)};
  double low = INFINITY;
  *at = lo;
  for (int k = 0; k < 5; ++k) {
    if (!(cand[k] >= lo && cand[k] <= hi)) continue;
    const double g = fmax(along(wi, cand[k]), along(wj, cand[k]));
    if (g < low) low = g, *at = cand[k];
  }
  return low;
}

/* Evaluate t and insert it in order with the bounds of the intervals it
 * splits; 0 when full or not finite. */
static int insert(meridian *M, double t) {
  if (M->n == kMaxPoints) return 0;
  sovc_support_eval a, b;
  double w[2];
  const double h = evaluate(&a, &b, w, M, t);
  if (!isfinite(h) || !isfinite(w[0]) || !isfinite(w[1])) return 0;
  int k = M->n++;
  for (; k > 0 && M->t[k - 1] > t; --k) {
    M->t[k] = M->t[k - 1];
    M->h[k] = M->h[k - 1];
    memcpy(M->w[k], M->w[k - 1], sizeof M->w[k]);
    memcpy(M->pa[k], M->pa[k - 1], sizeof M->pa[k]);
    memcpy(M->pb[k], M->pb[k - 1], sizeof M->pb[k]);
  }
  M->t[k] = t;
  M->h[k] = h;
  memcpy(M->w[k], w, sizeof w);
  memcpy(M->pa[k], a.p, sizeof a.p);
  memcpy(M->pb[k], b.p, sizeof b.p);
  for (int j = M->n - 2; j > k; --j) {
    M->low[j] = M->low[j - 1];
    M->at[j] = M->at[j - 1];
  }
  for (int j = k - 1; j <= k; ++j)
    if (j >= 0 && j + 1 < M->n) M->low[j] = interval_bound(M, j, &M->at[j]);
  return 1;
}

/* Index of the least h. */
static int lowest(const meridian *M) {
  int k = 0;
  for (int i = 1; i < M->n; ++i)
    if (M->h[i] < M->h[k]) k = i;
  return k;
}

/* dh/dt = v'(t) . w(t): the support point's offset along the meridian,
 * zero at the optimum. */
static double offset(const double W[2], double t) { return -sin(t) * W[0] + cos(t) * W[1]; }

/* The optimum's t within the bracket of the best point's neighbours by
 * regula falsi (Illinois) on the offset, so that the witnesses need no
 * more than a rounding-sized slide; the poles have no offset. */
static double polish(const meridian *M, int k, double tol) {
  if (k == 0 || k == M->n - 1) return M->t[k];
  sovc_falsi br = {M->t[k - 1], M->t[k + 1], offset(M->w[k - 1], M->t[k - 1]),
                   offset(M->w[k + 1], M->t[k + 1]), 0};
  const double fk = offset(M->w[k], M->t[k]);
  if (fk < 0)
    br.lo = M->t[k], br.flo = fk;
  else
    br.hi = M->t[k], br.fhi = fk;
  if (!(br.flo < 0 && br.fhi > 0)) return M->t[k];
  double t = M->t[k];
  for (int it = 0; it < kPolishSteps; ++it) {
    const double next = sovc_falsi_point(&br);
    if (!(next > br.lo && next < br.hi)) break;
    t = next;
    sovc_support_eval a, b;
    double w[2];
    evaluate(&a, &b, w, M, t);
    const double f = offset(w, t);
    if (fabs(f) <= tol) break;
    sovc_falsi_move(&br, f < 0, t, f);
  }
  return t;
}

/* Answer along n = v(t) from the exact supports there, slid to make
 * pB - pA = d n exact; 1 if d is within tol of the best value hk and the
 * slide left both witnesses on their surfaces. */
static int support_witnesses(sovc_result *r, const meridian *M, double t, double hk, double tol) {
  sovc_support_eval a, b;
  double w[2];
  const double h = evaluate(&a, &b, w, M, t);
  if (!(h <= hk + tol)) return 0;
  r->d = -h;
  direction(r->n, M, t);
  memcpy(r->pA, a.p, sizeof r->pA);
  memcpy(r->pB, b.p, sizeof r->pB);
  return sovc_balanced_on_surfaces(r, M->P, tol);
}

/* Answer along n = v(t) where its support points are far from unique (the
 * straight side of a cylinder-like body supports it at every height, and
 * the supports found may lie at heights the other body's side does not
 * reach): the ray along n meets the polygon's edge from point i to i + 1
 * at a share lam, and the same mix of their A and B support points, moved
 * along n onto the surfaces, is a pair of surface points with pB - pA along
 * n (EPA's witnesses). 1 if d is the objective at n within tol. */
static int edge_witnesses(sovc_result *r, const meridian *M, double t, double tol) {
  int i = 0;
  while (i + 1 < M->n && !(offset(M->w[i], t) <= 0 && offset(M->w[i + 1], t) > 0)) ++i;
  if (i + 1 == M->n) return 0;
  const double oi = offset(M->w[i], t), lam = oi / (oi - offset(M->w[i + 1], t));
  double pa[3], pb[3], mn[3];
  direction(r->n, M, t);
  for (int j = 0; j < 3; ++j) {
    pa[j] = M->pa[i][j] + lam * (M->pa[i + 1][j] - M->pa[i][j]);
    pb[j] = M->pb[i][j] + lam * (M->pb[i + 1][j] - M->pb[i][j]);
    mn[j] = -r->n[j];
  }
  sovc_exit_point(r->pA, M->P->A, M->P->XA, pa, r->n, INFINITY);
  sovc_exit_point(r->pB, M->P->B, M->P->XB, pb, mn, INFINITY);
  r->d = sovc_dot(r->n, r->pB) - sovc_dot(r->n, r->pA);
  sovc_support_eval a, b;
  double w[2];
  if (!(fabs(r->d + evaluate(&a, &b, w, M, t)) <= tol)) return 0;
  return sovc_balanced_on_surfaces(r, M->P, tol);
}

/* See coaxial.h. */
size_t sovc_coaxial_work_size(void) {
  return sizeof(meridian);
}

_Static_assert(sizeof(meridian) <= SOVC_COAXIAL_WORK_BYTES, "SOVC_COAXIAL_WORK_BYTES too small");

/* See coaxial.h. */
int sovc_coaxial_search(sovc_result *best, int *have, const sovc_pair *P, const double axis[3],
                        void *work) {
  meridian *M = work;
  memset(M, 0, sizeof *M);
  M->P = P;
  sovc_frame fr;
  sovc_frame_make(&fr, axis);
  memcpy(M->u, axis, sizeof M->u);
  memcpy(M->e, fr.t, sizeof M->e);
  const double tol = SOVC_SEARCH_BOUND * (P->A->radius + P->B->radius);
  for (int k = 0; k < kStart; ++k)
    if (!insert(M, SOVC_PI * k / (kStart - 1))) return SOV_ERR_NO_CONVERGENCE;
  for (;;) {
    int where = 0;
    for (int i = 1; i + 1 < M->n; ++i)
      if (M->low[i] < M->low[where]) where = i;
    /* Every direction has h_D above the least bound, within tol of the
     * best h seen. */
    if (M->low[where] >= M->h[lowest(M)] - tol) break;
    const double lo = M->t[where], hi = M->t[where + 1], margin = kSplitMargin * (hi - lo);
    double t = M->at[where];
    if (!(t > lo + margin && t < hi - margin)) t = 0.5 * (lo + hi);
    if (!(t > lo && t < hi) || !insert(M, t)) return SOV_ERR_NO_CONVERGENCE;
  }
  const int k = lowest(M);
  sovc_result r = {0};
  r.method = SOVC_METHOD_AUTO;
  const double t = polish(M, k, tol);
  if (!support_witnesses(&r, M, t, M->h[k], tol) && !edge_witnesses(&r, M, t, tol))
    return SOV_ERR_NO_CONVERGENCE;
  sovc_keep_best(best, have, &r);
  return SOV_OK;
}
