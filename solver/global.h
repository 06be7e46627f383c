/* Global search over the Minkowski difference D = A - B with an inner
 * polytope of exact support points, handing candidate normals to the local
 * solvers. Used when the first local answer is not certified (d <= 0). */
#ifndef SOLVER_GLOBAL_H
#define SOLVER_GLOBAL_H

#include "solver/implicit.h"
#include "solver/types.h"

/* Where the global searches' bound closes: within this of the bodies' size
 * (the sum of their radii) above the best answer. */
#define SOVC_SEARCH_BOUND 1e-11

/* Improve best (valid if *have) to the SPEC answer. Overlap: branch and
 * bound (EPA) until every polytope face away from a polished optimum lies
 * above the best answer. Separated: polytope distance iteration, then a
 * polish. Bodies of revolution on one axis first get the search over one
 * meridian of coaxial.h. Returns SOV_OK, or SOV_ERR_NO_CONVERGENCE if the
 * bound could not be closed within the budget. */
int sovc_global_search(sovc_result *best, int *have, const sovc_pair *P,
                       const sovc_newton_config *cfg);

#endif
