/* What two posed bodies give together: the directions and points the
 * solvers start from, and the cheap overlap test along their centre line. */
#ifndef SOLVER_PAIR_H
#define SOLVER_PAIR_H

#include "solver/types.h"

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

#endif
