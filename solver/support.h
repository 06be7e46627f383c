/* Support mapping of a superovoid in its local frame. */
#ifndef SOLVER_SUPPORT_H
#define SOLVER_SUPPORT_H

#include "superovoid/superovoid.h"

/* Support point x maximising dir . x over the body (dir need not be unit,
 * must be nonzero); returns h = dir . x. Closed form (dual superellipsoid
 * norm) when untapered; a safeguarded 1-D search over the slice height when
 * tapered. z0 in [-1, 1] is a hint for the support's z / a3 (pass NaN for
 * none). */
double sovc_support(double x[3], const sov_shape *shape, const double dir[3],
                    double z0);

#endif
