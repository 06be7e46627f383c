/* Direction-space Newton: minimise f(v) = h_A(v) + h_B(-v) over unit v (the
 * SPEC's definition, d = -min f). Points come from exact support maps, the
 * Hessian from the bodies' curvature at those points. Complements the
 * implicit Newton: pointy regions (eps near 2), where positions barely move
 * with the normal, are smooth here and stiff there. */
#ifndef SOLVER_DIRECTION_H
#define SOLVER_DIRECTION_H

#include "superovoid/superovoid.h"

/* Newton with line search on f from unit world direction v0. On SOV_OK fills
 * result (n = v, pA, pB support points, d = -f). */
int sovc_solve_direction(sov_result *result, const sov_shape *A,
                         const sov_pose *XA, const sov_shape *B,
                         const sov_pose *XB, const double v0[3],
                         double tolerance, int max_iterations);

#endif
