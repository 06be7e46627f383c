/* sov_demo: signed distance between superovoids through the public C API.
 *
 * Builds a few shapes (sphere, ellipsoid, superellipsoid, tapered superovoid,
 * a near-cube), poses them with quaternions, queries separated, touching and
 * overlapping pairs, shows how an invalid (non-convex) shape is reported, and
 * moves one body through another with a warm-start cache. Every status is
 * checked and printed; the program never aborts. */
#define _POSIX_C_SOURCE 199309L

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <superovoid/superovoid.h>

#define DEMO_TIMING_REPEATS 50
#define DEMO_SWEEP_STEPS 13

/* A named shape with its seven parameters and, once valid, its sov_shape. */
typedef struct demo_body {
  const char *name;
  double params[7]; /* a1 a2 a3 eps1 eps2 taper_x taper_y */
  sov_shape shape;
  int ok;
} demo_body;

/* Seconds on a monotonic clock. */
static double demo_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Unit quaternion (w x y z) for a rotation of angle (rad) about axis. */
static void demo_quat(double q[4], const double axis[3], double angle) {
  double len = sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  double s = sin(0.5 * angle) / (len > 0.0 ? len : 1.0);
  q[0] = cos(0.5 * angle);
  q[1] = s * axis[0];
  q[2] = s * axis[1];
  q[3] = s * axis[2];
}

/* Pose from axis, angle and position; prints and returns the status. */
static int demo_pose(sov_pose *X, const double axis[3], double angle,
                     const double p[3]) {
  double q[4];
  int status;
  demo_quat(q, axis, angle);
  status = sov_pose_from_quat(X, q, p);
  if (status != SOV_OK)
    printf("  pose: %s\n", sov_status_string(status));
  return status;
}

/* Validate a body's parameters; on failure print why. Returns the status. */
static int demo_body_init(demo_body *body) {
  char why[256];
  int status = sov_shape_init(&body->shape, body->params);
  body->ok = (status == SOV_OK);
  if (!body->ok) {
    sov_shape_explain(why, sizeof why, body->params);
    printf("  %-16s rejected: %s\n    %s\n", body->name,
           sov_status_string(status), why);
  }
  return status;
}

/* Name of the method that answered, never NULL. */
static const char *demo_method(sov_method method) {
  const char *name = sov_method_name(method);
  return name ? name : "?";
}

/* Print the table header for distance queries. */
static void demo_table_header(void) {
  printf("%-34s %13s  %-24s %-24s %-24s %5s %-10s %9s\n", "pair", "d",
         "n (A to B)", "pA", "pB", "iter", "method", "time/us");
}

/* Print one vector as a fixed-width triple. */
static void demo_print_vec(const double v[3]) {
  printf("(%6.3f %6.3f %6.3f)   ", v[0], v[1], v[2]);
}

/* Query A-B once for the answer, then DEMO_TIMING_REPEATS more times for
 * the mean time; print one table row. Returns the query status. */
static int demo_query(sov_result *r, const char *label, const demo_body *A,
                      const sov_pose *XA, const demo_body *B,
                      const sov_pose *XB) {
  double t0, elapsed;
  int i, status;
  if (!A->ok || !B->ok) {
    printf("%-34s skipped: a shape is invalid\n", label);
    return SOV_ERR_NULL;
  }
  status = sov_distance(r, &A->shape, XA, &B->shape, XB, NULL, NULL);
  if (status != SOV_OK) {
    printf("%-34s error %d: %s\n", label, status, sov_status_string(status));
    return status;
  }
  t0 = demo_now();
  for (i = 0; i < DEMO_TIMING_REPEATS; ++i) {
    sov_result scratch;
    sov_distance(&scratch, &A->shape, XA, &B->shape, XB, NULL, NULL);
  }
  elapsed = (demo_now() - t0) / DEMO_TIMING_REPEATS;
  printf("%-34s %+13.9f  ", label, r->d);
  demo_print_vec(r->n);
  demo_print_vec(r->pA);
  demo_print_vec(r->pB);
  printf("%3d   %-10s %9.1f\n", r->iterations, demo_method(r->method),
         1e6 * elapsed);
  return SOV_OK;
}

/* Separated, touching and overlapping pairs among the five demo bodies. */
static void demo_pairs(const demo_body *bodies) {
  const demo_body *sphere = &bodies[0], *ellipsoid = &bodies[1];
  const demo_body *superell = &bodies[2], *tapered = &bodies[3];
  const demo_body *cube = &bodies[4];
  const double z[3] = {0, 0, 1}, x[3] = {1, 0, 0}, d111[3] = {1, 1, 1};
  const double o[3] = {0, 0, 0}, p1[3] = {1.6, 0.3, 0.1};
  const double p2[3] = {1.0, 0.0, 0.0}, p3[3] = {0.7, 0.2, -0.1};
  const double p4[3] = {0.4, 1.3, 0.5}, p5[3] = {0.6, 0.1, 0.0};
  double p6[3];
  sov_pose X0, X1, X2, X3, X4, X5, X6;
  sov_result r;
  int k;

  printf("\nDistance queries (AUTO method, cold start; time is the mean of %d"
         " repeats)\n", DEMO_TIMING_REPEATS);
  demo_table_header();
  if (demo_pose(&X0, z, 0.0, o) || demo_pose(&X1, d111, 0.7, p1) ||
      demo_pose(&X2, z, 0.0, p2) || demo_pose(&X3, x, 0.4, p3) ||
      demo_pose(&X4, d111, 1.1, p4) || demo_pose(&X5, z, 0.5, p5))
    return;
  demo_query(&r, "sphere | ellipsoid      (apart)", sphere, &X0, ellipsoid,
             &X1);
  demo_query(&r, "sphere | sphere         (touch)", sphere, &X0, sphere, &X2);
  demo_query(&r, "ellipsoid | superell.   (overlap)", ellipsoid, &X0,
             superell, &X3);
  if (demo_query(&r, "tapered | cube-like    (apart)", tapered, &X0, cube,
                 &X4) == SOV_OK) {
    /* Slide B back along -n by d: the bodies then just touch. */
    for (k = 0; k < 3; ++k) p6[k] = p4[k] - r.d * r.n[k];
    if (demo_pose(&X6, d111, 1.1, p6) == SOV_OK)
      demo_query(&r, "tapered | cube-like    (touch)", tapered, &X0, cube,
                 &X6);
  }
  demo_query(&r, "cube-like | cube-like  (overlap)", cube, &X0, cube, &X5);
  demo_query(&r, "tapered | superell.    (overlap)", tapered, &X0, superell,
             &X3);
}

/* A tapered body too tapered for its profile: rejected, with the reason and
 * the largest convex taper scale. */
static void demo_invalid_shape(void) {
  demo_body bad = {.name = "over-tapered",
                   .params = {0.5, 0.5, 0.8, 1.0, 1.9, 0.5, 0.5}};
  double scale = 0.0;
  int status;
  printf("\nInvalid shape (eps2 = 1.9 allows |taper| up to about 0.1)\n");
  if (demo_body_init(&bad) == SOV_OK) {
    printf("  unexpectedly accepted\n");
    return;
  }
  status = sov_shape_max_taper_scale(&scale, bad.params);
  if (status == SOV_OK)
    printf("    largest convex taper scale: %.4f (taper %.4f)\n", scale,
           scale * bad.params[5]);
  else
    printf("    max taper scale: %s\n", sov_status_string(status));
}

/* Move the ellipsoid straight through the cube-like body, warm-starting each
 * query from the previous one, and compare with cold-start iterations. */
static void demo_sweep(const demo_body *cube, const demo_body *ellipsoid) {
  const double z[3] = {0, 0, 1}, tilt[3] = {0, 1, 1}, o[3] = {0, 0, 0};
  sov_cache cache;
  sov_pose XA, XB;
  sov_result warm, cold;
  int step, sw, sc;

  printf("\nWarm-started sweep: ellipsoid moving through the cube-like body\n");
  if (!cube->ok || !ellipsoid->ok || demo_pose(&XA, z, 0.3, o) != SOV_OK) {
    printf("  skipped\n");
    return;
  }
  sov_cache_reset(&cache);
  printf("%5s %8s %13s %10s %10s %-10s\n", "step", "x", "d", "iter warm",
         "iter cold", "method");
  for (step = 0; step < DEMO_SWEEP_STEPS; ++step) {
    double x = -1.8 + 3.6 * step / (DEMO_SWEEP_STEPS - 1);
    double p[3] = {x, 0.15, 0.05};
    if (demo_pose(&XB, tilt, 0.2 * step, p) != SOV_OK) return;
    sw = sov_distance(&warm, &cube->shape, &XA, &ellipsoid->shape, &XB, NULL,
                      &cache);
    sc = sov_distance(&cold, &cube->shape, &XA, &ellipsoid->shape, &XB, NULL,
                      NULL);
    if (sw != SOV_OK || sc != SOV_OK) {
      printf("%5d %8.3f  warm: %s; cold: %s\n", step, x,
             sov_status_string(sw), sov_status_string(sc));
      sov_cache_reset(&cache);
      continue;
    }
    printf("%5d %8.3f %+13.9f %10d %10d %-10s\n", step, x, warm.d,
           warm.iterations, cold.iterations, demo_method(warm.method));
  }
}

/* Build the bodies and run the three parts of the demo. */
int main(void) {
  demo_body bodies[5] = {
      {.name = "sphere", .params = {0.5, 0.5, 0.5, 1.0, 1.0, 0.0, 0.0}},
      {.name = "ellipsoid", .params = {0.8, 0.5, 0.3, 1.0, 1.0, 0.0, 0.0}},
      {.name = "superellipsoid", .params = {0.6, 0.4, 0.5, 0.5, 1.5, 0.0, 0.0}},
      {.name = "tapered", .params = {0.5, 0.4, 0.7, 0.8, 1.0, 0.3, 0.3}},
      {.name = "cube-like", .params = {0.4, 0.4, 0.4, 0.1, 0.1, 0.0, 0.0}},
  };
  int i;

  printf("superovoid %s\n\nShapes (a1 a2 a3 eps1 eps2 taper_x taper_y)\n",
         sov_version());
  for (i = 0; i < 5; ++i) {
    const double *v = bodies[i].params;
    printf("  %-16s %4.2f %4.2f %4.2f  %4.2f %4.2f  %+5.2f %+5.2f\n",
           bodies[i].name, v[0], v[1], v[2], v[3], v[4], v[5], v[6]);
    demo_body_init(&bodies[i]);
  }
  demo_pairs(bodies);
  demo_invalid_shape();
  demo_sweep(&bodies[4], &bodies[1]);
  return 0;
}
