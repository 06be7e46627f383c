/* A collide's common-point search: the minimax of the bodies' squared
 * gauges by primal-dual Newton (see common_point.h). */
#include "solver/common_point.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "solver/linalg.h"
#include "solver/pair.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/shape.h"

/* Halvings of the start's search along the segment between the cores'
 * nearest points for the point where the two gauges agree. */
enum { kStartHalvings = 2 };
/* Halvings of a step's line search. */
enum { kStepHalvings = 10 };
/* Damped steps in a row after which the search gives up: it then
 * converges too slowly to pay (exponents near 2, whose gauges are nearly
 * kinked), and the collide's other stages decide sooner. */
enum { kStalledSteps = 4 };
/* The line search's allowance for rounding in L (f is about 1 in size near
 * the surfaces): without it a step that converged to rounding (bodies
 * touching to 1e-12) is halved until the search stalls. */
static const double kRoundingSlack = 16 * DBL_EPSILON;
/* The inner minimisation is near enough to move lam and to try a plane
 * when its Newton decrement is below this fraction of the dual's slope
 * f_A - f_B, or below the floor (in f's units, 1 at the body's centre). */
static const double kInnerNear = 0.25, kInnerFloor = 1e-3;

/* e: the squared gauge f = (G + 1)^2 - 1 of S's normalised G at world
 * point x, its world gradient, normal and Hessian (gl and Hl stay G's).
 * Returns f. */
static double squared_gauge(sovc_implicit_eval *e, const sovc_shape *S, const sovc_pose *X,
                            const double x[3]) {
  sovc_posed_implicit(e, S, X, x, 1, SOVC_WORLD_HESSIAN);
  const double s = e->f + 1;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e->H[3 * i + j] = 2 * (e->g[i] * e->g[j] + s * e->H[3 * i + j]);
  for (int i = 0; i < 3; ++i) e->g[i] *= 2 * s;
  e->gnorm *= 2 * s;
  e->inv_gnorm = e->gnorm > 0 ? 1 / e->gnorm : 0;
  return e->f = s * s - 1;
}

/* G (normalised) of S at world point x. */
static double gauge_value(const sovc_shape *S, const sovc_pose *X, const double x[3]) {
  double y[3], g;
  sovc_to_local(y, X, x);
  sovc_implicit_norm(&g, NULL, NULL, S, y);
  return g;
}

/* The start: the point of the segment between the cores' nearest points
 * where the two gauges agree, to a few halvings. */
static void start_point(double x[3], const sovc_pair *P) {
  double qA[3], qB[3], lo = 0, hi = 1, t = 0.5;
  sovc_core_points(qA, qB, P);
  for (int k = 0; k < kStartHalvings; ++k) {
    for (int i = 0; i < 3; ++i) x[i] = qA[i] + t * (qB[i] - qA[i]);
    if (gauge_value(P->A, P->XA, x) > gauge_value(P->B, P->XB, x))
      hi = t;
    else
      lo = t;
    t = 0.5 * (lo + hi);
  }
  for (int i = 0; i < 3; ++i) x[i] = qA[i] + t * (qB[i] - qA[i]);
}

/* y = W^-1 b for a 3 x 3 W; 0 where W is singular. */
static int solve3(double y[3], const double W[9], const double b[3]) {
  sovc_lu lu;
  if (sovc_lu_factor(&lu, 3, W) != SOV_OK) return 0;
  memcpy(y, b, 3 * sizeof(double));
  sovc_lu_solve(&lu, y);
  return 1;
}

/* The search's state: the point, the weight lam of A in the Lagrangian
 * L = lam f_A + (1 - lam) f_B, and the bracket [lo, hi] in which the
 * maximising lam lies (the dual function is concave in lam). */
typedef struct minimax_state {
  double x[3], lam, lo, hi;
  sovc_implicit_eval a, b;
} minimax_state;

/* p: x moved onto the zero set of the squared gauge e to first order. */
static void surface_estimate(double p[3], const sovc_implicit_eval *e, const double x[3]) {
  const double t = e->f * e->inv_gnorm;
  for (int i = 0; i < 3; ++i) p[i] = x[i] - t * e->n[i];
}

/* n: n_A - n_B at the search's point, made unit where its length (the
 * value returned) is positive. */
static double normals_difference(double n[3], const minimax_state *s) {
  for (int i = 0; i < 3; ++i) n[i] = s->a.n[i] - s->b.n[i];
  const double len = sqrt(sovc_dot(n, n));
  if (len > 0)
    for (int i = 0; i < 3; ++i) n[i] /= len;
  return len;
}

/* The verdict's proofs at the current point: inside both; or, both outside
 * and the inner minimisation converged, the plane normal to n_A - n_B. The
 * points given with a plane are x moved onto each surface, and the
 * direction given with a common point is the same n_A - n_B (+z where it
 * vanishes): the cache keeps both as a later query's start. */
static int proof_at(const minimax_state *s, int converged, const sovc_verdict *verdict) {
  const int inside = s->a.f < 0 && s->b.f < 0;
  if (!inside && !(converged && s->a.f > 0 && s->b.f > 0)) return 0;
  double n[3], pA[3], pB[3], dp[3];
  const double len = normals_difference(n, s);
  if (!(len > 0) && !inside) return 0;
  if (!(len > 0)) n[0] = n[1] = 0, n[2] = 1;
  if (inside) return verdict->decide(verdict->ctx, n, s->x, s->x, 0);
  surface_estimate(pA, &s->a, s->x);
  surface_estimate(pB, &s->b, s->x);
  for (int i = 0; i < 3; ++i) dp[i] = pA[i] - pB[i];
  const double f = sovc_dot(n, dp); /* negative where the normals are nearly opposite */
  return f < 0 ? verdict->decide(verdict->ctx, n, pA, pB, f) : 0;
}

/* The step r from x: the inner Newton step of L at lam, plus the predicted
 * move of its minimiser for the new lam (*lam_new), chosen by a Newton step
 * on the dual's derivative f_A - f_B inside the bracket, or its midpoint.
 * Returns 0 where the Hessian is singular; *converged says whether the
 * inner minimisation was near enough to move lam (kInnerNear). */
static int step(double r[3], double *lam_new, int *converged, minimax_state *s) {
  double W[9], g[3], gd[3], sx[3], u[3];
  const double lam = s->lam;
  for (int i = 0; i < 9; ++i) W[i] = lam * s->a.H[i] + (1 - lam) * s->b.H[i];
  for (int i = 0; i < 3; ++i) {
    g[i] = -(lam * s->a.g[i] + (1 - lam) * s->b.g[i]);
    gd[i] = s->a.g[i] - s->b.g[i];
  }
  if (!solve3(sx, W, g) || !solve3(u, W, gd)) return 0;
  const double decrement = sovc_dot(g, sx);
  const double dual_slope = s->a.f + sovc_dot(s->a.g, sx) - (s->b.f + sovc_dot(s->b.g, sx));
  const double curvature = sovc_dot(gd, u);
  *converged = decrement < kInnerNear * fabs(dual_slope) + kInnerFloor;
  if (*converged) {
    if (dual_slope > 0)
      s->lo = lam;
    else
      s->hi = lam;
  }
  double dl = curvature > 0 ? dual_slope / curvature : 0;
  if (!(lam + dl > s->lo && lam + dl < s->hi)) dl = *converged ? 0.5 * (s->lo + s->hi) - lam : 0;
  for (int i = 0; i < 3; ++i) r[i] = sx[i] - u[i] * dl;
  *lam_new = lam + dl;
  return 1;
}

/* Backtrack along r on L at lam (Armijo, with kRoundingSlack), stopping
 * early at a point inside both bodies; x and the evaluations move to the
 * accepted trial (each trial is evaluated in full: the first is mostly
 * taken). Returns the step length taken. */
static double line_search(minimax_state *s, const double r[3], double lam, const sovc_pair *P) {
  double gl[3], y[3], alpha = 1;
  for (int i = 0; i < 3; ++i) gl[i] = lam * s->a.g[i] + (1 - lam) * s->b.g[i];
  const double slope = sovc_dot(gl, r), L0 = lam * s->a.f + (1 - lam) * s->b.f;
  sovc_implicit_eval a, b;
  for (int h = 0; h < kStepHalvings; ++h) {
    for (int i = 0; i < 3; ++i) y[i] = s->x[i] + alpha * r[i];
    const double fa = squared_gauge(&a, P->A, P->XA, y), fb = squared_gauge(&b, P->B, P->XB, y);
    if (!(slope < 0) || lam * fa + (1 - lam) * fb <= L0 + 1e-4 * alpha * slope + kRoundingSlack ||
        (fa < 0 && fb < 0))
      break;
    alpha *= 0.5;
  }
  memcpy(s->x, y, sizeof y);
  s->a = a;
  s->b = b;
  return alpha;
}

/* v: the unit n_A - n_B at the search's point, where finite and nonzero
 * (the direction an undecided search leaves). Returns 0. */
static int leave_direction(double v[3], const minimax_state *s) {
  double n[3];
  const double len = normals_difference(n, s);
  if (len > 0 && isfinite(len)) memcpy(v, n, sizeof n);
  return 0;
}

/* See common_point.h. */
int sovc_common_point_verdict(double v[3], const sovc_pair *P, const double *start,
                              int max_iterations, const sovc_verdict *verdict) {
  if (max_iterations < 1) return 0;
  minimax_state s = {.lam = 0.5, .lo = 0, .hi = 1};
  if (start)
    memcpy(s.x, start, sizeof s.x);
  else
    start_point(s.x, P);
  int damped = 0;
  squared_gauge(&s.a, P->A, P->XA, s.x);
  squared_gauge(&s.b, P->B, P->XB, s.x);
  /* The point each step reaches is evaluated in full by its line search,
   * so the last one (out of steps, or stalled) is still tried for a common
   * point. */
  for (int it = 0;; ++it) {
    double r[3], lam_new;
    int converged = 0;
    if (!(isfinite(s.a.f) && isfinite(s.b.f))) return 0;
    if (s.a.f < 0 && s.b.f < 0) return proof_at(&s, 0, verdict);
    if (it == max_iterations || damped >= kStalledSteps) return leave_direction(v, &s);
    if (!step(r, &lam_new, &converged, &s)) return leave_direction(v, &s);
    const int said = proof_at(&s, converged, verdict);
    if (said) return said;
    damped = line_search(&s, r, lam_new, P) < 1 ? damped + 1 : 0;
    s.lam = lam_new;
  }
}
