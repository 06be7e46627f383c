/* Penetration of two convex bodies known only by their support functions
 * (not superovoids: FCL's primitives against a superovoid), by EPA on their
 * Minkowski difference, in fixed memory and bounded steps. */
#ifndef SOLVER_SUPPORT_EPA_H
#define SOLVER_SUPPORT_EPA_H

#include "solver/polytope.h"

/* support(body, dir, x): the point x of the body farthest along dir (world
 * frame; dir non-zero, not necessarily unit). */
typedef void (*sovc_support_cb)(const void *body, const double dir[3], double x[3]);

typedef struct sovc_support_body {
  sovc_support_cb support;
  const void *body;
} sovc_support_body;

/* w = sA(n) - sB(-n), the support point of A - B along n, and a = sA(n);
 * 0 if w is not finite (then neither is a or sB(-n)). */
int sovc_support_difference(double w[3], double a[3], const sovc_support_body *A,
                            const sovc_support_body *B, const double n[3]);

/* Vertices of the polytope sovc_support_penetration grows (its capacity
 * decides where a curved pair's bracket ends: fcl_ext/README.md). */
enum { SOVC_EPA_MAX_VERTS = 512 };

/* The answer: overlapping = 1 with depth (within gap of the true depth:
 * the nearest face of the inner polytope lies below it, a support value
 * along that face's normal gap above it), n from A towards B and witness
 * points with pA - pB = depth n; overlapping = 0 when a support value
 * proves the origin outside A - B (apart or touching), n then a
 * separating direction. steps: supports added. */
typedef struct sovc_support_epa {
  int overlapping, steps;
  double depth, gap, n[3], pA[3], pB[3];
} sovc_support_epa;

/* SOV_OK (gap within tolerance, raised to 64 ulps of the difference's
 * size), SOV_ERR_NONFINITE (a support point not finite) or
 * SOV_ERR_NO_CONVERGENCE: a flat difference (gap INFINITY, no answer), or
 * the polytope full or out of room to rounding before the tolerance (the
 * answer then holds the bracket reached, gap above the tolerance, if it is
 * within 1e-6 of the difference's size; gap INFINITY otherwise). P is work
 * memory, attached to storage for SOVC_EPA_MAX_VERTS vertices. */
int sovc_support_penetration(sovc_support_epa *out, const sovc_support_body *A,
                             const sovc_support_body *B, double tolerance, sovc_polytope *P);

#endif
