/* Implicit common-normal Newton (study Eq. 15; Lopes et al. 2010). */
#include "solver/implicit.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "solver/linalg.h"
#include "solver/newton.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"

/* Residual of Eq. 15 for evaluated bodies and the frame of A. */
static void residual(double r[6], const sovc_implicit_eval *a,
                     const sovc_implicit_eval *b, const sovc_frame *F,
                     const double pA[3], const double pB[3]) {
  const double dp[3] = {pB[0] - pA[0], pB[1] - pA[1], pB[2] - pA[2]};
  r[0] = a->f;
  r[1] = F->t[0] * b->n[0] + F->t[1] * b->n[1] + F->t[2] * b->n[2];
  r[2] = F->b[0] * b->n[0] + F->b[1] * b->n[1] + F->b[2] * b->n[2];
  r[3] = F->t[0] * dp[0] + F->t[1] * dp[1] + F->t[2] * dp[2];
  r[4] = F->b[0] * dp[0] + F->b[1] * dp[1] + F->b[2] * dp[2];
  r[5] = b->f;
}

/* The analytic Jacobian of Eq. 15 in row-major 3 x 3 blocks: rows 0, 3, 4
 * (F_A and the tangential offsets) against pA (P) and pB (Q), rows 1, 2, 5
 * (the normals' tangential parts and F_B) against pA (R) and pB (S). A
 * Newton step needs only the blocks (see step_factors). */
typedef struct jacobian_blocks {
  double P[9], Q[9], R[9], S[9];
} jacobian_blocks;

static const int kTopRows[3] = {0, 3, 4}, kBottomRows[3] = {1, 2, 5};

static void jacobian_blocks_make(jacobian_blocks *j, const sovc_implicit_eval *a,
                                 const sovc_implicit_eval *b, const sovc_frame *F,
                                 const double pA[3], const double pB[3]) {
  const double dp[3] = {pB[0] - pA[0], pB[1] - pA[1], pB[2] - pA[2]};
  double v[3], rowA[3];
  for (int c = 0; c < 3; ++c) {
    j->P[c] = a->g[c];
    j->Q[c] = 0;
    j->R[6 + c] = 0;
    j->S[6 + c] = b->g[c];
  }
  for (int q = 0; q < 2; ++q) {
    const double *tq = q == 0 ? F->t : F->b;
    /* Rows 1-2: tq . nB. */
    sovc_frame_dvec(v, F, a->n, q, b->n);
    sovc_dnormal(j->R + 3 * q, a, v);
    sovc_dnormal(j->S + 3 * q, b, tq);
    /* Rows 3-4: tq . (pB - pA). */
    sovc_frame_dvec(v, F, a->n, q, dp);
    sovc_dnormal(rowA, a, v);
    for (int c = 0; c < 3; ++c) {
      j->P[3 * (1 + q) + c] = rowA[c] - tq[c];
      j->Q[3 * (1 + q) + c] = tq[c];
    }
  }
}

/* The blocks as the 6 x 6 Jacobian (column-major; columns 0-2 pA, 3-5 pB). */
static void jacobian_full(double J[36], const jacobian_blocks *j) {
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 3; ++c) {
      J[6 * c + kTopRows[i]] = j->P[3 * i + c];
      J[6 * (c + 3) + kTopRows[i]] = j->Q[3 * i + c];
      J[6 * c + kBottomRows[i]] = j->R[3 * i + c];
      J[6 * (c + 3) + kBottomRows[i]] = j->S[3 * i + c];
    }
}

/* Analytic 6x6 Jacobian (column-major; columns 0-2 pA, 3-5 pB). */
static void jacobian(double J[36], const sovc_implicit_eval *a, const sovc_implicit_eval *b,
                     const sovc_frame *F, const double pA[3], const double pB[3]) {
  jacobian_blocks j;
  jacobian_blocks_make(&j, a, b, F, pA, pB);
  jacobian_full(J, &j);
}

/* Euclidean norm of a 6-vector. */
static double norm6(const double r[6]) {
  /* Written out: as a loop it was vectorised into 16-byte loads of r just
   * stored as scalars, which stall. */
  return sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3] + r[4] * r[4] + r[5] * r[5]);
}

/* Finish: validate the common-normal pair (normals nA, nB) and fill result. */
static int finish(sovc_result *res, const double nA[3], const double nB[3], const double pA[3],
                  const double pB[3], double rn) {
  sovc_result_set(res, pA, pB, nA);
  res->residual = rn;
  res->method = SOVC_METHOD_IMPLICIT;
  /* tA . nB = bA . nB = 0 also holds for nB = +nA: not a contact pair. */
  return sovc_dot(nA, nB) < 0 ? SOV_OK : SOV_ERR_SPURIOUS;
}

/* The caller's tolerance (length units), raised to the rounding floor of
 * world coordinates of size L, which no iteration can go below. */
static double scaled_tolerance(double tol, const double pA[3], const double pB[3]) {
  return fmax(tol, 64 * DBL_EPSILON * sovc_coordinate_size(pA, pB));
}

/* The residual of evaluated bodies in the Householder frame of A (made in
 * F); returns |r|, INFINITY if a normal is undefined or r is not finite. */
static double frame_residual(double r[6], const sovc_implicit_eval *a, const sovc_implicit_eval *b,
                             sovc_frame *F, const double pA[3], const double pB[3]) {
  /* r is written either way (with n = 0 where a gradient vanishes). */
  sovc_frame_make(F, a->n);
  residual(r, a, b, F, pA, pB);
  const double nr = norm6(r);
  return isfinite(nr) && a->gnorm > 0 && b->gnorm > 0 ? nr : INFINITY;
}

/* Evaluate both bodies with local Hessians at (pA, pB) and the residual in
 * the Householder frame of A; returns |r| (INFINITY if anything is not
 * finite). |r| does not depend on which axis the frame uses. The world
 * Hessians wait for sovc_posed_hessian: the last point needs none. */
static double evaluate(double r[6], sovc_implicit_eval *a, sovc_implicit_eval *b, sovc_frame *F,
                       const sovc_pair *P, const double pA[3], const double pB[3], int normalized) {
  sovc_posed_implicit(a, P->A, P->XA, pA, normalized, SOVC_LOCAL_HESSIAN);
  sovc_posed_implicit(b, P->B, P->XB, pB, normalized, SOVC_LOCAL_HESSIAN);
  return frame_residual(r, a, b, F, pA, pB);
}

/* Residual and Jacobian of Eq. 15 at one point (for checks and tests). */
double sovc_implicit_system(double r[6], double J[36], const sovc_pair *P, const double pA[3],
                            const double pB[3], int normalized) {
  sovc_implicit_eval a, b;
  sovc_frame F;
  const double rn = evaluate(r, &a, &b, &F, P, pA, pB, normalized);
  if (J && isfinite(rn)) {
    sovc_posed_hessian(&a, P->XA);
    sovc_posed_hessian(&b, P->XB);
    jacobian(J, &a, &b, &F, pA, pB);
  }
  return rn;
}

/* Inverse of the row-major 3 x 3 M by its adjugate; 0 where M is nearly
 * singular (|det| below 1e-12 of the product of its row lengths, the
 * largest |det| could be; compared squared, without roots) or not finite. */
static int inverse3(double Mi[9], const double M[9]) {
  const double c0 = M[4] * M[8] - M[5] * M[7], c1 = M[5] * M[6] - M[3] * M[8],
               c2 = M[3] * M[7] - M[4] * M[6];
  const double det = M[0] * c0 + M[1] * c1 + M[2] * c2;
  double scale2 = 1;
  for (int i = 0; i < 3; ++i)
    scale2 *= M[3 * i] * M[3 * i] + M[3 * i + 1] * M[3 * i + 1] + M[3 * i + 2] * M[3 * i + 2];
  if (!(det * det > 1e-24 * scale2) || !isfinite(det)) return 0;
  const double id = 1 / det;
  Mi[0] = c0 * id, Mi[3] = c1 * id, Mi[6] = c2 * id;
  Mi[1] = (M[2] * M[7] - M[1] * M[8]) * id, Mi[4] = (M[0] * M[8] - M[2] * M[6]) * id;
  Mi[7] = (M[1] * M[6] - M[0] * M[7]) * id;
  Mi[2] = (M[1] * M[5] - M[2] * M[4]) * id, Mi[5] = (M[2] * M[3] - M[0] * M[5]) * id;
  Mi[8] = (M[0] * M[4] - M[1] * M[3]) * id;
  return 1;
}

/* C = A B for row-major 3 x 3 matrices. */
static void mul3(double C[9], const double A[9], const double B[9]) {
  /* Written out: as loops it was vectorised into 16-byte loads of B just
   * stored as scalars (by inverse3), which stall. */
  C[0] = A[0] * B[0] + A[1] * B[3] + A[2] * B[6];
  C[1] = A[0] * B[1] + A[1] * B[4] + A[2] * B[7];
  C[2] = A[0] * B[2] + A[1] * B[5] + A[2] * B[8];
  C[3] = A[3] * B[0] + A[4] * B[3] + A[5] * B[6];
  C[4] = A[3] * B[1] + A[4] * B[4] + A[5] * B[7];
  C[5] = A[3] * B[2] + A[4] * B[5] + A[5] * B[8];
  C[6] = A[6] * B[0] + A[7] * B[3] + A[8] * B[6];
  C[7] = A[6] * B[1] + A[7] * B[4] + A[8] * B[7];
  C[8] = A[6] * B[2] + A[7] * B[5] + A[8] * B[8];
}

/* y = M x (row-major 3 x 3). */
static void apply3(double y[3], const double M[9], const double x[3]) {
  for (int i = 0; i < 3; ++i) y[i] = M[3 * i] * x[0] + M[3 * i + 1] * x[1] + M[3 * i + 2] * x[2];
}

/* Factors of the Jacobian for a Newton step. Rows 0, 3, 4 of
 * Eq. 15 (F_A and the tangential offsets) against pA form the block P:
 * A's gradient and, to first order, its two tangents, well conditioned
 * wherever the normal is defined. With Q (their pB part), R and S (rows
 * 1, 2, 5) the Schur complement S - R P^-1 Q is a 3 x 3 as well: two
 * dependent divisions instead of the six of a 6 x 6 LU's pivots. A nearly
 * singular block falls back to the pivoted LU. */
typedef struct step_factors {
  int blocks;
  double Pi[9], Q[9], RPi[9], Si[9];
  sovc_lu lu;
} step_factors;

/* Factor the Jacobian from its blocks. */
static int factor_step(step_factors *f, const jacobian_blocks *j) {
  double RPiQ[9], Sc[9];
  memcpy(f->Q, j->Q, sizeof f->Q);
  f->blocks = inverse3(f->Pi, j->P);
  if (f->blocks) {
    mul3(f->RPi, j->R, f->Pi);
    mul3(RPiQ, f->RPi, f->Q);
    for (int i = 0; i < 9; ++i) Sc[i] = j->S[i] - RPiQ[i];
    f->blocks = inverse3(f->Si, Sc);
  }
  if (f->blocks) return SOV_OK;
  double J[36];
  jacobian_full(J, j);
  return sovc_lu_factor(&f->lu, 6, J);
}

/* Overwrite b (6 entries, Eq. 15's row order) with J^-1 b. */
static void solve_step(const step_factors *f, double b[6]) {
  if (!f->blocks) {
    sovc_lu_solve(&f->lu, b);
    return;
  }
  const double top[3] = {b[0], b[3], b[4]}, bottom[3] = {b[1], b[2], b[5]};
  double t[3], y[3], xA[3], xB[3];
  apply3(t, f->RPi, top);
  for (int i = 0; i < 3; ++i) y[i] = bottom[i] - t[i];
  apply3(xB, f->Si, y);
  apply3(t, f->Q, xB);
  for (int i = 0; i < 3; ++i) y[i] = top[i] - t[i];
  apply3(xA, f->Pi, y);
  for (int i = 0; i < 3; ++i) b[i] = xA[i], b[3 + i] = xB[i];
}

/* Near a regular root Newton's steps and residuals shrink quadratically:
 * |s_k| is about K |s_(k-1)|^2, so the error left after step k is about
 * K |s_k|^2 = |s_k|^3 / |s_(k-1)|^2, and the residual after it about
 * |r_k|^3 / |r_(k-1)|^2 likewise. When both predictions lie below a share
 * of the tolerance and the residual is already within a few orders of it,
 * evaluating the step's end point would only confirm them: the step is
 * taken as the last one without it. The step model alone is fooled near
 * flat faces and pointy edges (a nearly singular Jacobian: the steps
 * shrink fast while the residual stalls; five of the hardening suite's
 * extreme pairs), and a near-diamond 1e6 wide gave both predictions below
 * the tolerance from a residual of 1, with a witness 2e-3 off: hence all
 * three tests. */
static const double kUnevaluatedShare = 1e-2, kUnevaluatedResidual = 1e3;

/* The larger of the two predictions for a step of length sn at residual rn
 * after a whole step of length prev_sn at residual prev_rn (prev_sn 0:
 * none, or a damped one); INFINITY unless steps and residuals contract. */
static double predicted_error(double sn, double rn, double prev_sn, double prev_rn) {
  if (!(prev_sn > 0) || !(sn <= 0.1 * prev_sn) || !(rn <= 0.1 * prev_rn)) return INFINITY;
  return fmax(sn * sn * sn / (prev_sn * prev_sn), rn * rn * rn / (prev_rn * prev_rn));
}

/* Finish with the step s from p taken without evaluating its end point:
 * the witnesses move by s and A's normal by its first-order change
 * (I - n n^T) H sA / |g|, both exact to the predicted (second-order) error. */
static int finish_unevaluated(sovc_result *res, const sovc_implicit_eval *a,
                              const sovc_implicit_eval *b, double p[6], const double s[6],
                              double predicted) {
  double Hs[3], n[3];
  for (int i = 0; i < 6; ++i) p[i] += s[i];
  sovc_rotate(Hs, a->H, s); /* H symmetric: row-major product is H sA */
  const double hn = sovc_dot(Hs, a->n);
  for (int i = 0; i < 3; ++i) n[i] = a->n[i] + (Hs[i] - hn * a->n[i]) * a->inv_gnorm;
  return finish(res, n, b->n, p, p + 3, predicted);
}

/* The bodies' evaluations at p (the point the answer came from) for a
 * cache. */
static void keep_last(sovc_cache_eval last[2], const sovc_implicit_eval *a,
                      const sovc_implicit_eval *b, const sovc_pose *XA, const sovc_pose *XB,
                      const double p[6]) {
  if (!last) return;
  sovc_posed_to_cache(&last[0], a, XA, p);
  sovc_posed_to_cache(&last[1], b, XB, p + 3);
}

/* The position chart's iterate: both points (the unknowns), the residual
 * and both bodies' evaluations there. */
typedef struct position_iterate {
  sovc_newton_iterate head; /* x: pA then pB; merit |r| */
  double r[6];
  sovc_implicit_eval a, b;
  sovc_frame F;
} position_iterate;

/* The position chart's context: the bodies, the configuration, the
 * tolerance at the current iterate and the last step (length, and the
 * residual it started from) for the prediction of the next. */
typedef struct position_chart {
  const sovc_pair *P;
  const sovc_newton_config *cfg;
  double tol, sn, prev_rn, predicted;
  int far;        /* the first step exceeded cfg->max_first_step */
  int first;      /* the step being searched is the first */
  int decided;    /* the caller's verdict decided */
  double step[6]; /* the last step, where it is taken unevaluated */
  step_factors factors;
} position_chart;

/* Evaluate both bodies at t's points. */
static inline SOVC_HOOK double position_evaluate(void *vc, sovc_newton_iterate *vt,
                                                 const sovc_newton_iterate *from) {
  (void)from;
  const position_chart *c = vc;
  position_iterate *t = (position_iterate *)vt;
  double *p = t->head.x;
  return evaluate(t->r, &t->a, &t->b, &t->F, c->P, p, p + 3, c->cfg->normalized);
}

/* The caller's verdict at x: A's normal, both points, and f along it. */
static int ask_verdict(const position_chart *c, const position_iterate *x) {
  const double *p = x->head.x;
  const double dp[3] = {p[0] - p[3], p[1] - p[4], p[2] - p[5]};
  const sovc_verdict *v = c->cfg->verdict;
  return v->decide(v->ctx, x->a.n, p, p + 3, sovc_dot(x->a.n, dp));
}

/* Converged below the tolerance, raised to the coordinates' rounding; or
 * decided by the caller's verdict (c->decided). */
static inline SOVC_HOOK int position_test(void *vc, sovc_newton_iterate *x) {
  position_chart *c = vc;
  c->tol = scaled_tolerance(c->cfg->tolerance, x->x, x->x + 3);
  if (x->merit < c->tol) return SOVC_NEWTON_DONE;
  if (c->cfg->verdict && ask_verdict(c, (const position_iterate *)x)) {
    c->decided = 1;
    return SOVC_NEWTON_DONE;
  }
  return SOVC_NEWTON_GO;
}

/* The Newton step from the Jacobian's blocks (or LAPACKE's LU for the
 * study's scheme); SOVC_NEWTON_FINISHED when the damped chart may take it
 * as the last one unevaluated. */
static inline SOVC_HOOK int position_step(void *vc, sovc_newton_iterate *vx, double *step, int it,
                                          int *iterations) {
  position_chart *c = vc;
  position_iterate *x = (position_iterate *)vx;
  const double *p = x->head.x, rn = x->head.merit;
  sovc_posed_hessian(&x->a, c->P->XA);
  sovc_posed_hessian(&x->b, c->P->XB);
  for (int i = 0; i < 6; ++i) step[i] = -x->r[i];
  *iterations = it + 1;
  int st;
  if (c->cfg->lapack) {
    double J[36];
    jacobian(J, &x->a, &x->b, &x->F, p, p + 3);
    st = sovc_solve(6, J, step);
  } else {
    jacobian_blocks jb;
    jacobian_blocks_make(&jb, &x->a, &x->b, &x->F, p, p + 3);
    st = factor_step(&c->factors, &jb);
    if (st == SOV_OK) solve_step(&c->factors, step);
  }
  if (st != SOV_OK) return st;
  const double prev_sn = x->head.alpha == 1 ? c->sn : 0;
  const double sn = norm6(step), predicted = predicted_error(sn, rn, prev_sn, c->prev_rn);
  c->sn = sn;
  c->prev_rn = rn;
  c->predicted = predicted;
  if (it == 0 && c->cfg->max_first_step > 0 && sn > c->cfg->max_first_step) {
    c->far = 1;
    return SOVC_NEWTON_STOP;
  }
  c->first = it == 0;
  if (c->cfg->damped && rn <= kUnevaluatedResidual * c->tol &&
      predicted <= kUnevaluatedShare * c->tol) {
    memcpy(c->step, step, sizeof c->step);
    return SOVC_NEWTON_FINISHED;
  }
  return SOV_OK;
}

/* Armijo's decrease of |r| (damped), or every full step (the study's). */
static inline SOVC_HOOK int position_accept(void *vc, const sovc_newton_iterate *t,
                                            const sovc_newton_iterate *x, double alpha) {
  const position_chart *c = vc;
  return c->cfg->damped ? sovc_newton_armijo(vc, t, x, alpha) : 1;
}

/* The damped chart stops where the line search found no decrease, the
 * study's scheme where its full step left the finite numbers. */
static inline SOVC_HOOK int position_stalled(void *vc, const sovc_newton_iterate *t,
                                             const sovc_newton_iterate *x) {
  position_chart *c = vc;
  if (c->first && c->cfg->max_first_step > 0 &&
      !(t->alpha == 1 && isfinite(t->merit) && t->merit < x->merit)) {
    c->far = 1;
    return SOVC_NEWTON_STOP;
  }
  if (!isfinite(t->merit)) return SOVC_NEWTON_STOP;
  return c->cfg->damped ? sovc_newton_decreased(vc, t, x) : SOVC_NEWTON_GO;
}

/* Damped or plain Newton on Eq. 15 (see implicit.h). The damped one (the
 * default method's) takes a final step unevaluated when the model allows. */
int sovc_solve_implicit_warm(sovc_result *res, const sovc_pair *P, const double pA0[3],
                             const double pB0[3], const sovc_newton_config *cfg,
                             const sovc_cache_eval start[2], sovc_cache_eval last[2]) {
  position_iterate its[2];
  position_iterate *x = &its[0];
  position_chart c = {.P = P, .cfg = cfg, .sn = 0, .prev_rn = INFINITY};
  const sovc_newton_chart chart = {.n = 6,
                                   .max_iterations = cfg->max_iterations,
                                   .halvings = cfg->damped ? SOVC_POSITION_CHART_HALVINGS : 1,
                                   .max_step = INFINITY,
                                   .finite_merit = 1,
                                   .final_test = 1,
                                   .evaluate = position_evaluate,
                                   .test = position_test,
                                   .step = position_step,
                                   .accept = position_accept,
                                   .stalled = position_stalled};
  double *p = x->head.x;
  x->head.alpha = 0;
  if (start) {
    sovc_posed_from_cache(&x->a, p, &start[0], P->XA);
    sovc_posed_from_cache(&x->b, p + 3, &start[1], P->XB);
    x->head.merit = frame_residual(x->r, &x->a, &x->b, &x->F, p, p + 3);
  } else {
    memcpy(p, pA0, 3 * sizeof(double));
    memcpy(p + 3, pB0, 3 * sizeof(double));
    x->head.merit = position_evaluate(&c, &x->head, NULL);
  }
  sovc_newton_iterate *out;
  const int st = sovc_newton_run(&out, &res->iterations, &chart, &c, &its[0].head, &its[1].head);
  if (c.decided) return SOVC_DECIDED;
  x = (position_iterate *)out;
  p = x->head.x;
  if (st == SOVC_NEWTON_FINISHED) {
    keep_last(last, &x->a, &x->b, P->XA, P->XB, p);
    return finish_unevaluated(res, &x->a, &x->b, p, c.step, c.predicted);
  }
  if (st == SOV_OK) {
    keep_last(last, &x->a, &x->b, P->XA, P->XB, p);
    return finish(res, x->a.n, x->b.n, p, p + 3, x->head.merit);
  }
  if (st == SOV_ERR_NO_CONVERGENCE) res->residual = x->head.merit;
  return c.far ? SOVC_FAR_START : st;
}

/* Newton from (pA0, pB0), evaluated there. */
int sovc_solve_implicit(sovc_result *res, const sovc_pair *P, const double pA0[3],
                        const double pB0[3], const sovc_newton_config *cfg) {
  return sovc_solve_implicit_warm(res, P, pA0, pB0, cfg, NULL, NULL);
}
