/* sov_bench_support: time the support mapping of tapered superovoids
 * (solver/support.c), class by class: moderate (every eps in [0.3, 1.7]),
 * box-like (an eps below 0.2), diamond-like (an eps above 1.8) and dented
 * (accepted bodies with a dent deeper than SOVC_DENT_NEGLECT). Random
 * convex tapered shapes of each class, random directions, and three hints:
 * none (NaN), near (the support height of a direction 1e-2 away, as in a
 * Newton loop) and far (the height of an unrelated direction).
 *
 *   sov_bench_support [--shapes N] [--dirs D] [--repeat R] [--class NAME]
 *                     [--dump FILE]
 *
 * Prints the fastest and the median of R timed passes, in ns per support, for each class and
 * hint; --dump writes every support value and point (%a) so that two builds
 * can be compared answer by answer; --class times one class only. To count
 * exp/log calls per support, run one class under valgrind --tool=callgrind
 * --toggle-collect=time_pass with --repeat 1. Not a ctest test. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "solver/shape_init.h"
#include "solver/support.h"

enum { kClasses = 4, kHints = 3, kMaxRepeat = 1001, kMaxTries = 100000 };

static const char *const kClassNames[kClasses] = {"moderate", "box", "diamond", "dented"};
static const char *const kHintNames[kHints] = {"none", "near", "far"};
/* Angle between a near hint's direction and the timed one. */
static const double kNearAngle = 1e-2;

/* splitmix64 state of the benchmark's random numbers. */
typedef struct bench_rng {
  uint64_t s;
} bench_rng;

/* Next uniform number in [lo, hi). */
static double uniform(bench_rng *r, double lo, double hi) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) * 0x1.0p-53;
}

/* Standard normal number (Box-Muller). */
static double normal(bench_rng *r) {
  const double u = uniform(r, 1e-300, 1), v = uniform(r, 0, 1);
  return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}

/* Class of an accepted tapered shape (dented first). */
static int shape_class(const sovc_shape *s) {
  if (s->dent > SOVC_DENT_NEGLECT) return 3;
  if (fmin(s->eps1, s->eps2) < 0.2) return 1;
  if (fmax(s->eps1, s->eps2) > 1.8) return 2;
  return 0;
}

/* One exponent drawn for class c: box- and diamond-like classes draw one of
 * the two from their band half the time each, the other from [0.1, 1.9]. */
static void draw_exponents(double e[2], bench_rng *r, int c) {
  const double band[kClasses][2] = {{0.3, 1.7}, {0.1, 0.2}, {1.8, 1.9}, {0.1, 0.99}};
  const int which = uniform(r, 0, 1) < 0.5;
  for (int i = 0; i < 2; ++i) e[i] = uniform(r, 0.1, 1.9);
  if (c == 0) e[0] = uniform(r, 0.3, 1.7), e[1] = uniform(r, 0.3, 1.7);
  else if (c == 3) e[1] = uniform(r, band[3][0], band[3][1]);
  else e[which] = uniform(r, band[c][0], band[c][1]);
}

/* A random accepted tapered shape of class c (equal tapers half the time
 * outside the dented class); returns 0 if none was found. */
static int random_shape(sovc_shape *s, bench_rng *r, int c) {
  for (int tries = 0; tries < kMaxTries; ++tries) {
    double e[2];
    draw_exponents(e, r, c);
    const double tmax = c == 3 ? 0.6 : 0.5;
    const double tx = uniform(r, -tmax, tmax);
    const double ty = (c != 3 && uniform(r, 0, 1) < 0.5) ? tx : uniform(r, -tmax, tmax);
    const double p[7] = {uniform(r, 0.05, 2), uniform(r, 0.05, 2), uniform(r, 0.05, 2), e[0], e[1],
                         tx, ty};
    if (sovc_shape_init(s, p) == SOV_OK && shape_class(s) == c && (tx != 0 || ty != 0)) return 1;
  }
  return 0;
}

/* A random direction d, and d turned by about `angle` into dn. */
static void random_directions(double d[3], double dn[3], bench_rng *r, double angle) {
  for (int i = 0; i < 3; ++i) d[i] = normal(r);
  const double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  for (int i = 0; i < 3; ++i) d[i] /= n, dn[i] = d[i] + angle * normal(r) / sqrt(3.0);
}

/* The calls of one class: shapes, directions and hints per hint kind. */
typedef struct bench_case {
  sovc_shape *shape; /* per call */
  double (*dir)[3];
  double *hint[kHints];
  size_t n;
} bench_case;

/* Fills the calls of class c: every shape gets `dirs` directions. */
static int make_case(bench_case *bc, bench_rng *r, int c, int shapes, int dirs) {
  bc->n = (size_t)shapes * (size_t)dirs;
  bc->shape = malloc(bc->n * sizeof *bc->shape);
  bc->dir = malloc(bc->n * sizeof *bc->dir);
  for (int h = 0; h < kHints; ++h) bc->hint[h] = malloc(bc->n * sizeof(double));
  if (!bc->shape || !bc->dir || !bc->hint[0] || !bc->hint[1] || !bc->hint[2]) return 0;
  for (int k = 0; k < shapes; ++k) {
    sovc_shape s;
    if (!random_shape(&s, r, c)) return 0;
    for (int j = 0; j < dirs; ++j) {
      const size_t i = (size_t)k * (size_t)dirs + (size_t)j;
      double dn[3], df[3], x[3];
      random_directions(bc->dir[i], dn, r, kNearAngle);
      random_directions(df, x, r, 0);
      bc->shape[i] = s;
      bc->hint[0][i] = NAN;
      sovc_support(x, &s, dn, NAN);
      bc->hint[1][i] = x[2] / s.a[2];
      sovc_support(x, &s, df, NAN);
      bc->hint[2][i] = x[2] / s.a[2];
    }
  }
  return 1;
}

/* Wall time of one pass over a case's calls with hint kind h, in ns;
 * *sum collects the values so that the calls cannot be dropped. */
static double time_pass(const bench_case *bc, int h, double *sum) {
  struct timespec t0, t1;
  double acc = 0, x[3];
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (size_t i = 0; i < bc->n; ++i) acc += sovc_support(x, &bc->shape[i], bc->dir[i], bc->hint[h][i]);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  *sum += acc;
  return (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
}

/* Ascending order of doubles, for qsort. */
static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Fastest and median ns per support over `repeat` passes of every hint
 * kind of a case, the kinds interleaved pass by pass (on a shared machine
 * the fastest pass is the steadiest measure). */
static void time_case(double fast[kHints], double median[kHints], const bench_case *bc, int repeat,
                      double *sum) {
  double t[kHints][kMaxRepeat];
  for (int k = 0; k < repeat; ++k)
    for (int h = 0; h < kHints; ++h) t[h][k] = time_pass(bc, h, sum) / (double)bc->n;
  for (int h = 0; h < kHints; ++h) {
    qsort(t[h], (size_t)repeat, sizeof(double), cmp_double);
    fast[h] = t[h][0];
    median[h] = t[h][repeat / 2];
  }
}

/* Writes every call's value and point (hex floats) to f. */
static void dump_case(FILE *f, const bench_case *bc, int c) {
  for (int h = 0; h < kHints; ++h)
    for (size_t i = 0; i < bc->n; ++i) {
      double x[3];
      const double v = sovc_support(x, &bc->shape[i], bc->dir[i], bc->hint[h][i]);
      fprintf(f, "%d %d %zu %a %a %a %a\n", c, h, i, v, x[0], x[1], x[2]);
    }
}

/* Command line. */
typedef struct bench_args {
  int shapes, dirs, repeat;
  int only; /* class index, or -1 for all */
  const char *dump;
} bench_args;

/* Parses the options; returns 0 on a usage error. */
static int parse(bench_args *a, int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc) return 0;
    const char *opt = argv[i], *val = argv[++i];
    if (strcmp(opt, "--shapes") == 0) a->shapes = atoi(val);
    else if (strcmp(opt, "--dirs") == 0) a->dirs = atoi(val);
    else if (strcmp(opt, "--repeat") == 0) a->repeat = atoi(val);
    else if (strcmp(opt, "--dump") == 0) a->dump = val;
    else if (strcmp(opt, "--class") == 0) {
      a->only = kClasses;
      for (int c = 0; c < kClasses; ++c)
        if (strcmp(val, kClassNames[c]) == 0) a->only = c;
      if (a->only == kClasses) return 0;
    } else return 0;
  }
  return a->shapes > 0 && a->dirs > 0 && a->repeat > 0 && a->repeat <= kMaxRepeat;
}

/* Builds the cases, times them and prints the table. */
int main(int argc, char **argv) {
  bench_args a = {40, 200, 11, -1, NULL};
  if (!parse(&a, argc, argv)) {
    fprintf(stderr,
            "usage: sov_bench_support [--shapes N] [--dirs D] [--repeat R<=%d]\n"
            "                         [--class moderate|box|diamond|dented] [--dump FILE]\n",
            kMaxRepeat);
    return 2;
  }
  FILE *df = a.dump ? fopen(a.dump, "w") : NULL;
  if (a.dump && !df) return 1;
  bench_rng rng = {0x5eed5099f1ull};
  double sum = 0;
  printf("ns per tapered support, fastest (median) of %d passes, %d shapes x %d directions\n",
         a.repeat, a.shapes, a.dirs);
  printf("%-9s %17s %17s %17s\n", "class", kHintNames[0], kHintNames[1], kHintNames[2]);
  for (int c = 0; c < kClasses; ++c) {
    bench_case bc; /* drawn for every class: --class times the same calls */
    if (!make_case(&bc, &rng, c, a.shapes, a.dirs)) return 1;
    if (a.only < 0 || a.only == c) {
      double fast[kHints], median[kHints];
      time_case(fast, median, &bc, a.repeat, &sum);
      printf("%-9s", kClassNames[c]);
      for (int h = 0; h < kHints; ++h) printf(" %7.1f (%7.1f)", fast[h], median[h]);
      printf("\n");
      if (df) dump_case(df, &bc, c);
    }
    free(bc.shape);
    free(bc.dir);
    for (int h = 0; h < kHints; ++h) free(bc.hint[h]);
  }
  printf("checksum %.17g\n", sum);
  if (df) fclose(df);
  return 0;
}
