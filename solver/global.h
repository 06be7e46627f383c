/* Global search over the Minkowski difference D = A - B with an inner
 * polytope of exact support points, handing candidate normals to the local
 * solvers. Used when the first local answer is not certified (d <= 0). */
#ifndef SOLVER_GLOBAL_H
#define SOLVER_GLOBAL_H

#include <stddef.h>

#include "solver/types.h"

/* What the search is handed: a local solve from a direction it found
 * promising ("polishing" it), and the caller's length tolerance. */
typedef struct sovc_search_config {
  /* From unit world direction v with support points pA, pB (of A along v,
   * of B along -v): an answer with d at least lb (within the value
   * tolerance) into r, *got = 1; SOV_OK if it found one. r's iterations
   * count the solve's, found or not. */
  int (*polish)(const void *ctx, sovc_result *r, int *got, const double v[3], const double pA[3],
                const double pB[3], double lb);
  const void *ctx;  /* the polish's */
  double tolerance; /* the caller's, for the separated search's last resort */
  void *work;       /* sovc_search_work_size() bytes, double-aligned, or NULL: the
                       search then takes them from the stack */
  int *verdict;     /* a collide's (NULL for a distance): the search stops at
                       its first proof, SOVC_DECIDED with *verdict 1 for
                       overlapping, 0 for apart */
} sovc_search_config;

/* Bytes of work memory the search uses (its polytope and bounds, or the
 * coaxial search's meridian). */
size_t sovc_search_work_size(void);

/* Improve best (valid if *have) to the SPEC answer. Overlap: branch and
 * bound (EPA) until every polytope face away from a polished optimum lies
 * above the best answer. Separated: polytope distance iteration, then a
 * polish. Bodies of revolution on one axis first get the search over one
 * meridian of coaxial.h. Returns SOV_OK, or SOV_ERR_NO_CONVERGENCE if the
 * bound could not be closed within the budget. */
int sovc_global_search(sovc_result *best, int *have, const sovc_pair *P,
                       const sovc_search_config *cfg);

#endif
