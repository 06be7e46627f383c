/* A collide's search for a point common to both bodies: minimise
 * max(f_A, f_B) over world points x, where f = (G + 1)^2 - 1 of each body's
 * normalised implicit G (the squared gauge less 1 when untapered; the same
 * zero set as F, and a Hessian that is constant for ellipsoids). The
 * minimum is negative exactly when the bodies overlap, and at a positive
 * minimum the two gradients are opposite, along a separating direction.
 * Where the sublevel sets are convex (untapered bodies) the minimum has no
 * rival local minima, unlike the penetration depth, so a boolean needs no
 * global search; the proofs hold whatever the iterate, and the search only
 * decides how soon one is found. */
#ifndef SOLVER_COMMON_POINT_H
#define SOLVER_COMMON_POINT_H

#include "solver/newton.h"
#include "solver/types.h"

/* At most max_iterations primal-dual Newton steps of the search from world
 * point start (NULL: the point between the cores' nearest points where the
 * two gauges agree), asking verdict at every iterate that can prove
 * something (inside both bodies by their own functions; or both outside,
 * near the minimum, with opposite gradients to try as a separating
 * direction). Returns the first nonzero verdict, or 0; with 0, v becomes
 * the unit n_A - n_B at the last point where that is finite and nonzero
 * (else v is left as it was): the search ends near the features where the
 * bodies meet, and a direction search started there decides more pairs
 * than one from the cores. */
int sovc_common_point_verdict(double v[3], const sovc_pair *P, const double *start,
                              int max_iterations, const sovc_verdict *verdict);

#endif
