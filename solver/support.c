/* Support mapping of a superovoid in its local frame (SPEC "Shape").
 *
 * Untapered, the superellipsoid is the unit ball of a nested l_p norm, so its
 * support function is the nested dual norm
 *   h(v) = ((|a1 v1|^p + |a2 v2|^p)^(r/p) + |a3 v3|^r)^(1/r),
 *   p = 2/(2 - eps1), r = 2/(2 - eps2),
 * and the support point is its gradient.
 *
 * Tapered, every horizontal slice is a superellipse; with s = z/a3,
 *   h(v) = max_s f(s),  f(s) = V s + c(s) N(s),  V = v3 a3,
 *   c(s) = (1 - |s|^m)^(1/m), m = 2/eps2,
 *   N(s) = (|a1 kx v1|^q + |a2 ky v2|^q)^(1/q), q = p, kx = 1 + tx s, ...
 * (the slice support of SPEC "Valid parameters"); f is concave for convex
 * bodies. With c' = -mu, mu = spow(s/c, m-1), the condition f'(s) = 0 reads
 *   mu = R(s) = V/N + c N'/N,
 * whose right side is bounded: no infinite slopes at the poles. It is solved
 * by Halley's method in the unknown y = mu (eps2 >= 1) or y = zeta = s/c
 * (eps2 < 1), the choice in which s(y) is smooth at the equator (for
 * eps2 < 1 the step is taken in mu where F is straighter there), with
 * fixed-point steps mu = R(s) where R changes little (they jump from a pole
 * or a flat part of the profile, where Halley's steps crawl or overshoot),
 * safeguarded by a bracket and bisection in s; the last small step is
 * applied to the point by a second-order Taylor update instead of another
 * evaluation.
 * Bodies accepted with a tiny dent (eps2 < 1, unequal tapers; see
 * convexity.c) can make f slightly non-concave near s = 0: a root that is a
 * local minimum is detected and the larger of its neighbouring maxima taken.
 * z0 (s of a nearby answer, NaN for none) replaces the first fixed-point
 * step R(0) as the starting point. */
#include "solver/support.h"

#include <float.h>
#include <math.h>

#include "solver/convexity.h"
#include "solver/shape.h"

enum {
  kMaxNewton = 100, /* steps of one solve before bisection alone */
  kSlowSteps = 2,   /* steps in a row that do not halve |F| before one bisection */
  kMaxBisect = 200, /* halvings of [-1, 1] (about 60 reach the last bit) */
  kZoneScan = 16,   /* equal steps scanning a dent zone for every maximum */
  kZoneSplits = 32  /* halvings of scanned cells that may hide a maximum, per zone */
};

/* A scanned cell of a dent zone whose bound exceeds the best value by less
 * than this (relative) is not halved: what it may hide is within rounding
 * of the support value's accuracy. */
static const double kCellTol = 1e-14;

/* A final step whose relative change of the support point is below this is
 * applied by a second-order Taylor update instead of one more evaluation:
 * the neglected third-order term is below 1e-17. */
static const double kTaylorStep = 2e-6;
/* ... and only once the residual is this small (relative to 1 + |mu|): the
 * Halley step then leaves a root error far below rounding. */
static const double kTaylorResidual = 1e-7;

/* Below this |k| = |F F''| / (2 F'^2) Halley's step is taken; above it the
 * fixed-point step, which is exact in mu when R is constant, is tried first. */
static const double kHalleyTrust = 0.25;

/* The fixed-point step goes first where R cannot change by this fraction
 * of the residual |F| over the bracket. */
static const double kFixedPointFirst = 0.1;

/* |F| below this many ulps of its terms mu, V/N and c N'/N is all
 * rounding: the slopes match to rounding and the solve stops (on a flat
 * face the root's s is then anywhere along it). */
static const double kFNoise = 8 * DBL_EPSILON;

/* log(1e300): the unknown is kept where |zeta|^m <= 1e300. */
static const double kLogYmax = 690.77552789821368;

/* s clamped to the poles [-1, 1] (NaN to 1, as fmax(-1, fmin(1, s))),
 * inline: fmin and fmax are calls here, once per evaluation. */
static double clamp_pole(double s) {
  return !(s <= 1) ? 1.0 : (s < -1 ? -1.0 : s);
}

/* An l_p norm of (X, Y) >= 0 with its weights X^p/n^p, Y^p/n^p and its
 * gradient (X/n)^(p-1), (Y/n)^(p-1). */
typedef struct lp_pair {
  double n;
  double w[2];
  double g[2];
} lp_pair;

/* Evaluate lp_pair with two pow calls; the larger entry is factored out so
 * nothing overflows or underflows. */
static void lp_pair_eval(lp_pair *d, double X, double Y, double p) {
  const int xbig = X >= Y;
  const double big = xbig ? X : Y, small = xbig ? Y : X;
  if (big == 0) {
    d->n = d->w[0] = d->w[1] = d->g[0] = d->g[1] = 0;
    return;
  }
  const double r = small / big, rp = sovc_power_or_square(r, p), S = 1 + rp;
  const double g = sovc_power_or_root(S, 1 / p);
  /* (big/n)^(p-1) = g^(1-p) = g/S; (small/n)^(p-1) = r^(p-1) g/S. */
  const double gbig = g / S;
  const double gsmall =
      r > SOVC_TINY_BASE ? rp / r * gbig : (r > 0 ? sovc_power(r, p - 1) * gbig : 0.0);
  d->n = big * g;
  d->w[xbig ? 0 : 1] = 1 / S;
  d->w[xbig ? 1 : 0] = rp / S;
  d->g[xbig ? 0 : 1] = gbig;
  d->g[xbig ? 1 : 0] = gsmall;
}

/* Closed-form support of the untapered superellipsoid (nested dual norm);
 * returns h and writes its gradient, the support point, to x. */
static double support_untapered(double x[3], const sovc_shape *shape, const double v[3]) {
  const double p = 2 / (2 - shape->eps1), r = 2 / (2 - shape->eps2);
  lp_pair slice, prof;
  lp_pair_eval(&slice, shape->a[0] * fabs(v[0]), shape->a[1] * fabs(v[1]), p);
  lp_pair_eval(&prof, slice.n, shape->a[2] * fabs(v[2]), r);
  x[0] = copysign(shape->a[0] * slice.g[0] * prof.g[0], v[0]);
  x[1] = copysign(shape->a[1] * slice.g[1] * prof.g[0], v[1]);
  x[2] = copysign(shape->a[2] * prof.g[1], v[2]);
  return prof.n;
}

/* Constants of the tapered 1-D problem for one direction. */
typedef struct taper_problem {
  double A0, B0;  /* a1 |v1|, a2 |v2| */
  double tx, ty;  /* tapers */
  double V;       /* v3 a3 */
  double q, m;    /* slice dual exponent, profile exponent 2/eps2 */
  int mu_var;     /* unknown y is mu (eps2 >= 1) or zeta (eps2 < 1) */
  double ymax;    /* |y| bound keeping |zeta|^m below 1e300 */
  int equal;      /* tx == ty: every slice is the slice at s = 0 scaled by kx */
  lp_pair slice0; /* with equal tapers, the slice dual norm at s = 0 */
} taper_problem;

/* Everything known at one trial y. */
typedef struct taper_state {
  double y, s, c, mu; /* unknown, height z/a3, profile width c(s), -c'(s) */
  double zeta;        /* s / c */
  double s_y, s_yy;   /* ds/dy, d2s/dy2 */
  double mu_s;        /* dmu/ds */
  double mu_y, mu_yy; /* dmu/dy, d2mu/dy2 */
  double kx, ky;      /* taper factors at s */
  double a, b, L1, D; /* tx/kx, ty/ky, N'/N and (N'/N)' */
  double R, R_s;      /* V/N + c N'/N and its s derivative */
  double F_scale;     /* |mu| + |V/N| + |c N'/N|, the size of F's terms */
  double F, F_y, F_yy;/* residual mu - R(s) and its y derivatives */
  lp_pair slice;      /* slice dual norm at s */
} taper_state;

/* Derivatives of the profile point t (y, mu, zeta, c set; zm = |zeta|^m)
 * in y: s_y, and d = (s_yy, mu_y, mu_yy) (NaN where a second derivative is
 * unbounded; Halley then falls back to Newton). */
static void taper_profile_rates(taper_state *t, double d[3], const taper_problem *P, double zm) {
  const double m = P->m, mu = t->mu, zeta = t->zeta;
  const double s_z = t->c / (1 + zm), s_zz = -(m + 1) * mu * s_z * s_z / t->c;
  if (P->mu_var) { /* zeta = spow(mu, 1/(m-1)) */
    const double z_y = zeta != 0 ? fabs(zeta) / ((m - 1) * fabs(mu)) : (m == 2 ? 1.0 : 0.0);
    const double z_yy = mu != 0 ? (2 - m) / (m - 1) * z_y / mu : (m == 2 ? 0.0 : NAN);
    t->s_y = s_z * z_y;
    d[0] = s_zz * z_y * z_y + s_z * z_yy;
    d[1] = 1;
    d[2] = 0;
  } else { /* mu = spow(zeta, m-1) */
    const double mu_y = zeta != 0 ? (m - 1) * fabs(mu) / fabs(zeta) : 0.0;
    t->s_y = s_z;
    d[0] = s_zz;
    d[1] = mu_y;
    d[2] = zeta != 0 ? (m - 2) * mu_y / zeta : NAN;
  }
}

/* Profile point of the unknown y with its mu and zeta: c, s, s_y and d
 * (taper_profile_rates). */
static void taper_profile_mz(taper_state *t, double d[3], const taper_problem *P, double y,
                             double mu, double zeta) {
  const double m = P->m;
  t->y = y;
  t->mu = mu;
  t->zeta = zeta;
  const double zm = fabs(mu) * fabs(zeta); /* |zeta|^m */
  /* c = (1 + zm)^(-1/m) and s = zeta c; towards the poles (zm > 1) from
   * |s| = (1 + 1/zm)^(-1/m), which keeps s to a few ulps of the pole where
   * c's logarithm, about log(zm) / m, would cost that many ulps. */
  double s;
  if (zm > 1) {
    const double as = exp(-log1p(1 / zm) / m);
    t->c = as / fabs(t->zeta);
    s = copysign(as, t->zeta);
  } else {
    t->c = zm > 0 ? exp(-log1p(zm) / m) : 1.0;
    s = t->zeta * t->c;
  }
  t->s = clamp_pole(s); /* within the poles despite rounding */
  taper_profile_rates(t, d, P, zm);
}

/* Profile point of y: mu, zeta, c, s, s_y and d (taper_profile_rates). */
static void taper_profile(taper_state *t, double d[3], const taper_problem *P, double y) {
  const double m = P->m;
  taper_profile_mz(t, d, P, y, P->mu_var ? y : sovc_spow(y, m - 1),
                   P->mu_var ? sovc_spow(y, 1 / (m - 1)) : y);
}

/* Profile point of mu = -c'(s) (clamped as y is to [-ymax, ymax]). */
static void taper_profile_mu(taper_state *t, double d[3], const taper_problem *P, double mu) {
  if (P->mu_var) {
    taper_profile(t, d, P, fmax(-P->ymax, fmin(P->ymax, mu)));
    return;
  }
  const double zeta = sovc_spow(mu, 1 / (P->m - 1));
  if (fabs(zeta) < P->ymax) taper_profile_mz(t, d, P, zeta, mu, zeta);
  else taper_profile(t, d, P, copysign(P->ymax, mu));
}

/* Profile point of a height s in [-1, 1], as taper_profile of its unknown
 * (zeta = s/c, mu = |zeta|^(m-1) = (|s|^m/|s|) c/(1 - |s|^m), signed) but
 * from |s|^m and c directly, without the round trip through y. */
static void taper_profile_s(taper_state *t, double d[3], const taper_problem *P, double s) {
  const double m = P->m, as = fabs(s), sm = sovc_power(as, m), cm = 1 - sm;
  if (!(cm > 0) || as == 0) { /* the pole (y clamped to ymax) or the equator */
    taper_profile(t, d, P, as == 0 ? 0.0 : copysign(P->ymax, s));
    return;
  }
  const double c = sovc_power(cm, 1 / m), zeta = s / c;
  const double mu = copysign((as > SOVC_TINY_BASE ? sm / as : sovc_power(as, m - 1)) * c / cm, s);
  const double y = P->mu_var ? mu : zeta;
  if (!(fabs(y) <= P->ymax)) {
    taper_profile(t, d, P, copysign(P->ymax, s));
    return;
  }
  t->y = y;
  t->mu = mu;
  t->zeta = zeta;
  t->c = c;
  t->s = s;
  taper_profile_rates(t, d, P, sm / cm);
}

/* Residual F = mu - R(s), R = V/N + c N'/N, and its first two y derivatives
 * (R_s, R_ss from N'/N = L1, N''/N = L2 and (N''/N)' in closed form) at the
 * profile point t with d = (s_yy, mu_y, mu_yy). */
static void taper_slice(taper_state *t, const double d[3], const taper_problem *P) {
  t->kx = 1 + P->tx * t->s;
  t->ky = 1 + P->ty * t->s;
  if (P->equal) { /* (A0 k, B0 k): the same weights and gradients, n scaled */
    t->slice = P->slice0;
    t->slice.n *= t->kx;
  } else {
    lp_pair_eval(&t->slice, P->A0 * t->kx, P->B0 * t->ky, P->q);
  }
  const double w0 = t->slice.w[0], w1 = t->slice.w[1], c = t->c, mu = t->mu;
  const double a = P->tx / t->kx, b = P->ty / t->ky, ab = a - b;
  const double L1 = w0 * a + w1 * b;
  const double L2 = (P->q - 1) * w0 * w1 * ab * ab;
  const double L2s = L2 * (P->q * ab * (w1 - w0) - 2 * (a + b));
  const double D = L2 - L1 * L1, VN = P->V / t->slice.n;
  const double R_s = -(VN + mu) * L1 + c * D;
  const double T = VN * L1 * L1 - (VN + 2 * mu) * D + c * (L2s - 2 * L1 * D);
  t->a = a;
  t->b = b;
  t->L1 = L1;
  t->D = D;
  t->s_yy = d[0];
  t->mu_s = d[1] / t->s_y;
  t->mu_y = d[1];
  t->mu_yy = d[2];
  t->R = VN + c * L1;
  t->R_s = R_s;
  t->F_scale = fabs(mu) + fabs(VN) + fabs(c * L1);
  t->F = mu - t->R;
  t->F_y = d[1] - R_s * t->s_y;
  t->F_yy = d[2] - (T * t->s_y - L1 * d[1]) * t->s_y - R_s * d[0];
}

/* Everything at the trial unknown y (taper_profile, taper_slice). */
static void taper_eval(taper_state *t, const taper_problem *P, double y) {
  double d[3]; /* s_yy, mu_y, mu_yy */
  taper_profile(t, d, P, y);
  taper_slice(t, d, P);
}

/* Everything at the trial height s in [-1, 1] (taper_profile_s). */
static void taper_eval_s(taper_state *t, const taper_problem *P, double s) {
  double d[3];
  taper_profile_s(t, d, P, s);
  taper_slice(t, d, P);
}

/* Halley step from t (Newton when the curvature term is unreliable); *k
 * is Halley's curvature term F F_yy / (2 F_y^2). */
static double taper_step(double *k, const taper_state *t) {
  const double newton = -t->F / t->F_y;
  *k = t->F * t->F_yy / (2 * t->F_y * t->F_y);
  return (isfinite(*k) && fabs(*k) < 0.5) ? newton / (1 - *k) : newton;
}

/* d log x_i / ds of the slice support point, i = 0, 1 (through c, the taper
 * factor and the slice gradient (A/N)^(q-1)). */
static void taper_point_rates(double E[2], const taper_state *t, const taper_problem *P) {
  const double cs = t->mu / t->c;
  E[0] = P->q * t->a - (P->q - 1) * t->L1 - cs;
  E[1] = P->q * t->b - (P->q - 1) * t->L1 - cs;
}

/* Bisection in s alone on the bracket F(s_lo) < 0 < F(s_hi) until it
 * cannot shrink, for the solves the steps do not finish. */
static void taper_bisect(taper_state *t, const taper_problem *P, double s_lo, double s_hi) {
  for (int it = 0; it < kMaxBisect; ++it) {
    const double s = 0.5 * (s_lo + s_hi);
    if (!(s > s_lo && s < s_hi)) return;
    taper_eval_s(t, P, s);
    if (t->F == 0) return;
    if (t->F < 0) s_lo = s;
    else s_hi = s;
  }
}

/* Evaluates t at its fixed-point step, mu = R(s). */
static void taper_fixed_point(taper_state *t, const taper_problem *P) {
  double d[3];
  taper_profile_mu(t, d, P, t->R);
  taper_slice(t, d, P);
}

/* A bracket of the root: F < 0 at the lo ends, F > 0 at the hi ends, in
 * the unknown y, in s and in mu. */
typedef struct taper_bracket {
  double lo, hi;
  double s_lo, s_hi;
  double mu_lo, mu_hi;
} taper_bracket;

/* Narrows the bracket to the evaluated state t. */
static void bracket_update(taper_bracket *B, const taper_state *t) {
  if (t->F < 0) B->lo = t->y, B->s_lo = t->s, B->mu_lo = t->mu;
  else B->hi = t->y, B->s_hi = t->s, B->mu_hi = t->mu;
}

/* Halley's step in mu instead of y = zeta (eps2 < 1), where its curvature
 * term |k| is smaller than k_y, y's: zeta^(m-1) is linear in mu, so the
 * step is exact when R does not change. Returns 1 and the new mu if so. */
static int taper_mu_step(double *mu_new, const taper_state *t, const taper_problem *P, double k_y) {
  if (P->mu_var || t->mu == 0 || !(t->mu_y > 0) || !isfinite(t->mu_yy)) return 0;
  const double F_mu = t->F_y / t->mu_y, F_mumu = (t->F_yy - F_mu * t->mu_yy) / (t->mu_y * t->mu_y);
  const double k = t->F * F_mumu / (2 * F_mu * F_mu);
  if (!(fabs(k) < fabs(k_y))) return 0;
  *mu_new = t->mu - t->F / F_mu / (1 - k);
  return 1;
}

/* Next trial point of taper_solve by a step, evaluated into t; returns 0
 * (t unchanged) when no step lands inside the bracket. The fixed-point step
 * mu = R(s) is exact when R does not change: it is taken first where R
 * cannot change by a tenth of the residual over the bracket (from a pole
 * or a flat part of the profile, where Halley's steps in y crawl or
 * overshoot), then Halley's step when its curvature term k is small
 * (trust; in mu when that is straighter), then the fixed-point step anyway,
 * then Halley's (Newton's) step. */
static int taper_next_step(taper_state *t, const taper_problem *P, const taper_bracket *B,
                           double step, double k) {
  const double y = t->y + step, R = t->R;
  const int trust = fabs(k) < kHalleyTrust;
  const int fp_in = R > B->mu_lo && R < B->mu_hi && R != t->mu;
  const int fp_first = fabs(t->R_s) * (B->s_hi - B->s_lo) <= kFixedPointFirst * fabs(t->F);
  const int halley_in = step != 0 && y > B->lo && y < B->hi;
  double d[3], mu;
  if (fp_in && (fp_first || !(trust && halley_in))) {
    taper_profile_mu(t, d, P, R);
  } else if (trust && halley_in && taper_mu_step(&mu, t, P, k) && mu > B->mu_lo && mu < B->mu_hi) {
    taper_profile_mu(t, d, P, mu);
  } else if (halley_in) {
    taper_profile(t, d, P, y);
  } else {
    return 0;
  }
  taper_slice(t, d, P);
  return 1;
}

/* Next trial point of taper_solve by bisection in s (in y where s cannot
 * tell the ends apart), evaluated into t; returns 0 (t unchanged) when the
 * bracket cannot shrink. */
static int taper_next_bisect(taper_state *t, const taper_problem *P, const taper_bracket *B) {
  double d[3];
  const double s = 0.5 * (B->s_lo + B->s_hi);
  /* In y, geometric where the ends are far apart on one side (near a pole
   * y spans hundreds of decades while s cannot move). */
  const double alo = fabs(B->lo), ahi = fabs(B->hi);
  const double ym = B->lo * B->hi > 0 && (ahi > 4 * alo || alo > 4 * ahi)
                        ? copysign(sqrt(alo) * sqrt(ahi), B->lo)
                        : 0.5 * (B->lo + B->hi);
  if (s > B->s_lo && s < B->s_hi) {
    taper_profile_s(t, d, P, s);
    if (!(t->y > B->lo && t->y < B->hi)) taper_profile(t, d, P, ym);
  } else if (ym > B->lo && ym < B->hi) {
    taper_profile(t, d, P, ym);
  } else {
    return 0;
  }
  taper_slice(t, d, P);
  return 1;
}

/* Whether the final Halley step from t is small enough for taper_point's
 * Taylor update instead of one more evaluation. */
static int taper_taylor_ok(const taper_state *t, const taper_problem *P, double step) {
  if (!(fabs(step) * 10 < fabs(t->y) && fabs(t->F) <= kTaylorResidual * (1 + fabs(t->mu))))
    return 0;
  double E[2];
  taper_point_rates(E, t, P);
  const double rate = 1 + fmax(fabs(E[0]), fabs(E[1]));
  /* s_y * rate first: near a pole s_y underflows while rate (up to
   * |zeta|^m, 1e300) does not. Where dmu/ds overflows, taper_point's
   * second-order term cannot be formed: another evaluation instead. */
  return fabs(step) * (t->s_y * rate) <= kTaylorStep && isfinite(t->mu_s);
}

/* Root of F between the evaluated states lo (F < 0) and hi (F > 0), NULL
 * for the ends y = -ymax and ymax, from the evaluated state t between them
 * by safeguarded steps within a bracket (taper_next_step). On return *dy
 * is a final step small enough for taper_point's Taylor update. Two steps
 * in a row that neither halve |F| nor move less than half as far as the one
 * before are followed by a bisection (taper_next_bisect); a solve stops
 * where F is its own rounding (a flat face; near a pole, where a step of a
 * few ulps of y leaves |F| as it was), and bisection alone finishes one
 * that runs out of steps. */
static void taper_solve(taper_state *t, double *dy, const taper_problem *P, const taper_state *lo,
                        const taper_state *hi) {
  taper_bracket B = {-P->ymax, P->ymax, -1, 1, -INFINITY, INFINITY};
  if (lo) B.lo = lo->y, B.s_lo = lo->s, B.mu_lo = lo->mu;
  if (hi) B.hi = hi->y, B.s_hi = hi->s, B.mu_hi = hi->mu;
  int slow = 0;
  double moved_before = INFINITY;
  *dy = 0;
  for (int it = 0; t->F != 0; ++it) {
    bracket_update(&B, t);
    if (it == kMaxNewton) {
      taper_bisect(t, P, B.s_lo, B.s_hi);
      return;
    }
    const int ok = t->F_y > 0;
    double k = NAN;
    const double step = ok ? taper_step(&k, t) : 0.0;
    if (ok && fabs(step) <= 4e-16 * fabs(t->y) + 1e-300) return;
    if (ok && taper_taylor_ok(t, P, step)) {
      *dy = step;
      return;
    }
    if (fabs(t->F) <= kFNoise * t->F_scale) return;
    const double F_before = fabs(t->F), y_before = t->y;
    const int forced = slow == kSlowSteps;
    if (forced || !taper_next_step(t, P, &B, step, k))
      if (!taper_next_bisect(t, P, &B)) return;
    const double moved = fabs(t->y - y_before);
    if (moved <= 1e-12 * fabs(y_before) && fabs(t->F) >= F_before) return;
    slow = !forced && (fabs(t->F) > 0.5 * F_before || moved > 0.5 * moved_before) ? slow + 1 : 0;
    moved_before = moved;
  }
}

/* Support point at a solved state advanced by the step dy (second-order
 * Taylor update of s and of log x_i along the surface); returns dir . x. */
static double taper_point(double x[3], const taper_state *t, const taper_problem *P,
                          const sovc_shape *shape, const double v[3], double dy) {
  const double base[2] = {t->c * shape->a[0] * t->kx * t->slice.g[0],
                          t->c * shape->a[1] * t->ky * t->slice.g[1]};
  if (dy == 0) {
    x[0] = copysign(base[0], v[0]);
    x[1] = copysign(base[1], v[1]);
    x[2] = shape->a[2] * t->s;
    return P->V * t->s + t->c * t->slice.n;
  }
  double E[2];
  taper_point_rates(E, t, P);
  const double ds = t->s_y * dy + 0.5 * t->s_yy * dy * dy;
  /* ds^2 (E^2 + dE/ds), dE/ds = -q lt^2 - (q-1) D - (mu_s/c + (mu/c)^2), in
   * products of ds first: near a pole mu/c reaches 1e300 and its square
   * overflows while ds * mu/c stays small (taper_solve's step test). */
  const double ds_cs = ds * (t->mu / t->c), ds_dcs = (ds * t->mu_s) * (ds / t->c) + ds_cs * ds_cs;
  const double lt[2] = {t->a, t->b};
  for (int i = 0; i < 2; ++i) {
    const double u = ds * E[i];
    const double second = u * u - ds * ds * (P->q * lt[i] * lt[i] + (P->q - 1) * t->D) - ds_dcs;
    x[i] = copysign(base[i] * (1 + u + 0.5 * second), v[i]);
  }
  x[2] = shape->a[2] * clamp_pole(t->s + ds);
  return v[0] * x[0] + v[1] * x[1] + v[2] * x[2];
}

/* Tangent line of f at a state: value f(s) = V s + c N and slope
 * f'(s) = V - mu N + c N' = -N F. */
static void taper_tangent(double *f, double *slope, const taper_state *t, const taper_problem *P) {
  *f = P->V * t->s + t->c * t->slice.n;
  *slope = -t->slice.n * t->F;
}

/* Upper bound of f between the evaluated states lo and hi: c is at most its
 * value at the end nearer the equator (1 across it) and N, a norm of an
 * affine function of s, is convex, so f <= V s + c_max N, a convex function
 * whose maximum lies at an end. */
static double cell_bound(const taper_state *lo, const taper_state *hi, const taper_problem *P) {
  const double cmax = lo->s < 0 && hi->s > 0 ? 1.0 : fmax(lo->c, hi->c);
  return fmax(P->V * lo->s + cmax * lo->slice.n, P->V * hi->s + cmax * hi->slice.n);
}

/* The better of h (x) and the support point of the state t advanced by dy. */
static double keep_better(double x[3], double h, const taper_state *t, const taper_problem *P,
                          const sovc_shape *shape, const double v[3], double dy) {
  double xt[3];
  const double ht = taper_point(xt, t, P, shape, v, dy);
  if (ht > h) h = ht, x[0] = xt[0], x[1] = xt[1], x[2] = xt[2];
  return h;
}

/* The better of h (x) and the surface point of the evaluated state t, taken
 * only when higher by more than kCellTol (not for rounding next to a
 * maximum solved nearby). */
static double keep_node(double x[3], double h, const taper_state *t, const taper_problem *P,
                        const sovc_shape *shape, const double v[3]) {
  const double f = P->V * t->s + t->c * t->slice.n;
  return f > h + kCellTol * fabs(f) ? keep_better(x, h, t, P, shape, v, 0) : h;
}

/* The better of h (x) and what the cell between the evaluated states lo
 * and hi of a dent zone shows at once: a rising then falling bracket
 * (F < 0 < F) solved, else its ends (a maximum can still hide inside next
 * to a minimum, both sign changes of F between its ends: near a pole next
 * to a sharp switch of the slice support; and a bracket can hold two
 * maxima with a minimum between them: a tapered Panda link, 0.022 apart in
 * s). What it may hide is bounded by cell_bound; zone_maxima halves it. */
static double zone_cell(double x[3], double h, const taper_problem *P, const sovc_shape *shape,
                        const double v[3], const taper_state *lo, const taper_state *hi) {
  if (lo->F < 0 && hi->F > 0) {
    taper_state t;
    double dy = 0;
    taper_eval_s(&t, P, 0.5 * (lo->s + hi->s));
    taper_solve(&t, &dy, P, lo, hi);
    return keep_better(x, h, &t, P, shape, v, dy);
  }
  return keep_node(x, keep_node(x, h, lo, P, shape, v), hi, P, shape, v);
}

/* Height in (lo, hi) where the slice support of the direction switches
 * sharply between its x and y terms (A0 kx = B0 ky, eps1 near 2 with
 * unequal tapers, switch narrower than about 1/SOVC_SHARP_SWITCH), NaN if none. */
static double switch_height(const taper_problem *P, double lo, double hi) {
  const double zs = (P->B0 - P->A0) / (P->A0 * P->tx - P->B0 * P->ty);
  return zs > lo && zs < hi && P->q * fabs(P->tx - P->ty) > SOVC_SHARP_SWITCH ? zs : NAN;
}

/* The heights cutting a dent zone [zl, zh] into cells: kZoneScan equal
 * steps, and the direction's sharp switch (a kink of f, a minimum between
 * two maxima) where there is one; returns their number. */
static int zone_edges(double edge[kZoneScan + 2], const taper_problem *P, double zl, double zh) {
  const double zs = switch_height(P, zl, zh);
  int n = 0;
  for (int i = 0; i <= kZoneScan; ++i) {
    const double si = i == kZoneScan ? zh : zl + (zh - zl) * i / kZoneScan;
    if (i > 0 && zs > edge[n - 1] && zs < si) edge[n++] = zs;
    edge[n++] = si;
  }
  return n;
}

/* The evaluated state at edge k of a zone (lo and hi at its ends). */
static void zone_state(taper_state *t, const taper_problem *P, const double *edge, int k, int n,
                       const taper_state *lo, const taper_state *hi) {
  if (k == 0)
    *t = *lo;
  else if (k == n - 1)
    *t = *hi;
  else
    taper_eval_s(t, P, edge[k]);
}

/* Cells of a dent zone waiting to be halved: their ends (heights), bounds
 * and, where an end is a scanned edge, its index in the scan's states (-1
 * for a halving's midpoint). At most the scan's cells and two per halving. */
typedef struct zone_cells {
  double lo[kZoneScan + 1 + 2 * kZoneSplits], hi[kZoneScan + 1 + 2 * kZoneSplits];
  double bound[kZoneScan + 1 + 2 * kZoneSplits];
  int scan_lo[kZoneScan + 1 + 2 * kZoneSplits], scan_hi[kZoneScan + 1 + 2 * kZoneSplits];
  int n;
} zone_cells;

/* The state at height s, an end of a cell: the scan's state e, else (e < 0)
 * evaluated into *t. */
static const taper_state *cell_end(taper_state *t, const taper_problem *P, const taper_state *scan,
                                   int e, double s) {
  if (e >= 0) return &scan[e];
  taper_eval_s(t, P, s);
  return t;
}

/* Visit the cell between the evaluated states a and b and append it, as
 * cell c->n - 1, to those to halve (its scan indices are the caller's). */
static double zone_visit(double x[3], double h, zone_cells *c, const taper_problem *P,
                         const sovc_shape *shape, const double v[3], const taper_state *a,
                         const taper_state *b) {
  h = zone_cell(x, h, P, shape, v, a, b);
  c->lo[c->n] = a->s, c->hi[c->n] = b->s, c->bound[c->n] = cell_bound(a, b, P);
  ++c->n;
  return h;
}

/* Inside the dent zone f need not be concave: it can have a maximum on each
 * side of a local minimum (iCub links: two 0.09 apart in s, 5e-16 apart
 * relative to |v|), so the zone is cut into cells (zone_edges) and each
 * cell visited (zone_cell); then, while kZoneSplits halvings last, the
 * cell of highest bound is halved and its halves visited, until every
 * bound is within kCellTol of the best value. Halved depth first from the
 * zone's low end, the halvings ran out on cells whose loose bounds still
 * exceeded h before the one holding the maximum (a box-like fitted link
 * tapered 0.86, a tapered Panda link: 5.9e-10 and 7.8e-11 of the support
 * missed, 2e-8 and 2.5e-9 of the size). Keeps the largest. The zone is
 * skipped where f cannot beat h on it: c <= 1 and N, a norm of an affine
 * function of s, is convex, so f <= V s + N, a convex function whose
 * maximum lies at an end (lo and hi, the states at the zone's ends). */
static double zone_maxima(double x[3], double h, const taper_problem *P, const sovc_shape *shape,
                          const double v[3], const taper_state *lo, const taper_state *hi) {
  const double zl = shape->dent_zone[0], zh = shape->dent_zone[1];
  const double outer = fmax(P->V * zl + lo->slice.n, P->V * zh + hi->slice.n);
  if (outer + 1e-14 * fabs(outer) < h) return h;
  double edge[kZoneScan + 2];
  const int n = zone_edges(edge, P, zl, zh);
  zone_cells c;
  c.n = 0;
  /* Most halvings split a scanned cell: its ends' states are kept, not
   * evaluated again. Only those the profile did not clamp to another
   * height: evaluating at their own height again gives the same state. */
  taper_state scan[kZoneScan + 2], a, b, m;
  scan[0] = *lo;
  for (int k = 0; k + 1 < n; ++k) {
    zone_state(&scan[k + 1], P, edge, k + 1, n, lo, hi);
    h = zone_visit(x, h, &c, P, shape, v, &scan[k], &scan[k + 1]);
    c.scan_lo[c.n - 1] = scan[k].s == edge[k] ? k : -1;
    c.scan_hi[c.n - 1] = scan[k + 1].s == edge[k + 1] ? k + 1 : -1;
  }
  for (int budget = kZoneSplits; budget > 0; --budget) {
    int best = 0;
    for (int k = 1; k < c.n; ++k)
      if (c.bound[k] > c.bound[best]) best = k;
    const double s = 0.5 * (c.lo[best] + c.hi[best]);
    if (!(c.bound[best] > h + kCellTol * fabs(c.bound[best])) ||
        !(s > c.lo[best] && s < c.hi[best]))
      break;
    const int lo_end = c.scan_lo[best], hi_end = c.scan_hi[best];
    const taper_state *pa = cell_end(&a, P, scan, lo_end, c.lo[best]);
    const taper_state *pb = cell_end(&b, P, scan, hi_end, c.hi[best]);
    taper_eval_s(&m, P, s);
    c.bound[best] = -INFINITY; /* replaced by its halves */
    h = zone_visit(x, h, &c, P, shape, v, pa, &m);
    c.scan_lo[c.n - 1] = lo_end, c.scan_hi[c.n - 1] = -1;
    h = zone_visit(x, h, &c, P, shape, v, &m, pb);
    c.scan_lo[c.n - 1] = -1, c.scan_hi[c.n - 1] = hi_end;
  }
  return h;
}

/* f is concave outside the dent zone, so a dented body has at most one
 * maximum on each side of it: in each outer part the first solve did not
 * land in, solve where the residual brackets a maximum (F < 0 < F, f rising
 * then falling), else take the endpoint f rises towards; the zone itself is
 * scanned (zone_maxima); keep the largest (x, h updated in place). An outer
 * part lies below the tangent at its inner end (concavity): where that
 * tangent stays below h over the part, it holds no better point. */
static double other_side(double x[3], double h, const taper_problem *P,
                         const sovc_shape *shape, const double v[3]) {
  const double s = x[2] / shape->a[2], zl = shape->dent_zone[0], zh = shape->dent_zone[1];
  const double part[3][2] = {{-1, zl}, {zl, zh}, {zh, 1}};
  taper_state ends[2]; /* at zl and zh */
  taper_eval_s(&ends[0], P, zl);
  if (zh > zl) {
    taper_eval_s(&ends[1], P, zh);
    h = zone_maxima(x, h, P, shape, v, &ends[0], &ends[1]);
  } else {
    ends[1] = ends[0];
  }
  for (int k = 0; k < 3; k += 2) {
    if ((s >= part[k][0] && s <= part[k][1]) || !(part[k][1] > part[k][0])) continue;
    const taper_state *inner = &ends[k / 2];
    double f, slope;
    taper_tangent(&f, &slope, inner, P);
    const double bound = f + fmax(0.0, slope * ((k == 0 ? -1 : 1) - inner->s));
    if (bound + 1e-14 * fabs(bound) < h) continue;
    taper_state lo, hi, t;
    double dy = 0, xt[3];
    if (k == 0) {
      taper_eval(&lo, P, -P->ymax);
      hi = *inner;
    } else {
      lo = *inner;
      taper_eval(&hi, P, P->ymax);
    }
    if (lo.F < 0 && hi.F > 0) { /* start mid-height: y's upper end can be huge */
      taper_eval_s(&t, P, 0.5 * (part[k][0] + part[k][1]));
      taper_solve(&t, &dy, P, &lo, &hi);
    } else {
      t = hi.F <= 0 ? hi : lo;
    }
    const double ht = taper_point(xt, &t, P, shape, v, dy);
    if (ht > h) h = ht, x[0] = xt[0], x[1] = xt[1], x[2] = xt[2];
  }
  return h;
}

/* The 1-D problem of a tapered shape for direction v. */
static void taper_setup(taper_problem *P, const sovc_shape *shape, const double v[3]) {
  P->A0 = shape->a[0] * fabs(v[0]);
  P->B0 = shape->a[1] * fabs(v[1]);
  P->tx = shape->taper[0];
  P->ty = shape->taper[1];
  P->V = v[2] * shape->a[2];
  P->q = 2 / (2 - shape->eps1);
  P->m = 2 / shape->eps2;
  P->mu_var = shape->eps2 >= 1;
  P->ymax = exp(kLogYmax * (P->mu_var ? (P->m - 1) / P->m : 1 / P->m));
  P->equal = P->tx == P->ty;
  if (P->equal) lp_pair_eval(&P->slice0, P->A0, P->B0, P->q);
}

/* Support of a tapered superovoid by the 1-D search; returns h. */
static double support_tapered(double x[3], const sovc_shape *shape, const double v[3], double z0) {
  taper_problem P;
  taper_setup(&P, shape, v);
  if (P.A0 == 0 && P.B0 == 0 && P.V != 0) { /* a1 v1, a2 v2 underflow: the pole */
    x[0] = x[1] = 0;
    x[2] = copysign(shape->a[2], v[2]);
    return fabs(P.V);
  }
  taper_state t, t0;
  double dy;
  if (isfinite(z0) && fabs(z0) < 1) {
    taper_eval_s(&t, &P, z0);
    taper_solve(&t, &dy, &P, NULL, NULL);
  } else { /* the first fixed-point step from the equator, mu = R(0); the
              equator is one end of the bracket */
    taper_eval(&t0, &P, 0.0);
    t = t0;
    taper_fixed_point(&t, &P);
    taper_solve(&t, &dy, &P, t0.F < 0 ? &t0 : NULL, t0.F < 0 ? NULL : &t0);
  }
  if (t.F_y < 0) { /* a local minimum inside a tolerated dent: try both sides */
    taper_state left, right;
    double dy_l, dy_r;
    taper_eval_s(&left, &P, 0.5 * (t.s - 1));
    taper_solve(&left, &dy_l, &P, NULL, &t);
    taper_eval_s(&right, &P, 0.5 * (t.s + 1));
    taper_solve(&right, &dy_r, &P, &t, NULL);
    double xl[3];
    const double hl = taper_point(xl, &left, &P, shape, v, dy_l);
    double h = taper_point(x, &right, &P, shape, v, dy_r);
    if (hl >= h) h = hl, x[0] = xl[0], x[1] = xl[1], x[2] = xl[2];
    return shape->dent > SOVC_DENT_NEGLECT ? other_side(x, h, &P, shape, v) : h;
  }
  const double h = taper_point(x, &t, &P, shape, v, dy);
  return shape->dent > SOVC_DENT_NEGLECT ? other_side(x, h, &P, shape, v) : h;
}

/* Support point x maximising dir . x over the body; returns h = dir . x. */
double sovc_support(double x[3], const sovc_shape *shape, const double dir[3], double z0) {
  if (dir[0] == 0 && dir[1] == 0) { /* pole (or zero direction: origin) */
    x[0] = x[1] = 0;
    x[2] = dir[2] == 0 ? 0.0 : copysign(shape->a[2], dir[2]);
    return fabs(dir[2]) * shape->a[2];
  }
  if (shape->taper[0] == 0 && shape->taper[1] == 0) return support_untapered(x, shape, dir);
  return support_tapered(x, shape, dir, z0);
}

/* Bounds on the support value (see support.h): f is concave on [-1, 1]
 * for an exactly convex body, so it lies below its tangents at the equator
 * and at the first fixed-point step (the search's first two evaluations),
 * hence below their minimum, a concave piecewise-linear function whose
 * maximum over [-1, 1] is at an end or where they cross; and the values
 * there are values of surface points. */
double sovc_support_bound(double *lower, const sovc_shape *shape, const double dir[3]) {
  double x[3];
  if ((dir[0] == 0 && dir[1] == 0) || (shape->taper[0] == 0 && shape->taper[1] == 0) ||
      shape->dent > 0)
    return *lower = sovc_support(x, shape, dir, NAN);
  taper_problem P;
  taper_setup(&P, shape, dir);
  if (P.A0 == 0 && P.B0 == 0) return *lower = sovc_support(x, shape, dir, NAN); /* underflow */
  taper_state t0, t1;
  taper_eval(&t0, &P, 0.0);
  t1 = t0;
  taper_fixed_point(&t1, &P);
  double f0, g0, f1, g1;
  taper_tangent(&f0, &g0, &t0, &P);
  taper_tangent(&f1, &g1, &t1, &P);
  *lower = isfinite(f1) ? fmax(f0, f1) : f0;
  double bound = f0 + fabs(g0); /* the equator's tangent alone (t0.s = 0) */
  if (isfinite(f1 + g1)) {      /* min of both tangents at s = -1, 1 and where they cross */
    const double ends[2] = {-1, 1};
    bound = -INFINITY;
    for (int k = 0; k < 2; ++k)
      bound = fmax(bound, fmin(f0 + g0 * (ends[k] - t0.s), f1 + g1 * (ends[k] - t1.s)));
    if (g0 != g1) {
      const double sx = (f1 - f0 + g0 * t0.s - g1 * t1.s) / (g0 - g1);
      if (sx > -1 && sx < 1) bound = fmax(bound, fmin(f0 + g0 * (sx - t0.s), f1 + g1 * (sx - t1.s)));
    }
  }
  return bound + 1e-14 * fabs(bound); /* rounding in the tangents */
}

/* The 1-D search cut short (see support.h): Halley steps from the hint's
 * height without the bracket (any height gives a surface point), each kept
 * only if it raises f, so a step from far away cannot make it worse. */
double sovc_support_steps(double x[3], const sovc_shape *shape, const double dir[3], double s,
                          int steps) {
  if ((dir[0] == 0 && dir[1] == 0) || (shape->taper[0] == 0 && shape->taper[1] == 0) ||
      !(fabs(s) < 1))
    return sovc_support(x, shape, dir, s);
  taper_problem P;
  taper_setup(&P, shape, dir);
  taper_state t, next;
  taper_eval_s(&t, &P, s);
  for (int k = 0; k < steps && t.F != 0 && t.F_y > 0; ++k) {
    double curvature;
    const double y = t.y + taper_step(&curvature, &t);
    if (!(fabs(y) <= P.ymax)) break;
    taper_eval(&next, &P, y);
    double f, fn, slope;
    taper_tangent(&f, &slope, &t, &P);
    taper_tangent(&fn, &slope, &next, &P);
    if (!isfinite(next.F) || !(fn > f)) break;
    t = next;
  }
  return taper_point(x, &t, &P, shape, dir, 0);
}

/* Untapered support mapped through the taper. */
void sovc_support_seed(double x[3], const sovc_shape *shape, const double dir[3]) {
  if (dir[0] == 0 && dir[1] == 0) {
    sovc_support(x, shape, dir, NAN);
    return;
  }
  support_untapered(x, shape, dir);
  const double s = x[2] / shape->a[2];
  x[0] *= 1 + shape->taper[0] * s;
  x[1] *= 1 + shape->taper[1] * s;
}
