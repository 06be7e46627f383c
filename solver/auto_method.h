/* The default method: seeded Newton on position, normal and mixed charts,
 * certified by the sign of d, with a global polytope search otherwise. */
#ifndef SOLVER_AUTO_METHOD_H
#define SOLVER_AUTO_METHOD_H

#include "solver/implicit.h"
#include "solver/types.h"
#include "solver/warm.h"

/* Signed distance by the default method; cache and warm may be NULL. */
int sovc_solve_auto(sovc_result *result, const sovc_pair *P, const sovc_options *options,
                    const sovc_cache *cache, sovc_warm *warm);

/* Only the first, local stage of the default method (warm or core-segment
 * start): SOV_OK with an answer that is the SPEC's if d >= 0, otherwise a
 * lower bound on d; no global search. core: sovc_core_direction's v if the
 * caller has it (a cold start needs it), else NULL. With
 * overlap_to_search, bodies the centre line proves overlapping when the
 * position chart fails get no answer (see sovc_solve_local): the caller
 * must go on to sovc_solve_auto_finish. 0 where the caller's own
 * centre-line test has already failed. verdict (NULL: none; see
 * sovc_verdict) is asked at the iterates of the position and normal
 * charts: SOVC_DECIDED where it decided (result holds no answer). */
int sovc_solve_auto_local(sovc_result *result, const sovc_pair *P, const sovc_options *options,
                          const sovc_cache *cache, const double core[3], int overlap_to_search,
                          const sovc_verdict *verdict, sovc_warm *warm);

/* The default method's stages after the first, from its result: an
 * answer with d >= 0 or proved by inner balls is final, anything else
 * (have = 0: no local answer) goes to the global search. verdict: a
 * collide's (NULL for a distance), where the search stops at its first
 * proof: SOVC_DECIDED (result holds no answer), *verdict 1 overlapping, 0
 * apart. */
int sovc_solve_auto_finish(sovc_result *result, int have, const sovc_pair *P,
                           const sovc_options *options, sovc_warm *warm, int *verdict);

#endif
