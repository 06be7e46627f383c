/* The study's schemes and their initial guesses (see study.h). */
#include "solver/study.h"

#include <math.h>
#include <stddef.h>

#include "solver/global.h"
#include "solver/implicit.h"
#include "solver/inner_ball.h"
#include "solver/local.h"
#include "solver/parametric.h"
#include "solver/parametric_solve.h"
#include "solver/pose.h"
#include "solver/quadtree.h"
#include "solver/result.h"
#include "solver/support.h"

/* World seed points of the study methods (NULL angles when not needed). */
static int seed_points(double pA[3], double pB[3], double phiA[2], double phiB[2],
                       const sovc_pair *P, const sovc_options *opt, const sovc_cache *cache) {
  double xa[3], xb[3];
  if (opt->seed == SOVC_SEED_QUADTREE) {
    sovc_quadtree_seed(phiA, phiB, P);
    sovc_param_position(xa, P->A, phiA[0], phiA[1]);
    sovc_param_position(xb, P->B, phiB[0], phiB[1]);
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
      xa[i] = cache->pA_local[i] / P->scale;
      xb[i] = cache->pB_local[i] / P->scale;
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
 * certified by their sign, see auto_method.c). On a body with a dent that
 * matters either can be a common-normal pair of the dented surface, inside
 * the hull the SPEC answers for: SOV_ERR_SPURIOUS unless its witnesses are
 * support points (sovc_hull_gap). The schemes returned such pairs as
 * answers, 1.7e-7 off on a body dented 7.6e-7. */
static int certify(const sovc_result *res, const sovc_pair *P, const sovc_options *opt) {
  if (!(fabs(sovc_hull_gap(res, P)) <= sovc_value_tolerance(res))) return SOV_ERR_SPURIOUS;
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
  const sovc_search_config search = sovc_local_search_config(&polisher, P, &cfg, opt->work);
  if (sovc_global_search(&best, &have, P, &search) != SOV_OK) return SOV_ERR_NO_CONVERGENCE;
  const double L = 1 + fabs(res->d);
  return best.d > res->d + 1e-9 * L ? SOV_ERR_SPURIOUS : SOV_OK;
}

/* Where a scheme starts: world points and the bodies' angles there. */
typedef struct study_seed {
  double pA[3], pB[3], phiA[2], phiB[2];
} study_seed;

/* A study scheme from its seed. */
typedef int (*study_scheme)(sovc_result *res, const sovc_pair *P, const study_seed *s,
                            const sovc_options *opt);

/* Eq. 15 in the points, undamped, with LAPACKE's LU as the study solved it. */
static int implicit_scheme(sovc_result *res, const sovc_pair *P, const study_seed *s,
                           const sovc_options *opt) {
  const sovc_newton_config cfg = {0, 0, opt->tolerance, opt->max_iterations, 1, 0, NULL};
  return sovc_solve_implicit(res, P, s->pA, s->pB, &cfg);
}

/* Eq. 18 in the angles. */
static int parametric_scheme(sovc_result *res, const sovc_pair *P, const study_seed *s,
                             const sovc_options *opt) {
  return sovc_solve_parametric(res, P, s->phiA, s->phiB, opt);
}

/* The ntb equations in the angles. */
static int ntb_scheme(sovc_result *res, const sovc_pair *P, const study_seed *s,
                      const sovc_options *opt) {
  return sovc_solve_ntb(res, P, s->phiA, s->phiB, opt);
}

/* The schemes by method (AUTO is not one). */
static const study_scheme kSchemes[SOVC_METHOD_COUNT] = {
    [SOVC_METHOD_IMPLICIT] = implicit_scheme,
    [SOVC_METHOD_PARAMETRIC] = parametric_scheme,
    [SOVC_METHOD_NTB] = ntb_scheme};

/* See study.h. */
int sovc_solve_study(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                     const sovc_cache *cache) {
  study_seed s;
  int st = seed_points(s.pA, s.pB, s.phiA, s.phiB, P, opt, cache);
  if (st != SOV_OK) return st;
  st = kSchemes[opt->method](res, P, &s, opt);
  if (st == SOV_OK && opt->certify) st = certify(res, P, opt);
  return st;
}
