/* Convexity of tapered superellipsoids (SPEC "Valid parameters", exact test:
 * the slice support h(z; u) = c(z) N_u(z) must be concave in z). */
#ifndef SOLVER_CONVEXITY_H
#define SOLVER_CONVEXITY_H

#include <stddef.h>

/* q |tx - ty| (the rate, per unit height, of the log of the ratio of a
 * slice support's x and y terms) above which the switch between them is a
 * kink narrower than the convexity test's nodes and the support's dent-zone
 * scan (eps1 near 2 with unequal tapers): both place a node on it. */
#define SOVC_SHARP_SWITCH 50.0

/* 1 if params[7] (already range-checked) give a convex body, else 0. */
int sovc_is_convex(const double params[7]);

/* Relative depth of the body's deepest dent below its convex hull (0 for
 * an exactly convex body) and the height zone [lo, hi] (z / a3) outside
 * which every horizontal slice support is concave in z ([0, 0] if none). */
double sovc_shape_dent(double zone[2], const double params[7]);

/* Largest s in [0, 1] such that tapers scaled by s are convex. */
double sovc_max_taper_scale(const double params[7]);

/* Explain whether params[7] lie in the SPEC's valid range, convexity
 * included, in buf; sovc_shape_init_explain adds the numeric checks. */
int sovc_shape_explain(char *buf, size_t size, const double params[7]);

/* sovc_shape_explain that also gives, for valid params, the dent depth and
 * zone it measured (sovc_shape_dent's): shape initialisation measures the
 * dent once. */
int sovc_shape_explain_dent(char *buf, size_t size, const double params[7], double *dent,
                            double zone[2]);

#endif
