/* Global search on an inner polytope of D = A - B built from exact support
 * points w(v) = s_A(v) - s_B(-v). For every unit v, h_D(v) >= v . w_k for all
 * k, so the polytope's face planes bound h_D from below: EPA's argument,
 * used as a branch and bound whose leaves are polished by Newton. Where no
 * Newton chart converges (sharp straight edges: flat along, pointy across),
 * the polytope itself is refined until its bound closes. */
#include "solver/global.h"

#include <math.h>
#include <string.h>

#include "solver/coaxial.h"
#include "solver/golden.h"
#include "solver/inner_ball.h"
#include "solver/newton.h"
#include "solver/pair.h"
#include "solver/polytope.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"
#include "solver/support.h"
#include "solver/support_gjk.h"

enum {
  kSamples = 14,    /* cube faces and corners */
  kMaxCaps = 64,    /* proved caps, polish starts */
  kMaxVerts = 1024, /* the polytope's (see search.budget) */
};

/* Faces this close (cosine, 1 degree) to the arc from a start to the
 * optimum it led to lie in that optimum's basin: they are refined, not
 * polished again. */
static const double kStartedCap = 0.99985;
/* Faces this close to a failed polish start are not polished again. */
static const double kFailedCap = 0.99995;
/* A face is tight when its support value exceeds its plane by less than
 * this fraction of the bodies' size: then its normal is worth polishing. */
static const double kTight = 1e-4;
/* Final bound tolerance, relative to the bodies' size. */
static const double kBound = SOVC_SEARCH_BOUND;

/* A cap of directions about unit n (cosine and sine of its half-angle)
 * over which the objective is proved not to beat a polished answer. */
typedef struct cap {
  double n[3], cos, sin;
} cap;

/* A polish start that led to an optimum, and that optimum's normal. */
typedef struct path {
  double from[3], to[3];
} path;

/* Search state: the polytope (aux = A-side support point of each vertex),
 * proved caps, polish starts that led to an optimum (with the optimum) and
 * that failed, and the best evaluated direction. */
typedef struct search {
  const sovc_pair *pair;
  const sovc_search_config *cfg;
  sovc_result *best; /* the best answer so far, if *have */
  int *have;
  sovc_polytope P;
  SOVC_POLYTOPE_STORAGE(kMaxVerts) polytope_storage;
  cap caps[kMaxCaps];
  path started[kMaxCaps];
  double failed[kMaxCaps][3];
  int ncaps, nstarted, nfailed;
  double size;
  double ub_lb, ub_v[3], ub_pA[3], ub_pB[3]; /* largest -h_D(v) seen */
  int proved; /* the best answer is proved global by inner balls */
  /* Identical bodies at one pose: D = A - A is centrally symmetric, so
   * the objective takes the same value at -v as at v (the same two
   * supports, summed in the other order), and its support point there, its
   * proofs and its optima are the negated ones. */
  int mirror;
  /* Rounds of expansion: as many as the polytope holds, at one vertex a
   * round, or two for a mirrored search (a round adds at most one of its
   * own, and its mirror). Where no cap about the optimum can be proved (a
   * box-like body's rounded corner), the polytope alone closes the bound,
   * one vertex at a time, to the last. */
  int budget;
} search;

/* Unit sample direction k of the cube's 6 face and 8 corner normals. */
static void sample(double v[3], int k) {
  if (k < 6) {
    v[0] = v[1] = v[2] = 0;
    v[k / 2] = k % 2 ? -1.0 : 1.0;
    return;
  }
  const double c = 0.57735026918962576; /* 1 / sqrt 3 */
  v[0] = (k - 6) & 1 ? -c : c;
  v[1] = (k - 6) & 2 ? -c : c;
  v[2] = (k - 6) & 4 ? -c : c;
}

/* 1 if unit n is within cosine cap of one of the m directions in list
 * (m rows of 3). */
static int in_caps(const double *list, int m, const double n[3], double cap) {
  for (int s = 0; s < m; ++s, list += 3)
    if (sovc_dot(n, list) > cap) return 1;
  return 0;
}

/* 1 if unit n lies within cosine cap of the shorter great-circle arc of
 * one of the m paths (a path's ends within cap included). */
static int near_paths(const path *list, int m, const double n[3], double cap) {
  const double sin_cap = sqrt(1 - cap * cap);
  for (int s = 0; s < m; ++s) {
    const double *a = list[s].from, *b = list[s].to;
    if (sovc_dot(n, a) > cap || sovc_dot(n, b) > cap) return 1;
    double c[3];
    sovc_cross(c, a, b);
    const double cc = sqrt(sovc_dot(c, c));
    if (!(cc > 1e-9)) continue; /* ends (nearly) equal or opposite: the ends alone */
    /* Off the arc's great circle by less than the cap, and between its ends
     * (n projected on the circle's plane lies between a and b). */
    if (!(fabs(sovc_dot(n, c)) < sin_cap * cc)) continue;
    double an[3], nb[3];
    sovc_cross(an, a, n);
    sovc_cross(nb, n, b);
    if (sovc_dot(an, c) > 0 && sovc_dot(nb, c) > 0) return 1;
  }
  return 0;
}

/* Append the path from unit start v to unit optimum n. */
static void add_path(search *S, const double v[3], const double n[3]) {
  if (S->nstarted == kMaxCaps) return;
  memcpy(S->started[S->nstarted].from, v, 3 * sizeof(double));
  memcpy(S->started[S->nstarted].to, n, 3 * sizeof(double));
  ++S->nstarted;
}

/* Append unit n to a cap list. */
static void add_cap(double (*list)[3], int *m, const double n[3]) {
  if (*m < kMaxCaps) memcpy(list[(*m)++], n, 3 * sizeof(double));
}

/* add_path, and for a mirrored search the antipodal path too. */
static void add_paths(search *S, const double v[3], const double n[3]) {
  add_path(S, v, n);
  if (!S->mirror) return;
  const double mv[3] = {-v[0], -v[1], -v[2]}, mn[3] = {-n[0], -n[1], -n[2]};
  add_path(S, mv, mn);
}

/* Exact supports along unit v (pA of A along v, pB of B along -v), the 1-D
 * searches started at the heights of nearby support points hA, hB (world;
 * NULL for none); remembers the best direction evaluated and returns the
 * objective -(h_A(v) + h_B(-v)). */
static double evaluate(search *S, double pA[3], double pB[3], const double v[3], const double hA[3],
                       const double hB[3]) {
  sovc_support_eval a = {.z = NAN}, b = {.z = NAN};
  const double mv[3] = {-v[0], -v[1], -v[2]};
  double x[3];
  if (hA) sovc_to_local(x, S->pair->XA, hA), a.z = x[2] / S->pair->A->a[2];
  if (hB) sovc_to_local(x, S->pair->XB, hB), b.z = x[2] / S->pair->B->a[2];
  sovc_posed_support(&a, S->pair->A, S->pair->XA, v);
  sovc_posed_support(&b, S->pair->B, S->pair->XB, mv);
  memcpy(pA, a.p, sizeof a.p);
  memcpy(pB, b.p, sizeof b.p);
  const double lb = -(a.h + b.h);
  if (lb > S->ub_lb) {
    S->ub_lb = lb;
    memcpy(S->ub_v, v, sizeof S->ub_v);
    memcpy(S->ub_pA, pA, sizeof S->ub_pA);
    memcpy(S->ub_pB, pB, sizeof S->ub_pB);
  }
  return lb;
}

/* Points of A and B nearly supporting along unit v and -v: one step of
 * each support's 1-D search from the height of a nearby support point hA,
 * hB (world) instead of the whole search. Returns v . (pA - pB) <= h_D(v):
 * good enough to grow the inner polytope (its vertices need only be points
 * of D), never an objective value. */
static double evaluate_near(const search *S, double pA[3], double pB[3], const double v[3],
                            const double hA[3], const double hB[3]) {
  double vl[3], x[3], xl[3];
  const double mv[3] = {-v[0], -v[1], -v[2]};
  sovc_to_local(x, S->pair->XA, hA);
  sovc_rotate_t(vl, S->pair->XA->R, v);
  sovc_support_steps(xl, S->pair->A, vl, x[2] / S->pair->A->a[2], 1);
  sovc_to_world(pA, S->pair->XA, xl);
  sovc_to_local(x, S->pair->XB, hB);
  sovc_rotate_t(vl, S->pair->XB->R, mv);
  sovc_support_steps(xl, S->pair->B, vl, x[2] / S->pair->B->a[2], 1);
  sovc_to_world(pB, S->pair->XB, xl);
  return v[0] * (pA[0] - pB[0]) + v[1] * (pA[1] - pB[1]) + v[2] * (pA[2] - pB[2]);
}

/* Support points of polytope vertex k: A's (aux) and B's (aux - vertex). */
static void vertex_points(double pA[3], double pB[3], const sovc_polytope *P, int k) {
  for (int i = 0; i < 3; ++i) {
    pA[i] = P->aux[k][i];
    pB[i] = P->aux[k][i] - P->v[k][i];
  }
}

/* Lower bound of h_D over the directions of face f's cone outside the
 * proved caps; INFINITY if the cone lies in one (its vertices' directions
 * do: caps are convex). The ray along such a v meets the face at distance
 * dist / (n_f . v) >= dist, and if n_f lies in a cap at angle alpha from
 * its centre, v lies at least theta - alpha from n_f. Only a face in front
 * of the origin (dist > 0) has a cone: the search ends only when every
 * face does, the origin then inside the polytope. */
static double face_bound(const search *S, int f) {
  const double dist = S->P.dist[f], *nf = S->P.normal[f];
  if (!(dist > 0)) return dist;
  double cmax = 1;
  for (int k = 0; k < S->ncaps; ++k) {
    const cap *c = &S->caps[k];
    int inside = 1;
    for (int j = 0; j < 3 && inside; ++j) {
      const double *w = S->P.v[S->P.face[f][j]];
      inside = sovc_dot(w, c->n) > c->cos * sqrt(sovc_dot(w, w));
    }
    if (inside) return INFINITY;
    const double ca = sovc_dot(nf, c->n);
    if (ca > c->cos) {
      const double cos_turn = c->cos * ca + c->sin * sqrt(1 - ca * ca); /* cos(theta - alpha) */
      if (cos_turn < cmax) cmax = cos_turn;
    }
  }
  return dist / cmax;
}

/* Alive face with the lowest bound (*bound); -1 if none is below INFINITY. */
static int lowest_face(const search *S, double *bound) {
  int best = -1;
  *bound = INFINITY;
  for (int f = 0; f < S->P.nf; ++f) {
    if (!S->P.alive[f] || !(S->P.dist[f] < *bound)) continue;
    const double b = face_bound(S, f);
    if (b < *bound) *bound = b, best = f;
  }
  return best;
}

/* Proves a cap around polished overlap answer r unless r's normal lies in
 * one already. */
static void prove_cap(search *S, const sovc_result *r) {
  if (!(r->d < 0) || S->ncaps == kMaxCaps) return;
  for (int k = 0; k < S->ncaps; ++k)
    if (sovc_dot(r->n, S->caps[k].n) > S->caps[k].cos) return;
  cap *c = &S->caps[S->ncaps];
  if (!sovc_proved_cap(&c->cos, r, S->pair, sovc_value_tolerance(r))) return;
  memcpy(c->n, r->n, sizeof c->n);
  c->sin = sqrt(1 - c->cos * c->cos);
  ++S->ncaps;
  /* The objective is the same at -v as at v: the antipodal cap is proved. */
  if (S->mirror && S->ncaps < kMaxCaps) {
    cap *m = &S->caps[S->ncaps++];
    *m = *c;
    for (int i = 0; i < 3; ++i) m->n[i] = -c->n[i];
  }
}

/* Add w = pA - pB to the polytope, recording pA; returns the add status.
 * A mirrored search also adds -w, D's support point along -v (recording
 * pB, A's point of it). */
static int expand(search *S, const double pA[3], const double pB[3]) {
  const double w[3] = {pA[0] - pB[0], pA[1] - pB[1], pA[2] - pB[2]};
  const int st = sovc_polytope_add(&S->P, w, pA, 1e-14 * S->size);
  if (st == 1 && S->mirror) {
    const double mw[3] = {-w[0], -w[1], -w[2]};
    sovc_polytope_add(&S->P, mw, pB, 1e-14 * S->size);
  }
  return st;
}

/* Polish from direction v. On success remember v (nearby faces lie in the
 * optimum's basin: they are refined, not polished again) and prove a cap
 * around the optimum; on failure remember v so nearby faces are refined
 * instead of re-polished. */
static int polish(search *S, const double v[3], const double pA[3], const double pB[3], double lb) {
  sovc_result r = {0};
  int got = 0;
  const int st = S->cfg->polish(S->cfg->ctx, &r, &got, v, pA, pB, lb);
  if (st != SOV_OK) {
    S->best->iterations += r.iterations;
    add_cap(S->failed, &S->nfailed, v);
    if (S->mirror) {
      const double mv[3] = {-v[0], -v[1], -v[2]};
      add_cap(S->failed, &S->nfailed, mv);
    }
    return st;
  }
  const double before = *S->have ? S->best->d : -INFINITY;
  sovc_keep_best(S->best, S->have, &r);
  /* A new best overlap answer may be proved global at once by inner balls. */
  if (S->best->d > before && S->best->d < 0 &&
      sovc_inner_balls_certify(S->best, S->pair, sovc_value_tolerance(S->best)))
    S->proved = 1;
  add_paths(S, v, r.n);
  prove_cap(S, &r);
  return SOV_OK;
}

/* Keeps r (witnesses balanced) as the best answer when both witnesses lie on
 * their surfaces within the search's bound and the body's dent allowance. */
static int keep_on_surfaces(const search *S, sovc_result *r) {
  if (!sovc_balanced_on_surfaces(r, S->pair, kBound * S->size)) return 0;
  sovc_keep_best(S->best, S->have, r);
  return 1;
}

/* The best evaluated direction as an answer where polishing failed: d is
 * the objective there, the witnesses its exact support points, slid to make
 * pB - pA = d n. Kept only if the slid witness stays on its surface within
 * the bound tolerance or the body's dent (a sharp straight edge, or the
 * hull's bridge across a dent); returns 1 if kept. */
static int keep_evaluated(search *S) {
  sovc_result r = *S->best;
  r.d = S->ub_lb;
  memcpy(r.n, S->ub_v, sizeof r.n);
  memcpy(r.pA, S->ub_pA, sizeof r.pA);
  memcpy(r.pB, S->ub_pB, sizeof r.pB);
  r.residual = 0;
  r.iterations = 0;
  r.method = SOVC_METHOD_AUTO;
  return keep_on_surfaces(S, &r);
}

/* Points hA of A and hB of B (on the hulls, hB - hA along unit n) moved
 * along n onto the surfaces become r's witnesses, d their offset along n. */
static void surface_witnesses(const search *S, sovc_result *r, const double hA[3],
                              const double hB[3], const double n[3]) {
  double mn[3];
  for (int i = 0; i < 3; ++i) r->n[i] = n[i], mn[i] = -n[i];
  sovc_exit_point(r->pA, S->pair->A, S->pair->XA, hA, r->n, INFINITY);
  sovc_exit_point(r->pB, S->pair->B, S->pair->XB, hB, mn, INFINITY);
  r->d = 0;
  for (int i = 0; i < 3; ++i) r->d += (r->pB[i] - r->pA[i]) * r->n[i];
}

/* The point sum lam_k (a_k - b_k) of face f's vertices gives points
 * sum lam_k a_k of A and sum lam_k b_k of B (on the hulls). */
static void hull_points(const search *S, double hA[3], double hB[3], int f, const double lam[3]) {
  double a[3], b[3];
  for (int i = 0; i < 3; ++i) hA[i] = hB[i] = 0;
  for (int k = 0; k < 3; ++k) {
    vertex_points(a, b, &S->P, S->P.face[f][k]);
    for (int i = 0; i < 3; ++i) hA[i] += lam[k] * a[i], hB[i] += lam[k] * b[i];
  }
}

/* The surface normals at r's witnesses and face f's normal (f >= 0) lie near the
 * optimal direction even where r's n, off by rounding, evaluates poorly
 * (the objective is nearly kinked across flat faces): evaluated, they may
 * raise lb. A value above r's d is dropped: for separated bodies d bounds
 * every true value from above, so it is a support search that stopped
 * short on these faces, not a bound; for overlapping ones the closed bound
 * keeps every true value within the bound of lb anyway. */
static void raise_bound_near(search *S, const sovc_result *r, int f) {
  double keep_v[3], keep_pA[3], keep_pB[3];
  const double keep_lb = S->ub_lb;
  memcpy(keep_v, S->ub_v, sizeof keep_v);
  memcpy(keep_pA, S->ub_pA, sizeof keep_pA);
  memcpy(keep_pB, S->ub_pB, sizeof keep_pB);
  sovc_implicit_eval eA, eB;
  double q[3], pa[3], pb[3];
  sovc_posed_implicit(&eA, S->pair->A, S->pair->XA, r->pA, 1, SOVC_NO_HESSIAN);
  sovc_posed_implicit(&eB, S->pair->B, S->pair->XB, r->pB, 1, SOVC_NO_HESSIAN);
  if (eA.gnorm > 0) evaluate(S, pa, pb, eA.n, r->pA, r->pB);
  if (eB.gnorm > 0) {
    for (int i = 0; i < 3; ++i) q[i] = -eB.n[i];
    evaluate(S, pa, pb, q, r->pA, r->pB);
  }
  if (f >= 0) evaluate(S, pa, pb, S->P.normal[f], r->pA, r->pB);
  if (S->ub_lb > r->d) {
    S->ub_lb = keep_lb;
    memcpy(S->ub_v, keep_v, sizeof S->ub_v);
    memcpy(S->ub_pA, keep_pA, sizeof S->ub_pA);
    memcpy(S->ub_pB, keep_pB, sizeof S->ub_pB);
  }
}

/* Bodies whose bound closed (the polytope's face f within the bound
 * tolerance of lb) but whose best direction's support points are far apart
 * along nearly flat faces, where they slide off the surface, or lie at the
 * two ends of a dent's bridge, where no surface point between them is a
 * witness. Points hA of A and hB of B on the hulls, on the line along unit
 * n through the origin, moved along n onto the surfaces stay a pair of
 * body points with pB - pA along n. Separated bodies take the polytope's
 * closest point and n towards the origin, or GJK's (d along n then lies
 * between the true distance, >= lb, and that point's distance);
 * overlapping ones the point where the ray along the best direction leaves
 * the polytope. The surface normals at the witnesses and face f's normal
 * (f >= 0) are evaluated too: on a sliver face across a flat region they
 * are far closer to the optimum than n. Kept if the witnesses lie on their
 * surfaces (within the bound tolerance or the body's dent) and d is within
 * bound of lb; returns 1 if kept. */
static int keep_points(search *S, const double hA[3], const double hB[3], const double n[3], int f,
                       double bound) {
  sovc_result r = *S->best;
  surface_witnesses(S, &r, hA, hB, n);
  raise_bound_near(S, &r, f);
  r.residual = 0;
  r.iterations = 0;
  r.method = SOVC_METHOD_AUTO;
  if (!(fabs(r.d - S->ub_lb) <= bound)) return 0;
  /* n is off by the witnesses' rounding over d, far off at small gaps, and
   * the objective at n can lie well below d there (a long flat side turns
   * its support point fast). The best evaluated direction attains lb,
   * within bound of d: aimed at it, the witnesses slide by about d times
   * the angle between the two. Kept if they stay on their surfaces. */
  sovc_result aimed = r;
  aimed.d = S->ub_lb;
  memcpy(aimed.n, S->ub_v, sizeof aimed.n);
  if (keep_on_surfaces(S, &aimed)) return 1;
  /* n itself only where it attains d, within the value tolerance the local
   * answers' support points are held to: elsewhere its witnesses, on the
   * surfaces and d apart, are not the support points along n that the
   * SPEC's answer has (c_api_fuzz: 3.5e-5 short on a 25-unit box-like
   * body). */
  double pa[3], pb[3];
  if (!(evaluate(S, pa, pb, r.n, r.pA, r.pB) >= r.d - sovc_value_tolerance(&r))) return 0;
  return keep_on_surfaces(S, &r);
}

/* Where the line q + t n (unit n) leaves the posed body along n, into p:
 * bracketed first by points of the line at distances from q growing
 * fourfold from 1e-12 of size (above q if q is inside, else below), so
 * that the exit's search starts within the last step; 0 if none is inside
 * (the line misses the body or only grazes it). */
static int line_top(double p[3], const sovc_shape *B, const sovc_pose *X, const double q[3],
                    const double n[3], double size) {
  const int q_inside = sovc_posed_inside(B, X, q);
  const double sign = q_inside ? 1 : -1;
  double y[3], near = 0;
  for (double t = 1e-12 * size; t < 4 * size; near = t, t *= 4) {
    for (int i = 0; i < 3; ++i) y[i] = q[i] + sign * t * n[i];
    if (sovc_posed_inside(B, X, y) == q_inside) continue;
    /* The exit lies between the points at near and t. */
    if (q_inside)
      for (int i = 0; i < 3; ++i) y[i] = q[i] + near * n[i];
    sovc_exit_point(p, B, X, y, n, t - near);
    return 1;
  }
  return 0;
}

/* The offset n . (pB - pA) of the points where the line through q along
 * unit n leaves A along n and B along -n; INFINITY if it misses either. */
static double line_offset(const search *S, double pA[3], double pB[3], const double q[3],
                          const double n[3]) {
  const double mn[3] = {-n[0], -n[1], -n[2]};
  if (!line_top(pA, S->pair->A, S->pair->XA, q, n, S->size) ||
      !line_top(pB, S->pair->B, S->pair->XB, q, mn, S->size))
    return INFINITY;
  return sovc_dot(n, pB) - sovc_dot(n, pA);
}

/* Lines along n through q + s e, searched over s (line_cb) for the least
 * offset, with that line's points. */
typedef struct line_search {
  const search *S;
  const double *n;
  double q[3], e[3];
  double best_s, best_d, pA[3], pB[3];
} line_search;

/* Minus the offset of the line at s, for sovc_golden_max; remembers the
 * least offset, its s and its points. */
static double line_cb(const void *ctx, double s) {
  line_search *L = (line_search *)ctx; /* const for golden.h; the record is ours */
  double q[3], pA[3], pB[3];
  for (int i = 0; i < 3; ++i) q[i] = L->q[i] + s * L->e[i];
  const double d = line_offset(L->S, pA, pB, q, L->n);
  if (d < L->best_d) {
    L->best_d = d, L->best_s = s;
    memcpy(L->pA, pA, sizeof pA);
    memcpy(L->pB, pB, sizeof pB);
  }
  return -d;
}

/* The tangent direction (normal to unit n) in which the posed body's
 * surface at p curves least: along a straight edge or across a flat face. */
static void flat_direction(double e[3], const sovc_shape *B, const sovc_pose *X, const double p[3],
                           const double n[3]) {
  sovc_implicit_eval ev;
  sovc_posed_implicit(&ev, B, X, p, 1, SOVC_WORLD_HESSIAN);
  sovc_frame fr;
  sovc_frame_make(&fr, n);
  double Ht[3], Hb[3];
  sovc_rotate(Ht, ev.H, fr.t);
  sovc_rotate(Hb, ev.H, fr.b);
  const double m00 = sovc_dot(fr.t, Ht), m01 = sovc_dot(fr.t, Hb), m11 = sovc_dot(fr.b, Hb);
  /* The eigenvector (m01, lmin - m00) of the smaller eigenvalue. */
  const double half = 0.5 * (m11 - m00);
  double c0 = m01, c1 = half - sqrt(half * half + m01 * m01);
  if (!(fabs(c0) + fabs(c1) > 0)) c0 = m00 <= m11, c1 = m00 > m11;
  const double len = hypot(c0, c1);
  for (int i = 0; i < 3; ++i) e[i] = (c0 * fr.t[i] + c1 * fr.b[i]) / len;
  if (!sovc_all_finite(e, 3)) memcpy(e, fr.t, 3 * sizeof(double)); /* no usable Hessian */
}

/* Golden-section steps of each line search, and its half-width relative
 * to the bodies' size. */
enum { kLineSteps = 40 };
static const double kLineSpan = 1e-2;

/* Where the line along unit n through a + alpha eA meets b + beta eB
 * (a, b: the support points; eA, eB: their flat directions), into q;
 * where the directions are nearly parallel, the point of a's line level
 * with the midpoint of a and b. */
static void ridge_crossing(double q[3], const double n[3], const double a[3], const double b[3],
                           const double eA[3], const double eB[3]) {
  double delta[3], c[3], dB[3];
  for (int i = 0; i < 3; ++i) delta[i] = b[i] - a[i];
  sovc_cross(c, eA, eB);
  sovc_cross(dB, delta, eB);
  const double det = sovc_dot(c, n);
  const double alpha = fabs(det) > 1e-3 ? sovc_dot(dB, n) / det : 0.5 * sovc_dot(delta, eA);
  for (int i = 0; i < 3; ++i) q[i] = a[i] + alpha * eA[i];
}

/* Witnesses across box-like features: the best direction's support points
 * can lie far apart on faces or straight edges flat to within the bound,
 * or at the two ends of a dent's bridge, where neither the evaluated points
 * nor the polytope's hull points form a pair (keep_points). A line along n
 * that crosses both bodies leaves A (along n) and B (along -n) at surface
 * points whose offset along n is at least lb (A's lies at most at h_A(n),
 * B's at least at -h_B(-n)). The offset is convex in the line's place (A's
 * upper surface is concave, B's lower convex) and within the bound of lb on
 * a line through both flat parts, near where A's flattest direction from
 * its support point crosses B's: lines there are searched along each.
 * closed: the overlap search's bound has closed (d is lb within it), and
 * the offset's excess over lb may go into the witness of the body with the
 * larger dent allowance, within which it must stay; else the two points,
 * |offset| apart, must close the bracket themselves (d is at most their
 * distance, or 0 for overlapping bodies). Returns 1 if kept. */
static int keep_line_witnesses(search *S, int closed) {
  const double *n = S->ub_v, mn[3] = {-n[0], -n[1], -n[2]};
  double eA[3], eB[3];
  flat_direction(eA, S->pair->A, S->pair->XA, S->ub_pA, n);
  flat_direction(eB, S->pair->B, S->pair->XB, S->ub_pB, mn);
  line_search L = {.S = S, .n = n, .best_d = INFINITY};
  ridge_crossing(L.q, n, S->ub_pA, S->ub_pB, eA, eB);
  const double w = kLineSpan * S->size;
  /* The first pass starts from the crossing's line, the second from the
   * first's best, already evaluated. */
  line_cb(&L, 0);
  for (int pass = 0; pass < 2; ++pass) {
    memcpy(L.e, pass ? eB : eA, sizeof L.e);
    L.best_s = 0;
    sovc_golden_max(line_cb, &L, -w, w, kLineSteps);
    for (int i = 0; i < 3; ++i) L.q[i] += L.best_s * L.e[i];
  }
  sovc_result r = *S->best;
  memcpy(r.pA, L.pA, sizeof r.pA);
  memcpy(r.pB, L.pB, sizeof r.pB);
  const double offset = L.best_d, bound = kBound * S->size;
  /* An offset below lb: a support search stopped short, lb is not sound. */
  if (!isfinite(offset) || offset < S->ub_lb - bound) return 0;
  if (!closed && !(fabs(offset) - S->ub_lb <= bound)) return 0;
  r.d = S->ub_lb;
  const int move_A = S->pair->A->dent * S->pair->A->radius >= S->pair->B->dent * S->pair->B->radius;
  for (int i = 0; i < 3; ++i) {
    if (move_A)
      r.pA[i] = r.pB[i] - r.d * n[i];
    else
      r.pB[i] = r.pA[i] + r.d * n[i];
  }
  memcpy(r.n, n, sizeof r.n);
  r.residual = 0;
  r.iterations = 0;
  r.method = SOVC_METHOD_AUTO;
  return keep_on_surfaces(S, &r);
}

/* keep_points at the point of face f with weights lam. */
static int keep_hull_point(search *S, int f, const double lam[3], const double n[3], double bound) {
  double hA[3], hB[3];
  hull_points(S, hA, hB, f, lam);
  return keep_points(S, hA, hB, n, f, bound);
}

/* The polytope's point x nearest the origin, on the faces whose planes
 * leave the origin outside: returns |x| (INFINITY if there is none), its
 * face in *f (-1 if none), its weights in lam and the unit direction -x / |x|
 * in u. As x lies in D, d <= |x|. */
static double nearest_face(const search *S, int *f, double lam[3], double u[3]) {
  double x[3] = {0, 0, 0}, xf[3], lf[3], nx = INFINITY;
  *f = -1;
  for (int g = 0; g < S->P.nf; ++g) {
    if (!S->P.alive[g] || !(S->P.dist[g] < 0)) continue;
    sovc_polytope_closest(xf, lf, &S->P, g);
    const double ng = sqrt(xf[0] * xf[0] + xf[1] * xf[1] + xf[2] * xf[2]);
    if (ng < nx) nx = ng, *f = g, memcpy(x, xf, sizeof x), memcpy(lam, lf, sizeof lf);
  }
  for (int i = 0; i < 3; ++i) u[i] = -x[i] / nx;
  return nx;
}

/* The polytope of points w (A's points pa): returns 1 if solid (see
 * sovc_polytope_init). The rounds after it add one vertex each (two
 * mirrored), up to what the polytope holds. */
static int init_polytope(search *S, double (*w)[3], double (*pa)[3], int n) {
  S->budget = (kMaxVerts - n) / (S->mirror ? 2 : 1);
  return sovc_polytope_init(&S->P, (const double(*)[3])w, (const double(*)[3])pa, n, 1e-13);
}

/* Initial polytope from the samples; returns 1 if the hull is solid. Its
 * vertices need only be points of D = A - B for the face bound to hold, so
 * they come from the cheap near-support surface points (exact for untapered
 * bodies); exact supports, which also track the best value, are spent only
 * on the faces the search expands. */
static int start(search *S) {
  double w[kSamples + 2][3], pa[kSamples + 2][3], pb[3], v[3];
  for (int k = 0; k < kSamples; ++k) {
    sample(v, k);
    sovc_support_seeds(pa[k], pb, S->pair, v);
    for (int i = 0; i < 3; ++i) w[k][i] = pa[k][i] - pb[i];
  }
  if (init_polytope(S, w, pa, kSamples)) return 1;
  /* Flat: every sample's support lies on the rim of a thin pinched plate
   * (a plate's pole is the support only within a narrow cone about its
   * normal). The exact supports along the samples' plane normal add its
   * thickness. */
  double n[3];
  if (!sovc_polytope_plane(n, (const double(*)[3])w, kSamples)) return 0;
  for (int k = kSamples; k < kSamples + 2; ++k) {
    evaluate(S, pa[k], pb, n, NULL, NULL);
    for (int i = 0; i < 3; ++i) w[k][i] = pa[k][i] - pb[i], n[i] = -n[i];
  }
  return init_polytope(S, w, pa, kSamples + 2);
}

/* A body of the pair for sovc_support_distance. */
typedef struct posed_body {
  const sovc_shape *shape;
  const sovc_pose *pose;
} posed_body;

/* Exact support point x of a posed body along world direction dir. */
static void posed_body_support(const void *body, const double dir[3], double x[3]) {
  const posed_body *b = body;
  const double n = sqrt(sovc_dot(dir, dir));
  const double v[3] = {dir[0] / n, dir[1] / n, dir[2] / n};
  sovc_support_eval e = {.z = NAN};
  sovc_posed_support(&e, b->shape, b->pose, v);
  memcpy(x, e.p, sizeof e.p);
}

/* Where the polytope stops growing short of the bound between nearly flat
 * faces (box-like bodies), rounding has split the faces that see a new
 * support point, and the patch replaced is not the one under the nearest
 * point, which then stays (a fitted palm's sliver 0.26 mm from a
 * fingertip: the bracket stalled at 1.6e-11 of the size). GJK on the exact
 * supports keeps only a simplex and gets closer: its points (on the hulls,
 * pB - pA = d n) are kept as keep_points keeps the polytope's, its normal
 * evaluated first. Its own bound is not enough at small gaps, where n is
 * off by rounding over d; the surface normals at its witnesses, evaluated
 * there, close it between flat faces. Returns 1 if kept. */
static int gjk_finish(search *S, double bound) {
  const posed_body a = {S->pair->A, S->pair->XA}, b = {S->pair->B, S->pair->XB};
  const sovc_support_body A = {posed_body_support, &a}, B = {posed_body_support, &b};
  sovc_support_gjk g;
  if (sovc_support_distance(&g, &A, &B, S->ub_v, kBound * S->size) != SOV_OK || g.overlapping)
    return 0;
  /* Its normal's objective, GJK's own lower bound, joins the search's. */
  double pa[3], pb[3];
  evaluate(S, pa, pb, g.n, NULL, NULL);
  return keep_points(S, g.pA, g.pB, g.n, -1, bound);
}

/* Separated bodies the local solvers could not settle, or touching ones
 * whose overlap search closed with the origin outside the polytope: move the polytope's
 * point x nearest the origin towards it (GJK-like: |x| bounds d from above,
 * the best -h_D(v) from below), polishing tight directions, until a polish
 * certifies d >= 0 or the bound closes. */
static int separated(search *S) {
  double pA[3], pB[3], u[3], lam[3] = {0, 0, 0};
  int fx = -1;
  if (polish(S, S->ub_v, S->ub_pA, S->ub_pB, S->ub_lb) == SOV_OK && S->best->d >= 0) return SOV_OK;
  for (int it = 0; it < S->budget; ++it) {
    const double nx = nearest_face(S, &fx, lam, u);
    if (!(nx > 0) || !isfinite(nx)) return SOV_ERR_NO_CONVERGENCE;
    if (nx - S->ub_lb <= kBound * S->size) {
      const double bound = kBound * S->size;
      const int kept =
          keep_evaluated(S) || keep_hull_point(S, fx, lam, u, bound) || gjk_finish(S, bound);
      return kept ? SOV_OK : SOV_ERR_NO_CONVERGENCE;
    }
    const double lb = evaluate(S, pA, pB, u, NULL, NULL);
    if (nx - lb <= kTight * S->size && !in_caps(S->failed[0], S->nfailed, u, kFailedCap) &&
        polish(S, u, pA, pB, lb) == SOV_OK && S->best->d >= 0)
      return SOV_OK;
    if (expand(S, pA, pB) == 1) continue;
    /* On a sliver face across a flat region the closest point's direction
     * is off by up to 1e-7 (rounding over the sliver) and its support point
     * may add nothing, where the face's normal still grows the polytope. */
    evaluate(S, pA, pB, S->P.normal[fx], pA, pB);
    if (expand(S, pA, pB) != 1) break;
  }
  /* The polytope stopped growing short of the relative bound: on nearly
   * flat faces each support point lies far along the face from the closest
   * point and moves it by about gap^2 / (its distance), below rounding. The
   * bracket [lb, d of the closest point's witnesses] still holds; within
   * the caller's tolerance it is an answer. */
  if (fx >= 0 && keep_hull_point(S, fx, lam, u, S->cfg->tolerance)) return SOV_OK;
  return gjk_finish(S, kBound * S->size) ? SOV_OK : SOV_ERR_NO_CONVERGENCE;
}

/* End of the overlap search: every face bound lies above the best
 * value. If an evaluated direction beats every polished answer, polish from
 * it (unless that failed nearby before); its own value is the answer only
 * if its witnesses, or the hull points where the ray along it leaves the
 * polytope, are sound. */
static int finish_overlap(search *S) {
  const double tol = kBound * S->size;
  if (*S->have && S->ub_lb <= S->best->d + tol) return SOV_OK;
  if (!in_caps(S->failed[0], S->nfailed, S->ub_v, kFailedCap)) {
    double ub_v[3], pA[3], pB[3];
    memcpy(ub_v, S->ub_v, sizeof ub_v);
    memcpy(pA, S->ub_pA, sizeof pA);
    memcpy(pB, S->ub_pB, sizeof pB);
    polish(S, ub_v, pA, pB, S->ub_lb);
    if (S->proved || (*S->have && S->ub_lb <= S->best->d + tol)) return SOV_OK;
  }
  if (keep_evaluated(S)) return SOV_OK;
  double lam[3], ub_v[3];
  memcpy(ub_v, S->ub_v, sizeof ub_v);
  const int f = sovc_polytope_ray_face(lam, &S->P, ub_v);
  if (f >= 0)
    return keep_hull_point(S, f, lam, ub_v, tol) || keep_line_witnesses(S, 1)
               ? SOV_OK
               : SOV_ERR_NO_CONVERGENCE;
  /* No ray leaves it: the origin lies just outside the polytope (touching
   * bodies, d within the bound tolerance of 0), where the faces in front of
   * it bound nothing. The separated search brackets d between lb and the
   * distance of the polytope's point nearest the origin; where it stalls,
   * two surface points on a line across flat features may close it. */
  return separated(S) == SOV_OK || keep_line_witnesses(S, 0) ? SOV_OK : SOV_ERR_NO_CONVERGENCE;
}

/* Largest d known: the best polished answer or the best evaluated value. */
static double current(const search *S, const sovc_result *best, int have) {
  return have ? fmax(best->d, S->ub_lb) : S->ub_lb;
}

/* 1 if the origin lies inside the polytope past rounding of its points
 * (kBound of the size from every face): its vertices are points of D, so
 * the origin lies in D and the bodies overlap. */
static int origin_inside(const search *S) {
  for (int f = 0; f < S->P.nf; ++f)
    if (S->P.alive[f] && !(S->P.dist[f] > kBound * S->size)) return 0;
  return 1;
}

/* A collide's proved verdict into cfg->verdict (1 overlapping, 0 apart). */
static int say(const search *S, int overlapping) {
  *S->cfg->verdict = overlapping;
  return SOVC_DECIDED;
}

/* Overlap: expand the face of lowest bound until every bound lies above
 * the best answer; polish tight faces. */
static int overlap(search *S) {
  double pA[3], pB[3], n[3];
  for (int it = 0; it < S->budget; ++it) {
    /* A collide stops at its first proof. */
    if (S->cfg->verdict && origin_inside(S)) return say(S, 1);
    double bound;
    const int f = lowest_face(S, &bound);
    const double cur = current(S, S->best, *S->have);
    /* Every direction has h_D >= this bound or lies in a proved cap. */
    if (f < 0 || bound >= -cur - kBound * S->size) return finish_overlap(S);
    memcpy(n, S->P.normal[f], sizeof n);
    const double dist = S->P.dist[f];
    double hA[3], hB[3];
    vertex_points(hA, hB, &S->P, S->P.face[f][0]);
    /* Where even a near-support point lies well above the threshold, the
     * face is neither tight nor better than the best (h_D(n) exceeds its
     * value): it only needs refining, and that point refines it. */
    if (evaluate_near(S, pA, pB, n, hA, hB) >= -cur + kTight * S->size) {
      if (expand(S, pA, pB) != 1) break;
      continue;
    }
    const double lb = evaluate(S, pA, pB, n, pA, pB);
    /* d >= lb > 0: a collide's proof of apart. */
    if (lb > 0) return S->cfg->verdict ? say(S, 0) : separated(S);
    if (-lb - dist <= kTight * S->size && !in_caps(S->failed[0], S->nfailed, n, kFailedCap) &&
        !near_paths(S->started, S->nstarted, n, kStartedCap)) {
      polish(S, n, pA, pB, lb);
      /* A non-negative answer is the SPEC's by its sign. */
      if (S->proved || (*S->have && S->best->d >= 0)) return SOV_OK;
      /* The support point refines the face too: once the started list is
       * full, a tight face left as it was would be polished again every
       * round (a needle around a small body, whose optima form a ring). */
      if (expand(S, pA, pB) < 0) break;
      continue;
    }
    /* An exact support point no face sees (within rounding) proves the
     * face's plane tight: lb, just evaluated, closes its bound, and the
     * next round goes on with the others or ends. */
    if (expand(S, pA, pB) < 0) break;
  }
  return SOV_ERR_NO_CONVERGENCE;
}

/* Global search (see global.h). */
size_t sovc_search_work_size(void) {
  const size_t coaxial = sovc_coaxial_work_size();
  return sizeof(search) > coaxial ? sizeof(search) : coaxial;
}

/* The search in work memory (see sovc_global_search). */
static int search_in(void *work, sovc_result *best, int *have, const sovc_pair *P,
                     const sovc_search_config *cfg) {
  /* A ring of optima (coaxial bodies of revolution) defeats the polytope's
   * bound; one meridian settles them. */
  double axis[3];
  if (sovc_coaxial_axis(axis, P) && sovc_coaxial_search(best, have, P, axis, work) == SOV_OK)
    return SOV_OK;
  search *S = work;
  S->pair = P;
  S->cfg = cfg;
  S->best = best;
  S->have = have;
  S->ncaps = S->nstarted = S->nfailed = 0;
  S->proved = 0;
  S->mirror = !memcmp(P->A, P->B, sizeof *P->A) && !memcmp(P->XA, P->XB, sizeof *P->XA);
  SOVC_POLYTOPE_ATTACH(&S->P, &S->polytope_storage);
  S->size = P->A->radius + P->B->radius;
  S->ub_lb = -INFINITY;
  if (*have) {
    add_paths(S, best->n, best->n);
    prove_cap(S, best);
  }
  if (!start(S)) return SOV_ERR_NO_CONVERGENCE;
  return overlap(S);
}

/* The search with its work memory on this frame, for callers that gave
 * none: a frame of its own, so that queries that never search do not
 * reserve it. */
static int search_on_stack(sovc_result *best, int *have, const sovc_pair *P,
                           const sovc_search_config *cfg) {
  union {
    search S;
    unsigned char coaxial[SOVC_COAXIAL_WORK_BYTES];
  } work;
  return search_in(&work, best, have, P, cfg);
}

/* See global.h. */
int sovc_global_search(sovc_result *best, int *have, const sovc_pair *P,
                       const sovc_search_config *cfg) {
  if (cfg->work) return search_in(cfg->work, best, have, P, cfg);
  return search_on_stack(best, have, P, cfg);
}
