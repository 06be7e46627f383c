/* Mixed-chart Newton: position chart on one body, support map on the other. */
#include "solver/mixed.h"

#include <math.h>
#include <string.h>

#include "solver/linalg.h"
#include "solver/newton.h"
#include "solver/posed.h"
#include "solver/result.h"

/* One iterate: the primary's point (the unknowns), its evaluation, the
 * secondary's support at the opposite normal. */
typedef struct mixed_state {
  sovc_newton_iterate head; /* x: the primary's point; merit |r| */
  double r[3];
  sovc_implicit_eval e;
  sovc_support_eval s;
  sovc_frame F;
} mixed_state;

/* The chart's context: the bodies (A primary, B secondary), tolerance. */
typedef struct mixed_chart {
  const sovc_pair *P;
  double tol;
} mixed_chart;

/* Evaluate the residual at st's point; returns |r| (INFINITY if undefined). */
static double evaluate(mixed_state *st, const sovc_pair *P) {
  const double *p = st->head.x;
  sovc_posed_implicit(&st->e, P->A, P->XA, p, 1, SOVC_WORLD_HESSIAN);
  if (!(st->e.gnorm > 0)) return st->head.merit = INFINITY;
  const double w[3] = {-st->e.n[0], -st->e.n[1], -st->e.n[2]};
  sovc_posed_support(&st->s, P->B, P->XB, w);
  sovc_frame_make(&st->F, st->e.n);
  double dq[3];
  for (int i = 0; i < 3; ++i) dq[i] = st->s.p[i] - p[i];
  st->r[0] = st->e.f;
  st->r[1] = st->F.t[0] * dq[0] + st->F.t[1] * dq[1] + st->F.t[2] * dq[2];
  st->r[2] = st->F.b[0] * dq[0] + st->F.b[1] * dq[1] + st->F.b[2] * dq[2];
  double rn = sqrt(st->r[0] * st->r[0] + st->r[1] * st->r[1] + st->r[2] * st->r[2]);
  if (!isfinite(rn)) rn = INFINITY;
  return st->head.merit = rn;
}

/* Jacobian (column-major 3x3): row 0 grad G; rows 1-2 by the chain rule
 * through n(p) into the frame and the support q(-n); 0 on failure. */
static int jacobian(double J[9], mixed_state *st, const sovc_shape *B, const sovc_pose *XB) {
  const double w[3] = {-st->e.n[0], -st->e.n[1], -st->e.n[2]};
  if (!sovc_support_derivative(&st->s, B, XB, w)) return 0;
  double dq[3], u[3], row[3], Dt[3];
  for (int i = 0; i < 3; ++i) dq[i] = st->s.p[i] - st->head.x[i];
  for (int c = 0; c < 3; ++c) J[3 * c] = st->e.g[c];
  for (int k = 0; k < 2; ++k) {
    const double *tk = k == 0 ? st->F.t : st->F.b;
    /* d(tk . (q - p))/dp = [(dtk/dn)^T (q - p) - D tk]^T dn/dp - tk^T. */
    sovc_frame_dvec(u, &st->F, st->e.n, k, dq);
    for (int i = 0; i < 3; ++i)
      Dt[i] = st->s.D[3 * i] * tk[0] + st->s.D[3 * i + 1] * tk[1] + st->s.D[3 * i + 2] * tk[2];
    for (int i = 0; i < 3; ++i) u[i] -= Dt[i];
    sovc_dnormal(row, &st->e, u);
    for (int c = 0; c < 3; ++c) J[3 * c + 1 + k] = row[c] - tk[c];
  }
  return 1;
}

/* Converged: on the surface, and for separated bodies |q - p| - |d|
 * (quadratic in the tangential residual, which a flat secondary face cannot
 * drive to zero, and a bound on the error in d) is small; for an overlap
 * that gap does not bound the error (see direction.c), so the tangential
 * residual itself must be. */
static int converged(const mixed_state *st, double tol) {
  const double L = sovc_coordinate_size(st->head.x, st->s.p);
  double d = 0;
  for (int i = 0; i < 3; ++i) d += st->e.n[i] * (st->s.p[i] - st->head.x[i]);
  const double g2 = st->r[1] * st->r[1] + st->r[2] * st->r[2];
  const double err = d > 0 ? sqrt(d * d + g2) - d : sqrt(g2);
  return fabs(st->r[0]) < tol * L && err < tol * L;
}

/* Evaluate t, the support search hinted by from's. */
static double mixed_evaluate(void *vc, sovc_newton_iterate *vt, const sovc_newton_iterate *from) {
  const mixed_chart *c = vc;
  mixed_state *t = (mixed_state *)vt;
  t->s.z = from ? ((const mixed_state *)from)->s.z : NAN;
  return evaluate(t, c->P);
}

/* Converged (see converged()). */
static int mixed_test(void *vc, sovc_newton_iterate *x) {
  const mixed_chart *c = vc;
  return converged((const mixed_state *)x, c->tol) ? SOVC_NEWTON_DONE : SOVC_NEWTON_GO;
}

/* The Newton step; none where the support map has no derivative. */
static int mixed_step(void *vc, sovc_newton_iterate *vx, double *step, int it, int *iterations) {
  const mixed_chart *c = vc;
  mixed_state *x = (mixed_state *)vx;
  double J[9];
  if (!jacobian(J, x, c->P->B, c->P->XB)) return SOVC_NEWTON_STOP;
  for (int i = 0; i < 3; ++i) step[i] = -x->r[i];
  *iterations = it + 1;
  return sovc_solve_small(3, J, step) == SOV_OK ? SOV_OK : SOVC_NEWTON_STOP;
}

/* Damped Newton on the mixed system. */
int sovc_solve_mixed(sovc_result *res, const sovc_pair *P, const double p0[3], double tol,
                     int max_iterations) {
  mixed_state its[2];
  mixed_chart c = {P, tol};
  const sovc_newton_chart chart = {.n = 3,
                                   .max_iterations = max_iterations,
                                   .halvings = SOVC_CHART_HALVINGS,
                                   .max_step = INFINITY,
                                   .finite_merit = 1,
                                   .final_test = 1,
                                   .evaluate = mixed_evaluate,
                                   .test = mixed_test,
                                   .step = mixed_step,
                                   .accept = sovc_newton_armijo,
                                   .stalled = sovc_newton_decreased};
  memcpy(its[0].head.x, p0, 3 * sizeof(double));
  its[0].head.alpha = 0;
  mixed_evaluate(&c, &its[0].head, NULL);
  sovc_newton_iterate *out;
  const int st = sovc_newton_run(&out, &res->iterations, &chart, &c, &its[0].head, &its[1].head);
  const mixed_state *x = (const mixed_state *)out;
  if (st != SOV_OK) {
    res->residual = x->head.merit;
    return SOV_ERR_NO_CONVERGENCE;
  }
  sovc_result_set(res, x->head.x, x->s.p, x->e.n);
  res->residual = x->head.merit;
  res->method = SOVC_METHOD_AUTO;
  return SOV_OK;
}
