/* Batch throughput (issue 32): pairs per second of a battery through the
 * single-query loop (sov_distance / sov_collide per pair, cold) and through
 * sov_batch_distance / sov_batch_collide on 1 and 2 threads. The modes run
 * interleaved, round after round, and the median round of each is reported,
 * so that a machine shared with other work drifts into every mode alike.
 * Every batch's answers are checked against the loop's, bit for bit. The
 * process CPU time of each mode (all threads) shows whether a second core
 * was to be had: under load a 2-thread batch takes no less wall time, and
 * no more CPU time, than a 1-thread one.
 *
 *   sov_bench_batch [battery.csv] [--rounds N] [--threads T]
 *
 * Default battery: ../shared/data/battery_contact.csv. Not a ctest test. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <superovoid/superovoid.h>

/* Numbers per battery row: id, then 14 per body. */
#define ROW_NUMBERS 29
/* Most rounds a run takes. */
#define MAX_ROUNDS 64

/* A battery as the batch API takes it. */
typedef struct pairs {
  sov_shape *shapes;
  size_t *ia, *ib;
  sov_pose *XA, *XB;
  size_t count;
} pairs;

/* Seconds on the monotonic clock. */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of the process, every thread's. */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Parses one CSV row of ROW_NUMBERS numbers; returns 1 when complete. */
static int parse_row(double v[ROW_NUMBERS], const char *line) {
  const char *p = line;
  for (int i = 0; i < ROW_NUMBERS; ++i) {
    char *end;
    v[i] = strtod(p, &end);
    if (end == p) return 0;
    p = *end == ',' ? end + 1 : end;
  }
  return 1;
}

/* Adds a row's two bodies to out (capacity grown as needed); returns a status. */
static int add_row(pairs *out, size_t *capacity, const double v[ROW_NUMBERS]) {
  if (out->count == *capacity) {
    *capacity = *capacity ? 2 * *capacity : 1024;
    out->shapes = realloc(out->shapes, 2 * *capacity * sizeof *out->shapes);
    out->ia = realloc(out->ia, *capacity * sizeof *out->ia);
    out->ib = realloc(out->ib, *capacity * sizeof *out->ib);
    out->XA = realloc(out->XA, *capacity * sizeof *out->XA);
    out->XB = realloc(out->XB, *capacity * sizeof *out->XB);
    if (!out->shapes || !out->ia || !out->ib || !out->XA || !out->XB) return SOV_ERR_BUFFER;
  }
  const size_t k = out->count;
  const double *b0 = v + 1, *b1 = v + 15;
  int st = sov_shape_init(&out->shapes[2 * k], b0);
  if (!st) st = sov_shape_init(&out->shapes[2 * k + 1], b1);
  if (!st) st = sov_pose_from_quat(&out->XA[k], b0 + 7, b0 + 11);
  if (!st) st = sov_pose_from_quat(&out->XB[k], b1 + 7, b1 + 11);
  out->ia[k] = 2 * k;
  out->ib[k] = 2 * k + 1;
  if (!st) out->count++;
  return st;
}

/* Reads a battery file; returns 0 on success. */
static int load(pairs *out, const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return 1;
  char line[4096];
  size_t capacity = 0;
  double v[ROW_NUMBERS];
  memset(out, 0, sizeof *out);
  int ok = fgets(line, sizeof line, f) != NULL; /* header */
  while (ok && fgets(line, sizeof line, f))
    if (parse_row(v, line) && add_row(out, &capacity, v) == SOV_ERR_BUFFER) ok = 0;
  fclose(f);
  return ok && out->count > 0 ? 0 : 1;
}

/* The batch over p. */
static sov_batch batch_of(const pairs *p) {
  const sov_batch b = {p->shapes, 2 * p->count, p->ia, p->ib, p->XA, p->XB, p->count, NULL};
  return b;
}

/* Seconds of the single-query distance loop. */
static double loop_distance(sov_result *out, int *status, const pairs *p) {
  const double t0 = now();
  for (size_t k = 0; k < p->count; ++k)
    status[k] = sov_distance(&out[k], &p->shapes[p->ia[k]], &p->XA[k], &p->shapes[p->ib[k]],
                             &p->XB[k], NULL, NULL);
  return now() - t0;
}

/* Seconds of the single-query collide loop. */
static double loop_collide(int *out, int *status, const pairs *p) {
  const double t0 = now();
  for (size_t k = 0; k < p->count; ++k)
    status[k] = sov_collide(&out[k], &p->shapes[p->ia[k]], &p->XA[k], &p->shapes[p->ib[k]],
                            &p->XB[k], NULL, NULL);
  return now() - t0;
}

/* Seconds of one distance batch on threads. */
static double batch_distance(sov_result *out, int *status, const pairs *p, int threads) {
  const sov_batch b = batch_of(p);
  const double t0 = now();
  sov_batch_distance(out, status, NULL, &b, NULL, threads);
  return now() - t0;
}

/* Seconds of one collide batch on threads. */
static double batch_collide(int *out, int *status, const pairs *p, int threads) {
  const sov_batch b = batch_of(p);
  const double t0 = now();
  sov_batch_collide(out, status, NULL, &b, NULL, threads);
  return now() - t0;
}

/* Ascending order of doubles, for qsort. */
static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of n values (sorts them). */
static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Number of pairs whose status or answer differs between two runs. */
static size_t differing(const sov_result *a, const int *sa, const sov_result *b, const int *sb,
                        size_t n) {
  size_t d = 0;
  for (size_t k = 0; k < n; ++k)
    d += sa[k] != sb[k] || memcmp(&a[k].d, &b[k].d, sizeof a[k].d) != 0 ||
         memcmp(a[k].n, b[k].n, sizeof a[k].n) != 0 || memcmp(a[k].pB, b[k].pB, sizeof a[k].pB) ||
         a[k].iterations != b[k].iterations;
  return d;
}

/* Runs the rounds and prints the table. */
static int run(const pairs *p, int rounds, int max_threads) {
  const size_t n = p->count;
  sov_result *ref = calloc(n, sizeof *ref), *out = calloc(n, sizeof *out);
  int *sref = calloc(n, sizeof *sref), *sout = calloc(n, sizeof *sout);
  int *cref = calloc(n, sizeof *cref), *cout = calloc(n, sizeof *cout);
  int *csref = calloc(n, sizeof *csref);
  if (!ref || !out || !sref || !sout || !cref || !cout || !csref) return 1;
  enum { kModes = 6 };
  static double t[kModes][MAX_ROUNDS], cpu[kModes][MAX_ROUNDS];
  size_t bad = 0, failed = 0;
  for (int r = 0; r < rounds; ++r) {
    double c0 = cpu_now();
#define SOV_TIMED(m, call) (t[m][r] = (call), cpu[m][r] = cpu_now() - c0, c0 = cpu_now())
    SOV_TIMED(0, loop_distance(ref, sref, p));
    SOV_TIMED(1, batch_distance(out, sout, p, 1));
    bad += differing(ref, sref, out, sout, n);
    c0 = cpu_now();
    SOV_TIMED(2, batch_distance(out, sout, p, max_threads));
    bad += differing(ref, sref, out, sout, n);
    c0 = cpu_now();
    SOV_TIMED(3, loop_collide(cref, csref, p));
    SOV_TIMED(4, batch_collide(cout, sout, p, 1));
    bad += memcmp(cref, cout, n * sizeof *cref) != 0;
    c0 = cpu_now();
    SOV_TIMED(5, batch_collide(cout, sout, p, max_threads));
    bad += memcmp(cref, cout, n * sizeof *cref) != 0;
#undef SOV_TIMED
  }
  for (size_t k = 0; k < n; ++k) failed += sref[k] != SOV_OK;
  const char *names[kModes] = {"distance, single-query loop", "distance, batch 1 thread",
                               "distance, batch N threads", "collide, single-query loop",
                               "collide, batch 1 thread", "collide, batch N threads"};
  printf("%zu pairs, %d rounds (median round), batches on 1 and %d threads\n", n, rounds,
         max_threads);
  printf("%-30s %12s %14s %8s %10s\n", "mode", "median [ms]", "pairs/s", "vs loop", "CPU [ms]");
  double loops[2] = {0, 0};
  for (int m = 0; m < kModes; ++m) {
    const double s = median(t[m], rounds), c = median(cpu[m], rounds);
    if (m == 0 || m == 3) loops[m / 3] = s;
    const double loop = loops[m / 3];
    char name[64];
    snprintf(name, sizeof name, "%s", names[m]);
    char *N = strstr(name, "N threads");
    if (N) snprintf(N, sizeof name - (size_t)(N - name), "%d threads", max_threads);
    printf("%-30s %12.2f %14.0f %7.2fx %10.2f\n", name, 1e3 * s, (double)n / s, loop / s, 1e3 * c);
  }
  printf("pairs refused by the solver: %zu; batches differing from the loop: %zu\n", failed, bad);
  free(ref), free(out), free(sref), free(sout), free(cref), free(cout), free(csref);
  return bad != 0;
}

/* Reads the arguments, the battery, and runs. */
int main(int argc, char **argv) {
  const char *path = SOV_SHARED_DATA_DIR "/battery_contact.csv";
  int rounds = 7, threads = 2;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
      rounds = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
      threads = atoi(argv[++i]);
    else if (argv[i][0] != '-')
      path = argv[i];
    else {
      fprintf(stderr, "usage: %s [battery.csv] [--rounds N] [--threads T]\n", argv[0]);
      return 2;
    }
  }
  if (rounds < 1 || rounds > MAX_ROUNDS || threads < 0) {
    fprintf(stderr, "%s: rounds in [1, %d], threads >= 0\n", argv[0], MAX_ROUNDS);
    return 2;
  }
  pairs p;
  if (load(&p, path)) {
    fprintf(stderr, "%s: cannot read the battery %s\n", argv[0], path);
    return 1;
  }
  printf("%s\n", path);
  const int rc = run(&p, rounds, threads);
  free(p.shapes), free(p.ia), free(p.ib), free(p.XA), free(p.XB);
  return rc;
}
