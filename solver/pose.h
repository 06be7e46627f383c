/* Rigid poses: world = R local + p, R row-major. */
#ifndef SOLVER_POSE_H
#define SOLVER_POSE_H

#include <math.h>

#include "solver/types.h"

/* Pose from a unit quaternion w x y z (norm within 1e-6, else
 * SOV_ERR_QUATERNION) and a position; SOV_ERR_NONFINITE for NaN or inf. */
int sovc_pose_from_quat(sovc_pose *X, const double q[4], const double p[3]);

/* Pose from a row-major rotation matrix and a position: SOV_ERR_ROTATION
 * unless R is orthonormal with det +1 within 1e-6 (every entry of R R^T
 * within 1e-6 of the identity's, |det R - 1| <= 1e-6), SOV_ERR_NONFINITE
 * for NaN or inf; R made orthonormal to rounding (two Newton-Schulz steps). */
int sovc_pose_from_matrix(sovc_pose *X, const double R[9], const double p[3]);

/* A caller's pose as the solver takes it: checked as by
 * sovc_pose_from_matrix, R kept bit for bit when it is a rotation to
 * rounding (within 64 ulps: every pose from a quaternion or a matrix), else
 * replaced by the nearest rotation as sovc_pose_from_matrix does (a
 * hand-filled or float-precision R would otherwise pose a slightly scaled
 * or sheared body: 3e-7 of the size off for an error of 3e-7). */
int sovc_pose_from_raw(sovc_pose *X, const double R[9], const double p[3]);

/* Rotation matrix from a quaternion w x y z (normalised first). */
void sovc_quat_to_matrix(double R[9], const double q[4]);

/* pi, for the solver's angles. */
#define SOVC_PI 3.14159265358979323846

/* a . b of 3-vectors. */
static inline double sovc_dot(const double a[3], const double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* c = a x b of 3-vectors (c may alias a or b). */
static inline void sovc_cross(double c[3], const double a[3], const double b[3]) {
  const double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
               z = a[0] * b[1] - a[1] * b[0];
  c[0] = x, c[1] = y, c[2] = z;
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
void sovc_to_local(double local[3], const sovc_pose *X, const double world[3]);

/* World point of a local point. */
void sovc_to_world(double world[3], const sovc_pose *X, const double local[3]);

#endif
