/* The default method: seeded Newton on position, normal and mixed charts,
 * certified by the sign of d, with a global polytope search otherwise. */
#ifndef SOLVER_AUTO_METHOD_H
#define SOLVER_AUTO_METHOD_H

#include "solver/implicit.h"
#include "solver/types.h"

/* A warm query's cached evaluations and inner balls, and the answer's for
 * the cache. */
typedef struct sovc_warm {
  const sovc_cache_eval *start; /* the cache's, if they belong to these shapes */
  const sovc_cache_ball *balls; /* the cache's, if they belong to these shapes */
  sovc_cache_eval last[2];      /* where the answer's position chart last evaluated */
  int have_last;               /* 1 if last belongs to the answer */
  sovc_cache_ball kept[2];      /* inner balls that proved the answer */
  int have_kept;               /* 1 if kept belongs to the answer */
  double proved_pA[3], proved_pB[3]; /* an answer's witnesses the cache's balls proved */
  int have_proved;                   /* 1 if proved_pA, proved_pB hold one */
} sovc_warm;

/* Take the cache's evaluations and inner balls (if any, and computed for
 * shapes with A's and B's parameters); returns warm, or NULL without a
 * cache (nowhere to keep the answer's: the solve skips them). */
sovc_warm *sovc_warm_init(sovc_warm *warm, const sovc_cache *cache, const sovc_shape *A,
                          const sovc_shape *B);

/* Store the shapes' parameters and, if warm has them, the answer's
 * evaluations and inner balls in the cache (else mark it as holding
 * none). */
void sovc_warm_store(sovc_cache *cache, const sovc_warm *warm, const sovc_shape *A,
                     const sovc_shape *B);

/* Signed distance by the default method; cache and warm may be NULL. */
int sovc_solve_auto(sovc_result *result, const sovc_pair *P, const sovc_options *options,
                    const sovc_cache *cache, sovc_warm *warm);

/* Newton configuration of the default method's charts: the SPEC's F (the
 * normalised G costs two more transcendentals per evaluation; from the
 * charts' starts on the surfaces both answer every pair of both batteries),
 * line search, options->tolerance, at most min(max_iterations, 16) steps
 * (sovc_solve_local gives the normal chart as many, the charts after it at
 * most 12), the small LU. */
sovc_newton_config sovc_chart_config(const sovc_options *options);

/* Only the first, local stage of the default method (warm or core-segment
 * start): SOV_OK with an answer that is the SPEC's if d >= 0, otherwise a
 * lower bound on d; no global search. core: sovc_core_direction's v if the
 * caller has it (a cold start needs it), else NULL. With
 * overlap_to_search, bodies the centre line proves overlapping when the
 * position chart fails get no answer (see sovc_solve_local): the caller
 * must go on to sovc_solve_auto_finish. 0 where the caller's own
 * centre-line test has already failed. */
int sovc_solve_auto_local(sovc_result *result, const sovc_pair *P, const sovc_options *options,
                          const sovc_cache *cache, const double core[3], int overlap_to_search,
                          sovc_warm *warm);

/* The default method's stages after the first, from its result: an
 * answer with d >= 0 or proved by inner balls is final, anything else
 * (have = 0: no local answer) goes to the global search. */
int sovc_solve_auto_finish(sovc_result *result, int have, const sovc_pair *P,
                           const sovc_options *options, sovc_warm *warm);

/* One local solve from world direction v (nonzero: the first stage passes
 * sovc_core_direction's, not unit; the normal chart normalises it) with
 * support points pA, pB: position chart, then the normal chart, the mixed
 * charts and the angle chart, taking the first that converges to
 * d >= lb0 (the objective at v; -INFINITY for no bound). Keeps the answer
 * in best if it is the first or has a larger d; adds iterations.
 * SOV_ERR_SPURIOUS if every chart ended below lb0. overlap_to_search: the
 * caller hands unfinished overlaps to the global search; then, when the
 * position chart fails and the centre line proves the bodies overlap, the
 * solve stops there (SOV_ERR_NO_CONVERGENCE). warm (NULL for none): the
 * position chart starts from warm->start if set, and warm->have_last says
 * whether this solve's answer came from it. */
int sovc_solve_local(sovc_result *best, int *have, const sovc_pair *P, const double v[3],
                     const double pA[3], const double pB[3], double lb0,
                     const sovc_newton_config *cfg, int overlap_to_search, sovc_warm *warm);

/* Tolerance for comparing values of the objective at r's coordinates
 * (1e-10 of their size). */
double sovc_value_tolerance(const sovc_result *r);

/* Keep r in best if best is empty or r has a larger d (a larger lower
 * bound); r's iterations are added to best's either way. */
void sovc_keep_best(sovc_result *best, int *have, const sovc_result *r);

/* Make pB - pA = d n exact by sliding one witness by the tangential offset
 * (the one that stays closer to its surface). Offsets within tol are left
 * alone; returns 1 if a witness moved. */
int sovc_balance_witnesses(sovc_result *r, const sovc_pair *P, double tol);

/* Balance r's witnesses (offsets of any size) and return 1 if both then lie
 * on their surfaces within tol, or within the body's dent allowance: the
 * global searches' test of witnesses they build themselves. */
int sovc_balanced_on_surfaces(sovc_result *r, const sovc_pair *P, double tol);

#endif
