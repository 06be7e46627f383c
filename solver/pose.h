/* Rigid poses: world = R local + p, R row-major. */
#ifndef SOLVER_POSE_H
#define SOLVER_POSE_H

#include <math.h>

#include "superovoid/superovoid.h"

/* Rotation matrix from a quaternion w x y z (normalised first). */
void sovc_quat_to_matrix(double R[9], const double q[4]);

/* pi, for the solver's angles. */
#define SOVC_PI 3.14159265358979323846

/* a . b of 3-vectors. */
static inline double sovc_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* 1 if all n values are finite. */
static inline int sovc_all_finite(const double *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}

/* y = R x. */
void sovc_rotate(double y[3], const double R[9], const double x[3]);

/* y = R^T x. */
void sovc_rotate_t(double y[3], const double R[9], const double x[3]);

/* Local point of a world point. */
void sovc_to_local(double local[3], const sov_pose *X, const double world[3]);

/* World point of a local point. */
void sovc_to_world(double world[3], const sov_pose *X, const double local[3]);

#endif
