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
 *   sov_bench_near_contact FITTED.urdf [--pairs N] [--seed S] [--refused PREFIX]
 * --refused writes the refused moved pairs as a battery, PREFIX.csv (SPEC's
 * rows, ids from 1) and PREFIX.ref.csv (d = g; n and the witnesses of the
 * placement's answer, B's moved with it). Exit status 1 if any answer is
 * off, 2 on bad arguments or input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_random.h"
#include "superovoid/superovoid.h"

enum { kMaxBodies = 4096 };

typedef struct body {
  sov_shape shape;
  double params[7];
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
    memcpy(b[n].params, p, sizeof p);
    b[n++].radius = info.radius;
  }
  free(text);
  return n;
}

/* A uniformly random rotation q at position p. */
static void random_pose(sov_pose *X, double q[4], const double p[3]) {
  bench_random_quat(&rng_state, q);
  sov_pose_from_quat(X, q, p);
}

typedef struct tally {
  long queries, refused, off, first_refused;
  double max_err;
  FILE *rows, *refs; /* --refused: the battery of refused pairs, or NULL */
} tally;

/* One body's battery columns: parameters, quaternion, position. */
static void write_body(FILE *f, const body *b, const double q[4], const double p[3]) {
  for (int i = 0; i < 7; ++i) fprintf(f, ",%.17g", b->params[i]);
  for (int i = 0; i < 4; ++i) fprintf(f, ",%.17g", q[i]);
  for (int i = 0; i < 3; ++i) fprintf(f, ",%.17g", p[i]);
}

/* A refused moved pair as a battery row and its reference: d = g, the
 * placement's normal and witnesses (B's moved by t along n). */
static void write_refused(const tally *t, const body *a, const body *b, const double qA[4],
                          const double qB[4], const sov_pose *XA, const sov_pose *XB,
                          const sov_result *placed, double g, double move) {
  if (!t->rows) return;
  fprintf(t->rows, "%ld", t->refused);
  write_body(t->rows, a, qA, XA->p);
  write_body(t->rows, b, qB, XB->p);
  fprintf(t->rows, "\n");
  fprintf(t->refs, "%ld,%.17g", t->refused, g);
  for (int i = 0; i < 3; ++i) fprintf(t->refs, ",%.17g", placed->n[i]);
  for (int i = 0; i < 3; ++i) fprintf(t->refs, ",%.17g", placed->pA[i]);
  for (int i = 0; i < 3; ++i) fprintf(t->refs, ",%.17g", placed->pB[i] + move * placed->n[i]);
  fprintf(t->refs, "\n");
}

/* One pair: turned about one centre, solved, moved out to gap g, solved
 * again and checked. */
static void one_pair(tally *t, const body *a, const body *b) {
  const double size = a->radius + b->radius, zero[3] = {0, 0, 0};
  sov_pose XA, XB;
  double qA[4], qB[4];
  random_pose(&XA, qA, zero);
  random_pose(&XB, qB, zero);
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
  const sov_result placed = r;
  const double move = g - r.d;
  for (int i = 0; i < 3; ++i) XB.p[i] += move * r.n[i];
  ++t->queries;
  const int st = sov_distance(&r, &a->shape, &XA, &b->shape, &XB, NULL, NULL);
  if (st == SOV_ERR_NO_CONVERGENCE) {
    ++t->refused;
    write_refused(t, a, b, qA, qB, &XA, &XB, &placed, g, move);
    return;
  }
  const double err = st == SOV_OK ? fabs(r.d - g) / size : INFINITY;
  if (err > t->max_err) t->max_err = err;
  t->off += !(err <= 1e-9);
}

/* Opens PREFIX.csv and PREFIX.ref.csv with their header lines; 0 on error. */
static int open_refused(tally *t, const char *prefix) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s.ref.csv", prefix) >= (int)sizeof path) return 0;
  t->refs = fopen(path, "w");
  snprintf(path, sizeof path, "%s.csv", prefix);
  t->rows = fopen(path, "w");
  if (!t->rows || !t->refs) {
    if (t->rows) fclose(t->rows);
    if (t->refs) fclose(t->refs);
    t->rows = t->refs = NULL;
    return 0;
  }
  fprintf(t->rows, "id");
  for (int b = 1; b <= 2; ++b)
    fprintf(t->rows,
            ",a1_%d,a2_%d,a3_%d,eps1_%d,eps2_%d,taper_x_%d,taper_y_%d,qw_%d,qx_%d,qy_%d,qz_%d,"
            "px_%d,py_%d,pz_%d",
            b, b, b, b, b, b, b, b, b, b, b, b, b, b);
  fprintf(t->rows, "\n");
  fprintf(t->refs, "id,d,nx,ny,nz,pAx,pAy,pAz,pBx,pBy,pBz\n");
  return 1;
}

static const char kUsage[] = "usage: %s FITTED.urdf [--pairs N] [--seed S] [--refused PREFIX]\n";

int main(int argc, char **argv) {
  long pairs = 40000;
  const char *refused = NULL;
  rng_state = 20261128ULL;
  if (argc < 2) {
    fprintf(stderr, kUsage, argv[0]);
    return 2;
  }
  for (int i = 2; i < argc; ++i) {
    if (!strcmp(argv[i], "--pairs") && i + 1 < argc) {
      pairs = atol(argv[++i]);
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      rng_state = strtoull(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "--refused") && i + 1 < argc) {
      refused = argv[++i];
    } else {
      fprintf(stderr, kUsage, argv[0]);
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
  if (refused && !open_refused(&t, refused)) {
    fprintf(stderr, "%s: cannot write %s.csv and %s.ref.csv\n", argv[0], refused, refused);
    return 2;
  }
  for (long k = 0; k < pairs; ++k) {
    const int i = (int)uniform(0, n), j = (int)uniform(0, n);
    one_pair(&t, &bodies[i < n ? i : n - 1], &bodies[j < n ? j : n - 1]);
  }
  /* A battery cut short by a failed write must not pass for a whole one. */
  const int written =
      !t.rows || (!ferror(t.rows) && !ferror(t.refs) && !fclose(t.rows) && !fclose(t.refs));
  if (!written) {
    fprintf(stderr, "%s: writing %s.csv or %s.ref.csv failed\n", argv[0], refused, refused);
    return 2;
  }
  printf("%d bodies, %ld near-contact queries: refused %ld, off by more than 1e-9 of the size %ld "
         "(largest error %.2g of the size); placements refused or not overlapping %ld\n",
         n, t.queries, t.refused, t.off, t.max_err, t.first_refused);
  return t.off > 0;
}
