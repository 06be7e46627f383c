/* The study's parametric common-normal methods: the 4x4 Newton system of
 * study Eq. 18 in the angles (phi1A, phi2A, phi1B, phi2B), and the ntb variant
 * with the same unknowns and implicit normal/tangent/bitangent equations.
 * Both are undamped Newton, as in the study, with analytic Jacobians. */
#include "solver/parametric_solve.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "solver/linalg.h"
#include "solver/newton.h"
#include "solver/parametric.h"
#include "solver/pose.h"
#include "solver/result.h"

/* B's outward normal counts as opposite A's when nA . nB <= -1 + this. */
#define SOVC_OPPOSITE_TOL 1e-6
/* pB - pA counts as parallel to nA when |nA x (pB - pA)| <= this (length
 * units; a spurious pair is off by a sizeable fraction of the body). */
#define SOVC_PARALLEL_TOL 1e-6
/* Slack (length units) below the bounding-box lower bound of the answer
 * before a pair counts as a far-side pair (the bound is exact for spheres
 * on a coordinate axis). */
#define SOVC_BOUND_SLACK 1e-9
/* Relative slack of the second-order test on overlapping answers. */
#define SOVC_CURVATURE_TOL 1e-9

/* One posed body at one angle pair, world frame: point, tangents
 * dp/dphi1 and dp/dphi2, second derivatives (11, 12, 22), outward unit
 * normal. */
typedef struct sovc_geom {
  double p[3];
  double t[2][3];
  double x[3][3];
  double n[3];
} sovc_geom;

/* Residual f[4], column-major Jacobian J[16] (d f_i / d phi_j at J[i + 4 j])
 * and stopping norm *res of one method at the geometry of A and B. */
typedef void (*sovc_system)(double f[4], double J[16], double *res,
                            const sovc_geom *a, const sovc_geom *b);

/* World geometry of a posed shape at (phi1, phi2). */
static void geom_eval(sovc_geom *g, const sovc_shape *shape, const sovc_pose *X,
                      double phi1, double phi2) {
  sovc_surface_point s;
  sovc_param_point(&s, shape, phi1, phi2);
  sovc_to_world(g->p, X, s.x);
  sovc_rotate(g->t[0], X->R, s.t1);
  sovc_rotate(g->t[1], X->R, s.t2);
  sovc_rotate(g->x[0], X->R, s.x11);
  sovc_rotate(g->x[1], X->R, s.x12);
  sovc_rotate(g->x[2], X->R, s.x22);
  sovc_rotate(g->n, X->R, s.n);
}

/* dn/dphi1 and dn/dphi2 of the unit normal from the Weingarten equations
 * dn_a . t_c = -n . x_ac, dn_a in the tangent plane: dn = -L G^-1 t. */
static void geom_normal_derivs(double dn[2][3], const sovc_geom *g) {
  const double G11 = sovc_dot(g->t[0], g->t[0]), G12 = sovc_dot(g->t[0], g->t[1]);
  const double G22 = sovc_dot(g->t[1], g->t[1]);
  const double L11 = sovc_dot(g->n, g->x[0]), L12 = sovc_dot(g->n, g->x[1]);
  const double L22 = sovc_dot(g->n, g->x[2]);
  const double det = G11 * G22 - G12 * G12;
  const double C[2][2] = {{-(L11 * G22 - L12 * G12) / det, -(L12 * G11 - L11 * G12) / det},
                          {-(L12 * G22 - L22 * G12) / det, -(L22 * G11 - L12 * G12) / det}};
  for (int a = 0; a < 2; ++a)
    for (int i = 0; i < 3; ++i) dn[a][i] = C[a][0] * g->t[0][i] + C[a][1] * g->t[1][i];
}

/* Tangent T[0] and bitangent T[1] of unit n: the columns j != k of the
 * Householder reflection I - 2 v v^T / v.v, v = n + sign(n_k) e_k, which maps
 * e_k to -sign(n_k) n, k = argmax |n_k| (stable sign). dT[m][a] is the
 * derivative of T[m] along dn[a] with k held fixed. dn may be NULL. */
static void ntb_basis(double T[2][3], double dT[2][2][3], const double n[3],
                      const double dn[2][3]) {
  int k = 0;
  if (fabs(n[1]) > fabs(n[k])) k = 1;
  if (fabs(n[2]) > fabs(n[k])) k = 2;
  const double s = n[k] < 0 ? -1.0 : 1.0, q = 1.0 + fabs(n[k]);
  double v[3] = {n[0], n[1], n[2]};
  v[k] += s;
  for (int m = 0; m < 2; ++m) {
    const int j = (k + 1 + m) % 3;
    for (int i = 0; i < 3; ++i) T[m][i] = (i == j ? 1.0 : 0.0) - v[i] * n[j] / q;
    if (!dn) continue;
    for (int a = 0; a < 2; ++a)
      for (int i = 0; i < 3; ++i)
        dT[m][a][i] = -(dn[a][i] * n[j] + v[i] * dn[a][j]) / q +
                      v[i] * n[j] * s * dn[a][k] / (q * q);
  }
}

/* Study Eq. 18: tA_i . (pB - pA) = 0 and tB_i . (pB - pA) = 0 with the raw
 * tangents; the stopping norm uses unit tangents (length units). */
static void param_system(double f[4], double J[16], double *res,
                         const sovc_geom *a, const sovc_geom *b) {
  const double D[3] = {b->p[0] - a->p[0], b->p[1] - a->p[1], b->p[2] - a->p[2]};
  double r2 = 0.0;
  for (int i = 0; i < 2; ++i) {
    f[i] = sovc_dot(a->t[i], D);
    f[2 + i] = sovc_dot(b->t[i], D);
    r2 += f[i] * f[i] / sovc_dot(a->t[i], a->t[i]) +
          f[2 + i] * f[2 + i] / sovc_dot(b->t[i], b->t[i]);
    for (int j = 0; j < 2; ++j) {
      J[i + 4 * j] = sovc_dot(a->x[i + j], D) - sovc_dot(a->t[i], a->t[j]);
      J[i + 4 * (2 + j)] = sovc_dot(a->t[i], b->t[j]);
      J[2 + i + 4 * j] = -sovc_dot(b->t[i], a->t[j]);
      J[2 + i + 4 * (2 + j)] = sovc_dot(b->x[i + j], D) + sovc_dot(b->t[i], b->t[j]);
    }
  }
  *res = sqrt(r2);
}

/* ntb variant: tA . nB = bA . nB = 0 and tA . (pB - pA) = bA . (pB - pA) = 0
 * with (tA, bA) the Householder basis of nA; analytic Jacobian (normal
 * derivatives from the Weingarten equations). Stopping norm: |f| (the first
 * two rows are sines of angles, the last two lengths). */
static void ntb_system(double f[4], double J[16], double *res,
                       const sovc_geom *a, const sovc_geom *b) {
  const double D[3] = {b->p[0] - a->p[0], b->p[1] - a->p[1], b->p[2] - a->p[2]};
  double dnA[2][3], dnB[2][3], T[2][3], dT[2][2][3];
  geom_normal_derivs(dnA, a);
  geom_normal_derivs(dnB, b);
  ntb_basis(T, dT, a->n, (const double(*)[3])dnA);
  for (int m = 0; m < 2; ++m) {
    f[m] = sovc_dot(T[m], b->n);
    f[2 + m] = sovc_dot(T[m], D);
    for (int c = 0; c < 2; ++c) {
      J[m + 4 * c] = sovc_dot(dT[m][c], b->n);
      J[m + 4 * (2 + c)] = sovc_dot(T[m], dnB[c]);
      J[2 + m + 4 * c] = sovc_dot(dT[m][c], D) - sovc_dot(T[m], a->t[c]);
      J[2 + m + 4 * (2 + c)] = sovc_dot(T[m], b->t[c]);
    }
  }
  *res = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2] + f[3] * f[3]);
}

/* One iterate: the four angles (the unknowns), both bodies' geometry
 * there, the residual, its Jacobian and its stopping norm. */
typedef struct angles_iterate {
  sovc_newton_iterate head; /* x: phiA then phiB; merit res where finite */
  sovc_geom a, b;
  double f[4], J[16], res;
} angles_iterate;

/* The scheme's context: the bodies, its system and tolerance. */
typedef struct angles_chart {
  const sovc_pair *P;
  sovc_system system;
  double tol;
} angles_chart;

/* Geometry, residual and Jacobian at t's angles. */
static double angles_evaluate(void *vc, sovc_newton_iterate *vt, const sovc_newton_iterate *from) {
  (void)from;
  const angles_chart *c = vc;
  angles_iterate *t = (angles_iterate *)vt;
  const double *phi = t->head.x;
  geom_eval(&t->a, c->P->A, c->P->XA, phi[0], phi[1]);
  geom_eval(&t->b, c->P->B, c->P->XB, phi[2], phi[3]);
  c->system(t->f, t->J, &t->res, &t->a, &t->b);
  return isfinite(t->res) && sovc_all_finite(t->f, 4) ? t->res : INFINITY;
}

/* Converged below the tolerance. */
static int angles_test(void *vc, sovc_newton_iterate *x) {
  const angles_chart *c = vc;
  return x->merit < c->tol ? SOVC_NEWTON_DONE : SOVC_NEWTON_GO;
}

/* The full Newton step by LAPACKE's LU, as the study solved it. */
static int angles_step(void *vc, sovc_newton_iterate *vx, double *step, int it, int *iterations) {
  (void)vc;
  const angles_iterate *x = (const angles_iterate *)vx;
  double J[16], f[4];
  if (!sovc_all_finite(x->J, 16)) return SOV_ERR_NO_CONVERGENCE;
  memcpy(J, x->J, sizeof J);
  memcpy(f, x->f, sizeof f);
  if (sovc_solve(4, J, f) != SOV_OK) return SOV_ERR_SINGULAR;
  if (!sovc_all_finite(f, 4)) return SOV_ERR_NO_CONVERGENCE;
  for (int i = 0; i < 4; ++i) step[i] = -f[i];
  *iterations = it + 1;
  return SOV_OK;
}

/* Undamped: move on even to a point that is not finite (the run ends there). */
static int angles_stalled(void *vc, const sovc_newton_iterate *t, const sovc_newton_iterate *x) {
  (void)vc, (void)t, (void)x;
  return SOVC_NEWTON_GO;
}

/* Undamped Newton on system from phi[4]; *out is the final iterate (its
 * geometry, its stopping norm), *iters the steps taken. OK only when the
 * norm is below the tolerance at that iterate. */
static int newton(const angles_iterate **out, int *iters, angles_iterate its[2],
                  const double phi[4], const sovc_pair *P, sovc_system system,
                  const sovc_options *options) {
  angles_chart c = {P, system, options->tolerance};
  const sovc_newton_chart chart = {.n = 4,
                                   .max_iterations = options->max_iterations,
                                   .halvings = 1,
                                   .max_step = INFINITY,
                                   .finite_merit = 1,
                                   .final_test = 1,
                                   .evaluate = angles_evaluate,
                                   .test = angles_test,
                                   .step = angles_step,
                                   .accept = sovc_newton_full_step,
                                   .stalled = angles_stalled};
  memcpy(its[0].head.x, phi, 4 * sizeof(double));
  its[0].head.alpha = 0;
  its[0].head.merit = angles_evaluate(&c, &its[0].head, NULL);
  sovc_newton_iterate *last;
  const int st = sovc_newton_run(&last, iters, &chart, &c, &its[0].head, &its[1].head);
  *out = (const angles_iterate *)last;
  return st;
}

/* Radii-of-curvature tensor R (r11, r12, r22) of g in the orthonormal tangent
 * basis E: P II^-1 P^T with P = E^T [t1 t2], II = -n . x_ij. 0 when the point
 * is flat (II singular) or the numbers are not finite: no verdict. */
static int radii_tensor(double R[3], const sovc_geom *g, const double E[2][3]) {
  const double I11 = -sovc_dot(g->n, g->x[0]), I12 = -sovc_dot(g->n, g->x[1]);
  const double I22 = -sovc_dot(g->n, g->x[2]);
  const double det = I11 * I22 - I12 * I12;
  if (!(det > 0.0)) return 0;
  const double P[2][2] = {{sovc_dot(E[0], g->t[0]), sovc_dot(E[0], g->t[1])},
                          {sovc_dot(E[1], g->t[0]), sovc_dot(E[1], g->t[1])}};
  double Q[2][2];
  for (int r = 0; r < 2; ++r) {
    Q[r][0] = (P[r][0] * I22 - P[r][1] * I12) / det;
    Q[r][1] = (P[r][1] * I11 - P[r][0] * I12) / det;
  }
  R[0] = Q[0][0] * P[0][0] + Q[0][1] * P[0][1];
  R[1] = Q[0][0] * P[1][0] + Q[0][1] * P[1][1];
  R[2] = Q[1][0] * P[1][0] + Q[1][1] * P[1][1];
  return sovc_all_finite(R, 3);
}

/* Second-order test for an overlapping pair (d < 0): the answer maximises
 * -(h_A(v) + h_B(-v)), whose spherical Hessian at n is -(R_A + R_B + d I);
 * far-side and saddle pairs make R_A + R_B + d I indefinite. 1 = plausible. */
static int is_local_max(const sovc_geom *a, const sovc_geom *b, double d) {
  double E[2][3], RA[3], RB[3];
  ntb_basis(E, NULL, a->n, NULL);
  if (!radii_tensor(RA, a, (const double(*)[3])E) ||
      !radii_tensor(RB, b, (const double(*)[3])E))
    return 1;
  const double m11 = RA[0] + RB[0] + d, m12 = RA[1] + RB[1], m22 = RA[2] + RB[2] + d;
  const double lmin = 0.5 * (m11 + m22 - sqrt((m11 - m22) * (m11 - m22) + 4.0 * m12 * m12));
  const double scale = fabs(RA[0] + RA[2]) + fabs(RB[0] + RB[2]) + 2.0 * fabs(d);
  return lmin >= -SOVC_CURVATURE_TOL * scale;
}

/* Support of the local bounding box of shape (half extents a1 (1 + |tx|),
 * a2 (1 + |ty|), a3) about its centre, in world direction v: an upper bound
 * of the body's support h(v) - v . p. */
static double box_support(const sovc_shape *shape, const sovc_pose *X, const double v[3]) {
  double l[3];
  sovc_rotate_t(l, X->R, v);
  return fabs(l[0]) * shape->a[0] * (1.0 + fabs(shape->taper[0])) +
         fabs(l[1]) * shape->a[1] * (1.0 + fabs(shape->taper[1])) + fabs(l[2]) * shape->a[2];
}

/* Lower bound of the SPEC signed distance: the largest of
 * |v . (pB - pA)| - h_A(v) - h_B(v) (supports about the centres, bounded by
 * the bounding boxes) over the centre line and both bodies' local axes. */
static double distance_lower_bound(const sovc_pair *P) {
  const double c[3] = {P->XB->p[0] - P->XA->p[0], P->XB->p[1] - P->XA->p[1],
                       P->XB->p[2] - P->XA->p[2]};
  const double L = sqrt(sovc_dot(c, c));
  double best = -HUGE_VAL;
  if (L > 0.0) best = L - (box_support(P->A, P->XA, c) + box_support(P->B, P->XB, c)) / L;
  for (int k = 0; k < 6; ++k) {
    const sovc_pose *X = k < 3 ? P->XA : P->XB;
    const double v[3] = {X->R[k % 3], X->R[3 + k % 3], X->R[6 + k % 3]};
    const double b =
        fabs(sovc_dot(v, c)) - box_support(P->A, P->XA, v) - box_support(P->B, P->XB, v);
    if (b > best) best = b;
  }
  return best;
}

/* SOV_OK if the converged pair is the answer's kind: normals opposite,
 * pB - pA parallel to nA, d not below the lower bound `bound` of the answer,
 * and (overlapping) a local maximum over directions; else SOV_ERR_SPURIOUS. */
static int check_pair(const sovc_geom *a, const sovc_geom *b, double d, double bound) {
  const double D[3] = {b->p[0] - a->p[0], b->p[1] - a->p[1], b->p[2] - a->p[2]};
  const double c[3] = {a->n[1] * D[2] - a->n[2] * D[1], a->n[2] * D[0] - a->n[0] * D[2],
                       a->n[0] * D[1] - a->n[1] * D[0]};
  if (sovc_dot(a->n, b->n) > -1.0 + SOVC_OPPOSITE_TOL) return SOV_ERR_SPURIOUS;
  if (sqrt(sovc_dot(c, c)) > SOVC_PARALLEL_TOL) return SOV_ERR_SPURIOUS;
  if (d < bound - SOVC_BOUND_SLACK) return SOV_ERR_SPURIOUS;
  if (d < 0.0 && !is_local_max(a, b, d)) return SOV_ERR_SPURIOUS;
  return SOV_OK;
}

/* Shared driver: check arguments, run Newton from the seed angles, fill
 * result from the final iterate (also on failure) and classify it. */
static int solve_angles(sovc_result *result, const sovc_pair *P, const double phiA[2],
                        const double phiB[2], const sovc_options *options, sovc_system system,
                        sovc_method method) {
  if (!result || !P->A || !P->XA || !P->B || !P->XB || !phiA || !phiB || !options)
    return SOV_ERR_NULL;
  if (!(options->tolerance > 0.0) || !isfinite(options->tolerance) ||
      options->max_iterations < 0)
    return SOV_ERR_OPTION;
  double phi[4] = {phiA[0], phiA[1], phiB[0], phiB[1]};
  if (!sovc_all_finite(phi, 4)) return SOV_ERR_NONFINITE;
  angles_iterate its[2];
  const angles_iterate *x;
  int iters = 0;
  int status = newton(&x, &iters, its, phi, P, system, options);
  sovc_result_set(result, x->a.p, x->b.p, x->a.n);
  result->iterations = iters;
  result->residual = x->res;
  result->method = method;
  if (status == SOV_OK && !(sovc_all_finite(result->n, 3) && isfinite(result->d)))
    status = SOV_ERR_NO_CONVERGENCE;
  if (status != SOV_OK) return status;
  return check_pair(&x->a, &x->b, result->d, distance_lower_bound(P));
}

/* Study Eq. 18: undamped 4x4 Newton in the angles from phiA, phiB. */
int sovc_solve_parametric(sovc_result *result, const sovc_pair *P, const double phiA[2],
                          const double phiB[2], const sovc_options *options) {
  return solve_angles(result, P, phiA, phiB, options, param_system, SOVC_METHOD_PARAMETRIC);
}

/* ntb variant: undamped 4x4 Newton in the angles, implicit-view equations. */
int sovc_solve_ntb(sovc_result *result, const sovc_pair *P, const double phiA[2],
                   const double phiB[2], const sovc_options *options) {
  return solve_angles(result, P, phiA, phiB, options, ntb_system, SOVC_METHOD_NTB);
}
