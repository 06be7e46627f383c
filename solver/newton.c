/* The damped-Newton driver shared by every chart (see newton.h). */
#include "solver/newton.h"

#include <math.h>
#include <stddef.h>

#include "solver/types.h"

/* First trial step length: 1, or less where the step is longer than the
 * chart's longest. */
static double first_alpha(const sovc_newton_chart *c, const double *step) {
  if (!isfinite(c->max_step)) return 1;
  double s = 0;
  for (int i = 0; i < c->n; ++i) s += step[i] * step[i];
  const double norm = sqrt(s);
  return norm > c->max_step ? c->max_step / norm : 1;
}

/* Backtracking line search from x along step into t; returns the length of
 * the last trial. */
static double line_search(const sovc_newton_chart *c, void *ctx, sovc_newton_iterate *t,
                          const sovc_newton_iterate *x, const double *step) {
  double alpha = first_alpha(c, step);
  for (int ls = 0; ls < c->halvings; ++ls, alpha *= 0.5) {
    for (int i = 0; i < c->n; ++i) t->x[i] = x->x[i] + alpha * step[i];
    t->merit = c->evaluate(ctx, t, x);
    if (c->accept(ctx, t, x, alpha)) break;
  }
  return alpha;
}

/* See newton.h. */
int sovc_newton_armijo(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x,
                       double alpha) {
  (void)ctx;
  return t->merit <= (1 - 1e-4 * alpha) * x->merit;
}

/* See newton.h. */
int sovc_newton_full_step(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x,
                          double alpha) {
  (void)ctx, (void)t, (void)x, (void)alpha;
  return 1;
}

/* See newton.h. */
int sovc_newton_decreased(void *ctx, const sovc_newton_iterate *t, const sovc_newton_iterate *x) {
  (void)ctx;
  return t->merit < x->merit ? SOVC_NEWTON_GO : SOVC_NEWTON_STOP;
}

/* See newton.h. */
int sovc_newton_run(sovc_newton_iterate **out, int *iterations, const sovc_newton_chart *c,
                    void *ctx, sovc_newton_iterate *x, sovc_newton_iterate *t) {
  double step[SOVC_NEWTON_MAX_UNKNOWNS];
  *iterations = 0;
  *out = x;
  for (int it = 0; it < c->max_iterations && (!c->finite_merit || isfinite(x->merit)); ++it) {
    if (c->test(ctx, x) == SOVC_NEWTON_DONE) return *out = x, SOV_OK;
    const int st = c->step(ctx, x, step, it, iterations);
    if (st == SOVC_NEWTON_FINISHED) return *out = x, st;
    if (st == SOVC_NEWTON_STOP) break;
    if (st != SOV_OK) return *out = x, st;
    const double alpha = line_search(c, ctx, t, x, step);
    const int next = c->stalled(ctx, t, x);
    if (next == SOVC_NEWTON_DONE) return *out = x, SOV_OK;
    if (next == SOVC_NEWTON_STOP) break;
    t->alpha = alpha;
    sovc_newton_iterate *swap = x;
    x = t;
    t = swap;
    *out = x;
  }
  if (c->final_test && (!c->finite_merit || isfinite(x->merit)) &&
      c->test(ctx, x) == SOVC_NEWTON_DONE)
    return SOV_OK;
  return SOV_ERR_NO_CONVERGENCE;
}
