/* Mixed-chart Newton: position chart on one body, support map on the other. */
#include "solver/mixed.h"

#include <math.h>
#include <string.h>

#include "solver/linalg.h"
#include "solver/posed.h"
#include "solver/result.h"

/* State of one iterate: the primary's evaluation, the secondary's support. */
typedef struct mixed_state {
  double p[3], r[3], rn;
  sovc_implicit_eval e;
  sovc_support_eval s;
  sovc_frame F;
} mixed_state;

/* Evaluate the residual at st->p; returns |r| (INFINITY if undefined). */
static double evaluate(mixed_state *st, const sovc_pair *P) {
  sovc_posed_implicit(&st->e, P->A, P->XA, st->p, 1, SOVC_WORLD_HESSIAN);
  if (!(st->e.gnorm > 0)) return st->rn = INFINITY;
  const double w[3] = {-st->e.n[0], -st->e.n[1], -st->e.n[2]};
  sovc_posed_support(&st->s, P->B, P->XB, w);
  sovc_frame_make(&st->F, st->e.n);
  double dq[3];
  for (int i = 0; i < 3; ++i) dq[i] = st->s.p[i] - st->p[i];
  st->r[0] = st->e.f;
  st->r[1] = st->F.t[0] * dq[0] + st->F.t[1] * dq[1] + st->F.t[2] * dq[2];
  st->r[2] = st->F.b[0] * dq[0] + st->F.b[1] * dq[1] + st->F.b[2] * dq[2];
  st->rn = sqrt(st->r[0] * st->r[0] + st->r[1] * st->r[1] + st->r[2] * st->r[2]);
  if (!isfinite(st->rn)) st->rn = INFINITY;
  return st->rn;
}

/* Jacobian (column-major 3x3): row 0 grad G; rows 1-2 by the chain rule
 * through n(p) into the frame and the support q(-n); 0 on failure. */
static int jacobian(double J[9], mixed_state *st, const sovc_shape *B, const sovc_pose *XB) {
  const double w[3] = {-st->e.n[0], -st->e.n[1], -st->e.n[2]};
  if (!sovc_support_derivative(&st->s, B, XB, w)) return 0;
  double dq[3], u[3], row[3], Dt[3];
  for (int i = 0; i < 3; ++i) dq[i] = st->s.p[i] - st->p[i];
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
  const double L = sovc_coordinate_size(st->p, st->s.p);
  double d = 0;
  for (int i = 0; i < 3; ++i) d += st->e.n[i] * (st->s.p[i] - st->p[i]);
  const double g2 = st->r[1] * st->r[1] + st->r[2] * st->r[2];
  const double err = d > 0 ? sqrt(d * d + g2) - d : sqrt(g2);
  return fabs(st->r[0]) < tol * L && err < tol * L;
}

/* Damped Newton on the mixed system. */
int sovc_solve_mixed(sovc_result *res, const sovc_pair *P, const double p0[3], double tol,
                     int max_iterations) {
  mixed_state cur = {.s.z = NAN}, trial;
  double J[9], step[3];
  memcpy(cur.p, p0, sizeof cur.p);
  res->iterations = 0;
  evaluate(&cur, P);
  for (int it = 0; it < max_iterations && isfinite(cur.rn); ++it) {
    if (converged(&cur, tol)) break;
    if (!jacobian(J, &cur, P->B, P->XB)) break;
    for (int i = 0; i < 3; ++i) step[i] = -cur.r[i];
    res->iterations = it + 1;
    if (sovc_solve_small(3, J, step) != SOV_OK) break;
    double alpha = 1;
    for (int ls = 0; ls < SOVC_CHART_HALVINGS; ++ls, alpha *= 0.5) {
      trial = cur;
      for (int i = 0; i < 3; ++i) trial.p[i] = cur.p[i] + alpha * step[i];
      if (evaluate(&trial, P) <= (1 - 1e-4 * alpha) * cur.rn) break;
    }
    if (!(trial.rn < cur.rn)) break;
    cur = trial;
  }
  if (!isfinite(cur.rn) || !converged(&cur, tol)) {
    res->residual = cur.rn;
    return SOV_ERR_NO_CONVERGENCE;
  }
  sovc_result_set(res, cur.p, cur.s.p, cur.e.n);
  res->residual = cur.rn;
  res->method = SOVC_METHOD_AUTO;
  return SOV_OK;
}
