/* Newton in the balanced angle charts (see chart.h). */
#include "solver/chart.h"

#include <math.h>
#include <string.h>

#include "solver/linalg.h"
#include "solver/newton.h"
#include "solver/parametric.h"
#include "solver/pose.h"
#include "solver/result.h"
#include "solver/shape.h"

/* Central-difference step in chart coordinates (one quarter turn = 1). */
static const double kStep = 1e-7;
/* A quarter turn (kQuarter is not in ISO C). */
static const double kQuarter = 1.57079632679489661923;
/* Chart latitude stays this far from the poles, where the chart folds. */
static const double kPoleMargin = 1e-9;

/* Blend exponent of a parametric angle with exponent eps. */
static double blend_power(double eps) {
  return 1 / fmin(eps, 2 - eps);
}

/* Blend of an offset |t| <= 1/2 from an axis: sign(t) |t|^k / (|t|^k +
 * (1 - |t|)^k), written relative to the axis so tiny offsets keep their
 * digits (near a sharp rim the angle is 1e-20 while the chart offset is
 * 0.01). */
static double blend(double t, double k) {
  const double a = pow(fabs(t), k), b = pow(1 - fabs(t), k);
  return t < 0 ? -a / (a + b) : a / (a + b);
}

/* Angle of chart coordinate s (quarter turns) with blend power k. */
static double angle_of(double s, double k) {
  const double q = nearbyint(s);
  return kQuarter * (q + blend(s - q, k));
}

/* Chart coordinate of angle phi: the inverse blend (power 1 / k). */
static double coordinate_of(double phi, double k) {
  const double t = phi / kQuarter, q = nearbyint(t);
  return q + blend(t - q, 1 / k);
}

/* World point and outward normal of a posed body at chart coordinates: the
 * SPEC parametric point (exact down to angles of 1e-300, which the chart
 * reaches near sharp rims) and the normal from the implicit gradient there. */
static void chart_point(double p[3], double n[3], const sovc_shape *S, const sovc_pose *X,
                        const double s[2]) {
  const double phi1 = angle_of(s[0], blend_power(S->eps1));
  const double phi2 = angle_of(s[1], blend_power(S->eps2));
  const double z = S->a[2] * sovc_spow(sin(phi2), S->eps2);
  const double c2 = sovc_spow(cos(phi2), S->eps2);
  double x[3], F, g[3];
  x[0] = S->a[0] * (1 + S->taper[0] * z / S->a[2]) * sovc_spow(cos(phi1), S->eps1) * c2;
  x[1] = S->a[1] * (1 + S->taper[1] * z / S->a[2]) * sovc_spow(sin(phi1), S->eps1) * c2;
  x[2] = z;
  sovc_implicit(&F, g, NULL, S, x);
  const double gn = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
  for (int i = 0; i < 3; ++i) g[i] /= gn;
  sovc_to_world(p, X, x);
  sovc_rotate(n, X->R, g);
}

/* Keep chart coordinates in range: longitude periodic, latitude off the poles. */
static void wrap(double s[4]) {
  for (int b = 0; b < 2; ++b) {
    s[2 * b] -= 4 * floor((s[2 * b] + 2) / 4);
    s[2 * b + 1] = fmin(fmax(s[2 * b + 1], -1 + kPoleMargin), 1 - kPoleMargin);
  }
}

/* Residual: (pB - pA) x nA and nA + nB (six rows, rank four at a solution). */
static double residual(double r[6], double pA[3], double pB[3], double nA[3], const sovc_pair *P,
                       const double s[4]) {
  double nB[3];
  chart_point(pA, nA, P->A, P->XA, s);
  chart_point(pB, nB, P->B, P->XB, s + 2);
  const double dp[3] = {pB[0] - pA[0], pB[1] - pA[1], pB[2] - pA[2]};
  r[0] = dp[1] * nA[2] - dp[2] * nA[1];
  r[1] = dp[2] * nA[0] - dp[0] * nA[2];
  r[2] = dp[0] * nA[1] - dp[1] * nA[0];
  double sum = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
  for (int i = 0; i < 3; ++i) {
    r[3 + i] = nA[i] + nB[i];
    sum += r[3 + i] * r[3 + i];
  }
  return isfinite(sum) ? sqrt(sum) : INFINITY;
}

/* The offset rows (length) against tol times the coordinates' size L, the
 * normal rows (unitless) against sqrt(tol), which bounds the error in d to
 * tol times the radius of curvature: never against tol L, which lets a far
 * side (nB = +nA, |nA + nB| = 2) pass once L is large. */
static int converged(const double r[6], const double pA[3], const double pB[3], double tol) {
  const double L = sovc_coordinate_size(pA, pB);
  const double offset = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  const double normal = sqrt(r[3] * r[3] + r[4] * r[4] + r[5] * r[5]);
  return offset < tol * L && normal < sqrt(tol);
}

/* Central-difference Jacobian (6 x 4, column-major). */
static void jacobian(double J[24], const sovc_pair *P, const double s[4]) {
  double sp[4], sm[4], rp[6], rm[6], p[3], q[3], n[3];
  for (int c = 0; c < 4; ++c) {
    memcpy(sp, s, sizeof sp);
    memcpy(sm, s, sizeof sm);
    sp[c] += kStep;
    sm[c] -= kStep;
    residual(rp, p, q, n, P, sp);
    residual(rm, p, q, n, P, sm);
    for (int i = 0; i < 6; ++i) J[6 * c + i] = (rp[i] - rm[i]) / (2 * kStep);
  }
}

/* One iterate: both bodies' chart coordinates (the unknowns), the residual,
 * the points and A's normal there. */
typedef struct angle_iterate {
  sovc_newton_iterate head; /* x: A's two coordinates, then B's; merit |r| */
  double r[6], pA[3], pB[3], nA[3];
} angle_iterate;

/* The chart's context: the bodies and the tolerance. */
typedef struct angle_chart {
  const sovc_pair *P;
  double tol;
} angle_chart;

/* Evaluate t at its coordinates, wrapped into range. */
static double angle_evaluate(void *vc, sovc_newton_iterate *vt, const sovc_newton_iterate *from) {
  (void)from;
  const angle_chart *c = vc;
  angle_iterate *t = (angle_iterate *)vt;
  wrap(t->head.x);
  return residual(t->r, t->pA, t->pB, t->nA, c->P, t->head.x);
}

/* Converged (see converged()). */
static int angle_test(void *vc, sovc_newton_iterate *vx) {
  const angle_chart *c = vc;
  const angle_iterate *x = (const angle_iterate *)vx;
  return converged(x->r, x->pA, x->pB, c->tol) ? SOVC_NEWTON_DONE : SOVC_NEWTON_GO;
}

/* The Gauss-Newton step of the central-difference Jacobian. */
static int angle_step(void *vc, sovc_newton_iterate *vx, double *step, int it, int *iterations) {
  const angle_chart *c = vc;
  const angle_iterate *x = (const angle_iterate *)vx;
  double J[24], b[6];
  jacobian(J, c->P, x->head.x);
  for (int i = 0; i < 6; ++i) b[i] = -x->r[i];
  *iterations = it + 1;
  if (sovc_least_squares(6, 4, J, b) != SOV_OK) return SOVC_NEWTON_STOP;
  for (int i = 0; i < 4; ++i) step[i] = b[i];
  return SOV_OK;
}

/* Damped Gauss-Newton in the balanced charts. */
int sovc_solve_chart(sovc_result *res, const sovc_pair *P, const double pA0[3], const double pB0[3],
                     double tol, int max_iterations) {
  angle_iterate its[2];
  angle_chart c = {P, tol};
  const sovc_newton_chart chart = {.n = 4,
                                   .max_iterations = max_iterations,
                                   .halvings = SOVC_CHART_HALVINGS,
                                   .max_step = INFINITY,
                                   .finite_merit = 1,
                                   .final_test = 1,
                                   .evaluate = angle_evaluate,
                                   .test = angle_test,
                                   .step = angle_step,
                                   .accept = sovc_newton_armijo,
                                   .stalled = sovc_newton_decreased};
  double x[3], phi1, phi2, *s = its[0].head.x;
  sovc_to_local(x, P->XA, pA0);
  sovc_param_angles(&phi1, &phi2, P->A, x);
  s[0] = coordinate_of(phi1, blend_power(P->A->eps1));
  s[1] = coordinate_of(phi2, blend_power(P->A->eps2));
  sovc_to_local(x, P->XB, pB0);
  sovc_param_angles(&phi1, &phi2, P->B, x);
  s[2] = coordinate_of(phi1, blend_power(P->B->eps1));
  s[3] = coordinate_of(phi2, blend_power(P->B->eps2));
  its[0].head.alpha = 0;
  its[0].head.merit = angle_evaluate(&c, &its[0].head, NULL);
  sovc_newton_iterate *out;
  const int st = sovc_newton_run(&out, &res->iterations, &chart, &c, &its[0].head, &its[1].head);
  const angle_iterate *a = (const angle_iterate *)out;
  res->residual = a->head.merit;
  if (st != SOV_OK) return SOV_ERR_NO_CONVERGENCE;
  sovc_result_set(res, a->pA, a->pB, a->nA);
  res->method = SOVC_METHOD_AUTO;
  return SOV_OK;
}
