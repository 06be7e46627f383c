/* sov_battery: time and check the distance (or collide) query over a battery
 * CSV (SPEC "Battery files"), writing one result row per pair and printing a
 * summary; compares with FILE.ref.csv when it lies beside the input.
 * Public API only. A measurement: it exits 0 even when pairs fail, and
 * non-zero only on usage (2) or I/O (1) errors. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "superovoid/superovoid.h"

enum {
  kBodyColumns = 14,                  /* a1 a2 a3 eps1 eps2 tx ty qw qx qy qz px py pz */
  kPairColumns = 1 + 2 * kBodyColumns, /* id, body 1, body 2 */
  kRefColumns = 11,                   /* id d nx ny nz pA pB */
  kMaxRepeat = 1000000,
  kExitIo = 1,
  kExitUsage = 2
};

/* Accuracy thresholds of the summary (SPEC "Accuracy" and the seed papers). */
static const double kTightTol = 1e-9;
static const double kLooseTol = 1e-6;
/* --warm: size of the random rigid motion applied to both poses. */
static const double kWarmAngle = 1e-3;
static const double kWarmShift = 1e-3;
static const uint64_t kRngSeed = 0x5eedba77e41ull;

/* Command line. */
typedef struct bat_args {
  const char *in;
  const char *out;
  sov_options options;
  int repeat;
  int warm;
  int collide;
} bat_args;

/* A table of numbers read from a CSV: rows x cols, id in column 0. */
typedef struct bat_table {
  double *v;
  size_t rows;
  size_t cols;
} bat_table;

/* What one pair produced. */
typedef struct bat_row {
  long id;
  int status;
  sov_result r;
  int colliding;
  int64_t time_ns;
  int timed;      /* 1 when time_ns was measured */
  double d_check; /* reference d (or, with --warm, cold auto d of the moved pair) */
} bat_row;

/* Prints the usage text. */
static void print_usage(FILE *f) {
  fprintf(f,
          "usage: sov_battery --in FILE.csv --out RESULT.csv [--method NAME]\n"
          "                   [--seed quadtree|centers] [--repeat R] [--warm] [--collide]\n"
          "                   [--bare]\n"
          "\n"
          "Times sov_distance (or sov_collide) on every pair of a battery CSV and writes\n"
          "  id,d,nx,ny,nz,pAx,pAy,pAz,pBx,pBy,pBz,iterations,time_ns,status[,colliding]\n"
          "time_ns is the median of R timed calls after one untimed warm-up call.\n"
          "\n"
          "  --method NAME   auto (default), implicit, parametric or ntb\n"
          "  --seed S        initial guess of the study methods: quadtree (default) or centers\n"
          "  --repeat R      timed calls per pair (default 5)\n"
          "  --warm          solve each pair, move both poses by a small random rigid motion\n"
          "                  (1e-3 rad, 1e-3), and time the query warm-started from the\n"
          "                  unperturbed answer's cache (seed 'cache'; --seed then only\n"
          "                  seeds the unperturbed solve); checked against a cold auto solve\n"
          "  --collide       time sov_collide; d, n and points are written as nan and a\n"
          "                  colliding column is added\n"
          "  --bare          study methods without the library's global check of their\n"
          "                  overlap answers (options.certify = 0): the scheme as the\n"
          "                  study ran it; wrong answers then show in the accuracy lines\n"
          "  --help          this text\n"
          "\n"
          "If FILE.ref.csv exists beside FILE.csv, accuracy against it is summarized.\n"
          "Exit status: 0 after a measurement (even if pairs fail), 2 usage, 1 I/O.\n");
}

/* Reports a usage error and returns kExitUsage. */
static int usage_error(const char *what, const char *arg) {
  fprintf(stderr, "sov_battery: %s%s%s\n(see sov_battery --help)\n", what, arg ? ": " : "",
          arg ? arg : "");
  return kExitUsage;
}

/* Parses one option that takes a value; returns 0 or an exit code. */
static int parse_valued(bat_args *a, const char *opt, const char *val) {
  if (!val) return usage_error("missing value after", opt);
  if (strcmp(opt, "--in") == 0) {
    a->in = val;
  } else if (strcmp(opt, "--out") == 0) {
    a->out = val;
  } else if (strcmp(opt, "--method") == 0) {
    if (sov_method_from_name(&a->options.method, val) != SOV_OK)
      return usage_error("unknown method (auto, implicit, parametric, ntb)", val);
  } else if (strcmp(opt, "--seed") == 0) {
    if (strcmp(val, "quadtree") == 0) a->options.seed = SOV_SEED_QUADTREE;
    else if (strcmp(val, "centers") == 0) a->options.seed = SOV_SEED_CENTERS;
    else return usage_error("unknown seed (quadtree, centers)", val);
  } else {
    char *end = NULL;
    const long r = strtol(val, &end, 10);
    if (*val == '\0' || *end != '\0' || r < 1 || r > kMaxRepeat)
      return usage_error("--repeat needs an integer from 1 to 1000000, not", val);
    a->repeat = (int)r;
  }
  return 0;
}

/* Parses argv; returns 0 to run, -1 after --help, or an exit code. */
static int parse_args(bat_args *a, int argc, char **argv) {
  static const char *const valued[] = {"--in", "--out", "--method", "--seed", "--repeat"};
  memset(a, 0, sizeof *a);
  sov_options_default(&a->options);
  a->repeat = 5;
  for (int i = 1; i < argc; ++i) {
    const char *opt = argv[i];
    int is_valued = 0;
    for (size_t k = 0; k < sizeof valued / sizeof valued[0]; ++k)
      is_valued |= strcmp(opt, valued[k]) == 0;
    if (is_valued) {
      const int st = parse_valued(a, opt, i + 1 < argc ? argv[i + 1] : NULL);
      if (st) return st;
      ++i;
    } else if (strcmp(opt, "--warm") == 0) {
      a->warm = 1;
    } else if (strcmp(opt, "--collide") == 0) {
      a->collide = 1;
    } else if (strcmp(opt, "--bare") == 0) {
      a->options.certify = 0;
    } else if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
      print_usage(stdout);
      return -1;
    } else {
      return usage_error("unknown argument", opt);
    }
  }
  if (!a->in) return usage_error("--in FILE.csv is required", NULL);
  if (!a->out) return usage_error("--out RESULT.csv is required", NULL);
  return 0;
}

/* Parses one CSV line of exactly cols numbers into out; returns 0 or -1. */
static int parse_line(double *out, size_t cols, const char *line) {
  const char *s = line;
  for (size_t k = 0; k < cols; ++k) {
    char *end = NULL;
    out[k] = strtod(s, &end);
    if (end == s) return -1;
    s = end;
    if (k + 1 < cols) {
      if (*s != ',') return -1;
      ++s;
    }
  }
  while (*s == '\r' || *s == '\n' || *s == ' ') ++s;
  return *s == '\0' ? 0 : -1;
}

/* Reads a CSV with a header and cols numbers a row; returns 0, or -1 after
 * printing why (file and line). */
static int read_table(bat_table *t, const char *path, size_t cols) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "sov_battery: cannot open %s: %s\n", path, strerror(errno));
    return -1;
  }
  char *line = NULL;
  size_t cap = 0, alloc = 0;
  long lineno = 0;
  int st = 0;
  t->v = NULL;
  t->rows = 0;
  t->cols = cols;
  while (st == 0 && getline(&line, &cap, f) != -1) {
    if (++lineno == 1 || line[0] == '\n' || line[0] == '\r') continue; /* header, blank */
    if (t->rows == alloc) {
      alloc = alloc ? 2 * alloc : 1024;
      double *v = realloc(t->v, alloc * cols * sizeof *v);
      if (!v) {
        fprintf(stderr, "sov_battery: out of memory reading %s\n", path);
        st = -1;
        break;
      }
      t->v = v;
    }
    if (parse_line(t->v + t->rows * cols, cols, line) != 0) {
      fprintf(stderr, "sov_battery: %s:%ld: expected %zu comma-separated numbers\n", path,
              lineno, cols);
      st = -1;
    }
    ++t->rows;
  }
  free(line);
  fclose(f);
  if (st == 0 && t->rows == 0) {
    fprintf(stderr, "sov_battery: %s has no data rows\n", path);
    st = -1;
  }
  return st;
}

/* "x.csv" -> "x.ref.csv" (malloc'ed), or NULL if path does not end in .csv. */
static char *ref_path_for(const char *path) {
  const size_t n = strlen(path);
  if (n < 4 || strcmp(path + n - 4, ".csv") != 0) return NULL;
  char *ref = malloc(n + 5);
  if (!ref) return NULL;
  memcpy(ref, path, n - 4);
  strcpy(ref + n - 4, ".ref.csv");
  return ref;
}

/* qsort/bsearch order of table rows by id (column 0). */
static int compare_id(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Reference d for an id, NaN if absent. */
static double ref_d(const bat_table *ref, long id) {
  if (!ref->v) return NAN;
  const double key[kRefColumns] = {(double)id};
  const double *row = bsearch(key, ref->v, ref->rows, ref->cols * sizeof(double), compare_id);
  return row ? row[1] : NAN;
}

/* Monotonic clock in nanoseconds. */
static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* splitmix64 step. */
static uint64_t rng_next(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Random unit vector (rejection from the cube). */
static void rng_unit(double u[3], uint64_t *state) {
  for (;;) {
    double n2 = 0;
    for (int i = 0; i < 3; ++i) {
      u[i] = 2.0 * (double)(rng_next(state) >> 11) * 0x1.0p-53 - 1.0;
      n2 += u[i] * u[i];
    }
    if (n2 > 1e-4 && n2 <= 1) {
      for (int i = 0; i < 3; ++i) u[i] /= sqrt(n2);
      return;
    }
  }
}

/* Moves a pose by a random rigid motion: rotation kWarmAngle about a random
 * axis (world frame) and a translation of length kWarmShift. */
static int perturb_pose(sov_pose *X, uint64_t *state) {
  double axis[3], shift[3], R[9], p[3];
  rng_unit(axis, state);
  rng_unit(shift, state);
  const double s = sin(kWarmAngle / 2);
  const double q[4] = {cos(kWarmAngle / 2), s * axis[0], s * axis[1], s * axis[2]};
  const double zero[3] = {0, 0, 0};
  sov_pose M;
  const int st = sov_pose_from_quat(&M, q, zero);
  if (st != SOV_OK) return st;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j)
      R[3 * i + j] = M.R[3 * i] * X->R[j] + M.R[3 * i + 1] * X->R[3 + j] + M.R[3 * i + 2] * X->R[6 + j];
    p[i] = X->p[i] + kWarmShift * shift[i];
  }
  return sov_pose_from_matrix(X, R, p);
}

/* Shapes and poses of one battery row. */
typedef struct bat_bodies {
  sov_shape A, B;
  sov_pose XA, XB;
} bat_bodies;

/* Validates one row's bodies; returns a status. */
static int make_bodies(bat_bodies *b, const double *row) {
  const double *b1 = row + 1, *b2 = row + 1 + kBodyColumns;
  int st = sov_shape_init(&b->A, b1);
  if (st == SOV_OK) st = sov_shape_init(&b->B, b2);
  if (st == SOV_OK) st = sov_pose_from_quat(&b->XA, b1 + 7, b1 + 11);
  if (st == SOV_OK) st = sov_pose_from_quat(&b->XB, b2 + 7, b2 + 11);
  return st;
}

/* The query being measured; cache may be NULL. */
static int run_query(bat_row *row, const bat_args *a, const sov_options *o,
                     const bat_bodies *b, sov_cache *cache) {
  if (a->collide)
    return sov_collide(&row->colliding, &b->A, &b->XA, &b->B, &b->XB, o, cache);
  return sov_distance(&row->r, &b->A, &b->XA, &b->B, &b->XB, o, cache);
}

/* qsort order of doubles. */
static int compare_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* qsort order of int64. */
static int compare_i64(const void *a, const void *b) {
  const int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* One untimed call, then a->repeat timed calls (each from a fresh copy of
 * cache0 when given); stores the median time and the last call's outputs. */
static void time_query(bat_row *row, const bat_args *a, const sov_options *o,
                       const bat_bodies *b, const sov_cache *cache0, int64_t *times) {
  sov_cache cache = {0};
  if (cache0) cache = *cache0;
  row->status = run_query(row, a, o, b, cache0 ? &cache : NULL);
  for (int k = 0; k < a->repeat; ++k) {
    if (cache0) cache = *cache0;
    const int64_t t0 = now_ns();
    row->status = run_query(row, a, o, b, cache0 ? &cache : NULL);
    times[k] = now_ns() - t0;
  }
  qsort(times, (size_t)a->repeat, sizeof *times, compare_i64);
  const int m = a->repeat / 2;
  row->time_ns = a->repeat % 2 ? times[m] : (times[m - 1] + times[m]) / 2;
  row->timed = 1;
}

/* --warm: solves the row cold to fill a cache, moves both poses, records the
 * cold auto answer of the moved pair in d_check and times the warm query. */
static void measure_warm(bat_row *row, const bat_args *a, bat_bodies *b, int64_t *times) {
  uint64_t state = kRngSeed ^ (uint64_t)row->id * 0x9e3779b97f4a7c15ull;
  sov_cache cache0;
  sov_result first, check;
  sov_cache_reset(&cache0);
  sov_distance(&first, &b->A, &b->XA, &b->B, &b->XB, &a->options, &cache0);
  int st = perturb_pose(&b->XA, &state);
  if (st == SOV_OK) st = perturb_pose(&b->XB, &state);
  if (st != SOV_OK) {
    row->status = st;
    return;
  }
  row->d_check = NAN;
  if (sov_distance(&check, &b->A, &b->XA, &b->B, &b->XB, NULL, NULL) == SOV_OK)
    row->d_check = check.d;
  sov_options warm = a->options;
  warm.seed = SOV_SEED_CACHE;
  time_query(row, a, &warm, b, &cache0, times);
}

/* Measures one battery row. */
static void measure_row(bat_row *row, const bat_args *a, const double *v,
                        const bat_table *ref, int64_t *times) {
  bat_bodies b;
  memset(row, 0, sizeof *row);
  row->id = (long)v[0];
  row->colliding = -1;
  row->r.d = NAN;
  row->d_check = ref_d(ref, row->id);
  row->status = make_bodies(&b, v);
  if (row->status != SOV_OK) return;
  if (a->warm) measure_warm(row, a, &b, times);
  else time_query(row, a, &a->options, &b, NULL, times);
  if (a->collide || row->status != SOV_OK) {
    const sov_method method = row->r.method;
    const int iterations = a->collide ? -1 : row->r.iterations;
    memset(&row->r, 0, sizeof row->r);
    row->r.d = row->r.n[0] = row->r.n[1] = row->r.n[2] = NAN;
    for (int i = 0; i < 3; ++i) row->r.pA[i] = row->r.pB[i] = NAN;
    row->r.method = method;
    row->r.iterations = iterations;
  }
}

/* Writes one result row. */
static void write_row(FILE *f, const bat_row *row, int collide) {
  const sov_result *r = &row->r;
  fprintf(f, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%lld,%d",
          row->id, r->d, r->n[0], r->n[1], r->n[2], r->pA[0], r->pA[1], r->pA[2], r->pB[0],
          r->pB[1], r->pB[2], r->iterations, (long long)row->time_ns, row->status);
  if (collide) fprintf(f, ",%d", row->colliding);
  fputc('\n', f);
}

/* Counts of each status, printed when some pair failed. */
static void print_status_counts(const bat_row *rows, size_t n) {
  enum { kCodes = 1 - SOV_ERR_SPURIOUS };
  size_t count[kCodes + 1] = {0};
  for (size_t i = 0; i < n; ++i) {
    const int code = -rows[i].status;
    ++count[code >= 0 && code < kCodes ? code : kCodes];
  }
  for (int c = 1; c <= kCodes; ++c)
    if (count[c])
      printf("  status %d (%s): %zu\n", c < kCodes ? -c : 1,
             c < kCodes ? sov_status_string(-c) : "unknown code", count[c]);
}

/* Accuracy lines: d against the check value, or collide agreement. */
static void print_accuracy(double *err, size_t compared, size_t over_tight, size_t over_loose,
                           size_t agree, const bat_args *a, const char *check) {
  const char *d_check = a->warm ? "d_cold" : "d_ref";
  if (compared == 0) {
    printf("accuracy vs %s: no converged pair to compare\n", check);
  } else if (a->collide) {
    printf("collide vs (d <= 0) of %s: agree on %zu of %zu converged pairs (%zu disagree)\n",
           check, agree, compared, compared - agree);
  } else {
    qsort(err, compared, sizeof *err, compare_double);
    printf("accuracy vs %s (%zu converged pairs):\n", check, compared);
    printf("  |d - %s| > %g: %zu   > %g: %zu\n", d_check, kTightTol, over_tight, kLooseTol,
           over_loose);
    printf("  median |d - %s| %.3g   max %.3g\n", d_check, err[compared / 2], err[compared - 1]);
  }
}

/* Median and p99 (us) of the timed rows whose check value is apart (d > 0)
 * or overlapping: the two cost regimes of the default method. */
static void print_split(const bat_row *rows, size_t n) {
  int64_t *t = malloc(n * sizeof *t);
  if (!t) return;
  for (int overlap = 0; overlap < 2; ++overlap) {
    size_t m = 0;
    for (size_t i = 0; i < n; ++i)
      if (rows[i].timed && !isnan(rows[i].d_check) && (rows[i].d_check <= 0) == overlap)
        t[m++] = rows[i].time_ns;
    if (m == 0) continue;
    qsort(t, m, sizeof *t, compare_i64);
    printf("  %s pairs (%zu): median %.3f  p99 %.3f\n", overlap ? "overlapping" : "apart", m,
           (double)t[m / 2] * 1e-3, (double)t[(size_t)ceil(0.99 * (double)m) - 1] * 1e-3);
  }
  free(t);
}

/* Summary of times, statuses and accuracy. */
static void print_summary(const bat_row *rows, size_t n, const bat_args *a, const char *check) {
  int64_t *t = malloc(n * sizeof *t);
  double *err = malloc(n * sizeof *err);
  size_t timed = 0, failed = 0, compared = 0, over_tight = 0, over_loose = 0, agree = 0;
  double sum = 0;
  if (!t || !err) {
    fprintf(stderr, "sov_battery: out of memory for the summary\n");
    n = 0;
  }
  for (size_t i = 0; i < n; ++i) {
    if (rows[i].timed) sum += (double)(t[timed++] = rows[i].time_ns);
    if (rows[i].status != SOV_OK) {
      ++failed;
      continue;
    }
    if (isnan(rows[i].d_check)) continue;
    const double e = fabs(rows[i].r.d - rows[i].d_check);
    agree += rows[i].colliding == (rows[i].d_check <= 0);
    err[compared++] = e;
    over_tight += !(e <= kTightTol);
    over_loose += !(e <= kLooseTol);
  }
  qsort(t, timed, sizeof *t, compare_i64);
  printf("pairs: %zu  (%s, method %s, repeat %d%s)\n", n,
         a->collide ? "sov_collide" : "sov_distance", sov_method_name(a->options.method),
         a->repeat, a->warm ? ", warm-started" : "");
  if (timed)
    printf("time per query (us): median %.3f  p99 %.3f  mean %.3f\n", (double)t[timed / 2] * 1e-3,
           (double)t[(size_t)ceil(0.99 * (double)timed) - 1] * 1e-3, sum / (double)timed * 1e-3);
  print_split(rows, n);
  printf("non-converged (status != SOV_OK): %zu\n", failed);
  print_status_counts(rows, n);
  print_accuracy(err, compared, over_tight, over_loose, agree, a, check);
  free(t);
  free(err);
}

/* Loads FILE.ref.csv beside the input when it exists, sorted by id; writes a
 * description of the check into check. Returns 0, or -1 on a read error. */
static int load_reference(bat_table *ref, const bat_args *a, char *check, size_t size) {
  memset(ref, 0, sizeof *ref);
  if (a->warm) {
    snprintf(check, size, "cold auto solve of the moved pair");
    return 0;
  }
  char *path = ref_path_for(a->in);
  FILE *probe = path ? fopen(path, "r") : NULL;
  int st = 0;
  if (!probe) {
    snprintf(check, size, "reference (%s)", path ? "FILE.ref.csv not found" : "input does not end in .csv");
  } else {
    fclose(probe);
    snprintf(check, size, "%s", path);
    st = read_table(ref, path, kRefColumns);
    if (st == 0) qsort(ref->v, ref->rows, ref->cols * sizeof(double), compare_id);
  }
  free(path);
  return st;
}

/* Measures every pair, writing rows to out as it goes; returns 0 or -1. */
static int run_battery(bat_row *rows, const bat_table *pairs, const bat_table *ref,
                       const bat_args *a, FILE *out, int64_t *times) {
  fprintf(out, "id,d,nx,ny,nz,pAx,pAy,pAz,pBx,pBy,pBz,iterations,time_ns,status%s\n",
          a->collide ? ",colliding" : "");
  for (size_t i = 0; i < pairs->rows; ++i) {
    measure_row(&rows[i], a, pairs->v + i * pairs->cols, ref, times);
    write_row(out, &rows[i], a->collide);
  }
  return ferror(out) ? -1 : 0;
}

int main(int argc, char **argv) {
  bat_args a;
  const int parsed = parse_args(&a, argc, argv);
  if (parsed) return parsed < 0 ? 0 : parsed;
  bat_table pairs, ref;
  char check[4096];
  if (read_table(&pairs, a.in, kPairColumns) != 0) return kExitIo;
  if (load_reference(&ref, &a, check, sizeof check) != 0) return kExitIo;
  FILE *out = fopen(a.out, "w");
  if (!out) {
    fprintf(stderr, "sov_battery: cannot write %s: %s\n", a.out, strerror(errno));
    return kExitIo;
  }
  bat_row *rows = calloc(pairs.rows, sizeof *rows);
  int64_t *times = malloc((size_t)a.repeat * sizeof *times);
  if (!rows || !times) {
    fprintf(stderr, "sov_battery: out of memory for %zu pairs\n", pairs.rows);
    return kExitIo;
  }
  int st = run_battery(rows, &pairs, &ref, &a, out, times);
  if (fclose(out) != 0) st = -1;
  if (st != 0) {
    fprintf(stderr, "sov_battery: error writing %s\n", a.out);
    return kExitIo;
  }
  print_summary(rows, pairs.rows, &a, check);
  free(rows);
  free(times);
  free(pairs.v);
  free(ref.v);
  return 0;
}
