/* Fitted bodies near contact, with a reference built by construction: a
 * battery nobody shipped. Reads every <sov:superovoid .../> element of a
 * URDF (a fitted robot from sov-urdf-fit or benchmarks/robots), draws pairs
 * of them (with repetition) turned at random about one centre, where they
 * overlap, solves each pair, then moves B out along the answer's normal n
 * by t > 0 so that the gap becomes g (g random, log-uniform in [1e-9, 1e-3]
 * of the pair's size, either sign): moving B by t >= 0 along the optimal
 * normal raises d by exactly t (along any other direction v the objective
 * gains t v.n <= t), so the moved pair's d is g. Counts the moved pairs
 * refused (SOV_ERR_NO_CONVERGENCE) and those answered off g by more than
 * 1e-9 of the pair's size (the sum of the bodies' bounding radii). Usage:
 *   sov_bench_near_contact FITTED.urdf [--pairs N] [--seed S]
 * Exit status 1 if any answer is off, 2 on bad arguments or input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_random.h"
#include "superovoid/superovoid.h"

enum { kMaxBodies = 4096 };

typedef struct body {
  sov_shape shape;
  double radius;
} body;

static unsigned long long rng_state;
static double uniform(double lo, double hi) {
  return bench_uniform(&rng_state, lo, hi);
}

/* The value of attribute name="..." inside the element text e, or NAN. */
static double attribute(const char *e, const char *end, const char *name) {
  const size_t n = strlen(name);
  for (const char *p = e; p && p < end; p = strstr(p + 1, name))
    if ((p == e || p[-1] == ' ' || p[-1] == '\t' || p[-1] == '\n') && !strncmp(p + n, "=\"", 2))
      return strtod(p + n + 2, NULL);
  return NAN;
}

/* Reads the URDF's superovoids into b; returns their number, -1 on error. */
static int read_bodies(const char *path, body *b) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  fseek(f, 0, SEEK_END);
  const long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = size > 0 ? malloc((size_t)size + 1) : NULL;
  const int ok = text && fread(text, 1, (size_t)size, f) == (size_t)size;
  fclose(f);
  if (!ok) return free(text), -1;
  text[size] = 0;
  static const char *names[7] = {"a1", "a2", "a3", "eps1", "eps2", "taper_x", "taper_y"};
  int n = 0;
  for (const char *e = strstr(text, "<sov:superovoid"); e && n < kMaxBodies;
       e = strstr(e + 1, "<sov:superovoid")) {
    const char *end = strchr(e, '>');
    if (!end) break;
    double p[7];
    for (int i = 0; i < 7; ++i) p[i] = attribute(e, end, names[i]);
    sov_shape_info info;
    if (sov_shape_init(&b[n].shape, p) != SOV_OK || sov_shape_get(&info, &b[n].shape) != SOV_OK) {
      fprintf(stderr, "%s: a <sov:superovoid> element the library refuses\n", path);
      return free(text), -1;
    }
    b[n++].radius = info.radius;
  }
  free(text);
  return n;
}

/* A uniformly random rotation at position p. */
static void random_pose(sov_pose *X, const double p[3]) {
  double q[4];
  bench_random_quat(&rng_state, q);
  sov_pose_from_quat(X, q, p);
}

typedef struct tally {
  long queries, refused, off, first_refused;
  double max_err;
} tally;

/* One pair: turned about one centre, solved, moved out to gap g, solved
 * again and checked. */
static void one_pair(tally *t, const body *a, const body *b) {
  const double size = a->radius + b->radius, zero[3] = {0, 0, 0};
  sov_pose XA, XB;
  random_pose(&XA, zero);
  random_pose(&XB, zero);
  sov_result r;
  if (sov_distance(&r, &a->shape, &XA, &b->shape, &XB, NULL, NULL) != SOV_OK) {
    ++t->first_refused;
    return;
  }
  /* Both hold the centre: d < 0 <= g + the depth, so B moves out. */
  const double g = (uniform(0, 1) < 0.5 ? -1 : 1) * pow(10, uniform(-9, -3)) * size;
  if (!(r.d < g)) {
    ++t->first_refused;
    return;
  }
  for (int i = 0; i < 3; ++i) XB.p[i] += (g - r.d) * r.n[i];
  ++t->queries;
  const int st = sov_distance(&r, &a->shape, &XA, &b->shape, &XB, NULL, NULL);
  if (st == SOV_ERR_NO_CONVERGENCE) {
    ++t->refused;
    return;
  }
  const double err = st == SOV_OK ? fabs(r.d - g) / size : INFINITY;
  if (err > t->max_err) t->max_err = err;
  t->off += !(err <= 1e-9);
}

int main(int argc, char **argv) {
  long pairs = 40000;
  rng_state = 20261128ULL;
  if (argc < 2) {
    fprintf(stderr, "usage: %s FITTED.urdf [--pairs N] [--seed S]\n", argv[0]);
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--pairs") && i + 1 < argc) {
      pairs = atol(argv[++i]);
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      rng_state = strtoull(argv[++i], NULL, 10);
    } else {
      fprintf(stderr, "usage: %s FITTED.urdf [--pairs N] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  static body bodies[kMaxBodies];
  const int n = read_bodies(argv[1], bodies);
  if (n <= 0 || pairs <= 0) {
    fprintf(stderr, "%s: no <sov:superovoid> bodies read, or --pairs not positive\n", argv[1]);
    return 2;
  }
  tally t = {0};
  for (long k = 0; k < pairs; ++k) {
    const int i = (int)uniform(0, n), j = (int)uniform(0, n);
    one_pair(&t, &bodies[i < n ? i : n - 1], &bodies[j < n ? j : n - 1]);
  }
  printf("%d bodies, %ld near-contact queries: refused %ld, off by more than 1e-9 of the size %ld "
         "(largest error %.2g of the size); placements refused or not overlapping %ld\n",
         n, t.queries, t.refused, t.off, t.max_err, t.first_refused);
  return t.off > 0;
}
