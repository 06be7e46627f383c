/* Continuous collision: the time of first contact of two superovoids whose
 * poses move from one pose to another (translation linear, rotation at a
 * constant angular velocity about a fixed world axis, i.e. the shortest-arc
 * slerp), by conservative advancement on the certified signed distance
 * (Mirtich, "Timewarp rigid body simulation", SIGGRAPH 2000, sec. 4; Zhang,
 * Redon, Lee, Kim, "Continuous collision detection for articulated models
 * using Taylor models and temporal culling", SIGGRAPH 2007, eq. 2 for the
 * directional bound). Inputs are validated by the C API. */
#ifndef SOLVER_CCD_H
#define SOLVER_CCD_H

#include "solver/types.h"

/* One body's motion over t in [0, 1]: pose(t) has rotation
 * Rot(axis, t angle) R0 and position p0 + t v, so pose(0) is the start and
 * pose(1) the end (to rounding). FCL's InterpMotion with its reference point
 * at the local origin is the same motion. */
typedef struct sovc_motion {
  sovc_pose start; /* pose at t = 0 */
  double v[3];     /* translation of the local origin over [0, 1] */
  double axis[3];  /* unit rotation axis, world frame (x axis when angle is 0) */
  double angle;    /* rotation angle over [0, 1], in [0, pi] */
} sovc_motion;

/* Options of a time-of-contact query, validated by the C API. */
typedef struct sovc_toc_options {
  double distance_tolerance; /* contact once d <= this (length units, >= 0) */
  double time_tolerance;     /* contact once the next certified step is
                                shorter than this (>= 0; 0: never) */
  int max_steps;             /* distance queries at most (> 0) */
  sovc_options distance;     /* options of every distance query */
} sovc_toc_options;

/* Answer of a time-of-contact query. */
typedef struct sovc_toc_result {
  int contact;     /* 1: contact at t; 0: none found in [0, t] */
  double t;        /* contact: the time of contact; none: 1, or on failure
                      the end of the certified-free interval [0, t) */
  sovc_result at;  /* the distance answer at t (contact) or at the last
                      step (none) */
  int steps;       /* distance queries made */
  int iterations;  /* Newton iterations over all of them */
  int failures;    /* queries that failed and were stepped over on the
                      previous normal's certified gap */
} sovc_toc_result;

/* The motion from X0 at t = 0 to X1 at t = 1 (rotation by the shortest
 * arc; at exactly half a turn, about the axis of the rotation matrix's
 * quaternion with w = 0 as Shepperd's method picks it). */
void sovc_motion_init(sovc_motion *m, const sovc_pose *X0, const sovc_pose *X1);

/* The pose of motion m at time t. */
void sovc_motion_pose(sovc_pose *X, const sovc_motion *m, double t);

/* Bound on how fast the gap between A and B along the fixed world unit
 * direction n (from A towards B) can shrink, per unit of t, when A and B
 * move by mA and mB and every point of A (B) lies within rA (rB) of its
 * local origin: n . (vA - vB) + |n x wA| rA + |n x wB| rB, with w the
 * angular velocity (axis times angle). May be <= 0 (the gap never shrinks). */
double sovc_motion_bound(const sovc_motion *mA, double rA, const sovc_motion *mB, double rB,
                         const double n[3]);

/* Gap between the posed bodies of P along the world unit direction n,
 * -(h_A(n) + h_B(-n)) from the exact support maps: a lower bound on their
 * distance whenever it is positive (SPEC "Signed distance"). */
double sovc_support_gap(const sovc_pair *P, const double n[3]);

/* What rounding can take off a support gap computed from numbers of size
 * scale (the bodies' positions and sizes): 64 DBL_EPSILON scale. */
double sovc_gap_allowance(double scale);

/* The distance at or below which conservative advancement counts bodies
 * as touching: tolerance, or twice sovc_gap_allowance(scale) where that is
 * larger (closer than that, the certified gap, less its allowance, proves
 * no step). */
double sovc_contact_distance(double tolerance, double scale);

/* Time of first contact of A moving by mA and B moving by mB over [0, 1]:
 * conservative advancement with steps (gap along the current normal) /
 * sovc_motion_bound, each certified, until d <= distance_tolerance or
 * twice the gap's rounding allowance, whichever is larger (or the
 * step is below time_tolerance): contact at that t, which is never after
 * the first time the bodies touch. cache (may be NULL) warm-starts every
 * distance query from the previous one and keeps the last answer.
 * SOV_ERR_NO_CONVERGENCE after max_steps queries, or the status of a
 * distance query that failed where the previous normal certifies no step;
 * r->t is then the end of the interval [0, t) proved free. */
int sovc_time_of_contact(sovc_toc_result *r, const sovc_shape *A, const sovc_motion *mA,
                         const sovc_shape *B, const sovc_motion *mB, const sovc_toc_options *o,
                         sovc_cache *cache);

#endif
