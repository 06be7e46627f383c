/* Default method. Any common-normal pair (nB = -nA, pB - pA = d nA) gives a
 * lower bound d <= d_true, because pA and pB are support points of convex
 * bodies; a non-negative one is also an upper bound (then the bodies do
 * not overlap and |pB - pA| = d bounds their distance), so it is the
 * answer. An overlap answer is the answer when balls inside both bodies,
 * tangent at its witnesses, prove it (inner_ball.c). Otherwise (deeper
 * overlaps, no local convergence) the global polytope search decides. */
#include "solver/auto_method.h"

#include <math.h>
#include <string.h>

#include "solver/global.h"
#include "solver/inner_ball.h"
#include "solver/local.h"
#include "solver/pair.h"
#include "solver/pose.h"
#include "solver/result.h"

/* First stage: warm or core-segment start, one local solve; returns its
 * status. */
static int first_stage(sovc_result *res, int *have, const sovc_pair *P,
                       const sovc_newton_config *cfg, const sovc_cache *cache, const double core[3],
                       int overlap_to_search, sovc_warm *warm) {
  /* No descent bound on the first solve: a non-negative answer is certified
   * by its sign, anything else goes to the global search. */
  sovc_local_start at = {.lb = -INFINITY};
  res->iterations = 0;
  if (cache && cache->valid) {
    sovc_cache_answer(cache, P, at.pA, at.pB, at.v);
  } else {
    if (core)
      memcpy(at.v, core, sizeof at.v);
    else
      sovc_core_direction(at.v, P);
    sovc_support_seeds(at.pA, at.pB, P, at.v);
  }
  return sovc_solve_local(res, have, P, &at, cfg, overlap_to_search, warm);
}

/* Local stage only (see auto_method.h). */
int sovc_solve_auto_local(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                          const sovc_cache *cache, const double core[3], int overlap_to_search,
                          const sovc_verdict *verdict, sovc_warm *warm) {
  sovc_newton_config cfg = sovc_chart_config(opt);
  cfg.verdict = verdict;
  int have = 0;
  if (first_stage(res, &have, P, &cfg, cache, core, overlap_to_search, warm) == SOVC_DECIDED)
    return SOVC_DECIDED;
  res->method = SOVC_METHOD_AUTO;
  return have ? SOV_OK : SOV_ERR_NO_CONVERGENCE;
}

/* Radius of a shape that is a sphere (equal semi-axes, eps 1, no taper),
 * else 0. */
static double sphere_radius(const sovc_shape *S) {
  const int sphere = S->a[0] == S->a[1] && S->a[1] == S->a[2] && S->eps1 == 1 && S->eps2 == 1 &&
                     S->taper[0] == 0 && S->taper[1] == 0;
  return sphere ? S->a[0] : 0.0;
}

/* Two spheres in closed form; concentric ones (every direction optimal) get
 * n = +z. */
static void sphere_pair(sovc_result *res, double rA, double rB, const sovc_pose *XA,
                        const sovc_pose *XB) {
  double c[3] = {XB->p[0] - XA->p[0], XB->p[1] - XA->p[1], XB->p[2] - XA->p[2]};
  /* |c| scaled by its largest entry: centres 1e300 apart must not overflow. */
  const double m = fmax(fabs(c[0]), fmax(fabs(c[1]), fabs(c[2])));
  const double dc = m > 0 ? m * sqrt((c[0] / m) * (c[0] / m) + (c[1] / m) * (c[1] / m) +
                                     (c[2] / m) * (c[2] / m))
                          : 0.0;
  for (int i = 0; i < 3; ++i) {
    res->n[i] = dc > 0 ? c[i] / dc : (i == 2);
    res->pA[i] = XA->p[i] + rA * res->n[i];
    res->pB[i] = XB->p[i] - rB * res->n[i];
  }
  res->d = dc - rA - rB;
  res->iterations = 0;
  res->residual = 0;
}

/* 1 if inner balls prove overlap answer r: the cache's kept balls if they
 * do (no Hessian bound needed), else balls fitted at its witnesses, kept
 * for the next warm query when they prove it. */
static int overlap_proved(const sovc_result *r, const sovc_pair *P, sovc_warm *warm) {
  const double tol = sovc_value_tolerance(r);
  if (!warm) return sovc_inner_balls_certify(r, P, tol);
  if (warm->have_proved && !memcmp(warm->proved_pA, r->pA, sizeof warm->proved_pA) &&
      !memcmp(warm->proved_pB, r->pB, sizeof warm->proved_pB)) {
    memcpy(warm->kept, warm->balls, sizeof warm->kept);
    warm->have_kept = 1;
    return 1;
  }
  return sovc_inner_balls_certify_keep(warm->kept, &warm->have_kept, r, P, tol, warm->balls);
}

/* After the first stage (see auto_method.h). */
int sovc_solve_auto_finish(sovc_result *res, int have, const sovc_pair *P, const sovc_options *opt,
                           sovc_warm *warm, int *verdict) {
  const sovc_newton_config cfg = sovc_chart_config(opt);
  int st = SOV_OK;
  /* A non-negative answer is final; an overlap answer is final when inner
   * balls at its witnesses prove it (most overlaps of moderate depth). */
  const int final = have && (res->d >= 0 || overlap_proved(res, P, warm));
  if (!final) {
    sovc_local_polisher polisher;
    sovc_search_config search = sovc_local_search_config(&polisher, P, &cfg, opt->work);
    search.verdict = verdict;
    st = sovc_global_search(res, &have, P, &search);
    if (warm) warm->have_last = 0;
    if (st == SOVC_DECIDED) return st;
  }
  res->method = SOVC_METHOD_AUTO;
  return have && st == SOV_OK ? SOV_OK : SOV_ERR_NO_CONVERGENCE;
}

/* Default method: first stage, certificate, global search. */
int sovc_solve_auto(sovc_result *res, const sovc_pair *P, const sovc_options *opt,
                    const sovc_cache *cache, sovc_warm *warm) {
  const double rA = sphere_radius(P->A), rB = sphere_radius(P->B);
  if (rA > 0 && rB > 0) {
    sphere_pair(res, rA, rB, P->XA, P->XB);
    res->method = SOVC_METHOD_AUTO;
    return SOV_OK;
  }
  const int have = sovc_solve_auto_local(res, P, opt, cache, NULL, 1, NULL, warm) == SOV_OK;
  return sovc_solve_auto_finish(res, have, P, opt, warm, NULL);
}
