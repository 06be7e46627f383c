/* Method dispatch: the default method, and the study's schemes with their
 * initial guesses (quadtree, centre line, or the caller's cache). */
#include "solver/distance.h"

#include <math.h>
#include <stddef.h>

#include "solver/auto_method.h"
#include "solver/global.h"
#include "solver/implicit.h"
#include "solver/inner_ball.h"
#include "solver/local.h"
#include "solver/pair.h"
#include "solver/parametric.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/quadtree.h"
#include "solver/result.h"
#include "solver/shape.h"
#include "solver/support.h"
#include "solver/warm.h"

/* World seed points of the study methods (NULL angles when not needed). */
static int seed_points(double pA[3], double pB[3], double phiA[2], double phiB[2],
                       const sovc_pair *P, const sovc_options *opt, const sovc_cache *cache) {
  double xa[3], xb[3];
  if (opt->seed == SOVC_SEED_QUADTREE) {
    sovc_quadtree_seed(phiA, phiB, P);
    sovc_param_point(xa, NULL, NULL, NULL, NULL, NULL, NULL, P->A, phiA[0], phiA[1]);
    sovc_param_point(xb, NULL, NULL, NULL, NULL, NULL, NULL, P->B, phiB[0], phiB[1]);
  } else if (opt->seed == SOVC_SEED_CENTERS) {
    double c[3] = {P->XB->p[0] - P->XA->p[0], P->XB->p[1] - P->XA->p[1], P->XB->p[2] - P->XA->p[2]};
    double v[3];
    if (!(c[0] * c[0] + c[1] * c[1] + c[2] * c[2] > 0)) c[2] = 1;
    sovc_rotate_t(v, P->XA->R, c);
    sovc_support(xa, P->A, v, NAN);
    for (int i = 0; i < 3; ++i) c[i] = -c[i];
    sovc_rotate_t(v, P->XB->R, c);
    sovc_support(xb, P->B, v, NAN);
  } else if (opt->seed == SOVC_SEED_CACHE) {
    if (!cache || !cache->valid) return SOV_ERR_OPTION;
    for (int i = 0; i < 3; ++i) {
      xa[i] = cache->pA_local[i];
      xb[i] = cache->pB_local[i];
    }
  } else {
    return SOV_ERR_OPTION;
  }
  if (opt->seed != SOVC_SEED_QUADTREE) {
    sovc_param_angles(&phiA[0], &phiA[1], P->A, xa);
    sovc_param_angles(&phiB[0], &phiB[1], P->B, xb);
  }
  sovc_to_world(pA, P->XA, xa);
  sovc_to_world(pB, P->XB, xb);
  return SOV_OK;
}

/* A converged study answer with d <= 0 is one critical point among several:
 * SOV_ERR_SPURIOUS if the global search finds a larger d (d >= 0 answers are
 * certified by their sign, see auto_method.c). */
static int certify(const sovc_result *res, const sovc_pair *P, const sovc_options *opt) {
  if (res->d >= 0) return SOV_OK;
  /* Inner balls prove a converged pair global (its normals agree with the
   * surfaces'); on a body with a dent that matters the pair may not be a
   * support pair, which only the search checks. */
  if (P->A->dent <= SOVC_DENT_NEGLECT && P->B->dent <= SOVC_DENT_NEGLECT &&
      sovc_inner_balls_certify(res, P, sovc_value_tolerance(res)))
    return SOV_OK;
  const sovc_newton_config cfg = sovc_chart_config(opt);
  sovc_result best = *res;
  int have = 1;
  sovc_local_polisher polisher;
  const sovc_search_config search = sovc_local_search_config(&polisher, P, &cfg);
  if (sovc_global_search(&best, &have, P, &search) != SOV_OK) return SOV_ERR_NO_CONVERGENCE;
  const double L = 1 + fabs(res->d);
  return best.d > res->d + 1e-9 * L ? SOV_ERR_SPURIOUS : SOV_OK;
}

/* Study method by name with its seed, optionally certified. */
static int study(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                 const sovc_cache *cache) {
  double pA[3], pB[3], phiA[2], phiB[2];
  int st = seed_points(pA, pB, phiA, phiB, P, opt, cache);
  if (st != SOV_OK) return st;
  if (opt->method == SOVC_METHOD_IMPLICIT) {
    const sovc_newton_config cfg = {0, 0, opt->tolerance, opt->max_iterations, 1};
    st = sovc_solve_implicit(res, P, pA, pB, &cfg);
  } else if (opt->method == SOVC_METHOD_PARAMETRIC) {
    st = sovc_solve_parametric(res, P, phiA, phiB, opt);
  } else {
    st = sovc_solve_ntb(res, P, phiA, phiB, opt);
  }
  if (st == SOV_OK && opt->certify) st = certify(res, P, opt);
  return st;
}

/* A solver's status for its answer: overflow (centres near 1e300 apart) is
 * a failure, never an answer; an answer goes into the cache. */
static int deliver(int st, const sovc_result *res, const sovc_pair *P, sovc_cache *cache,
                   const sovc_warm *warm) {
  if (st == SOV_OK && !(isfinite(res->d) && isfinite(res->pA[0] + res->pA[1] + res->pA[2]) &&
                        isfinite(res->pB[0] + res->pB[1] + res->pB[2])))
    st = SOV_ERR_NO_CONVERGENCE;
  if (st == SOV_OK && cache) sovc_cache_store(cache, res, P, warm);
  return st;
}

/* The default method, tolerance 1e-11, 50 iterations, certified study
 * methods from the quadtree seed. */
void sovc_options_default(sovc_options *opt) {
  opt->method = SOVC_METHOD_AUTO;
  opt->seed = SOVC_SEED_QUADTREE;
  opt->tolerance = 1e-11;
  opt->max_iterations = 50;
  opt->certify = 1;
}

/* Dispatch on options->method. */
int sovc_distance(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                  sovc_cache *cache) {
  if (cache) sovc_cache_admit(cache);
  if (opt->method != SOVC_METHOD_AUTO)
    return deliver(study(res, P, opt, cache), res, P, cache, NULL);
  sovc_warm storage;
  sovc_warm *warm = sovc_warm_init(&storage, cache, P->A, P->B);
  const int st = sovc_solve_auto(res, P, opt, cache, warm);
  return deliver(st, res, P, cache, warm);
}

/* 1 if the plane normal to world direction v (not necessarily unit)
 * separates the bodies: -(h_A(v) + h_B(-v)) > 0, decided by bounds on the
 * supports where they suffice (a clear gap, or a clear overlap along v),
 * by the supports themselves otherwise. */
static int separating(const sovc_pair *P, const double v[3]) {
  double vlA[3], vlB[3], x[3], lowA, lowB, mv[3] = {-v[0], -v[1], -v[2]};
  const double off = v[0] * (P->XB->p[0] - P->XA->p[0]) + v[1] * (P->XB->p[1] - P->XA->p[1]) +
                     v[2] * (P->XB->p[2] - P->XA->p[2]);
  sovc_rotate_t(vlA, P->XA->R, v);
  sovc_rotate_t(vlB, P->XB->R, mv);
  if (off - sovc_support_bound(&lowA, P->A, vlA) - sovc_support_bound(&lowB, P->B, vlB) > 0)
    return 1;
  if (off - lowA - lowB <= 0) return 0;
  return off - sovc_support(x, P->A, vlA, NAN) - sovc_support(x, P->B, vlB, NAN) > 0;
}

/* Overlap proof from a local answer with d <= 0: a point inside both
 * bodies (pA inside B, pB inside A, or their midpoint inside both). */
static int common_point(const sovc_result *r, const sovc_pair *P) {
  const double m[3] = {0.5 * (r->pA[0] + r->pB[0]), 0.5 * (r->pA[1] + r->pB[1]),
                       0.5 * (r->pA[2] + r->pB[2])};
  return sovc_posed_inside(P->B, P->XB, r->pA) || sovc_posed_inside(P->A, P->XA, r->pB) ||
         (sovc_posed_inside(P->A, P->XA, m) && sovc_posed_inside(P->B, P->XB, m));
}

/* Early exits: bounding spheres and separating planes prove "apart", a
 * centre inside the other body or a point of the centre line inside both
 * proves "overlap"; then one local solve: a positive d proves "apart", a
 * common point "overlap"; only what remains goes on to the rest of the
 * distance (the default method continues from its local solve). */
int sovc_collide(int *colliding, const sovc_pair *P, const sovc_options *opt, sovc_cache *cache) {
  double c[3] = {P->XB->p[0] - P->XA->p[0], P->XB->p[1] - P->XA->p[1], P->XB->p[2] - P->XA->p[2]};
  const double cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
  const double rr = P->A->radius + P->B->radius;
  *colliding = 0;
  if (cc > rr * rr) return SOV_OK;
  if (cache) sovc_cache_admit(cache);
  if (cache && cache->valid) {
    double n[3];
    sovc_rotate(n, P->XA->R, cache->nA_local);
    if (separating(P, n)) return SOV_OK;
  }
  double v[3];
  sovc_core_direction(v, P);
  if (cc > 0 && separating(P, v)) return SOV_OK;
  *colliding = 1;
  if (sovc_centre_line_overlap(P)) return SOV_OK;
  sovc_result r;
  int st;
  if (opt->method == SOVC_METHOD_AUTO) {
    /* The centre line proved nothing above: the local stage need not try it again. */
    sovc_warm storage;
    sovc_warm *warm = sovc_warm_init(&storage, cache, P->A, P->B);
    const int have = sovc_solve_auto_local(&r, P, opt, cache, v, 0, warm) == SOV_OK;
    if (have && r.d > 0) return *colliding = 0, SOV_OK;
    if (have && common_point(&r, P)) return SOV_OK;
    /* The rest of the distance, not all of it again. */
    st = deliver(sovc_solve_auto_finish(&r, have, P, opt, warm), &r, P, cache, warm);
  } else {
    st = sovc_distance(&r, P, opt, cache);
  }
  if (st != SOV_OK) return st;
  *colliding = r.d <= 0;
  return SOV_OK;
}
