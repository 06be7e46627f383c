/* How far inner balls can certify a battery's overlaps: for every pair whose
 * reference d is negative, the largest balls tangent at the reference
 * witnesses that the inner-ball test (solver/inner_ball.c) proves to lie in
 * each body, and the ratio of their radii's sum to the depth. A ratio of 1
 * or more is what sovc_inner_balls_certify needs; below it no ball pair at
 * those witnesses proves the answer, however it is searched for. For scale,
 * the same ratio with the witnesses' smallest radii of curvature, which bound
 * every tangent inner ball whether or not a test can prove it, and with the
 * largest balls whose sampled spheres lie in the bodies: an estimate (not a
 * proof) of the true largest balls, what a perfect test would reach.
 *
 *   sov_inner_ball_reach BATTERY.csv   (BATTERY.ref.csv beside it) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solver/inner_ball.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/shape.h"
#include "solver/shape_init.h"

enum { kColumns = 29, kRefColumns = 11, kBisections = 40 };

/* Largest radius up to 64 depth that the test proves at local point x. */
static double largest_ball(const sovc_shape *S, const double x[3], double depth) {
  const double hi = 64 * depth;
  return sovc_inner_ball_fits(S, x, hi) ? hi : sovc_inner_ball_bisect(S, x, 0, hi, kBisections);
}

/* Unit outward normal m and its tangent frame at local surface point x,
 * and F's Hessian H there (NULL: none); returns |grad F|, 0 where F or its
 * gradient is unusable. */
static double surface_frame(double m[3], sovc_frame *fr, double *H, const sovc_shape *S,
                            const double x[3]) {
  double F, g[3];
  if (!sovc_implicit_checked(&F, g, H, S, x)) return 0;
  const double gn = sqrt(sovc_dot(g, g));
  if (!(gn > 0)) return 0;
  for (int i = 0; i < 3; ++i) m[i] = g[i] / gn;
  sovc_frame_make(fr, m);
  return gn;
}

/* Smallest radius of curvature of S's surface at local point x: 1 / the
 * largest eigenvalue of the Hessian on the tangent plane over |grad F|. */
static double smallest_curvature_radius(const sovc_shape *S, const double x[3]) {
  double m[3], H[9];
  sovc_frame fr;
  const double gn = surface_frame(m, &fr, H, S, x);
  if (!(gn > 0)) return 0;
  double Ht[3], Hb[3];
  sovc_rotate(Ht, H, fr.t);
  sovc_rotate(Hb, H, fr.b);
  const double k[3] = {sovc_dot(fr.t, Ht), sovc_dot(fr.t, Hb), sovc_dot(fr.b, Hb)};
  const double top = 0.5 * (k[0] + k[2]) + sqrt(0.25 * (k[0] - k[2]) * (k[0] - k[2]) + k[1] * k[1]);
  return top > 0 ? gn / top : INFINITY;
}

enum { kRings = 24, kSpokes = 48 };

/* 1 if every sample of the sphere of the ball of radius r tangent at local
 * surface point x (normal m, frame t, b) lies in S: kRings circles at polar
 * angles k pi / kRings from the tangency, kSpokes points each. */
static int sampled_ball_inside(const sovc_shape *S, const double x[3], const sovc_frame *fr,
                               const double m[3], double r) {
  for (int k = 1; k <= kRings; ++k) {
    const double th = k * (SOVC_PI / kRings), st = sin(th), ct = cos(th);
    for (int j = 0; j < kSpokes; ++j) {
      const double ph = j * (2 * SOVC_PI / kSpokes), a = r * st * cos(ph), b = r * st * sin(ph);
      double y[3], F;
      for (int i = 0; i < 3; ++i)
        y[i] = x[i] - r * m[i] + a * fr->t[i] + b * fr->b[i] + r * ct * m[i];
      if (!(fabs(y[2]) < S->a[2]) || !sovc_implicit_checked(&F, NULL, NULL, S, y) || F > 0)
        return 0;
    }
  }
  return 1;
}

/* Largest radius up to hi whose ball passes sampled_ball_inside at local
 * point x (bisection; the sampled test is not monotone in r, nearly so). */
static double largest_sampled_ball(const sovc_shape *S, const double x[3], double hi) {
  double m[3];
  sovc_frame fr;
  if (!(surface_frame(m, &fr, NULL, S, x) > 0)) return 0;
  double lo = 0;
  for (int k = 0; k < kBisections; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (sampled_ball_inside(S, x, &fr, m, mid))
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* Parse n comma-separated numbers of line into v; 0 if there are fewer. */
static int parse_row(double *v, int n, const char *line) {
  const char *p = line;
  for (int i = 0; i < n; ++i) {
    char *end;
    v[i] = strtod(p, &end);
    if (end == p) return 0;
    p = *end == ',' ? end + 1 : end;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2 || strlen(argv[1]) < 5 || strcmp(argv[1] + strlen(argv[1]) - 4, ".csv")) {
    fprintf(stderr, "usage: sov_inner_ball_reach BATTERY.csv (with BATTERY.ref.csv beside it)\n");
    return 2;
  }
  char ref_path[4096];
  snprintf(ref_path, sizeof ref_path, "%.*s.ref.csv", (int)strlen(argv[1]) - 4, argv[1]);
  FILE *in = fopen(argv[1], "r"), *ref = fopen(ref_path, "r");
  if (!in || !ref) {
    fprintf(stderr, "cannot read %s or %s\n", argv[1], ref_path);
    return 1;
  }
  static const double kEdges[] = {0.1, 0.25, 0.5, 0.75, 0.9, 1, 2};
  enum { kBins = sizeof kEdges / sizeof kEdges[0] + 1 };
  int bins[kBins] = {0}, overlaps = 0, reached = 0, curvature_reached = 0, sampled_reached = 0;
  int bad = 0;
  char line[8192], ref_line[4096];
  if (!fgets(line, sizeof line, in) || !fgets(ref_line, sizeof ref_line, ref)) return 1;
  while (fgets(line, sizeof line, in) && fgets(ref_line, sizeof ref_line, ref)) {
    double v[kColumns], r[kRefColumns];
    if (!parse_row(v, kColumns, line) || !parse_row(r, kRefColumns, ref_line) || v[0] != r[0]) {
      ++bad;
      continue;
    }
    if (!(r[1] < 0)) continue;
    sovc_shape A, B;
    sovc_pose XA, XB;
    if (sovc_shape_init(&A, v + 1) || sovc_shape_init(&B, v + 15)) {
      ++bad;
      continue;
    }
    sovc_quat_to_matrix(XA.R, v + 8);
    sovc_quat_to_matrix(XB.R, v + 22);
    memcpy(XA.p, v + 12, sizeof XA.p);
    memcpy(XB.p, v + 26, sizeof XB.p);
    double xA[3], xB[3];
    sovc_to_local(xA, &XA, r + 5);
    sovc_to_local(xB, &XB, r + 8);
    const double depth = -r[1];
    const double ratio = (largest_ball(&A, xA, depth) + largest_ball(&B, xB, depth)) / depth;
    int b = 0;
    while (b < kBins - 1 && ratio >= kEdges[b]) ++b;
    ++bins[b];
    ++overlaps;
    reached += ratio >= 1;
    const double kA = smallest_curvature_radius(&A, xA), kB = smallest_curvature_radius(&B, xB);
    curvature_reached += kA + kB >= depth;
    /* Past the depth the sum need not be known: cap each search there. */
    sampled_reached += kA + kB >= depth && largest_sampled_ball(&A, xA, fmin(kA, depth)) +
                                                   largest_sampled_ball(&B, xB, fmin(kB, depth)) >=
                                               depth;
  }
  printf("%s: %d overlapping pairs, %d with (rA + rB) / depth >= 1 (%.1f %%)", argv[1], overlaps,
         reached, overlaps ? 100.0 * reached / overlaps : 0.0);
  printf(bad ? ", %d rows unreadable or refused\n" : "\n", bad);
  printf("  with the smallest radii of curvature instead: %d (%.1f %%)\n", curvature_reached,
         overlaps ? 100.0 * curvature_reached / overlaps : 0.0);
  printf("  with the largest balls whose sampled spheres lie in the bodies: %d (%.1f %%)\n",
         sampled_reached, overlaps ? 100.0 * sampled_reached / overlaps : 0.0);
  for (int b = 0; b < kBins; ++b) {
    if (b == 0)
      printf("  ratio < %g", kEdges[0]);
    else if (b == kBins - 1)
      printf("  ratio >= %g", kEdges[b - 1]);
    else
      printf("  %g <= ratio < %g", kEdges[b - 1], kEdges[b]);
    printf(": %d\n", bins[b]);
  }
  return bad ? 1 : 0;
}
