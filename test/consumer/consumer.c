/* Install-test consumer: includes the installed header, links the installed
 * library and runs one query whose answer is known in closed form. Exits
 * nonzero on any failure. */
#include <stdio.h>
#include <string.h>

#include <superovoid/superovoid.h>

/* Absolute value without libm. */
static double abs_value(double x) { return x < 0.0 ? -x : x; }

/* Two unit spheres 3 apart along x: d = 1, n = +x. */
int main(void) {
  const double sphere[7] = {1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0};
  const double q[4] = {1.0, 0.0, 0.0, 0.0};
  const double pa[3] = {0.0, 0.0, 0.0};
  const double pb[3] = {3.0, 0.0, 0.0};
  char expected[32];
  sov_shape A, B;
  sov_pose XA, XB;
  sov_result r;
  int status;

  snprintf(expected, sizeof expected, "%d.%d.%d", SOV_VERSION_MAJOR,
           SOV_VERSION_MINOR, SOV_VERSION_PATCH);
  if (strcmp(sov_version(), expected) != 0) {
    fprintf(stderr, "header %s, library %s\n", expected, sov_version());
    return 1;
  }
  status = sov_shape_init(&A, sphere);
  if (status == SOV_OK) status = sov_shape_init(&B, sphere);
  if (status == SOV_OK) status = sov_pose_from_quat(&XA, q, pa);
  if (status == SOV_OK) status = sov_pose_from_quat(&XB, q, pb);
  if (status == SOV_OK) status = sov_distance(&r, &A, &XA, &B, &XB, NULL, NULL);
  if (status != SOV_OK) {
    fprintf(stderr, "status %d: %s\n", status, sov_status_string(status));
    return 1;
  }
  if (abs_value(r.d - 1.0) > 1e-9 || abs_value(r.n[0] - 1.0) > 1e-9) {
    fprintf(stderr, "unit spheres 3 apart: d = %.17g, n = (%g %g %g)\n", r.d,
            r.n[0], r.n[1], r.n[2]);
    return 1;
  }
  printf("superovoid %s: d = %.12f (%s)\n", sov_version(), r.d,
         sov_method_name(r.method));
  return 0;
}
