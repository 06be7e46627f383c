/* What two posed bodies give together: the directions and points the
 * solvers start from, and the cheap overlap test along their centre line. */
#ifndef SOLVER_PAIR_H
#define SOLVER_PAIR_H

#include "solver/types.h"

/* 1 if world point x lies inside both bodies (F < 0 for each). */
int sovc_pair_inside(const sovc_pair *P, const double x[3]);

/* 1 if a point inside both bodies is found on the line between their
 * centres: a centre inside the other body, or a point between B's entry
 * and A's exit (a few implicit evaluations). 0 proves nothing. */
int sovc_centre_line_overlap(const sovc_pair *P);

/* Newton starts for world direction v (nonzero) from A towards B:
 * sovc_support_seed's surface points of A along v and of B along -v. */
void sovc_support_seeds(double pA[3], double pB[3], const sovc_pair *P, const double v[3]);

/* A direction v (not unit) from A towards B to start the local solve and
 * to try as a separating plane's normal: between the nearest points of the
 * bodies' core segments (each along its longest axis, as long as that axis
 * exceeds the next longest), where the common normal of elongated bodies
 * lies much nearer than along the line between their centres (the stress
 * battery's position chart converged from it on 4 % more separated pairs);
 * that line where the cores meet, +z where the centres coincide too. */
void sovc_core_direction(double v[3], const sovc_pair *P);

/* The nearest points qA, qB of the two core segments (sovc_core_direction's
 * v is qB - qA unless the cores meet). */
void sovc_core_points(double qA[3], double qB[3], const sovc_pair *P);

/* A pair in a frame centred on A's centre and scaled by a power of two to
 * about unit size, where the solver computes: the answer's accuracy and its
 * tolerances then follow the bodies' size and not their distance from the
 * caller's origin. Scaling by 2^-k is exact, and so are A's centre (0) and
 * B's for nearby bodies (Sterbenz). */
typedef struct sovc_normal_pair {
  sovc_shape A, B;
  sovc_pose XA, XB;
  sovc_pair pair;   /* points to the members above */
  double origin[3]; /* the caller's A centre */
} sovc_normal_pair;

/* N holds P (scale 1) in its normal frame. */
void sovc_pair_normalize(sovc_normal_pair *N, const sovc_pair *P);

/* Answer r of N's pair in the caller's frame and lengths. */
void sovc_result_restore(sovc_result *r, const sovc_normal_pair *N);

#endif
