/* Direction-space Newton: minimise f(v) = h_A(v) + h_B(-v) over unit v (the
 * SPEC's definition, d = -min f). Points come from exact support maps, the
 * Hessian from the bodies' curvature at those points. Complements the
 * implicit Newton: pointy regions (eps near 2), where positions barely move
 * with the normal, are smooth here and stiff there. */
#ifndef SOLVER_DIRECTION_H
#define SOLVER_DIRECTION_H

#include "solver/newton.h"
#include "solver/posed.h"
#include "solver/types.h"

/* Newton with line search on f from unit world direction v0. On SOV_OK fills
 * result (n = v, pA, pB support points, d = -f). verdict (NULL: none) is
 * asked at every iterate, and SOVC_DECIDED returned where it decides. */
int sovc_solve_direction(sovc_result *result, const sovc_pair *P, const double v0[3],
                         double tolerance, int max_iterations, const sovc_verdict *verdict);

/* Refine world direction v (nonzero; unit on return) from A towards B by at
 * most max_iterations steps of this chart on the bodies' seed surface
 * points (sovc_support_seed: exact for untapered bodies, close for tapered
 * ones, in closed form) instead of exact supports: a start for the exact
 * charts, not an answer. */
void sovc_refine_direction(double v[3], const sovc_pair *P, int max_iterations);

/* sovc_refine_direction asking verdict at every iterate (the
 * seed points pA of A along v and pB of B along -v) and
 * going on to the seed points' optimum (no early stop on a small step); v
 * becomes the last iterate. Returns the first nonzero verdict, or 0. (Exact
 * supports after the seed steps decided too few more pairs of the contact
 * battery to pay for themselves.) */
int sovc_direction_verdict(double v[3], const sovc_pair *P, int max_iterations,
                           const sovc_verdict *verdict);

/* Hessian of f(v) = h_A(v) + h_B(-v) on the unit sphere at v, in the tangent
 * frame fr of v: (D_A + D_B - f I) restricted to the tangent plane, with
 * a, b the supports along v and -v carrying their derivatives D and f their
 * value; m = {m00, m01, m11}. A maximum of d = -f needs it >= 0. */
void sovc_sphere_hessian(double m[3], const sovc_support_eval *a,
                         const sovc_support_eval *b, const sovc_frame *fr,
                         double f);

#endif
