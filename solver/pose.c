/* Rigid pose helpers. */
#include "solver/pose.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Tolerance on unit quaternions and rotation matrices (SPEC "Pose"). */
static const double kUnitTolerance = 1e-6;

/* Rotation matrix of the normalised quaternion w x y z. */
void sovc_quat_to_matrix(double R[9], const double q[4]) {
  const double s = 1.0 / sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double w = q[0] * s, x = q[1] * s, y = q[2] * s, z = q[3] * s;
  R[0] = 1 - 2 * (y * y + z * z);
  R[1] = 2 * (x * y - w * z);
  R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);
  R[4] = 1 - 2 * (x * x + z * z);
  R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);
  R[7] = 2 * (y * z + w * x);
  R[8] = 1 - 2 * (x * x + y * y);
}

/* y = R x. */
void sovc_rotate(double y[3], const double R[9], const double x[3]) {
  const double x0 = x[0], x1 = x[1], x2 = x[2];
  y[0] = R[0] * x0 + R[1] * x1 + R[2] * x2;
  y[1] = R[3] * x0 + R[4] * x1 + R[5] * x2;
  y[2] = R[6] * x0 + R[7] * x1 + R[8] * x2;
}

/* y = R^T x. */
void sovc_rotate_t(double y[3], const double R[9], const double x[3]) {
  const double x0 = x[0], x1 = x[1], x2 = x[2];
  y[0] = R[0] * x0 + R[3] * x1 + R[6] * x2;
  y[1] = R[1] * x0 + R[4] * x1 + R[7] * x2;
  y[2] = R[2] * x0 + R[5] * x1 + R[8] * x2;
}

/* local = R^T (world - p). */
void sovc_to_local(double local[3], const sovc_pose *X, const double world[3]) {
  const double d[3] = {world[0] - X->p[0], world[1] - X->p[1], world[2] - X->p[2]};
  sovc_rotate_t(local, X->R, d);
}

/* world = R local + p. */
void sovc_to_world(double world[3], const sovc_pose *X, const double local[3]) {
  sovc_rotate(world, X->R, local);
  world[0] += X->p[0];
  world[1] += X->p[1];
  world[2] += X->p[2];
}

/* How far a finite R is from a rotation: the largest distance of an entry
 * of R R^T (symmetric: six) to the identity's, or of det R to 1; INFINITY
 * for an entry beyond 2, which no rotation within 1e-6 has (below it no
 * product overflows into inf - inf = NaN, which no comparison would see). */
static double rotation_error(const double R[9]) {
  for (int i = 0; i < 9; ++i)
    if (!(fabs(R[i]) <= 2)) return INFINITY;
  double e = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      const double d = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
      const double off = fabs(d - (i == j));
      if (off > e) e = off;
    }
  const double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                     R[2] * (R[3] * R[7] - R[4] * R[6]);
  const double off = fabs(det - 1);
  return off > e ? off : e;
}

/* Pose from a unit quaternion (checked) and a position. */
int sovc_pose_from_quat(sovc_pose *X, const double q[4], const double p[3]) {
  if (!sovc_all_finite(q, 4) || !sovc_all_finite(p, 3)) return SOV_ERR_NONFINITE;
  const double nq = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (fabs(nq - 1) > kUnitTolerance) return SOV_ERR_QUATERNION;
  sovc_quat_to_matrix(X->R, q);
  memcpy(X->p, p, sizeof X->p);
  return SOV_OK;
}

/* One Newton-Schulz step towards the nearest rotation (the polar factor):
 * R <- R (3 I - R^T R) / 2. An error e in R^T R becomes about 3 e^2 / 4. */
static void orthonormalize_step(double R[9]) {
  double G[9], out[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      G[3 * i + j] = (i == j ? 3.0 : 0.0) - (R[i] * R[j] + R[3 + i] * R[3 + j] + R[6 + i] * R[6 + j]);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      out[3 * i + j] = 0.5 * (R[3 * i] * G[j] + R[3 * i + 1] * G[3 + j] + R[3 * i + 2] * G[6 + j]);
  memcpy(R, out, sizeof out);
}

/* Pose from a rotation matrix (checked) and a position. An accepted matrix
 * (off by up to kUnitTolerance) whose error reaches kept_below is made
 * orthonormal to rounding: the solver's frames assume R^T = R^-1, and an
 * error of 1e-6 in it would be an error of 1e-6 of the size in every
 * answer. Two steps take 1e-6 to 1e-12 and then to rounding. */
static int pose_from(sovc_pose *X, const double R[9], const double p[3], double kept_below) {
  if (!sovc_all_finite(R, 9) || !sovc_all_finite(p, 3)) return SOV_ERR_NONFINITE;
  const double e = rotation_error(R);
  if (!(e <= kUnitTolerance)) return SOV_ERR_ROTATION;
  memcpy(X->R, R, sizeof X->R);
  if (e >= kept_below) {
    orthonormalize_step(X->R);
    orthonormalize_step(X->R);
  }
  memcpy(X->p, p, sizeof X->p);
  return SOV_OK;
}

/* See pose.h: every accepted matrix is made orthonormal. */
int sovc_pose_from_matrix(sovc_pose *X, const double R[9], const double p[3]) {
  return pose_from(X, R, p, 0);
}

/* Below this error R is a rotation to rounding: poses from
 * sovc_pose_from_quat and sovc_pose_from_matrix stay within 1e-15. */
static const double kRoundedRotation = 64 * DBL_EPSILON;

/* See pose.h. */
int sovc_pose_from_raw(sovc_pose *X, const double R[9], const double p[3]) {
  return pose_from(X, R, p, kRoundedRotation);
}
