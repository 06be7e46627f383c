/* Support mapping of a superovoid in its local frame. */
#ifndef SOLVER_SUPPORT_H
#define SOLVER_SUPPORT_H

#include "superovoid/superovoid.h"

/* Dents shallower than this (relative to the width) change h by less than
 * this fraction of the size, 1 % of the 1e-9 accuracy: the support search
 * (its extra searches across the dent) and the default method's check of
 * witnesses against exact supports skip them. */
#define SOVC_DENT_NEGLECT 1e-11

/* Support point x maximising dir . x over the body (dir need not be unit,
 * must be nonzero); returns h = dir . x. Closed form (dual superellipsoid
 * norm) when untapered; a safeguarded 1-D search over the slice height when
 * tapered. z0 in [-1, 1] is a hint for the support's z / a3 (pass NaN for
 * none). */
double sovc_support(double x[3], const sov_shape *shape, const double dir[3],
                    double z0);

/* A surface point near the support point in dir, cheaply: the untapered
 * superellipsoid's exact support point mapped through the taper
 * (x kx(z), y ky(z), z), which takes the untapered surface onto the tapered
 * one. Exact when untapered; a Newton seed otherwise. */
void sovc_support_seed(double x[3], const sov_shape *shape, const double dir[3]);

#endif
