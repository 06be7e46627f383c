/* Rigid pose helpers. */
#include "solver/pose.h"

#include <math.h>

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
void sovc_to_local(double local[3], const sov_pose *X, const double world[3]) {
  const double d[3] = {world[0] - X->p[0], world[1] - X->p[1], world[2] - X->p[2]};
  sovc_rotate_t(local, X->R, d);
}

/* world = R local + p. */
void sovc_to_world(double world[3], const sov_pose *X, const double local[3]) {
  sovc_rotate(world, X->R, local);
  world[0] += X->p[0];
  world[1] += X->p[1];
  world[2] += X->p[2];
}
