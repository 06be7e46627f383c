/* The study's parametric common-normal schemes: Eq. 18 and its ntb
 * variant, Newton in the surface angles of both bodies. */
#ifndef SOLVER_PARAMETRIC_SOLVE_H
#define SOLVER_PARAMETRIC_SOLVE_H

#include "solver/types.h"

/* Study Eq. 18 (4x4 Newton in the angles), from angles phiA[2], phiB[2].
 * Fills result (world frame) and returns a sov_status. */
int sovc_solve_parametric(sovc_result *result, const sovc_pair *P, const double phiA[2],
                          const double phiB[2], const sovc_options *options);

/* ntb variant: angle unknowns, implicit normal/tangent/bitangent equations. */
int sovc_solve_ntb(sovc_result *result, const sovc_pair *P, const double phiA[2],
                   const double phiB[2], const sovc_options *options);

#endif
