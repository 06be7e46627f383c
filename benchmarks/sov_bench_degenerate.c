/* Degenerate pairs (issue 29, item 4): identical bodies at one pose, bodies a
 * hair apart in pose, and continua of optima (parallel flat faces). Each
 * family counts the answers, the refusals (SOV_ERR_NO_CONVERGENCE), the
 * answers that contradict a check, and the slowest query (median of three
 * calls). The checks need
 * no reference solver:
 *   - identical bodies at one pose: d is minus the body's least width
 *     (SPEC: the smallest translation that separates them), so d must equal
 *     minus the width along the answer's own normal, and be no less than
 *     minus the width along any of a set of sampled directions;
 *   - a hair apart: the same bodies with B's pose moved by 1e-12 to 1e-3 of
 *     the size (translation and rotation); d is checked like the first
 *     family up to the motion's bound, and must not jump;
 *   - parallel faces: untapered box-like bodies (eps 0.1) aligned on one
 *     axis with a gap g (or an overlap) between flat faces: d = g exactly.
 * Usage: sov_bench_degenerate [--pairs N] [--seed S]
 * Exit status 1 if any answer fails its check, whatever the timing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_random.h"
#include "superovoid/superovoid.h"

#define SOV_PI 3.14159265358979323846

static unsigned long long rng_state;
static double uniform(double lo, double hi) {
  return bench_uniform(&rng_state, lo, hi);
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

/* sov_distance, cold, timed as the median of three calls: one call's time
 * on a shared host includes preemption. */
static int timed_distance(sov_result *r, double *us, const sov_shape *A, const sov_pose *XA,
                          const sov_shape *B, const sov_pose *XB) {
  double t[3];
  int st = SOV_OK;
  for (int k = 0; k < 3; ++k) {
    const double t0 = now_us();
    st = sov_distance(r, A, XA, B, XB, NULL, NULL);
    t[k] = now_us() - t0;
  }
  const double lo = fmin(t[0], fmin(t[1], t[2])), hi = fmax(t[0], fmax(t[1], t[2]));
  *us = t[0] + t[1] + t[2] - lo - hi;
  return st;
}

/* A random valid body: sizes 0.01-0.4, exponents 0.1-1.9, tapers up to
 * 0.6 scaled back to acceptance when they dent it. */
static void random_body(sov_shape *S, double p[7], int tapered) {
  for (;;) {
    for (int i = 0; i < 3; ++i) p[i] = uniform(0.01, 0.4);
    p[3] = uniform(0.1, 1.9);
    p[4] = uniform(0.1, 1.9);
    p[5] = tapered ? uniform(-0.6, 0.6) : 0;
    p[6] = tapered ? uniform(-0.6, 0.6) : 0;
    double s;
    if (sov_shape_max_taper_scale(&s, p) != SOV_OK) continue;
    p[5] *= s;
    p[6] *= s;
    if (sov_shape_init(S, p) == SOV_OK) return;
  }
}

static void random_pose(sov_pose *X) {
  double q[4], p[3];
  bench_random_quat(&rng_state, q);
  for (int i = 0; i < 3; ++i) p[i] = uniform(-1, 1);
  sov_pose_from_quat(X, q, p);
}

/* Width of S posed by X along the world unit direction u. */
static double width(const sov_shape *S, const sov_pose *X, const double u[3]) {
  double lu[3], lm[3], x[3], hp, hm;
  for (int i = 0; i < 3; ++i) {
    lu[i] = X->R[i] * u[0] + X->R[3 + i] * u[1] + X->R[6 + i] * u[2];
    lm[i] = -lu[i];
  }
  sov_shape_support(x, &hp, S, lu);
  sov_shape_support(x, &hm, S, lm);
  return hp + hm;
}

/* Minus the least width over sampled directions (a Fibonacci sphere): an
 * upper bound of the identical pair's true d. */
static double sampled_depth(const sov_shape *S, const sov_pose *X) {
  enum { kDirections = 2000 };
  double best = -INFINITY;
  for (int k = 0; k < kDirections; ++k) {
    const double z = 1 - (2 * k + 1.0) / kDirections, r = sqrt(1 - z * z);
    const double phi = k * SOV_PI * (3 - sqrt(5.0));
    const double u[3] = {r * cos(phi), r * sin(phi), z};
    best = fmax(best, -width(S, X, u));
  }
  return best;
}

typedef struct {
  const char *name;
  int pairs, answered, refused, wrong, over_ms;
  double max_us, max_err;
} family;

static void tally(family *f, int st, double us, double err, double tol) {
  ++f->pairs;
  if (us > f->max_us) f->max_us = us;
  if (us > 1000) ++f->over_ms;
  if (st == SOV_ERR_NO_CONVERGENCE) {
    ++f->refused;
    return;
  }
  if (st != SOV_OK) {
    ++f->wrong;
    return;
  }
  ++f->answered;
  if (err > f->max_err) f->max_err = err;
  if (!(err <= tol)) ++f->wrong;
}

/* Identical bodies, B's pose moved by `hair` of the size (0: one pose). */
static void identical(family *f, int pairs, double hair) {
  for (int k = 0; k < pairs; ++k) {
    sov_shape S;
    double p[7];
    random_body(&S, p, 1);
    sov_pose XA, XB;
    random_pose(&XA);
    XB = XA;
    sov_shape_info info;
    sov_shape_get(&info, &S);
    const double size = info.radius;
    if (hair > 0) {
      double q[4] = {1, uniform(-hair, hair), uniform(-hair, hair), uniform(-hair, hair)};
      const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
      for (int i = 0; i < 4; ++i) q[i] /= n;
      sov_pose dR;
      const double zero[3] = {0, 0, 0};
      sov_pose_from_quat(&dR, q, zero);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          double s = 0;
          for (int m = 0; m < 3; ++m) s += dR.R[3 * i + m] * XA.R[3 * m + j];
          XB.R[3 * i + j] = s;
        }
      for (int i = 0; i < 3; ++i) XB.p[i] += uniform(-hair, hair) * size;
    }
    sov_result r;
    double us;
    const int st = timed_distance(&r, &us, &S, &XA, &S, &XB);
    double err = 0;
    if (st == SOV_OK) {
      /* B moved by at most ~4 hair size (rotation about the centre and
       * translation): d moves by no more than twice that. */
      const double slack = 1e-9 * size + 8 * hair * size;
      const double own = -width(&S, &XA, r.n), sampled = sampled_depth(&S, &XA);
      err = fmax(fabs(r.d - own) - slack, sampled - r.d - slack);
      err = fmax(err, 0) / size;
    }
    tally(f, st, us, err, 1e-9);
  }
}

/* Untapered box-like bodies stacked along a common axis with a gap (or an
 * overlap) between their flat faces, turned together by a random rotation. */
static void parallel_faces(family *f, int pairs) {
  for (int k = 0; k < pairs; ++k) {
    double pa[7], pb[7];
    sov_shape A, B;
    random_body(&A, pa, 0);
    random_body(&B, pb, 0);
    pa[3] = pa[4] = pb[3] = pb[4] = 0.1;
    sov_shape_init(&A, pa);
    sov_shape_init(&B, pb);
    const double size = fmax(fmax(pa[0], pa[1]), pa[2]) + fmax(fmax(pb[0], pb[1]), pb[2]);
    double least = pa[0];
    for (int i = 0; i < 3; ++i) least = fmin(least, fmin(pa[i], pb[i]));
    /* Small against every semi-axis: the axis stays the deepest direction. */
    const double gap = uniform(-0.05, 0.05) * least;
    double q[4];
    bench_random_quat(&rng_state, q);
    const double c[3] = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
    sov_pose XA, XB;
    sov_pose_from_quat(&XA, q, c);
    double pB[3];
    for (int i = 0; i < 3; ++i) pB[i] = c[i] + XA.R[3 * i + 2] * (pa[2] + pb[2] + gap);
    sov_pose_from_quat(&XB, q, pB);
    sov_result r;
    double us;
    const int st = timed_distance(&r, &us, &A, &XA, &B, &XB);
    tally(f, st, us, st == SOV_OK ? fabs(r.d - gap) / size : 0, 1e-9);
  }
}

int main(int argc, char **argv) {
  int pairs = 1500;
  unsigned long long seed = 29;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--pairs") && i + 1 < argc) {
      pairs = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 10);
    } else {
      fprintf(stderr, "usage: %s [--pairs N] [--seed S]\n", argv[0]);
      return 2;
    }
  }
  if (pairs <= 0) {
    fprintf(stderr, "--pairs must be positive\n");
    return 2;
  }
  rng_state = seed;
  family fam[6] = {{"identical, one pose", 0, 0, 0, 0, 0, 0, 0},
                   {"identical, 1e-12 apart", 0, 0, 0, 0, 0, 0, 0},
                   {"identical, 1e-9 apart", 0, 0, 0, 0, 0, 0, 0},
                   {"identical, 1e-6 apart", 0, 0, 0, 0, 0, 0, 0},
                   {"identical, 1e-3 apart", 0, 0, 0, 0, 0, 0, 0},
                   {"parallel flat faces", 0, 0, 0, 0, 0, 0, 0}};
  identical(&fam[0], pairs, 0);
  identical(&fam[1], pairs, 1e-12);
  identical(&fam[2], pairs, 1e-9);
  identical(&fam[3], pairs, 1e-6);
  identical(&fam[4], pairs, 1e-3);
  parallel_faces(&fam[5], pairs);
  int wrong = 0;
  printf("%-24s %6s %8s %7s %6s %11s %7s %12s\n", "family", "pairs", "answered", "refused",
         "wrong", "max time us", "> 1 ms", "max err/size");
  for (int i = 0; i < 6; ++i) {
    const family *f = &fam[i];
    printf("%-24s %6d %8d %7d %6d %11.1f %7d %12.2g\n", f->name, f->pairs, f->answered, f->refused,
           f->wrong, f->max_us, f->over_ms, f->max_err);
    wrong += f->wrong;
  }
  return wrong ? 1 : 0;
}
