/* Distance of two convex bodies known only by their support functions (FCL's
 * primitives, where FCL's own GJK stops early between flat faces), by GJK on
 * their Minkowski difference with a certified stop: the gap between the
 * simplex's distance and a support value's lower bound. */
#ifndef SOLVER_SUPPORT_GJK_H
#define SOLVER_SUPPORT_GJK_H

#include "solver/support_epa.h"

/* The answer: overlapping = 0 with d the distance of two points pA of A and
 * pB of B (convex combinations of support points), within gap above the
 * true distance and above the support values' bound along
 * n = (pB - pA) / d; overlapping = 1 when the origin lies in a simplex of
 * A - B or within rounding of it (touching): no distance then, the caller
 * wants the penetration. steps: support pairs evaluated. */
typedef struct sovc_support_gjk {
  int overlapping, steps;
  double d, gap, n[3], pA[3], pB[3];
} sovc_support_gjk;

/* SOV_OK (gap within tolerance, raised to 64 ulps of the difference's
 * size and, for bodies closer than their size, to the rounding of the
 * direction: an ulp of size^2 / d), SOV_ERR_NONFINITE (a support point not finite), or
 * SOV_ERR_NO_CONVERGENCE when the steps run out or stop gaining before the
 * tolerance (out then holds the bracket reached: d and its gap). start:
 * a direction from A towards B to begin along (NULL, zero or not finite:
 * +x); near the answer's n the first supports are near its witnesses. */
int sovc_support_distance(sovc_support_gjk *out, const sovc_support_body *A,
                          const sovc_support_body *B, const double start[3], double tolerance);

/* The verdict only, by the same GJK stopped at its first proof: SOV_OK with
 * out->overlapping = 0 where a support value along the simplex's point x
 * is positive (the plane normal to out->n separates the bodies; d and gap
 * as reached), 1 where the origin lies in a simplex of A - B or within
 * rounding of one (touching); SOV_ERR_NONFINITE, or SOV_ERR_NO_CONVERGENCE
 * when the steps run out or stop gaining first (bodies within rounding of
 * touching, undecided). start as for sovc_support_distance. */
int sovc_support_collide(sovc_support_gjk *out, const sovc_support_body *A,
                         const sovc_support_body *B, const double start[3]);

#endif
