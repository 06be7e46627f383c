/* Support mapping of a superovoid in its local frame. */
#ifndef SOLVER_SUPPORT_H
#define SOLVER_SUPPORT_H

#include "solver/types.h"

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
double sovc_support(double x[3], const sovc_shape *shape, const double dir[3],
                    double z0);

/* A surface point near the support point in dir, cheaply: the untapered
 * superellipsoid's exact support point mapped through the taper
 * (x kx(z), y ky(z), z), which takes the untapered surface onto the tapered
 * one. Exact when untapered; a Newton seed otherwise. */
void sovc_support_seed(double x[3], const sovc_shape *shape, const double dir[3]);

/* A surface point x near the support point in dir, cheaply: the point of
 * the slice at height s = z / a3 farthest along dir after `steps` steps of
 * the support's 1-D search (Halley, no bracket) from height s. A point of
 * the body for any s and steps >= 0; returns dir . x, at most the support
 * value, usually close to it after one step from a nearby height.
 * Untapered bodies and |s| >= 1 (or NaN) get the exact support. */
double sovc_support_steps(double x[3], const sovc_shape *shape, const double dir[3], double s,
                          int steps);

/* Upper and lower bounds on the support value h(dir) (dir nonzero),
 * cheaper than sovc_support for tapered, exactly convex bodies (two steps
 * of its 1-D search); h itself otherwise. Returns the upper bound, enough
 * to prove a separating plane; *lower (the value of a surface point) can
 * rule one out. */
double sovc_support_bound(double *lower, const sovc_shape *shape, const double dir[3]);

#endif
