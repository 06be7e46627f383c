/* Mixed-chart common-normal Newton: a primary body by its surface point (a
 * position chart, well conditioned on flat faces) and a secondary body by
 * its support map at the opposite normal (a normal chart, well conditioned
 * at pointy tips and edges). */
#ifndef SOLVER_MIXED_H
#define SOLVER_MIXED_H

#include "solver/types.h"

/* Newton on G_P(p) = 0, t . (q - p) = 0, b . (q - p) = 0 with
 * q = support of S at -n_P(p), from world point p0. On SOV_OK fills result
 * with A = P, B = S (n = outward normal of P at p). */
int sovc_solve_mixed(sovc_result *result, const sovc_pair *P, const double p0[3], double tolerance,
                     int max_iterations);

#endif
