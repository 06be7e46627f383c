/* The study's parametric quadtree initial guess: 6 levels, each splitting the
 * current (phi1, phi2) cell of both bodies into quadrants and keeping the
 * closest of the 16 candidate pairs. */
#ifndef SOLVER_QUADTREE_H
#define SOLVER_QUADTREE_H

#include "solver/types.h"

/* Angles phiA[2], phiB[2] of the closest quadtree candidate pair. */
void sovc_quadtree_seed(double phiA[2], double phiB[2], const sovc_pair *P);

#endif
