/* Parametric superovoid surface (SPEC Parametric) and the study's parametric
 * surface angles of a local point. */
#ifndef SOLVER_PARAMETRIC_H
#define SOLVER_PARAMETRIC_H

#include "solver/types.h"

/* A point of the parametric surface with its angle derivatives. */
typedef struct sovc_surface_point {
  double x[3];                   /* the point (local) */
  double t1[3], t2[3];           /* dx/dphi1, dx/dphi2 */
  double x11[3], x12[3], x22[3]; /* d2x/dphi1^2, d2x/dphi1dphi2, d2x/dphi2^2 */
  double n[3];                   /* outward unit normal (well defined at the poles too) */
} sovc_surface_point;

/* The SPEC's parametric point at (phi1, phi2) alone. */
void sovc_param_position(double x[3], const sovc_shape *shape, double phi1, double phi2);

/* The point at (phi1, phi2) with its derivatives and normal. */
void sovc_param_point(sovc_surface_point *p, const sovc_shape *shape, double phi1, double phi2);

/* Angles (phi1, phi2) of the surface point nearest in angle to the ray from
 * the centre through local point x (x need not be on the surface). */
void sovc_param_angles(double *phi1, double *phi2, const sovc_shape *shape,
                       const double x[3]);

#endif
