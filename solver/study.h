/* The benchmark study's three schemes (implicit, parametric, ntb) from
 * their initial guesses, undamped as the study ran them, with the optional
 * certificate of an overlap answer against the global search. */
#ifndef SOLVER_STUDY_H
#define SOLVER_STUDY_H

#include "solver/types.h"

/* The scheme of options->method (not AUTO) from options->seed (the cache's
 * answer for SOVC_SEED_CACHE: SOV_ERR_OPTION without one); with
 * options->certify, SOV_ERR_SPURIOUS for an overlap answer that is not the
 * SPEC's. */
int sovc_solve_study(sovc_result *result, const sovc_pair *P, const sovc_options *options,
                     const sovc_cache *cache);

#endif
