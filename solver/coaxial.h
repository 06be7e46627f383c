/* Bodies of revolution on one axis: a search over one meridian circle.
 * Their objective -(h_A(v) + h_B(-v)) depends only on v's angle to the
 * axis, so an optimum off the axis is a whole circle of directions, around
 * which the polytope search cannot close its bound (no cap around one point
 * of the circle beats the others). */
#ifndef SOLVER_COAXIAL_H
#define SOLVER_COAXIAL_H

#include <stddef.h>

#include "solver/types.h"

/* Room for the coaxial search's meridian (checked in coaxial.c). */
#define SOVC_COAXIAL_WORK_BYTES 13312

/* 1 if A and B are bodies of revolution (eps1 = 1, a1 = a2, equal tapers;
 * a sphere about any axis) about one line, to rounding of the poses; then
 * axis is a world unit vector along it. */
int sovc_coaxial_axis(double axis[3], const sovc_pair *P);

/* Signed distance of a coaxial pair (axis from sovc_coaxial_axis), either
 * sign: branch and bound over the directions of one half meridian, whose
 * rotations about the axis are all the directions, with exact supports.
 * Keeps the answer in best as sovc_keep_best does. SOV_OK when the bound
 * closed within 1e-11 of the bodies' size and the witnesses lie on their
 * surfaces; SOV_ERR_NO_CONVERGENCE otherwise (best untouched). */
int sovc_coaxial_search(sovc_result *best, int *have, const sovc_pair *P, const double axis[3],
                        void *work);

/* Bytes of work memory (double-aligned) the coaxial search uses: at most
 * SOVC_COAXIAL_WORK_BYTES. */
size_t sovc_coaxial_work_size(void);

#endif
