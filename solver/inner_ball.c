/* Overlap certificate by inner balls. If A contains the ball of radius rA
 * tangent to its surface at pA and B the ball of radius rB tangent at pB,
 * then D = A - B contains their Minkowski difference, the ball of radius
 * R = rA + rB about e = cA - cB, so h_D(v) >= v . e + R >= R - |e| for every
 * unit v: no direction has an objective above |e| - R. With the balls'
 * centres on the normals, |e| - R equals the local answer's d (to second
 * order in the normals' error when R > -d). One local answer is then the
 * global one, without the polytope search.
 *
 * A ball B(c, r) tangent at surface point p (F(p) = 0, outward normal
 * m = grad F / |grad F|, c = p - r m) lies in the body when
 * r * M <= |grad F(p)|, M an upper bound of the Hessian's largest eigenvalue
 * over the ball: Taylor's theorem along the segment from p to a point
 * y = c + r u of the ball gives
 * F(y) <= r (1 - u.m) (r M - |grad F|) <= 0. M comes from interval
 * arithmetic on the SPEC's F over the ball's bounding box (local frame) and
 * Gershgorin's theorem. The proof holds to the witnesses' own distance
 * from their surfaces (the solver's tolerance) and to rounding, which is
 * not directed here. */
#include "solver/inner_ball.h"

#include <math.h>
#include <stddef.h>

#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/shape.h"

enum { kBisections = 7 };

/* Cap proofs fit disks with r M <= (1 - kFitMargin) |grad F|: the margin
 * absorbs the witnesses' normal error (see sovc_proved_cap). */
static const double kFitMargin = 1e-3;

typedef struct interval {
  double lo, hi;
} interval;

/* An interval with a NaN end (0 * inf) is unbounded. */
static interval sane(interval a) {
  if (isnan(a.lo)) a.lo = -INFINITY;
  if (isnan(a.hi)) a.hi = INFINITY;
  return a;
}

/* min and max of numbers known not to be NaN (fmin and fmax are calls). */
static double lesser(double a, double b) { return a < b ? a : b; }
static double greater(double a, double b) { return a > b ? a : b; }

static interval iv(double lo, double hi) {
  const interval r = {lo, hi};
  return r;
}

static interval add(interval a, interval b) { return sane(iv(a.lo + b.lo, a.hi + b.hi)); }

static interval mul(interval a, interval b) {
  const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  if (isnan(p[0]) || isnan(p[1]) || isnan(p[2]) || isnan(p[3])) return iv(-INFINITY, INFINITY);
  return iv(lesser(lesser(p[0], p[1]), lesser(p[2], p[3])),
            greater(greater(p[0], p[1]), greater(p[2], p[3])));
}

static interval scale(double c, interval a) {
  return c >= 0 ? sane(iv(c * a.lo, c * a.hi)) : sane(iv(c * a.hi, c * a.lo));
}

/* a / b for b > 0. */
static interval divide_positive(interval a, interval b) { return mul(a, iv(1 / b.hi, 1 / b.lo)); }

/* Powers t^(p-2), t^(p-1), t^p, t^(2p-2) of t >= 0 (p > 1) from one
 * power. */
typedef struct powers {
  double m2, m1, p0, d2;
} powers;

static powers powers_of(double t, double p) {
  powers r;
  r.m2 = sovc_power(t, p - 2);
  r.m1 = t > 0 ? r.m2 * t : 0.0;
  r.p0 = r.m1 * t;
  r.d2 = r.m1 * r.m1;
  return r;
}

/* Range of a monotone function of t over [t0, t1] from its end values. */
static interval span(double f0, double f1) {
  if (isnan(f0) || isnan(f1)) return iv(-INFINITY, INFINITY);
  return iv(lesser(f0, f1), greater(f0, f1));
}

/* Ranges over the interval u of |u|^(p-2), |u|^p, |u|^(2p-2) (monotone in
 * |u|) and sign(u) |u|^(p-1) (increasing in u). */
typedef struct coordinate_powers {
  interval m2, p0, d2, signed_m1;
} coordinate_powers;

static coordinate_powers coordinate_powers_of(interval u, double p) {
  const powers a = powers_of(fabs(u.lo), p), b = powers_of(fabs(u.hi), p);
  coordinate_powers r;
  r.signed_m1 = iv(u.lo < 0 ? -a.m1 : a.m1, u.hi < 0 ? -b.m1 : b.m1);
  if (u.lo < 0 && u.hi > 0) {
    /* |u| spans [0, max]: the far end's powers and those of 0. */
    const powers far = fabs(u.lo) > fabs(u.hi) ? a : b, zero = powers_of(0, p);
    r.m2 = span(zero.m2, far.m2);
    r.p0 = span(zero.p0, far.p0);
    r.d2 = span(zero.d2, far.d2);
  } else {
    r.m2 = span(a.m2, b.m2);
    r.p0 = span(a.p0, b.p0);
    r.d2 = span(a.d2, b.d2);
  }
  return r;
}

/* A non-negative bracket's range, its upper end tightened by a second
 * bound (a NaN product from 0 * inf has become [-inf, inf]). */
static interval tighten(interval a, double hi) { return iv(greater(a.lo, 0), lesser(a.hi, hi)); }

/* A symmetric bracket [-m, m] tightened onto a. */
static interval clamp(interval a, double m) { return iv(greater(a.lo, -m), lesser(a.hi, m)); }

/* Intersection of two enclosures of one range. */
static interval meet(interval a, interval b) { return iv(greater(a.lo, b.lo), lesser(a.hi, b.hi)); }

/* Range of a / (a + b) for a, b >= 0 in their ranges ([0, 1] where both
 * may vanish). */
static interval share(interval a, interval b) {
  const double lo = a.lo > 0 ? a.lo / (a.lo + b.hi) : 0;
  const double hi = a.hi > 0 && b.lo > 0 ? a.hi / (a.hi + b.lo) : 1;
  return iv(isnan(lo) ? 0 : lo, isnan(hi) ? 1 : hi);
}

/* The cross-section's derivatives over a box: f = S^g with
 * S = |U|^p + |V|^p (U, V the scaled coordinates), p = 2 / eps1,
 * g = eps1 / eps2; first and second derivatives in U and V. */
typedef struct section_derivatives {
  interval fU, fV, fUU, fVV, fUV;
} section_derivatives;

/* Powers of S at its ends: S^(g-1), S^(g-2) and, for the bounds below,
 * S^(g-2/p) and S^(g-1/p) (with |U|^p, |V|^p <= S, products such as
 * S^(g-2) |U|^(2p-2) are at most S^(g-2/p): finite on the z axis when
 * eps2 <= 1, where the products of independent ranges are not). */
static void section_powers(interval *Sg1, interval *Sg2, double *bE, double *bu, interval Sx,
                           double p, double g) {
  double s_g1[2], s_g2[2], s_E[2], s_u[2];
  for (int k = 0; k < 2; ++k) {
    const double t = k ? Sx.hi : Sx.lo;
    s_g1[k] = sovc_power(t, g - 1);
    if (t > 0) {
      const double y = sovc_power_or_root(t, 1 - 1 / p); /* s_u / s_g1; its square / t is s_E / s_g1 */
      s_g2[k] = s_g1[k] / t;
      s_u[k] = s_g1[k] * y;
      s_E[k] = s_u[k] * y / t;
    } else {
      s_g2[k] = sovc_power(0, g - 2);
      s_u[k] = sovc_power(0, g - 1 / p);
      s_E[k] = sovc_power(0, g - 2 / p);
    }
  }
  *Sg1 = span(s_g1[0], s_g1[1]);
  *Sg2 = span(s_g2[0], s_g2[1]);
  *bE = greater(s_E[0], s_E[1]);
  *bu = greater(s_u[0], s_u[1]);
}

/* The cross-section's derivatives over the box of U and V's powers. */
static section_derivatives section_derivatives_of(const coordinate_powers *cu,
                                                  const coordinate_powers *cv, double p, double g) {
  interval Sg1, Sg2;
  double bE, bu;
  section_powers(&Sg1, &Sg2, &bE, &bu, add(cu->p0, cv->p0), p, g);
  const interval b_uu1 = tighten(mul(Sg2, cu->d2), bE), b_vv1 = tighten(mul(Sg2, cv->d2), bE);
  const double bm2 = p >= 2 ? bE : INFINITY;
  const interval b_uu2 = tighten(mul(Sg1, cu->m2), bm2), b_vv2 = tighten(mul(Sg1, cv->m2), bm2);
  const interval b_uv = clamp(mul(Sg2, mul(cu->signed_m1, cv->signed_m1)), bE);
  section_derivatives f;
  f.fU = scale(g * p, clamp(mul(Sg1, cu->signed_m1), bu));
  f.fV = scale(g * p, clamp(mul(Sg1, cv->signed_m1), bu));
  /* f_UU = g (g-1) p^2 S^(g-2) |U|^(2p-2) + g p (p-1) S^(g-1) |U|^(p-2)
   *      = g p S^(g-1) |U|^(p-2) ((p - 1) + p (g - 1) a), a = |U|^p / S:
   * for g < 1 the two terms cancel, which their intervals do not know,
   * while the product's factors are non-negative; a rises with |U| and
   * falls with |V|, so its range is exact from theirs. Both forms enclose
   * f_UU: their intersection is kept. */
  const interval aU = share(cu->p0, cv->p0), aV = share(cv->p0, cu->p0);
  f.fUU = meet(add(scale(g * (g - 1) * p * p, b_uu1), scale(g * p * (p - 1), b_uu2)),
               scale(g * p, mul(b_uu2, add(iv(p - 1, p - 1), scale(p * (g - 1), aU)))));
  f.fVV = meet(add(scale(g * (g - 1) * p * p, b_vv1), scale(g * p * (p - 1), b_vv2)),
               scale(g * p, mul(b_vv2, add(iv(p - 1, p - 1), scale(p * (g - 1), aV)))));
  f.fUV = scale(g * (g - 1) * p * p, b_uv);
  return f;
}

/* See inner_ball.h. With U = x / (a1 kx),
 * V = y / (a2 ky), w = z / a3, S = |U|^p + |V|^p (p = 2/eps1, q = 2/eps2,
 * g = eps1/eps2), F = S^g + |w|^q - 1. */
int sovc_hessian_ranges(double Hlo[9], double Hhi[9], const sovc_shape *S, const double lo[3],
                        const double hi[3]) {
  const double a1 = S->a[0], a2 = S->a[1], a3 = S->a[2];
  const double p = 2 / S->eps1, q = 2 / S->eps2, g = S->eps1 / S->eps2;
  const double tx = S->taper[0], ty = S->taper[1];
  /* An ellipsoid's Hessian is the constant diag(2 / a_i^2): the ranges
   * below come to it (to an ulp) through twenty interval products. */
  if (sovc_is_ellipsoid(S)) {
    for (int i = 0; i < 9; ++i) Hlo[i] = Hhi[i] = 0;
    for (int i = 0; i < 3; ++i) Hlo[4 * i] = Hhi[4 * i] = 2 / (S->a[i] * S->a[i]);
    return 1;
  }
  const interval w = iv(lo[2] / a3, hi[2] / a3);
  const interval kx = add(iv(1, 1), scale(tx, w)), ky = add(iv(1, 1), scale(ty, w));
  if (!(kx.lo > 0 && ky.lo > 0)) return 0;
  const interval U = divide_positive(iv(lo[0], hi[0]), scale(a1, kx));
  const interval V = divide_positive(iv(lo[1], hi[1]), scale(a2, ky));
  const coordinate_powers cu = coordinate_powers_of(U, p), cv = coordinate_powers_of(V, p);
  const section_derivatives f = section_derivatives_of(&cu, &cv, p, g);
  const interval fU = f.fU, fV = f.fV, fUU = f.fUU, fVV = f.fVV, fUV = f.fUV;
  const coordinate_powers cw = coordinate_powers_of(w, q);
  const interval fww = scale(q * (q - 1), cw.m2);
  /* Chain rule through U = x / (a1 kx), V = y / (a2 ky), w = z / a3:
   * dU/dx = 1 / (a1 kx), dU/dz = -U lx, d2U/dxdz = -lx / (a1 kx),
   * d2U/dz2 = 2 U lx^2 with lx = tx / (a3 kx); likewise V. */
  const interval Ux = divide_positive(iv(1, 1), scale(a1, kx));
  const interval Vy = divide_positive(iv(1, 1), scale(a2, ky));
  const interval lx = divide_positive(iv(tx, tx), scale(a3, kx));
  const interval ly = divide_positive(iv(ty, ty), scale(a3, ky));
  const interval Uz = scale(-1, mul(U, lx)), Vz = scale(-1, mul(V, ly));
  interval H[3][3];
  H[0][0] = mul(fUU, mul(Ux, Ux));
  H[1][1] = mul(fVV, mul(Vy, Vy));
  H[0][1] = mul(fUV, mul(Ux, Vy));
  H[0][2] = add(mul(add(mul(fUU, Uz), mul(fUV, Vz)), Ux), scale(-1, mul(fU, mul(Ux, lx))));
  H[1][2] = add(mul(add(mul(fUV, Uz), mul(fVV, Vz)), Vy), scale(-1, mul(fV, mul(Vy, ly))));
  interval zz = add(mul(fUU, mul(Uz, Uz)), mul(fVV, mul(Vz, Vz)));
  zz = add(zz, scale(2, mul(fUV, mul(Uz, Vz))));
  zz = add(zz, scale(1 / (a3 * a3), fww));
  zz = add(zz, scale(2, mul(fU, mul(U, mul(lx, lx)))));
  zz = add(zz, scale(2, mul(fV, mul(V, mul(ly, ly)))));
  H[2][2] = zz;
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      Hlo[3 * i + j] = Hlo[3 * j + i] = H[i][j].lo;
      Hhi[3 * i + j] = Hhi[3 * j + i] = H[i][j].hi;
    }
  return 1;
}

/* See inner_ball.h: Gershgorin's theorem on the ranges. */
double sovc_hessian_bound(const sovc_shape *S, const double lo[3], const double hi[3]) {
  double Hlo[9], Hhi[9];
  if (!sovc_hessian_ranges(Hlo, Hhi, S, lo, hi)) return INFINITY;
  double bound = -INFINITY;
  for (int i = 0; i < 3; ++i) {
    double row = Hhi[4 * i];
    for (int j = 0; j < 3; ++j)
      if (j != i) row += greater(fabs(Hlo[3 * i + j]), fabs(Hhi[3 * i + j]));
    bound = greater(bound, row);
  }
  return isnan(bound) ? INFINITY : bound;
}

/* A surface point in the local frame: position, unit outward normal and
 * |grad F|; 0 if F or its gradient is unusable there. */
typedef struct tangency {
  double x[3], m[3], gnorm;
} tangency;

/* The tangency at local surface point x. */
static int tangency_local(tangency *t, const sovc_shape *S, const double x[3]) {
  double F, g[3];
  for (int i = 0; i < 3; ++i) t->x[i] = x[i];
  if (!(fabs(x[2]) <= S->a[2])) return 0;
  sovc_implicit(&F, g, NULL, S, x);
  t->gnorm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  if (!(t->gnorm > 0) || !isfinite(t->gnorm)) return 0;
  for (int i = 0; i < 3; ++i) t->m[i] = g[i] / t->gnorm;
  return 1;
}

/* The tangency at world surface point p. */
static int tangency_at(tangency *t, const sovc_shape *S, const sovc_pose *X, const double p[3]) {
  double x[3];
  sovc_to_local(x, X, p);
  return tangency_local(t, S, x);
}

/* 1 if the ball of radius r tangent at t lies inside S. */
static int ball_inside(const sovc_shape *S, const tangency *t, double r) {
  double lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    const double c = t->x[i] - r * t->m[i];
    lo[i] = c - r;
    hi[i] = c + r;
  }
  return sovc_hessian_bound(S, lo, hi) * r <= t->gnorm;
}

/* See inner_ball.h. */
int sovc_inner_ball_fits(const sovc_shape *S, const double x[3], double r) {
  tangency t;
  return tangency_local(&t, S, x) && ball_inside(S, &t, r);
}

/* Largest of 2, 1, 1/2 and 1/4 times depth for which the ball tangent at
 * t lies inside S, else 0; *fails is the last radius tried that does not
 * fit (2 depth when the first fits). */
static double coarse_radius(const sovc_shape *S, const tangency *t, double depth, double *fails) {
  *fails = 2 * depth;
  /* Counted, not compared: at subnormal or infinite depths r would never
   * pass below depth / 4. */
  double r = 2 * depth;
  for (int k = 0; k < 4; ++k, r *= 0.5) {
    if (ball_inside(S, t, r)) return r;
    *fails = r;
  }
  return 0;
}

/* Nearly the largest radius in [lo, hi) that fits, given that lo fits and
 * hi does not (bisection: the Hessian bound grows with the ball). */
static double bisected_radius(const sovc_shape *S, const tangency *t, double lo, double hi,
                              int bisections) {
  for (int k = 0; k < bisections; ++k) {
    const double mid = 0.5 * (lo + hi);
    if (ball_inside(S, t, mid))
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/* See inner_ball.h. */
double sovc_inner_ball_bisect(const sovc_shape *S, const double x[3], double lo, double hi,
                              int bisections) {
  tangency t;
  return tangency_local(&t, S, x) ? bisected_radius(S, &t, lo, hi, bisections) : lo;
}

/* 1 if the balls of radii rA, rB tangent at the witnesses prove r within
 * tol: |e| - (rA + rB) <= d + tol, e = cA - cB in the world frame. */
static int balls_prove(const sovc_result *r, const sovc_pose *XA, const tangency *ta, double rA,
                       const sovc_pose *XB, const tangency *tb, double rB, double tol) {
  double mA[3], mB[3], e2 = 0;
  sovc_rotate(mA, XA->R, ta->m);
  sovc_rotate(mB, XB->R, tb->m);
  for (int i = 0; i < 3; ++i) {
    const double e = (r->pA[i] - rA * mA[i]) - (r->pB[i] - rB * mB[i]);
    e2 += e * e;
  }
  return sqrt(e2) - (rA + rB) <= r->d + tol;
}

/* The balls of a certificate: their tangencies and radii. */
typedef struct ball_pair {
  tangency t[2];
  double r[2];
} ball_pair;

/* Inner balls at r's witnesses proving it within tol (see inner_ball.h);
 * fills the proof's balls in bp; 0 if they do not prove it. */
static int certify(ball_pair *bp, const sovc_result *r, const sovc_pair *P, double tol) {
  const double depth = -r->d;
  if (!(depth > 0)) return 0;
  tangency *ta = &bp->t[0], *tb = &bp->t[1];
  if (!tangency_at(ta, P->A, P->XA, r->pA) || !tangency_at(tb, P->B, P->XB, r->pB)) return 0;
  /* Cheap first: A's ball from a coarse sequence, then B's at twice the
   * depth (the normals' error then enters only to second order), else
   * what A leaves. */
  double failsA;
  const double rA = coarse_radius(P->A, ta, depth, &failsA), need = depth - rA;
  bp->r[0] = rA;
  if (ball_inside(P->B, tb, 2 * depth))
    bp->r[1] = 2 * depth;
  else if (need <= 0 || ball_inside(P->B, tb, need))
    bp->r[1] = need > 0 ? need : 0;
  else {
    /* Then nearly A's largest ball and what it leaves to B: still far
     * cheaper than the search. A's ball stays below failsA (a ball that
     * fails fails larger too: its box only grows), so B must hold at
     * least depth - failsA; most pairs here fail that at once, sparing
     * A's bisection. */
    if (!(failsA > rA) || !ball_inside(P->B, tb, depth - failsA)) return 0;
    bp->r[0] = bisected_radius(P->A, ta, rA, failsA, kBisections);
    bp->r[1] = depth - bp->r[0];
    if (!(bp->r[0] > rA) || !ball_inside(P->B, tb, bp->r[1])) return 0;
  }
  return balls_prove(r, P->XA, ta, bp->r[0], P->XB, tb, bp->r[1], tol);
}

/* See inner_ball.h. */
int sovc_inner_balls_certify(const sovc_result *r, const sovc_pair *P, double tol) {
  ball_pair bp;
  return certify(&bp, r, P, tol);
}

/* A cache's ball grown from a proved one of radius r at t by the factor
 * g: radius g r, and a box that also holds it after its centre moves by
 * (g - 1) r along each axis; 0 if it does not fit. A ball of radius 0 is
 * the witness itself, in the body anywhere on its surface. */
static int keep_ball(sovc_cache_ball *k, const sovc_shape *S, const tangency *t, double r, double g,
                     double travel) {
  if (r == 0) {
    for (int i = 0; i < 3; ++i) k->lo[i] = -INFINITY, k->hi[i] = INFINITY;
    k->radius = k->bound = 0;
    return 1;
  }
  const double rho = g * r, reach = rho + (g - 1) * r + travel;
  for (int i = 0; i < 3; ++i) {
    const double c = t->x[i] - rho * t->m[i];
    k->lo[i] = c - reach;
    k->hi[i] = c + reach;
  }
  k->radius = rho;
  k->bound = sovc_hessian_bound(S, k->lo, k->hi);
  return k->bound * rho <= t->gnorm;
}

/* Growth factors tried for a cache's balls, the largest first: the margin
 * lets the next answer of a moving pair, somewhat deeper and its witnesses
 * elsewhere, reuse them. */
static const double kKeepGrowth[] = {1.25, 1.0625};

/* A shallow overlap's balls are small, and a pair moving by steps longer
 * than a quarter of their radius left the grown box at every step: the box
 * is first tried this many times the balls' last travel wider. */
static const double kTravelMargin = 2;

/* How far the ball of radius r tangent at t has moved from the centre of
 * the box of prev (largest coordinate change; 0 without a usable prev). */
static double ball_travel(const sovc_cache_ball *prev, const tangency *t, double r) {
  double travel = 0;
  for (int i = 0; prev && i < 3; ++i) {
    const double moved = fabs(t->x[i] - r * t->m[i] - 0.5 * (prev->lo[i] + prev->hi[i]));
    travel = isfinite(moved) && moved > travel ? moved : travel;
  }
  return travel;
}

/* See inner_ball.h. */
int sovc_inner_balls_certify_keep(sovc_cache_ball keep[2], int *kept, const sovc_result *r,
                                  const sovc_pair *P, double tol, const sovc_cache_ball prev[2]) {
  ball_pair bp;
  *kept = 0;
  if (!certify(&bp, r, P, tol)) return 0;
  const double travel[2] = {kTravelMargin * ball_travel(prev ? &prev[0] : NULL, &bp.t[0], bp.r[0]),
                            kTravelMargin * ball_travel(prev ? &prev[1] : NULL, &bp.t[1], bp.r[1])};
  if (travel[0] > 0 || travel[1] > 0)
    *kept = keep_ball(&keep[0], P->A, &bp.t[0], bp.r[0], kKeepGrowth[0], travel[0]) &&
            keep_ball(&keep[1], P->B, &bp.t[1], bp.r[1], kKeepGrowth[0], travel[1]);
  for (size_t k = 0; k < sizeof kKeepGrowth / sizeof kKeepGrowth[0] && !*kept; ++k) {
    const double g = kKeepGrowth[k];
    *kept = keep_ball(&keep[0], P->A, &bp.t[0], bp.r[0], g, 0) &&
            keep_ball(&keep[1], P->B, &bp.t[1], bp.r[1], g, 0);
  }
  return 1;
}

/* 1 if the cache's ball k, tangent at t, lies in its box and its bound
 * lets it fit there (a bound of a convex F's Hessian is not negative: a
 * cache written over by anything else proves nothing). */
static int kept_ball_fits(const sovc_cache_ball *k, const tangency *t) {
  if (!(k->radius >= 0 && k->bound >= 0 && isfinite(k->radius * k->bound))) return 0;
  for (int i = 0; i < 3; ++i) {
    const double c = t->x[i] - k->radius * t->m[i];
    if (!(c - k->radius >= k->lo[i] && c + k->radius <= k->hi[i])) return 0;
  }
  return k->bound * k->radius <= t->gnorm;
}

/* See inner_ball.h. */
int sovc_kept_balls_certify(const sovc_cache_ball kept[2], const sovc_result *r, const sovc_pair *P,
                            double tol) {
  tangency ta, tb;
  if (!(r->d < 0) || !tangency_at(&ta, P->A, P->XA, r->pA) || !tangency_at(&tb, P->B, P->XB, r->pB))
    return 0;
  return kept_ball_fits(&kept[0], &ta) && kept_ball_fits(&kept[1], &tb) &&
         balls_prove(r, P->XA, &ta, kept[0].radius, P->XB, &tb, kept[1].radius, tol);
}

/* Curvature bound of one body for a cap proof: over the box that holds
 * the segments from the witness t.x to the points t.x + r (u - m) of
 * tangent disks of radius r <= rmax, for unit u within the cap's angle of
 * the normal m (Taylor's theorem as for the whole ball, along each
 * segment's direction d), d^T H d <= k(t) + slack where k is the tangent
 * form of the Hessian's midpoint on the tangent vector t nearest d (in a
 * tangent basis l1, l2), and slack covers the Hessian's spread and
 * |d - t|. */
typedef struct cap_form {
  double k11, k12, k22, slack, g, rmax;
} cap_form;

/* Largest row sum of |M| (M symmetric), a bound of its spectral norm. */
static double row_norm(const double M[9]) {
  double n = 0;
  for (int i = 0; i < 3; ++i)
    n = greater(n, fabs(M[3 * i]) + fabs(M[3 * i + 1]) + fabs(M[3 * i + 2]));
  return n;
}

/* The form of body S at tangency t (local frame, tangent basis l1, l2)
 * for disks up to radius rmax whose directions d lie within dev of a
 * tangent vector; 0 if the Hessian is unbounded over the box. */
static int cap_form_of(cap_form *c, const sovc_shape *S, const tangency *t, double rmax,
                       double chord, double dev, const double l1[3], const double l2[3]) {
  double lo[3], hi[3], Hlo[9], Hhi[9], Hc[9], Hr[9], Hl1[3], Hl2[3];
  for (int i = 0; i < 3; ++i) {
    const double c0 = t->x[i] - rmax * t->m[i], h = rmax * chord;
    lo[i] = greater(c0 - rmax, t->x[i] - h);
    hi[i] = lesser(c0 + rmax, t->x[i] + h);
  }
  if (!sovc_hessian_ranges(Hlo, Hhi, S, lo, hi)) return 0;
  for (int i = 0; i < 9; ++i) {
    if (!(Hhi[i] - Hlo[i] < INFINITY)) return 0;
    Hc[i] = 0.5 * (Hlo[i] + Hhi[i]);
    Hr[i] = 0.5 * (Hhi[i] - Hlo[i]);
  }
  sovc_rotate(Hl1, Hc, l1);
  sovc_rotate(Hl2, Hc, l2);
  c->k11 = sovc_dot(l1, Hl1);
  c->k12 = sovc_dot(l1, Hl2);
  c->k22 = sovc_dot(l2, Hl2);
  /* d^T Hc d - t^T Hc t <= |Hc| (2 dev + dev^2) for |d - t| <= dev. */
  c->slack = row_norm(Hr) + row_norm(Hc) * dev * (2 + dev);
  c->g = t->gnorm;
  c->rmax = rmax;
  return isfinite(c->slack);
}

/* Lower bound of the disk radius that fits for tangent directions
 * t = cos(psi) l1 + sin(psi) l2, psi in [mid - half, mid + half]: r fits
 * where r (t^T K t + slack) <= g, and t^T K t = a + b cos 2psi + c sin 2psi
 * moves by at most 2 sqrt(b^2 + c^2) per radian. */
static double disk_radius(const cap_form *c, double mid, double half) {
  const double a = 0.5 * (c->k11 + c->k22), b = 0.5 * (c->k11 - c->k22), s = c->k12;
  const double k = a + b * cos(2 * mid) + s * sin(2 * mid) + 2 * sqrt(b * b + s * s) * half;
  const double curvature = (k + c->slack) / ((1 - kFitMargin) * c->g);
  return curvature > 0 ? lesser(c->rmax, 1 / curvature) : c->rmax;
}

enum { kDiskSamples = 16 };

/* A body's disks for a cap proof: the form, and the radii at kDiskSamples
 * tangent directions psi_j = j pi / kDiskSamples. A disk of radius r in the
 * plane of n and t_j also bounds h(v) for v = cos(phi) n + sin(phi) t off
 * that plane: its support there is at least v . x + r c (1 - cos phi),
 * c = cos^2(psi - psi_j) (sqrt(cos^2 + sin^2 c) - cos >= c (1 - cos)), as
 * from a disk of radius r c in the plane of t. So a wide disk along a flat
 * direction still serves the directions near it where the plane's own
 * section is sharp. */
typedef struct cap_disks {
  cap_form form;
  double sample[kDiskSamples];
} cap_disks;

static void cap_disks_of(cap_disks *d, const cap_form *form) {
  d->form = *form;
  for (int j = 0; j < kDiskSamples; ++j)
    d->sample[j] = disk_radius(form, j * (SOVC_PI / kDiskSamples), 0);
}

/* Least of cos^2(psi - s) over psi in [mid - half, mid + half] (half < pi/4). */
static double least_cos2(double mid, double half, double s) {
  double x0 = mid - half - s;
  x0 -= SOVC_PI * floor((x0 + 0.5 * SOVC_PI) / SOVC_PI); /* into [-pi/2, pi/2) */
  const double x1 = x0 + 2 * half;
  if (x1 >= 0.5 * SOVC_PI) return 0;
  const double c0 = cos(x0), c1 = cos(x1);
  return lesser(c0 * c0, c1 * c1);
}

/* Lower bound of the radius of d's disks for tangent directions in
 * [mid - half, mid + half]: the form's own, or a sample's share. */
static double disks_radius(const cap_disks *d, double mid, double half) {
  double r = disk_radius(&d->form, mid, half);
  for (int j = 0; j < kDiskSamples; ++j)
    if (d->sample[j] > r) /* a share is at most the sample */
      r = greater(r, d->sample[j] * least_cos2(mid, half, j * (SOVC_PI / kDiskSamples)));
  return r;
}

/* 1 if disks of A and B fit with radii summing to at least depth for every
 * tangent direction psi in [mid - half, mid + half] (halving the interval
 * where the bound is too coarse, down to `levels` more halvings). */
static int disks_cover(const cap_disks *a, const cap_disks *b, double depth, double mid,
                       double half, int levels) {
  if (disks_radius(a, mid, half) + disks_radius(b, mid, half) >= depth) return 1;
  return levels > 0 && disks_cover(a, b, depth, mid - 0.5 * half, 0.5 * half, levels - 1) &&
         disks_cover(a, b, depth, mid + 0.5 * half, 0.5 * half, levels - 1);
}

/* The form of S for the largest of rmax = depth, depth / 4, depth / 16
 * whose box has a bounded Hessian (a pointy plane of eps > 1 nearby); else
 * disks of radius 0 (the witness itself). */
static void cap_form_any(cap_form *c, const sovc_shape *S, const tangency *t, double depth,
                         double chord, double dev, const double l1[3], const double l2[3]) {
  double r = depth;
  for (int k = 0; k < 3; ++k, r *= 0.25) /* counted, as in coarse_radius */
    if (cap_form_of(c, S, t, r, chord, dev, l1, l2)) return;
  const cap_form point = {0, 0, 0, 0, 1, 0};
  *c = point;
}

/* 1 if the disks' radii reach depth at the sampled directions (their own
 * and the other samples' shares): necessary for disks_cover, and cheap. */
static int samples_reach(const cap_disks *a, const cap_disks *b, double depth) {
  double share[kDiskSamples];
  for (int k = 0; k < kDiskSamples; ++k) {
    const double c = cos(k * (SOVC_PI / kDiskSamples));
    share[k] = c * c;
  }
  for (int j = 0; j < kDiskSamples; ++j) {
    double ra = 0, rb = 0;
    for (int i = 0; i < kDiskSamples; ++i) {
      const double c = share[(j - i + kDiskSamples) % kDiskSamples];
      ra = greater(ra, a->sample[i] * c);
      rb = greater(rb, b->sample[i] * c);
    }
    if (ra + rb < depth) return 0;
  }
  return 1;
}

/* A cap proof's witnesses: tangencies with the disks' normals n (A) and -n
 * (B), and n's tangent basis in each body's frame. */
typedef struct cap_witnesses {
  tangency ta, tb;
  double tA1[3], tA2[3], tB1[3], tB2[3];
} cap_witnesses;

/* 1 if the disks for cap angle theta reach the depth everywhere (only at
 * the sampled directions if `sampled_only`). */
static int cap_covered(const cap_witnesses *w, const sovc_shape *A, const sovc_shape *B, double depth,
                       double theta, int sampled_only) {
  const double chord = 2 * sin(0.5 * theta);
  /* A segment of the disk at angle phi points along
   * -sin(phi / 2) n + cos(phi / 2) t, within 2 sin(phi / 4) of t. */
  const double dev = 2 * sin(0.25 * theta);
  cap_form fa, fb;
  cap_form_any(&fa, A, &w->ta, depth, chord, dev, w->tA1, w->tA2);
  cap_form_any(&fb, B, &w->tb, depth, chord, dev, w->tB1, w->tB2);
  cap_disks da, db;
  cap_disks_of(&da, &fa);
  cap_disks_of(&db, &fb);
  if (!samples_reach(&da, &db, depth)) return 0;
  if (sampled_only) return 1;
  int covered = 1;
  for (int j = 0; j < 8 && covered; ++j)
    covered = disks_cover(&da, &db, depth, (j + 0.5) * (SOVC_PI / 8), SOVC_PI / 16, 5);
  return covered;
}

/* See inner_ball.h. The disks are tangent at the witnesses to the
 * answer's normal n rather than the bodies' own normals mA, -mB, which
 * differ by the solver's error: then a disk point at |u - n| = s has
 * F <= r s (s (r M - g) / 2 + g |mA - n|), at most r g |mA - n|^2 / eta
 * above 0 where r M <= (1 - eta) g, and only while s < 2 |mA - n| / eta:
 * such points lie at most 2 r |mA - n|^2 / eta outside the body. A unit v
 * within theta of n is cos(phi) n + sin(phi) t for a unit tangent t; if A
 * holds the disk of radius rA(t) in the plane of n and t tangent at pA,
 * h_A(v) >= v . (pA - rA n) + rA, and B's likewise, so with
 * rA + rB = depth, h_D(v) >= depth - |pA - pB - depth n| minus those
 * distances. */
int sovc_proved_cap(double *cos_cap, const sovc_result *r, const sovc_pair *P, double tol) {
  /* Cap angles tried, largest first (radians). The smallest serve a least
   * width beside a pointy plane (eps > 1: the Hessian is unbounded across
   * it), where only a box that stays off that plane bounds the curvature:
   * without a cap the polytope alone must close the bound about the
   * optimum, to 1e-11, and seldom does in its budget. */
  static const double kAngles[] = {0.5, 0.15, 0.05, 0.015, 0.005, 0.0015, 0.0005, 0.00015};
  enum { kLevels = sizeof kAngles / sizeof kAngles[0] };
  const double depth = -r->d;
  if (!(depth > 0)) return 0;
  cap_witnesses w;
  if (!tangency_at(&w.ta, P->A, P->XA, r->pA) || !tangency_at(&w.tb, P->B, P->XB, r->pB)) return 0;
  double mA[3], mB[3], gap = 0, skewA = 0, skewB = 0;
  sovc_rotate(mA, P->XA->R, w.ta.m);
  sovc_rotate(mB, P->XB->R, w.tb.m);
  for (int i = 0; i < 3; ++i) {
    const double e = r->pA[i] - r->pB[i] - depth * r->n[i];
    gap += e * e;
    skewA += (mA[i] - r->n[i]) * (mA[i] - r->n[i]);
    skewB += (mB[i] + r->n[i]) * (mB[i] + r->n[i]);
  }
  if (!(sqrt(gap) + 2 * depth * greater(skewA, skewB) / kFitMargin <= tol)) return 0;
  sovc_frame fr;
  sovc_frame_make(&fr, r->n);
  sovc_rotate_t(w.ta.m, P->XA->R, r->n);
  for (int i = 0; i < 3; ++i) mB[i] = -r->n[i];
  sovc_rotate_t(w.tb.m, P->XB->R, mB);
  sovc_rotate_t(w.tA1, P->XA->R, fr.t);
  sovc_rotate_t(w.tA2, P->XA->R, fr.b);
  sovc_rotate_t(w.tB1, P->XB->R, fr.t);
  sovc_rotate_t(w.tB2, P->XB->R, fr.b);
  /* The smallest cap's samples first: its boxes are the tightest, and
   * where they fall short (a saddle, a pointy edge) no cap is tried. */
  if (!cap_covered(&w, P->A, P->B, depth, kAngles[kLevels - 1], 1)) return 0;
  for (int k = 0; k < kLevels; ++k)
    if (cap_covered(&w, P->A, P->B, depth, kAngles[k], 0)) {
      *cos_cap = cos(kAngles[k]);
      return 1;
    }
  return 0;
}

/* See inner_ball.h. */
double sovc_cap_disk_radius(const sovc_shape *S, const double x[3], const double l1[3],
                            const double l2[3], double rmax, double theta, double psi,
                            double half) {
  tangency t;
  cap_form c;
  if (!tangency_local(&t, S, x) ||
      !cap_form_of(&c, S, &t, rmax, 2 * sin(0.5 * theta), 2 * sin(0.25 * theta), l1, l2))
    return 0;
  return disk_radius(&c, psi, half);
}
