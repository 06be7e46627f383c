/* Direction-space Newton on the support-function objective (SPEC). */
#include "solver/direction.h"

#include <math.h>
#include <string.h>

#include "solver/newton.h"
#include "solver/pose.h"
#include "solver/posed.h"
#include "solver/result.h"
#include "solver/support.h"

/* sovc_refine_direction stops once its seed objective's error bound is
 * below this (relative to the coordinates), or once its Newton step would
 * turn v by less than kRefineAngle (radians): the exact charts polish. */
static const double kRefineTolerance = 1e-6, kRefineAngle = 0.1;
/* ... and halves a step at most this often: seed points are a start. */
enum { kRefineHalvings = 8 };

/* Longest tangent step tried first (radians, to first order). */
static const double kMaxTangentStep = 1;

/* The seed surface point of S in world direction v (sovc_support_seed:
 * the untapered body's support point carried through the taper) and v . p:
 * exact without tapers, close with them, and a closed form either way. */
static void seed_support(sovc_support_eval *e, const sovc_shape *S, const sovc_pose *X,
                         const double v[3]) {
  double vl[3], xl[3];
  sovc_rotate_t(vl, X->R, v);
  sovc_support_seed(xl, S, vl);
  sovc_to_world(e->p, X, xl);
  e->h = sovc_dot(v, e->p);
}

/* f(v) = h_A(v) + h_B(-v) with both support evaluations (seed points where
 * cheap). */
static double objective(sovc_support_eval *a, sovc_support_eval *b, const sovc_pair *P,
                        const double v[3], int cheap) {
  const double mv[3] = {-v[0], -v[1], -v[2]};
  if (cheap) {
    seed_support(a, P->A, P->XA, v);
    seed_support(b, P->B, P->XB, mv);
  } else {
    sovc_posed_support(a, P->A, P->XA, v);
    sovc_posed_support(b, P->B, P->XB, mv);
  }
  return a->h + b->h;
}

/* D_A + D_B - f I on the tangent frame (see direction.h). */
void sovc_sphere_hessian(double m[3], const sovc_support_eval *a, const sovc_support_eval *b,
                         const sovc_frame *fr, double f) {
  double M[9], Mt[3], Mb[3];
  for (int i = 0; i < 9; ++i) M[i] = a->D[i] + b->D[i];
  sovc_rotate(Mt, M, fr->t);
  sovc_rotate(Mb, M, fr->b);
  m[0] = fr->t[0] * Mt[0] + fr->t[1] * Mt[1] + fr->t[2] * Mt[2] - f;
  m[1] = fr->t[0] * Mb[0] + fr->t[1] * Mb[1] + fr->t[2] * Mb[2];
  m[2] = fr->b[0] * Mb[0] + fr->b[1] * Mb[1] + fr->b[2] * Mb[2] - f;
}

/* Newton step in the tangent plane of v: (D_A + D_B - f I) s = -P (pA - pB),
 * with the Hessian shifted to positive definite when it is not. */
static int newton_step(double step[3], const sovc_support_eval *a, const sovc_support_eval *b,
                       const double v[3], double f) {
  double g[3], m[3];
  sovc_frame fr;
  sovc_frame_make(&fr, v);
  const double *t = fr.t, *u = fr.b;
  sovc_sphere_hessian(m, a, b, &fr, f);
  double m00 = m[0], m01 = m[1], m11 = m[2];
  for (int i = 0; i < 3; ++i) g[i] = a->p[i] - b->p[i];
  const double g0 = t[0] * g[0] + t[1] * g[1] + t[2] * g[2];
  const double g1 = u[0] * g[0] + u[1] * g[1] + u[2] * g[2];
  /* Smallest eigenvalue; shift so it is at least a fraction of the largest. */
  const double tr = m00 + m11, dt = m00 * m11 - m01 * m01;
  const double disc = sqrt(fmax(0, tr * tr / 4 - dt));
  const double lmin = tr / 2 - disc, lmax = tr / 2 + disc;
  const double floor_ = 1e-8 * fmax(fabs(lmax), 1e-300);
  if (lmin < floor_) {
    m00 += floor_ - lmin;
    m11 += floor_ - lmin;
  }
  const double det = m00 * m11 - m01 * m01;
  if (!(det > 0) || !isfinite(det)) return 0;
  const double s0 = -(m11 * g0 - m01 * g1) / det, s1 = -(m00 * g1 - m01 * g0) / det;
  for (int i = 0; i < 3; ++i) step[i] = s0 * t[i] + s1 * u[i];
  return 1;
}

/* Tangential part of pA - pB: the gradient of f on the sphere. */
static double gradient_norm(const sovc_support_eval *a, const sovc_support_eval *b,
                            const double v[3]) {
  double g[3] = {a->p[0] - b->p[0], a->p[1] - b->p[1], a->p[2] - b->p[2]};
  const double gv = g[0] * v[0] + g[1] * v[1] + g[2] * v[2];
  for (int i = 0; i < 3; ++i) g[i] -= gv * v[i];
  return sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
}

/* Fill result from the supports at unit v: n = v, d = -f. */
static int answer(sovc_result *res, const sovc_support_eval *a, const sovc_support_eval *b,
                  const double v[3], double f, double gap) {
  res->d = -f;
  for (int i = 0; i < 3; ++i) {
    res->n[i] = v[i];
    res->pA[i] = a->p[i];
    res->pB[i] = b->p[i];
  }
  res->residual = gap;
  res->method = SOVC_METHOD_AUTO;
  return SOV_OK;
}

/* One iterate: the direction (the unknowns) with both supports; once
 * tested, the error bound of its value and the Newton step from it. */
typedef struct direction_iterate {
  sovc_newton_iterate head; /* x: unit v; merit f(v) */
  sovc_support_eval a, b;
  double gn, err, L, slope, step[3];
  int have_step;
} direction_iterate;

/* The chart's context: the bodies, the tolerance, and the gradient's norm
 * at the last iterate tested. */
typedef struct direction_chart {
  const sovc_pair *P;
  double tol, last_gn;
  double radius;   /* trust radius: the first trial step's longest length */
  double step_len; /* the length of the last step tried */
  int cheap;         /* seed points instead of exact supports (a start, not an answer) */
  double stop_angle; /* cheap: done once the Newton step turns v by less */
  const sovc_verdict *verdict; /* asked at every iterate (may be NULL) */
  int said;          /* the verdict's nonzero answer */
} direction_chart;

/* Both supports along t's direction, normalised first (a retraction onto
 * the sphere), their 1-D searches hinted by from's. */
static double direction_evaluate(void *vc, sovc_newton_iterate *vt,
                                 const sovc_newton_iterate *from) {
  const direction_chart *c = vc;
  direction_iterate *t = (direction_iterate *)vt;
  double *v = t->head.x;
  const double n = 1 / sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  for (int i = 0; i < 3; ++i) v[i] *= n;
  const direction_iterate *f = (const direction_iterate *)from;
  t->a.z = f ? f->a.z : NAN;
  t->b.z = f ? f->b.z : NAN;
  return objective(&t->a, &t->b, c->P, v, c->cheap);
}

/* Error in d: for separated bodies |pB - pA| - |d| bounds it (quadratic in
 * the tangential gradient). For an overlap it does not: the error is about
 * half the Newton decrement g^T M^-1 g, large near a flat optimum (small
 * curvature M) even when the gap is tiny. Once the error is small, iterate
 * on while the gradient still shrinks fast (pointy supports: it does, and
 * the witnesses become consistent); stop when it stalls (a flat face's
 * support point is ill-determined, d is not: the witnesses are then
 * balanced by the caller). */
static int direction_test(void *vc, sovc_newton_iterate *vx) {
  direction_chart *c = vc;
  direction_iterate *x = (direction_iterate *)vx;
  const double *v = x->head.x, f = x->head.merit;
  if (c->verdict && (c->said = c->verdict->decide(c->verdict->ctx, v, x->a.p, x->b.p, f)))
    return SOVC_NEWTON_DONE;
  x->gn = gradient_norm(&x->a, &x->b, v);
  const double gap = sqrt(f * f + x->gn * x->gn) - fabs(f);
  x->L = sovc_coordinate_size(x->a.p, x->b.p);
  const double mv[3] = {-v[0], -v[1], -v[2]};
  x->have_step = sovc_support_derivative(&x->a, c->P->A, c->P->XA, v) &&
                 sovc_support_derivative(&x->b, c->P->B, c->P->XB, mv) &&
                 newton_step(x->step, &x->a, &x->b, v, f);
  x->slope = 0;
  for (int i = 0; x->have_step && i < 3; ++i) x->slope += x->step[i] * (x->a.p[i] - x->b.p[i]);
  x->err = f > 0 && x->have_step ? fmax(gap, -0.5 * x->slope) : gap;
  if (c->cheap && x->have_step && sovc_dot(x->step, x->step) < c->stop_angle * c->stop_angle)
    return SOVC_NEWTON_DONE;
  if (x->err < c->tol * x->L &&
      (x->gn < c->tol * x->L || x->gn > 0.25 * c->last_gn || !x->have_step))
    return SOVC_NEWTON_DONE;
  c->last_gn = x->gn;
  return SOVC_NEWTON_GO;
}

/* The step test() formed; none where the curvature gave none. */
static int direction_step(void *vc, sovc_newton_iterate *vx, double *step, int it,
                          int *iterations) {
  direction_chart *c = vc;
  direction_iterate *x = (direction_iterate *)vx;
  if (!x->have_step) return SOVC_NEWTON_STOP;
  *iterations = it + 1;
  const double len = sqrt(sovc_dot(x->step, x->step));
  const double s = len > c->radius ? c->radius / len : 1;
  for (int i = 0; i < 3; ++i) step[i] = s * x->step[i];
  x->slope *= s;
  c->step_len = s * len;
  return SOV_OK;
}

/* Armijo's decrease of f along the step's slope. */
static int direction_accept(void *vc, const sovc_newton_iterate *t, const sovc_newton_iterate *vx,
                            double alpha) {
  (void)vc;
  const direction_iterate *x = (const direction_iterate *)vx;
  return t->merit <= x->head.merit + 1e-4 * alpha * fmin(x->slope, 0);
}

/* No descent left: converged in d if the error bound says so. */
static int direction_stalled(void *vc, const sovc_newton_iterate *t,
                             const sovc_newton_iterate *vx) {
  direction_chart *c = vc;
  const direction_iterate *x = (const direction_iterate *)vx;
  if (t->merit <= x->head.merit) {
    /* Trust the length that worked: grow it after a full step, shrink it
     * to what the line search took otherwise. */
    const double taken = t->alpha * c->step_len;
    c->radius = t->alpha == 1 ? fmin(kMaxTangentStep, fmax(c->radius, 2 * taken)) : taken;
    return SOVC_NEWTON_GO;
  }
  return x->err < c->tol * x->L ? SOVC_NEWTON_DONE : SOVC_NEWTON_STOP;
}

/* This chart's Newton run from v0, evaluated there: the driver with
 * Armijo backtracking on f, inlined with the chart a constant in each
 * caller (as the driver needs, to inline the hooks). */
static inline SOVC_HOOK int direction_run(sovc_newton_iterate **out, int *iterations,
                                          direction_chart *c, direction_iterate its[2],
                                          const double v0[3], int max_iterations, int halvings,
                                          int finite_merit) {
  const sovc_newton_chart chart = {.n = 3,
                                   .max_iterations = max_iterations,
                                   .halvings = halvings,
                                   .max_step = INFINITY,
                                   .finite_merit = finite_merit,
                                   .final_test = 0,
                                   .evaluate = direction_evaluate,
                                   .test = direction_test,
                                   .step = direction_step,
                                   .accept = direction_accept,
                                   .stalled = direction_stalled};
  for (int i = 0; i < 3; ++i) its[0].head.x[i] = v0[i];
  its[0].head.alpha = 0;
  its[0].head.merit = direction_evaluate(c, &its[0].head, NULL);
  return sovc_newton_run(out, iterations, &chart, c, &its[0].head, &its[1].head);
}

/* A tangent step longer than kMaxTangentStep only turns v further towards
 * the step's own direction; where the curvature nearly vanishes (edges,
 * corners) Newton's step is 1e6 or more, and halving it down from there
 * cost 20 to 30 support pairs per iteration. */
int sovc_solve_direction(sovc_result *res, const sovc_pair *P, const double v0[3], double tol,
                         int max_iterations, const sovc_verdict *verdict) {
  direction_iterate its[2];
  direction_chart c = {P, tol, INFINITY, kMaxTangentStep, 0, 0, 0, verdict, 0};
  const double start[3] = {v0[0] + 0.0, v0[1] + 0.0, v0[2] + 0.0}; /* a zero step's retraction */
  sovc_newton_iterate *out;
  const int st = direction_run(&out, &res->iterations, &c, its, start, max_iterations, 40, 0);
  if (c.said) return SOVC_DECIDED;
  if (st != SOV_OK) return SOV_ERR_NO_CONVERGENCE;
  const direction_iterate *x = (const direction_iterate *)out;
  return answer(res, &x->a, &x->b, x->head.x, x->head.merit, x->err);
}

static int refine(double v[3], const sovc_pair *P, int max_iterations,
                  const sovc_verdict *verdict);

/* See direction.h. */
void sovc_refine_direction(double v[3], const sovc_pair *P, int max_iterations) {
  refine(v, P, max_iterations, NULL);
}

/* See direction.h. */
int sovc_direction_verdict(double v[3], const sovc_pair *P, int max_iterations,
                           const sovc_verdict *verdict) {
  return refine(v, P, max_iterations, verdict);
}

/* Steps of this chart from v on seed points, asking verdict (if any) at
 * each iterate; v becomes the last iterate. Without a verdict the steps
 * stop at one below kRefineAngle. */
static int refine(double v[3], const sovc_pair *P, int max_iterations,
                  const sovc_verdict *verdict) {
  direction_iterate its[2];
  direction_chart c = {
      P, kRefineTolerance, INFINITY, kMaxTangentStep, 0, 1, verdict ? 0 : kRefineAngle, verdict, 0};
  sovc_newton_iterate *out;
  int iterations;
  direction_run(&out, &iterations, &c, its, v, max_iterations, kRefineHalvings, 1);
  if (sovc_all_finite(out->x, 3)) memcpy(v, out->x, 3 * sizeof(double));
  return c.said;
}
