/* Parametric superovoid surface (SPEC Parametric) and the study's parametric
 * surface angles of a local point. */
#ifndef SOLVER_PARAMETRIC_H
#define SOLVER_PARAMETRIC_H

#include "solver/types.h"

/* Surface point at (phi1, phi2), tangents dx/dphi1 and dx/dphi2, and the
 * outward unit normal (well defined at the poles too); t1, t2, n may be NULL.
 * Also returns second derivatives d2x/dphi1^2, d2x/dphi1dphi2, d2x/dphi2^2
 * in x11, x12, x22 when non-NULL. */
void sovc_param_point(double x[3], double t1[3], double t2[3], double n[3],
                      double x11[3], double x12[3], double x22[3],
                      const sovc_shape *shape, double phi1, double phi2);

/* Angles (phi1, phi2) of the surface point nearest in angle to the ray from
 * the centre through local point x (x need not be on the surface). */
void sovc_param_angles(double *phi1, double *phi2, const sovc_shape *shape,
                       const double x[3]);

#endif
