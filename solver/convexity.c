/* Convexity of tapered superellipsoids (SPEC "Valid parameters", exact test).
 *
 * A stack of convex slices is convex iff, for every horizontal unit direction
 * u, the slice support h(z; u) = c(z) N_u(z) is concave in z (SPEC). Writing
 * w = 1 - |z|^m (m = 2/eps2), kx = 1 + tx z, ky = 1 + ty z and
 * rho = |a1 kx u1|^q / N_u^q (the share of the x term, q = 2/(2 - eps1)),
 * the analytic second derivative for z in (0, 1) is
 *
 *   w^2 h''/h = (q-1) w^2 rho (1-rho) (a - b)^2 - 2 w z^(m-1) (b + rho (a - b))
 *               - (m-1) z^(m-2),          a = tx/kx, b = ty/ky,
 *
 * (c = w^(1/m), c' = -z^(m-1) w^(1/m-1), c'' = -(m-1) z^(m-2) w^(1/m-2),
 * N''/N = (q-1) rho (1-rho) (a-b)^2). As u sweeps the quadrant rho sweeps
 * [0, 1], so the worst direction at each height is the vertex of a concave
 * quadratic in rho: the direction search is closed form and a1, a2, a3 play
 * no part. z < 0 is z > 0 with both tapers negated.
 *
 * Exact concavity fails for every body with eps2 < 1 and unequal tapers:
 * at z = 0 the profile terms vanish (c' = c'' = 0) and h''(0) = N''(0) > 0.
 * The dent is microscopic when eps2 is near 1 and about 1 % of the width at
 * eps2 = 0.3 with tapers +-0.4. The SPEC's batteries keep such bodies when
 * their dent is tiny, so a body is accepted when the depth of its dent (the
 * gap between h(.; u) and its concave envelope, relative to the body's width
 * max_z h(z; u) in that direction) is at most kDentTol for every u. */
#include "solver/convexity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "solver/falsi.h"
#include "solver/golden.h"
#include "solver/types.h"

/* Largest accepted dent depth, relative to the width in that direction.
 * The deepest dent in the SPEC batteries is about 1.2e-7; about a third of the
 * study's random draws exceed 1e-6 (SPEC: "about a third are dented"). With
 * equal tapers it moves the largest convex taper up by at most 1e-3. */
static const double kDentTol = 1e-6;

enum {
  kPhiGrid = 96,     /* heights (k/kPhiGrid)^2 scanned per half of the body */
  kMaxIntervals = 4, /* intervals of positive curvature kept */
  kBaseNodes = 48,   /* uniform heights for the concave envelope */
  kDenseNodes = 40,  /* heights in and around each positive interval */
  kMaxNodes = 2 + kBaseNodes + kMaxIntervals * kDenseNodes,
  kDirPerInterval = 6, /* candidate directions per positive interval */
  kDirGolden = 12,   /* golden-section steps refining the worst direction */
  kCurvatureGolden = 30, /* golden-section steps refining a curvature peak */
  kScaleSteps = 128  /* cap of the taper scale's steps (bisection needs 30) */
};

/* Relative width at which the taper scale's bracket stops: near-diamond
 * cross-sections allow scales of 1e-5, so an absolute width would not do. */
static const double kScaleRelTol = 1e-9;

/* Directions are x shares at z = 0 in logit form. The worst direction at a
 * height z has a logit within kLogitCap there (a share at most 4e-18 from
 * 0 or 1); at z = 0 its logit differs by q log(kx / ky), so the search
 * spans kLogitCap + q max |log(kx / ky)|, far beyond kLogitCap as eps1
 * nears 2 (q = 2e9 at 2 - 1e-9). A refinement spans at least +-kDirMinSpan
 * around the best candidate. */
static const double kLogitCap = 40, kDirMinSpan = 0.25;

/* Exponents and tapers of the slice-support test (a1, a2, a3 play no part). */
typedef struct profile {
  double q;  /* dual slice exponent 2/(2 - eps1) */
  double m;  /* profile exponent 2/eps2 */
  double tx, ty;
  double logit_cap; /* largest |logit| at z = 0 of a worst direction */
} profile;

/* Profile factor c(z) = (1 - |z|^m)^(1/m) (0 beyond |z| = 1). */
static double profile_c(const profile *P, double z) {
  const double az = fabs(z);
  return az >= 1 ? 0.0 : pow(1 - pow(az, P->m), 1 / P->m);
}

/* log(kx / ky) at height z. */
static double log_taper_ratio(const profile *P, double z) {
  return log1p(P->tx * z) - log1p(P->ty * z);
}

/* The profile of params[7]; log(kx / ky) is monotonic in z, so its extremes
 * are at z = +-1. */
static profile profile_make(const double params[7]) {
  profile P = {2 / (2 - params[3]), 2 / params[4], params[5], params[6], 0};
  P.logit_cap = kLogitCap + P.q * fmax(fabs(log_taper_ratio(&P, 1)), fabs(log_taper_ratio(&P, -1)));
  return P;
}

/* Heights sampled for the concave envelope, with the per-height factors
 * (kx^q and ky^q themselves overflow when eps1 is near 2, so h is formed
 * from the log of their ratio). */
typedef struct envelope_nodes {
  int n;
  double z[kMaxNodes];
  double c[kMaxNodes];      /* c(z) */
  double log_kr[kMaxNodes]; /* log(kx / ky) */
} envelope_nodes;

/* Worst direction share rho and max over directions of w^2 h''/h at height
 * z in (0, 1) with tapers tx, ty; returns the latter. */
static double curvature_max(double *rho_out, const profile *P, double z, double tx,
                            double ty) {
  const double zm = pow(z, P->m), w = 1 - zm;
  const double zm1 = zm / z, zm2 = zm1 / z;
  const double a = tx / (1 + tx * z), b = ty / (1 + ty * z), d = a - b;
  const double K = w * w * (P->q - 1) * d * d;
  const double L = 2 * w * zm1 * d;
  const double M = 2 * w * zm1 * b + (P->m - 1) * zm2;
  double rho = K > 0 ? (K - L) / (2 * K) : (L > 0 ? 0.0 : 1.0);
  rho = rho < 0 ? 0 : (rho > 1 ? 1 : rho);
  if (rho_out) *rho_out = rho;
  return K * rho * (1 - rho) - L * rho - M;
}

/* Signed-height version of curvature_max (z < 0 mirrors the tapers). */
static double curvature_at(const profile *P, double z) {
  return z > 0 ? curvature_max(NULL, P, z, P->tx, P->ty)
               : curvature_max(NULL, P, -z, -P->tx, -P->ty);
}

/* Logit of the x share at z = 0 of the worst direction at height z. */
static double worst_logit(const profile *P, double z) {
  double rho;
  if (z > 0) curvature_max(&rho, P, z, P->tx, P->ty);
  else curvature_max(&rho, P, -z, -P->tx, -P->ty);
  const double lr = rho <= 0 ? -kLogitCap : (rho >= 1 ? kLogitCap : log(rho / (1 - rho)));
  const double l0 = lr - P->q * log_taper_ratio(P, z);
  return fmax(-P->logit_cap, fmin(P->logit_cap, l0));
}

/* curvature_at through the callback signature of sovc_golden_max. */
static double curvature_cb(const void *ctx, double z) {
  return curvature_at(ctx, z);
}

/* Golden-section maximum of curvature_at on [lo, hi]. */
static double curvature_refine(const profile *P, double lo, double hi) {
  return sovc_golden_max(curvature_cb, P, lo, hi, kCurvatureGolden);
}

/* Height of scan node k in half `side` (0: z > 0, 1: z < 0); k = 0 is z = 0. */
static double scan_height(int side, int k) {
  const double t = (double)k / kPhiGrid;
  return side == 0 ? t * t : -t * t;
}

/* Append [lo, hi] to the interval list, merging with an overlapping one. */
static void interval_add(double iv[][2], int *n, double lo, double hi) {
  for (int i = 0; i < *n; ++i) {
    if (lo <= iv[i][1] && hi >= iv[i][0]) {
      iv[i][0] = fmin(iv[i][0], lo);
      iv[i][1] = fmax(iv[i][1], hi);
      return;
    }
  }
  if (*n < kMaxIntervals) {
    iv[*n][0] = lo;
    iv[*n][1] = hi;
    ++*n;
  }
}

/* Height intervals where some direction has h'' > 0; returns their count
 * (0: the body is exactly convex). */
static int positive_intervals(double iv[][2], const profile *P) {
  int n = 0, best_side = 0, best_k = 1;
  double best = -HUGE_VAL;
  for (int side = 0; side < 2; ++side) {
    for (int k = 1; k < kPhiGrid; ++k) {
      const double f = curvature_at(P, scan_height(side, k));
      if (f > best) best = f, best_side = side, best_k = k;
      if (f > 0) {
        const double z0 = scan_height(side, k - 1), z1 = scan_height(side, k + 1);
        interval_add(iv, &n, fmin(z0, z1), fmax(z0, z1));
      }
    }
  }
  if (n > 0) return n;
  /* No positive node: a peak narrower than the grid may still poke above 0. */
  const double z0 = scan_height(best_side, best_k - 1);
  const double z1 = scan_height(best_side, best_k + 1);
  if (curvature_refine(P, fmin(z0, z1), fmax(z0, z1)) > 0)
    interval_add(iv, &n, fmin(z0, z1), fmax(z0, z1));
  return n;
}

/* Merge the sorted list b[nb] into the sorted list a[*na] in place. */
static void merge_sorted(double *a, int *na, const double *b, int nb) {
  int i = *na - 1, j = nb - 1, k = *na + nb - 1;
  while (j >= 0) a[k--] = (i >= 0 && a[i] > b[j]) ? a[i--] : b[j--];
  *na += nb;
}

/* Heights for the envelope: uniform ones plus dense ones around each
 * positive interval (its width again on each side, where the bitangent
 * touches), with c(z), kx^q, ky^q at each. */
static void nodes_build(envelope_nodes *E, const profile *P, double iv[][2], int n_iv) {
  E->n = 0;
  for (int i = 0; i < kBaseNodes + 2; ++i) E->z[E->n++] = -1 + 2.0 * i / (kBaseNodes + 1);
  for (int k = 0; k < n_iv; ++k) {
    const double w = iv[k][1] - iv[k][0];
    const double lo = fmax(iv[k][0] - w, -1), hi = fmin(iv[k][1] + w, 1);
    double dense[kDenseNodes];
    for (int i = 0; i < kDenseNodes; ++i)
      dense[i] = lo + (hi - lo) * (i + 0.5) / kDenseNodes;
    merge_sorted(E->z, &E->n, dense, kDenseNodes);
  }
  for (int i = 0; i < E->n; ++i) {
    const double z = E->z[i];
    E->c[i] = profile_c(P, z);
    E->log_kr[i] = log_taper_ratio(P, z);
  }
}

/* log(1 + e^x) without overflow. */
static double softplus(double x) {
  return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x));
}

/* Where a direction's x and y terms are equal (lam + q log(kx / ky) = 0)
 * its slice support switches between them. The log of their ratio changes
 * by about q |tx - ty| per unit height: above SOVC_SHARP_SWITCH (2 across the
 * envelope's node spacing) the switch is a kink narrower than the nodes
 * (eps1 near 2), whose dent spans about as much height as the tapers'
 * difference. Heights up to kSwitchSpan either side, halving kSwitchSteps
 * times (down to 1e-4), resolve it. Smoother switches are left to the
 * nodes: bodies fitted to the dent limit stay accepted. */
enum { kSwitchSteps = 12, kSwitchNodes = 2 * kSwitchSteps + 1 };
static const double kSwitchSpan = 0.2;

/* Heights around a sharp switch of the direction with logit lam,
 * ascending, inside (-1, 1); returns their count (0 if there is none). */
static int switch_nodes(double z[kSwitchNodes], const profile *P, double lam) {
  if (!(P->q * fabs(P->tx - P->ty) > SOVC_SHARP_SWITCH)) return 0;
  /* kx / ky = e^(-lam / q) =: 1 + e gives z (tx - (1 + e) ty) = e. */
  const double e = expm1(-lam / P->q), zs = e / (P->tx - (1 + e) * P->ty);
  if (!(zs > -1 && zs < 1)) return 0;
  int n = 0;
  for (int j = 0; j < kSwitchNodes; ++j) {
    const int k = j - kSwitchSteps; /* offsets -span, -span / 2, ..., 0, ..., span */
    const double zj = zs + (k == 0 ? 0 : copysign(ldexp(kSwitchSpan, abs(k) - kSwitchSteps), k));
    if (zj > -1 && zj < 1) z[n++] = zj;
  }
  return n;
}

/* Slice support h(z; u) for the direction with logit lam at height z with
 * c(z) and log(kx / ky). As c (wx kx^q + wy ky^q)^(1/q), wx and wy
 * the logistic of +-lam: c times the larger of kx wx^(1/q) (rx) and
 * ky wy^(1/q) (ry) times (1 + r)^(1/q), r = smaller / larger term =
 * exp(-|lam + q log(kx / ky)|); kx^q, ky^q themselves overflow. */
static double slice_support(const profile *P, double lam, double rx, double ry, double z,
                            double c, double log_kr) {
  const double t = lam + P->q * log_kr;
  const double ratio = exp(-fabs(t));
  const double larger = t >= 0 ? (1 + P->tx * z) * rx : (1 + P->ty * z) * ry;
  return c * larger * (ratio > 0 ? pow(1 + ratio, 1 / P->q) : 1.0);
}

/* Dent depth of h(.; u) relative to its width, for the direction whose
 * x share at z = 0 has logit lam: gap between the upper hull of h sampled
 * at the body's nodes and around the direction's switch, and h itself. */
static double dent_for_direction(const envelope_nodes *E, const profile *P, double lam) {
  const double rx = exp(-softplus(-lam) / P->q), ry = exp(-softplus(lam) / P->q);
  double zs[kSwitchNodes], z[kMaxNodes + kSwitchNodes], h[kMaxNodes + kSwitchNodes];
  const int ns = switch_nodes(zs, P, lam);
  int n = 0;
  for (int i = 0, j = 0; i < E->n || j < ns;) {
    if (j >= ns || (i < E->n && E->z[i] <= zs[j])) {
      z[n] = E->z[i];
      h[n] = slice_support(P, lam, rx, ry, z[n], E->c[i], E->log_kr[i]);
      ++i;
    } else {
      z[n] = zs[j++];
      h[n] = slice_support(P, lam, rx, ry, z[n], profile_c(P, z[n]), log_taper_ratio(P, z[n]));
    }
    if (n == 0 || z[n] > z[n - 1]) ++n; /* equal heights would break the hull */
  }
  int hull[kMaxNodes + kSwitchNodes], nh = 0;
  double width = 0, gap = 0;
  for (int i = 0; i < n; ++i) {
    if (h[i] > width) width = h[i];
    while (nh >= 2) {
      const int i1 = hull[nh - 2], i2 = hull[nh - 1];
      const double cross = (z[i2] - z[i1]) * (h[i] - h[i1]) - (h[i2] - h[i1]) * (z[i] - z[i1]);
      if (cross < 0) break;
      --nh;
    }
    hull[nh++] = i;
  }
  for (int j = 0; j + 1 < nh; ++j) {
    const int i1 = hull[j], i2 = hull[j + 1];
    const double slope = (h[i2] - h[i1]) / (z[i2] - z[i1]);
    for (int i = i1 + 1; i < i2; ++i) {
      const double g = h[i1] + slope * (z[i] - z[i1]) - h[i];
      if (g > gap) gap = g;
    }
  }
  return width > 0 ? gap / width : 0.0;
}

/* Nodes and profile of one body: the context of dent_for_direction for
 * sovc_golden_max. */
typedef struct dent_ctx {
  const envelope_nodes *E;
  const profile *P;
} dent_ctx;

/* dent_for_direction through the callback signature of sovc_golden_max. */
static double dent_cb(const void *ctx, double lam) {
  const dent_ctx *c = ctx;
  return dent_for_direction(c->E, c->P, lam);
}

/* Golden-section maximum of dent_for_direction over logits [lo, hi]. */
static double dent_refine(const envelope_nodes *E, const profile *P, double lo, double hi) {
  const dent_ctx ctx = {E, P};
  return sovc_golden_max(dent_cb, &ctx, lo, hi, kDirGolden);
}

/* Worst relative dent over directions. Only directions that are the worst
 * one at some height of a positive interval can dent: try those for a few
 * heights per interval, then refine between the neighbours of the best. */
static double dent_over_directions(const envelope_nodes *E, const profile *P,
                                   double iv[][2], int n_iv) {
  if (P->tx == P->ty) return dent_for_direction(E, P, 0.0);
  double best = -1, lam_lo = 0, lam_hi = 0;
  for (int k = 0; k < n_iv; ++k) {
    double lam[kDirPerInterval];
    for (int j = 0; j < kDirPerInterval; ++j)
      lam[j] = worst_logit(P, iv[k][0] + (iv[k][1] - iv[k][0]) * (j + 0.5) / kDirPerInterval);
    for (int j = 0; j < kDirPerInterval; ++j) {
      const double d = dent_for_direction(E, P, lam[j]);
      if (d <= best) continue;
      best = d;
      const double prev = j > 0 ? lam[j - 1] : lam[j], next = j + 1 < kDirPerInterval ? lam[j + 1] : lam[j];
      lam_lo = fmin(lam[j] - kDirMinSpan, fmin(prev, next));
      lam_hi = fmax(lam[j] + kDirMinSpan, fmax(prev, next));
    }
  }
  return fmax(best, dent_refine(E, P, lam_lo, lam_hi));
}

/* Relative dent depth of params[7] (0 when h is concave for every u) and
 * the height zone [lo, hi] (z / a3) outside which every slice support is
 * concave ([0, 0] when there is none). */
double sovc_shape_dent(double zone[2], const double params[7]) {
  const profile P = profile_make(params);
  zone[0] = zone[1] = 0;
  if (P.tx == 0 && P.ty == 0) return 0.0;
  double iv[kMaxIntervals][2];
  const int n_iv = positive_intervals(iv, &P);
  if (n_iv == 0) return 0.0;
  zone[0] = iv[0][0];
  zone[1] = iv[0][1];
  for (int i = 1; i < n_iv; ++i) {
    zone[0] = fmin(zone[0], iv[i][0]);
    zone[1] = fmax(zone[1], iv[i][1]);
  }
  envelope_nodes E;
  nodes_build(&E, &P, iv, n_iv);
  return dent_over_directions(&E, &P, iv, n_iv);
}

/* 1 if a body dented this deep is accepted as convex (not for NaN). */
static int dent_accepted(double dent) { return dent <= kDentTol; }

/* 1 if the (range-checked) params give a convex body within kDentTol. */
int sovc_is_convex(const double params[7]) {
  double zone[2];
  return dent_accepted(sovc_shape_dent(zone, params));
}

/* s in [0, 1] whose scaled tapers pass sovc_is_convex, with a failing
 * scale in (s, s (1 + 1e-9)]: a bracket [lo, hi] of the scale where the
 * dent reaches kDentTol (the taper-free body passes), narrowed by secant
 * steps on log(dent / kDentTol) with the Illinois halving of a stale end,
 * and by bisection while lo is not dented or the bracket has not halved in
 * three steps. Each trial costs a dent measure; bisection alone took 30
 * (the fit projects every dented trial shape through this). */
double sovc_max_taper_scale(const double params[7]) {
  double zone[2];
  const double d1 = sovc_shape_dent(zone, params);
  if (dent_accepted(d1)) return 1.0;
  double p[7];
  /* The scale's bracket, with log(dent / kDentTol) at its ends: nearer
   * linear in the scale than the dent, which grows by orders of magnitude
   * across the bracket (NaN: not usable, bisect). */
  sovc_falsi b = {0, 1, -INFINITY, log(d1 / kDentTol), 0};
  double widths[3] = {2, 2, 2}; /* the bracket's last widths */
  int lo_dented = 0;            /* dent > 0 at lo */
  for (int i = 0; i < 7; ++i) p[i] = params[i];
  for (int it = 0; it < kScaleSteps && b.hi - b.lo > kScaleRelTol * b.hi; ++it) {
    const double width = b.hi - b.lo;
    double mid = 0.5 * (b.lo + b.hi);
    /* The secant only once lo is dented too (below, the dent is exactly 0)
     * and while the bracket halves at least every three steps. Kept a
     * little inside the bracket, so that one step past a root it has
     * nearly hit closes it. */
    if (lo_dented && isfinite(b.fhi) && b.fhi > b.flo && width <= 0.5 * widths[it % 3]) {
      const double margin = 0.4 * kScaleRelTol * b.hi;
      const double x = b.lo + width * (-b.flo / (b.fhi - b.flo));
      mid = fmin(fmax(x, b.lo + margin), b.hi - margin);
      if (!(mid > b.lo && mid < b.hi)) mid = 0.5 * (b.lo + b.hi);
    }
    widths[it % 3] = width;
    p[5] = params[5] * mid;
    p[6] = params[6] * mid;
    const double d = sovc_shape_dent(zone, p);
    const int accepted = dent_accepted(d);
    if (accepted) lo_dented = d > 0;
    sovc_falsi_move(&b, accepted, mid,
                    accepted ? (lo_dented ? log(d / kDentTol) : -INFINITY) : log(d / kDentTol));
  }
  return b.lo;
}

/* Write "<name> = <value> <text>" into buf (if any) and return status. */
static int explain_param(char *buf, size_t size, int status, const char *name,
                         double value, const char *text) {
  if (buf && size > 0) snprintf(buf, size, "%s = %.10g %s", name, value, text);
  return status;
}

/* x truncated toward zero to `digits` significant digits: a taper scale or
 * taper so truncated stays on the convex side. */
static double trunc_digits(double x, int digits) {
  if (x == 0) return 0;
  const double unit = pow(10, floor(log10(fabs(x))) - digits + 1);
  return trunc(x / unit) * unit;
}

/* Explain a dented body: how far its tapers must shrink (significant
 * digits: near-diamond cross-sections allow scales of 1e-5). */
static int explain_nonconvex(char *buf, size_t size, const double params[7]) {
  if (!buf || size == 0) return SOV_ERR_NONCONVEX;
  double zone[2];
  const double s = sovc_max_taper_scale(params);
  snprintf(buf, size,
           "taper_x = %.10g, taper_y = %.10g with eps1 = %.10g, eps2 = %.10g make the body "
           "non-convex (dented by %.2g %% of its width); scale both tapers by at "
           "most %.2g (taper_x = %.3g, taper_y = %.3g)",
           params[5], params[6], params[3], params[4], 100 * sovc_shape_dent(zone, params),
           trunc_digits(s, 2), trunc_digits(params[5] * s, 3), trunc_digits(params[6] * s, 3));
  return SOV_ERR_NONCONVEX;
}

/* The SPEC's "Valid parameters": checks in order finiteness, sizes,
 * exponents, tapers, convexity, and explains in buf. */
int sovc_shape_explain(char *buf, size_t size, const double params[7]) {
  double dent, zone[2];
  return sovc_shape_explain_dent(buf, size, params, &dent, zone);
}

/* See convexity.h. */
int sovc_shape_explain_dent(char *buf, size_t size, const double params[7], double *dent,
                            double zone[2]) {
  static const char *const names[7] = {"a1", "a2", "a3", "eps1", "eps2", "taper_x", "taper_y"};
  if (buf && size > 0) buf[0] = '\0';
  for (int i = 0; i < 7; ++i)
    if (!isfinite(params[i]))
      return explain_param(buf, size, SOV_ERR_NONFINITE, names[i], params[i], "is not finite");
  for (int i = 0; i < 3; ++i)
    if (params[i] <= 0)
      return explain_param(buf, size, SOV_ERR_SIZE, names[i], params[i], "must be > 0");
  for (int i = 3; i < 5; ++i)
    if (!(params[i] > 0 && params[i] < 2))
      return explain_param(buf, size, SOV_ERR_EXPONENT, names[i], params[i], "is outside (0, 2)");
  for (int i = 5; i < 7; ++i)
    if (!(fabs(params[i]) < 1))
      return explain_param(buf, size, SOV_ERR_TAPER, names[i], params[i], "is outside (-1, 1)");
  *dent = sovc_shape_dent(zone, params);
  if (!dent_accepted(*dent)) return explain_nonconvex(buf, size, params);
  if (buf && size > 0) snprintf(buf, size, "valid superovoid");
  return SOV_OK;
}
