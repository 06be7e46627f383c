/* The single-query C answers of a battery file, for the Python tests
 * (test_batch.py): for each row, sov_distance (cold, default options) and
 * sov_collide, printed as
 *   id status d nx ny nz pAx pAy pAz pBx pBy pBz iterations residual method
 *   collide_status colliding
 * with every double in C99 hexadecimal (%a), so that the comparison is
 * bit for bit. Exit status 1 for an unreadable file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <superovoid/superovoid.h>

/* Numbers per row: id, then 14 per body. */
#define ROW_NUMBERS 29

/* Reads the next row's numbers; returns 1 on a row, 0 at the end. */
static int read_row(FILE *f, double v[ROW_NUMBERS]) {
  char line[4096];
  if (!fgets(line, sizeof line, f)) return 0;
  char *p = line;
  for (int i = 0; i < ROW_NUMBERS; ++i) {
    char *end;
    v[i] = strtod(p, &end);
    if (end == p) return read_row(f, v); /* a blank or malformed line */
    p = *end == ',' ? end + 1 : end;
  }
  return 1;
}

/* Prints one row's answers. */
static void answer(const double v[ROW_NUMBERS]) {
  const double *b0 = v + 1, *b1 = v + 15;
  sov_shape A, B;
  sov_pose XA, XB;
  sov_result r;
  memset(&r, 0, sizeof r);
  int st = sov_shape_init(&A, b0);
  if (!st) st = sov_shape_init(&B, b1);
  if (!st) st = sov_pose_from_quat(&XA, b0 + 7, b0 + 11);
  if (!st) st = sov_pose_from_quat(&XB, b1 + 7, b1 + 11);
  int colliding = -1, cst = st;
  if (!st) st = sov_distance(&r, &A, &XA, &B, &XB, NULL, NULL);
  if (!cst) cst = sov_collide(&colliding, &A, &XA, &B, &XB, NULL, NULL);
  printf("%ld %d %a %a %a %a %a %a %a %a %a %a %d %a %d %d %d\n", (long)v[0], st, r.d, r.n[0],
         r.n[1], r.n[2], r.pA[0], r.pA[1], r.pA[2], r.pB[0], r.pB[1], r.pB[2], r.iterations,
         r.residual, (int)r.method, cst, colliding);
}

/* Usage: sov_battery_answers battery.csv */
int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s battery.csv\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[1]);
    return 1;
  }
  char header[4096];
  if (!fgets(header, sizeof header, f)) {
    fclose(f);
    return 1;
  }
  double v[ROW_NUMBERS];
  while (read_row(f, v)) answer(v);
  fclose(f);
  return 0;
}
