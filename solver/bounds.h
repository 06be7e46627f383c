/* What a shape's parameters give beyond its implicit function: its local
 * bounds, volume and moments. */
#ifndef SOLVER_BOUNDS_H
#define SOLVER_BOUNDS_H

#include "solver/types.h"

/* Local AABB and bounding radius about the local origin (both exact). */
void sovc_shape_bounds(double lo[3], double hi[3], double *radius, const sovc_shape *shape);

/* Volume of the body. */
double sovc_shape_volume(const sovc_shape *shape);

/* Volume and means of the uniform body in its local frame: m = {V, <z>,
 * <x^2>, <y^2>, <z^2>} (<f> = int f dV / V; the other first and second
 * moments vanish by symmetry). */
void sovc_shape_moments(double m[5], const sovc_shape *shape);

#endif
