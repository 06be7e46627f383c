/* Balanced angle chart: the SPEC's parametric angles reparametrised per axis
 * so that position and normal are both C1 everywhere but the poles. Near an
 * axis the angle offset t gives position ~ t^eps and normal ~ t^(2 - eps);
 * with t ~ s^k, k = 1 / min(eps, 2 - eps), the steeper of the two becomes
 * linear in s. Handles the contacts no other chart can: sharp straight
 * edges (flat along, pointy across) of box- and diamond-like bodies. */
#ifndef SOLVER_CHART_H
#define SOLVER_CHART_H

#include "solver/types.h"

/* Newton on the ntb equations (tA . (pB - pA), bA . (pB - pA), tA . nB,
 * bA . nB) in the balanced charts of both bodies, from world points pA0,
 * pB0 near their surfaces. On SOV_OK fills result (n = outward normal of A
 * at pA). */
int sovc_solve_chart(sovc_result *result, const sovc_pair *P, const double pA0[3],
                     const double pB0[3], double tolerance, int max_iterations);

#endif
